"""`gpusim risk`: exact risk of ruin on a real game (Casino Hold'em, basic strategy) against an
independent forward recursion and simulated bankroll paths; sessions; live exposure; bad input."""

from __future__ import annotations

import json
import math
import shutil

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

import gpusim
from gpusim.cli import app


@pytest.fixture(scope="module")
def ch_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("risk") / "ch"
    return gpusim.simulate("casino_holdem", rounds=50_000, seed=3, out=out, strategy="basic",
                           chunk=10_000)


def _total(run) -> tuple[np.ndarray, np.ndarray]:
    d = (run.outcomes().collect().filter(pl.col("bet") == "total").group_by("net")
         .agg(pl.col("count").sum()).sort("net"))
    return d["net"].to_numpy(), d["count"].to_numpy()


def _risk(run, *args) -> dict:
    res = CliRunner().invoke(app, ["risk", str(run.path), "--json", *args])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def _forward_ruin(values, counts, bankroll: int, rounds: int) -> float:
    """P(bankroll <= 0 within ``rounds``) by pushing the surviving mass forward, state by state
    (a different recursion from the library's backward one)."""
    p = counts / counts.sum()
    top = bankroll + rounds * int(values.max()) + 1
    alive = np.zeros(top + 1)
    alive[bankroll] = 1.0
    ruined = 0.0
    for _ in range(rounds):
        nxt = np.zeros_like(alive)
        for x, px in zip(values.tolist(), p.tolist(), strict=True):
            src = alive[max(1, 1 - x): top + 1 - max(x, 0)]
            lo = max(1, 1 - x) + x
            nxt[lo: lo + src.size] += px * src
            # mass that lands on <= 0 is ruined
            dead = alive[1: max(1, 1 - x)]
            ruined += px * float(dead.sum())
        alive = nxt
    return ruined


def test_exact_ruin_matches_forward_recursion_and_simulated_paths(ch_run):
    values, counts = _total(ch_run)
    bankroll, rounds = 40, 150
    out = _risk(ch_run, "--bankroll", str(bankroll), "--rounds", str(rounds), "--paths", "20000",
                "--seed", "9")
    ruin = out["ruin"]
    oracle = _forward_ruin(values, counts, bankroll, rounds)
    assert ruin["finite"]["low"] <= oracle + 1e-9 and oracle - 1e-9 <= ruin["finite"]["high"]
    assert ruin["finite"]["estimate"] == pytest.approx(oracle, abs=1e-9)
    # simulated bankroll paths: 99 % Wilson interval (false-failure rate 1 %, seed fixed)
    sim = ruin["simulated"]
    assert sim["paths"] == 20_000 and sim["level"] == 0.99
    assert sim["low"] <= ruin["finite"]["estimate"] <= sim["high"]
    assert ruin["simulation_agrees"] is True
    # the player's expected result is negative: ruin is certain without a horizon
    assert ruin["unlimited"]["low"] == ruin["unlimited"]["high"] == 1.0
    # bankroll for a target: the smallest whose ruin is at most the target
    for b in ruin["bankroll_for_risk"]:
        assert _forward_ruin(values, counts, b["bankroll"], rounds) <= b["target"] + 1e-9
        assert _forward_ruin(values, counts, b["bankroll"] - 1, rounds) > b["target"] - 1e-9
    assert [b["target"] for b in ruin["bankroll_for_risk"]] == [0.01, 0.05]


