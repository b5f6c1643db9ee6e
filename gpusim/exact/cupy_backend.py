"""The exact solvers' board-major counts as CUDA kernels (CuPy), for ``gpusim exact --backend
cupy``.

``kernels/exact_holdem_bonus.cu`` computes the Texas Hold'em Bonus river-level counts
(:func:`gpusim.exact.holdem_bonus.solve_river`), ``kernels/exact_casino_holdem.cu`` the Casino
Hold'em outcome counts (:func:`gpusim.exact.casino_holdem.solve_counts`): one thread block per
board class, every count an integer, the results equal to the CPU solver's count for count. The
device functions (``kernels/exact_*.cuh``) are compiled for the host by the test suite and
compared with the CPU solver on a subset of board classes, through the same assembly functions
(:func:`river_counts_from_rows`, :func:`ch_counts_from_rows`) this module applies to the
kernels' output.

Only the count stages run on the GPU; the turn stage and the pricing stay on the CPU (seconds).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np

__all__ = [
    "BLOCK",
    "ch_counts_from_rows",
    "river_counts_from_rows",
    "solve_counts_cupy",
    "solve_river_cupy",
    "unavailable_reason",
]

BLOCK = 256
"""Threads per block (a #define of the kernels)."""
# Board classes per launch: a few launches give a progress bar, and each is still several
# waves of blocks on a large GPU (about 800 resident blocks on an H200).
_LAUNCHES = {"exact_holdem_bonus": 4, "exact_casino_holdem": 2}


def unavailable_reason() -> str | None:
    """None when CuPy can run kernels here, else why not (one line): the simulation backend's
    check, so ``gpusim devices`` and ``gpusim exact --backend cupy`` give the same reason."""
    from gpusim.cuda import unavailable_reason as why_not

    return why_not()


@lru_cache(maxsize=8)
def _kernel(name: str, device_id: int):
    import cupy

    from gpusim.cuda import STDINT_PRELUDES, kernel_source

    del device_id  # part of the cache key: a module is loaded per device
    errors = []
    for stdint in STDINT_PRELUDES:
        module = cupy.RawModule(code=kernel_source(name, stdint),
                                options=("-std=c++17", f"-DGPUSIM_BLOCK={BLOCK}"))
        try:
            module.compile()
            return module.get_function(_ENTRY[name])
        except Exception as exc:  # a CompileException carries the NVRTC log; keep the first
            errors.append(exc)
    raise errors[0]


_ENTRY = {"exact_holdem_bonus": "gpusim_exact_thb_river",
          "exact_casino_holdem": "gpusim_exact_ch_flop"}


def _require_gpu() -> None:
    why = unavailable_reason()
    if why is not None:
        raise RuntimeError(f"exact cupy backend: {why}")


# --- Texas Hold'em Bonus ------------------------------------------------------------------------


def river_counts_from_rows(ids: np.ndarray, rows: dict[str, np.ndarray], ante_from: int):
    """Assemble :class:`~gpusim.exact.holdem_bonus.RiverCounts` from the kernel's output.

    ids: (m,) 4-card board class ids computed. rows: ``W``, ``L``, ``WX`` (m, 1326) uint16 (row
    r = class ids[r]); ``class_wins``, ``class_hands`` (1690,) and ``class_ties``,
    ``class_losses`` (169,) uint64 weighted totals over those classes. Classes not in ids keep
    zero counts, as in ``solve_river(board_ids=...)``.
    """
    from gpusim.exact.holdem_bonus import RiverCounts
    from gpusim.index import board_classes, subsets

    bcls = board_classes(4)
    n = bcls.n_classes
    ids = np.asarray(ids, dtype=np.int64)
    arrays = {}
    for name in ("W", "L", "WX"):
        a = np.zeros((n, 1326), dtype=np.uint16)
        a[ids] = np.asarray(rows[name], dtype=np.uint16)
        arrays[name] = a
    holes = subsets(2).astype(np.int32)
    valid = np.zeros((n, 1326), dtype=bool)
    reps = bcls.reps[ids]
    valid[ids] = ~(holes[None, :, :, None] == reps[:, None, None, :]).any(axis=(2, 3))
    return RiverCounts(
        boards=bcls.reps,
        weights=bcls.weights,
        valid=valid,
        class_wins=np.asarray(rows["class_wins"]).astype(np.int64).reshape(169, 10),
        class_ties=np.asarray(rows["class_ties"]).astype(np.int64),
        class_losses=np.asarray(rows["class_losses"]).astype(np.int64),
        class_hands=np.asarray(rows["class_hands"]).astype(np.int64).reshape(169, 10),
        ante_from=int(ante_from),
        **arrays,
    )


def solve_river_cupy(
    ante_from: int = 4,
    *,
    board_ids: np.ndarray | None = None,
    progress: Callable[[int, int], None] | None = None,
):
    """:func:`gpusim.exact.holdem_bonus.solve_river` on the current CUDA device (same result)."""
    _require_gpu()
    import cupy

    from gpusim.exact.holdem_bonus import HOLE_CLASS
    from gpusim.index import board_classes

    bcls = board_classes(4)
    ids = np.arange(bcls.n_classes) if board_ids is None else np.asarray(board_ids)
    kernel = _kernel("exact_holdem_bonus", cupy.cuda.Device().id)
    hole_class = cupy.asarray(HOLE_CLASS.astype(np.int16))
    tot = {k: cupy.zeros(s, cupy.uint64) for k, s in (("class_wins", 1690), ("class_hands", 1690),
                                                      ("class_ties", 169), ("class_losses", 169))}
    out = {k: np.zeros((len(ids), 1326), np.uint16) for k in ("W", "L", "WX")}
    step = max(1, -(-len(ids) // _LAUNCHES["exact_holdem_bonus"]))
    for s in range(0, len(ids), step):
        part = ids[s : s + step]
        m = len(part)
        boards = cupy.asarray(np.ascontiguousarray(bcls.reps[part], dtype=np.int32))
        weights = cupy.asarray(np.ascontiguousarray(bcls.weights[part], dtype=np.int64))
        dev = {k: cupy.zeros((m, 1326), cupy.uint16) for k in ("W", "L", "WX")}
        kernel((m,), (BLOCK,), (boards, weights, np.int32(m), np.int32(ante_from), hole_class,
                                dev["W"], dev["L"], dev["WX"], tot["class_wins"],
                                tot["class_hands"], tot["class_ties"], tot["class_losses"]))
        for k in dev:
            out[k][s : s + m] = cupy.asnumpy(dev[k])
        if progress is not None:
            progress(s + m, len(ids))
    rows = {**out, **{k: cupy.asnumpy(v) for k, v in tot.items()}}
    return river_counts_from_rows(ids, rows, ante_from)


# --- Casino Hold'em -----------------------------------------------------------------------------


def ch_counts_from_rows(ids: np.ndarray, counts: np.ndarray, qualifier: int):
    """Assemble :class:`~gpusim.exact.casino_holdem.ChCounts` from the kernel's output.

    ids: (m,) flop class ids computed; counts: (m, 1326, 22) uint32 (row r = class ids[r]).
    The hole validity and the 5-card AA Bonus ranks are cheap and computed here. Classes not in
    ids keep zero rows, as in ``solve_counts(flop_ids=...)``.
    """
    from gpusim.evaluate import evaluate_np
    from gpusim.exact.casino_holdem import EVENT_COUNTS, ChCounts
    from gpusim.index import board_classes, subsets

    bcls = board_classes(3)
    n = bcls.n_classes
    ids = np.asarray(ids, dtype=np.int64)
    out = np.zeros((n, 1326, EVENT_COUNTS), dtype=np.int32)
    out[ids] = np.asarray(counts).astype(np.int32)
    holes = subsets(2).astype(np.int32)
    flops = bcls.reps[ids]
    ok = ~(holes[None, :, :, None] == flops[:, None, None, :]).any(axis=(2, 3))
    valid = np.zeros((n, 1326), dtype=bool)
    valid[ids] = ok
    rows, hs = np.nonzero(ok)
    five = np.concatenate([holes[hs], flops[rows]], axis=1)
    bonus = np.zeros((n, 1326), dtype=np.uint32)
    bonus[ids[rows], hs] = evaluate_np(five, check=False) if len(five) else 0
    return ChCounts(flops=bcls.reps, weights=bcls.weights, counts=out, valid=valid,
                    bonus_rank=bonus, qualifier=int(qualifier))


def solve_counts_cupy(
    qualifier: int,
    *,
    flop_ids: np.ndarray | None = None,
    progress: Callable[[int, int], None] | None = None,
):
    """:func:`gpusim.exact.casino_holdem.solve_counts` on the current CUDA device (same result)."""
    _require_gpu()
    import cupy

    from gpusim.index import board_classes

    bcls = board_classes(3)
    ids = np.arange(bcls.n_classes) if flop_ids is None else np.asarray(flop_ids)
    kernel = _kernel("exact_casino_holdem", cupy.cuda.Device().id)
    out = np.zeros((len(ids), 1326, 22), np.uint32)
    step = max(1, -(-len(ids) // _LAUNCHES["exact_casino_holdem"]))
    for s in range(0, len(ids), step):
        part = ids[s : s + step]
        m = len(part)
        flops = cupy.asarray(np.ascontiguousarray(bcls.reps[part], dtype=np.int32))
        dev = cupy.zeros((m, 1326, 22), cupy.uint32)
        kernel((m,), (BLOCK,), (flops, np.int32(m), np.uint32(qualifier), dev))
        out[s : s + m] = cupy.asnumpy(dev)
        if progress is not None:
            progress(s + m, len(ids))
    return ch_counts_from_rows(ids, out, qualifier)
