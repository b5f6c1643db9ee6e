"""Search of a main-game paytable (e.g. Casino Hold'em's Ante), each candidate priced under the
optimal strategy re-optimised for its pays, from the cached exact counts (a game's
:class:`MainModel`).

Per situation ``s`` (flop class x hole, ``w_s`` raw deals) the counts give, for the player's
final hand in Ante line ``l``: ``nq_l`` outcomes where the dealer does not qualify, ``qw_l``
where the dealer qualifies and the player wins, plus ties and ``loss``. With Ante pays ``a``
(X:1) a call nets, in antes over the situation's outcomes (:func:`gpusim.games.holdem.call_once.
call_margin`)::

    call_s(a) = (nq_s + qw_s) . a + 2 sum(qw_s) - 3 loss_s,     fold = -outcomes,

and the optimal strategy calls where ``ante x (call_s(a) + outcomes) + bonus_s > 0`` (``bonus_s``:
the AA Bonus a fold forfeits, when the strategy counts it). The whole game's net is the sum over
situations of the chosen branch: a maximum of linear functions of ``a``, so over a box of pays
``lo <= a <= hi`` (counts are >= 0) a situation whose margin is positive at ``lo`` always calls,
one whose margin is <= 0 at ``hi`` always folds, and only the rest (the *undecided*) need pricing
per candidate. The search splits the box line by line; each box sums its decided situations
once, bounds the RTP from its corners (a box that cannot reach the band is dropped whole), and
prices the candidates of a small box together: one matrix product over the undecided
situations. Every sum is of integers below 2^53, so float64 products are exact; the RTP band is
checked on the integer net.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

import numpy as np

from gpusim.designer.ranking import TopK, int_band, sort_keys, target_sum
from gpusim.designer.space import Space, Targets, monotone_bounds

__all__ = ["MAIN_FIGURES", "MainModel", "main_figures", "price_paytables", "search_main"]

MAIN_FIGURES = ("rtp", "house_edge", "hit_frequency", "sd", "vi", "element_of_risk",
                "total_rtp", "call_rate")
"""The figures a main-game candidate shows, in order."""

LEAF = 512  # a box with at most this many paytables is priced whole
CELLS = 1 << 22  # situations x candidates per matrix product


class MainModel(Protocol):
    """What the search needs of a game's main-game model (S situations, L paytable lines; a
    game's spec builds it, e.g. :class:`gpusim.games.holdem.call_once_design.AnteModel`): per
    situation the features ``feat`` (S, 2L + 2), ``x`` (S, L), the margin's constant ``k`` (S,),
    a call's net at pays 0 ``cbase`` (S,), ``wfeat`` = feat x w, raw deals ``w`` (S,);
    ``outcomes`` per situation, the ``ante`` stake, every situation's deal count ``deals``;
    ``margin(idx, pays)`` and ``totals(agg, pays)`` (exact sums, Python ints)."""

    lines: tuple[str, ...]
    feat: np.ndarray
    x: np.ndarray
    k: np.ndarray
    cbase: np.ndarray
    wfeat: np.ndarray
    w: np.ndarray
    outcomes: int
    ante: int
    deals: int

    def margin(self, idx: np.ndarray, pays: np.ndarray) -> np.ndarray: ...

    def totals(self, agg: np.ndarray, pays: np.ndarray): ...


def main_figures(model: MainModel, net, net2, won, wagered, calls, z: float) -> dict:
    """The exact report's main figures (``main_json``: ante RTP, house edge and SD per ante,
    element of risk, total-bet RTP) and the call rate, per candidate."""
    n = model.deals
    out: dict[str, list] = {k: [] for k in (*MAIN_FIGURES, "rtp_exact")}
    for s, s2, h, wg, c in zip(net, net2, won, wagered, calls, strict=True):
        mean = Fraction(int(s), n)
        sd = math.sqrt(float(Fraction(int(s2), n) - mean * mean))
        out["rtp"].append(float(1 + mean))
        out["house_edge"].append(float(-mean))
        out["hit_frequency"].append(int(h) / n)
        out["sd"].append(sd)
        out["vi"].append(z * sd)
        eor = -Fraction(int(s), int(wg))
        out["element_of_risk"].append(float(eor))
        out["total_rtp"].append(float(1 - eor))
        out["call_rate"].append(int(c) / n)
        out["rtp_exact"].append(str(1 + mean))
    return {k: np.array(v, dtype=object if k == "rtp_exact" else float) for k, v in out.items()}


@dataclass
class _Box:
    lo: np.ndarray
    hi: np.ndarray
    idx: np.ndarray  # undecided situations
    agg: np.ndarray  # (2L + 2,) called aggregates of the decided situations
    fold_w: float  # raw deals of the decided folds


def price_paytables(model: MainModel, pays: np.ndarray, z: float) -> dict:
    """The figures of paytables ``pays`` (K, L), every situation priced (the config's own
    paytable, shown beside the candidates)."""
    pays = np.asarray(pays, dtype=np.int64)
    agg = np.zeros((len(pays), model.feat.shape[1]))
    per = max(1, (1 << 22) // max(len(pays), 1))
    for a in range(0, len(model.w), per):
        idx = np.arange(a, min(a + per, len(model.w)))
        agg += (model.margin(idx, pays) > 0).T.astype(np.float64) @ model.wfeat[idx]
    net, net2, won, wagered, calls = model.totals(agg, pays)
    return main_figures(model, net, net2, won, wagered, calls, z)


def search_main(model: MainModel, space: Space, targets: Targets, *, top: int,
                sort: str = "target", reverse: bool = False, z: float,
                stats: dict | None = None, near: bool | None = None) -> tuple[int, TopK]:
    """(number of Ante paytables of ``space`` meeting ``targets``, the ``top`` best in the
    ``sort`` order)."""
    if near:
        sort = "changes"
    best = TopK(top)
    mb = monotone_bounds(space)
    if mb is None:
        return 0, best
    values = [ln.values[(ln.values >= mb[0][i]) & (ln.values <= mb[1][i])]
              for i, ln in enumerate(space.lines)]
    s_lo, s_hi = int_band(targets.rtp.lo, targets.rtp.hi, model.deals)
    goal = target_sum(targets.rtp.lo, targets.rtp.hi, model.deals)
    root = _Box(np.array([v[0] for v in values]), np.array([v[-1] for v in values]),
                np.arange(len(model.w)), np.zeros(model.feat.shape[1]), 0.0)
    st = {"boxes": 0, "pruned": 0, "priced": 0}
    count = 0
    stack = [(root, values)]
    while stack:
        box, vals = stack.pop()
        st["boxes"] += 1
        box, xa = _decide(model, box)
        if not _may_reach(model, box, xa, s_lo, s_hi):
            st["pruned"] += 1
            continue
        size = math.prod(len(v) for v in vals)
        # a box every situation has decided is linear: priced whole unless it is too big
        if size <= LEAF or (len(box.idx) == 0 and size <= CELLS // 16):
            got, priced = _price_box(model, space, box, vals, s_lo, s_hi, goal, targets,
                                     (sort, reverse), z, best)
            count += got
            st["priced"] += priced
            continue
        j = max(range(len(vals)), key=lambda i: (len(vals[i]), -i))
        half = len(vals[j]) // 2
        for part in (vals[j][half:], vals[j][:half]):
            sub = list(vals)
            sub[j] = part
            if space.monotone and not _monotone_possible(sub):
                continue
            lo = box.lo.copy()
            hi = box.hi.copy()
            lo[j], hi[j] = part[0], part[-1]
            stack.append((_Box(lo, hi, box.idx, box.agg.copy(), box.fold_w), sub))
    if stats is not None:
        stats.update(st)
    return count, best


def _monotone_possible(vals) -> bool:
    # the best pay of a line must reach the least pay of every line below it
    return all(vals[i][-1] >= max(v[0] for v in vals[i:]) for i in range(len(vals)))


def _decide(model: MainModel, box: _Box) -> tuple[_Box, np.ndarray]:
    """Move the situations whose choice is the same over the whole box out of ``idx``; with
    the undecided ones' x . a at the box's two corners, (n, 2)."""
    idx = box.idx
    if len(idx) == 0:
        return box, np.zeros((0, 2))
    whole = len(idx) == len(model.w)  # the root box: every situation, no gather needed
    x, k = (model.x, model.k) if whole else (model.x[idx], model.k[idx])
    xa = x @ np.stack([box.lo, box.hi], axis=1).astype(np.float64)
    call = model.ante * xa[:, 0] + k > 0
    fold = model.ante * xa[:, 1] + k <= 0
    agg = box.agg + model.wfeat[idx[call]].sum(axis=0)
    fold_w = box.fold_w + float(model.w[idx[fold]].sum())
    und = ~(call | fold)
    return _Box(box.lo, box.hi, idx[und], agg, fold_w), xa[und]


def _may_reach(model: MainModel, box: _Box, xa: np.ndarray, s_lo: int, s_hi: int) -> bool:
    """Whether some paytable of the box can have its net in [s_lo, s_hi]: bounds from the
    box's corners (decided situations are linear; an undecided one lies between the fold and
    its call net at the corner; ``xa``: its x . a at the two corners)."""
    n_l = len(model.lines)
    out = model.outcomes
    called_base = 2 * box.agg[n_l:2 * n_l].sum() - 3 * box.agg[2 * n_l]
    x_agg = box.agg[:n_l] + box.agg[n_l:2 * n_l]
    base = model.cbase[box.idx]
    bounds = []
    for j, (corner, pick) in enumerate(((box.lo, np.minimum), (box.hi, np.maximum))):
        net = x_agg @ corner + called_base - out * box.fold_w
        if len(box.idx):
            net += float(model.w[box.idx] @ pick(xa[:, j] + base, -out))
        bounds.append(net)
    # the corner sums can pass 2^53 (counts x pays): a relative slack keeps the bound safe
    slack = 1e-9 * max(abs(bounds[0]), abs(bounds[1])) + 1
    return bounds[0] <= s_hi + slack and bounds[1] >= s_lo - slack


def _price_box(model, space, box, vals, s_lo, s_hi, goal, targets, order, z,
               best) -> tuple[int, int]:
    """Price every paytable of a small box; keep those meeting the targets. (kept, priced)"""
    grids = np.meshgrid(*vals, indexing="ij")
    pays = np.stack([g.ravel() for g in grids], axis=1).astype(np.int64)
    if space.monotone:
        pays = pays[(np.diff(pays, axis=1) <= 0).all(axis=1)]
    if len(pays) == 0:
        return 0, 0
    agg = np.broadcast_to(box.agg, (len(pays), len(box.agg))).copy()
    per = max(1, CELLS // len(pays))  # situations per product, to bound the memory
    for a in range(0, len(box.idx), per):
        idx = box.idx[a:a + per]
        call = model.margin(idx, pays) > 0
        agg += call.T.astype(np.float64) @ model.wfeat[idx]
    net, net2, won, wagered, calls = model.totals(agg, pays)
    ok = np.array([s_lo <= int(v) <= s_hi for v in net], dtype=bool)
    if not ok.any():
        return 0, len(ok)
    pays, net, net2, won, wagered, calls = (v[ok] for v in (pays, net, net2, won, wagered, calls))
    fig = main_figures(model, net, net2, won, wagered, calls, z)
    keep = targets.keep(fig)
    pays = pays[keep]
    fig = {k: v[keep] for k, v in fig.items()}
    netf = np.array([float(int(v)) for v in net[keep]])
    keys = sort_keys(order[0], order[1], pays, fig, space.current, np.abs(netf - goal))
    best.add(keys, pays, fig)
    return int(keep.sum()), len(ok)
