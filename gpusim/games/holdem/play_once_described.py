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
    TOTAL_DEALS,
    Solution,
    cache_name,
    solve,
)
from gpusim.games.holdem.play_once_counts import N_PAY, RiverPrices
from gpusim.games.holdem.play_once_report import joint_counts
from gpusim.games.holdem.play_once_shape import play_tree_of, refusal, roles

__all__ = ["SOLVER", "DescribedPlayOnceTables", "analyse_solution", "prices_of", "qualifier_rank",
           "solved"]

def qualifier_rank(d) -> int:
    """The lowest qualifying dealer rank, 0 where the dealer always opens."""
    from gpusim.games.described.engine import threshold

    qual = d.showdown[2]
    return 0 if qual is None else int(threshold(qual, "poker"))


def prices_of(rules) -> RiverPrices:
    """The river prices of a config of the shape (its Blind and side-bet pays, in money units
    over their common denominator)."""
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
    return solve(qualifier_rank(d), prices_of(rules), play_tree_of(d),
                 progress=f"{d.title}: flop classes" if progress else None, backend=backend)


def solved(rules, strategy: str = "optimal", *, progress: bool = True, backend: str = "cpu"):
    """The solve as the described engine's :class:`~gpusim.games.described.solver.Solved`."""
    from gpusim.games.described.solver import Solved

    if strategy != "optimal":  # a rule strategy: counted by the community-card solver
        from gpusim.games.described.exact_report import cached_solve

        return cached_solve(rules, strategy, progress=progress)
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
    return Solved(rules=rules, strategy=strategy, joint=joint_counts(sol, d), deals=TOTAL_DEALS,
                  scale=prices_of(rules).den, root_cards=subsets(2)[first].astype(np.int32),
                  root_weight=combos, root_deals=np.full(169, per_hole, np.int64),
                  root_ev=per(sol.values), root_ev_main=per(sol.values_main),
                  root_action=sol.preflop.astype(np.int64),
                  tables={f"{d.points[0].name}/optimal": np.eye(n_pre, dtype=bool)[sol.preflop],
                          f"{d.points[1].name}/optimal": sol.flop,
                          f"{d.points[2].name}/optimal": sol.river})


def report(rules, strategy, *, progress: bool = True, backend: str = "cpu") -> dict:
    """The exact report (docs/exact.md) of the ``optimal`` strategy."""
    from gpusim.strategy import StrategyError

    name = strategy if isinstance(strategy, str) else getattr(strategy, "name", str(strategy))
    if name != "optimal":
        if name not in [n for n, _, _ in rules.game_def.strategies]:
            raise StrategyError(f"strategy {name!r}: the exact report of "
                                f"{rules.game_def.title} prices 'optimal' and the "
                                "description's rule strategies; simulate it instead")
        # a rule strategy: counted by the community-card solver, in the described report
        from gpusim.games.described import exact_report

        return exact_report.report(rules, name, progress=progress, backend=backend)
    return analyse_solution(solution(rules, progress=progress, backend=backend), rules, name)


def analyse_solution(sol: Solution, rules, strategy: str = "optimal") -> dict:
    """The exact report of a solution under the rules' prices (the paytable designer prices
    candidate paytables on one solution)."""
    from gpusim.games.holdem.play_once_report import analyse

    prices = prices_of(rules)
    return analyse(sol, rules, strategy, prices.den, prices.trips)


def solve_tables(rules, progress: bool, backend: str = "cpu") -> dict[str, np.ndarray]:
    """The ``optimal`` decision tables: pre-flop (169, A) one-hot, flop (1755, 1326) and river
    (134459, 1326) Play bits."""
    tables = solved(rules, progress=progress, backend=backend).tables
    assert tables is not None
    return tables


def counts_file(rules) -> str:
    d = rules.game_def
    return cache_name(qualifier_rank(d), prices_of(rules), play_tree_of(d))


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
