"""A described game of the street-bets hold'em shape (:mod:`.streets_shape`), solved by the
shape's counts (:mod:`.streets_counts`, cached by :mod:`.streets_cache`) and priced by
:mod:`.streets`.

:data:`SOLVER` is the game's :class:`~gpusim.exact.solver.ExactSolver`; its table strategies
are ``optimal`` (Turn/River bet iff P(win) > P(lose), the flop bet iff its EV beats folding)
and ``win-over-half-ev`` (Turn/River bet iff P(win) > 1/2, the flop bet likewise);
:class:`DescribedStreetsTables` reads their tables."""

from __future__ import annotations

import numpy as np

from gpusim.exact.solver import ExactSolver
from gpusim.games.holdem import streets, streets_cache
from gpusim.games.holdem.streets_shape import ante_pays_from, prices_of, roles

__all__ = ["SOLVER", "TABLE_STRATEGIES", "DescribedStreetsTables", "cached_counts",
           "solve_tables"]

TABLE_STRATEGIES = tuple(name for name, _ in streets.TABLE_RULES)
"""The shape's table strategies."""


def cached_counts(rules, *, progress: bool = True, backend: str = "cpu"):
    """The config's river counts (cached per Ante threshold)."""
    return streets_cache.cached_counts(ante_pays_from(rules), progress=progress,
                                       backend=backend)


def counts_file(rules) -> str:
    return streets_cache.counts_file(ante_pays_from(rules))


def solve_tables(rules, progress: bool, backend: str = "cpu") -> dict[str, np.ndarray]:
    """Every table strategy's decision tables (unpacked bool arrays)."""
    return streets.solve_tables(cached_counts(rules, progress=progress, backend=backend))


def stored_or_solved(rules, backend: str) -> dict[str, np.ndarray]:
    """The config's decision tables: stored or cached, else solved now."""
    from gpusim.strategy.tables import stored_tables

    return stored_tables(rules) or solve_tables(rules, False, backend)


def strategy_tables(rules, strategy: str, river, *, backend: str = "cpu"):
    """(preflop (169,), turn (1755, 1326), river (16432, 1326)) bool tables of a strategy: a
    table strategy's, or a rule strategy's decisions on one representative per class."""
    from gpusim.games import spec_for

    table = spec_for(rules).table_of(strategy)  # a table strategy, or another name of one
    if table is not None:
        t = stored_or_solved(rules, backend)
        return t[f"preflop/{table}"], t[f"turn/{table}"], t[f"river/{table}"]
    from gpusim.games.described.layout import tree
    from gpusim.games.strategy_registry import get_strategy

    d = rules.game_def
    return streets.rule_tables(get_strategy(strategy, rules), tree(d), roles(d).points, river)


def report(rules, strategy, *, progress: bool = True, backend: str = "cpu") -> dict:
    """The exact report of a config under a strategy (docs/exact.md)."""
    name = strategy if isinstance(strategy, str) else getattr(strategy, "name", str(strategy))
    river = cached_counts(rules, progress=progress, backend=backend)
    tables = strategy_tables(rules, name, river, backend=backend)
    return streets.report(river, tables, prices_of(rules), name)


SOLVER = ExactSolver(
    counts=cached_counts,
    counts_file=counts_file,
    solve_tables=solve_tables,
    report=report,
    rule_strategies_are_slow=True,
)


class DescribedStreetsTables:
    """The ``table_strategy_class`` of a described game of the shape."""

    @classmethod
    def load(cls, name: str, rules):
        from gpusim.games.described.layout import tree
        from gpusim.games.holdem.streets_tables import StreetsTables

        return StreetsTables.of(name, rules, tree(rules.game_def))
