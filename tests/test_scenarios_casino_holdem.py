"""Hand-built Casino Hold'em rounds with every bet's net worked out by hand (the rules' paytables).

Layout of a scenario: "player | dealer | flop turn river". Stakes are 1 unit (Call 2) unless
noted. ``casino_holdem`` = the Norwegian rules (AA Bonus 25 for flush or better, 7 for a pair of
aces up to a straight, a fold forfeits the AA Bonus); ``casino_holdem_evolution`` = AA Bonus
100/50/40/30/20/7, AA Bonus settled after a fold.
"""


import numpy as np
import pytest
from _variants import variant

from gpusim.cards import parse_cards
from gpusim.config import load_config
from gpusim.games import bets, settle

SEED002 = load_config("casino_holdem")
EVO = load_config("casino_holdem_evolution")


def _round(text: str) -> list[int]:
    player, dealer, board = (parse_cards(p) for p in text.split("|"))
    assert len(player) == 2 and len(dealer) == 2 and len(board) == 5
    cards = player + dealer + board
    assert len(set(cards)) == 9, text
    return cards


def check(rules, text, call, expected):
    """expected: {bet: (net, event)} for every placed bet; the rest must be absent (stake 0)."""
    cards = np.asarray([_round(text)], dtype=np.int32)
    s = settle(cards, {"call": np.asarray([call])}, rules)
    got = {}
    for bet in bets(rules):
        stake = int(s.stakes[bet][0])
        net = int(s.nets[bet][0])
        if stake == 0:
            assert net == 0, (bet, text)
            continue
        got[bet] = (net, s.event_names[bet][int(s.events[bet][0])])
    assert got == expected, text


