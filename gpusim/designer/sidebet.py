"""Complete search of a paytable whose net is a sum of one term per line: branch and bound over
the lines, in numpy.

A side bet that no decision touches has a fixed number of deals ``n_l`` per line and ``lose``
deals that lose, out of ``total``. With pays ``p`` (X:1) its net sum is linear::

    s(p) = sum_l n_l p_l - lose,      RTP = 1 + s / total,

so the RTP band is an exact integer band ``s_lo <= s <= s_hi``. More generally the search takes
any :class:`SeparableModel`: a net ``s(p) = offset + sum_l g_l(p_l)`` whose per-line terms
``g_l`` never fall as the pay rises (a side bet a fold forfeits, priced under a strategy that
folds less as the pay rises; a main-game paytable whose strategy the pays do not move). The free
lines are assigned one at a time, the one whose term spans most first; a partial assignment is
dropped as soon as the lines left cannot bring ``s`` into the band (their least and greatest
terms bound it), and the monotone rule narrows each line to the pays between its assigned
neighbours. The last line comes last: for each partial assignment its pays in the band form one
interval of its values (its term is non-decreasing), so they are counted in closed form and only
listed when a batch is ranked or filtered on another figure. Nothing is sampled: every paytable
of the space that meets the targets is counted (and ranked), which ``tests/test_designer.py``
checks against brute force.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Protocol

import numpy as np

from gpusim.designer.ranking import TopK, int_band, sort_keys, target_sum
from gpusim.designer.space import DesignError, Space, Targets, monotone_bounds

__all__ = ["SeparableModel", "SideBetModel", "exact_rtp", "search_side_bet"]

BATCH = 1 << 20  # partial assignments (and listed candidates) per numpy batch
LIMIT = 1 << 62  # the largest |net sum| the int64 search may meet


class SeparableModel(Protocol):
    """What :func:`search_side_bet` needs of a model (L paytable lines, pays in ``1 / denom``
    of the space): the net sum ``offset + sum_l gains(l, pays_l)`` (integers) whose RTP is
    ``1 + s / den``; ``gains(l, values) -> (n,) int64``, non-decreasing in ``values``
    (ascending); ``figures(pays (K, L), s (K,), z) -> {name: (K,) float}`` (at least rtp,
    house_edge, hit_frequency, sd, vi, in float64: they filter and rank); ``exact(pays, s) ->
    {name: [...]}``, the shown figures of the kept candidates, exact where the exact report is
    (rtp, house_edge, rtp_exact and any other). ``shown``: the figures the table shows, in
    order; ``strategy``: the strategy the figures are priced under (None: no decision touches
    them) and ``strategy_text`` what the report says of it."""

    lines: tuple[str, ...]
    den: int
    offset: int
    shown: tuple[str, ...]

    def gains(self, line: int, values: np.ndarray) -> np.ndarray: ...

    def figures(self, pays: np.ndarray, s: np.ndarray, z: float) -> dict: ...

    def exact(self, pays: np.ndarray, s: np.ndarray) -> dict: ...


def exact_rtp(s, den: int) -> dict[str, list]:
    """RTP, house edge (floats of the exact fractions, as the exact report rounds them) and
    the RTP as an exact fraction's text, of net sums ``s`` over ``den``."""
    m = [Fraction(int(v), den) for v in s]
    return {"rtp": [float(1 + x) for x in m], "house_edge": [float(-x) for x in m],
            "rtp_exact": [str(1 + x) for x in m]}


SIDE_FIGURES = ("rtp", "house_edge", "hit_frequency", "sd", "vi")


