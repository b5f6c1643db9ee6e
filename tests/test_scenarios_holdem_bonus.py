"""Hand-built Texas Hold'em Bonus rounds with every bet's net worked out by hand (the rules as each
config states them).

Layout: "player | dealer | flop turn river"; decisions "FTR" = flop/turn/river bets placed
("F--" bets the flop and checks twice, "---" folds). Stakes: Ante 1, Flop 2, Turn 1, River 1,
Bonus 1, Jackpot 1 unless noted. ``holdem_bonus`` = the Icelandic rules (Bonus with AA-vs-dealer-AA
1000:1, Jackpot "X for 1" prizes, royal = meter); ``holdem_bonus_classic`` = the Swedish rules (no
1000:1 line of its own, no Jackpot).
"""

import numpy as np
import pytest
import thb_reference
from _variants import variant
from thb_reference import thb_all_seven

from gpusim.cards import parse_cards
from gpusim.config import load_config
from gpusim.games import bets, event_names, settle

S001 = load_config("holdem_bonus")
S000 = load_config("holdem_bonus_classic")
# the Ante pays from a flush: its straight line pays 0 (a winning straight pushes)
FLUSH_ANTE = variant("holdem_bonus", {"paytables.ante.straight": 0})
# the Jackpot hand as the best five of all seven cards (the description's own Jackpot hand is
# the hole cards and the flop, [game.hands.first_five]): a variant of the description itself,
# so a game of its own name, made when its scenario runs (a game registered at import would
# be listed by every test that runs in the same process)
ALL_SEVEN = "all_seven"


_forget_all_seven = thb_reference.forget_all_seven  # the fixture


def _round(text: str) -> list[int]:
    player, dealer, board = (parse_cards(p) for p in text.split("|"))
    cards = player + dealer + board
    assert len(cards) == 9 and len(set(cards)) == 9, text
    return cards


def _decisions(code: str) -> dict[str, np.ndarray]:
    return {k: np.asarray([code[i] != "-"]) for i, k in enumerate(("flop", "turn", "river"))}


def check(rules, text, code, expected, meter=None):
    """expected: {bet: (net, event)} for every placed bet; the others must have stake 0."""
    cards = np.asarray([_round(text)], dtype=np.int32)
    s = settle(cards, _decisions(code), rules, jackpot_meter=meter)
    got = {}
    for bet in bets(rules):
        stake, net = int(s.stakes[bet][0]), int(s.nets[bet][0])
        if stake == 0:
            assert net == 0, (bet, text)
            continue
        got[bet] = (net, s.event_names[bet][int(s.events[bet][0])])
    assert got == expected, text


