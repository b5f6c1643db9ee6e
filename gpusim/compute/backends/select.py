"""``--backend`` resolution: which compute path a run uses, and why.

``auto`` tries the fastest path first and falls back, saying why in one line:

1. ``cupy``: CuPy sees a device, the CUDA headers are there, the strategy has a kernel form
   and the kernel compiles (the compiled module is cached, so the run reuses it);
2. ``jax-gpu``: JAX sees a GPU;
3. ``jax-cpu``.

An explicit ``--backend cupy`` or ``jax-gpu`` that cannot run fails with that line instead.

The cupy check touches no JAX device, and choosing cupy sets
``XLA_PYTHON_CLIENT_PREALLOCATE=false`` before anything starts JAX's GPU client: JAX would
otherwise reserve most of the device memory that the CuPy kernels need.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from gpusim.compute.backends import BackendError

__all__ = ["BACKENDS", "Choice", "check_backend_name", "choose_backend"]

BACKENDS = ("auto", "jax-cpu", "jax-gpu", "cupy")


@dataclass(frozen=True)
class Choice:
    """The backend a run uses, its device's name, and the line to print (None: nothing)."""

    backend: str
    device: str
    note: str | None = None

    def __iter__(self):  # unpacks as (backend, device, note), like resolve_backend did
        return iter((self.backend, self.device, self.note))


def check_backend_name(backend: str) -> None:
    """BackendError unless ``backend`` is one of BACKENDS (no device is looked at)."""
    if backend not in BACKENDS:
        raise BackendError(f"--backend: got {backend!r}; allowed: {', '.join(BACKENDS)}")


def choose_backend(backend: str, rules=None, strategy=None) -> Choice:
    """Resolve ``backend`` (one of BACKENDS) for ``rules`` and ``strategy``.

    Without rules and strategy the cupy path is judged on the device alone (no compile).
    Raises BackendError (a one-line message naming ``--backend``) when an explicit backend
    cannot run or the name is unknown.
    """
    from gpusim.compute.backends import cupy_rounds as cb

    check_backend_name(backend)
    why_not_cupy = None
    if backend in ("auto", "cupy"):
        why_not_cupy = (cb.compile_reason(rules, strategy) if rules is not None
                        and strategy is not None else cb.unavailable_reason())  # fmt: skip
        if why_not_cupy is None:
            os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"] = "false"
            note = "auto: using cupy (CUDA kernels)" if backend == "auto" else None
            return Choice("cupy", cb.device_name(), note)
        if backend == "cupy":
            raise BackendError(f"--backend: got 'cupy' but {why_not_cupy}; use auto or jax-cpu")
    gpus, why_not_jax_gpu = jax_gpus()
    if backend == "jax-gpu":
        if not gpus:
            raise BackendError(f"--backend: got 'jax-gpu' but {why_not_jax_gpu}; use auto or "
                               "jax-cpu")  # fmt: skip
        return Choice("jax-gpu", gpus[0].device_kind)
    if backend == "auto" and gpus:
        return Choice("jax-gpu", gpus[0].device_kind,
                      f"auto: cupy unusable ({why_not_cupy}); using jax-gpu")  # fmt: skip
    import jax

    cpu = jax.devices("cpu")[0]
    name = f"cpu ({cpu.device_kind})"
    if backend == "auto":
        return Choice("jax-cpu", name, f"auto: no GPU backend usable (cupy: {why_not_cupy}; "
                                       f"jax-gpu: {why_not_jax_gpu}); using jax-cpu")  # fmt: skip
    return Choice("jax-cpu", name)


def jax_gpus() -> tuple[list, str | None]:
    """(JAX's GPU devices, why there are none)."""
    import jax

    try:
        gpus = jax.devices("gpu")
    except Exception as exc:  # no CUDA plugin: RuntimeError "Unknown backend: 'gpu' ..."
        text = " ".join(str(exc).split())
        if "Unknown backend" in text or "not in the list of known backends" in text:
            return [], ("JAX has no GPU platform (no CUDA plugin or no device; "
                        "pip install 'gpusim[cuda13]')")
        return [], f"JAX cannot start its GPU backend: {text[:200]}"
    if not gpus:
        return [], "JAX sees no GPU"
    return gpus, None
