"""The street-bets shape's river counts (:mod:`gpusim.games.holdem.streets_counts`, stage 1),
counted once per Ante threshold and cached: the shape's solver and the described engine's
``win_chance`` condition read the same file."""

from __future__ import annotations

import numpy as np

from gpusim.cards import CATEGORY_KEYS
from gpusim.exact.cache import FORMAT, atomic_savez, cache_dir, count_solver, progress_bar
from gpusim.games.holdem.streets_counts import RiverCounts, solve_river

__all__ = ["CACHE_LEVEL", "cached_counts", "counts_file"]

CACHE_LEVEL = 0
"""The river counts' cache is stored, not deflated: 153 MB against 34 MB, but written in about
0.3 s instead of 2 s (a tenth of a fresh solve) and read in 0.2 s instead of 0.9 s by every
later report (``benchmarks/exact.py`` prints both for the level it writes)."""

_NAMES = ("boards", "weights", "W", "L", "WX", "valid", "class_wins", "class_ties",
          "class_losses", "class_hands")


def _cupy_river():
    from gpusim.games.holdem.streets_cupy import solve_river_cupy

    return solve_river_cupy


def counts_file(ante_pays_from: str) -> str:
    """The cache file of the river counts where the Ante pays from that category up."""
    return f"thb_river_a{CATEGORY_KEYS.index(ante_pays_from)}_v{FORMAT}.npz"


def cached_counts(ante_pays_from: str, *, progress: bool = True,
                  backend: str = "cpu") -> RiverCounts:
    """The stage-1 river counts where the Ante pays from ``ante_pays_from`` up (cached)."""
    a = CATEGORY_KEYS.index(ante_pays_from)
    path = cache_dir() / counts_file(ante_pays_from)
    if path.is_file():
        z = np.load(path)
        return RiverCounts(**{k: z[k] for k in _NAMES}, ante_from=int(z["ante_from"]))
    update, stop = progress_bar("Hold'em Bonus: 4-card board classes") if progress else (
        None, None)
    try:
        r = count_solver(solve_river, _cupy_river, backend)(a, progress=update)
    finally:
        if stop:
            stop()
    atomic_savez(path, level=CACHE_LEVEL, **{k: getattr(r, k) for k in _NAMES},
                 ante_from=np.int64(a))
    return r
