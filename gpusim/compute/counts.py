"""One chunk's exact integer counts (:class:`ChunkCounts`) and their sum over chunks.

The one reduction that fills them from settled rounds is
:func:`gpusim.compute.bins.counts_from_rows`.

Everything a run stores is a sufficient statistic made of integers: per bet the distribution of
the net result (net -> count), the return-table events, the decisions, what was wagered and
returned, and the sums of products of bets played in the same round (for covariances). Any
statistic or any other paytable's return can be recomputed from these later.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["ChunkCounts", "histogram", "merge_counts"]

# bincount over [min, max] is far faster than a sort; past this span (a jackpot paying a meter of
# arbitrary size) fall back to np.unique.
_MAX_BINCOUNT_SPAN = 1 << 20


def histogram(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct values and their counts, both int64, values ascending. ``values``: (N,) int."""
    v = np.asarray(values).astype(np.int64, copy=False)
    if v.size == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    lo, hi = int(v.min()), int(v.max())
    if hi - lo <= _MAX_BINCOUNT_SPAN:
        counts = np.bincount(v - lo, minlength=hi - lo + 1)
        nz = np.flatnonzero(counts)
        return nz.astype(np.int64) + lo, counts[nz].astype(np.int64)
    vals, counts = np.unique(v, return_counts=True)
    return vals.astype(np.int64), counts.astype(np.int64)


@dataclass
class ChunkCounts:
    """One chunk's integer statistics.

    - outcomes: {bet: {net: count}}
    - events: {bet: {event: count}}
    - decisions: {point: {action: count}}
    - wagers: {bet: (placed, wagered, returned, sum of stake^2, sum of stake * net)}
    - moments: {(bet_a, bet_b): sum of net_a * net_b over the rounds}
    - jackpot_hits: [(round, meter paid)]
    - progress: [(round_end, {bet: (wagered, returned)})] cumulative within the chunk at each
      compute batch's end (for convergence plots); not part of the counts, so not compared
    """

    rounds: int = 0
    outcomes: dict[str, dict[int, int]] = field(default_factory=dict)
    events: dict[str, dict[str, int]] = field(default_factory=dict)
    decisions: dict[str, dict[str, int]] = field(default_factory=dict)
    wagers: dict[str, tuple[int, ...]] = field(default_factory=dict)
    moments: dict[tuple[str, str], int] = field(default_factory=dict)
    jackpot_hits: list[tuple[int, int]] = field(default_factory=list)
    progress: list[tuple[int, dict[str, tuple[int, int]]]] = field(
        default_factory=list, compare=False)


def _add(d: dict, key, value) -> None:
    d[key] = d.get(key, 0) + value


def merge_counts(parts: list[ChunkCounts]) -> ChunkCounts:
    """Sum several chunks' counts (order independent); dict keys keep first-seen order."""
    out = ChunkCounts()
    for p in parts:
        out.rounds += p.rounds
        for bet, dist in p.outcomes.items():
            tgt = out.outcomes.setdefault(bet, {})
            for k, v in dist.items():
                _add(tgt, k, v)
        for bet, dist in p.events.items():
            tgt = out.events.setdefault(bet, {})
            for k, v in dist.items():
                _add(tgt, k, v)
        for point, dist in p.decisions.items():
            tgt = out.decisions.setdefault(point, {})
            for k, v in dist.items():
                _add(tgt, k, v)
        for bet, w in p.wagers.items():
            x = out.wagers.get(bet, (0,) * len(w))
            out.wagers[bet] = tuple(a + b for a, b in zip(x, w, strict=True))
        for k, v in p.moments.items():
            _add(out.moments, k, v)
        out.jackpot_hits.extend(p.jackpot_hits)
    out.jackpot_hits.sort()
    return out
