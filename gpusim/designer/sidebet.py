"""Complete search of a side bet's paytables: branch and bound over the lines, in numpy.

A side bet that no decision touches has a fixed number of deals ``n_l`` per line and ``lose``
deals that lose, out of ``total``. With pays ``p`` (X:1) its net sum is linear::

    s(p) = sum_l n_l p_l - lose,      RTP = 1 + s / total,

so the RTP band is an exact integer band ``s_lo <= s <= s_hi``. The free lines are assigned one
at a time, the heaviest (``n_l`` x step) first; a partial assignment is dropped as soon as the
lines left cannot bring ``s`` into the band (their least and greatest sums bound it), and the
monotone rule narrows each line to the pays between its assigned neighbours. The lightest line
comes last: for each partial assignment its pays in the band form one interval of its lattice,
so they are counted in closed form and only listed when a batch is ranked or filtered on hit
frequency, SD or VI. Nothing is sampled: every paytable of the space that meets the targets is
counted (and ranked), which ``tests/test_designer.py`` checks against brute force.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gpusim.designer.ranking import TopK, int_band, target_sum
from gpusim.designer.space import Space, Targets, monotone_bounds

__all__ = ["SideBetModel", "search_side_bet"]

BATCH = 1 << 20  # partial assignments (and listed candidates) per numpy batch


@dataclass(frozen=True)
class SideBetModel:
    """A side bet's exact counts: ``hits[l]`` deals pay line ``l`` (the space's order), ``lose``
    deals lose the stake, ``total`` deals in all (integers)."""

    lines: tuple[str, ...]
    hits: np.ndarray
    lose: int
    total: int

    def sums(self, pays: np.ndarray):
        """(s, sum of n p^2, deals that win) of pays (K, L) int64, exact integers."""
        p = np.asarray(pays, dtype=np.int64)
        s = p @ self.hits - self.lose
        s2 = (p.astype(object) ** 2) @ self.hits.astype(object) if p.max(initial=0) > 2**20 \
            else (p * p) @ self.hits
        won = (p > 0).astype(np.int64) @ self.hits
        return s, s2, won


def figures(model: SideBetModel, s, s2, won, z: float) -> dict[str, np.ndarray]:
    """RTP, house edge, hit frequency, SD and VI per unit stake from the exact sums."""
    n = model.total
    mean = np.asarray(s, dtype=float) / n
    e2 = (np.asarray(s2, dtype=float) + model.lose) / n
    sd = np.sqrt(np.maximum(e2 - mean * mean, 0.0))
    return {"rtp": 1 + mean, "house_edge": -mean, "hit_frequency": np.asarray(won, float) / n,
            "sd": sd, "vi": z * sd}


@dataclass
class _State:
    """Partial assignments: pays (M, L) (unassigned columns hold 0) and their partial sums."""

    pays: np.ndarray
    s: np.ndarray

    def take(self, rows: np.ndarray) -> _State:
        return _State(self.pays[rows], self.s[rows])


def search_side_bet(model: SideBetModel, space: Space, targets: Targets, *, top: int,
                    near: bool, z: float) -> tuple[int, TopK]:
    """(number of paytables of ``space`` meeting ``targets``, the ``top`` best of them)."""
    best = TopK(top)
    mb = monotone_bounds(space)
    if mb is None:
        return 0, best
    lo_b, hi_b = mb
    values = [ln.values[(ln.values >= lo_b[i]) & (ln.values <= hi_b[i])]
              for i, ln in enumerate(space.lines)]
    n = model.hits
    s_lo, s_hi = int_band(targets.rtp.lo, targets.rtp.hi, model.total)
    goal = target_sum(targets.rtp.lo, targets.rtp.hi, model.total)
    free = [i for i in range(len(values)) if len(values[i]) > 1 or space.lines[i].free]
    fixed = [i for i in range(len(values)) if i not in free]
    # heaviest first: they narrow the band most; the lightest last, solved as an interval
    order = sorted(free, key=lambda i: (-int(n[i]) * _step(values[i]), i))
    start = np.zeros((1, len(values)), dtype=np.int64)
    for i in fixed:
        start[0, i] = values[i][0]
    state = _State(start, start @ n - model.lose)
    # least and greatest sum the lines after position k can add
    rest_lo = np.array([sum(int(n[i] * values[i][0]) for i in order[k + 1:])
                        for k in range(len(order))], dtype=np.int64)
    rest_hi = np.array([sum(int(n[i] * values[i][-1]) for i in order[k + 1:])
                        for k in range(len(order))], dtype=np.int64)
    ctx = _Ctx(model, space, targets, values, order, s_lo, s_hi, rest_lo, rest_hi, goal, near,
               z, best)
    count = ctx.run(state, 0)
    return count, best


def _step(v: np.ndarray) -> int:
    return int(v[1] - v[0]) if len(v) > 1 else 1


@dataclass
class _Ctx:
    model: SideBetModel
    space: Space
    targets: Targets
    values: list
    order: list
    s_lo: int
    s_hi: int
    rest_lo: np.ndarray
    rest_hi: np.ndarray
    goal: float
    near: bool
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
        low, up = self.neighbours(state, k)
        per = max(1, BATCH // max(len(vals), 1))
        count = 0
        for a in range(0, len(state.s), per):
            sub = state.take(np.arange(a, min(a + per, len(state.s))))
            s_new = sub.s[:, None] + int(self.model.hits[line]) * vals[None, :]
            ok = ((vals[None, :] >= low[a:a + per, None]) & (vals[None, :] <= up[a:a + per, None])
                  & (s_new + self.rest_lo[k] <= self.s_hi) & (s_new + self.rest_hi[k] >= self.s_lo))
            rows, cols = np.nonzero(ok)
            nxt = sub.take(rows)
            nxt.pays[:, line] = vals[cols]
            nxt.s = s_new[rows, cols]
            count += self.run(nxt, k + 1)
        return count

    def last(self, state: _State, k: int) -> int:
        """Count (and rank) the last line's pays in the band: an interval of its lattice."""
        line = self.order[k]
        vals = self.values[line]
        low, up = self.neighbours(state, k)
        w = int(self.model.hits[line])
        if w > 0:
            # s + w v in [s_lo, s_hi]: v from ceil((s_lo - s) / w) to floor((s_hi - s) / w)
            lo_v = np.maximum(low, -((state.s - self.s_lo) // w))
            hi_v = np.minimum(up, (self.s_hi - state.s) // w)
        else:
            inside = (state.s >= self.s_lo) & (state.s <= self.s_hi)
            lo_v, hi_v = low, np.where(inside, up, low - 1)
        b0, st = int(vals[0]), _step(vals)
        k_lo = np.maximum(-((b0 - lo_v) // st), 0)
        k_hi = np.minimum((hi_v - b0) // st, len(vals) - 1)
        sizes = np.maximum(k_hi - k_lo + 1, 0)
        total = int(sizes.sum())
        if total and (self.best.k > 0 or self._filtered):
            total = self.list_candidates(state, line, b0, st, k_lo, sizes)
        return total

    @property
    def _filtered(self) -> bool:
        t = self.targets
        return not (t.hit_frequency.open and t.sd.open and t.vi.open)

    def list_candidates(self, state, line, b0, st, k_lo, sizes) -> int:
        """List the interval's paytables batch by batch; filter and rank them; their count."""
        kept = 0
        cum = np.cumsum(sizes)
        a = 0
        while a < len(sizes):
            # rows a..b-1 list at most BATCH paytables (or one row that alone lists more)
            b = max(a + 1, int(np.searchsorted(cum, cum[a] - sizes[a] + BATCH, side="right")))
            rows = np.arange(a, b)
            rep = np.repeat(rows, sizes[rows])
            first = np.repeat(np.cumsum(sizes[rows]) - sizes[rows], sizes[rows])
            off = np.arange(len(rep)) - first
            pays = state.pays[rep]
            pays[:, line] = b0 + (k_lo[rep] + off) * st
            kept += self.rank(pays)
            a = b
        return kept

    def rank(self, pays: np.ndarray) -> int:
        s, s2, won = self.model.sums(pays)
        fig = figures(self.model, s, s2, won, self.z)
        t = self.targets
        ok = (t.hit_frequency.contains(fig["hit_frequency"]) & t.sd.contains(fig["sd"])
              & t.vi.contains(fig["vi"]))
        if not ok.all():
            pays, s = pays[ok], np.asarray(s)[ok]
            fig = {name: v[ok] for name, v in fig.items()}
        keys = [np.abs(np.asarray(s, dtype=float) - self.goal)]
        if self.near:
            keys = near_keys(pays, self.space.current) + keys
        self.best.add(keys, pays, {"s": np.asarray(s, dtype=np.int64), **fig})
        return int(len(pays))


def near_keys(pays: np.ndarray, current: np.ndarray) -> list[np.ndarray]:
    """(lines changed, sum of relative changes) from the config's paytable."""
    diff = pays != current[None, :]
    rel = np.abs(pays - current[None, :]) / np.maximum(current, 1)[None, :]
    return [diff.sum(axis=1).astype(float), rel.sum(axis=1)]

