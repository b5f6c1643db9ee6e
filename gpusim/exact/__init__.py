"""Exact analysis by full enumeration: optimal strategies, return tables, house edge.

Entry points::

    exact_report(rules, strategy="optimal") -> dict     # the `gpusim exact` report (docs/exact.md)
    decision_tables(rules) -> {"call/optimal": (1755, 1326) bool, ...}

Modules: :mod:`~gpusim.exact.boards` (per-board showdown counts),
:mod:`~gpusim.exact.casino_holdem`, :mod:`~gpusim.exact.holdem_bonus` (enumeration and
pricing), :mod:`~gpusim.exact.tables` (caching, shipped tables), :mod:`~gpusim.exact.report`.
"""

from __future__ import annotations

from gpusim.exact.tables import decision_tables, exact_report

__all__ = ["decision_tables", "exact_report"]
