"""The PAR sheet of `gpusim exact CONFIG --par FILE.xlsx`, for every shipped config: it opens
with openpyxl and polars, the summary sheet comes first, and its figures equal the
`gpusim exact --json` report to 1e-9.

The exact reports are the shipped ones (gpusim/data/exact, the output of `gpusim exact --json`
for each shipped config; test_simulate_vs_exact checks their provenance): a fresh enumeration
takes minutes, so the command's solve is replaced by the shipped report here, and the slow test
runs one real solve end to end.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import openpyxl  # noqa: E402 - the dev extra installs it
import polars as pl
import pytest
from typer.testing import CliRunner

import gpusim
from gpusim.cli import app

EXACT = Path(gpusim.__file__).parent / "data" / "exact"
_NOT_PLACED = {"call": {"fold"}, "flop": {"fold"}, "turn": {"fold", "check"},
               "river": {"fold", "check"}, "play": {"fold"}}


def _table(path, sheet: str, table: str) -> pl.DataFrame:
    return pl.read_excel(path, sheet_name=sheet, table_name=table, engine="openpyxl")


def _check_par(path: Path, rep: dict) -> None:
    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames == ["Summary", *rep["bets"]]
    summary = {r["figure"]: r for r in _table(path, "Summary", "summary").iter_rows(named=True)}
    m = rep["main"]
    for key, label in (("house_edge_per_ante", "house edge per ante"),
                       ("element_of_risk", "element of risk"),
                       ("avg_total_wager", "average total wager (antes)"),
                       ("sd_per_round", "SD per round (antes)")):
        assert abs(summary[label]["value"] - m[key]) <= 1e-9, label
    assert summary["strategy"]["text"] == rep["strategy"]
    assert summary["config hash (sha256)"]["text"] == gpusim.config.load_config(
        rep["config"]).config_hash
    assert summary["gpusim version"]["text"] == gpusim.__version__
    bets = {r["bet"]: r for r in _table(path, "Summary", "bets").iter_rows(named=True)}
    deals = rep["deals_counted"]
    for bet, info in rep["bets"].items():
        assert abs(bets[bet]["rtp_exact"] - info["rtp"]) <= 1e-9, bet
        pt = _table(path, bet, f"{bet}_paytable")
        assert pt["event"].to_list() == [e["event"] for e in info["events"]]
        # the sheet's own rows give the RTP again: 1 + the sum of the contributions
        assert abs(1 + pt["contribution"].sum() - info["rtp"]) <= 1e-9, bet
        assert pt["combinations"].sum() == deals
        for row, e in zip(pt.iter_rows(named=True), info["events"], strict=True):
            assert abs(row["probability"] - e["probability"]) <= 1e-15
            assert row["combinations"] == e.get("count", round(e["probability"] * deals))
        figs = dict(_table(path, bet, f"{bet}_figures").iter_rows())
        assert abs(figs["RTP"] - info["rtp"]) <= 1e-9
        # hit frequency and SD of one placed wager, from the JSON's events; a described game's
        # events carry their integer counts: the deals with the bet on the table and the units
        # staked there (per unit staked, as its RTP)
        if "staked" in info["events"][0]:
            placed = [dict(e, probability=e["staked"]) for e in info["events"] if e["placed"]]
            hit = (sum(e["placed"] for e in info["events"] if e["pays"] > 0)
                   / sum(e["placed"] for e in info["events"]))
            assert hit == info["hit_frequency"]
        else:
            placed = [e for e in info["events"] if e["event"] not in _NOT_PLACED.get(bet, ())]
        tot = sum(e["probability"] for e in placed)
        if "staked" not in info["events"][0]:
            hit = sum(e["probability"] for e in placed if e["pays"] > 0) / tot
        mean = sum(e["pays"] * e["probability"] for e in placed) / tot
        sd = math.sqrt(sum(e["pays"] ** 2 * e["probability"] for e in placed) / tot - mean ** 2)
        assert abs(figs["hit frequency"] - hit) <= 1e-9
        assert abs(figs["SD per wager"] - sd) <= 1e-9 * max(1, sd)
        assert abs(figs["VI 95 %"] - 1.959963984540054 * sd) <= 1e-9 * max(1, sd)


def test_exact_par_sheet_matches_exact_json(solved_name, tmp_path, monkeypatch):
    rep = json.loads((EXACT / f"{solved_name}.optimal.json").read_text())
    from gpusim.runs import exact_on_demand as tables

    monkeypatch.setattr(tables, "exact_report", lambda rules, strategy, **kw: rep)
    out = tmp_path / f"{solved_name}.xlsx"
    res = CliRunner().invoke(app, ["exact", solved_name, "--par", str(out), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout) == rep
    _check_par(out, rep)


@pytest.mark.parametrize("args", [["--par", "x.xls"], ["--par", "no/such/folder/x.xlsx"]])
def test_bad_par_path_one_line_exit_2(args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(app, ["exact", "casino_holdem", *args])
    assert res.exit_code == 2
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "--par" in lines[0]
    assert not list(tmp_path.iterdir())


@pytest.mark.slow
def test_exact_par_sheet_from_a_real_solve(tmp_path):
    out = tmp_path / "thb.xlsx"
    res = CliRunner().invoke(app, ["exact", "holdem_bonus", "--par", str(out), "--json"])
    assert res.exit_code == 0, res.output
    _check_par(out, json.loads(res.stdout))
