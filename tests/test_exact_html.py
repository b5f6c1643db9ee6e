"""The exact report as an HTML page (``gpusim exact --html``): it parses strictly, shows every
bet and event, and draws the strategy chart the data's shape calls for (the hold'em grid, the
Three Card Poker play/fold boundary, the two-card grid, the up-card table, a plain table);
headless Chromium loads it without errors and every tagged number equals the embedded JSON.

CI installs Debian's chromium and sets GPUSIM_REQUIRE_BROWSER=1, so there a missing browser
fails the browser test instead of skipping it.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from gpusim.cli import app
from gpusim.report.browser import chromium_path, inspect_page
from gpusim.report.exact_html import render_exact_html, write_exact_html

SHIPPED = Path(__file__).resolve().parents[1] / "gpusim" / "data" / "exact"
RANKS_HIGH = "AKQJT98765432"


def _shipped(name: str) -> dict:
    return json.loads((SHIPPED / f"{name}.optimal.json").read_text())


# the shipped reports: tests/test_exact_truth.py re-solves them, so no solve is repeated here
@pytest.fixture(scope="module")
def tcp() -> dict:
    return _shipped("three_card_poker")


@pytest.fixture(scope="module")
def mississippi() -> dict:
    return _shipped("mississippi_stud")


def _parse(text: str):
    import html5lib  # the dev extra installs it

    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    doc = parser.parse(text)  # strict: raises on the first parse error
    assert not parser.errors
    return doc


def _chart(doc):
    charts = [e for e in doc.iter() if e.get("id") == "strategy-chart"]
    assert len(charts) == 1
    return charts[0]


def _text(e) -> str:
    return "".join(e.itertext())


def _check_page(rep: dict) -> tuple[object, str]:
    """The parsed page and its visible text, after the checks every report passes."""
    text = render_exact_html(rep)
    doc = _parse(text)
    body = _text(doc.find("body"))
    assert f"gpusim exact report: {rep['config']} ({rep['strategy']})" in doc.find(
        "head/title").text
    assert f"{rep['deals_counted']:,} deals counted" in body
    assert "house edge per ante" in body and "element of risk" in body
    for bet, table in rep["bets"].items():
        assert bet in body
        for e in table["events"]:
            assert e["event"] in body, (bet, e["event"])
    for point, acts in rep["decisions"].items():
        assert point in body and all(a in body for a in acts if a != "reached")
    embedded = next(e for e in doc.iter() if e.get("id") == "gpusim-report")
    assert json.loads(embedded.text)["bets"].keys() == rep["bets"].keys()
    assert "<script src" not in text and "http://" not in text and "https://" not in text
    return doc, body


@pytest.mark.parametrize("name", ["holdem_bonus", "ultimate_holdem"])
def test_holdem_preflop_grid(name):
    rep = _shipped(name)
    doc, _ = _check_page(rep)
    chart = _chart(doc)
    assert chart.get("data-chart") == "preflop-grid"
    rows = chart.findall(".//tr")
    assert len(rows) == 13
    grid = [[td.get("data-hand") for td in tr.findall("td")] for tr in rows]
    assert sum(h is not None for row in grid for h in row) == 169
    # pairs on the diagonal, suited above it, offsuit below
    assert [grid[i][i] for i in range(13)] == [r + r for r in RANKS_HIGH]
    assert grid[0][1] == "AKs" and grid[1][0] == "AKo" and grid[12][11] == "32o"
    cells = {td.get("data-hand"): td for tr in rows for td in tr.findall("td")}
    for hand, v in rep["preflop"].items():
        assert v["action"] in cells[hand].get("title"), hand
    colours = {v["action"]: cells[h].get("style") for h, v in rep["preflop"].items()}
    assert len(set(colours.values())) == len(colours)  # each action its own colour
    if name == "holdem_bonus":
        assert rep["preflop"]["72o"]["action"] == "fold"
        assert "-1." in _text(cells["72o"]) or "-0." in _text(cells["72o"])


def test_casino_holdem_call_grid_by_starting_hand():
    """Casino Hold'em decides on the flop: each starting hand's cell is its most common action,
    starred where its flops do not all take it."""
    rep = _shipped("casino_holdem")
    doc, _ = _check_page(rep)
    chart = _chart(doc)
    assert chart.get("data-chart") == "two-card-grid"
    cells = {td.get("data-hand"): td for td in chart.iter("td") if td.get("data-hand")}
    assert len(cells) == 169
    hands = {h["hand"]: h for h in rep["first_decision"]["hands"]}
    assert sum(h["deals"] for h in hands.values()) == rep["deals_counted"]
    assert hands["AA"]["share"]["call"] == 1.0 and "*" not in _text(cells["AA"])
    assert 0 < hands["72o"]["share"]["call"] < 0.5 and "*" in _text(cells["72o"])
    assert cells["72o"].get("title").startswith("72o: fold ")


def test_three_card_poker_boundary(tcp):
    doc, body = _check_page(tcp)
    chart = _chart(doc)
    assert chart.get("data-chart") == "three-card-boundary"
    cell = {(td.get("data-row"), td.get("data-col")): _text(td) for td in chart.iter("td")
            if td.get("data-row")}
    assert cell["Q", "6"] == "4"  # Q-6-4 plays, Q-6-3 folds
    assert cell["Q", "5"] == "-" and cell["J", "9"] == "-"
    assert cell["A", "3"] == "2" and cell["K", "3"] == "2"
    assert cell["5", "4"] == "3"  # 5-4-3, a straight, is the only one
    assert "Every pair, three of a kind and suited (s) hand takes play" in body
    assert "count" in [_text(th) for th in doc.iter("th")]  # the integer counts are shown


def test_mississippi_two_card_grid(mississippi):
    doc, _ = _check_page(mississippi)
    chart = _chart(doc)
    assert chart.get("data-chart") == "two-card-grid"
    rows = chart.findall(".//tr")
    cells = {td.get("data-hand"): (i, j, td) for i, tr in enumerate(rows)
             for j, td in enumerate(tr.findall("td")) if td.get("data-hand")}
    assert len(cells) == 169
    assert cells["AKs"][:2] == (0, 1) and cells["AK"][:2] == (1, 0)
    hands = {h["hand"]: h for h in mississippi["first_decision"]["hands"]}
    for hand, (_, _, td) in cells.items():
        taken = max(hands[hand]["share"], key=hands[hand]["share"].get)
        assert td.get("title").startswith(f"{hand}: {taken} "), hand
    assert "bet_3x" in cells["AA"][2].get("title") and "fold" in cells["72"][2].get("title")


def _synthetic(rows: list[dict], point: str = "raise") -> dict:
    """A small described-game report around a made-up ``first_decision``."""
    return {"format": "gpusim-exact/1", "game": "stud_like", "config": "stud_like",
            "strategy": "optimal", "deals_counted": 1000,
            "main": {"house_edge_per_ante": 0.05, "ante_rtp": 0.95, "element_of_risk": 0.02,
                     "total_bet_rtp": 0.98, "avg_total_wager": 2.5, "sd_per_round": 2.0},
            "bets": {"ante": {"rtp": 0.95, "events": [
                {"event": "fold", "pays": -1, "probability": 0.5, "return": -0.5, "count": 500},
                {"event": "win<&>", "pays": 1.5, "probability": 0.5, "return": 0.75,
                 "count": 500}], "hit_frequency": 0.5}},
            "decisions": {point: {"raise": 0.5, "fold": 0.5, "reached": 1.0}},
            "first_decision": {"point": point, "hands": rows}}


def test_up_card_table_from_synthetic_rows():
    hands = ["pair of As", "high card A-K", "high card A-Q"]
    share = {"pair of As": 1.0, "high card A-K": 0.25, "high card A-Q": 0.0}
    rows = [{"hand": h, "up": u, "deals": 10, "ev": {"fold": -1.0, "raise": 0.5},
             "share": {"fold": 1 - share[h], "raise": share[h]}}
            for h in reversed(hands) for u in "23456789TJQKA"]
    rows = rows[13:] + rows[:13]  # neither strongest nor weakest first
    rows[13 + 5]["share"] = {"fold": 1.0, "raise": 0.0}  # pair of As v 7 folds (made up)
    doc, body = _check_page(_synthetic(rows))
    assert "win<&>" in body  # escaped, and read back as written
    chart = _chart(doc)
    assert chart.get("data-chart") == "up-card-table"
    assert [_text(th) for th in chart.find(".//tr").findall("th")][1:] == list("23456789TJQKA")
    table = [[_text(c) for c in tr] for tr in chart.findall(".//tr")[1:]]
    assert [r[0] for r in table] == hands  # strongest first, whatever the report's order
    assert table[0][1:] == ["R"] * 5 + ["F"] + ["R"] * 7
    assert table[1][1:] == ["25%"] * 13 and table[2][1:] == ["F"] * 13
    styles = {td.get("style") for td in chart.iter("td")}
    assert len(styles) == 3  # raise, fold and one mixed share


def test_caribbean_stud_up_card_rows_strongest_first_and_folded():
    """The shipped report lists the hands by best EV, so the 59 high cards that always fold
    (one EV) come in string order; the chart reads strongest first and folds each run of hands
    that decide alike against every up card into one row."""
    rep = _shipped("caribbean_stud")
    doc, _ = _check_page(rep)
    chart = _chart(doc)
    assert chart.get("data-chart") == "up-card-table"
    rows = chart.findall(".//tr")[1:]
    heads = [_text(tr.find("th")) for tr in rows]
    assert heads == ["pair of 2s or better", "high card A-K", "high card below A-K"]
    spans = [tr.findall("td") for tr in rows]
    assert [len(tds) for tds in spans] == [1, 13, 1]
    assert _text(spans[0][0]) == "raise" and spans[0][0].get("colspan") == "13"
    assert _text(spans[2][0]) == "fold" and spans[2][0].get("colspan") == "13"
    # the folded rows name their hands, strongest first
    folded = spans[2][0].get("data-hands").split(", ")
    high = {h["hand"] for h in rep["first_decision"]["hands"]} - {"high card A-K"}
    assert set(folded) == {h for h in high if h.startswith("high card")}
    assert folded.index("high card A-Q") < folded.index("high card A-T") < folded.index(
        "high card K-Q") and folded[-1] == "high card 7-5"
    raising = spans[0][0].get("data-hands").split(", ")
    assert raising[0] == "royal flush" and raising[-1] == "pair of 2s"
    assert all(h["share"]["fold"] == 1 for h in rep["first_decision"]["hands"]
               if h["hand"] in folded)
    assert all(h["share"]["fold"] == 0 for h in rep["first_decision"]["hands"]
               if h["hand"] in raising)


def test_plain_table_strongest_first_with_runs_folded():
    """Let It Ride's first decision (pull or ride, three cards): a plain table, strongest
    first, each run of hands that always take one action one row."""
    rep = _shipped("let_it_ride")
    doc, _ = _check_page(rep)
    chart = _chart(doc)
    assert chart.get("data-chart") == "hand-table"
    rows = [[_text(td) for td in tr.findall("td")] for tr in chart.findall(".//tr")[1:]]
    hands = rep["first_decision"]["hands"]
    assert len(rows) < len(hands) / 10
    assert sum(int(r[1].replace(",", "")) for r in rows) == sum(h["deals"] for h in hands)
    taken = [r[-1].split(" ")[0] for r in rows]
    assert all(a != b for a, b in zip(taken, taken[1:], strict=False))  # runs are whole
    assert rows[0][0].endswith(" or better") and rows[-1][0].endswith(" or worse")
    names = [r[0] for r in rows]
    assert "AAA to 222" in names and "AAK to TT2" in names  # trips, the pairs that pay
    by_hand = {h["hand"]: h for h in hands}
    assert by_hand["TT2"]["share"]["ride"] == 1 and by_hand["A99"]["share"]["pull"] == 1


def test_other_hands_get_a_plain_table():
    rows = [{"hand": h, "deals": 4, "ev": {"pull": 0.1, "ride": r},
             "share": {"pull": float(r < 0.1), "ride": float(r >= 0.1)}}
            for h, r in (("AKQs", 2.0), ("QQ4", 0.4), ("732", -0.8))]
    doc, _ = _check_page(_synthetic(rows, point="first"))
    chart = _chart(doc)
    assert chart.get("data-chart") == "hand-table"
    taken = [_text(td) for td in chart.iter("td") if td.get("class") == "take"]
    # the two hands that always ride are one row, their EVs a range
    assert taken == ["+0.400 .. +2.000", "+0.100000"]
    names = [_text(tr.find("td")) for tr in chart.findall(".//tr")[1:]]
    assert names == ["QQ4 or better", "732"]


def test_cli_writes_the_html(tmp_path, tcp):
    out = tmp_path / "tcp.html"
    res = CliRunner().invoke(app, ["exact", "three_card_poker", "--html", str(out)])
    assert res.exit_code == 0, res.output
    assert f"wrote {out} (HTML report)" in res.output
    doc = _parse(out.read_text())
    assert _chart(doc).get("data-chart") == "three-card-boundary"
    assert not list(tmp_path.glob(".*.tmp"))


@pytest.mark.parametrize("name", ["report.htm", "nowhere/report.html"])
def test_cli_bad_html_path_is_one_line(tmp_path, name):
    out = tmp_path / name
    res = CliRunner().invoke(app, ["exact", "casino_holdem", "--html", str(out)])
    assert res.exit_code == 2, res.output
    text = res.stderr if res.stderr_bytes is not None else res.output
    lines = [ln for ln in text.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("gpusim: error: --html"), lines
    assert list(tmp_path.rglob("*")) == []


def test_pages_in_headless_chromium(tmp_path, tcp):
    if chromium_path() is None:
        if os.environ.get("GPUSIM_REQUIRE_BROWSER"):
            pytest.fail("chromium is required here (GPUSIM_REQUIRE_BROWSER) but not installed")
        pytest.skip("chromium not installed (Debian: apt-get install chromium)")
    import matplotlib.image

    for rep in (tcp, _shipped("ultimate_holdem")):
        res = inspect_page(write_exact_html(rep, tmp_path / f"{rep['config']}.html"))
        assert res["console_errors"] == []
        c = res["checks"]
        assert c["json_ok"] and c["title"].startswith(f"gpusim exact report: {rep['config']}")
        assert c["cells"] > 50 and c["cell_mismatches"] == []
        shot = matplotlib.image.imread(io.BytesIO(res["screenshot"]), format="png")
        assert shot.shape[:2] == (900, 1280)
        rgb = shot[..., :3]
        # the chart's colours reach the first screen: many pixels away from grey
        assert (rgb.max(axis=2) - rgb.min(axis=2) > 0.15).mean() > 0.02
        assert np.unique(rgb.mean(axis=2).round(2)).size > 20
