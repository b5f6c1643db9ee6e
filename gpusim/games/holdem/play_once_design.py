"""The play-once hold'em shape's paytables for ``gpusim design`` (Ultimate Texas Hold'em and
any described game of the shape): the Trips (settled on the player's
own hand: :func:`trips_hits`; where it must beat the dealer, as it plays under the optimal
strategy: :func:`trips_forfeit_model`) and the Blind (a main-game paytable:
:func:`blind_main_model`).

The optimal strategy counts the Blind (and, where Trips must beat the dealer, the Trips win a
fold forfeits), and its river decision is priced inside the enumeration, so a new paytable is in
general a new solve (half a minute to two on two cores). The designer solves only where the
pays can move the strategy:

- A line pays one pay class c (its hand) only when the player reaches the showdown and wins.
  A higher pay never lowers the value of playing on, so each decision can only move towards
  betting: a river cell of class c that plays at a pay plays at every higher one.
- Solve once with the space's free lines at 0, the lowest pay a line may have (the other lines
  as the config). Where no deal the strategy plays to the river folds a hand of a free line's
  class, on every path the strategy takes the boards of those classes are all played: the pays
  add the same amount to every action a reached decision compares (the flop's 2x against its
  check; the pre-flop check against 3x and 4x, where the hand checks), and only make a bet the
  strategy already chose better (a 2x on the flop, 3x or 4x pre-flop). The strategy's path
  totals, so its play, are then the same for every pay >= 0 of those lines.
- A free line whose hand the zero solve folds (Ultimate Texas Hold'em folds board quads with a
  low kicker, and, where Trips must beat the dealer, some board trips) moves the strategy: each
  of its pays in the space (each combination, for several such lines) is solved on its own, the
  other free lines at 0 and checked as above. At most :data:`MAX_SOLVES` such solves (each is
  cached); past that the search is refused, naming the line.

Under a fixed strategy the Blind's pays enter the main game's net linearly and its square as a
quadratic (:class:`BlindModel`); the Trips is a side bet over the deals the strategy plays to a
showdown and wins. With no line moving the strategy, the search is the separable one
(:mod:`gpusim.designer.sidebet`); with one, each candidate is priced whole from its slice's
solve (:class:`SlicedModel`, :mod:`gpusim.designer.priced`). The figures are the exact report's
(``main``; ``bets.trips``) to the last digit: ``tests/test_design_rules.py`` checks them
against solves of written candidates.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from fractions import Fraction

import numpy as np

from gpusim.cards import CATEGORY_KEYS
from gpusim.games.holdem.play_once import DEALT, LQ, TIES, WINS, WN
from gpusim.games.spec import DesignRefused as DesignError
from gpusim.rules import Paytable

__all__ = ["MAX_SOLVES", "BlindModel", "SlicedModel", "TripsModel", "blind_main_model",
           "solved_slices", "trips_forfeit_model", "trips_hits"]

MAX_SOLVES = 8
"""The most exact solves one search may make for the pays of lines that move the strategy."""

_N = 10  # pay classes


def trips_hits(rules, bet: str) -> tuple[dict[str, int], int]:
    """({line: seven-card hands it pays}, C(52, 7)): the Trips settled on the player's final
    hand whatever the decisions, every seven-card hand dealt equally often."""
    from gpusim.exact.seven_cards import seven_card_counts

    counts = seven_card_counts()
    spec = _spec(rules)
    current = spec.paytable(rules, bet)
    lines = [ln for ln in spec.paytables[bet] if ln in current]
    return {ln: int(counts[ln]) for ln in lines}, math.comb(52, 7)


def _spec(rules):
    from gpusim.games import spec_for

    return spec_for(rules)


def _solution(rules, progress: bool):
    """The optimal solution of the config (:class:`gpusim.games.holdem.play_once.Solution`),
    from the play-once solver (cached per pays; the game's exact reports come from the
    community-card solver, whose counts are not this shape's)."""
    from gpusim.games.holdem.play_once_described import SOLVER

    return SOLVER.counts(rules, progress=progress)


def _with_pays(rules, bet: str, space, values: dict[str, int]):
    """The rules with the bet's lines at ``values`` (the space's units, ``1 / space.denom``),
    the others at the space's current pays (what the exact solver prices: the designer has
    checked that the config takes such pays)."""
    pays: list = []
    for ln in space.lines:
        p = Fraction(int(values.get(ln.name, ln.current)), space.denom)
        pays.append((ln.name, int(p) if p.denominator == 1 else p))
    table = Paytable(tuple(pays))
    name = _spec(rules).paytable_tables.get(bet, bet)
    return dataclasses.replace(rules, paytables=tuple(
        (n, table if n == name else p) for n, p in rules.paytables))


def _folds_text(folds: dict[str, int]) -> str:
    return ", ".join(f"{n:,} deals with {k.replace('_', ' ')}" for k, n in folds.items())


def solved_slices(rules, bet: str, space, counts=None, progress: bool = False):
    """({values of the moving lines (space units): the optimal solution every paytable of the
    space with those values plays}, the moving lines' indices, what the report says of the
    strategy); DesignRefused where the search would need more than :data:`MAX_SOLVES` solves.
    ``space``: the designer's space (:class:`gpusim.designer.space.Space`), each line's values
    those the monotone rule allows; ``counts``: a function rules -> solution (a test's made-up
    or partial solutions); default the exact solver's (cached per pays)."""
    def solve(r):
        return counts(r) if counts is not None else _solution(r, progress)

    free = [i for i, ln in enumerate(space.lines) if ln.free]
    cls = {i: CATEGORY_KEYS.index(space.lines[i].name) for i in free}
    at_zero = {space.lines[i].name: 0 for i in free}
    zero = solve(_with_pays(rules, bet, space, at_zero))
    moving = [i for i in free if zero.folds[cls[i]]]
    if not moving:
        return {(): zero}, [], ("strategy optimal, the same for every candidate (no deal it "
                                "plays to the river folds a hand these lines pay, even at pay 0)")
    values = [[int(v) for v in space.lines[i].values] for i in moving]
    keys = list(itertools.product(*values))
    names = ", ".join(space.lines[i].name for i in moving)
    folds = {CATEGORY_KEYS[cls[i]]: int(zero.folds[cls[i]]) for i in moving}
    if len(keys) > MAX_SOLVES:
        raise DesignError(f"--line: the optimal strategy folds {_folds_text(folds)} on the "
                          f"river, so the pays of {names} move it: each of their {len(keys):,} "
                          f"pays needs its own exact solve (allowed: at most {MAX_SOLVES}); "
                          f"narrow the bounds of {names}")
    rest = [i for i in free if i not in moving]
    out = {}
    for key in keys:
        vals = {**at_zero, **{space.lines[i].name: v for i, v in zip(moving, key, strict=True)}}
        sol = solve(_with_pays(rules, bet, space, vals))
        bad = {CATEGORY_KEYS[cls[i]]: int(sol.folds[cls[i]]) for i in rest if sol.folds[cls[i]]}
        if bad:
            raise DesignError(f"--line: the pays of {names} and of "
                              f"{', '.join(k for k in bad)} each move the optimal strategy "
                              f"({_folds_text(bad)} fold on the river); keep one of them fixed")
        out[key] = sol
    return out, moving, (f"strategy optimal re-optimised for each ({names} moves it: each of "
                         f"{len(keys)} pays solved on its own)")


def _totals(sol):
    """(4, 50) path totals as Python ints, and the river folds."""
    return np.asarray(sol.paths, dtype=object), int(sol.n_folds)


class BlindModel:
    """The Blind's paytable as it moves the main game under a fixed optimal strategy (its path
    totals, ``sol``): a separable model for :func:`gpusim.designer.sidebet.search_side_bet`.

    Pays are in ``1 / scale`` (a 3:2 flush is 3 at scale 2); nets in ``1 / scale`` of the Ante
    (the main game's net in money x scale / ante), so that a ratio pay the config's ante makes
    whole stays an integer. Per path (Play m x) and pay class c the solution counts the dealer
    hands beaten (``wins``, of them ``wn`` where the dealer does not qualify), the ties and the
    losses; a win nets m + 1 Antes (m where the Ante pushes) plus the Blind's pay B_c, so::

        s(B) = s0 + sum_c wins_c B_c,      s2(B) = q0 + sum_c (q1_c B_c + wins_c B_c^2),

    with ``wins_c`` every path's wins. The figures are the exact report's ``main`` (house edge
    and RTP per Ante, SD per round, element of risk, total-bet RTP, hit frequency), and the
    share of deals played to the showdown.
    """

    shown = None  # the main game's figures (the designer's default)
    strategy = "optimal"

    def __init__(self, sol, lines: tuple[str, ...], strategy_text: str | None,
                 scale: int = 1) -> None:
        self.sol, self.lines, self.strategy_text = sol, lines, strategy_text
        self.scale = d = int(scale)
        p, folds = _totals(sol)
        wins, wn = p[:, WINS], p[:, WN]
        boards = p[:, DEALT].sum(axis=1)
        t, lq = p[:, TIES].sum(axis=1), p[:, LQ].sum(axis=1)
        ln = boards - wins.sum(axis=1) - t - lq
        m = np.array(sol.multiples, dtype=object)
        wq = wins - wn
        self.N = int(boards.sum()) + folds
        self.classes = [CATEGORY_KEYS.index(x) for x in lines]
        self.wins = [int(wins[:, c].sum()) for c in range(_N)]
        s0 = int((wq * (m + 1)[:, None]).sum() + (wn * m[:, None]).sum()
                 - (lq * (m + 2)).sum() - (ln * (m + 1)).sum()) - 2 * folds
        self.offset, self.den = d * s0, self.N * d
        self.wager = d * (int(((m + 2) * boards).sum()) + 2 * folds)
        self.q0 = d * d * int((wq * ((m + 1) ** 2)[:, None]).sum()
                              + (wn * (m ** 2)[:, None]).sum() + (lq * (m + 2) ** 2).sum()
                              + (ln * (m + 1) ** 2).sum() + 4 * folds)
        self.q1 = [2 * d * int((wq[:, c] * (m + 1) + wn[:, c] * m).sum()) for c in range(_N)]
        self.won = int(wins.sum())
        self.stay = self.N - folds

    def scaled(self, denom: int) -> BlindModel:
        return self if denom == self.scale else BlindModel(self.sol, self.lines,
                                                           self.strategy_text, denom)

    def gains(self, line: int, values: np.ndarray) -> np.ndarray:
        return self.wins[self.classes[line]] * np.asarray(values, dtype=np.int64)

    def row_sums(self, row) -> tuple[int, ...]:
        """(deals, net, net^2, wagered, deals won, deals played out) of one paytable (space
        units), exact integers, the net in ``1 / scale`` of the Ante."""
        row = [int(v) for v in row]
        s = self.offset + sum(self.wins[c] * v for c, v in zip(self.classes, row, strict=True))
        s2 = self.q0 + sum(self.q1[c] * v + self.wins[c] * v * v
                           for c, v in zip(self.classes, row, strict=True))
        return self.N, s, s2, self.wager, self.won, self.stay

    def figures(self, pays: np.ndarray, s, z: float) -> dict[str, np.ndarray]:
        b = np.asarray(pays, dtype=float)
        s2 = np.full(len(b), float(self.q0))
        for j, c in enumerate(self.classes):
            s2 += self.q1[c] * b[:, j] + self.wins[c] * b[:, j] ** 2
        sf = np.asarray(s, dtype=float)
        mean = sf / self.den
        sd = np.sqrt(np.maximum(s2 / (self.N * self.scale ** 2) - mean * mean, 0.0))
        eor = -sf / self.wager
        ones = np.ones(len(b))
        return {"rtp": 1 + mean, "house_edge": -mean, "hit_frequency": ones * self.won / self.N,
                "sd": sd, "vi": z * sd, "element_of_risk": eor, "total_rtp": 1 - eor,
                "call_rate": ones * self.stay / self.N}

    def exact(self, pays: np.ndarray, s) -> dict[str, list]:
        """The figures beside the RTP as ``main_json`` computes them, from exact integers."""
        out: dict[str, list] = {k: [] for k in ("sd", "element_of_risk", "total_rtp",
                                                "hit_frequency", "call_rate")}
        for r in np.asarray(pays):
            n, net, net2, wager, won, stay = self.row_sums(r)
            mean = Fraction(net, n * self.scale)
            eor = -Fraction(net, wager)
            out["sd"].append(math.sqrt(float(Fraction(net2, n * self.scale ** 2) - mean * mean)))
            out["element_of_risk"].append(float(eor))
            out["total_rtp"].append(float(1 - eor))
            out["hit_frequency"].append(float(Fraction(won, n)))
            out["call_rate"].append(float(Fraction(stay, n)))
        return out


class TripsModel:
    """The Trips where it must beat the dealer, under a fixed optimal strategy (one slice of
    :class:`SlicedModel`): a line pays the deals the strategy plays to a showdown and wins
    holding its hand; every other deal loses. ``hits``: per line; ``folds``: the deals the
    strategy folds."""

    def __init__(self, hits: list[int], total: int, folds: int) -> None:
        self.hits, self.total, self.folds = hits, total, folds
        self.lose = total - sum(hits)

    def row_sums(self, row) -> tuple[int, ...]:
        """(deals, net, net^2, staked, deals won, deals played out) of one paytable."""
        p = [int(v) for v in row]
        s = sum(a * b for a, b in zip(self.hits, p, strict=True)) - self.lose
        s2 = sum(a * b * b for a, b in zip(self.hits, p, strict=True)) + self.lose
        won = sum(a for a, b in zip(self.hits, p, strict=True) if b > 0)
        return self.total, s, s2, self.total, won, self.total - self.folds


def _trips(sol, lines: tuple[str, ...]) -> TripsModel:
    p, folds = _totals(sol)
    wins = p[:, :_N].sum(axis=0)
    total = int(p[:, 2 * _N:3 * _N].sum()) + folds
    return TripsModel([int(wins[CATEGORY_KEYS.index(ln)]) for ln in lines], total, folds)


class SlicedModel:
    """A paytable some of whose lines move the optimal strategy: one solve per value of those
    lines (:func:`solved_slices`), each candidate priced whole from its slice's model (the
    :class:`gpusim.designer.priced.PricedModel` of :func:`gpusim.designer.priced.search_priced`).
    ``monotone``: the strategy maximises the measured net and no pay lowers it (the Blind
    where the Trips need not beat the dealer; the Trips), so a box's corners bound it."""

    batch = 256
    max_priced = 2_000_000

    def __init__(self, slices: dict, moving: list[int], lines: tuple[str, ...], unit: int,
                 monotone: bool, shown: tuple[str, ...] | None, strategy_text: str,
                 note: str) -> None:
        self.slices, self.moving, self.lines, self.unit = slices, moving, lines, unit
        self.monotone, self.shown = monotone, shown
        self.strategy, self.strategy_text, self.note = "optimal", strategy_text, note
        self.deals = next(iter(slices.values())).row_sums([0] * len(lines))[0]
        self.memo: dict[tuple[int, ...], tuple[int, ...]] = {}

    def scaled(self, denom: int) -> SlicedModel:
        if denom != self.unit:
            raise DesignError(f"--line: pays in units of 1/{denom} where the solves took "
                              f"1/{self.unit}")
        return self

    def price(self, pays: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
        out = []
        for p in pays:
            key = tuple(int(p[i]) for i in self.moving)
            if key not in self.slices:  # a pay outside the space (the config's own): solved
                raise DesignError("--line: a paytable outside the solved pays")
            out.append(self.slices[key].row_sums(p))
        return out


def _slice_note(moving: list[int], space, n: int) -> str:
    names = ", ".join(space.lines[i].name for i in moving)
    return (f"{names} moves the optimal strategy (the river folds some of its hands): each of "
            f"its {n} pays was solved exactly, the candidates priced under their own solve")


def blind_main_model(rules, bet: str, strategy: str = "optimal", counts=None,
                     progress: bool = False, with_side_bet: bool = True, *, space=None):
    """The Blind's paytable under the optimal strategy re-optimised for each candidate: a
    :class:`BlindModel` where no free line moves the strategy, else a :class:`SlicedModel`
    (:func:`solved_slices`). ``counts``: a function rules -> solution (a test's), else the
    exact solver's (cached per pays)."""
    del strategy, with_side_bet  # the one table strategy; it counts every offered bet
    if space is None:
        raise DesignError("--bet blind: the Blind is priced for a given space of pays")
    slices, moving, text = solved_slices(rules, bet, space, counts, progress)
    lines = tuple(ln.name for ln in space.lines)
    models = {k: BlindModel(sol, lines, text, space.denom) for k, sol in slices.items()}
    if not moving:
        return models[()]
    current = tuple(int(space.lines[i].current) for i in moving)
    if current not in models:  # the config's own paytable, priced beside the candidates
        sol = counts(rules) if counts is not None else _solution(rules, progress)
        models[current] = BlindModel(sol, lines, text, space.denom)
    monotone = not _spec(rules).forfeited_by_fold(rules)
    return SlicedModel(models, moving, lines, space.denom, monotone,
                       None, text, _slice_note(moving, space, len(slices)))


def trips_forfeit_model(rules, bet: str, strategy: str = "optimal", counts=None,
                        progress: bool = False, reoptimised: bool = True, *, space=None):
    """The Trips where it must beat the dealer (a fold, a tie or a loss loses it), under the
    optimal strategy re-optimised for each candidate (:func:`solved_slices`): a line pays the
    deals the strategy plays to a showdown and wins holding its hand. Where no line moves the
    strategy, ``({line: hits}, deals, {"strategy", "strategy_text"})`` (a side bet's counts);
    else a :class:`SlicedModel`."""
    del strategy, reoptimised
    if space is None:
        raise DesignError("--bet trips: the Trips is priced for a given space of pays")
    slices, moving, text = solved_slices(rules, bet, space, counts, progress)
    lines = tuple(ln.name for ln in space.lines)
    models = {k: _trips(sol, lines) for k, sol in slices.items()}
    if not moving:
        m = models[()]
        return (dict(zip(lines, m.hits, strict=True)), m.total,
                {"strategy": "optimal", "strategy_text": text})
    current = tuple(int(space.lines[i].current) for i in moving)
    if current not in models:
        sol = counts(rules) if counts is not None else _solution(rules, progress)
        models[current] = _trips(sol, lines)
    return SlicedModel(models, moving, lines, 1, True, _TRIPS_FIGURES, text,
                       _slice_note(moving, space, len(slices)))


_TRIPS_FIGURES = ("rtp", "house_edge", "hit_frequency", "sd", "vi", "call_rate")
