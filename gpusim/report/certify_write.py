"""Writing the certification pack (:func:`gpusim.report.certify.build_pack`): one workbook
(:func:`write_pack_xlsx`, every table an Excel table with a name, the strategy chart an image)
or one self-contained HTML page (:func:`write_pack_html`, the pack embedded as JSON), each
written under a temporary name and renamed."""

from __future__ import annotations

import base64
import io
import json
import math
import os
from pathlib import Path
from typing import Any

from gpusim.report.certify import VI_LEVELS

__all__ = ["write_pack_html", "write_pack_xlsx"]


def _pct(c: float) -> str:
    return f"{c * 100:g}"


def _cover_rows(pack: dict) -> list[tuple[str, Any]]:
    c = pack["cover"]
    rows = [("game", c["game"]), ("config", c["config"]),
            ("config file", c["config_file"]), ("config file sha256", c["config_sha256"]),
            ("config hash (sha256 of the resolved rules)", c["config_hash"]),
            ("description", c["description"]),
            ("strategy", f"{c['strategy']}: {c['strategy_description']}"),
            ("gpusim version", c["gpusim_version"]), ("created", c["created"]),
            ("deals counted (exact)", c["deals_counted"]),
            ("confidence level", f"{c['confidence'] * 100:g} %")]
    m = pack["main"]
    if "house_edge_per_ante" in m:
        rows.append(("house edge per ante (exact)", f"{m['house_edge_per_ante'] * 100:.4f} %"))
    if "element_of_risk" in m:
        rows.append(("element of risk (exact)", f"{m['element_of_risk'] * 100:.4f} %"))
    rows += [(f"RTP of {bet} (exact)", "" if b["rtp"] is None else f"{b['rtp'] * 100:.4f} %")
             for bet, b in pack["bets"].items()]
    top = m.get("max_win_round")
    if top:
        rows.append(("max win of a round (exact)", f"{top['antes']} antes in {top['count']:,} "
                                                   "deals"))
    v = pack.get("verification")
    if v:
        rows += [("run", v["run"]), ("run manifest sha256", v["manifest_sha256"]),
                 ("rounds simulated", v["rounds"]), ("seed", v["seed"]),
                 ("rounds covered", f"{v['coverage'][0]:,} .. {v['coverage'][1] - 1:,}"),
                 ("verify", "sound" if not v["verify_problems"]
                  else "; ".join(v["verify_problems"]))]
    return rows


_MAIN_ROWS = (("house_edge_per_ante", "house edge per ante"),
              ("hit_frequency", "main game hit frequency"),
              ("element_of_risk", "element of risk (house edge per unit wagered)"),
              ("avg_total_wager", "average total wager (antes)"),
              ("total_bet_rtp", "total-bet RTP (1 - element of risk)"),
              ("ante_rtp", "Ante RTP (1 - house edge per ante)"),
              ("sd_per_round", "SD per round (antes)"))


def _max_win_cells(m: dict | None) -> list[Any]:
    """[antes, deals, events] of a max-win entry of the exact report (blanks without one)."""
    if not m:
        return [None, None, None]
    what = ", ".join(m.get("events") or m.get("bets") or [])
    if m.get("scope"):
        what = f"{m['scope'].replace('_', ' ')}: {what}"
    if m.get("note"):
        what += f" ({m['note']})"
    return [m.get("antes"), m.get("count"), what]


def _max_win_rows(m: dict | None, what: str) -> list[list[Any]]:
    antes, deals, events = _max_win_cells(m)
    return [[f"max win {what} (antes)", antes], [f"max win {what} deals", deals],
            [f"max win {what}: made of", events]]


def _bet_summary_rows(pack: dict) -> list[list[Any]]:
    rows = []
    for bet, b in pack["bets"].items():
        rows.append([bet, b["rtp"], b["house_edge"], b["hit_frequency"], b["sd"],
                     *[b["vi"][_pct(c)] for c in VI_LEVELS], *_max_win_cells(b.get("max_win"))])
    return rows


_BET_HEAD = ["bet", "RTP", "house edge", "hit frequency", "SD per wager",
             *[f"VI {_pct(c)} %" for c in VI_LEVELS], "max win (antes)", "max win deals",
             "max win events"]


