"""`gpusim certify`: the certification pack, read back as a test lab would read it.

For Casino Hold'em (a hold'em shape, solved by its shape's solver) and Three Card Poker (the
described games' one solver), each with a small run: every sheet is there; the combinations are
integers that add up to the deals counted; the max win of every bet equals a brute-force maximum
over the config's paytable and the game's stake multiples; the rules text names every bet and
paytable line of the config; the HTML pack opens in headless Chromium (its first screen is saved
where ``GPUSIM_SCREENSHOT_DIR`` points: docs/images/certify_pack_casino_holdem.png was taken
so).
"""

from __future__ import annotations

import io
import json
import os
import re
from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest
from typer.testing import CliRunner

from gpusim.cli import app
from gpusim.config import load_config, shipped_configs
from gpusim.games import bets as offered
from gpusim.games import spec_for
from gpusim.games.words import rules_in_words

runner = CliRunner()

GAMES = ("casino_holdem", "three_card_poker")


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    """A 20,000-round run of each game under its default strategy."""
    out = {}
    for config in GAMES:
        path = tmp_path_factory.mktemp("runs") / config
        res = runner.invoke(app, ["simulate", config, "--rounds", "20000", "--seed", "11",
                                  "--out", str(path), "--quiet"])
        assert res.exit_code == 0, res.output
        out[config] = path
    return out


@pytest.fixture(scope="module")
def packs(runs, tmp_path_factory) -> dict[str, Path]:
    out = {}
    for config in GAMES:
        path = tmp_path_factory.mktemp("packs") / f"{config}.xlsx"
        res = runner.invoke(app, ["certify", config, "--run", str(runs[config]), "--out",
                                  str(path), "--confidence", "0.99",
                                  "--randomness-rounds", "20000"])
        assert res.exit_code == 0, res.output
        out[config] = path
    return out


def _text(ws) -> str:
    return "\n".join(str(c) for row in ws.iter_rows(values_only=True) for c in row
                     if c is not None)


def _table(ws, name: str) -> list[dict]:
    t = ws.tables[name]
    rows = list(ws[t.ref])
    head = [c.value for c in rows[0]]
    return [dict(zip(head, (c.value for c in r), strict=True)) for r in rows[1:]]


@pytest.mark.parametrize("config", GAMES)
def test_every_sheet_is_there(packs, config):
    wb = openpyxl.load_workbook(packs[config])
    rules = load_config(config)
    bets = [f"bet {b}"[:31] for b in offered(rules)]
    expected = ["Cover", "Rules", "Paytables", "Bets", *bets, "Main", "Strategy",
                "Verification", "Randomness"]
    assert [s for s in wb.sheetnames if s in expected] == expected
    assert wb["Strategy"]._images, "the strategy chart is an image in the workbook"


@pytest.mark.parametrize("config", GAMES)
def test_combinations_are_integers_that_add_up_to_the_deals(packs, config):
    wb = openpyxl.load_workbook(packs[config])
    cover = dict(wb["Cover"].iter_rows(min_row=3, values_only=True))
    deals = cover["deals counted (exact)"]
    assert isinstance(deals, int) and deals > 10**8
    for bet in offered(load_config(config)):
        rows = _table(wb[f"bet {bet}"[:31]], f"t_{bet}_events")
        events, total = rows[:-1], rows[-1]
        assert all(isinstance(r["combinations"], int) for r in events), bet
        assert sum(r["combinations"] for r in events) == total["combinations"] == deals, bet


def _brute_force_max_win(rules, bet: str) -> Fraction:
    """The largest net win of ``bet`` in antes, from the config alone: the top pay of its
    paytable (a bet with none wins 1:1 against the dealer; a described bet with a bonus
    paytable wins 1:1 and its bonus together) times the largest multiple the decision tree
    places it at, times its stake over the ante."""
    spec = spec_for(rules)
    multiples = [a.stakes[bet] for p in spec.decisions for a in p.actions if bet in a.stakes]
    top = max(multiples) if multiples else spec.stake_multiples.get(bet, 1)
    raw = rules.to_dict()

    def table_max(table: str) -> Fraction:
        return max(Fraction(str(v).replace(":", "/")) for v in raw["paytables"][table].values())

    d = spec.game_def
    bd = next((b for b in d.bets if b.name == bet), None) if d is not None else None
    if bd is not None and bd.bonus:
        pay = 1 + table_max(bd.bonus)
    elif bet in spec.paytables:
        pay = table_max(spec.paytable_tables.get(bet, bet))
    else:
        pay = Fraction(1)
    stakes = raw["stakes"]
    side = Fraction(stakes.get(bet, 0), stakes[spec.base_bet]) if bet in spec.side_bets else 1
    return pay * top * side


@pytest.mark.parametrize("config", GAMES)
def test_max_win_is_the_brute_force_maximum(packs, config):
    """Per bet the largest win the paytable and stake multiples allow, with its combinations;
    per round (a royal flush pays every bet its top) their sum."""
    wb = openpyxl.load_workbook(packs[config])
    rules = load_config(config)
    bets = {r["bet"]: r for r in _table(wb["Bets"], "t_bets")}
    for bet in offered(rules):
        antes, _, deals = bets[bet]["max win (antes)"], None, bets[bet]["max win deals"]
        assert Fraction(str(antes)) == _brute_force_max_win(rules, bet), bet
        assert isinstance(deals, int) and deals > 0, bet
    main = {r["figure"]: r["value"] for r in _table(wb["Main"], "t_main_game_and_total")}
    assert Fraction(str(main["max win of a round (antes)"])) == sum(
        _brute_force_max_win(rules, b) for b in offered(rules))


