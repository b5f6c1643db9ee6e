"""One unit for the SD per round wherever a run's summary is shown, and the exact RTP of the
main game and of the whole round in the run report's summary table.

Ultimate Texas Hold'em stakes 2 chips an Ante, so a figure in chips and one in antes differ by
2: the terminal summary's ``SD/round`` column of ``main`` and the line under it ("SD per round
... antes") must say the same number, as must the run report's summary table and its "Main
game" table. The exact RTP of ``main`` is the exact report's total-bet RTP; that of ``total``
is recomputed here from the shipped exact report and the config's stakes."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

import gpusim
from gpusim.cli import app
from gpusim.config import load_config

SHIPPED = Path(__file__).resolve().parents[1] / "gpusim" / "data" / "exact"


@pytest.fixture(scope="module")
def uth_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("units") / "uth"
    return gpusim.simulate("ultimate_holdem", rounds=20_000, seed=4, out=out, chunk=20_000)


@pytest.fixture(scope="module")
def report(uth_run, tmp_path_factory):
    out = tmp_path_factory.mktemp("units-report")
    texts = {}
    for fmt in ("html", "json", "md"):
        res = CliRunner().invoke(app, ["report", str(uth_run.path), "--out",
                                       str(out / f"r.{fmt}"), "--format", fmt,
                                       "--rounds", "100", "--paths", "500"])
        assert res.exit_code == 0, res.output
        texts[fmt] = (out / f"r.{fmt}").read_text()
    return texts


def _ante() -> int:
    return load_config("ultimate_holdem").stakes.as_dict()["ante"]


def test_terminal_summary_sd_in_antes(uth_run):
    assert _ante() == 2  # the check needs an ante of more than one chip
    res = CliRunner().invoke(app, ["summary", str(uth_run.path)], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    s = uth_run.summary()
    assert "SD/round (antes)" in res.output
    rows = {m[1]: m[2] for m in re.finditer(r"│ (\w+)\s+│.*│\s+([\d.]+) │", res.output)}
    assert set(rows) == set(s["bets"])
    for bet, b in s["bets"].items():
        assert rows[bet] == f"{b['sd_per_round'] / _ante():.4f}", bet
    line = re.search(r"SD per round ([\d.]+) antes", " ".join(res.output.split()))
    assert line is not None and line[1] == rows["main"]


def _cells(html: str) -> dict[str, str]:
    return {m[1]: re.sub(r"<[^>]+>", "", m[3]) for m in re.finditer(
        r'<td[^>]*data-key="([^"]+)" data-value="([^"]*)"[^>]*>(.*?)</td>', html)}


def test_run_report_sd_in_antes(uth_run, report):
    html = report["html"]
    rep = json.loads(report["json"])
    assert rep["run"]["base_stake"] == _ante() and rep["run"]["base_bet"] == "ante"
    summary = html[html.index("<table>"):html.index("</table>")]
    assert "SD/round (antes)" in summary
    cells = _cells(summary)
    for bet, b in uth_run.summary()["bets"].items():
        assert rep["sd_per_round_antes"][bet] == pytest.approx(b["sd_per_round"] / _ante())
        assert cells[f"sd_per_round_antes.{bet}"] == f"{b['sd_per_round'] / _ante():,.4f}", bet
    # the main row says what the Main game table below says
    assert cells["sd_per_round_antes.main"] == _cells(html)["summary.main.sd_per_round"]
    assert "| SD/round (antes) |" in report["md"]
    md_main = next(line for line in report["md"].splitlines() if line.startswith("| main |"))
    assert md_main.rstrip(" |").endswith(cells["sd_per_round_antes.main"])


def test_run_report_exact_rtp_of_main_and_total(report):
    rep = json.loads(report["json"])
    cells = _cells(report["html"])
    shipped = json.loads((SHIPPED / "ultimate_holdem.optimal.json").read_text())
    main = shipped["main"]
    assert cells["exact.main.total_bet_rtp"] == f"{100 * main['total_bet_rtp']:.4f} %"
    # the whole round: the main game's return and wager per round, and the Trips at its stake
    stakes = load_config("ultimate_holdem").stakes.as_dict()
    wager = main["avg_total_wager"] * stakes["ante"]
    back = main["total_bet_rtp"] * wager + shipped["bets"]["trips"]["rtp"] * stakes["trips"]
    total = back / (wager + stakes["trips"])
    assert rep["exact"]["total_rtp"] == pytest.approx(total, rel=1e-12)
    assert cells["exact.total_rtp"] == f"{100 * total:.4f} %"
    summary = report["html"][report["html"].index("<table>"):report["html"].index("</table>")]
    assert summary.count('data-key="exact.') == 2  # main and total, each once


def test_no_exact_total_where_a_bet_has_no_exact_rtp():
    """A Jackpot's RTP depends on its meter: the round has no exact RTP then."""
    from gpusim.report.build import _exact_total_rtp

    rules = load_config("holdem_bonus")
    main = json.loads((SHIPPED / "holdem_bonus.optimal.json").read_text())["main"]
    bets = ("ante", "flop", "turn", "river", "bonus", "jackpot")
    data = SimpleNamespace(rules=rules, bets=bets, rounds=10,
                           stakes={b: 1 for b in bets},
                           summary={"bets": {b: {"placed": 10} for b in bets}})
    exact = {"bonus": {"exact": {"rtp": 0.9}}, "jackpot": {"exact": {"rtp": None}}}
    assert _exact_total_rtp(data, main, exact) is None
    exact["jackpot"]["exact"]["rtp"] = 0.8
    got = _exact_total_rtp(data, main, exact)
    wager = main["avg_total_wager"]
    assert got == pytest.approx((main["total_bet_rtp"] * wager + 0.9 + 0.8) / (wager + 2))
    data.summary["bets"]["bonus"]["placed"] = 9  # not on every round: no fixed wager
    assert _exact_total_rtp(data, main, exact) is None
    assert _exact_total_rtp(data, None, exact) is None
