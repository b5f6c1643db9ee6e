"""What a game's exact solver provides: :class:`ExactSolver`, named by its spec."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["ExactSolver"]


@dataclass(frozen=True)
class ExactSolver:
    """A game's exact solver (``GameSpec.exact_solver``; a game without one has no ``optimal``).

    - ``counts(rules, *, progress, backend)``: the enumeration counts, cached on disk;
    - ``counts_file(rules) -> str``: their file name in :func:`gpusim.exact.cache.cache_dir`;
    - ``solve_tables(rules, progress, backend) -> {"<point>/<strategy>": bool array}``: every
      table strategy's decision tables;
    - ``report(rules, strategy, *, progress, backend) -> dict``: the exact report
      (docs/exact.md), ``strategy`` a :class:`~gpusim.strategy.Strategy` or a table strategy's
      name;
    - ``rule_strategies_are_slow``: a rule-list strategy is priced by applying it to every
      situation, which takes about a minute (so the report is not "cached" for it);
    - ``report_solves_tables``: the report of a table strategy counts its own decisions (the
      tables need not be solved first: each table strategy is a solve of its own).
    """

    counts: Callable
    counts_file: Callable
    solve_tables: Callable
    report: Callable
    rule_strategies_are_slow: bool
    report_solves_tables: bool = False
