"""Figures of a run: return tables, volatility, sessions, risk of ruin, jackpot, what-if paytables
and live-table exposure, computed from a run folder's integer counts with
:mod:`gpusim.stats`.

Every function here takes a :class:`RunData` (loaded once from a :class:`gpusim.Run` with
:func:`load_run_data`) and returns plain JSON-able dicts: integers for money and counts, floats
only for the final ratios. The ``gpusim report``, ``risk`` and ``whatif`` commands print these
dicts; the report embeds them verbatim, so every number it shows can be read back.

Units: money amounts (bankrolls, session results, meters) are in the config's money units (the
ante is usually 1); per-bet ratios (house edge, SD, VI) are per unit of that bet's stake; the
``main`` and ``total`` figures are per ante.

Modules, by subject: :mod:`.data` (the run's counts, :class:`AnalysisError`), :mod:`.returns`
(return tables, exact figures), :mod:`.volatility` (volatility, convergence), :mod:`.risk`
(sessions, risk of ruin), :mod:`.jackpot`, :mod:`.whatif` (what-if paytables) and :mod:`.live`
(live-table exposure). Import the names from here.
"""

from __future__ import annotations

from gpusim.run_figures.data import AnalysisError, RunData, load_run_data, rules_from_manifest
from gpusim.run_figures.jackpot import jackpot_figures
from gpusim.run_figures.live import live_figures, parse_stake_dist
from gpusim.run_figures.returns import bet_pays, exact_figures, return_tables, shipped_exact_report
from gpusim.run_figures.risk import (
    DEFAULT_TARGETS,
    risk_figures,
    risk_with_detail,
    ruin_curve_points,
    ruin_figures,
    ruin_with_curve,
    session_figures,
    session_pmf,
    session_with_pmf,
)
from gpusim.run_figures.volatility import convergence, volatility_figures
from gpusim.run_figures.whatif import solve_line, whatif_figures

__all__ = [
    "AnalysisError",
    "DEFAULT_TARGETS",
    "RunData",
    "bet_pays",
    "convergence",
    "exact_figures",
    "jackpot_figures",
    "live_figures",
    "load_run_data",
    "parse_stake_dist",
    "return_tables",
    "risk_figures",
    "risk_with_detail",
    "rules_from_manifest",
    "ruin_curve_points",
    "ruin_figures",
    "ruin_with_curve",
    "session_figures",
    "session_pmf",
    "session_with_pmf",
    "shipped_exact_report",
    "solve_line",
    "volatility_figures",
    "whatif_figures",
]
