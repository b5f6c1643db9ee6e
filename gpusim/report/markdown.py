"""The report as Markdown (tables only; plots are in the HTML report)."""

from __future__ import annotations

from gpusim.games.spec import METER_SECTION
from gpusim.report.text import (
    fmt_int,
    fmt_num,
    fmt_pct,
    ordinal,
    unlimited_bankroll_text,
    unlimited_ruin_text,
)
from gpusim.runs.jsonsafe import json_safe
from gpusim.stats import DEFAULT_CONFIDENCE, ci_key, confidence_label

__all__ = ["render_markdown"]


def _table(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def render_markdown(rep: dict) -> str:
    """Markdown text of a report dict from :func:`gpusim.report.build_report`."""
    rep = json_safe(rep)
    run, s = rep["run"], rep["summary"]
    out = [f"# gpusim report: {run['config']} ({run['strategy']}), {run['rounds']:,} rounds\n",
           f"Game {run['game']}, seed {run['seed']}, backend {run['backend']}, gpusim "
           f"{rep['gpusim_version']}, generated {rep['generated']}.\n"]
    out += [f"**warning:** {w}\n" for w in rep["warnings"]]
    out.append("## Summary\n")
    # the bets' SD in antes, as the main game's figures below (the summary's is in money units)
    in_antes = rep.get("sd_per_round_antes")
    out.append(_table(["bet", "placed", "wagered", "returned", "RTP",
                       f"SD/round ({'antes' if in_antes is not None else 'money units'})"], [
        [b, fmt_int(x["placed"]), fmt_int(x["wagered"]), fmt_int(x["returned"]),
         fmt_pct(x["rtp"]),
         fmt_num(in_antes[b] if in_antes is not None else x["sd_per_round"])]
        for b, x in s["bets"].items()]))
    ex = (rep["exact"] or {}).get("main") or {}
    exact_col = rep["exact"] is not None  # a game with no exact figures: no exact column
    out.append(_table(["main game", "simulated"] + ["exact"] * exact_col, [
        [k, fmt_pct(v) if k not in ("avg_total_wager", "sd_per_round") else fmt_num(v)]
        + [(fmt_pct(ex[k]) if k not in ("avg_total_wager", "sd_per_round") else fmt_num(ex[k]))
           if k in ex else "-"] * exact_col for k, v in (s.get("main") or {}).items()
        if isinstance(v, int | float)]))
    if (rep["exact"] or {}).get("note"):
        out.append(f"_{rep['exact']['note']}_\n")
    out.append("## Return tables\n")
    for bet, t in rep["return_tables"].items():
        e = t.get("exact")
        out.append(f"### {bet}\n\nRTP {fmt_pct(t['rtp'])}"
                   + (f"; exact ({e['source']}) {fmt_pct(e['rtp'])}, z {fmt_num(e['z_rtp'], 2)}"
                      if e else "") + "\n")
        head = ["event", "pays", "count", "probability", "return"] + (["exact p", "z"] if e else [])
        out.append(_table(head, [
            [r["event"], "not placed" if not r["stake"] else fmt_num(r["pays"]),
             fmt_int(r["count"]), fmt_num(r["probability"], 8), fmt_num(r["return"], 6)]
            + ([fmt_num(r.get("exact_probability"), 8), fmt_num(r.get("z"), 2)] if e else [])
            for r in t["rows"]]))
    v = rep["volatility"]
    out.append("## Volatility\n")
    out.append(_table(["bet", "house edge", "element of risk", "SD", "VI 90 %", "VI 95 %", "N0"], [
        [b, fmt_pct(x["house_edge"]), fmt_pct(x["element_of_risk"]), fmt_num(x["sd"]),
         fmt_num(x["vi90"]), fmt_num(x["vi95"]), fmt_num(x["n0"], 0)]
        for b, x in v["bets"].items()]))
    if v.get("covariance"):
        c = v["covariance"]
        out.append(_table([""] + c["names"], [[a] + [fmt_num(x) for x in row] for a, row in
                                              zip(c["names"], c["covariance"], strict=True)]))
    level = rep.get("confidence", DEFAULT_CONFIDENCE)
    for bet, rows in v[f"hold_{ci_key(level)}"].items():
        out.append(f"{confidence_label(level)} CI of the hold per ante ({bet}):\n\n" + _table(
            ["rounds", "hold", "low", "high"],
            [[fmt_int(h["rounds"]), fmt_pct(h["hold"]), fmt_pct(h["low"]), fmt_pct(h["high"])]
             for h in rows]))
    r = rep["risk"]
    ss, ru = r["session"], r["ruin"]
    out.append(f"## Session after {ss['rounds']:,} rounds ({r['bet']})\n")
    out.append(_table(["figure", "value"], [
        ["mean", fmt_num(ss["mean"], 2)], ["SD", fmt_num(ss["sd"], 2)],
        ["P(ahead)", fmt_pct(ss["p_ahead"])], ["P(even)", fmt_pct(ss["p_even"])],
        ["P(behind)", fmt_pct(ss["p_behind"])]]
        + [[f"{ordinal(p)} percentile", fmt_int(x)] for p, x in ss["percentiles"].items()]))
    out.append("## Risk of ruin\n")
    rows = [[f"P(ruin) from {ru['bankroll']:,} within {ru['rounds']:,} rounds",
             fmt_pct(ru["finite"]["estimate"])],
            ["P(ruin), unlimited horizon", unlimited_ruin_text(ru["unlimited"])],
            [f"simulated paths, {confidence_label(ru['simulated']['level'])} interval",
             f"{fmt_pct(ru['simulated']['estimate'])} "
             f"[{fmt_pct(ru['simulated']['low'])}, {fmt_pct(ru['simulated']['high'])}]"]]
    rows += [[f"bankroll for {b['target']:.0%} risk over {ru['rounds']:,} rounds",
              fmt_int(b["bankroll"])]
             for b in ru["bankroll_for_risk"]]
    rows += [[f"bankroll for {b['target']:.0%} risk, unlimited", unlimited_bankroll_text(b)]
             for b in ru.get("bankroll_for_risk_unlimited") or []]
    out.append(_table(["figure", "value"], rows))
    if ru["unlimited"].get("note"):
        out.append(f"Unlimited horizon: {ru['unlimited']['note']}.\n")
    jp = rep.get(METER_SECTION)
    if jp:
        out.append("## Progressive jackpot\n")
        out.append(_table(["figure", "value"], [
            ["hits / wagers", f"{jp['hits']:,} / {jp['wagers']:,}"],
            ["hit probability (exact)", fmt_num(jp["p_hit_exact"], 10)],
            ["fixed-prize RTP (exact)", fmt_pct(jp["fixed_prize_rtp_exact"])],
            ["break-even meter", fmt_num(jp["break_even_meter"], 1)],
            ["expected meter at a hit", fmt_num(jp["expected_meter_at_hit"], 1)],
            ["long-run RTP", fmt_pct(jp["long_run_rtp"])]]))
    lv = rep.get("live")
    if lv:
        out.append(f"## Live-table exposure ({lv['seats']} seats, "
                   f"{lv['rounds_per_day']:,} rounds a day)\n")
        out.append(_table(["operator result", "mean", "SD", "VaR 99 %"], [
            [k, fmt_num(lv[k]["mean"], 2), fmt_num(lv[k]["sd"], 2),
             fmt_num(lv[k]["var"].get("0.99"), 0)]
            for k in ("live_round", "independent_round", "live_day", "independent_day")]))
    return "\n".join(out)

