"""A described game of the play-once hold'em shape (:mod:`.play_once_shape`), solved by
:mod:`.play_once`.

:data:`SOLVER` is the game's :class:`~gpusim.exact.solver.ExactSolver`: its counts come from the
shape's enumeration, and its report is the described engine's own
(:func:`gpusim.games.described.exact_report.analyse`) over the joint-code counts built here from
the solution's path totals, so every event has the name the simulation gives it.
:class:`DescribedPlayOnceTables` reads the decision tables."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from gpusim.board_index import subsets
from gpusim.cards import CATEGORY_KEYS
from gpusim.exact.fives import HOLE_CLASS
from gpusim.exact.solver import ExactSolver
from gpusim.games.holdem.play_once import (
    DEALT,
    LQ,
    TIES,
    TOTAL_DEALS,
    WINS,
    WN,
    Solution,
    cache_name,
    solve,
)
from gpusim.games.holdem.play_once_counts import N_PAY, RiverPrices
from gpusim.games.holdem.play_once_shape import play_tree_of, refusal, roles

__all__ = ["SOLVER", "DescribedPlayOnceTables", "solved"]

def _prices(rules) -> RiverPrices:
    d = rules.game_def
    ante, _, blind, sides = roles(d)
    pays = rules.pays()
    stakes = rules.stakes.as_dict()
    table = pays[str(d.bet(blind).paytable)]
    bl = [Fraction(table[c]) if c in table else Fraction(0) for c in CATEGORY_KEYS]
    den = math.lcm(*(p.denominator for p in bl))
    must = [s for s in sides if d.bet(s).requires == "beat_dealer" and stakes.get(s, 0) > 0]
    if len(must) > 1:
        raise refusal(d, f"game.bets.{must[1]}", "one side bet that must beat the dealer")
    trips, trips_pay = 0, [-1] * N_PAY
    if must:
        table = pays[str(d.bet(must[0]).paytable)]
        trips = stakes[must[0]]
        trips_pay = [int(table[c]) if c in table else -1 for c in CATEGORY_KEYS]
    return RiverPrices(stakes[ante], den, [int(p * den) for p in bl], trips, trips_pay,
                       river=play_tree_of(d).river[1])


def solution(rules, *, progress: bool = True, backend: str = "cpu") -> Solution:
    """The config's optimal solution (cached per prices and tree)."""
    d = rules.game_def
    return solve(0, _prices(rules), play_tree_of(d),
                 progress=f"{d.title}: flop classes" if progress else None, backend=backend)


def _joint(sol: Solution, d) -> np.ndarray:
    """(n_codes,) int64 deals per joint code of the description's layout (path, showdown,
    class of the player's hand), from the solution's path and fold totals."""
    from gpusim.games.described.layout import layout

    lay = layout(d)
    n_sd = lay.n_showdown
    by_class = bool(lay.class_hands)
    n_cls = len(lay.class_names[lay.class_hands[0]]) if by_class else 1
    if by_class and (lay.class_hands != (d.showdown[0],) or n_cls != N_PAY):
        raise refusal(d, "game.paytables", "expected every paytable to read the player's hand "
                                           "by category")
    index = {tuple(took[p.name] for p in d.points): i for i, (took, _) in enumerate(lay.paths)}
    joint = np.zeros(lay.n_codes, np.int64)
    rows = [(took, row) for (_, took), row in zip(sol.tree.paths(), sol.paths, strict=True)]
    rows.append((sol.tree.fold_path(), sol.fold))
    for took, row in rows:
        path = index[tuple(took[p.name] for p in d.points)]
        wins, wn, t, lq = row[WINS], row[WN], row[TIES], row[LQ]
        ln = row[DEALT] - wins - t - lq
        # the dealer always qualifies: (nq_win, nq_tie, nq_lose, win, tie, lose)
        per_sd = np.stack([wn, np.zeros_like(t), ln, wins - wn, t, lq])
        if not by_class:
            per_sd = per_sd.sum(axis=1, keepdims=True)
        joint[(path * n_sd) * n_cls: (path * n_sd + 6) * n_cls] += per_sd.ravel()
    if int(joint.sum()) != TOTAL_DEALS:
        raise AssertionError(f"joint counts sum to {int(joint.sum())}, not {TOTAL_DEALS}")
    return joint


def solved(rules, strategy: str = "optimal", *, progress: bool = True, backend: str = "cpu"):
    """The solve as the described engine's :class:`~gpusim.games.described.solver.Solved`."""
    from gpusim.games.described.solver import Solved

    if strategy != "optimal":
        from gpusim.strategy import StrategyError

        raise StrategyError(f"strategy {strategy!r}: the exact report of {rules.game_def.title} "
                            f"is available for 'optimal' only; simulate {strategy!r} instead")
    d = rules.game_def
    sol = solution(rules, progress=progress, backend=backend)
    combos = np.bincount(HOLE_CLASS, minlength=169).astype(np.int64)
    first = np.array([np.flatnonzero(HOLE_CLASS == k)[0] for k in range(169)])
    per_hole = TOTAL_DEALS // 1326

    def per(values: np.ndarray) -> np.ndarray:
        if (values % combos[:, None]).any():
            raise AssertionError("a starting hand's holes must all be worth the same")
        return values // combos[:, None]

    n_pre = sol.tree.n_preflop
    return Solved(rules=rules, strategy=strategy, joint=_joint(sol, d), deals=TOTAL_DEALS,
                  scale=_prices(rules).den, root_cards=subsets(2)[first].astype(np.int32),
                  root_weight=combos, root_deals=np.full(169, per_hole, np.int64),
                  root_ev=per(sol.values), root_ev_main=per(sol.values_main),
                  root_action=sol.preflop.astype(np.int64),
                  tables={f"{d.points[0].name}/optimal": np.eye(n_pre, dtype=bool)[sol.preflop],
                          f"{d.points[1].name}/optimal": sol.flop,
                          f"{d.points[2].name}/optimal": sol.river})


def report(rules, strategy, *, progress: bool = True, backend: str = "cpu") -> dict:
    """The exact report (docs/exact.md) of the ``optimal`` strategy."""
    from gpusim.games.described.exact_report import analyse

    name = strategy if isinstance(strategy, str) else getattr(strategy, "name", str(strategy))
    return analyse(solved(rules, name, progress=progress, backend=backend))


def solve_tables(rules, progress: bool, backend: str = "cpu") -> dict[str, np.ndarray]:
    """The ``optimal`` decision tables: pre-flop (169, A) one-hot, flop (1755, 1326) and river
    (134459, 1326) Play bits."""
    tables = solved(rules, progress=progress, backend=backend).tables
    assert tables is not None
    return tables


def counts_file(rules) -> str:
    return cache_name(0, _prices(rules), play_tree_of(rules.game_def))


SOLVER = ExactSolver(
    counts=solution,
    counts_file=counts_file,
    solve_tables=solve_tables,
    report=report,
    rule_strategies_are_slow=True,
)


class DescribedPlayOnceTables:
    """The ``table_strategy_class`` of a described game of the shape."""

    @classmethod
    def load(cls, name: str, rules):
        from gpusim.games.described.layout import tree
        from gpusim.games.holdem.play_once_tables import PlayOnceTables

        d = rules.game_def
        return PlayOnceTables.of(name, rules, tree(d), play_tree_of(d))
