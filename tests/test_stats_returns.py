"""Return tables, exact comparison and what-if paytables, against the published RTPs."""

import math
from fractions import Fraction

import pytest

from gpusim.stats import compare_with_exact, paytable_rtp, return_table, solve_pay

# Texas Hold'em Bonus "Bonus" bet counted over ordered (player hole, dealer hole) pairs,
# 1326 * 1225 = 1,624,350, from hole-card combinatorics: AA 6 combos (dealer also AA: the one
# remaining ace pair of 1225), AKs 4, AQs+AJs 8, AKo 12, KK+QQ+JJ 18, AQo+AJo 24, 22-TT 54,
# the other 1200 combos lose.
BONUS_COUNTS = {
    "AA vs AA": 6 * 1,
    "AA": 6 * 1224,
    "AKs": 4 * 1225,
    "AQs/AJs": 8 * 1225,
    "AKo": 12 * 1225,
    "KK-JJ": 18 * 1225,
    "AQo/AJo": 24 * 1225,
    "22-TT": 54 * 1225,
    "lose": 1200 * 1225,
}
SEED001_PAYS = {"AA vs AA": 1000, "AA": 30, "AKs": 25, "AQs/AJs": 20, "AKo": 15, "KK-JJ": 10,
                "AQo/AJo": 5, "22-TT": 3, "lose": -1}
SEED000_PAYS = SEED001_PAYS | {"AA vs AA": 30}   # no AA-vs-AA line: it pays as AA


def test_bonus_counts_total():
    assert sum(BONUS_COUNTS.values()) == 1326 * 1225


def test_published_bonus_rtps():
    # published: the Icelandic rules' Bonus RTP 91.46 %, the Swedish rules Bonus RTP 91.10 %
    r001 = paytable_rtp(BONUS_COUNTS, SEED001_PAYS)
    r000 = paytable_rtp(BONUS_COUNTS, SEED000_PAYS)
    assert round(float(r001) * 100, 2) == 91.46
    assert round(float(r000) * 100, 2) == 91.10
    # hand-worked exact value: net -138,730 per 1,624,350 rounds
    assert r001 == 1 - Fraction(138730, 1624350)


def test_return_table_rows():
    t = return_table(BONUS_COUNTS, SEED001_PAYS, bet="bonus")
    assert t.rounds == 1624350 and t.bet == "bonus"
    assert [r.event for r in t.rows] == list(SEED001_PAYS)
    assert sum(r.probability for r in t.rows) == 1
    assert t.rtp == paytable_rtp(BONUS_COUNTS, SEED001_PAYS)
    assert t.expected_net == t.rtp - 1 and t.wagered_per_round == 1
    aa = t.rows[1]
    assert aa.probability == Fraction(7344, 1624350) and aa.ret == aa.probability * 30
    recs = t.to_records()
    assert recs[-1]["event"] == "total"
    assert math.isclose(recs[-1]["return"], float(t.rtp - 1))


def test_return_table_with_stakes_optional_bet():
    # Flop bet (2 units) is not placed on a fold: stake 0 there. Hand-worked:
    # RTP = 1 + (2*40 - 2*25) / (2 * 70) = 1 + 30/140
    counts = {"fold": 30, "win": 40, "lose": 25, "push": 5}
    pays = {"fold": 0, "win": 1, "lose": -1, "push": 0}
    stakes = {"fold": 0, "win": 2, "lose": 2, "push": 2}
    t = return_table(counts, pays, stakes=stakes)
    assert t.rtp == 1 + Fraction(30, 140)
    assert t.wagered_per_round == Fraction(140, 100)


def test_compare_with_exact_hand_worked():
    # exact: win 1/4 (pays 3:1), lose 3/4: RTP exactly 1. Simulated 30 wins of 100.
    cmp = compare_with_exact({"win": 30, "lose": 70}, {"win": 1, "lose": 3},
                             {"win": 3, "lose": -1})
    z = 5 / math.sqrt(100 * 0.25 * 0.75)
    assert cmp.events[0].z == pytest.approx(z) and cmp.events[1].z == pytest.approx(-z)
    assert cmp.rtp_exact == 1 and cmp.rtp_sim == Fraction(120, 100)
    # net per round under exact: mean 0, variance 1/4*9 + 3/4*1 = 3; sum of nets = 20
    assert cmp.z_rtp == pytest.approx(20 / math.sqrt(100 * 3))
    assert cmp.chi2 == pytest.approx(1 + 1 / 3) and cmp.dof == 1


def test_compare_with_exact_bonus_counts_give_zero_z():
    cmp = compare_with_exact({k: 3 * v for k, v in BONUS_COUNTS.items()}, BONUS_COUNTS,
                             SEED001_PAYS)
    assert all(e.z == 0 for e in cmp.events) and cmp.z_rtp == 0 and cmp.chi2 == 0


def test_solve_pay_exact_and_nearest():
    # solving the AA-vs-AA line for the Icelandic rules' own RTP gives back 1000 exactly
    s = solve_pay(BONUS_COUNTS, SEED001_PAYS, "AA vs AA", paytable_rtp(BONUS_COUNTS,
                                                                       SEED001_PAYS))
    assert s.exact == 1000 and s.is_integer and s.nearest_pay == 1000
    # target 92 %: other lines net -144,730; 6 x = -0.08 * 1,624,350 + 144,730 = 14,782
    s = solve_pay(BONUS_COUNTS, SEED001_PAYS, "AA vs AA", 0.92)
    assert s.exact == Fraction(14782, 6) and not s.is_integer
    assert (s.lower_pay, s.upper_pay, s.nearest_pay) == (2463, 2464, 2464)
    assert s.upper_rtp == 1 + Fraction(6 * 2464 - 144730, 1624350)
    assert s.lower_rtp < Fraction(92, 100) < s.upper_rtp


@pytest.mark.parametrize("call, msg", [
    (lambda: paytable_rtp({"x": 1}, {"y": 1}), "event 'x' has no pay"),
    (lambda: solve_pay(BONUS_COUNTS, SEED001_PAYS, "AAA", 0.9), "line 'AAA' is not in"),
    (lambda: solve_pay({"a": 0, "b": 5}, {"a": 2, "b": -1}, "a", 0.9), "never hit"),
    (lambda: return_table({"a": -1}, {"a": 1}), "must be an integer >= 0"),
    (lambda: paytable_rtp({"a": 1}, {"a": "x"}), "pays of 'a' must be a number"),
])
def test_bad_input(call, msg):
    with pytest.raises(ValueError, match=msg):
        call()
