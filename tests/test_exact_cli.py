"""`gpusim exact` command line: bad values fail in one line; the JSON shape (slow)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from gpusim.cli import app

runner = CliRunner()


def _err_lines(result) -> list[str]:
    text = result.stderr if result.stderr_bytes is not None else result.output
    return [line for line in text.splitlines() if line.strip()]


def test_unknown_strategy_is_one_line_exit_2():
    result = runner.invoke(app, ["exact", "casino_holdem", "--strategy", "nope"])
    assert result.exit_code == 2
    lines = _err_lines(result)
    assert len(lines) == 1
    assert lines[0].startswith("gpusim: error: ")
    assert "--strategy" in lines[0] and "'nope'" in lines[0] and "optimal-main" in lines[0]


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["no_such_config"], ["gpusim: error: config 'no_such_config'", "casino_holdem",
                              "ultimate_holdem"]),
        (["casino_holdem", "--backend", "tpu"], ["gpusim: error: --backend", "'tpu'",
                                                  "allowed: cpu, cupy"]),
        (["casino_holdem", "--log-every", "-1"], ["gpusim: error: --log-every", "-1"]),
    ],
)
def test_bad_value_is_one_line_naming_it_exit_2(tmp_path, args, needles):
    """One line that names the field, the value and what is allowed; nothing is written."""
    out = tmp_path / "never.json"
    result = runner.invoke(app, ["exact", *args, "--json", "--out", str(out)])
    assert result.exit_code == 2, result.output
    lines = _err_lines(result)
    assert len(lines) == 1, lines
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    assert not out.exists()


def test_ultimate_holdem_text_and_an_unknown_strategy_refused():
    # the shipped report answers at once; its text shows each hand's EV of all three actions
    result = runner.invoke(app, ["exact", "ultimate_holdem"])
    assert result.exit_code == 0, result.output
    assert "house edge per ante" in result.output and "check, play_3x, play_4x" in result.output
    from gpusim.config import load_config
    from gpusim.run_figures import shipped_exact_report

    aa = shipped_exact_report(load_config("ultimate_holdem"), "optimal")["preflop"]["AA"]
    evs = " ".join(f"{aa[k]:+.6f}" for k in ("ev_check", "ev_play_3x", "ev_play_4x"))
    assert f"  AA {evs} {aa['action']}" in result.output
    result = runner.invoke(app, ["exact", "ultimate_holdem", "--strategy", "no-such"])
    assert result.exit_code == 2
    lines = _err_lines(result)
    assert len(lines) == 1 and "'no-such'" in lines[0] and "basic" in lines[0]


def test_help():
    result = runner.invoke(app, ["exact", "--help"])
    assert result.exit_code == 0
    assert "--strategy" in result.output


@pytest.mark.slow
def test_json_report_shape(tmp_path):
    out = tmp_path / "r.json"
    result = runner.invoke(
        app, ["exact", "holdem_bonus", "--strategy", "optimal", "--json", "--recompute", "--out",
              str(out)]
    )
    assert result.exit_code == 0, result.output
    rep = json.loads(out.read_text())
    assert {"game", "config", "strategy", "deals_counted", "main", "bets", "decisions",
            "preflop"} <= set(rep)
    assert set(rep["main"]) == {"house_edge_per_ante", "avg_total_wager", "element_of_risk",
                                "total_bet_rtp", "sd_per_round", "ante_rtp", "hit_frequency"}
    assert 0 < rep["main"]["hit_frequency"] < 1
    assert len(rep["preflop"]) == 169
    for bet in rep["bets"].values():
        assert abs(sum(e["probability"] for e in bet["events"]) - 1) < 1e-12