# Each row: rules, cards, call?, {bet: (net, event)}; the arithmetic is in the comment above it.
SCENARIOS = [
    # --- the dealer does not qualify (needs a pair of fours or better): Ante per paytable,
    # Call pushes. One row per Ante paytable line.
    # Dealer 7 2 Q 9 5 3 8: no pair, no straight. Player A-high: straight or less 1:1 -> +1.
    # AA Bonus Ah Kd Qs 9h 5c: high card, loses -> -1.
    (SEED002, "Ah Kd | 7c 2d | Qs 9h 5c 3s 8d", True,
     {"ante": (1, "dealer_not_qualified:high_card"), "call": (0, "dealer_not_qualified"),
      "aa_bonus": (-1, "high_card")}),
    # Dealer pair of threes: below fours, does not qualify -> Ante +1, Call push.
    (SEED002, "Ah Kd | 3c 3d | Qs 9h 5c 7s Jd", True,
     {"ante": (1, "dealer_not_qualified:high_card"), "call": (0, "dealer_not_qualified"),
      "aa_bonus": (-1, "high_card")}),
    # Dealer A-K high beats the player's Q-high but does not qualify: Ante still paid 1:1.
    (SEED002, "Qc 8d | Ah Kd | Js 9h 5c 3s 2d", True,
     {"ante": (1, "dealer_not_qualified:high_card"), "call": (0, "dealer_not_qualified"),
      "aa_bonus": (-1, "high_card")}),
    # Player pair of kings; dealer 5 6 2 7 9 J 3 no pair/straight. Ante 1:1 -> +1.
    # AA Bonus Kh Kd 2c 7s 9d: a pair below aces loses -> -1.
    (SEED002, "Kh Kd | 5c 6c | 2c 7s 9d Jh 3s", True,
     {"ante": (1, "dealer_not_qualified:pair"), "call": (0, "dealer_not_qualified"),
      "aa_bonus": (-1, "pair_below_aces")}),
    # Player straight 9-K: straight or less 1:1 -> +1. AA Bonus 9 T J Q 2: high card -> -1.
    (SEED002, "9c Td | 5s 7c | Jh Qs 2c 3d Kh", True,
     {"ante": (1, "dealer_not_qualified:straight"), "call": (0, "dealer_not_qualified"),
      "aa_bonus": (-1, "high_card")}),
    # Player flush (A K 9 5 2 hearts): 2:1 -> +2. AA Bonus: five hearts, flush 25:1 -> +25.
    (SEED002, "Ah 9h | 3c 7s | 2h 5h Kh 8c Jd", True,
     {"ante": (2, "dealer_not_qualified:flush"), "call": (0, "dealer_not_qualified"),
      "aa_bonus": (25, "flush")}),
    # Player KKK22 full house; dealer has only the board's pair of deuces. Ante 3:1 -> +3.
    # AA Bonus Ks Kd Kh 2c 2d: full house 25:1 -> +25.
    (SEED002, "Ks Kd | 5c 3h | Kh 2c 2d 7s 9c", True,
     {"ante": (3, "dealer_not_qualified:full_house"), "call": (0, "dealer_not_qualified"),
      "aa_bonus": (25, "full_house")}),
    # Player four deuces; dealer pair of deuces. Ante 10:1 -> +10; AA Bonus quads -> +25.
    (SEED002, "2h 2s | 5c 3h | 2c 2d Kh 7s 9c", True,
     {"ante": (10, "dealer_not_qualified:four_of_a_kind"),
      "call": (0, "dealer_not_qualified"), "aa_bonus": (25, "four_of_a_kind")}),
    # Player 6-T of hearts; dealer K 4 8 9 T 2 3 no pair. Ante 20:1 -> +20; AA Bonus SF -> +25.
    (SEED002, "6h 7h | Ks 4c | 8h 9h Th 2c 3d", True,
     {"ante": (20, "dealer_not_qualified:straight_flush"),
      "call": (0, "dealer_not_qualified"), "aa_bonus": (25, "straight_flush")}),
    # Player royal flush; dealer 7 5 Q J T 2 4 nothing. Ante 100:1 -> +100; AA Bonus -> +25.
    (SEED002, "Ah Kh | 7s 5c | Qh Jh Th 2c 4d", True,
     {"ante": (100, "dealer_not_qualified:royal_flush"),
      "call": (0, "dealer_not_qualified"), "aa_bonus": (25, "royal_flush")}),
    # --- the dealer qualifies and the player wins: Ante per paytable, Call 1:1 (+2).
    # Dealer pair of fours exactly qualifies and beats A-high: Ante -1, Call -2.
    (SEED002, "Ah Kd | 4c 4d | Qs 9h 5c 7s Jd", True,
     {"ante": (-1, "loss"), "call": (-2, "loss"), "aa_bonus": (-1, "high_card")}),
    # Player AAKK8 vs dealer QQ: Ante 1:1 +1, Call +2. AA Bonus Ac Kd As Kc 5h two pair 7:1.
    (SEED002, "Ac Kd | Qs Qh | As Kc 5h 8d 2s", True,
     {"ante": (1, "win:two_pair"), "call": (2, "win"), "aa_bonus": (7, "two_pair")}),
    # Dealer 3322 9 (two pair from the board) qualifies; player 3322 A wins on the kicker.
    # AA Bonus Ah Kd 2c 2d 3h: a pair of deuces loses -> -1.
    (SEED002, "Ah Kd | 5h 6d | 2c 2d 3h 3s 9c", True,
     {"ante": (1, "win:two_pair"), "call": (2, "win"), "aa_bonus": (-1, "pair_below_aces")}),
    # Player AAKJ9 beats dealer AAJ96 on the king (aces from the board).
    # AA Bonus Kc 7h As Ad 2c: pair of aces 7:1 -> +7.
    (SEED002, "Kc 7h | 5d 6d | As Ad 2c 9s Jh", True,
     {"ante": (1, "win:pair"), "call": (2, "win"), "aa_bonus": (7, "pair_of_aces")}),
    # Player straight 7-J vs dealer pair of jacks: Ante +1, Call +2.
    # AA Bonus 8c 7d 9s Th Jc: a straight already on the flop, 7:1 -> +7.
    (SEED002, "8c 7d | Jh 3s | 9s Th Jc 2d 4h", True,
     {"ante": (1, "win:straight"), "call": (2, "win"), "aa_bonus": (7, "straight")}),
    # Wheel A-5 beats dealer KK: Ante +1, Call +2; AA Bonus Ac 2d 3h 4s 5c straight -> +7.
    (SEED002, "Ac 2d | Kh Ks | 3h 4s 5c 9d Qd", True,
     {"ante": (1, "win:straight"), "call": (2, "win"), "aa_bonus": (7, "straight")}),
    # Player flush beats dealer trip kings: Ante 2:1 +2, Call +2, AA Bonus flush +25.
    (SEED002, "Ah 9h | Kc Kd | 2h 5h Th Ks 3c", True,
     {"ante": (2, "win:flush"), "call": (2, "win"), "aa_bonus": (25, "flush")}),
    # Player 999 55 beats dealer AA55K: Ante 3:1 +3, Call +2, AA Bonus full house +25.
    (SEED002, "9c 9d | Ac Kc | 9h 5s 5d Ah 2c", True,
     {"ante": (3, "win:full_house"), "call": (2, "win"), "aa_bonus": (25, "full_house")}),
    # Player four queens beats dealer 777QQ: Ante 10:1 +10, Call +2, AA Bonus quads +25.
    (SEED002, "Qs Qd | 7h 3c | Qh Qc 7s 7d 2c", True,
     {"ante": (10, "win:four_of_a_kind"), "call": (2, "win"),
      "aa_bonus": (25, "four_of_a_kind")}),
    # Player 5-9 of diamonds beats the dealer's ace-high diamond flush: Ante 20:1, Call +2.
    (SEED002, "5d 6d | Ad 2d | 7d 8d 9d Kc Kh", True,
     {"ante": (20, "win:straight_flush"), "call": (2, "win"),
      "aa_bonus": (25, "straight_flush")}),
    # Player royal flush beats the dealer's Q-high straight: Ante 100:1, Call +2, AA +25.
    (SEED002, "As Ks | 8c 7d | Qs Js Ts 9h 2c", True,
     {"ante": (100, "win:royal_flush"), "call": (2, "win"), "aa_bonus": (25, "royal_flush")}),
    # --- ties: Ante and Call push.
    # The board's broadway straight plays for both hands (the dealer qualifies with it).
    # AA Bonus 2c 3d Ac Kd Qh: high card -> -1.
    (SEED002, "2c 3d | 4h 5s | Ac Kd Qh Js Tc", True,
     {"ante": (0, "tie"), "call": (0, "tie"), "aa_bonus": (-1, "high_card")}),
    # AAKK7 against AAKK7 (suits differ). AA Bonus Ah Kd Ad Kh 7c two pair -> +7.
    (SEED002, "Ah Kd | Ac Ks | Ad Kh 7c 4s 2d", True,
     {"ante": (0, "tie"), "call": (0, "tie"), "aa_bonus": (7, "two_pair")}),
    # --- the dealer wins: Ante and Call lose.
    (SEED002, "7c 2d | Ah Ad | Kc 9s 4h 3d Jh", True,
     {"ante": (-1, "loss"), "call": (-2, "loss"), "aa_bonus": (-1, "high_card")}),
    # --- folds: the Ante is lost, no Call.
    # The Norwegian rules: trip aces on the flop but a fold forfeits the AA Bonus win -> -1.
    (SEED002, "Ah As | Kc Qd | Ac 7d 2s Kh 9c", False,
     {"ante": (-1, "fold"), "aa_bonus": (-1, "fold:three_of_a_kind")}),
    # The same round when the AA Bonus is settled after a fold: trips 7:1 -> +7.
    (EVO, "Ah As | Kc Qd | Ac 7d 2s Kh 9c", False,
     {"ante": (-1, "fold"), "aa_bonus": (7, "fold:three_of_a_kind")}),
    # The Norwegian rules, fold with a flush on the flop: AA Bonus forfeited -> -1.
    (SEED002, "Ah 9h | 3c 7s | 2h 5h Kh 8c Jd", False,
     {"ante": (-1, "fold"), "aa_bonus": (-1, "fold:flush")}),
    # Evolution paytable, fold with a flush on the flop: flush 20:1 -> +20.
    (EVO, "Ah 9h | 3c 7s | 2h 5h Kh 8c Jd", False,
     {"ante": (-1, "fold"), "aa_bonus": (20, "fold:flush")}),
    # Fold with the side bet placed and nothing on it: -1 and -1.
    (SEED002, "7c 2d | Ah Ad | Kc 9s 4h 3d Jh", False,
     {"ante": (-1, "fold"), "aa_bonus": (-1, "fold:high_card")}),
    (EVO, "7c 2d | Ah Ad | Kc 9s 4h 3d Jh", False,
     {"ante": (-1, "fold"), "aa_bonus": (-1, "fold:high_card")}),
    # --- the evolution paytable's other lines, player calls.
    # Royal on the flop: 100:1; the dealer (7 5 Q J T 2 4) does not qualify: Ante +100.
    (EVO, "Ah Kh | 7s 5c | Qh Jh Th 2c 4d", True,
     {"ante": (100, "dealer_not_qualified:royal_flush"), "call": (0, "dealer_not_qualified"),
      "aa_bonus": (100, "royal_flush")}),
    # Straight flush 50:1, four of a kind 40:1, full house 30:1.
    (EVO, "5d 6d | Ad 2d | 7d 8d 9d Kc Kh", True,
     {"ante": (20, "win:straight_flush"), "call": (2, "win"),
      "aa_bonus": (50, "straight_flush")}),
    (EVO, "Qs Qd | 7h 3c | Qh Qc 7s 7d 2c", True,
     {"ante": (10, "win:four_of_a_kind"), "call": (2, "win"),
      "aa_bonus": (40, "four_of_a_kind")}),
    (EVO, "9c 9d | Ac Kc | 9h 5s 5d Ah 2c", True,
     {"ante": (3, "win:full_house"), "call": (2, "win"), "aa_bonus": (30, "full_house")}),
]