@pytest.mark.parametrize("config", GAMES)
def test_rules_text_names_every_bet_and_line(packs, config):
    wb = openpyxl.load_workbook(packs[config])
    text = _text(wb["Rules"])
    rules = load_config(config)
    for bet in offered(rules):
        assert re.search(rf"\b{bet}\b", text), bet
    for table, lines in rules.to_dict().get("paytables", {}).items():
        assert table in text
        for line in lines:
            assert re.search(rf"\b{line}\b", text), (table, line)


@pytest.mark.parametrize("config", list(shipped_configs()))
def test_rules_in_words_for_every_shipped_config(config):
    """Every shipped config's words name each of its bets and paytable lines; a paytable line
    the words left out is caught."""
    rules = load_config(config)
    text = "\n".join(s for _, ss in rules_in_words(rules) for s in ss)
    for bet in offered(rules):
        assert re.search(rf"\b{bet}\b", text), bet
    spec = spec_for(rules)
    # the paytable of a bet the config does not offer (its stake 0) is written but not played
    unplayed = {spec.paytable_tables.get(b, b) for b in spec.bets if b not in offered(rules)}
    for table, lines in rules.to_dict().get("paytables", {}).items():
        if table in unplayed:
            assert not re.search(rf"\b{table}\b", text), table
            continue
        for line in lines:
            assert re.search(rf"\b{line}\b", text), (table, line)
        # a planted omission: the check above is not vacuous
        first = next(iter(lines))
        assert not re.search(rf"\b{first}\b", text.replace(first, "xx"))


@pytest.mark.parametrize("config", GAMES)
def test_verification_and_randomness_sheets(packs, config):
    wb = openpyxl.load_workbook(packs[config])
    rows = _table(wb["Verification"], "t_verification")
    assert {r["bet"] for r in rows} == set(offered(load_config(config)))
    for r in rows:
        assert r["rounds"] == 20000
        assert 0 <= r["p-value"] <= 1
        lo, hi = r["RTP 99 % CI low"], r["RTP 99 % CI high"]
        assert lo < r["RTP simulated"] < hi
    tests = _table(wb["Randomness"], "t_randomness_battery")
    assert len(tests) > 10 and all(0 <= t["p-value"] <= 1 for t in tests)
    cover = _text(wb["Cover"])
    assert "sound" in cover and "run manifest sha256" in cover


def test_bad_input_is_one_line_and_writes_nothing(tmp_path, runs):
    cases = [
        (["casino_holdem", "--out", str(tmp_path / "p.xlsx"), "--confidence", "1.5"],
         "--confidence"),
        (["casino_holdem", "--out", str(tmp_path / "p.pdf")], "--out"),
        (["casino_holdem", "--out", str(tmp_path / "p.xlsx"), "--format", "pdf"], "--format"),
        (["casino_holdem", "--out", str(tmp_path / "p.xlsx"), "--strategy", "nope"],
         "--strategy"),
        # a run of another game: its config hash is not this config's
        (["casino_holdem", "--out", str(tmp_path / "p.xlsx"), "--run",
          str(runs["three_card_poker"])], "--run"),
    ]
    for args, field in cases:
        res = runner.invoke(app, ["certify", *args])
        assert res.exit_code == 2, (args, res.output)
        text = res.stderr if res.stderr_bytes is not None else res.output
        lines = [ln for ln in text.splitlines() if ln.strip()]
        assert len(lines) == 1 and lines[0].startswith(f"gpusim: error: {field}"), lines
    assert list(tmp_path.iterdir()) == []


def test_html_pack_in_headless_chromium(tmp_path, runs):
    from gpusim.report.browser import chromium_path, inspect_page

    if chromium_path() is None:
        if os.environ.get("GPUSIM_REQUIRE_BROWSER"):
            pytest.fail("chromium is required here (GPUSIM_REQUIRE_BROWSER) but not installed")
        pytest.skip("chromium not installed (Debian: apt-get install chromium)")
    import matplotlib.image

    path = tmp_path / "casino_holdem.html"
    res = runner.invoke(app, ["certify", "casino_holdem", "--run", str(runs["casino_holdem"]),
                              "--out", str(path), "--format", "html",
                              "--randomness-rounds", "20000"])
    assert res.exit_code == 0, res.output
    page = inspect_page(path)
    assert page["console_errors"] == []
    c = page["checks"]
    assert c["json_ok"] and c["title"].startswith("Casino Hold'em: certification pack")
    assert c["cells"] >= 8 and c["cell_mismatches"] == []
    assert [i["decoded"] for i in c["images"]] == [True]
    assert c["images"][0]["colours"] > 4 and c["images"][0]["ink"] > 100
    shot = matplotlib.image.imread(io.BytesIO(page["screenshot"]), format="png")
    assert shot.shape[:2] == (900, 1280)
    embedded = json.loads(re.search(r'id="gpusim-report">(.*?)</script>', path.read_text(),
                                    re.S).group(1).replace("<\\/", "</"))
    # the AA Bonus also as if always settled (the exact report's extra row)
    assert set(embedded["bets"]) == {"ante", "call", "aa_bonus", "aa_bonus_always_settled"}
    if os.environ.get("GPUSIM_SCREENSHOT_DIR"):
        out = Path(os.environ["GPUSIM_SCREENSHOT_DIR"]) / "certify_pack_casino_holdem.png"
        out.write_bytes(page["screenshot"])
