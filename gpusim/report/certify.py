"""The certification pack (``gpusim certify``): everything a test lab files for a game, as one
workbook (.xlsx) or one self-contained HTML page with the same content.

:func:`build_pack` gathers it as a dict; :mod:`gpusim.report.certify_write` writes it (a
temporary name, then a rename: nothing half-written on failure). Sections:

- ``cover``: game, config file and its sha256, config hash, gpusim version, date (UTC), deals
  counted, strategy, confidence level;
- ``rules``: the rules in words (:func:`gpusim.games.words.rules_in_words`: written from the
  spec and description the engine computes with, never by hand per game);
- ``paytables``: every offered bet's paytable as the config writes it;
- ``bets``: every bet's exact integer combinations per event (the exact report's counts, never
  rebuilt from floats), probability, return contribution, RTP, house edge, hit frequency, SD,
  VI at 90, 95 and 99 % and the max win with its combinations;
- ``main``: the main game and the total: hit frequency, element of risk, average total wager,
  house edge per ante, SD per round, the max win of a round;
- ``strategy``: the strategy as a chart (a PNG, drawn from the exact report's data shape) and
  as a table;
- ``verification`` (with a run): per event simulated against exact with its z-score, the
  chi-square per bet with its p-value, the RTP interval at the pack's confidence, the run's
  sha256 and its round coverage from :func:`gpusim.runs.verify.verify_run`;
- ``randomness`` (with a run): the battery on the run's own generator stream, with p-values.

SD and VI are per unit staked on one placed wager (the PAR sheet's definitions): VI = z SD with
z at 90, 95 and 99 %.
"""

from __future__ import annotations

import base64
import datetime as _dt
import hashlib
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

__all__ = ["FORMAT", "VI_LEVELS", "build_pack"]

FORMAT = "gpusim-certify/1"
"""The pack's version: the first key of the JSON the HTML pack embeds (docs/formats.md)."""

VI_LEVELS = (0.90, 0.95, 0.99)
"""The confidence levels of the volatility index columns (a test lab's usual three)."""


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _pct(c: float) -> str:
    return f"{c * 100:g}"


def _bet_figures(info: dict) -> dict:
    """RTP, house edge, hit frequency, SD, VI and max win of one bet of the exact report, from
    its integer counts. Raises ValueError for a report without counts (written before
    gpusim-exact/1 carried them: run ``gpusim exact --recompute``)."""
    from gpusim.stats.confidence import z_of

    events = info["events"]
    if not all(isinstance(e.get("count"), int) for e in events):
        raise ValueError("exact report: an event has no integer count; this pack needs the "
                         "counts (gpusim exact --recompute writes them)")
    total = sum(e["count"] for e in events)
    rows = []
    s0 = s1 = s2 = Fraction(0)
    hits = placed_deals = 0
    for e in events:
        count = int(e["count"])
        placed = int(e.get("placed", count))
        staked = int(e.get("staked", count))
        pays = Fraction(e["pays"]).limit_denominator(10**6)
        rows.append({"event": e["event"], "pays": e["pays"] if placed else None,
                     "combinations": count, "probability": count / total,
                     "contribution": float(e["return"])})
        if not placed:
            continue
        # per unit staked: a deal staked at k units weighs k (the PAR sheet's convention)
        s0 += staked
        s1 += staked * pays
        s2 += staked * pays * pays
        placed_deals += placed
        hits += placed if pays > 0 else 0
    mean = s1 / s0 if s0 else Fraction(0)
    var = s2 / s0 - mean * mean if s0 else Fraction(0)
    sd = math.sqrt(float(var))
    rtp = info.get("rtp")
    out = {"events": rows, "deals": total, "rtp": rtp,
           "house_edge": None if rtp is None else 1 - rtp,
           "hit_frequency": info.get("hit_frequency",
                                     hits / placed_deals if placed_deals else None),
           "placed": placed_deals / total if total else None, "sd": sd,
           "vi": {_pct(c): z_of(c) * sd for c in VI_LEVELS}}
    if "max_win" in info:
        out["max_win"] = info["max_win"]
    return out


def _paytables(rules) -> dict[str, dict[str, Any]]:
    from gpusim.games import bets as offered
    from gpusim.games import spec_for

    spec = spec_for(rules)
    raw = rules.to_dict().get("paytables", {})
    return {bet: dict(raw.get(spec.paytable_tables.get(bet, bet)) or spec.paytable(rules, bet))
            for bet in offered(rules) if bet in spec.paytables}


