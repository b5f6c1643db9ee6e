"""What ``gpusim devices`` reports: each backend, usable or not and why, and its devices.

:func:`report` returns a JSON-able dict::

    {"backends": [{"name", "usable", "reason", "devices": [{...}]}, ...],   # cupy, jax-gpu, jax-cpu
     "auto": "cupy" | "jax-gpu" | "jax-cpu",
     "cuda_toolchain": {"nvrtc", "headers", "kernels_compile", "reason"}}

The CUDA toolchain entry needs no GPU: it compiles every game's kernel with the NVRTC library and
the header folder that CuPy will use (PTX for compute_90), so a CPU-only machine can already tell
whether a GPU run would compile.
"""

from __future__ import annotations

import os

__all__ = ["report"]


def report(*, compile_kernels: bool = True) -> dict:
    """Probe every backend; never raises for a missing backend (it is reported instead)."""
    # This process only inspects devices: JAX must not reserve GPU memory while it does.
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    cupy_entry = _cupy_entry()
    jax_gpu, jax_cpu = _jax_entries()
    auto = next(b["name"] for b in (cupy_entry, jax_gpu, jax_cpu) if b["usable"])
    return {
        "backends": [cupy_entry, jax_gpu, jax_cpu],
        "auto": auto,
        "cuda_toolchain": _toolchain(compile_kernels),
    }


def _cupy_entry() -> dict:
    from gpusim.compute.backends import cupy_rounds as cb

    reason = cb.unavailable_reason()
    entry = {"name": "cupy", "usable": reason is None, "reason": reason, "devices": []}
    if reason is not None:
        return entry
    import cupy

    entry["cupy_version"] = cupy.__version__
    entry["runtime_version"] = _version(cupy.cuda.runtime.runtimeGetVersion())
    entry["driver_version"] = _version(cupy.cuda.runtime.driverGetVersion())
    for i in range(cupy.cuda.runtime.getDeviceCount()):
        p = cupy.cuda.runtime.getDeviceProperties(i)
        name = p["name"].decode() if isinstance(p["name"], bytes) else str(p["name"])
        entry["devices"].append({
            "id": i,
            "name": name,
            "compute_capability": f"{p['major']}.{p['minor']}",
            "multiprocessors": int(p["multiProcessorCount"]),
            "memory_bytes": int(p["totalGlobalMem"]),
            "shared_bytes_per_multiprocessor": int(p.get("sharedMemPerMultiprocessor", 0)),
            "registers_per_multiprocessor": int(p.get("regsPerMultiprocessor", 0)),
        })  # fmt: skip
    trivial = _trivial_kernel()
    entry["trivial_kernel"] = trivial
    if trivial != "ok":
        entry["usable"] = False
        entry["reason"] = f"a trivial kernel does not compile and run: {trivial}"
    return entry


def _trivial_kernel() -> str:
    """Compile, launch and check a one-line kernel through CuPy: "ok" or why not."""
    try:
        import cupy

        k = cupy.RawKernel(
            r'extern "C" __global__ void gpusim_probe(int* x) { x[threadIdx.x] = threadIdx.x; }',
            "gpusim_probe",
        )
        x = cupy.zeros(32, cupy.int32)
        k((1,), (32,), (x,))
        got = cupy.asnumpy(x).tolist()
        return "ok" if got == list(range(32)) else f"wrong result {got[:4]}..."
    except Exception as exc:
        from gpusim.cuda import one_line

        return one_line(exc)


def _version(v: int) -> str:
    return f"{v // 1000}.{v % 1000 // 10}"


def _jax_entries() -> tuple[dict, dict]:
    import jax

    from gpusim.compute.backends.select import jax_gpus

    gpus, why = jax_gpus()
    jax_gpu = {
        "name": "jax-gpu", "usable": bool(gpus), "reason": why,
        "devices": [{"id": d.id, "name": d.device_kind} for d in gpus],
    }  # fmt: skip
    cpus = jax.devices("cpu")
    jax_cpu = {
        "name": "jax-cpu", "usable": True, "reason": None, "jax_version": jax.__version__,
        "devices": [{"id": d.id, "name": d.device_kind, "cores": os.cpu_count()} for d in cpus],
    }  # fmt: skip
    return jax_gpu, jax_cpu


def _toolchain(compile_kernels: bool) -> dict:
    from gpusim import cuda

    out = {"nvrtc": cuda.nvrtc_version(), "headers": cuda.cuda_headers(),
           "kernels_compile": None, "reason": None}  # fmt: skip
    if out["nvrtc"] is None:
        out["reason"] = "NVRTC is not installed (pip install 'gpusim[cuda13]')"
    elif out["headers"] is None:
        out["reason"] = "the CUDA runtime headers are not installed (pip install 'gpusim[cuda13]')"
    elif compile_kernels:
        from gpusim.compute.backends.cupy_rounds import STRAT_TABLE, kernel_source
        from gpusim.games import SPECS

        for game in (s.kernel.source for s in SPECS.values() if s.kernel is not None):
            res = cuda.nvrtc_compile(
                cuda.HEADER_PROBE + kernel_source(game),
                ["-std=c++17", "-arch=compute_90", f"-I{out['headers']}",
                 f"-DGPUSIM_STRATEGY={STRAT_TABLE}"],
            )  # fmt: skip
            if not res.ok:
                out["kernels_compile"] = False
                first = next((ln for ln in res.log.splitlines() if ln.strip()), "no log")
                out["reason"] = f"NVRTC fails on the {game} kernel: {first.strip()}"
                return out
        out["kernels_compile"] = True
    return out
