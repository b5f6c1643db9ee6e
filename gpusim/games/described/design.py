"""Paytable design for described games (``gpusim design``): the bets the designer searches
(:func:`design_entries`, which the spec reads), a settled side bet's hit counts
(:func:`side_hits`) and a main-game paytable's search (:func:`main_model`), each candidate
priced under the optimal strategy re-optimised for its pays.

Side bet. A side bet settled on a hand's paytable even after a fold is strategy-free: every
set of the hand's cards is dealt equally often (total deals / C(52, k) times), so each line's
hits are its classes' k-card sets times that multiplicity.

Main game. A candidate's pays move the nets of the paths and outcomes (an outcome: the showdown
and the paytable classes, :mod:`.layout`), never the counts of the deals: the nets are affine in
the pays (:func:`net_parts`), the outcome counts are counted once and cached, and each
candidate re-runs only the backward induction (:mod:`.design_counts`). Its figures are the
exact report's ``main`` (per unit of the base bet), to the last digit. The designer's search
of whole candidates (:mod:`gpusim.designer.priced`) takes the model, :class:`DescribedMain`.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from gpusim.games.described.design_counts import Nets
from gpusim.games.described.layout import event_returns, layout, shape_of, tree
from gpusim.games.spec import DesignEntry

__all__ = ["DescribedMain", "Nets", "design_entries", "main_model", "net_parts", "side_hits",
           "side_model"]

_HERE = "gpusim.games.described.design"
WORK = 7e10
"""The work a main-game search may do before it stops: types x (paths + groups) per paytable
priced, and a fixed part (:data:`OVERHEAD`), summed: about three minutes of searching."""
OVERHEAD = 100_000
"""A paytable's fixed cost, in the type operations of :data:`WORK`."""


# --- which bets the designer searches ------------------------------------------------------


def _table(b) -> str | None:
    return b.paytable or b.bonus


def _stages(d) -> list[tuple[int, ...]]:
    """The card columns dealt as one set each: the player's, the dealer's up and hidden cards,
    each street."""
    cols = d.columns
    dealer = cols.get("dealer", ())
    out = [cols["player"], dealer[: d.dealer_up], dealer[d.dealer_up:]]
    start = d.player + d.dealer
    for m in d.streets:
        out.append(tuple(range(start, start + m)))
        start += m
    return [s for s in out if s]


def _side_refusal(d, b, main_tables: set[str]) -> str | None:
    """Why the strategy-free count of a side bet's hits (:func:`side_hits`) cannot take bet
    ``b``, or None (then :func:`side_model` prices it by the solver's counts)."""
    if b.fold != "settle":
        return "a fold forfeits it, so its return depends on the strategy"
    if b.pays != (("settle", "paytable"),) or b.bonus or b.requires:
        return ("it is not settled on its paytable alone (a showdown, a bonus or a condition); "
                "the side-bet search counts a hand's paytable classes only")
    pt = d.paytable(str(b.paytable))
    if pt.name in main_tables:
        return f"its paytable {pt.name!r} also pays the main game"
    if pt.otherwise != "lose":
        return "a hand on none of its lines pushes; the side-bet search loses every other hand"
    h = d.hand(pt.hand)
    if (h.ranking, len(h.columns)) not in (("three_card", 3), ("poker", 5)):
        return f"its hand holds {len(h.columns)} cards; the side-bet search counts 3 or 5"
    if any(0 < len(set(s) & set(h.columns)) < len(s) for s in _stages(d)):
        return "its hand takes part of a street; the side-bet search counts whole streets"
    return None


def design_entries(d) -> tuple[dict[str, DesignEntry], dict[str, str]]:
    """({bet: DesignEntry}, {bet: why not}) for a description: a settled side bet's paytable
    is a side search; each paytable main bets pay is a main search, under any of the bets that
    pay it (the same search: the main game's figures; the note names the bets it pays)."""
    try:
        shape_of(d)
        unsolved = None
    except ValueError as exc:
        unsolved = "the exact solver cannot count this game ({})".format(
            str(exc).partition(": ")[2] or str(exc))
        from gpusim.games.described.community_program import community_shape

        try:  # solved, but board first: the designer's models read the described solver's
            community_shape(d)
            unsolved = ("the designer does not search a community-card game yet (gpusim exact "
                        "solves it)")
        except ValueError:
            pass
    main = sorted((b for b in d.bets if not b.side and _table(b)),
                  key=lambda b: b.name != d.base_bet)
    main_tables = {str(_table(b)) for b in main}
    designs: dict[str, DesignEntry] = {}
    refusals: dict[str, str] = {}
    for b in main:
        t = str(_table(b))
        if unsolved is not None:
            refusals[b.name] = unsolved
            continue
        # every bet a paytable pays designs that one paytable: the same search whichever bet
        # names it, the figures the whole main game's
        pays = [x.name for x in d.bets if not x.side and _table(x) == t]
        note = f"paytable {t} pays {', '.join(pays)}" if len(pays) > 1 else None
        designs[b.name] = DesignEntry("main", f"{_HERE}:main_model", strategies={"optimal": True},
                                      note=note)
    for b in d.bets:
        if b.side and _table(b):
            why = _side_refusal(d, b, main_tables)
            if why is None:
                designs[b.name] = DesignEntry("side", f"{_HERE}:side_hits")
            elif unsolved is None:
                # priced whole by the solver's counts, as the exact report prices it
                designs[b.name] = DesignEntry("side", f"{_HERE}:side_model")
            else:
                refusals[b.name] = f"{why}; and {unsolved}"
    return designs, refusals


