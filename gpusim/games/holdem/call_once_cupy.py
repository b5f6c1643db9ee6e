"""The call-once hold'em shape's exact outcome counts as a CUDA kernel
(``kernels/exact_casino_holdem.cu``): :func:`solve_counts_cupy` gives
:func:`gpusim.games.holdem.call_once_counts.solve_counts`'s counts on the current CUDA device
(see :mod:`gpusim.exact.cupy_counts`)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gpusim.board_index import board_classes, subsets
from gpusim.evaluator import evaluate_np
from gpusim.exact.cupy_counts import BLOCK, class_launches, kernel, require_gpu
from gpusim.games.holdem.call_once_counts import EVENT_COUNTS, ChCounts

__all__ = ["ch_counts_from_rows", "solve_counts_cupy"]

_LAUNCHES = 2


def ch_counts_from_rows(ids: np.ndarray, counts: np.ndarray, qualifier: int):
    """Assemble :class:`~gpusim.games.holdem.call_once_counts.ChCounts` from the kernel's output.

    ids: (m,) flop class ids computed; counts: (m, 1326, 22) uint32 (row r = class ids[r]).
    The hole validity and the 5-card AA Bonus ranks are cheap and computed here. Classes not in
    ids keep zero rows, as in ``solve_counts(flop_ids=...)``.
    """
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
    """``solve_counts`` on the current CUDA device (same result)."""
    require_gpu()
    import cupy

    bcls = board_classes(3)
    ids = np.arange(bcls.n_classes) if flop_ids is None else np.asarray(flop_ids)
    fn = kernel("exact_casino_holdem", "gpusim_exact_ch_flop", cupy.cuda.Device().id)
    out = np.zeros((len(ids), 1326, 22), np.uint32)
    for s, part in class_launches(ids, _LAUNCHES, progress):
        m = len(part)
        flops = cupy.asarray(np.ascontiguousarray(bcls.reps[part], dtype=np.int32))
        dev = cupy.zeros((m, 1326, 22), cupy.uint32)
        fn((m,), (BLOCK,), (flops, np.int32(m), np.uint32(qualifier), dev))
        out[s : s + m] = cupy.asnumpy(dev)
    return ch_counts_from_rows(ids, out, qualifier)
