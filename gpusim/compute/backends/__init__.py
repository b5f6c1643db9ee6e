"""Compute backends beside the JAX path of :mod:`gpusim.compute.chunks`.

- :mod:`gpusim.compute.backends.cupy_rounds`: the CuPy/CUDA fast path (fused per-game kernels from
  ``kernels/``), with ``unavailable_reason()`` (None, or one line saying why CuPy cannot run
  here), ``available()``, ``device_name()`` and ``make_chunk_runner(rules, strategy)``, whose
  chunks count exactly like :class:`gpusim.compute.chunks.ChunkRunner`'s. Importing it needs no
  CuPy; only running a chunk does.
- :mod:`gpusim.compute.backends.select`: ``--backend`` resolution, with ``auto``'s fallback from
  cupy to jax-gpu to jax-cpu.
- :mod:`gpusim.compute.backends.devices`: what ``gpusim devices`` reports.

The CUDA toolchain CuPy compiles with (NVRTC, the headers, the kernel sources) is in
:mod:`gpusim.cuda`, usable without a GPU.
"""


class BackendError(RuntimeError):
    """A backend cannot run (no device, no compiler, out of device memory); one-line message."""


__all__ = ["BackendError"]
