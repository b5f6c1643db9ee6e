"""The PAR sheet: the casino industry's standard workbook of a game's mathematics (.xlsx).

Sheet ``Summary`` first (house edge per ante, element of risk, average wager, SD, strategy,
config hash, gpusim version) with a table of every bet's RTP, house edge, hit frequency, SD and
volatility index; then one sheet per bet: its paytable with the combinations (exact) or count
(simulated) and the probability of each outcome and its contribution to the return, above the
bet's figures. Every table is an Excel table with a name (``summary``, ``bets``,
``<bet>_paytable``, ``<bet>_figures``), so a program can read one back:
``polars.read_excel(path, sheet_name="bonus", table_name="bonus_paytable", engine="openpyxl")``.

Figures per bet are per unit of that bet's stake and per placed wager: RTP = returned /
wagered; hit frequency = P(the bet wins | placed); SD of the net result of one wager; VI = z SD
(90 %: z = 1.645, 95 %: 1.960). A simulated PAR sheet sets the exact figures beside the
simulated ones wherever they exist. Written with polars' ``write_excel`` (xlsxwriter).
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import polars as pl

from gpusim.games import spec_for
from gpusim.games.spec import METER_SECTION
from gpusim.stats import Z90, Z95

__all__ = ["exact_par_tables", "report_par_tables", "write_par"]

_MAIN_LABELS = (("house_edge_per_ante", "house edge per ante"),
                ("element_of_risk", "element of risk"),
                ("avg_total_wager", "average total wager (antes)"),
                ("total_bet_rtp", "total-bet RTP (1 - element of risk)"),
                ("ante_rtp", "Ante RTP (1 - house edge per ante)"),
                ("sd_per_round", "SD per round (antes)"))


def _moments(rows: list[tuple[float, float]]) -> dict:
    """RTP, hit frequency, SD, VI of one placed wager from (pays per unit, probability) rows
    (the probabilities of the placed outcomes only; renormalised here)."""
    tot = sum(p for _, p in rows)
    if tot <= 0:
        return {"rtp": None, "hit_frequency": None, "sd": None, "vi90": None, "vi95": None}
    mean = sum(x * p for x, p in rows) / tot
    var = max(0.0, sum(x * x * p for x, p in rows) / tot - mean * mean)
    sd = math.sqrt(var)
    return {"rtp": 1 + mean, "hit_frequency": sum(p for x, p in rows if x > 0) / tot,
            "sd": sd, "vi90": Z90 * sd, "vi95": Z95 * sd}


def _figures(rows: list[tuple[str, float | None, float | None]]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema={"figure": pl.String, "exact": pl.Float64,
                                      "simulated": pl.Float64}, orient="row")


def exact_par_tables(rep: dict) -> dict[str, dict[str, pl.DataFrame]]:
    """{sheet: {table name: DataFrame}} of the PAR sheet of an exact report
    (``gpusim exact --json``); the summary sheet first.

    Every figure comes from the report's integer counts (each event's ``count``, ``placed``
    and ``staked``): a report without them (written before every game counted them) is refused
    with a ValueError naming the bet and the event, never rebuilt from rounded probabilities.
    The round's and each bet's largest net win (``max_win``, in Antes) are rows of the summary
    and of each bet's figures.
    """
    deals = int(rep["deals_counted"])
    main = rep["main"]
    from gpusim import __version__
    from gpusim.config import load_config

    try:
        config_hash = load_config(rep["config"]).config_hash
    except Exception:  # an edited or removed config: the report alone cannot say
        config_hash = None
    text = [("game", rep["game"]), ("config", rep["config"]), ("strategy", rep["strategy"]),
            ("config hash (sha256)", config_hash), ("gpusim version", __version__),
            ("source", "exact: every deal counted"), ("deals counted", f"{deals:,}")]
    summary = pl.DataFrame(
        [(label, None, val) for label, val in text]
        + [(label, float(main[k]), None) for k, label in _MAIN_LABELS if k in main]
        + _round_max_rows(rep.get("max_win")),
        schema={"figure": pl.String, "value": pl.Float64, "text": pl.String}, orient="row")
    sheets: dict[str, dict[str, pl.DataFrame]] = {}
    bet_rows = []
    for bet, info in rep["bets"].items():
        placed_rows = []
        rows = []
        hits = placed_deals = 0
        for e in info["events"]:
            missing = [k for k in ("count", "placed", "staked") if not isinstance(e.get(k), int)]
            if missing:
                raise ValueError(f"exact report {rep['config']!r}, bet {bet!r}, event "
                                 f"{e['event']!r}: no integer {', '.join(missing)}; the PAR sheet "
                                 "reads integer counts only (run `gpusim exact --recompute`)")
            p = float(e["probability"])
            # the deals with the event, those with the bet on the table and the stake units
            # there (a bet staked at 1x to 3x: per unit staked); an event that never happens
            # keeps its pay (a paytable line), one off the table has none
            on_table = e["placed"] > 0 or e["count"] == 0
            placed_deals += e["placed"]
            hits += e["placed"] if e["pays"] > 0 else 0
            rows.append((e["event"], float(e["pays"]) if on_table else None, e["count"], p,
                         float(e["return"])))
            if e["placed"] > 0:
                placed_rows.append((float(e["pays"]), e["staked"] / deals))
        m = _moments(placed_rows)
        rtp = info["rtp"]
        m["hit_frequency"] = hits / placed_deals if placed_deals else None
        paytable = pl.DataFrame(rows, schema={
            "event": pl.String, "pays": pl.Float64, "combinations": pl.Int64,
            "probability": pl.Float64, "contribution": pl.Float64}, orient="row")
        mw = info.get("max_win")
        figs = _figures([("RTP", rtp, None),
                         ("house edge", None if rtp is None else 1 - rtp, None),
                         ("hit frequency", m["hit_frequency"], None),
                         ("SD per wager", m["sd"], None), ("VI 90 %", m["vi90"], None),
                         ("VI 95 %", m["vi95"], None),
                         ("P(placed) per round", placed_deals / deals, None),
                         *_bet_max_rows(mw)]).drop("simulated")
        sheets[bet] = {f"{_tname(bet)}_paytable": paytable, f"{_tname(bet)}_figures": figs}
        bet_rows.append((bet, rtp, None, m["hit_frequency"], None, m["sd"], m["vi90"],
                         m["vi95"], None if mw is None else float(mw["antes"]),
                         None if mw is None else mw["count"]))
    bets = _bets_frame([r[:8] for r in bet_rows]).drop(
        ["rtp_simulated", "hit_frequency_simulated"]).with_columns(
        pl.Series("max_win_antes", [r[8] for r in bet_rows], pl.Float64),
        pl.Series("max_win_deals", [r[9] for r in bet_rows], pl.Int64))
    if METER_SECTION in rep:
        j = rep[METER_SECTION]
        meter = spec_for(rep["game"]).meter_bet
        sheets[meter][f"{_tname(meter)}_meter"] = pl.DataFrame(
            [(r["meter"], r["rtp"]) for r in j["rtp_at_meter"]],
            schema={"meter": pl.Int64, "rtp": pl.Float64}, orient="row")
        summary = pl.concat([summary, pl.DataFrame(
            [("Jackpot: royal pays the expected meter at a hit; fixed-prize RTP",
              float(j["fixed_prize_rtp"]), None),
             ("Jackpot: break-even meter", float(j["break_even_meter"]), None)],
            schema=summary.schema, orient="row")])
    return {"Summary": {"summary": summary, "bets": bets}, **sheets}


def _round_max_rows(mw: dict | None) -> list[tuple[str, float | None, str | None]]:
    """The summary's rows of the round's largest net win (figure, value, text)."""
    if mw is None:
        return []
    scope = ("every bet offered" if mw["scope"] == "all_bets" else
             "the main game only; not counted jointly: " + ", ".join(mw.get("excluded", {})))
    return [("max win per round (antes)", float(mw["antes"]),
             f"{', '.join(mw['bets'])} ({scope})"),
            ("max win per round: deals", float(mw["count"]), f"{mw['count']:,}"),
            ("max win per round: probability", float(mw["probability"]), None)]


def _bet_max_rows(mw: dict | None) -> list[tuple[str, float | None, None]]:
    """A bet's figures rows of its largest net win: Antes, deals, probability."""
    if mw is None:
        return []
    label = "max win (antes)" + (", fixed prizes only" if mw.get("excluded_events") else "")
    return [(label, float(mw["antes"]), None), ("max win: deals", float(mw["count"]), None),
            ("max win: probability", float(mw["probability"]), None)]


