"""`--confidence` of `gpusim summary` and `gpusim report`, and the library behind it
(gpusim.stats.z_of, normal_interval, ci_key, confidence_label): every interval is at the asked
level and says which; 95 % stays what it always was; a bad level is one line, exit code 2."""

from __future__ import annotations

import json
import math

import pytest
from scipy.stats import norm
from typer.testing import CliRunner

import gpusim
from gpusim.cli import app
from gpusim.stats import (
    Z90,
    Z95,
    check_confidence,
    ci_key,
    confidence_label,
    normal_interval,
    z_of,
)
from gpusim.stats.moments import z_two_sided

REPORT_ARGS = ["--exact", "never", "--paths", "500", "--rounds", "100", "--bankroll", "40"]


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("confidence") / "run"
    return gpusim.simulate("casino_holdem", rounds=20_000, seed=5, out=out, strategy="basic",
                           chunk=10_000, backend="jax-cpu")


def _summary(run, *args: str) -> dict:
    res = CliRunner().invoke(app, ["summary", str(run.path), "--json", *args])
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


# -- the library ----------------------------------------------------------------------------


@pytest.mark.parametrize("c", [0.5, 0.8, 0.9, 0.95, 0.975, 0.99, 0.999, 0.999999])
def test_z_of_is_the_two_sided_normal_quantile(c):
    assert z_of(c) == pytest.approx(float(norm.ppf(0.5 + c / 2)), rel=1e-15)
    # P(|Z| <= z) = c
    assert 2 * norm.cdf(z_of(c)) - 1 == pytest.approx(c, rel=1e-12)


def test_published_levels_are_exactly_scipys():
    """z_of answers 0.90 and 0.95 without importing scipy: the constants must be the very
    floats norm.ppf gives, or a default summary would depend on which path ran."""
    assert z_of(0.95) == Z95 == float(norm.ppf(0.975))
    assert z_of(0.90) == Z90 == float(norm.ppf(0.95))


@pytest.mark.parametrize("bad", [0, 1, 1.5, -0.1, math.nan, math.inf, True, "x", None])
def test_check_confidence_refuses(bad):
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        check_confidence(bad)
    with pytest.raises(ValueError):
        z_of(bad)


def test_names_and_interval():
    assert (ci_key(0.95), ci_key(0.99), ci_key(0.999), ci_key(0.9)) == (
        "ci95", "ci99", "ci99_9", "ci90")
    assert confidence_label(0.999) == "99.9 %" and confidence_label(0.95) == "95 %"
    lo, hi = normal_interval(2.0, 0.5, 0.99)
    assert (lo + hi) / 2 == pytest.approx(2.0) and (hi - lo) / 2 == pytest.approx(0.5 * z_of(0.99))
    with pytest.raises(ValueError):
        normal_interval(1.0, -1.0)


# -- gpusim summary -------------------------------------------------------------------------


def test_summary_99_is_wider_by_the_ratio_of_z(run):
    s95, s99 = _summary(run), _summary(run, "--confidence", "0.99")
    assert s95["confidence"] == 0.95 and s99["confidence"] == 0.99
    ratio = z_of(0.99) / z_of(0.95)
    assert 1.31 < ratio < 1.32
    for bet, b95 in s95["bets"].items():
        b99 = s99["bets"][bet]
        assert "rtp_ci95" not in b99 and "rtp_ci99" not in b95
        (lo95, hi95), (lo99, hi99) = b95["rtp_ci95"], b99["rtp_ci99"]
        assert hi95 > lo95, bet
        assert (hi99 - lo99) / (hi95 - lo95) == pytest.approx(ratio, rel=1e-9), bet
        assert (lo99 + hi99) / 2 == pytest.approx((lo95 + hi95) / 2, rel=1e-12), bet
        assert b99["rtp"] == b95["rtp"]
    m95, m99 = s95["main"], s99["main"]
    w = [m["house_edge_per_ante_" + k][1] - m["house_edge_per_ante_" + k][0]
         for m, k in ((m95, "ci95"), (m99, "ci99"))]
    assert w[1] / w[0] == pytest.approx(ratio, rel=1e-9)
    assert m99["total_bet_rtp_ci99"] == s99["bets"]["main"]["rtp_ci99"]


