"""The CuPy side of the exact solvers' board-major count kernels, for ``gpusim exact --backend
cupy``: loading a shape's ``kernels/exact_<game>.cu`` and launching it over board classes.

Each hold'em shape with such a kernel binds it in :mod:`gpusim.games.holdem`
(``call_once_cupy.py``, ``streets_cupy.py``):
one thread block per board class, every count an integer, the results equal to the CPU solver's
count for count. The device functions (``kernels/exact_*.cuh``) are compiled for the host by the
test suite and compared with the CPU solver on a subset of board classes, through the same
assembly functions the bindings apply to the kernels' output. Only the count stages run on the
GPU; the later stages and the pricing stay on the CPU (seconds).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import lru_cache

import numpy as np

__all__ = ["BLOCK", "class_launches", "kernel", "require_gpu", "unavailable_reason"]

BLOCK = 256
"""Threads per block (a #define of the kernels)."""


def unavailable_reason() -> str | None:
    """None when CuPy can run kernels here, else why not (one line): the simulation backend's
    check, so ``gpusim devices`` and ``gpusim exact --backend cupy`` give the same reason."""
    from gpusim.cuda import unavailable_reason as why_not

    return why_not()


@lru_cache(maxsize=8)
def kernel(source: str, entry: str, device_id: int):
    """The compiled function ``entry`` of ``kernels/<source>.cu`` on a device."""
    import cupy

    from gpusim.cuda import STDINT_PRELUDES, kernel_source

    del device_id  # part of the cache key: a module is loaded per device
    errors = []
    for stdint in STDINT_PRELUDES:
        module = cupy.RawModule(code=kernel_source(source, stdint),
                                options=("-std=c++17", f"-DGPUSIM_BLOCK={BLOCK}"))
        try:
            module.compile()
            return module.get_function(entry)
        except Exception as exc:  # a CompileException carries the NVRTC log; keep the first
            errors.append(exc)
    raise errors[0]


def require_gpu() -> None:
    why = unavailable_reason()
    if why is not None:
        raise RuntimeError(f"exact cupy backend: {why}")


def class_launches(
    ids: np.ndarray, launches: int, progress: Callable[[int, int], None] | None
) -> Iterator[tuple[int, np.ndarray]]:
    """(offset, board class ids) of each launch: ``launches`` slices of ``ids`` (a few launches
    give a progress bar, and each is still several waves of blocks on a large GPU: about 800
    resident blocks on an H200). ``progress(done, total)`` is called after each."""
    step = max(1, -(-len(ids) // launches))
    for s in range(0, len(ids), step):
        yield s, ids[s : s + step]
        if progress is not None:
            progress(min(s + step, len(ids)), len(ids))