def _bets_frame(rows) -> pl.DataFrame:
    return pl.DataFrame(rows, schema={
        "bet": pl.String, "rtp_exact": pl.Float64, "rtp_simulated": pl.Float64,
        "hit_frequency_exact": pl.Float64, "hit_frequency_simulated": pl.Float64,
        "sd": pl.Float64, "vi90": pl.Float64, "vi95": pl.Float64}, orient="row")


def _tname(bet: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in bet)


def report_par_tables(rep: dict) -> dict[str, dict[str, pl.DataFrame]]:
    """{sheet: {table name: DataFrame}} of the PAR sheet of a run's report dict
    (:func:`gpusim.report.build_report`): simulated figures with the exact ones beside them."""
    from gpusim import __version__

    run, s = rep["run"], rep["summary"]
    ex_main = (rep.get("exact") or {}).get("main") or {}
    text = [("game", run["game"]), ("config", run["config"]), ("strategy", run["strategy"]),
            ("config hash (sha256)", run["config_hash"]), ("gpusim version", __version__),
            ("source", "simulation; exact figures beside where they exist"),
            ("rounds simulated", f"{run['rounds']:,}"), ("seed", str(run["seed"]))]
    rows = [(label, None, None, val) for label, val in text]
    for k, label in _MAIN_LABELS:
        if k in (s.get("main") or {}):
            rows.append((label, ex_main.get(k), s["main"][k], None))
    summary = pl.DataFrame(rows, schema={"figure": pl.String, "exact": pl.Float64,
                                         "simulated": pl.Float64, "text": pl.String},
                           orient="row")
    sheets: dict[str, dict[str, pl.DataFrame]] = {}
    bet_rows = []
    vol = rep["volatility"]["bets"]
    for bet, t in rep["return_tables"].items():
        ex = t.get("exact") or {}
        placed_sim, placed_ex = [], []
        rows = []
        for r in t["rows"]:
            pe = r.get("exact_probability")
            pays = r["pays"] if r["stake"] else None
            rows.append((r["event"], pays, r["count"], r["probability"], r["return"],
                         pe, None if pe is None or pays is None else pays * pe))
            if r["stake"]:
                placed_sim.append((r["pays"], r["probability"]))
                if pe is not None:
                    placed_ex.append((r["pays"], pe))
        paytable = pl.DataFrame(rows, schema={
            "event": pl.String, "pays": pl.Float64, "count": pl.Int64,
            "probability": pl.Float64, "contribution_per_round": pl.Float64,
            "exact_probability": pl.Float64, "exact_contribution_per_round": pl.Float64},
            orient="row")
        ms = _moments(placed_sim)
        me = _moments(placed_ex) if ex and len(placed_ex) == len(placed_sim) else {}
        rtp_ex = ex.get("rtp")
        hf = rep["hit_frequency"].get(bet, {})
        figs = _figures([
            ("RTP", rtp_ex, t["rtp"]),
            ("house edge", None if rtp_ex is None else 1 - rtp_ex,
             None if t["rtp"] is None else 1 - t["rtp"]),
            ("hit frequency", hf.get("exact"), hf.get("hit_frequency")),
            ("SD per wager", me.get("sd"), ms["sd"]), ("VI 90 %", me.get("vi90"), ms["vi90"]),
            ("VI 95 %", me.get("vi95"), ms["vi95"]),
            ("SD per round per unit stake", None, (vol.get(bet) or {}).get("sd")),
            ("z of the simulated RTP", None, ex.get("z_rtp"))])
        sheets[bet] = {f"{_tname(bet)}_paytable": paytable, f"{_tname(bet)}_figures": figs}
        bet_rows.append((bet, rtp_ex, t["rtp"], hf.get("exact"), hf.get("hit_frequency"),
                         ms["sd"], ms["vi90"], ms["vi95"]))
    bets = _bets_frame(bet_rows)
    if rep.get("exact") is None:  # a game with no exact figures: no exact columns
        summary = summary.drop("exact")
        bets = bets.drop(["rtp_exact", "hit_frequency_exact"])
    return {"Summary": {"summary": summary, "bets": bets}, **sheets}


