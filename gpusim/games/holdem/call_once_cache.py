"""The call-once shape's counts (:mod:`gpusim.games.holdem.call_once_counts`), counted once per
dealer qualifier and cached: every description of the shape with that qualifier (Casino
Hold'em's and its variants') is solved from the same file."""

from __future__ import annotations

import numpy as np

from gpusim.exact.cache import FORMAT, atomic_savez, cache_dir, count_solver, progress_bar
from gpusim.games.holdem.call_once_counts import ChCounts, solve_counts

__all__ = ["cached_counts", "counts_file"]


def _cupy_counts():
    from gpusim.games.holdem.call_once_cupy import solve_counts_cupy

    return solve_counts_cupy


def counts_file(qualifier: int) -> str:
    """The cache file of the counts (they depend on the dealer qualifier alone)."""
    return f"ch_counts_q{int(qualifier):08x}_v{FORMAT}.npz"


def cached_counts(qualifier: int, *, progress: str | None = None, backend: str = "cpu") -> ChCounts:
    """The counts for a dealer qualifier (cached). progress: the progress bar's label, None for
    none."""
    q = int(qualifier)
    path = cache_dir() / counts_file(q)
    if path.is_file():
        z = np.load(path)
        return ChCounts(**{k: z[k] for k in ("flops", "weights", "counts", "valid",
                                              "bonus_rank")}, qualifier=int(z["qualifier"]))
    update, stop = progress_bar(progress) if progress else (None, None)
    try:
        c = count_solver(solve_counts, _cupy_counts, backend)(q, progress=update)
    finally:
        if stop:
            stop()
    atomic_savez(path, level=1, flops=c.flops, weights=c.weights, counts=c.counts,
                 valid=c.valid, bonus_rank=c.bonus_rank, qualifier=np.int64(c.qualifier))
    return c
