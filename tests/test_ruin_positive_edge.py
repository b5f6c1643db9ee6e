"""Unlimited-horizon ruin of a positive-edge game whose banded system does not fit: a small mean
with a large largest win (a designer variant with a player advantage) falls back to the
Cramer-Lundberg bracket, which must contain the exact value, and every consumer of the risk
figures shows it as bounds instead of crashing."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

import gpusim
from gpusim.cli import app
from gpusim.report.build import build_report
from gpusim.report.render import render as render_report
from gpusim.stats import (
    NetDistribution,
    bankroll_for_risk,
    ruin_curve,
    ruin_probability,
    simulate_ruin,
)
from gpusim.stats import ruin as ruin_mod

# losses up to 12, wins up to 1108, mean 4 / 19909: psi needs about 8 million states with a
# 1120-wide band (about 70 GB), far over the cap
BIG = {-12: 5000, -2: 5000, 2: 5000, 12: 4908, 1108: 1}
# a similar shape with a larger edge and a smaller top win: the exact banded solve fits and is
# the reference
SMALL = {-12: 500, -2: 500, 2: 500, 12: 490, 300: 1}


def dist_of(steps: dict[int, int]) -> NetDistribution:
    xs = np.array(sorted(steps), dtype=np.int64)
    return NetDistribution.from_counts(xs, np.array([steps[x] for x in xs.tolist()]))


@pytest.fixture
def tiny_cap(monkeypatch):
    """A band cap so small that every positive-drift system takes the fallback."""
    monkeypatch.setattr(ruin_mod, "_MAX_BAND_BYTES", 1000)


def test_old_failure_path_now_gives_the_lundberg_bracket():
    d = dist_of(BIG)
    curve = ruin_curve(d, 2000, None)  # raised "too large" before
    assert curve.method == "lundberg"
    r = curve.lundberg
    assert 0 < r < 1e-4
    b = curve.bankrolls.astype(float)
    assert np.all(curve.low <= curve.high)
    np.testing.assert_allclose(curve.high, np.exp(-r * b), rtol=1e-9)
    np.testing.assert_allclose(curve.low, np.exp(-r * (b + 11)), rtol=1e-9)
    # ruin within N rounds is a lower bound of the unlimited one
    fin = ruin_curve(d, 300, 400)
    assert np.all(fin.high <= curve.high[:300] + 1e-12)
    lo, hi = ruin_probability(d, 1500, None)
    assert (lo, hi) == curve.at(1500)
    res = bankroll_for_risk(d, 0.01)
    assert res.method == "lundberg" and res.ruin_high <= 0.01
    assert res.bankroll - res.bankroll_optimistic <= 11
    assert res.bankroll == math.ceil(math.log(100) / r) or \
        abs(res.bankroll - math.log(100) / r) <= 1


def test_lundberg_bracket_contains_the_exact_solve(monkeypatch):
    d = dist_of(SMALL)
    exact = ruin_curve(d, 400, None)
    assert exact.method == "exact"
    need = bankroll_for_risk(d, 0.05)
    monkeypatch.setattr(ruin_mod, "_MAX_BAND_BYTES", 1000)
    bound = ruin_curve(d, 400, None)
    assert bound.method == "lundberg"
    assert np.all(bound.low <= exact.low + 1e-12) and np.all(exact.high <= bound.high + 1e-12)
    assert np.max(bound.high - bound.low) > 1e-4  # genuinely a bracket, not a point
    # the bankroll from the bounds: the exact smallest bankroll lies in its range
    b = bankroll_for_risk(d, 0.05)
    assert b.method == "lundberg"
    assert b.bankroll_optimistic <= need.bankroll <= b.bankroll


def test_bracket_against_closed_form_and_simulated_paths(tiny_cap):
    # +-1 walk (largest loss 1): the bracket closes on psi(B) = (q/p)^B
    curve = ruin_curve(dist_of({-1: 9, 1: 11}), 30, None)
    assert curve.method == "lundberg"
    for b in (1, 7, 30):
        lo, hi = curve.at(b)
        assert lo <= (9 / 11) ** b <= hi and hi - lo < 1e-11
    # losses up to 3 against 20 000 simulated paths of 3000 rounds (ruin after that is
    # negligible at this drift); Wilson 99.99 % interval, seed fixed
    d = dist_of({-3: 2, -1: 3, 0: 1, 2: 3, 5: 2})
    lo, hi = ruin_probability(d, 4, None)
    sim = simulate_ruin(d, 4, 3000, paths=20_000, seed=11, level=0.9999)
    assert sim.low <= hi and lo <= sim.high


def _positive_edge(monkeypatch):
    """The risk figures of any run read the per-round distribution from this synthetic
    positive-edge one."""
    from gpusim.run_figures import risk as risk_mod

    monkeypatch.setattr(risk_mod, "bet_distribution", lambda data, bet: dist_of(BIG))


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    return gpusim.simulate("casino_holdem", rounds=2_000, seed=3,
                           out=tmp_path_factory.mktemp("pos") / "r", strategy="basic",
                           chunk=2_000)


def test_report_and_risk_show_bounds(small_run, monkeypatch):
    _positive_edge(monkeypatch)
    rep = build_report(small_run, rounds=100, paths=200, exact="never")
    u = rep["risk"]["ruin"]["unlimited"]
    assert u["method"] == "lundberg" and u["low"] < u["high"] <= 1
    assert "Cramer-Lundberg bounds" in u["note"]
    rows = rep["risk"]["ruin"]["bankroll_for_risk_unlimited"]
    assert [x["target"] for x in rows] == [0.01, 0.05]
    assert all(x["method"] == "lundberg" and x["bankroll_low"] <= x["bankroll"] for x in rows)
    md = render_report(rep, "md")
    assert "(bounds)" in md and "bankroll for 1% risk, unlimited" in md
    assert "Cramer-Lundberg" in render_report(rep, "html")
    assert json.loads(render_report(rep, "json"))["risk"]["ruin"]["unlimited"]["method"] == \
        "lundberg"
    res = CliRunner().invoke(app, ["risk", str(small_run.path), "--rounds", "100",
                                   "--paths", "200"])
    assert res.exit_code == 0, res.output
    assert "risk of ruin, unlimited horizon: at most" in res.stdout
    assert "smallest sufficient bankroll is" in res.stdout


def test_nothing_computable_is_reported_not_raised(small_run, monkeypatch):
    from gpusim.run_figures import risk as risk_mod

    _positive_edge(monkeypatch)

    def fail(dist):
        raise ValueError("no root")

    monkeypatch.setattr(risk_mod, "lundberg_coefficient", fail)
    rep = build_report(small_run, rounds=100, paths=200, exact="never")
    u = rep["risk"]["ruin"]["unlimited"]
    assert u["low"] is None and u["high"] is None and u["note"] == "not computed: no root"
    assert rep["risk"]["ruin"]["bankroll_for_risk_unlimited"] == []
    assert "not computed" in render_report(rep, "md")
    assert "not computed" in render_report(rep, "html")
