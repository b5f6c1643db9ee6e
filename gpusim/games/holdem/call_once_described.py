"""A described game of the call-once hold'em shape (:mod:`.call_once_shape`), solved by the
shape's counts (:mod:`.call_once_counts`) and priced by :mod:`.call_once`.

:data:`SOLVER` is the game's :class:`~gpusim.exact.solver.ExactSolver`; its table strategies
are ``optimal`` (call iff it beats folding, counting the side bet's win a fold forfeits) and
``optimal-main`` (the main game alone); :class:`DescribedCallOnceTables` reads their tables."""

from __future__ import annotations

import numpy as np

from gpusim.exact.solver import ExactSolver
from gpusim.games.holdem import call_once, call_once_cache
from gpusim.games.holdem.call_once_shape import line_classes, prices_of, qualifier_rank, roles

__all__ = ["SOLVER", "TABLE_STRATEGIES", "DescribedCallOnceTables", "cached_counts",
           "line_classes", "prices_of", "solve_tables"]

TABLE_STRATEGIES = ("optimal", "optimal-main")
"""The shape's table strategies: with the side bet a fold forfeits, and the main game alone."""


def cached_counts(rules, *, progress: bool = True, backend: str = "cpu"):
    """The config's counts (cached per dealer qualifier)."""
    d = rules.game_def
    return call_once_cache.cached_counts(qualifier_rank(d), backend=backend,
                                          progress=f"{d.title}: flop classes" if progress
                                          else None)


def counts_file(rules) -> str:
    return call_once_cache.counts_file(qualifier_rank(rules.game_def))


def solve_tables(rules, progress: bool, backend: str = "cpu") -> dict[str, np.ndarray]:
    """Every table strategy's decision tables (unpacked bool arrays)."""
    counts = cached_counts(rules, progress=progress, backend=backend)
    p = prices_of(rules)
    return {f"{p.point}/optimal": call_once.optimal_decisions(counts, p, with_side_bet=True),
            f"{p.point}/optimal-main": call_once.optimal_decisions(counts, p,
                                                                   with_side_bet=False)}


def stored_or_solved(rules, backend: str) -> dict[str, np.ndarray]:
    """The config's decision tables: stored or cached, else solved now."""
    from gpusim.strategy.tables import stored_tables

    return stored_tables(rules) or solve_tables(rules, False, backend)


def strategy_table(rules, strategy: str, counts, *, backend: str = "cpu") -> np.ndarray:
    """(1755, 1326) call table of a strategy: a table strategy, or a rule strategy's decisions
    on every (flop class, hole) representative."""
    from gpusim.games import spec_for

    p = prices_of(rules)
    table = spec_for(rules).table_of(strategy)  # a table strategy, or another name of one
    if table is not None:
        return stored_or_solved(rules, backend)[f"{p.point}/{table}"]
    from gpusim.board_index import subsets
    from gpusim.exact.cache import representative_rounds
    from gpusim.games.strategy_registry import get_strategy

    strat = get_strategy(strategy, rules)
    rows, holes = np.nonzero(counts.valid)
    cards = representative_rounds(subsets(2).astype(np.int32)[holes], counts.flops[rows],
                                  n_board=3)
    call = np.asarray(strat.decide(cards)[p.point]) == roles(rules.game_def).call_index
    out = np.zeros(counts.valid.shape, dtype=bool)
    out[rows, holes] = call
    return out


def report(rules, strategy, *, progress: bool = True, backend: str = "cpu") -> dict:
    """The exact report of a config under a strategy (docs/exact.md)."""
    name = strategy if isinstance(strategy, str) else getattr(strategy, "name", str(strategy))
    counts = cached_counts(rules, progress=progress, backend=backend)
    decisions = strategy_table(rules, name, counts, backend=backend)
    return call_once.analyse(counts, prices_of(rules), decisions, name, game=rules.game,
                             config=rules.name)


SOLVER = ExactSolver(
    counts=cached_counts,
    counts_file=counts_file,
    solve_tables=solve_tables,
    report=report,
    rule_strategies_are_slow=False,
)


class DescribedCallOnceTables:
    """The ``table_strategy_class`` of a described game of the shape."""

    @classmethod
    def load(cls, name: str, rules):
        from gpusim.games.described.layout import tree
        from gpusim.games.holdem.call_once_tables import CallOnceTables

        d = rules.game_def
        return CallOnceTables.of(name, rules, tree(d), roles(d))