def test_session_against_direct_enumeration(ch_run):
    values, counts = _total(ch_run)
    n = int(counts.sum())
    out = _risk(ch_run, "--rounds", "2", "--paths", "100")
    s = out["session"]
    # two rounds: every pair of per-round results
    tot = np.add.outer(values, values)
    w = np.multiply.outer(counts, counts).astype(np.float64) / float(n) ** 2
    assert s["p_ahead"] == pytest.approx(float(w[tot > 0].sum()), abs=1e-12)
    assert s["p_even"] == pytest.approx(float(w[tot == 0].sum()), abs=1e-12)
    assert s["mean"] == pytest.approx(2 * float((values * counts).sum()) / n, rel=1e-12)
    # 1000 rounds: exact mean and SD from the per-round moments
    s = _risk(ch_run, "--rounds", "1000", "--paths", "100")["session"]
    m = float((values * counts).sum()) / n
    var = float((values.astype(float) ** 2 * counts).sum()) / n - m * m
    assert s["mean"] == pytest.approx(1000 * m, rel=1e-12)
    assert s["sd"] == pytest.approx(math.sqrt(1000 * var), rel=1e-9)
    assert s["p_ahead"] + s["p_even"] + s["p_behind"] == pytest.approx(1.0, abs=1e-9)
    assert list(s["percentiles"]) == ["1", "5", "10", "25", "50", "75", "90", "95", "99"]


def test_text_output(ch_run):
    res = CliRunner().invoke(app, ["risk", str(ch_run.path), "--bankroll", "50", "--rounds",
                                   "100", "--paths", "500"])
    assert res.exit_code == 0, res.output
    assert "risk of ruin from 50 within 100 rounds" in res.stdout
    assert "bankroll for 1.00% risk" in res.stdout and "P(ahead)" in res.stdout


def test_live_exposure_fixed_stakes(ch_run):
    """M seats with stake 1 on one dealt round: live SD = M x SD per round, independent
    SD = sqrt(M) x SD, so the daily SD ratio is sqrt(M)."""
    values, counts = _total(ch_run)
    n = int(counts.sum())
    m = float((values * counts).sum()) / n
    sd = math.sqrt(float((values.astype(float) ** 2 * counts).sum()) / n - m * m)
    out = _risk(ch_run, "--rounds", "10", "--paths", "100", "--live-seats", "4",
                "--rounds-per-day", "50", "--stake-dist", "1:1")
    lv = out["live"]
    assert lv["live_round"]["sd"] == pytest.approx(4 * sd, rel=1e-9)
    assert lv["independent_round"]["sd"] == pytest.approx(2 * sd, rel=1e-9)
    assert lv["live_day"]["mean"] == pytest.approx(-4 * 50 * m, rel=1e-9)
    assert lv["daily_sd_ratio"] == pytest.approx(2.0, rel=1e-6)


def test_partial_run_uses_completed_chunks(ch_run, tmp_path):
    part = tmp_path / "partial"
    shutil.copytree(ch_run.path, part)
    mf = json.loads((part / "manifest.json").read_text())
    mf["chunks_done"] = mf["chunks_done"][:3]
    mf["status"] = "running"
    (part / "manifest.json").write_text(json.dumps(mf))
    res = CliRunner().invoke(app, ["risk", str(part), "--json", "--rounds", "20", "--paths",
                                   "200"])
    assert res.exit_code == 0, res.output
    assert "warning: run is unfinished (30,000 of 50,000 rounds)" in res.stderr
    out = json.loads(res.stdout)
    assert out["rounds_in_run"] == 30_000 and out["complete"] is False


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--bankroll", "0"], "--bankroll"),
        (["--bankroll", "-5"], "--bankroll"),
        (["--rounds", "0"], "--rounds"),
        (["--target-ror", "1.5"], "--target-ror"),
        (["--bet", "nope"], "--bet"),
        (["--live-seats", "0"], "--live-seats"),
        (["--live-seats", "2", "--stake-dist", "5:x"], "--stake-dist"),
    ],
)
def test_bad_input(ch_run, args, needle):
    res = CliRunner().invoke(app, ["risk", str(ch_run.path), "--paths", "50", "--rounds", "10",
                                   *args])
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and needle in lines[0] and "Traceback" not in res.output


def test_missing_run_folder(tmp_path):
    res = CliRunner().invoke(app, ["risk", str(tmp_path / "nope"), "--bankroll", "10"])
    assert res.exit_code == 2
    assert res.output.count("\n") == 1 and "not a gpusim run folder" in res.output