def test_summary_default_is_the_95_interval(run):
    """No option and --confidence 0.95 give the same summary, and it is what the run itself
    wrote at its end (its summary.json)."""
    s = _summary(run)
    assert s == _summary(run, "--confidence", "0.95")
    written = json.loads((run.path / "summary.json").read_text())
    assert written["bets"] == s["bets"] and written["main"] == s["main"]


def test_summary_text_names_the_level(run):
    res = CliRunner().invoke(app, ["summary", str(run.path), "--confidence", "0.99"])
    assert res.exit_code == 0 and "99 % CI" in res.output and "95 %" not in res.output
    res = CliRunner().invoke(app, ["summary", str(run.path)])
    assert res.exit_code == 0 and "95 % CI" in res.output


def test_summary_repr_names_the_level(run):
    s = run.summary(0.999)
    assert "99.9 % confidence interval" in repr(s) and "rtp_ci99_9" in repr(s)


@pytest.mark.parametrize("bad", ["1.5", "0", "1", "-0.2", "nan"])
def test_summary_bad_confidence_one_line_exit_2(run, bad):
    res = CliRunner().invoke(app, ["summary", str(run.path), "--confidence", bad])
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "--confidence" in lines[0] and "between 0 and 1" in lines[0]


# -- gpusim report --------------------------------------------------------------------------


def _report(run, out, *args: str) -> None:
    res = CliRunner().invoke(app, ["report", str(run.path), "--out", str(out), *REPORT_ARGS,
                                   *args])
    assert res.exit_code == 0, res.output


def test_report_json_every_interval_at_the_level(run, tmp_path):
    _report(run, tmp_path / "r95.json")
    _report(run, tmp_path / "r99.json", "--confidence", "0.99")
    r95 = json.loads((tmp_path / "r95.json").read_text())
    r99 = json.loads((tmp_path / "r99.json").read_text())
    assert (r95["confidence"], r99["confidence"]) == (0.95, 0.99)
    ratio = z_of(0.99) / z_of(0.95)
    a, b = r95["summary"]["bets"]["main"]["rtp_ci95"], r99["summary"]["bets"]["main"]["rtp_ci99"]
    assert (b[1] - b[0]) / (a[1] - a[0]) == pytest.approx(ratio, rel=1e-9)
    # the hold after N rounds: the volatility section's own z (z_two_sided)
    h95, h99 = r95["volatility"]["hold_ci95"]["main"], r99["volatility"]["hold_ci99"]["main"]
    assert "hold_ci95" not in r99["volatility"]
    hold_ratio = z_two_sided(0.99) / z_two_sided(0.95)
    for x, y in zip(h95, h99, strict=True):
        assert (y["high"] - y["low"]) / (x["high"] - x["low"]) == pytest.approx(hold_ratio)
    # the convergence funnel's per-round SD does not depend on the level it came back from
    c95, c99 = r95["convergence"], r99["convergence"]
    assert (c95["confidence"], c99["confidence"]) == (0.95, 0.99)
    assert c99["sd_per_sqrt_round"] == pytest.approx(c95["sd_per_sqrt_round"], rel=1e-9)
    # the simulated ruin check keeps gpusim risk's 99 % unless a level is asked for
    assert r95["risk"]["ruin"]["simulated"]["level"] == 0.99
    assert r99["risk"]["ruin"]["simulated"]["level"] == 0.99


def test_report_html_and_markdown_name_the_level(run, tmp_path):
    _report(run, tmp_path / "r.md", "--confidence", "0.9")
    md = (tmp_path / "r.md").read_text()
    assert "90 % CI of the hold" in md and "95 % CI" not in md
    assert "simulated paths, 90 % interval" in md  # an asked level reaches the ruin check too
    _report(run, tmp_path / "r.html", "--confidence", "0.999")
    html = (tmp_path / "r.html").read_text()
    assert "99.9 % CI +-" in html and "99.9 % CI of the hold" in html
    assert "95 % CI" not in html and "volatility.hold_ci99_9.main" in html


@pytest.mark.parametrize("bad", ["1.5", "0"])
def test_report_bad_confidence_one_line_exit_2(run, tmp_path, bad):
    out = tmp_path / "r.html"
    res = CliRunner().invoke(app, ["report", str(run.path), "--out", str(out), *REPORT_ARGS,
                                   "--confidence", bad])
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "--confidence" in lines[0], res.output
    assert not out.exists()
