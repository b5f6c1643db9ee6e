"""The report as one self-contained HTML file: tables, PNG plots embedded as base64, and the
report dict itself in ``<script type="application/json" id="gpusim-report">``.

Key cells carry ``data-key`` (the dotted path of the number in the report dict, e.g.
``summary.main.house_edge_per_ante``) and ``data-value`` (its exact JSON value), so a program can
check the visible table against ``gpusim summary --json`` and ``gpusim risk --json``.
"""

from __future__ import annotations

import html
import json

from gpusim.games import spec_for
from gpusim.games.spec import METER_SECTION
from gpusim.report import plots
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

__all__ = ["render_html"]

_CSS = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222}
h1{font-size:1.5em}h2{font-size:1.2em;border-bottom:1px solid #ccc;margin-top:2em}
table{border-collapse:collapse;margin:.6em 0;font-size:.9em}
td,th{border:1px solid #ddd;padding:3px 8px;text-align:right}
th{background:#f4f4f4}td.l,th.l{text-align:left}.warn{color:#a40}.note{color:#555}
img{max-width:100%}
"""


def _e(x) -> str:
    return html.escape(str(x))


def _cell(text: str, key: str | None = None, value=None, cls: str = "") -> str:
    attrs = f' class="{cls}"' if cls else ""
    if key is not None:
        attrs += f' data-key="{_e(key)}" data-value="{_e(json.dumps(value))}"'
    return f"<td{attrs}>{_e(text)}</td>"


def _table(head: list[str], rows: list[list[str]]) -> str:
    h = "".join(f'<th class="l">{_e(x)}</th>' if i == 0 else f"<th>{_e(x)}</th>"
                for i, x in enumerate(head))
    body = "".join(f"<tr>{''.join(r)}</tr>" for r in rows)
    return f"<table><tr>{h}</tr>{body}</table>"


def _img(b64: str, alt: str) -> str:
    return f'<p><img alt="{_e(alt)}" src="data:image/png;base64,{b64}"></p>'


def _level(rep: dict) -> float:
    """The report's confidence level (reports written before it was asked for: 95 %)."""
    return rep.get("confidence", DEFAULT_CONFIDENCE)


def _exact_rtp(rep: dict, bet: str) -> tuple[float | None, str | None]:
    """(the exact RTP of a row of the summary table, its path in the report dict): a bet's from
    its return table, ``main``'s the exact total-bet RTP, ``total``'s where every bet has one."""
    ex = rep.get("exact") or {}
    if bet == "main":
        x = (ex.get("main") or {}).get("total_bet_rtp")
        return x, "exact.main.total_bet_rtp"
    if bet == "total":
        return ex.get("total_rtp"), "exact.total_rtp"
    x = ((rep["return_tables"].get(bet) or {}).get("exact") or {}).get("rtp")
    return x, f"return_tables.{bet}.exact.rtp"


def _summary(rep: dict) -> str:
    s = rep["summary"]
    level = _level(rep)
    # the main game's figures are per ante (per unit of the base bet), so the bets' SD is too
    # (reports written before it was given: the summary's money units)
    in_antes = rep.get("sd_per_round_antes")
    unit = "antes" if in_antes is not None else "money units"
    rows = []
    for bet, b in s["bets"].items():
        k = f"summary.bets.{bet}"
        ci = b.get(f"rtp_{ci_key(level)}") or [None, None]
        xr, xk = _exact_rtp(rep, bet)
        half = None if ci[0] is None else (ci[1] - ci[0]) / 2
        sd, sd_key = ((in_antes.get(bet), f"sd_per_round_antes.{bet}") if in_antes is not None
                      else (b["sd_per_round"], f"{k}.sd_per_round"))
        rows.append([_cell(bet, cls="l"), _cell(fmt_int(b["placed"]), f"{k}.placed", b["placed"]),
                     _cell(fmt_int(b["wagered"]), f"{k}.wagered", b["wagered"]),
                     _cell(fmt_int(b["returned"]), f"{k}.returned", b["returned"]),
                     _cell(fmt_pct(b["rtp"]), f"{k}.rtp", b["rtp"]),
                     _cell(fmt_pct(half, 3)),
                     _cell(fmt_pct(xr), xk if xr is not None else None, xr),
                     _cell(fmt_num(sd), sd_key, sd)])
    head = ["bet", "placed", "wagered", "returned", "RTP", f"{confidence_label(level)} CI +-",
            "exact RTP", f"SD/round ({unit})"]
    if rep.get("exact") is None:  # a game with no exact figures: no exact column
        head, rows = _drop_column(head, rows, "exact RTP")
    out = _table(head, rows)
    m = s.get("main") or {}
    ex = (rep.get("exact") or {}).get("main") or {}
    names = {"house_edge_per_ante": "house edge per ante", "element_of_risk": "element of risk",
             "total_bet_rtp": "total-bet RTP", "ante_rtp": "Ante RTP (1 - house edge per ante)",
             "avg_total_wager": "average total wager (antes)",
             "sd_per_round": "SD per round (antes)"}
    rows = []
    for key, label in names.items():
        if key not in m:
            continue
        pct = key not in ("avg_total_wager", "sd_per_round")
        f = fmt_pct if pct else fmt_num
        rows.append([_cell(label, cls="l"), _cell(f(m[key]), f"summary.main.{key}", m[key]),
                     _cell(f(ex.get(key)) if key in ex else "-",
                           f"exact.main.{key}" if key in ex else None, ex.get(key))])
    head = ["figure", "simulated", "exact"]
    if rep.get("exact") is None:
        head, rows = _drop_column(head, rows, "exact")
    out += "<h3>Main game</h3>" + _table(head, rows)
    note = (rep.get("exact") or {}).get("note")
    if note:
        out += f'<p class="note">{_e(note)}</p>'
    return out


def _return_tables(rep: dict) -> str:
    parts = []
    for bet, t in rep["return_tables"].items():
        ex = t.get("exact")
        head = ["event", "pays", "count", "probability", "return"]
        if ex:
            head += ["exact probability", "z"]
        rows = []
        for i, r in enumerate(t["rows"]):
            k = f"return_tables.{bet}.rows.{i}"
            row = [_cell(r["event"], cls="l"),
                   _cell("not placed" if not r["stake"] else fmt_num(r["pays"], 4)),
                   _cell(fmt_int(r["count"]), f"return_tables.{bet}.rows.{i}.count",
                         r["count"]),
                   _cell(fmt_num(r["probability"], 8), f"{k}.probability", r["probability"]),
                   _cell(fmt_num(r["return"], 6), f"{k}.return", r["return"])]
            if ex:
                row += [_cell(fmt_num(r.get("exact_probability"), 8),
                              f"{k}.exact_probability", r.get("exact_probability")),
                        _cell(fmt_num(r.get("z"), 2), f"{k}.z", r.get("z"))]
            rows.append(row)
        line = (f"RTP {fmt_pct(t['rtp'])} over {fmt_int(t['rounds'])} rounds "
                f"({fmt_int(t['placed'])} placed, stake {t['stake']})")
        if ex:
            line += (f"; exact ({ex['source']}): RTP {fmt_pct(ex['rtp'])}, "
                     f"z {fmt_num(ex['z_rtp'], 2)}"
                     f", chi-square {fmt_num(ex['chi2'], 2)} on {ex['dof']} dof")
        parts.append(f"<h3>{_e(bet)}</h3><p>{_e(line)}</p>" + _table(head, rows))
    return "".join(parts)


def _volatility(rep: dict) -> str:
    v = rep["volatility"]
    rows = []
    for bet, b in v["bets"].items():
        k = f"volatility.bets.{bet}"
        rows.append([_cell(bet, cls="l"), _cell(fmt_num(b["stake"], 0)),
                     _cell(fmt_pct(b["house_edge"]), f"{k}.house_edge", b["house_edge"]),
                     _cell(fmt_pct(b["element_of_risk"]), f"{k}.element_of_risk",
                           b["element_of_risk"]),
                     _cell(fmt_num(b["sd"]), f"{k}.sd", b["sd"]),
                     _cell(fmt_num(b["vi90"]), f"{k}.vi90", b["vi90"]),
                     _cell(fmt_num(b["vi95"]), f"{k}.vi95", b["vi95"]),
                     _cell(fmt_num(b["n0"], 0), f"{k}.n0", b["n0"])])
    out = _table(["bet", "stake", "house edge", "element of risk", "SD/round per stake",
                  "VI 90 %", "VI 95 %", "N0"], rows)
    out += ('<p class="note">House edge and SD per unit of the bet\'s stake (main and total: per '
            "ante). VI = z x SD; N0 = (SD / edge)^2 rounds.</p>")
    cov = v.get("covariance")
    if cov:
        names = cov["names"]
        rows = [[_cell(a, cls="l")] + [_cell(fmt_num(x, 4)) for x in row]
                for a, row in zip(names, cov["covariance"], strict=True)]
        out += "<h3>Covariance of the bets in one round (money units squared)</h3>"
        out += _table([""] + names, rows)
    level = _level(rep)
    hold = f"hold_{ci_key(level)}"
    for bet, rows_ in v[hold].items():
        k = f"volatility.{hold}.{bet}"
        rows = [[_cell(fmt_int(h["rounds"]), cls="l"),
                 _cell(fmt_pct(h["hold"]), f"{k}.{i}.hold", h["hold"]),
                 _cell(fmt_pct(h["low"]), f"{k}.{i}.low", h["low"]),
                 _cell(fmt_pct(h["high"]), f"{k}.{i}.high", h["high"])]
                for i, h in enumerate(rows_)]
        out += (f"<h3>{confidence_label(level)} CI of the hold per ante after N rounds "
                f"({_e(bet)})</h3>")
        out += _table(["rounds", "hold", "low", "high"], rows)
    return out


def _risk(rep: dict) -> str:
    r = rep["risk"]
    ru = r["ruin"]
    out = f"<p>Bet <b>{_e(r['bet'])}</b>; exact on the integer money lattice.</p>"
    rows = [[_cell(f"P(ruin) from {fmt_int(ru['bankroll'])} within {fmt_int(ru['rounds'])} rounds",
                   cls="l"),
             _cell(fmt_pct(ru["finite"]["estimate"]), "risk.ruin.finite.estimate",
                   ru["finite"]["estimate"])],
            [_cell("P(ruin), unlimited horizon", cls="l"),
             _cell(unlimited_ruin_text(ru["unlimited"]), "risk.ruin.unlimited.high",
                   ru["unlimited"]["high"])],
            [_cell(f"simulated paths ({fmt_int(ru['simulated']['paths'])}), "
                   f"{confidence_label(ru['simulated']['level'])} interval", cls="l"),
             _cell(f"{fmt_pct(ru['simulated']['estimate'])} [{fmt_pct(ru['simulated']['low'])}, "
                   f"{fmt_pct(ru['simulated']['high'])}]", "risk.ruin.simulated.estimate",
                   ru["simulated"]["estimate"])]]
    for i, b in enumerate(ru["bankroll_for_risk"]):
        rows.append([_cell(f"bankroll for {b['target']:.0%} risk over "
                           f"{fmt_int(ru['rounds'])} rounds", cls="l"),
                     _cell(fmt_int(b["bankroll"]), f"risk.ruin.bankroll_for_risk.{i}.bankroll",
                           b["bankroll"])])
    for b in ru.get("bankroll_for_risk_unlimited") or []:
        rows.append([_cell(f"bankroll for {b['target']:.0%} risk, unlimited", cls="l"),
                     _cell(unlimited_bankroll_text(b))])
    out += "<h3>Risk of ruin</h3>" + _table(["figure", "value"], rows)
    if ru["unlimited"].get("note"):
        out += f'<p class="note">Unlimited horizon: {_e(ru["unlimited"]["note"])}.</p>'
    agree = "agrees" if ru["simulation_agrees"] else "DOES NOT agree"
    out += f'<p class="note">The exact ruin probability {agree} with the simulated paths.</p>'
    return out


def _jackpot(jp: dict) -> str:
    hf = jp.get("hit_frequency") or {}
    rows = [("wagers", fmt_int(jp["wagers"])), ("hits", fmt_int(jp["hits"])),
            (f"hit frequency (simulated, "
             f"{confidence_label(hf.get('level', DEFAULT_CONFIDENCE))} interval)",
             f"{fmt_num(hf.get('rate'), 8)} "
             f"[{fmt_num(hf.get('low'), 8)}, {fmt_num(hf.get('high'), 8)}]"),
            ("hit probability (exact)", f"{fmt_num(jp['p_hit_exact'], 10)} "
             f"(1 in {fmt_int(round(jp['one_in_exact']))})"),
            ("fixed-prize RTP exact / simulated",
             f"{fmt_pct(jp['fixed_prize_rtp_exact'])} / {fmt_pct(jp['fixed_prize_rtp_sim'])}"),
            ("contribution rate", fmt_pct(jp["contribution_rate"], 2)),
            ("reset meter", fmt_int(jp["reset"])),
            ("break-even meter", fmt_num(jp["break_even_meter"], 1)),
            ("expected meter at a hit", fmt_num(jp["expected_meter_at_hit"], 1)),
            ("long-run RTP", fmt_pct(jp["long_run_rtp"])),
            ("realised RTP in this run", fmt_pct(jp["realised_rtp"]))]
    if jp.get("meter_at_hit"):
        m = jp["meter_at_hit"]
        rows.append(("meter at hit: mean / min / max",
                     f"{fmt_num(m['mean'], 1)} / {fmt_num(m['min'], 0)} / {fmt_num(m['max'], 0)}"))
    out = _table(["figure", "value"], [[_cell(a, cls="l"), _cell(b)] for a, b in rows])
    out += "<h3>RTP by meter</h3>" + _table(
        ["meter", "RTP"], [[_cell(fmt_int(x["meter"]), cls="l"), _cell(fmt_pct(x["rtp"]))]
                           for x in jp["rtp_by_meter"]])
    out += "<h3>Long-run RTP by contribution rate</h3>" + _table(
        ["contribution", "long-run RTP"],
        [[_cell(fmt_pct(x["contribution_rate"], 0), cls="l"), _cell(fmt_pct(x["long_run_rtp"]))]
         for x in jp["long_run_rtp_by_contribution"]])
    return out


def _live(lv: dict) -> str:
    rows = []
    for name, key in (("live, per round", "live_round"), ("independent, per round",
                                                          "independent_round"),
                      ("live, per day", "live_day"), ("independent, per day", "independent_day")):
        e = lv[key]
        rows.append([_cell(name, cls="l"), _cell(fmt_num(e["mean"], 2)), _cell(fmt_num(e["sd"], 2)),
                     _cell(fmt_num(e["var"].get("0.95"), 0)),
                     _cell(fmt_num(e["var"].get("0.99"), 0))])
    out = (f"<p>{lv['seats']} seats, {fmt_int(lv['rounds_per_day'])} rounds a day, stakes "
           f"{_e(lv['stakes'])}; operator's result in money units.</p>")
    out += _table(["operator result", "mean", "SD", "VaR 95 %", "VaR 99 %"], rows)
    out += (f"<p>Daily SD live / independent: {fmt_num(lv['daily_sd_ratio'], 3)}; "
            f"daily VaR 99 % ratio: {fmt_num(lv['daily_var99_ratio'], 3)}.</p>")
    return out


def _hit(rep: dict) -> str:
    rows = []
    for bet, h in rep["hit_frequency"].items():
        k = f"hit_frequency.{bet}"
        rows.append([_cell(bet, cls="l"), _cell(fmt_int(h["placed"]), f"{k}.placed", h["placed"]),
                     _cell(fmt_int(h["wins"]), f"{k}.wins", h["wins"]),
                     _cell(fmt_pct(h["hit_frequency"]), f"{k}.hit_frequency", h["hit_frequency"]),
                     _cell(fmt_pct(h["exact"]), f"{k}.exact" if h["exact"] is not None else None,
                           h["exact"])])
    head = ["bet", "placed", "wins", "hit frequency", "exact"]
    if rep.get("exact") is None:
        head, rows = _drop_column(head, rows, "exact")
    return _table(head, rows)


def _drop_column(head: list, rows: list, name: str) -> tuple[list, list]:
    i = head.index(name)
    return head[:i] + head[i + 1 :], [r[:i] + r[i + 1 :] for r in rows]


def _sessions(rep: dict) -> str:
    ss = rep["sessions"]
    bets = list(ss)
    risk = rep["risk"]["session"]

    def key(b: str, path: str) -> str:
        # the analysed bet's figures are those of `gpusim risk`: point the cell there
        if b == risk["bet"]:
            if path in risk:
                return f"risk.session.{path}"
            if path.startswith("quantiles."):
                q = ss[b]["quantiles"][int(path.split(".")[1])]["percent"]
                if str(q) in risk["percentiles"]:
                    return f"risk.session.percentiles.{q}"
        return f"sessions.{b}.{path}"

    rows = []
    for k, label, f in (("mean", "mean", lambda x: fmt_num(x, 2)),
                        ("sd", "SD", lambda x: fmt_num(x, 2)),
                        ("p_ahead", "P(ahead)", fmt_pct), ("p_even", "P(even)", fmt_pct),
                        ("p_behind", "P(behind)", fmt_pct)):
        rows.append([_cell(label, cls="l")] + [_cell(f(ss[b][k]), key(b, k), ss[b][k])
                                               for b in bets])
    for i, q in enumerate(x["percent"] for x in ss[bets[0]]["quantiles"]):
        rows.append([_cell(f"{ordinal(q)} percentile", cls="l")]
                    + [_cell(fmt_int(v) if (v := ss[b]["quantiles"][i]["value"]) is not None
                             else f">= {ss[b]['tail']['from']:,}",
                             key(b, f"quantiles.{i}.value"), v)
                       for b in bets])
    n = ss[bets[0]]["rounds"]
    out = (f"<p>Result after {fmt_int(n)} rounds, exact (convolution of the run's per-round "
           "distribution), money units.</p>" + _table(["figure"] + bets, rows))
    for b in bets:
        t = ss[b].get("tail")
        if t:
            out += (f'<p class="note">{_e(b)}: wins above the largest fixed prize are capped in '
                    f"the computation; results of {t['from']:,} or more (a session with a "
                    f"Jackpot royal) have probability {t['probability']:.3e}; every figure "
                    "below that is exact.</p>")
    return out


def render_html(rep: dict) -> str:
    """The self-contained HTML text of a report dict from :func:`gpusim.report.build_report`."""
    rep = json_safe(rep)
    run = rep["run"]
    labels = spec_for(run["game"]).labels
    title = f"gpusim report: {run['config']} ({run['strategy']}), {run['rounds']:,} rounds"
    body = [f"<h1>{_e(title)}</h1>",
            f"<p>Game {_e(run['game'])}, seed {_e(run['seed'])}, config hash "
            f"{_e((run['config_hash'] or '')[:12])}, backend {_e(run['backend'])}, gpusim "
            f"{_e(rep['gpusim_version'])}, generated {_e(rep['generated'])}.</p>"]
    body += [f'<p class="warn">warning: {_e(w)}</p>' for w in rep["warnings"]]
    body += ["<h2>Summary</h2>", _summary(rep),
             _img(plots.convergence_png(rep["convergence"], labels), "RTP convergence")]
    body += ["<h2>Net result per round and hit frequency</h2>",
             _img(plots.net_outcomes_png(rep["net_distributions"], labels),
                  "net result per round"),
             _hit(rep), _img(plots.hit_frequency_png(rep["hit_frequency"], labels),
                             "hit frequency")]
    body += ["<h2>Return tables</h2>", _return_tables(rep)]
    body += ["<h2>Volatility</h2>", _volatility(rep)]
    body += ["<h2>Sessions</h2>", _sessions(rep),
             _img(plots.sessions_png(rep["sessions"], labels), "session distribution")]
    body += ["<h2>Risk of ruin</h2>", _risk(rep),
             _img(plots.ruin_png(rep["ruin_curve"], rep["risk"]["ruin"], labels),
                  "risk of ruin")]
    if rep.get(METER_SECTION):
        body += ["<h2>Progressive jackpot</h2>", _jackpot(rep[METER_SECTION]),
                 _img(plots.jackpot_png(rep[METER_SECTION]), "jackpot RTP by meter")]
    if rep.get("live"):
        body += ["<h2>Live-table exposure</h2>", _live(rep["live"])]
    blob = json.dumps(rep, separators=(",", ":")).replace("</", "<\\/")
    body.append(f'<script type="application/json" id="gpusim-report">{blob}</script>')
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")