def _verification(run: str, rules, strategy: str, rep: dict, confidence: float) -> dict:
    """The run against the exact report: per event z, chi-square per bet with its p-value, the
    RTP interval at ``confidence``, and the run's integrity and coverage."""
    from scipy.stats import chi2 as chi2_dist

    from gpusim.run_figures.data import AnalysisError, load_run_data
    from gpusim.run_figures.returns import return_tables
    from gpusim.runs.verify import expected_range, verify_run
    data = load_run_data(run, confidence)
    ran = str(data.manifest.get("config_hash", ""))
    if ran != rules.config_hash:
        raise AnalysisError(f"--run: {run!r} ran config hash {ran[:12]}, not "
                            f"this config's {rules.config_hash[:12]}; certify the run's config")
    if data.manifest.get("strategy") != strategy:
        raise AnalysisError(f"--run: {run!r} ran strategy {data.manifest.get('strategy')!r}, "
                            f"not {strategy!r}; give --strategy "
                            f"{data.manifest.get('strategy')}")
    exact: dict = {"source": {}, "events": {}, "rtp": {}}
    for bet, info in rep["bets"].items():
        total = sum(int(e["count"]) for e in info["events"])
        exact["events"][bet] = {e["event"]: Fraction(int(e["count"]), total)
                                for e in info["events"]}
        exact["source"][bet] = "gpusim exact"
        exact["rtp"][bet] = info.get("rtp")
    tables = return_tables(data, exact)
    bets = {}
    for bet, t in tables.items():
        ex = t.get("exact") or {}
        w = data.wagers.get(bet, {})
        ci = _rtp_interval(data, bet, confidence)
        chi2, dof = ex.get("chi2"), ex.get("dof")
        bets[bet] = {
            "rounds": t["rounds"], "placed": t["placed"], "rtp_simulated": t["rtp"],
            "rtp_exact": ex.get("rtp"), "z_rtp": ex.get("z_rtp"),
            "rtp_interval": ci, "exact_inside_interval": (
                None if ci is None or ex.get("rtp") is None else ci[0] <= ex["rtp"] <= ci[1]),
            "chi2": chi2, "dof": dof,
            "p_value": None if chi2 is None or not dof else float(chi2_dist.sf(chi2, dof)),
            "events": [{"event": r["event"], "count": r["count"],
                        "expected": (None if r.get("exact_probability") is None
                                     else r["exact_probability"] * t["rounds"]),
                        "probability": r["probability"],
                        "exact_probability": r.get("exact_probability"), "z": r.get("z")}
                       for r in t["rows"]],
            "wagered": w.get("wagered")}
    first, stop = expected_range(data.manifest)
    manifest = Path(data.path) / "manifest.json"
    problems = verify_run(data.path)
    # the folder's name, not where it sits on this machine: the pack travels
    return {"run": Path(data.path).name, "rounds": data.rounds, "seed": data.manifest.get("seed"),
            "manifest_sha256": _sha256(manifest), "coverage": [first, stop],
            "complete": data.complete, "verify_problems": problems,
            "confidence": confidence, "bets": bets}


def _rtp_interval(data, bet: str, confidence: float) -> list[float] | None:
    """The bet's RTP interval at ``confidence`` as ``gpusim summary --confidence`` gives it."""
    from gpusim.stats.confidence import ci_key

    ci = (data.summary.get("bets", {}).get(bet) or {}).get(f"rtp_{ci_key(confidence)}")
    return None if ci is None else [float(ci[0]), float(ci[1])]


def build_pack(rules, strategy: str, *, config_path: str | Path | None = None,
               run: str | None = None, confidence: float = 0.95, report: dict | None = None,
               randomness_rounds: int | None = None, progress: bool = False) -> dict:
    """The certification pack of ``rules`` under ``strategy`` (see the module docstring).

    report: the exact report (default: the shipped one, else solved now). run: a run folder of
    this config and strategy, for the verification and randomness sections.
    """
    from gpusim import __version__
    from gpusim.games import spec_for
    from gpusim.games.words import rules_in_words
    from gpusim.report.strategy_chart import strategy_chart_png, strategy_table
    from gpusim.stats.confidence import check_confidence

    confidence = check_confidence(confidence, "--confidence")
    if report is None:
        from gpusim.exact.shipped import shipped_report
        from gpusim.runs.exact_on_demand import exact_report

        report = shipped_report(rules, strategy) or exact_report(rules, strategy,
                                                                 progress=progress)
    spec = spec_for(rules)
    path = Path(config_path) if config_path else None
    cover = {
        "game": spec.title, "game_name": rules.game, "config": rules.name,
        "config_file": path.name if path else None,
        "config_sha256": _sha256(path) if path and path.is_file() else None,
        "config_hash": rules.config_hash, "gpusim_version": __version__,
        "created": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC"),
        "deals_counted": int(report["deals_counted"]), "strategy": strategy,
        "strategy_description": next((s.description for s in spec.strategies
                                      if s.name == strategy), ""),
        "confidence": confidence, "description": rules.description,
    }
    bets = {bet: _bet_figures(info) for bet, info in report["bets"].items()}
    main = dict(report.get("main") or {})
    if "max_win" in report:  # the whole round's (its scope says which bets it counts)
        main["max_win_round"] = report["max_win"]
    pack = {"format": FORMAT, "cover": cover, "rules": rules_in_words(rules),
            "paytables": _paytables(rules), "bets": bets, "main": main,
            "strategy": {"table": strategy_table(report),
                         "chart_png": base64.b64encode(strategy_chart_png(report)).decode()},
            "exact_report": report}
    if run is not None:
        pack["verification"] = _verification(run, rules, strategy, report, confidence)
        from gpusim.randomness import battery_for_run

        pack["randomness"] = battery_for_run(run, rounds=randomness_rounds)
    return pack