SCENARIOS = [
    # Player 9-K straight beats the dealer's deuces: Ante 1:1 (straight or better) +1,
    # Flop +2, Turn +1, River +1. Bonus T9 offsuit loses -1. Jackpot 9c Td Jh Qs Kd straight,
    # 10 for 1 -> +9.
    (S001, "9c Td | 2h 2s | Jh Qs Kd 3c 4c", "FTR", None,
     {"ante": (1, "win:straight"), "flop": (2, "win"), "turn": (1, "win"),
      "river": (1, "win"), "bonus": (-1, "other"), "jackpot": (9, "straight")}),
    # The Swedish rules config: the same without the Jackpot.
    (S000, "9c Td | 2h 2s | Jh Qs Kd 3c 4c", "FTR", None,
     {"ante": (1, "win:straight"), "flop": (2, "win"), "turn": (1, "win"),
      "river": (1, "win"), "bonus": (-1, "other")}),
    # The Ante from a flush (straight = 0): a winning straight only pushes the Ante (0); the
    # rest as above.
    (FLUSH_ANTE, "9c Td | 2h 2s | Jh Qs Kd 3c 4c", "FTR", None,
     {"ante": (0, "win:straight"), "flop": (2, "win"), "turn": (1, "win"),
      "river": (1, "win"), "bonus": (-1, "other"), "jackpot": (9, "straight")}),
    # Player flush beats trip kings: Ante +1 under both ante rules.
    # Jackpot Ah 9h 2h 5h Th flush 25 for 1 -> +24; Bonus A9s loses.
    (S001, "Ah 9h | Kc Kd | 2h 5h Th Ks 3c", "FTR", None,
     {"ante": (1, "win:flush"), "flop": (2, "win"), "turn": (1, "win"),
      "river": (1, "win"), "bonus": (-1, "other"), "jackpot": (24, "flush")}),
    (FLUSH_ANTE, "Ah 9h | Kc Kd | 2h 5h Th Ks 3c", "FTR", None,
     {"ante": (1, "win:flush"), "flop": (2, "win"), "turn": (1, "win"),
      "river": (1, "win"), "bonus": (-1, "other"), "jackpot": (24, "flush")}),
    # Trip sevens beat A-K high: the Ante pushes (below a straight), Flop +2, Turn +1, the
    # River was checked. Bonus 77: TT-22 line 3:1 -> +3. Jackpot 7c 7d 7h 2s 9c: trips 3 for 1.
    (S001, "7c 7d | Ah Kd | 7h 2s 9c Jd 4c", "FT-", None,
     {"ante": (0, "win:three_of_a_kind"), "flop": (2, "win"), "turn": (1, "win"),
      "bonus": (3, "77"), "jackpot": (2, "three_of_a_kind")}),
    # The board's broadway plays for both: everything pushes. Bonus 32o and Jackpot lose.
    (S001, "2c 3d | 4h 5s | Ac Kd Qh Js Tc", "FTR", None,
     {"ante": (0, "tie"), "flop": (0, "tie"), "turn": (0, "tie"), "river": (0, "tie"),
      "bonus": (-1, "other"), "jackpot": (-1, "high_card")}),
    # Dealer's aces win: Ante -1, Flop -2, Turn -1, River -1.
    (S001, "7c 2d | Ah Ad | Kc 9s 4h 3d Jh", "FTR", None,
     {"ante": (-1, "loss"), "flop": (-2, "loss"), "turn": (-1, "loss"), "river": (-1, "loss"),
      "bonus": (-1, "other"), "jackpot": (-1, "high_card")}),
    # Checked turn, bet river, dealer's queens win: Ante -1, Flop -2, River -1.
    # Bonus AK offsuit 15:1 -> +15. Jackpot Ah Kd 2s 7h 9c high card -1.
    (S001, "Ah Kd | Qc Qd | 2s 7h 9c 3d 4s", "F-R", None,
     {"ante": (-1, "loss"), "flop": (-2, "loss"), "river": (-1, "loss"),
      "bonus": (15, "AKo"), "jackpot": (-1, "high_card")}),
    # --- side bets after a fold (preflop: only the Ante is lost).
    # AKs Bonus 25:1 -> +25. Jackpot on hole + flop: Ah Kh Qh Jh Th royal flush, settled after
    # the fold, wins the meter 50,000 (replacing the 1-unit stake) -> +49,999.
    (S001, "Ah Kh | 2c 3c | Qh Jh Th 4s 5d", "---", 50_000,
     {"ante": (-1, "fold"), "bonus": (25, "AKs"), "jackpot": (49_999, "royal_flush")}),
    # A fold's turn/river flags are ignored: still only the Ante (and side bets) placed.
    (S001, "Ah Kh | 2c 3c | Qh Jh Th 4s 5d", "-TR", 7,
     {"ante": (-1, "fold"), "bonus": (25, "AKs"), "jackpot": (6, "royal_flush")}),
    # Without a meter argument the royal wins the reset value (0 in the config) -> -1.
    (S001, "Ah Kh | 2c 3c | Qh Jh Th 4s 5d", "---", None,
     {"ante": (-1, "fold"), "bonus": (25, "AKs"), "jackpot": (-1, "royal_flush")}),
    # --- Bonus AA with and without the dealer's AA.
    # Both AAKJ9: main bets push. The Icelandic rules: AA and dealer AA 1000:1 -> +1000.
    # Jackpot Ac Ad 2c 5d 9h: a pair -> -1.
    (S001, "Ac Ad | Ah As | 2c 5d 9h Jc Kd", "FTR", None,
     {"ante": (0, "tie"), "flop": (0, "tie"), "turn": (0, "tie"), "river": (0, "tie"),
      "bonus": (1000, "AA_vs_AA"), "jackpot": (-1, "pair")}),
    # The Swedish rules have no such line: AA pays 30:1 whatever the dealer holds (the config's
    # AA_vs_dealer_AA line pays as AA does).
    (S000, "Ac Ad | Ah As | 2c 5d 9h Jc Kd", "FTR", None,
     {"ante": (0, "tie"), "flop": (0, "tie"), "turn": (0, "tie"), "river": (0, "tie"),
      "bonus": (30, "AA_vs_AA")}),
    # Dealer holds one ace only: AA 30:1. Pair of aces beats A-K high: Ante pushes (a pair),
    # Flop +2, Turn +1, River +1.
    (S001, "Ac Ad | Ah 7s | 2c 5d 9h Jc Kd", "FTR", None,
     {"ante": (0, "win:pair"), "flop": (2, "win"), "turn": (1, "win"), "river": (1, "win"),
      "bonus": (30, "AA"), "jackpot": (-1, "pair")}),
    # every Bonus line (the Swedish rules' amounts = the Icelandic rules'), after a preflop fold
    # (Ante -1)
    (S000, "As Kd | 5c 6d | 2c 3d 7h 9s 4s", "---", None,
     {"ante": (-1, "fold"), "bonus": (15, "AKo")}),
    (S000, "Ah Qh | 5c 6d | 2c 3d 7h 9s 4s", "---", None,
     {"ante": (-1, "fold"), "bonus": (20, "AQs")}),
    (S000, "Ad Jd | 5c 6d | 2c 3d 7h 9s 4s", "---", None,
     {"ante": (-1, "fold"), "bonus": (20, "AJs")}),
    (S000, "Ac Qd | 5c 6d | 2c 3d 7h 9s 4s", "---", None,
     {"ante": (-1, "fold"), "bonus": (5, "AQo")}),
    (S000, "Ah Jc | 5c 6d | 2c 3d 7h 9s 4s", "---", None,
     {"ante": (-1, "fold"), "bonus": (5, "AJo")}),
    (S000, "Kc Kd | 5c 6d | 2c 3d 7h 9s 4s", "---", None,
     {"ante": (-1, "fold"), "bonus": (10, "KK")}),
    (S000, "Qc Qh | 5c 6d | 2c 3d 7h 9s 4s", "---", None,
     {"ante": (-1, "fold"), "bonus": (10, "QQ")}),
    (S000, "Jd Js | 5c 6d | 2c 3d 7h 9s 4s", "---", None,
     {"ante": (-1, "fold"), "bonus": (10, "JJ")}),
    (S000, "Tc Th | 5c 6d | 2c 3d 7h 9s 4s", "---", None,
     {"ante": (-1, "fold"), "bonus": (3, "TT")}),
    (S000, "2h 2s | 5c 6d | 2c 3d 7h 9s 4s", "---", None,
     {"ante": (-1, "fold"), "bonus": (3, "22")}),
    # Not on the paytable: KQ suited, AT offsuit -> -1.
    (S000, "Kh Qh | 5c 6d | 2c 3d 7h 9s 4s", "---", None,
     {"ante": (-1, "fold"), "bonus": (-1, "other")}),
    (S000, "Ad Th | 5c 6d | 2c 3d 7h 9s 4s", "---", None,
     {"ante": (-1, "fold"), "bonus": (-1, "other")}),
    # --- Jackpot fixed prizes ("X for 1": net X - 1), after a preflop fold.
    # 5s 6s 7s 8s 9s straight flush: 2500 for 1 -> +2499; Bonus 65s loses.
    (S001, "5s 6s | Ac Kd | 7s 8s 9s 2d 3h", "---", None,
     {"ante": (-1, "fold"), "bonus": (-1, "other"), "jackpot": (2499, "straight_flush")}),
    # Four nines: 250 for 1 -> +249; Bonus 99 3:1 -> +3.
    (S001, "9c 9d | Ac Kd | 9h 9s 2c 5d 3h", "---", None,
     {"ante": (-1, "fold"), "bonus": (3, "99"), "jackpot": (249, "four_of_a_kind")}),
    # 999 22: 50 for 1 -> +49.
    (S001, "9c 9d | Ac Kd | 9h 2s 2c 5d 3h", "---", None,
     {"ante": (-1, "fold"), "bonus": (3, "99"), "jackpot": (49, "full_house")}),
    # Two pair pays nothing on the Jackpot -> -1 (Bonus K9 offsuit -1).
    (S001, "Kc 9d | Ac 2d | Kh 9s 2c 5d 3h", "---", None,
     {"ante": (-1, "fold"), "bonus": (-1, "other"), "jackpot": (-1, "two_pair")}),
    # --- which cards count for the Jackpot. Kc 9d + Kh 9s 2c, then 9h Ks: hole + flop is
    # two pair (-1); all seven make KKK99 (50 for 1, +49). Main: the player's full house beats
    # the dealer's (2d 3d) board two pair KK99: Ante 1:1 (full house), Flop +2, Turn +1,
    # River +1; Bonus K9o -1.
    (S001, "Kc 9d | 2d 3d | Kh 9s 2c 9h Ks", "FTR", None,
     {"ante": (1, "win:full_house"), "flop": (2, "win"), "turn": (1, "win"),
      "river": (1, "win"), "bonus": (-1, "other"), "jackpot": (-1, "two_pair")}),
    (ALL_SEVEN, "Kc 9d | 2d 3d | Kh 9s 2c 9h Ks", "FTR", None,
     {"ante": (1, "win:full_house"), "flop": (2, "win"), "turn": (1, "win"),
      "river": (1, "win"), "bonus": (-1, "other"), "jackpot": (49, "full_house")}),
]