@dataclass(frozen=True)
class SideBetModel:
    """A side bet's exact counts: ``hits[l]`` deals pay line ``l`` (the space's order), ``lose``
    deals lose the stake, ``total`` deals in all (integers); pays in ``1 / scale`` (the space's
    unit). ``strategy``: the strategy the counts were taken under, where one matters (a side
    bet a fold forfeits, whose paid deals no decision the pays move folds), and
    ``strategy_text`` what the report says of it."""

    lines: tuple[str, ...]
    hits: np.ndarray
    lose: int
    total: int
    scale: int = 1
    strategy: str | None = None
    strategy_text: str | None = None
    shown: tuple[str, ...] = SIDE_FIGURES

    @property
    def den(self) -> int:
        return self.total * self.scale

    @property
    def offset(self) -> int:
        return -self.lose * self.scale

    def scaled(self, denom: int) -> SideBetModel:
        return replace(self, scale=int(denom))

    def gains(self, line: int, values: np.ndarray) -> np.ndarray:
        return int(self.hits[line]) * np.asarray(values, dtype=np.int64)

    def sums(self, pays: np.ndarray):
        """(s, sum of n P^2, deals that win) of pays (K, L) int64 (in ``1 / scale``), exact
        integers."""
        p = np.asarray(pays, dtype=np.int64)
        s = p @ self.hits - self.lose * self.scale
        s2 = (p.astype(object) ** 2) @ self.hits.astype(object) if p.max(initial=0) > 2**20 \
            else (p * p) @ self.hits
        won = (p > 0).astype(np.int64) @ self.hits
        return s, s2, won

    def figures(self, pays: np.ndarray, s, z: float) -> dict[str, np.ndarray]:
        """RTP, house edge, hit frequency, SD and VI per unit stake (float64)."""
        _, s2, won = self.sums(pays)
        n = self.total
        mean = np.asarray(s, dtype=float) / self.den
        e2 = (np.asarray(s2, dtype=float) / self.scale ** 2 + self.lose) / n
        sd = np.sqrt(np.maximum(e2 - mean * mean, 0.0))
        return {"rtp": 1 + mean, "house_edge": -mean,
                "hit_frequency": np.asarray(won, float) / n, "sd": sd, "vi": z * sd}

    def exact(self, pays: np.ndarray, s) -> dict[str, list]:
        return exact_rtp(s, self.den)


@dataclass
class _State:
    """Partial assignments: pays (M, L) (unassigned columns hold 0) and their partial sums."""

    pays: np.ndarray
    s: np.ndarray

    def take(self, rows: np.ndarray) -> _State:
        return _State(self.pays[rows], self.s[rows])


def search_side_bet(model: SeparableModel, space: Space, targets: Targets, *, top: int,
                    sort: str = "target", reverse: bool = False, z: float,
                    near: bool | None = None) -> tuple[int, TopK]:
    """(number of paytables of ``space`` meeting ``targets``, the ``top`` best of them in the
    ``sort`` order)."""
    if near:
        sort = "changes"
    best = TopK(top)
    mb = monotone_bounds(space)
    if mb is None:
        return 0, best
    lo_b, hi_b = mb
    values = [ln.values[(ln.values >= lo_b[i]) & (ln.values <= hi_b[i])]
              for i, ln in enumerate(space.lines)]
    gains = [np.asarray(model.gains(i, v), dtype=np.int64) for i, v in enumerate(values)]
    if any((np.diff(g) < 0).any() for g in gains):
        raise ValueError("a separable model's gains must not fall as the pay rises")
    # every sum the search forms stays within int64
    reach = abs(int(model.offset)) + sum(max(abs(int(g[0])), abs(int(g[-1]))) for g in gains)
    if reach >= LIMIT:
        raise DesignError("--line: pays this large overflow the designer's exact sums for "
                          f"{space.bet}; lower the high bounds")
    s_lo, s_hi = int_band(targets.rtp.lo, targets.rtp.hi, model.den)
    goal = target_sum(targets.rtp.lo, targets.rtp.hi, model.den)
    free = [i for i in range(len(values)) if len(values[i]) > 1 or space.lines[i].free]
    fixed = [i for i in range(len(values)) if i not in free]
    # the widest terms first: they narrow the band most; the narrowest last, solved as an
    # interval
    order = sorted(free, key=lambda i: (-(int(gains[i][-1]) - int(gains[i][0])), i))
    start = np.zeros((1, len(values)), dtype=np.int64)
    s0 = int(model.offset)
    for i in fixed:
        start[0, i] = values[i][0]
        s0 += int(gains[i][0])
    state = _State(start, np.array([s0], dtype=np.int64))
    # least and greatest sum the lines after position k can add
    rest_lo = np.array([sum(int(gains[i][0]) for i in order[k + 1:])
                        for k in range(len(order))], dtype=np.int64)
    rest_hi = np.array([sum(int(gains[i][-1]) for i in order[k + 1:])
                        for k in range(len(order))], dtype=np.int64)
    ctx = _Ctx(model, space, targets, values, gains, order, s_lo, s_hi, rest_lo, rest_hi,
               goal, sort, reverse, z, best)
    if not order:  # nothing free: the one paytable
        count = ctx.rank(state.pays, state.s) if s_lo <= s0 <= s_hi else 0
        return count, best
    count = ctx.run(state, 0)
    return count, best


