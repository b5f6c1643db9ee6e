"""The exact-analysis engine that every game's solver builds on (the described games' one
solver, :mod:`gpusim.games.described.solver`, and the hold'em shapes' solvers in
:mod:`gpusim.games.holdem`; :mod:`gpusim.runs.exact_on_demand` runs them on demand).

Modules, lowest first (import-linter checks this order): :mod:`~gpusim.exact._parallel` and
:mod:`~gpusim.exact._profile` (worker processes, stage timers), :mod:`~gpusim.exact.cache`
(the user's cache directory, atomic writes, progress), :mod:`~gpusim.exact.boards` (per-board
showdown counts), :mod:`~gpusim.exact.fives` (the 5-card board-class two-stage solver),
:mod:`~gpusim.exact.report` (exact report tables), :mod:`~gpusim.exact.solver` (what a game's
solver provides), :mod:`~gpusim.exact.shipped` (the shipped reports) and
:mod:`~gpusim.exact.cupy_counts` (loading and launching a game's count kernel).
"""

from __future__ import annotations

__all__: list[str] = []