# --- a settled side bet ---------------------------------------------------------------------


def _deals(d) -> int:
    """Every deal the exact solver counts: each stage's set from the cards left."""
    out, left = 1, 52
    for s in _stages(d):
        out *= math.comb(left, len(s))
        left -= len(s)
    return out


def side_hits(rules, bet: str) -> tuple[dict[str, int], int]:
    """({line: deals it pays}, deals) of a side bet settled on its hand's paytable whatever the
    decisions: each k-card set of the hand by class, times the deals that hold it; lines in the
    paytable's order, those the config has."""
    from gpusim.games.described.deals import set_class_table
    from gpusim.games.described.layout import _line_of_class

    d = rules.game_def
    pt = d.paytable(str(d.bet(bet).paytable))
    names = layout(d).class_names[pt.hand]
    by_class = np.bincount(set_class_table(d, pt.hand), minlength=len(names))
    total = _deals(d)
    per = total // math.comb(52, len(d.hand(pt.hand).columns))
    hits = dict.fromkeys(pt.lines, 0)
    for c, k in enumerate(_line_of_class(d, pt.name, names)):
        if k >= 0:
            hits[pt.lines[k]] += int(by_class[c]) * per
    have = rules.pays().get(pt.name, {})
    return {ln: n for ln, n in hits.items() if ln in have}, total


# --- the main game's nets, affine in the pays -------------------------------------------------


def _per_code(lay, b: str, values: list) -> np.ndarray:
    """A bet's return minus one per code (Fractions, object) times its multiple."""
    v = np.array(values + [Fraction(0)], dtype=object)[:-1]
    return lay.multiple_of[b].astype(object) * v[lay.event_of[b]]


def net_parts(rules, table: str, measure: str | None = None) -> Nets:
    """The nets of ``rules`` as affine functions of ``table``'s pays; the measured net is the
    main game's, or with ``measure`` that side bet's own (per unit of its stake)."""
    d = rules.game_def
    lay = layout(d)
    points = tree(d)
    lines = tuple(rules.pays()[table])
    n_p = len(lay.paths)
    n_out = lay.n_codes // n_p
    amounts = rules.stakes.as_dict()
    offered = [b for b in d.bets if not b.side or amounts.get(b.name, 0) > 0]

    def rets(pays) -> dict:
        r = event_returns(d, {**rules.pays(), table: dict(zip(lines, pays, strict=True))})
        return {b: [Fraction(x) - 1 for x in v] for b, v in r.items()}

    zero = rets([0] * len(lines))
    ones = [rets([int(i == j) for j in range(len(lines))]) for i in range(len(lines))]
    parts: dict[str, list] = {}  # bet: [net at 0, per line] per code
    for b in offered:
        parts[b.name] = [_per_code(lay, b.name, zero[b.name])]
        parts[b.name] += [_per_code(lay, b.name, [x - z for x, z in zip(o[b.name], zero[b.name],
                                                                       strict=True)])
                          for o in ones]

    def varies(arr) -> bool:
        m = arr.reshape(n_p, n_out)
        return bool((m != m[:1]).any())

    in_obj = [b for b in offered if not b.side or any(varies(x) for x in parts[b.name])]
    mains = [b for b in offered if not b.side] if measure is None else [d.bet(measure)]
    scale = math.lcm(1, *(Fraction(x).denominator for b in in_obj for x in parts[b.name][0]))
    unit = math.lcm(1, *(Fraction(x).denominator for b in mains for x in parts[b.name][0]))

    def total(bets, k: int, mult) -> np.ndarray:
        s = sum((parts[b.name][k] * mult(b) for b in bets), np.zeros(lay.n_codes, object))
        return np.array([int(x) for x in s], np.int64).reshape(n_p, n_out)

    def stake(b):
        return (amounts[b.name] if b.side else amounts[d.base_bet]) * scale

    obj = [total(in_obj, k, stake) for k in range(len(lines) + 1)]
    main = [total(mains, k, lambda b: unit) for k in range(len(lines) + 1)]
    sig = np.concatenate([np.stack(obj, 0).reshape(-1, n_out), np.stack(main, 0).reshape(
        -1, n_out)], 0).T
    _, first, group = np.unique(sig, axis=0, return_index=True, return_inverse=True)
    cols = first  # one outcome per group: its nets are the group's
    wager = sum((lay.multiple_of[b.name] for b in mains), np.zeros(lay.n_codes, np.int64))
    folds = np.array([any(points[k].actions[t].folds for k, t in enumerate(
        took[p.name] for p in points) if t >= 0) for took, _ in lay.paths])
    # a box's corners bound the measured net where the strategy maximises it (the main game's)
    monotone = (measure is None and all(not b.side for b in in_obj)
                and all((m >= 0).all() for m in main[1:]))
    return Nets(table, lines, group.reshape(-1), obj[0][:, cols], np.stack([o[:, cols] for o in
                obj[1:]]), main[0][:, cols], np.stack([m[:, cols] for m in main[1:]]), unit,
                wager.reshape(n_p, n_out)[:, 0], ~folds, monotone)