@dataclass
class _Ctx:
    model: SeparableModel
    space: Space
    targets: Targets
    values: list
    gains: list
    order: list
    s_lo: int
    s_hi: int
    rest_lo: np.ndarray
    rest_hi: np.ndarray
    goal: float
    sort: str
    reverse: bool
    z: float
    best: TopK

    def neighbours(self, state: _State, k: int) -> tuple[np.ndarray, np.ndarray]:
        """(least, greatest) pay of line ``order[k]`` that keeps each partial paytable
        monotone, from its nearest assigned neighbours (or its own range)."""
        line = self.order[k]
        vals = self.values[line]
        m = len(state.s)
        low = np.full(m, vals[0], dtype=np.int64)
        up = np.full(m, vals[-1], dtype=np.int64)
        if not self.space.monotone:
            return low, up
        assigned = set(self.order[:k]) | {i for i in range(len(self.values))
                                          if i not in self.order}
        above = [i for i in assigned if i < line]
        below = [i for i in assigned if i > line]
        if above:
            up = np.minimum(up, state.pays[:, max(above)])
        if below:
            low = np.maximum(low, state.pays[:, min(below)])
        return low, up

    def run(self, state: _State, k: int) -> int:
        if len(state.s) == 0:
            return 0
        if len(state.s) > BATCH:
            return sum(self.run(state.take(np.arange(a, min(a + BATCH, len(state.s)))), k)
                       for a in range(0, len(state.s), BATCH))
        if k == len(self.order) - 1:
            return self.last(state, k)
        line = self.order[k]
        vals = self.values[line]
        g = self.gains[line]
        low, up = self.neighbours(state, k)
        per = max(1, BATCH // max(len(vals), 1))
        count = 0
        for a in range(0, len(state.s), per):
            sub = state.take(np.arange(a, min(a + per, len(state.s))))
            s_new = sub.s[:, None] + g[None, :]
            ok = ((vals[None, :] >= low[a:a + per, None]) & (vals[None, :] <= up[a:a + per, None])
                  & (s_new + self.rest_lo[k] <= self.s_hi) & (s_new + self.rest_hi[k] >= self.s_lo))
            rows, cols = np.nonzero(ok)
            nxt = sub.take(rows)
            nxt.pays[:, line] = vals[cols]
            nxt.s = s_new[rows, cols]
            count += self.run(nxt, k + 1)
        return count

    def last(self, state: _State, k: int) -> int:
        """Count (and rank) the last line's pays in the band: an interval of its values (its
        term is non-decreasing, so the band's pays are consecutive)."""
        line = self.order[k]
        vals = self.values[line]
        g = self.gains[line]
        low, up = self.neighbours(state, k)
        # the monotone rule's pays, then the band's: each an index interval of the values
        k_lo = np.maximum(np.searchsorted(vals, low, side="left"),
                          np.searchsorted(g, self.s_lo - state.s, side="left"))
        k_hi = np.minimum(np.searchsorted(vals, up, side="right"),
                          np.searchsorted(g, self.s_hi - state.s, side="right")) - 1
        sizes = np.maximum(k_hi - k_lo + 1, 0)
        total = int(sizes.sum())
        if total and (self.best.k > 0 or self.targets.filtered):
            total = self.list_candidates(state, line, k_lo, sizes)
        return total

    def list_candidates(self, state, line, k_lo, sizes) -> int:
        """List the interval's paytables batch by batch; filter and rank them; their count."""
        kept = 0
        cum = np.cumsum(sizes)
        vals, g = self.values[line], self.gains[line]
        a = 0
        while a < len(sizes):
            # rows a..b-1 list at most BATCH paytables (or one row that alone lists more)
            b = max(a + 1, int(np.searchsorted(cum, cum[a] - sizes[a] + BATCH, side="right")))
            rows = np.arange(a, b)
            rep = np.repeat(rows, sizes[rows])
            first = np.repeat(np.cumsum(sizes[rows]) - sizes[rows], sizes[rows])
            idx = k_lo[rep] + np.arange(len(rep)) - first
            pays = state.pays[rep]
            pays[:, line] = vals[idx]
            kept += self.rank(pays, state.s[rep] + g[idx])
            a = b
        return kept

    def rank(self, pays: np.ndarray, s: np.ndarray) -> int:
        fig = self.model.figures(pays, s, self.z)
        ok = self.targets.keep(fig)
        if not ok.all():
            pays, s = pays[ok], np.asarray(s)[ok]
            fig = {name: v[ok] for name, v in fig.items()}
        keys = sort_keys(self.sort, self.reverse, pays, fig, self.space.current,
                         np.abs(np.asarray(s, dtype=float) - self.goal))
        self.best.add(keys, pays, {"s": np.asarray(s, dtype=np.int64), **fig})
        return int(len(pays))