_PCT_COLS = ("rtp", "rtp_exact", "rtp_simulated", "hit_frequency_exact",
             "hit_frequency_simulated")


def write_par(tables: dict[str, dict[str, pl.DataFrame]], path: str | Path) -> Path:
    """Write the sheets (:func:`exact_par_tables` / :func:`report_par_tables`) to ``path``
    (temporary name, then rename: nothing half-written on failure)."""
    import xlsxwriter

    p = Path(path)
    tmp = p.with_name(f".{p.name}.tmp")
    wb = xlsxwriter.Workbook(str(tmp))
    try:
        for sheet, frames in tables.items():
            ws = wb.add_worksheet(sheet[:31])
            row = 0
            for name, df in frames.items():
                ws.write(row, 0, _caption(name), wb.add_format({"bold": True}))
                fmt = {c: "0.0000%" for c in df.columns if c in _PCT_COLS}
                fmt.update({c: "0.000000000" for c in df.columns
                            if "probability" in c or "contribution" in c})
                fmt.update({c: "#,##0" for c in ("count", "combinations", "max_win_deals")
                            if c in df.columns})
                df.write_excel(wb, ws, position=(row + 1, 0), table_name=name,
                               table_style="Table Style Light 9", column_formats=fmt,
                               float_precision=6, autofit=True)
                row += df.height + 4
    finally:
        wb.close()
    os.replace(tmp, p)
    return p


def _caption(name: str) -> str:
    if name == "summary":
        return "Summary"
    if name == "bets":
        return "Bets (per unit of each bet's stake, per placed wager)"
    bet, _, kind = name.rpartition("_")
    return {"paytable": f"{bet}: paytable (pays = net per unit staked)",
            "figures": f"{bet}: figures", "meter": f"{bet}: RTP by meter"}.get(kind, name)
