"""Texas Hold'em Bonus's description (configs/holdem_bonus.toml) solved by the hold'em street-bets
engine (gpusim/games/holdem/streets*.py): the numbers the engine reads of each config are the
ones the rules' text gives (tests/thb_reference.py reads them from the TOML), its side bets'
exact odds are the ones counted here deal by deal, and its designer finds candidates priced
by them; from counts enumerated again in an empty cache, each config's decision tables equal
the shipped tables bit for bit (solved by the hand-written game until it became a description)
and its exact reports equal the shipped ones. The re-solves are marked slow (a minute or more
each on two cores; run with ``-m slow``)."""

from __future__ import annotations

import itertools
import tomllib
from fractions import Fraction
from pathlib import Path

import _described_exact
import pytest
from _described_exact import assert_report_is_the_shipped, assert_tables_are_the_shipped
from thb_reference import BONUS_LINE_CLASSES, thb_terms

from gpusim.cards import CATEGORY_KEYS
from gpusim.config import load_config
from gpusim.games import spec_for

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = ("holdem_bonus", "holdem_bonus_classic")
"""The shipped configs of the game."""
FIVE_CARD_HANDS = {"high_card": 1302540, "pair": 1098240, "two_pair": 123552,
                   "three_of_a_kind": 54912, "straight": 10200, "flush": 5108,
                   "full_house": 3744, "four_of_a_kind": 624, "straight_flush": 36,
                   "royal_flush": 4}
"""Five-card poker hands of each category among the C(52,5) (the textbook counts)."""


fresh = _described_exact.fresh  # the fixture: a module's empty exact cache


def test_the_description_is_of_the_street_bets_shape():
    rules = load_config("holdem_bonus")
    spec = spec_for(rules)
    assert spec.exact_solver == "gpusim.games.holdem.streets_described:SOLVER"
    assert spec.table_strategies == ("optimal", "win-over-half-ev")
    names = [s.name for s in spec.strategies]
    assert len(names) == len(set(names))
    assert {"optimal", "win-over-half-ev", "win-over-lose", "win-over-half"} <= set(names)
    assert spec.forfeited_by_fold(rules) == spec.forfeited_by_fold(
        load_config("holdem_bonus_classic")) == ()


def _expected_prices(rules):
    """The street-bets engine's numbers of a config as the hand-written game priced it, read
    from the config's TOML alone: the Ante's lowest paid category, the Bonus's lines (their
    starting-hand classes) with AA against the dealer's AA a line of its own only where it pays
    more than AA, and the Jackpot's "X for 1" prizes, meter and stake."""
    from gpusim.games.holdem.streets import StreetPrices

    terms = thb_terms(rules)
    doc = tomllib.loads(Path(rules.source).read_text(encoding="utf-8"))
    ante = Fraction(terms.stakes.ante)
    extra: dict = {}
    if terms.bonus_paytable is not None:
        pt = terms.bonus_paytable
        vs = pt.get("AA_vs_dealer_AA", pt["AA"])
        extra.update(bonus="bonus", bonus_unit=terms.stakes["bonus"] / ante,
                     bonus_lines=tuple((ln, pt[ln], tuple(sorted(cs)))
                                       for ln, cs in BONUS_LINE_CLASSES.items()),
                     bonus_vs_aces=("AA_vs_dealer_AA", vs) if vs != pt["AA"] else None)
    if terms.jackpot is not None:
        stake = terms.stakes["jackpot"]
        extra.update(jackpot="jackpot",
                     jackpot_prizes=tuple(terms.jackpot.prizes.items()),
                     jackpot_contribution=Fraction(doc["jackpot"]["contribution_bp"], 10_000),
                     jackpot_reset=doc["jackpot"]["reset"], jackpot_stake=stake,
                     jackpot_unit=stake / ante, jackpot_cards=terms.jackpot.cards)
    return StreetPrices(game="holdem_bonus", config=rules.name,
                        ante_pays_from=terms.ante_pays_from, **extra)


@pytest.mark.parametrize("name", CONFIGS)
def test_the_numbers_are_the_rules_text(name):
    from dataclasses import replace

    from gpusim.games.holdem.streets_shape import prices_of

    rules = load_config(name)
    got = prices_of(rules)
    # a line's classes in any order (they are summed)
    got = replace(got, bonus_lines=tuple((ln, x, tuple(sorted(cs)))
                                         for ln, x, cs in got.bonus_lines))
    assert got == _expected_prices(rules), name
    assert (got.bonus_vs_aces is None) == (name == "holdem_bonus_classic")


def _bonus_odds() -> dict[str, Fraction]:
    """{Bonus event: probability} counted deal by deal: every player hole (its class), and for
    the player's aces every dealer hole of the 50 cards left (the dealer's aces)."""
    ranks = "23456789TJQKA"
    classes = {c for cs in BONUS_LINE_CLASSES.values() for c in cs}
    n: dict[str, int] = {}
    for a, b in itertools.combinations(range(52), 2):
        hi, lo = sorted((a >> 2, b >> 2), reverse=True)
        cls = ranks[hi] * 2 if hi == lo else ranks[hi] + ranks[lo] + "so"[a & 3 != b & 3]
        if cls == "AA":
            rest = [c for c in range(52) if c not in (a, b)]
            aces = sum(c >> 2 == d >> 2 == 12 for c, d in itertools.combinations(rest, 2))
            n["AA_vs_AA"] = n.get("AA_vs_AA", 0) + aces
            n["AA"] = n.get("AA", 0) + 1225 - aces
        else:
            key = cls if cls in classes else "other"
            n[key] = n.get(key, 0) + 1225
    total = 1326 * 1225
    assert sum(n.values()) == total
    return {e: Fraction(k, total) for e, k in n.items()}


