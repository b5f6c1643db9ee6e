"""Gather a run's figures into the report dict (JSON-able; the HTML and Markdown render it).

The dict holds summaries and quantiles, never whole distributions: a progressive meter makes a
1000-round session's distribution millions of lattice points, so the full session PMF and ruin
curve go to Parquet files (:func:`write_data`) for whoever wants them.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
from pathlib import Path

import numpy as np

from gpusim import run_figures as A
from gpusim.games import spec_for
from gpusim.games.spec import METER_SECTION
from gpusim.stats import DEFAULT_CONFIDENCE, check_confidence

__all__ = ["SESSION_QUANTILES", "build_report", "build_report_detail", "write_data"]

SESSION_QUANTILES = (0.1, 0.5, 1, 2.5, 5, 10, 25, 50, 75, 90, 95, 97.5, 99, 99.5, 99.9)
_HIST_BINS = 200          # bins of an embedded session histogram
_CURVE_POINTS = 400       # points of the embedded ruin curve and convergence line
_BODY_ATOMS = 400         # distinct values of an embedded per-round distribution


def build_report(run, **kwargs) -> dict:
    """Every figure of the report for ``run`` (a :class:`gpusim.Run` or a run-folder path).

    bankroll, rounds, targets, bet, paths, seed: as for ``gpusim risk`` (the report's ``risk``
    section equals ``gpusim risk RUN --json`` with the same values). exact: ``auto`` | ``always``
    | ``never`` (see :func:`gpusim.run_figures.exact_figures`). live_seats: add the live-table
    exposure section for M seats. confidence: see :func:`build_report_detail`.
    """
    return build_report_detail(run, **kwargs)[0]


def build_report_detail(run, *, bankroll: int = 100, rounds: int = 1000,
                        targets=A.DEFAULT_TARGETS, bet: str = "total", exact: str = "auto",
                        paths: int = 20_000, seed: int = 1, live_seats: int | None = None,
                        rounds_per_day: int = 1000, stake_dist: str | None = None,
                        confidence: float | None = None):
    """(report dict, full distributions): the second is what :func:`write_data` writes,
    {"sessions": {bet: LatticePMF}, "ruin_curve": RuinCurve}.

    confidence: the level of every confidence interval in the report (0 < c < 1; the report's
    ``confidence`` key gives it). None: 95 %, except the simulated ruin check, which keeps the
    99 % of ``gpusim risk``; a ``RunData`` given with a summary at another level is
    recomputed at this one.
    """
    level = DEFAULT_CONFIDENCE if confidence is None else check_confidence(confidence)
    if not isinstance(run, A.RunData):
        data = A.load_run_data(run, level)
    elif run.confidence != level:
        from gpusim.runs.run_api import Run

        data = dataclasses.replace(run, summary=Run(run.path).summary(level))
    else:
        data = run
    from gpusim import __version__

    strategy = data.manifest.get("strategy", "")
    ex = A.exact_figures(data.rules, strategy, exact)
    warnings = []
    if not data.complete:
        warnings.append(f"run is unfinished ({data.rounds:,} of {data.manifest['rounds']:,} "
                        "rounds); figures use the completed chunks only")
    ruin_level = {} if confidence is None else {"level": level}
    risk, pmf, curve = A.risk_with_detail(data, bankroll, rounds, bet=bet, targets=targets,
                                          paths=paths, seed=seed, **ruin_level)
    sessions = {bet: _session_entry(risk["session"], pmf)}
    pmfs = {bet: pmf}
    for other in ("main", "total"):
        if other not in sessions and other in data.dists:
            fig, p = A.session_with_pmf(data, rounds, other)
            sessions[other] = _session_entry(fig, p)
            pmfs[other] = p
    exact_main = dict(ex["main"]) if ex["main"] else None
    conv = A.convergence(data, "main",
                         exact_main.get("total_bet_rtp") if exact_main else None)
    tables = A.return_tables(data, ex)
    spec = spec_for(data.rules)
    report = {
        "format": "gpusim-report/2",
        "generated": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "gpusim_version": __version__,
        "run": {"path": data.path, "config": data.manifest.get("config_name"),
                "game": data.rules.game, "strategy": strategy,
                "seed": data.manifest.get("seed"), "rounds": data.rounds,
                "rounds_planned": data.manifest.get("rounds"), "complete": data.complete,
                "config_hash": data.manifest.get("config_hash"),
                "backend": data.manifest.get("backend"),
                # the unit of the per-ante figures; the summary's bets are in money units
                "base_bet": spec.base_bet, "base_stake": int(data.stakes[spec.base_bet])},
        "warnings": warnings,
        "confidence": level,
        "summary": data.summary,
        # the bets' SD per round in antes, the unit of the main game's figures (the summary's
        # bets are in money units): the summary table shows these
        "sd_per_round_antes": {
            b: (None if x["sd_per_round"] is None
                else x["sd_per_round"] / data.stakes[spec.base_bet])
            for b, x in data.summary["bets"].items()},
        # a game without an exact solver or exact side bets has no exact column anywhere
        "exact": ({"main": exact_main, "note": ex["note"], "sources": ex["source"],
                   "total_rtp": _exact_total_rtp(data, exact_main, tables)}
                  if spec.solver() is not None or ex["source"] else None),
        "return_tables": tables,
        "hit_frequency": _hit_frequency(data, tables),
        "volatility": A.volatility_figures(data, confidence=level),
        "convergence": _thin_convergence(conv),
        "risk": risk,
        "ruin_curve": _curve_entry(curve, risk["ruin"]),
        "sessions": sessions,
        "net_distributions": {b: _dist_entry(data, b) for b in _plotted_bets(data)},
        METER_SECTION: A.jackpot_figures(data, confidence=level),
        "live": None,
    }
    if report[METER_SECTION]:
        # the meters of the hits are summarised (quantiles); a sample is enough for a histogram
        report[METER_SECTION]["meters"] = report[METER_SECTION]["meters"][:2000]
    if live_seats is not None:
        report["live"] = A.live_figures(data, live_seats, rounds_per_day,
                                        A.parse_stake_dist(stake_dist), bet=bet)
    return report, {"sessions": pmfs, "ruin_curve": curve, "ruin_bet": bet}


def _exact_total_rtp(data, exact_main: dict | None, tables: dict) -> float | None:
    """The whole round's exact RTP, where every bet on the table has an exact one: the main
    game's expected return and wager per round (its total-bet RTP and average wager, in antes)
    with each side bet's, a side bet placed on every round at its stake. None where the main
    game has no exact figures, or a side bet no exact RTP (a Jackpot's depends on the meter) or
    not a fixed stake every round."""
    if not exact_main or exact_main.get("total_bet_rtp") is None \
            or exact_main.get("avg_total_wager") is None:
        return None
    spec = spec_for(data.rules)
    ante = data.stakes[spec.base_bet]
    wager = exact_main["avg_total_wager"] * ante
    back = exact_main["total_bet_rtp"] * wager
    for bet in data.bets:
        if bet in spec.main_bets or bet in ("main", "total"):
            continue
        rtp = ((tables.get(bet) or {}).get("exact") or {}).get("rtp")
        if rtp is None or data.summary["bets"][bet]["placed"] != data.rounds:
            return None
        wager += data.stakes[bet]
        back += rtp * data.stakes[bet]
    return back / wager if wager else None


def _plotted_bets(data) -> list[str]:
    side = spec_for(data.rules).side_bets
    return [b for b in ("main", *[x for x in data.bets if x in side], "total")
            if b in data.dists]


def _fixed_top(data, bet: str) -> int | None:
    """The largest win a round of ``bet`` can bring without a Jackpot royal (money units);
    None when the bet cannot include one (then its distribution has no meter tail)."""
    spec = spec_for(data.rules)
    meter = spec.meter_bet
    if meter not in data.bets or bet not in (meter, "total"):
        return None
    tops = {}
    for b in data.bets:
        pays, stakes = A.bet_pays(data.rules, b, None)
        fixed = [p for e, p in pays.items() if not (b == meter and e == spec.meter_event)]
        tops[b] = max(0, int(max(fixed) * data.stakes[b]))
    return tops[meter] if bet == meter else sum(tops.values())


def _dist_entry(data, bet: str) -> dict:
    """Per-round net distribution of ``bet``: every value up to the largest fixed-paytable win,
    and above it (a Jackpot royal paying the meter) one tail summary."""
    d = data.dists[bet]
    v, c = d.values, d.counts
    n = int(c.sum())
    top = _fixed_top(data, bet)
    body = np.ones(v.size, bool) if top is None else v <= top
    tail = None
    if not body.all():
        tv, tc = v[~body], c[~body]
        tail = {"from": int(top) + 1, "rounds": int(tc.sum()), "probability": float(tc.sum() / n),
                "min": int(tv.min()), "max": int(tv.max()),
                "mean": float(np.dot(tv.astype(np.float64), tc) / tc.sum())}
    bv, bc = v[body], c[body]
    if bv.size > _BODY_ATOMS:  # keep the most likely values; the rest summarised
        keep = np.sort(np.argsort(bc, kind="stable")[::-1][:_BODY_ATOMS])
        bv, bc = bv[keep], bc[keep]
    stake = data.ante if bet in ("main", "total") else data.stakes[bet]
    return {"bet": bet, "rounds": n, "stake": stake, "values": bv.tolist(),
            "probabilities": (bc / n).tolist(), "shown_probability": float(bc.sum() / n),
            "p_win": float(c[v > 0].sum() / n), "p_push": float(c[v == 0].sum() / n),
            "p_loss": float(c[v < 0].sum() / n), "min": int(v[0]), "max": int(v[-1]),
            "tail": tail}


def _hit_frequency(data, tables: dict) -> dict:
    """Per bet: P(win | placed) simulated, with its exact value where the events are exact."""
    out = {}
    for bet, t in tables.items():
        placed = [r for r in t["rows"] if r["stake"]]
        n = sum(r["count"] for r in placed)
        wins = sum(r["count"] for r in placed if (r["pays"] or 0) > 0)
        e = {"bet": bet, "placed": n, "wins": wins, "hit_frequency": wins / n if n else None,
             "exact": None}
        if t.get("exact") and all(r.get("exact_probability") is not None for r in placed):
            p_pl = sum(r["exact_probability"] for r in placed)
            p_w = sum(r["exact_probability"] for r in placed if (r["pays"] or 0) > 0)
            e["exact"] = p_w / p_pl if p_pl else None
        out[bet] = e
    for bet in ("main", "total"):
        d = data.dists.get(bet)
        if d is not None:
            n = int(d.counts.sum())
            out[bet] = {"bet": bet, "placed": n, "wins": int(d.counts[d.values > 0].sum()),
                        "hit_frequency": float(d.counts[d.values > 0].sum() / n), "exact": None}
    return out


def _session_entry(fig: dict, pmf) -> dict:
    """Session figures plus quantiles and a histogram of the body (below the capped region)."""
    vals, probs = pmf.nonzero()
    lim = fig.get("exact_below")
    cdf = np.cumsum(probs)
    qs = []  # a list: levels such as 0.1 cannot be keys of a dotted data-key path
    for q in SESSION_QUANTILES:
        i = int(np.searchsorted(cdf, q / 100.0 - 1e-15))
        x = int(vals[min(i, vals.size - 1)])
        qs.append({"percent": q, "value": x if lim is None or x < lim else None})
    # the body a reader needs: 0.05 % .. 99.95 %; the rest is given as masses below/above
    p_tail = float(probs[vals >= lim].sum()) if lim is not None else 0.0
    lo = int(vals[int(np.searchsorted(cdf, 5e-4))])
    hi_i = min(int(np.searchsorted(cdf, 1 - 5e-4 - p_tail)), vals.size - 1)
    hi = int(vals[hi_i])
    if lim is not None:
        hi = min(hi, lim - 1)
    width = max(1, -(-(hi - lo + 1) // _HIST_BINS))
    nb = -(-(hi - lo + 1) // width)
    sel = (vals >= lo) & (vals <= hi)
    hist = np.bincount((vals[sel] - lo) // width, weights=probs[sel], minlength=nb)
    tail = None
    if lim is not None:
        tail = {"from": int(lim), "probability": p_tail}
    return {**fig, "quantiles": qs,
            "histogram": {"start": lo, "width": int(width), "probabilities": hist.tolist(),
                          "below": float(probs[vals < lo].sum()),
                          "above": float(probs[(vals > hi) & (vals < (lim or np.inf))].sum())},
            "tail": tail}


def _curve_entry(curve, ruin: dict) -> dict:
    """Ruin against bankroll at up to _CURVE_POINTS bankrolls (with the asked bankroll and
    every target's bankroll among them)."""
    b = curve.bankrolls
    est = curve.estimate
    # up to where the curve is still informative: past the smallest target's bankroll x 1.5
    need = max([ruin["bankroll"]] + [x["bankroll"] for x in ruin["bankroll_for_risk"]])
    last = min(b.size, max(int(need * 1.5), 10))
    idx = np.unique(np.concatenate([
        np.linspace(0, last - 1, min(last, _CURVE_POINTS)).round().astype(np.int64),
        np.asarray([x["bankroll"] - 1 for x in ruin["bankroll_for_risk"]]
                   + [ruin["bankroll"] - 1], np.int64)]))
    idx = idx[idx < b.size]
    return {"bet": ruin["bet"], "rounds": ruin["rounds"], "bankrolls": b[idx].tolist(),
            "ruin": est[idx].tolist(), "max_bankroll": int(b[-1])}


def _thin_convergence(conv: dict) -> dict:
    """At most _CURVE_POINTS checkpoints, spread evenly on the log scale the plot uses."""
    n = len(conv["rounds"])
    if n <= _CURVE_POINTS:
        return {**conv, "checkpoints": n}
    r = np.asarray(conv["rounds"], np.float64)
    targets = np.geomspace(r[0], r[-1], _CURVE_POINTS)
    idx = np.unique(np.concatenate([np.searchsorted(r, targets).clip(0, n - 1), [n - 1]]))
    return {**conv, "rounds": [conv["rounds"][i] for i in idx],
            "rtp": [conv["rtp"][i] for i in idx], "checkpoints": n}


def write_data(detail: dict, folder: str | Path) -> list[Path]:
    """Write the full distributions behind a report as Parquet in ``folder`` (created):
    ``session_<bet>.parquet`` (value, probability; wins above the session's ``exact_below``
    capped there) and ``ruin_curve.parquet`` (bankroll, ruin_low, ruin_high)."""
    import os

    import polars as pl

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    frames = {f"session_{b}.parquet": pl.DataFrame({"value": p.nonzero()[0].astype(np.int64),
                                                    "probability": p.nonzero()[1]})
              for b, p in detail["sessions"].items()}
    c = detail["ruin_curve"]
    frames["ruin_curve.parquet"] = pl.DataFrame(
        {"bankroll": c.bankrolls.astype(np.int64), "ruin_low": c.low, "ruin_high": c.high})
    written = []
    for name, df in frames.items():
        tmp = out / f".{name}.tmp"
        df.write_parquet(tmp)
        os.replace(tmp, out / name)
        written.append(out / name)
    return written