class DescribedMain:
    """A described game's main-game paytable for the designer's search of whole candidates
    (:mod:`gpusim.designer.priced`): each priced by a backward induction on the cached
    outcome counts (:func:`~.design_counts.price`), a batch at a time. ``max_priced``: the
    paytables a search may price (:data:`WORK`); ``memo``: those priced, kept between the
    searches of one design."""

    shown: tuple[str, ...] | None = None  # the main game's figures (the designer's default)
    strategy = "optimal"
    strategy_text: str | None = None

    def __init__(self, rules, rows, nets: Nets):
        from gpusim.games.described.design_counts import batch_size

        self.rules, self.rows, self.nets = rules, rows, nets
        self.lines, self.unit, self.monotone = nets.lines, nets.unit, nets.monotone
        self.deals = rows.deals
        self.batch = batch_size(rows, nets)
        # a paytable costs a pass over every type per path and group, and a fixed part
        self.max_priced = max(100, int(WORK // (rows.size * sum(nets.obj0.shape) + OVERHEAD)))
        self.memo: dict[tuple[int, ...], tuple[int, ...]] = {}

    def price(self, pays: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
        from gpusim.games.described.design_counts import price

        return price(self.rules, self.rows, self.nets, pays)


def main_model(rules, bet: str, strategy: str = "optimal", counts=None, progress: bool = False,
               with_side_bet: bool = True, *, space=None) -> DescribedMain:
    """The paytable ``bet`` pays, priced under the optimal strategy re-optimised per candidate
    (the solver's ``optimal``, which counts every offered bet: ``strategy`` and
    ``with_side_bet`` have no other value); ``counts``: the :class:`~.design_counts.Rows`
    (default: cached, counted on first use)."""
    from gpusim.games.described.design_counts import outcome_rows

    del strategy, with_side_bet, space
    nets = net_parts(rules, str(_table(rules.game_def.bet(bet))))
    rows = counts if counts is not None else outcome_rows(rules, nets, progress=progress)
    return DescribedMain(rules, rows, nets)


def side_model(rules, bet: str):
    """A side bet's search: its hit counts where the side-bet search counts it
    (:func:`side_hits`), else (a fold forfeits it, a showdown settles it, ...) the bet's own
    figures priced by the solver's counts under the optimal strategy re-optimised for each
    candidate (a :class:`DescribedMain` measuring the side bet)."""
    from gpusim.games.described.design_counts import outcome_rows

    d = rules.game_def
    b = d.bet(bet)
    why = _side_refusal(d, b, {str(_table(x)) for x in d.bets if not x.side and _table(x)})
    if why is None:
        return side_hits(rules, bet)
    nets = net_parts(rules, str(_table(b)), measure=bet)
    model = DescribedMain(rules, outcome_rows(rules, nets, progress=True), nets)
    model.shown = ("rtp", "house_edge", "hit_frequency", "sd", "vi", "call_rate")
    forfeits = b.fold != "settle"
    model.strategy_text = ("strategy optimal re-optimised for each (a fold forfeits it)"
                           if forfeits else "strategy optimal re-optimised for each, the bet "
                           "priced by the solver's counts")
    return model