@pytest.mark.parametrize("rules, text, code, meter, expected", SCENARIOS)
def test_scenario(rules, text, code, meter, expected):
    if rules == ALL_SEVEN:
        rules = thb_all_seven()
    check(rules, text, code, expected, meter)


def test_scenarios_cover_every_bonus_and_jackpot_line():
    bonus = {exp["bonus"][1] for *_, exp in SCENARIOS if "bonus" in exp}
    assert {"AA_vs_AA", "AA", "AKs", "AQs", "AJs", "AKo", "KK", "QQ", "JJ", "AQo", "AJo", "TT",
            "22", "other"} <= bonus
    jackpot = {exp["jackpot"][1] for *_, exp in SCENARIOS if "jackpot" in exp}
    assert {"royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush",
            "straight", "three_of_a_kind", "two_pair"} <= jackpot
    assert len(SCENARIOS) >= 30


def test_bigger_ante_scales_the_streets():
    # Ante 2 -> Flop 4, Turn 2, River 2; straight win: +2, +4, +2, +2. Bonus 3 units lose -3;
    # Jackpot 1 unit straight 10 for 1 -> +9.
    rules = variant("holdem_bonus", {"stakes.ante": 2, "stakes.bonus": 3, "stakes.jackpot": 1})
    check(rules, "9c Td | 2h 2s | Jh Qs Kd 3c 4c", "FTR",
          {"ante": (2, "win:straight"), "flop": (4, "win"), "turn": (2, "win"),
           "river": (2, "win"), "bonus": (-3, "other"), "jackpot": (9, "straight")})


def test_jackpot_meter_per_round():
    # Two royal rounds with meters 1,000 and 2,000 (e.g. the meter grew in between), one
    # straight: nets 999, 1999 and 9 (the straight ignores the meter).
    royal = _round("Ah Kh | 2c 3c | Qh Jh Th 4s 5d")
    straight = _round("9c Td | 2h 2s | Jh Qs Kd 3c 4c")
    cards = np.asarray([royal, royal, straight], dtype=np.int32)
    dec = {k: np.ones(3, bool) for k in ("flop", "turn", "river")}
    s = settle(cards, dec, S001, jackpot_meter=np.asarray([1000, 2000, 5000]))
    assert np.asarray(s.nets["jackpot"]).tolist() == [999, 1999, 9]
    royal_event = event_names(S001)["jackpot"].index("royal_flush")
    assert (np.asarray(s.events["jackpot"]) == royal_event).tolist() == [True, True, False]
