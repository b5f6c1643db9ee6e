"""Search of a main-game paytable whose model prices whole candidates (a :class:`PricedModel`:
e.g. a described game's, each candidate re-solved by backward induction on cached counts).

The model prices a batch of paytables at a time, under the strategy re-optimised for each:
per paytable the exact sums (deals, net, net^2, wagered, deals won, deals played out), the net
and the wager in 1/``unit`` of the base bet. Where the model is ``monotone`` (no pay lowers the
net of any path, and the strategy maximises the main game's net) the game's value is a
non-decreasing function of every pay, so over a box of pays ``lo <= a <= hi`` the net lies
between its values at the two corners, and a box whose high corner is below the band (or low
corner above it) is dropped whole. The others are split, line by line, breadth first (the
corners of a whole layer of boxes are priced in one batch), until a box of at most ``LEAF``
paytables is priced whole. A paytable is priced once (the model's ``memo``, kept between the
searches of one design). Nothing is sampled: the count is every paytable of the space meeting
the targets, unless the search reaches the model's ``max_priced``, where it stops and says so
(``stats["note"]``, which the design report prints).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Protocol

import numpy as np

from gpusim.designer.ranking import TopK, int_band, sort_keys, target_sum
from gpusim.designer.space import Space, Targets, monotone_bounds

__all__ = ["PricedModel", "priced_figures", "search_priced"]

LEAF = 16
"""A box of at most this many paytables is priced whole."""


class PricedModel(Protocol):
    """What :func:`search_priced` needs of a model: its paytable ``lines``, every ``deals``,
    the net's ``unit``, whether it is ``monotone`` (above), the paytables priced together
    (``batch``) and at most per search (``max_priced``), the ``memo`` of those priced, and
    ``price(pays) -> [(deals, net, net^2, wagered, won, played out), ...]`` (exact ints)."""

    lines: tuple[str, ...]
    deals: int
    unit: int
    monotone: bool
    batch: int
    max_priced: int
    memo: dict

    def price(self, pays: list[tuple[int, ...]]) -> list[tuple[int, ...]]: ...


class _Capped(Exception):
    """The search has priced as many paytables as the model allows."""


def priced_figures(sums: tuple[int, ...], unit: int, z: float) -> dict[str, Any]:
    """The exact report's main figures (``main_json``: RTP and house edge per unit of the base
    bet, SD per round, element of risk, total-bet RTP), hit frequency, VI and the share of
    deals played out (``call_rate``) of one paytable's sums."""
    n, s, s2, wg, won, stay = sums
    mean = Fraction(s, n * unit)
    sd = math.sqrt(float(Fraction(s2, n * unit * unit) - mean * mean))
    eor = -Fraction(s, wg)
    return {"rtp": float(1 + mean), "house_edge": float(-mean),
            "hit_frequency": float(Fraction(won, n)), "sd": sd, "vi": z * sd,
            "element_of_risk": float(eor), "total_rtp": float(1 - eor),
            "call_rate": float(Fraction(stay, n)), "rtp_exact": str(1 + mean)}


def _monotone_possible(vals) -> bool:
    # the best pay of a line must reach the least pay of every line below it
    return all(vals[i][-1] >= max(v[0] for v in vals[i:]) for i in range(len(vals)))


def _size(vals) -> int:
    return math.prod(len(v) for v in vals)


def search_priced(model: PricedModel, space: Space, targets: Targets, *, top: int,
                  sort: str = "target", reverse: bool = False, z: float,
                  stats: dict | None = None, near: bool | None = None) -> tuple[int, TopK]:
    """(paytables of ``space`` meeting ``targets``, the ``top`` best in the ``sort`` order),
    as the designer's main-game search gives them."""
    if near:
        sort = "changes"
    best = TopK(top)
    mb = monotone_bounds(space)
    if mb is None:
        return 0, best
    values = [ln.values[(ln.values >= mb[0][i]) & (ln.values <= mb[1][i])]
              for i, ln in enumerate(space.lines)]
    total = model.deals * model.unit
    s_lo, s_hi = int_band(targets.rtp.lo, targets.rtp.hi, total)
    goal = target_sum(targets.rtp.lo, targets.rtp.hi, total)
    t = targets
    st: dict[str, Any] = {"boxes": 0, "pruned": 0, "priced": 0}
    found: list[tuple[tuple[int, ...], dict[str, Any]]] = []

    def sums(pays: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
        todo = list(dict.fromkeys(p for p in pays if p not in model.memo))
        for a in range(0, len(todo), model.batch):
            if st["priced"] >= model.max_priced:
                raise _Capped
            part = todo[a: a + model.batch]
            model.memo.update(zip(part, model.price(part), strict=True))
            st["priced"] += len(part)
        return [model.memo[p] for p in pays]

    def price_leaves(boxes: list) -> None:
        cands = []
        for vals in boxes:
            c = np.stack([g.ravel() for g in np.meshgrid(*vals, indexing="ij")], axis=1)
            cands.append(c[(np.diff(c, axis=1) <= 0).all(axis=1)] if space.monotone else c)
        keys = [tuple(int(v) for v in c) for c in np.concatenate(cands)]
        for pays, got in zip(keys, sums(keys), strict=True):
            if s_lo <= got[1] <= s_hi:
                fig = priced_figures(got, model.unit, z)
                if t.keep({k: np.array([v]) for k, v in fig.items() if k != "rtp_exact"})[0]:
                    found.append((pays, {**fig, "s": got[1]}))

    layer: list = [values]
    leaves: list = []
    try:
        while layer or leaves:
            st["boxes"] += len(layer)
            big = [v for v in layer if _size(v) > LEAF]
            leaves += [v for v in layer if _size(v) <= LEAF]
            if leaves and (not big or sum(_size(v) for v in leaves) >= model.batch):
                price_leaves(leaves)
                leaves = []
            if big and model.monotone:
                corners = sums([tuple(int(x[e]) for x in v) for v in big for e in (0, -1)])
                keep = [not (hi[1] < s_lo or lo[1] > s_hi)
                        for lo, hi in zip(corners[::2], corners[1::2], strict=True)]
                st["pruned"] += keep.count(False)
                big = [v for v, k in zip(big, keep, strict=True) if k]
            layer = []
            for vals in big:
                j = max(range(len(vals)), key=lambda i: (len(vals[i]), -i))
                half = len(vals[j]) // 2
                for part in (vals[j][:half], vals[j][half:]):
                    sub = list(vals)
                    sub[j] = part
                    if not space.monotone or _monotone_possible(sub):
                        layer.append(sub)
    except _Capped:
        st["note"] = (f"capped: the search stopped after pricing {st['priced']:,} paytables; "
                      "the count and the ranking cover only those; narrow the lines for a "
                      "complete search")
    if stats is not None:
        stats.update(st)
    if found:
        table = np.array([p for p, _ in found], np.int64)
        fig = {k: np.array([f[k] for _, f in found], dtype=object if k == "rtp_exact"
                           else float) for k in found[0][1] if k != "s"}
        keys = sort_keys(sort, reverse, table, fig, space.current,
                         np.abs(np.array([float(f["s"]) for _, f in found]) - goal))
        best.add(keys, table, fig)
    return len(found), best
