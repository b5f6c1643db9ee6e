"""Return tables of a run beside the exact figures: :func:`return_tables` (the PAR sheet per
bet, with z-scores against :func:`exact_figures`) and each bet's pays (:func:`bet_pays`)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from gpusim.games import event_names, event_returns, spec_for
from gpusim.run_figures.data import AnalysisError, RunData, json_float, not_placed_events
from gpusim.stats import compare_with_exact, return_table

__all__ = [
    "bet_pays",
    "exact_figures",
    "return_tables",
    "shipped_exact_report",
    "side_bet_exact",
]

def bet_pays(rules, bet: str, meters=None) -> tuple[dict[str, Fraction], dict[str, int]]:
    """({event: net pay per unit stake}, {event: stake in bet units}) of one bet of ``rules``.

    The Jackpot royal pays the meter: its pay is the mean meter paid per unit stake minus 1 over
    ``meters`` (the run's recorded hits), or the reset value when there were none.
    """
    names = event_names(rules)[bet]
    rets = event_returns(rules)[bet]
    pays: dict[str, Fraction] = {}
    for e, r in zip(names, rets, strict=True):
        if r is None:  # Jackpot royal: the meter
            stake = rules.stakes[bet]
            if meters is not None and len(meters):
                r = Fraction(int(np.sum(meters, dtype=np.int64)), len(meters) * stake)
            else:
                r = Fraction(spec_for(rules).meter_rules(rules).reset, stake)
        pays[e] = Fraction(r) - 1
    off = not_placed_events(rules).get(bet, ())
    stakes = {e: (0 if e in off else 1) for e in names}
    return pays, stakes


def _exact_cached(rules, strategy: str) -> bool:
    """Whether the exact analysis takes seconds, not minutes (see gpusim.runs.exact_on_demand)."""
    try:
        from gpusim.runs.exact_on_demand import is_cached

        return is_cached(rules, strategy)
    except Exception:
        return False


def side_bet_exact(rules) -> dict[str, dict[str, Fraction]]:
    """Exact event probabilities of the side bets that no decision touches (combinatorics)."""
    return spec_for(rules).side_bet_exact(rules)


def shipped_exact_report(rules, strategy: str) -> dict | None:
    """The shipped ``gpusim exact --json`` report of this config and strategy
    (:func:`gpusim.exact.shipped.shipped_report`: only when the config's hash and the file's
    sha256 match its provenance record, so an edited config never borrows another's figures),
    or None."""
    from gpusim.exact.shipped import shipped_report

    return shipped_report(rules, strategy)


def exact_figures(rules, strategy: str, mode: str = "auto") -> dict:
    """Exact event probabilities to set beside the simulated ones.

    mode: ``auto`` - the shipped exact report of a shipped config and strategy, or the full
    exact analysis when its enumeration counts are cached (seconds),
    else the side bets that combinatorics gives at once (Bonus, Jackpot); ``always`` - the full
    analysis even when it must first be solved (minutes); ``never`` - side bets only.
    Returns {"source": {bet: text}, "events": {bet: {event: p}}, "rtp": {bet: float},
    "main": exact main-game figures or None, "note": text or None}.
    """
    if mode not in ("auto", "always", "never"):
        raise AnalysisError(f"--exact: got {mode!r}; allowed: auto, always, never")
    events: dict[str, dict[str, Fraction]] = {}
    source: dict[str, str] = {}
    rtp: dict[str, float | None] = {}
    main = None
    note = None
    for bet, p in side_bet_exact(rules).items():
        events[bet] = p
        source[bet] = "combinatorics"
    shipped = shipped_exact_report(rules, strategy) if mode != "never" else None
    full = spec_for(rules).solver() is not None and (shipped is not None or mode == "always") or (
        mode == "auto" and _exact_cached(rules, strategy))
    if full:
        from gpusim.runs.exact_on_demand import exact_report
        from gpusim.strategy import StrategyError

        rep = shipped
        if rep is None:
            try:
                rep = exact_report(rules, strategy, progress=False)
            except (StrategyError, ValueError) as exc:
                note = f"exact analysis unavailable: {exc}"
        if rep is not None:
            main = rep.get("main")
            for bet, info in rep.get("bets", {}).items():
                # combinatorics already gave the side bets, in the run's own event names
                if bet.endswith("_always_settled") or source.get(bet) == "combinatorics":
                    continue
                # the integer counts where the report has them: exact, not the float (a side
                # bet may be counted over its own deals, so over the sum of its counts)
                counted = all("count" in e for e in info["events"])
                total = sum(int(e["count"]) for e in info["events"]) if counted else 0
                events[bet] = {e["event"]: Fraction(int(e["count"]), total) if counted
                               else Fraction(repr(float(e["probability"])))
                               for e in info["events"]}
                source[bet] = "gpusim exact"
                rtp[bet] = json_float(info.get("rtp"))
    elif spec_for(rules).solver() is not None:
        note = (f"main-game exact figures: run `gpusim exact {rules.name} --strategy {strategy}` "
                "(the enumeration is cached after the first run)")
    return {"source": source, "events": events, "rtp": rtp, "main": main, "note": note}


def return_tables(data: RunData, exact: dict | None = None) -> dict[str, dict]:
    """PAR sheet per bet: event, pays, count, probability, return; exact figures and z-scores
    beside them where ``exact`` (from :func:`exact_figures`) has the bet."""
    out = {}
    for bet in data.bets:
        counts = data.events.get(bet, {})
        if not counts:
            continue
        pays, stakes = bet_pays(data.rules, bet, data.meters)
        if not any(n and stakes.get(e, 1) for e, n in counts.items()):
            continue  # never placed in the run (a strategy that never takes its action)
        tab = return_table(counts, pays, stakes=stakes, bet=bet)
        rows = [{"event": r.event, "pays": json_float(r.pays), "stake": int(r.stake),
                 "count": r.count, "probability": json_float(r.probability),
                 "return": json_float(r.ret)} for r in tab.rows]
        entry = {"bet": bet, "stake": data.stakes[bet], "rounds": tab.rounds,
                 "placed": sum(r.count for r in tab.rows if r.stake),
                 "rtp": json_float(tab.rtp),
                 "expected_net_per_round": json_float(tab.expected_net),
                 "rows": rows, "exact": None}
        ex = (exact or {}).get("events", {}).get(bet)
        if ex is not None and set(ex) <= set(pays):
            cmp = compare_with_exact(counts, ex, pays, stakes=stakes)
            for row, c in zip(rows, cmp.events, strict=True):
                row["exact_probability"] = json_float(c.exact_probability)
                row["z"] = json_float(c.z)
            meter_bet = bet == spec_for(data.rules).meter_bet
            entry["exact"] = {
                "source": exact["source"].get(bet),
                # the Jackpot's exact RTP depends on the meter, so only its events compare
                "rtp": None if meter_bet else json_float(exact["rtp"].get(bet, cmp.rtp_exact)),
                "z_rtp": None if meter_bet else json_float(cmp.z_rtp),
                "chi2": json_float(cmp.chi2), "dof": cmp.dof,
            }
        out[bet] = entry
    return out