def write_pack_xlsx(pack: dict, path: str | Path) -> Path:
    """The pack as a workbook: sheets Cover, Rules, Paytables, Bets, one per bet, Main,
    Strategy (the chart as an image and the table), and with a run Verification and
    Randomness."""
    import xlsxwriter

    p = Path(path)
    tmp = p.with_name(f".{p.name}.tmp")
    wb = xlsxwriter.Workbook(str(tmp))
    try:
        bold = wb.add_format({"bold": True})
        wrap = wb.add_format({"text_wrap": True, "valign": "top"})
        pct = wb.add_format({"num_format": "0.0000%"})
        num = wb.add_format({"num_format": "0.000000"})
        intf = wb.add_format({"num_format": "#,##0"})

        def table(ws, row: int, head: list[str], rows: list[list[Any]], name: str) -> int:
            ws.write(row, 0, name, bold)
            cols = [{"header": h} for h in head]
            if rows:
                ws.add_table(row + 1, 0, row + 1 + len(rows), len(head) - 1,
                             {"data": [[_xl(v) for v in r] for r in rows], "columns": cols,
                              "name": _tname(name), "style": "Table Style Light 9"})
            else:
                ws.write_row(row + 1, 0, head, bold)
            return row + len(rows) + 4

        ws = wb.add_worksheet("Cover")
        ws.set_column(0, 0, 44)
        ws.set_column(1, 1, 90)
        ws.write(0, 0, f"Certification pack: {pack['cover']['game']}", bold)
        for i, (k, v) in enumerate(_cover_rows(pack)):
            ws.write(i + 2, 0, k)
            ws.write(i + 2, 1, _xl(v), intf if isinstance(v, int) else None)

        ws = wb.add_worksheet("Rules")
        ws.set_column(0, 0, 140, wrap)
        r = 0
        for heading, sentences in pack["rules"]:
            ws.write(r, 0, heading, bold)
            r += 1
            for s in sentences:
                ws.write(r, 0, s)
                r += 1
            r += 1

        ws = wb.add_worksheet("Paytables")
        ws.set_column(0, 1, 28)
        r = 0
        for bet, lines in pack["paytables"].items():
            r = table(ws, r, ["line", "pays"], [[ln, str(v)] for ln, v in lines.items()],
                      f"paytable {bet}")

        ws = wb.add_worksheet("Bets")
        ws.set_column(0, 0, 18)
        ws.set_column(1, 7, 14)
        ws.set_column(8, 8, 70)
        table(ws, 0, _BET_HEAD, _bet_summary_rows(pack), "bets")

        for bet, b in pack["bets"].items():
            ws = wb.add_worksheet(_sheet(bet))
            ws.set_column(0, 0, 34)
            ws.set_column(1, 4, 18)
            rows = [[e["event"], e["pays"], e["combinations"], e["probability"],
                     e["contribution"]] for e in b["events"]]
            rows.append(["total", None, b["deals"], 1.0, (b["rtp"] or 1) - 1])
            r = table(ws, 0, ["event", "pays", "combinations", "probability", "contribution"],
                      rows, f"{bet} events")
            ws.set_column(2, 2, 22, intf)
            figs = [["RTP", b["rtp"]], ["house edge", b["house_edge"]],
                    ["hit frequency", b["hit_frequency"]], ["SD per wager", b["sd"]],
                    *[[f"VI {_pct(c)} %", b["vi"][_pct(c)]] for c in VI_LEVELS],
                    ["share of deals placed", b["placed"]],
                    *_max_win_rows(b.get("max_win"), "of the bet")]
            table(ws, r, ["figure", "value"], figs, f"{bet} figures")

        ws = wb.add_worksheet("Main")
        ws.set_column(0, 0, 50)
        ws.set_column(1, 1, 60)
        rows = [[label, pack["main"].get(k)] for k, label in _MAIN_ROWS if k in pack["main"]]
        rows += _max_win_rows(pack["main"].get("max_win_round"), "of a round")
        table(ws, 0, ["figure", "value"], rows, "main game and total")

        ws = wb.add_worksheet("Strategy")
        ws.insert_image(0, 0, "strategy.png",
                        {"image_data": io.BytesIO(base64.b64decode(pack["strategy"]["chart_png"])),
                         "x_scale": 0.9, "y_scale": 0.9})
        st = pack["strategy"]["table"]
        head = list(dict.fromkeys(k for row in st for k in row))
        table(ws, 45, head, [[row.get(k) for k in head] for row in st], "strategy table")

        v = pack.get("verification")
        if v:
            ws = wb.add_worksheet("Verification")
            ws.set_column(0, 0, 34)
            ws.set_column(1, 9, 16)
            level = f"{v['confidence'] * 100:g} %"
            rows = [[bet, x["rounds"], x["rtp_simulated"], x["rtp_exact"],
                     None if x["rtp_interval"] is None else x["rtp_interval"][0],
                     None if x["rtp_interval"] is None else x["rtp_interval"][1],
                     x["z_rtp"], x["chi2"], x["dof"], x["p_value"]]
                    for bet, x in v["bets"].items()]
            r = table(ws, 0, ["bet", "rounds", "RTP simulated", "RTP exact",
                              f"RTP {level} CI low", f"RTP {level} CI high", "z of RTP",
                              "chi-square", "dof", "p-value"], rows, "verification")
            for bet, x in v["bets"].items():
                r = table(ws, r, ["event", "count", "expected", "probability",
                                  "exact probability", "z"],
                          [[e["event"], e["count"], e["expected"], e["probability"],
                            e["exact_probability"], e["z"]] for e in x["events"]],
                          f"{bet} simulated vs exact")
        rnd = pack.get("randomness")
        if rnd:
            ws = wb.add_worksheet("Randomness")
            ws.set_column(0, 0, 30)
            ws.set_column(1, 5, 16)
            rows = [[t.get("name"), t.get("statistic"), t.get("dof"), t.get("p_value"),
                     "pass" if t.get("passed") else "FAIL"] for t in _tests(rnd)]
            table(ws, 0, ["test", "statistic", "dof", "p-value", "result"], rows,
                  "randomness battery")
        del pct, num
    finally:
        wb.close()
    os.replace(tmp, p)
    return p


