"""Compute backends beside the JAX path of :mod:`gpusim.sim.runner`.

- :mod:`gpusim.backends.cupy_backend`: the CuPy/CUDA fast path (fused per-game kernels from
  ``kernels/``), with ``available()``, ``device_name()`` and ``make_chunk_runner(rules,
  strategy)``, whose chunks count exactly like ``run_chunk``. Importing it needs no CuPy; only
  running a chunk does.
"""

__all__: list[str] = []