def test_the_side_bets_odds_are_the_ones_counted_deal_by_deal():
    bonus = _bonus_odds()
    jackpot = {c: Fraction(FIVE_CARD_HANDS[c], 2_598_960) for c in CATEGORY_KEYS}
    assert sum(FIVE_CARD_HANDS.values()) == 2_598_960
    for name in CONFIGS:
        rules = load_config(name)
        want = {"bonus": bonus} | ({"jackpot": jackpot} if name == "holdem_bonus" else {})
        assert spec_for(rules).side_bet_exact(rules) == want, name
        assert sorted(spec_for(rules).designs) == ["bonus", "jackpot"]


def test_the_designer_prices_the_side_bets_by_those_odds():
    """Each candidate's RTP is its paytable priced by the odds above: the Bonus's X:1 lines
    (AA against the dealer's AA by its own line), the Jackpot's "X for 1" prizes plus the
    meter's long run (every contribution paid back, and the reset)."""
    from gpusim.designer import search

    rules = load_config("holdem_bonus")
    odds = _bonus_odds()
    line_of = {c: ln for ln, cs in BONUS_LINE_CLASSES.items() for c in cs}
    res = search(rules, "bonus", rtp="0.92:0.95", lines=["AKs=20:30", "TT_to_22=2:5"], top=3)
    assert res.table.height == 3
    for row in res.table.iter_rows(named=True):
        want = odds["AA_vs_AA"] * (1 + row["AA_vs_dealer_AA"]) + sum(
            p * (1 + row[line_of[e]]) for e, p in odds.items() if e in line_of)
        assert Fraction(row["rtp_exact"]) == want, row
    jp = rules.meter
    res = search(rules, "jackpot", rtp="0.75:0.9", lines=["flush=20:30", "straight=5:12"], top=3)
    assert res.table.height == 3
    for row in res.table.iter_rows(named=True):
        fixed = sum(Fraction(FIVE_CARD_HANDS[ln] * row[ln], 2_598_960)
                    for ln, _ in jp.prizes.lines)
        royal = Fraction(FIVE_CARD_HANDS["royal_flush"], 2_598_960)
        stake = rules.stakes.as_dict()["jackpot"]
        want = fixed + Fraction(jp.contribution_bp, 10_000) + royal * Fraction(jp.reset, stake)
        assert Fraction(row["rtp_exact"]) == want, row


def test_other_shapes_are_refused_in_one_line():
    from gpusim.games.holdem.streets_shape import street_tree_of

    for name in ("ultimate_holdem", "casino_holdem"):
        with pytest.raises(ValueError, match="street-bets solver") as e:
            street_tree_of(load_config(name).game_def)
        assert "\n" not in str(e.value)


def test_ante_pays_the_solver_cannot_count_are_refused_in_one_line(tmp_path):
    """An Ante paying 2:1 on a flush is a config the simulator plays, but no threshold the
    street-bets solver counts: ``gpusim exact`` and the ``optimal`` it would solve refuse it in
    one line (exit 2), naming the paytable; a threshold it counts is priced."""
    from typer.testing import CliRunner

    from gpusim.cli import app

    for args in (["exact", "holdem_bonus", "--set", "ante.flush=2"],
                 ["exact", "holdem_bonus", "--set", "ante.flush=0"]):  # a gap: no threshold
        res = CliRunner().invoke(app, args)
        assert res.exit_code == 2, res.output
        lines = [ln for ln in res.output.splitlines() if ln.strip()]
        assert len(lines) == 1 and "paytables.ante: expected 1 from a category up" in lines[0]
        assert "Traceback" not in res.output
    text = (ROOT / "configs" / "holdem_bonus.toml").read_text()
    assert text.count("\nflush = 1\n") == 1
    path = tmp_path / "flush2.toml"
    path.write_text(text.replace("\nflush = 1\n", "\nflush = 2\n"))
    res = CliRunner().invoke(app, ["simulate", str(path), "--rounds", "1000",
                                   "--out", str(tmp_path / "run")])
    assert res.exit_code == 2 and "paytables.ante" in res.output, res.output
    assert not (tmp_path / "run").exists()  # nothing half-done


@pytest.mark.slow
@pytest.mark.parametrize("name", CONFIGS)
def test_decision_tables_equal_the_shipped_ones(fresh, name):
    fresh(name, "optimal")  # the counts, enumerated once in the fresh cache
    assert_tables_are_the_shipped(name)  # solved from the counts, never read from the shipped


@pytest.mark.slow
@pytest.mark.parametrize("name", CONFIGS)
def test_exact_report_equals_the_shipped_one(fresh, name):
    assert_report_is_the_shipped(name, fresh(name, "optimal"))
