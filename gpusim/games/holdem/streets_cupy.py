"""Texas Hold'em Bonus's exact river counts as a CUDA kernel (``kernels/exact_holdem_bonus.cu``):
:func:`solve_river_cupy` gives :func:`gpusim.games.holdem.streets_counts.solve_river`'s
counts on the current CUDA device (see :mod:`gpusim.exact.cupy_counts`)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gpusim.board_index import board_classes, subsets
from gpusim.exact.cupy_counts import BLOCK, class_launches, kernel, require_gpu

__all__ = ["river_counts_from_rows", "solve_river_cupy"]

_LAUNCHES = 4


def river_counts_from_rows(ids: np.ndarray, rows: dict[str, np.ndarray], ante_from: int):
    """Assemble :class:`~gpusim.games.holdem.streets_counts.RiverCounts` from the kernel's
    output.

    ids: (m,) 4-card board class ids computed. rows: ``W``, ``L``, ``WX`` (m, 1326) uint16 (row
    r = class ids[r]); ``class_wins``, ``class_hands`` (1690,) and ``class_ties``,
    ``class_losses`` (169,) uint64 weighted totals over those classes. Classes not in ids keep
    zero counts, as in ``solve_river(board_ids=...)``.
    """
    from gpusim.games.holdem.streets_counts import RiverCounts

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
    """``solve_river`` on the current CUDA device (same result)."""
    require_gpu()
    import cupy

    from gpusim.games.holdem.streets_counts import HOLE_CLASS

    bcls = board_classes(4)
    ids = np.arange(bcls.n_classes) if board_ids is None else np.asarray(board_ids)
    fn = kernel("exact_holdem_bonus", "gpusim_exact_thb_river", cupy.cuda.Device().id)
    hole_class = cupy.asarray(HOLE_CLASS.astype(np.int16))
    tot = {k: cupy.zeros(s, cupy.uint64) for k, s in (("class_wins", 1690), ("class_hands", 1690),
                                                      ("class_ties", 169), ("class_losses", 169))}
    out = {k: np.zeros((len(ids), 1326), np.uint16) for k in ("W", "L", "WX")}
    for s, part in class_launches(ids, _LAUNCHES, progress):
        m = len(part)
        boards = cupy.asarray(np.ascontiguousarray(bcls.reps[part], dtype=np.int32))
        weights = cupy.asarray(np.ascontiguousarray(bcls.weights[part], dtype=np.int64))
        dev = {k: cupy.zeros((m, 1326), cupy.uint16) for k in ("W", "L", "WX")}
        fn((m,), (BLOCK,), (boards, weights, np.int32(m), np.int32(ante_from), hole_class,
                            dev["W"], dev["L"], dev["WX"], tot["class_wins"],
                            tot["class_hands"], tot["class_ties"], tot["class_losses"]))
        for k in dev:
            out[k][s : s + m] = cupy.asnumpy(dev[k])
    rows = {**out, **{k: cupy.asnumpy(v) for k, v in tot.items()}}
    return river_counts_from_rows(ids, rows, ante_from)
