"""A Run and its summary show their figures as tables in a notebook (``_repr_html_``) and as
aligned text (``repr``), and the summary stays the plain JSON-able dict it was."""

from __future__ import annotations

import json

import pytest

import gpusim
from gpusim.runs.run_api import Summary


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("repr") / "run"
    return gpusim.simulate("casino_holdem", rounds=2_000, seed=3, out=out, strategy="basic",
                           backend="jax-cpu")


def test_summary_is_the_same_dict(run):
    s = run.summary()
    assert isinstance(s, Summary) and isinstance(s, dict)
    assert json.loads(json.dumps(s)) == dict(s)
    assert json.loads((run.path / "summary.json").read_text())["bets"] == s["bets"]


def test_summary_tables_hold_the_figures(run):
    s = run.summary()
    text, page = repr(s), s._repr_html_()
    for shown in (text, page):
        assert f"{s['rounds']:,} rounds (complete)" in shown and "strategy basic" in shown
        for bet, f in s["bets"].items():
            assert bet in shown and f"{f['rtp']:.6f}" in shown and f"{f['wagered']:,}" in shown
        for name, value in s["main"].items():
            if isinstance(value, float):
                assert name in shown and f"{value:.6f}" in shown
        for point, shares in s["decisions"].items():
            assert all(f"{x:.6f}" in shown for x in shares.values()), point
        # what varies between runs of the same counts is not shown
        assert "rounds_per_s" not in shown and s["backend"] not in shown
    assert page.count("<table>") == 3 and "<th>rtp</th>" in page


def test_run_html_shows_its_summary(run):
    page = run._repr_html_()
    assert repr(run).replace("'", "&#x27;") in page
    assert run.summary()._repr_html_() in page


def test_partial_summary_says_so():
    s = Summary({"config": "c", "game": "g", "strategy": "basic", "seed": 1, "rounds": 10,
                 "rounds_planned": 40, "complete": False,
                 "bets": {"b": {"placed": 10, "wagered": 10, "returned": 9, "net": -1,
                                "rtp": 0.9, "rtp_ci95": [None, None]}}})
    assert "10 rounds (partial, of 40)" in repr(s)
    assert "0.900000" in s._repr_html_() and "[None, None]" in repr(s)