def _tests(rnd: dict) -> list[dict]:
    """The battery's tests as dicts with name, statistic, dof, p_value, passed (whatever the
    battery's own key names)."""
    tests = rnd.get("tests", [])
    out = []
    for t in tests:
        out.append({"name": t.get("name") or t.get("test"),
                    "statistic": t.get("statistic", t.get("chi2", t.get("z"))),
                    "dof": t.get("dof", t.get("df")),
                    "p_value": t.get("p_value", t.get("p")),
                    "passed": t.get("passed", t.get("pass", t.get("ok")))})
    return out


def _xl(v: Any) -> Any:
    """A cell value xlsxwriter takes: None as empty, floats that are not finite as text."""
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    if isinstance(v, (list, tuple, dict)):
        return json.dumps(v)
    return v


def _tname(name: str) -> str:
    return "t_" + "".join(ch if ch.isalnum() else "_" for ch in name)


def _sheet(bet: str) -> str:
    return f"bet {bet}"[:31]


def write_pack_html(pack: dict, path: str | Path) -> Path:
    """The pack as one self-contained HTML page (the chart inline as a PNG; no script runs;
    the pack's data embedded as JSON in ``<script type="application/json" id="gpusim-report">``)."""
    from gpusim.report.html import _CSS, _e

    def cell(v: Any, kind: str = "") -> str:
        if v is None:
            return "<td></td>"
        if isinstance(v, bool):
            return f"<td>{'yes' if v else 'no'}</td>"
        if isinstance(v, int):
            return f"<td>{v:,}</td>"
        if isinstance(v, float):
            if kind == "pct":
                return f"<td>{v * 100:.4f} %</td>"
            return f"<td>{v:.6g}</td>"
        return f'<td class="l">{_e(v)}</td>'

    def table(head: list[str], rows: list[list[Any]], kinds: list[str] | None = None) -> str:
        h = "".join(f"<th>{_e(x)}</th>" for x in head)
        k = kinds or [""] * len(head)
        body = "".join("<tr>" + "".join(cell(v, k[i] if i < len(k) else "")
                                        for i, v in enumerate(r)) + "</tr>" for r in rows)
        return f"<table><tr>{h}</tr>{body}</table>"

    c = pack["cover"]
    parts = [f"<h1>Certification pack: {_e(c['game'])}</h1>",
             "<h2>Cover</h2>", table(["", ""], [[k, v] for k, v in _cover_rows(pack)]),
             "<h2>Rules</h2>"]
    for heading, sentences in pack["rules"]:
        parts.append(f"<h3>{_e(heading)}</h3><ul>"
                     + "".join(f"<li>{_e(s)}</li>" for s in sentences) + "</ul>")
    parts.append("<h2>Paytables</h2>")
    for bet, lines in pack["paytables"].items():
        parts.append(f"<h3>{_e(bet)}</h3>"
                     + table(["line", "pays"], [[ln, str(v)] for ln, v in lines.items()]))
    kinds = ["", "pct", "pct", "pct", "", "", "", "", "", "", ""]
    keys = ["", "rtp", "house_edge", "hit_frequency", "sd"]
    body = []
    for row in _bet_summary_rows(pack):
        tds = []
        for i, v in enumerate(row):
            td = cell(v, kinds[i])
            if 0 < i < len(keys) and v is not None:
                # the browser check reads each keyed cell's value back from the embedded JSON
                td = td.replace("<td>", f'<td data-key="bets.{_e(row[0])}.{keys[i]}" '
                                        f'data-value="{_e(json.dumps(v))}">', 1)
            tds.append(td)
        body.append("<tr>" + "".join(tds) + "</tr>")
    parts.append("<h2>Bets</h2><table><tr>" + "".join(f"<th>{_e(x)}</th>" for x in _BET_HEAD)
                 + "</tr>" + "".join(body) + "</table>")
    for bet, b in pack["bets"].items():
        parts.append(f"<h3>{_e(bet)}</h3>" + table(
            ["event", "pays", "combinations", "probability", "contribution"],
            [[e["event"], e["pays"], e["combinations"], e["probability"], e["contribution"]]
             for e in b["events"]] + [["total", None, b["deals"], 1.0, None]]))
    rows = [[label, pack["main"].get(k)] for k, label in _MAIN_ROWS if k in pack["main"]]
    rows += _max_win_rows(pack["main"].get("max_win_round"), "of a round")
    parts.append("<h2>Main game and total</h2>" + table(["figure", "value"], rows))
    parts.append("<h2>Strategy</h2>"
                 f'<p><img alt="strategy chart" src="data:image/png;base64,'
                 f'{pack["strategy"]["chart_png"]}"></p>')
    st = pack["strategy"]["table"]
    head = list(dict.fromkeys(k for row in st for k in row))
    parts.append(f"<details><summary>strategy table ({len(st):,} rows)</summary>"
                 + table(head, [[row.get(k) for k in head] for row in st]) + "</details>")
    v = pack.get("verification")
    if v:
        level = f"{v['confidence'] * 100:g} %"
        parts.append("<h2>Simulation verification</h2>" + table(
            ["bet", "rounds", "RTP simulated", "RTP exact", f"RTP {level} CI",
             "exact inside", "z of RTP", "chi-square", "dof", "p-value"],
            [[bet, x["rounds"], x["rtp_simulated"], x["rtp_exact"],
              None if x["rtp_interval"] is None else
              f"{x['rtp_interval'][0]:.6f} .. {x['rtp_interval'][1]:.6f}",
              x["exact_inside_interval"], x["z_rtp"], x["chi2"], x["dof"], x["p_value"]]
             for bet, x in v["bets"].items()]))
        for bet, x in v["bets"].items():
            parts.append(f"<details><summary>{_e(bet)}: each event</summary>" + table(
                ["event", "count", "expected", "probability", "exact probability", "z"],
                [[e["event"], e["count"], e["expected"], e["probability"],
                  e["exact_probability"], e["z"]] for e in x["events"]]) + "</details>")
    rnd = pack.get("randomness")
    if rnd:
        parts.append("<h2>Randomness battery</h2>" + table(
            ["test", "statistic", "dof", "p-value", "result"],
            [[t["name"], t["statistic"], t["dof"], t["p_value"],
              "pass" if t["passed"] else "FAIL"] for t in _tests(rnd)]))
    data = json.dumps({k: v for k, v in pack.items() if k not in ("exact_report",)},
                      default=str).replace("</", "<\\/")
    page = (f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{_e(c['game'])}: certification pack</title><style>{_CSS}"
            "td.l{text-align:left}h3{margin-top:1.2em}</style></head><body>"
            + "".join(parts)
            + f'<script type="application/json" id="gpusim-report">{data}</script>'
            "</body></html>")
    p = Path(path)
    tmp = p.with_name(f".{p.name}.tmp")
    tmp.write_text(page, encoding="utf-8")
    os.replace(tmp, p)
    return p
