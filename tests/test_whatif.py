"""`gpusim whatif`: another paytable's RTP from the stored event counts, the pay that hits a
target RTP, the main-game caveat, and unknown lines."""

from __future__ import annotations

import json
from fractions import Fraction

import polars as pl
import pytest
from typer.testing import CliRunner

import gpusim
from gpusim.cli import app


@pytest.fixture(scope="module")
def thb_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("whatif") / "thb"
    return gpusim.simulate("holdem_bonus", rounds=20_000, seed=21, out=out, strategy="basic")


@pytest.fixture(scope="module")
def ch_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("whatif") / "ch"
    return gpusim.simulate("casino_holdem", rounds=10_000, seed=22, out=out, strategy="basic")


def _counts(run, bet: str) -> dict[str, int]:
    ev = run.events().collect().filter(pl.col("bet") == bet)
    return dict(ev.group_by("event").agg(pl.col("count").sum()).iter_rows())


def _json(run, *args) -> dict:
    res = CliRunner().invoke(app, ["whatif", str(run.path), "--json", *args])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def test_bonus_lines(thb_run):
    c = _counts(thb_run, "bonus")
    n = sum(c.values())
    old = thb_run.summary()["bets"]["bonus"]["rtp"]
    out = _json(thb_run, "--set", "bonus.AKs=30", "--set", "bonus.AQs_AJs=22")["whatif"]
    b = out["bets"]["bonus"]
    assert b["rtp_old"] == pytest.approx(old, abs=1e-12)
    # AKs 25 -> 30 and AQs/AJs 20 -> 22 (pays X:1, stake 1)
    want = Fraction(round(old * n), n) + Fraction(5 * c.get("AKs", 0)
                                                  + 2 * (c.get("AQs", 0) + c.get("AJs", 0)), n)
    assert Fraction(b["rtp_new_exact"]) == want
    assert b["note"] is None and b["exact_for_side_bet"] is True
    assert b["paytable_new"]["AKs"] == 30 and b["paytable_old"]["AKs"] == 25


def test_jackpot_fixed_prize(thb_run):
    c = _counts(thb_run, "jackpot")
    n = sum(c.values())
    b = _json(thb_run, "--set", "jackpot.flush=50")["whatif"]["bets"]["jackpot"]
    # "X for 1": the flush prize 25 -> 50 adds 25 per flush
    assert b["rtp_new"] - b["rtp_old"] == pytest.approx(25 * c.get("flush", 0) / n, abs=1e-12)


def test_solve_for_target_rtp(thb_run):
    c = _counts(thb_run, "bonus")
    n = sum(c.values())
    old = Fraction(round(thb_run.summary()["bets"]["bonus"]["rtp"] * n), n)
    pairs = sum(c.get(p, 0) for p in ("TT", "99", "88", "77", "66", "55", "44", "33", "22"))
    s = _json(thb_run, "--target-rtp", "0.95", "--line", "bonus.TT_to_22")["solve"]
    exact = 3 + (Fraction(95, 100) - old) * n / pairs
    assert Fraction(s["exact_pay_fraction"]) == exact
    assert s["lower"]["pay"] == int(exact) and s["upper"]["pay"] == int(exact) + 1
    assert s["lower"]["rtp"] <= 0.95 <= s["upper"]["rtp"]
    # the nearest whole pay, set back, gives the RTP the solver reported
    b = _json(thb_run, "--set", f"bonus.TT_to_22={s['nearest']['pay']}")["whatif"]["bets"]
    assert b["bonus"]["rtp_new"] == pytest.approx(s["nearest"]["rtp"], abs=1e-12)
    # a percentage is read as one
    s2 = _json(thb_run, "--target-rtp", "95", "--line", "bonus.TT_to_22")["solve"]
    assert s2["exact_pay_fraction"] == s["exact_pay_fraction"]


def test_main_game_line_points_to_exact(ch_run):
    c = _counts(ch_run, "ante")
    n = ch_run.summary()["rounds"]
    b = _json(ch_run, "--set", "ante.royal_flush=200")["whatif"]["bets"]["ante"]
    royals = c.get("win:royal_flush", 0) + c.get("dealer_not_qualified:royal_flush", 0)
    assert b["rtp_new"] - b["rtp_old"] == pytest.approx(100 * royals / n, abs=1e-12)
    assert "gpusim exact" in b["note"] and b["exact_for_side_bet"] is False
    res = CliRunner().invoke(app, ["whatif", str(ch_run.path), "--set", "ante.flush=3"])
    assert res.exit_code == 0 and "optimal strategy" in res.stdout


def test_thb_ante_line_now_a_paytable(thb_run):
    # Texas Hold'em Bonus's Ante is a paytable of its description: from a flush (the straight
    # line 1 -> 0) takes 1 a winning straight
    c = _counts(thb_run, "ante")
    n = thb_run.summary()["rounds"]
    b = _json(thb_run, "--set", "ante.straight=0")["whatif"]["bets"]["ante"]
    assert c.get("win:straight", 0) > 0
    assert b["rtp_old"] - b["rtp_new"] == pytest.approx(c["win:straight"] / n, abs=1e-12)
    assert "gpusim exact" in b["note"] and b["exact_for_side_bet"] is False


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--set", "bonus.AKx=30"], "bonus.AKs"),          # unknown line lists allowed ones
        (["--set", "jackpot.royal_flush=5"], "allowed"),  # the meter line is not a pay
        (["--set", "flop.flush=2"], "allowed"),           # no Flop paytable in this game
        (["--set", "bonus.AKs=x"], "whole numbers"),
        (["--set", "bonus.AKs"], "BET.LINE=PAY"),
        (["--target-rtp", "0.95"], "--line"),
        (["--target-rtp", "0.95", "--line", "bonus.nope"], "--line"),
        (["--target-rtp", "abc", "--line", "bonus.AKs"], "--target-rtp"),
        ([], "--set"),
    ],
)
def test_bad_input(thb_run, args, needle):
    res = CliRunner().invoke(app, ["whatif", str(thb_run.path), *args])
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and needle in lines[0] and "Traceback" not in res.output


def test_missing_run_folder(tmp_path):
    res = CliRunner().invoke(app, ["whatif", str(tmp_path / "nope"), "--set", "bonus.AKs=3"])
    assert res.exit_code == 2 and "not a gpusim run folder" in res.output