@pytest.mark.parametrize("rules, text, call, expected", SCENARIOS)
def test_scenario(rules, text, call, expected):
    check(rules, text, call, expected)


def test_scenarios_cover_every_ante_line_with_and_without_qualification():
    events = {e for r, _, _, exp in SCENARIOS for bet, (_, e) in exp.items() if bet == "ante"}
    for line in ("high_card", "straight", "flush", "full_house", "four_of_a_kind",
                 "straight_flush", "royal_flush"):
        assert f"dealer_not_qualified:{line}" in events
        if line != "high_card":
            assert f"win:{line}" in events
    assert {"tie", "loss", "fold"} <= events
    assert len(SCENARIOS) >= 30


def test_bigger_stakes_scale_every_bet():
    # Ante 5 (Call 10), AA Bonus 2. Flush beats trip kings: Ante 2:1 -> +10, Call 1:1 -> +10,
    # AA Bonus flush 25:1 on 2 units -> +50.
    rules = variant("casino_holdem", {"stakes.ante": 5, "stakes.aa_bonus": 2})
    check(rules, "Ah 9h | Kc Kd | 2h 5h Th Ks 3c", True,
          {"ante": (10, "win:flush"), "call": (10, "win"), "aa_bonus": (50, "flush")})
    # Fold: Ante -5, AA Bonus forfeited -2.
    check(rules, "Ah 9h | Kc Kd | 2h 5h Th Ks 3c", False,
          {"ante": (-5, "fold"), "aa_bonus": (-2, "fold:flush")})


