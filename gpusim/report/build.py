"""Gather a run's figures into the report dict (JSON-able; the HTML and Markdown render it)."""

from __future__ import annotations

import datetime as _dt

from gpusim import analysis as A

__all__ = ["build_report"]


def build_report(run, *, bankroll: int = 100, rounds: int = 1000,
                 targets=A.DEFAULT_TARGETS, bet: str = "total", exact: str = "auto",
                 paths: int = 20_000, seed: int = 1, live_seats: int | None = None,
                 rounds_per_day: int = 1000, stake_dist: str | None = None) -> dict:
    """Every figure of the report for ``run`` (a :class:`gpusim.Run` or a run-folder path).

    bankroll, rounds, targets, bet, paths, seed: as for ``gpusim risk`` (the report's ``risk``
    section equals ``gpusim risk RUN --json`` with the same values). exact: ``auto`` | ``always``
    | ``never`` (see :func:`gpusim.analysis.exact_figures`). live_seats: add the live-table
    exposure section for M seats.
    """
    data = run if isinstance(run, A.RunData) else A.load_run_data(run)
    from gpusim import __version__

    strategy = data.manifest.get("strategy", "")
    ex = A.exact_figures(data.rules, strategy, exact)
    warnings = []
    if not data.complete:
        warnings.append(f"run is unfinished ({data.rounds:,} of {data.manifest['rounds']:,} "
                        "rounds); figures use the completed chunks only")
    risk = A.risk_figures(data, bankroll, rounds, bet=bet, targets=targets, paths=paths,
                          seed=seed)
    need = max([bankroll] + [b["bankroll"] for b in risk["ruin"]["bankroll_for_risk"]])
    curve = A.ruin_curve_points(data, rounds, max(int(need * 1.25), 10), bet=bet)
    vals, probs = A.session_pmf(data, rounds, bet)
    exact_main = dict(ex["main"]) if ex["main"] else None
    conv = A.convergence(data, "main",
                         exact_main.get("total_bet_rtp") if exact_main else None)
    dist = data.dists[bet]
    report = {
        "format": "gpusim-report/1",
        "generated": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "gpusim_version": __version__,
        "run": {"path": data.path, "config": data.manifest.get("config_name"),
                "game": data.rules.game, "strategy": strategy,
                "seed": data.manifest.get("seed"), "rounds": data.rounds,
                "rounds_planned": data.manifest.get("rounds"), "complete": data.complete,
                "config_hash": data.manifest.get("config_hash"),
                "backend": data.manifest.get("backend")},
        "warnings": warnings,
        "summary": data.summary,
        "exact": {"main": exact_main, "note": ex["note"], "sources": ex["source"]},
        "return_tables": A.return_tables(data, ex),
        "volatility": A.volatility_figures(data),
        "convergence": conv,
        "risk": risk,
        "ruin_curve": curve,
        "session_pmf": {"bet": bet, "rounds": rounds, "values": vals.tolist(),
                        "probabilities": probs.tolist()},
        "net_distribution": {"bet": bet, "values": dist.values.tolist(),
                             "counts": dist.counts.tolist()},
        "jackpot": A.jackpot_figures(data),
        "live": None,
    }
    if live_seats is not None:
        report["live"] = A.live_figures(data, live_seats, rounds_per_day,
                                        A.parse_stake_dist(stake_dist), bet=bet)
    return report