def test_side_bet_not_offered_is_absent():
    rules = variant("casino_holdem", {"stakes.aa_bonus": 0})
    assert bets(rules) == ("ante", "call")
    # Player AAKK8 vs dealer QQ: Ante +1, Call +2; no AA Bonus bet at all.
    check(rules, "Ac Kd | Qs Qh | As Kc 5h 8d 2s", True,
          {"ante": (1, "win:two_pair"), "call": (2, "win")})


def test_qualifier_is_data():
    # With the dealer qualifying on any hand (high card, deuce or better), the dealer's A-K
    # high beats the player's Q-high: Ante -1, Call -2 (with the Norwegian rules' pair of fours it
    # was a non-qualifying dealer and Ante +1; see SCENARIOS).
    rules = variant("casino_holdem", {"rules.dealer_qualifier.hand": "high_card",
                                      "rules.dealer_qualifier.rank": "2"})
    check(rules, "Qc 8d | Ah Kd | Js 9h 5c 3s 2d", True,
          {"ante": (-1, "loss"), "call": (-2, "loss"), "aa_bonus": (-1, "high_card")})
    # A pair of fives needed: the dealer's pair of fours no longer qualifies, Ante +1.
    rules = variant("casino_holdem", {"rules.dealer_qualifier.rank": "5"})
    check(rules, "Ah Kd | 4c 4d | Qs 9h 5c 7s Jd", True,
          {"ante": (1, "dealer_not_qualified:high_card"), "call": (0, "dealer_not_qualified"),
           "aa_bonus": (-1, "high_card")})
