"""Ultimate Texas Hold'em: hand-built rounds with exact payouts for every rule branch, the CUDA
kernel's codes (through their map to the description's joint codes) against an independent
per-code pricing, the reference rule strategies' documented rules on hand-built hands, config
errors, and the Trips against its exact probabilities.

(The eval7 reference of every bet over random rounds and actions is
``tests/test_settlement.py``; the commands end to end are ``tests/test_ultimate_holdem_cli.py``.)
"""

from __future__ import annotations

import math
import textwrap
from fractions import Fraction

import numpy as np
import pytest
import uth_reference as S
from uth_reference import uth_terms

from gpusim.cards import CATEGORY_KEYS, parse_cards
from gpusim.compute.bins import bin_layout
from gpusim.config import ConfigError, load_config
from gpusim.dealing import deal
from gpusim.exact.seven_cards import seven_card_counts
from gpusim.games import settle, spec_for
from gpusim.games.holdem.play_once_kernel import N_KERNEL_CODES, code_map

STANDARD, MUST_BEAT = "ultimate_holdem", "ultimate_holdem_must_beat"
N = 20_000  # one batch shape for every dealt test: one compile of the deal and the settlement
PLAY = {"4x": (2, 0, 0), "3x": (1, 0, 0), "2x": (0, 1, 0), "1x": (0, 0, 1), "fold": (0, 0, 0)}


def _round(config, player, dealer, board, play):
    """{bet: (stake, net, event)} of one hand-built round; ``play``: a key of PLAY."""
    rules = load_config(config)
    cards = np.array([parse_cards(f"{player} {dealer} {board}")], np.int32)
    dec = {k: np.array([a]) for k, a in zip(("preflop", "flop", "river"), PLAY[play],
                                               strict=True)}
    s = settle(cards, dec, rules)
    names = s.event_names
    return {b: (int(s.stakes[b][0]), int(s.nets[b][0]), names[b][int(s.events[b][0])])
            for b in s.bets}


# ante 2, blind 2, trips 2 in both configs
CASES = [
    # dealer K-high does not qualify; a straight wins: Ante pushes, Blind 1:1, Play 4x, Trips 4:1
    ("no qualify, straight, 4x", STANDARD, "9c Th", "Kc Qd", "6d 7s 8h 2c 3d", "4x",
     {"ante": (2, 0, "dealer_not_qualified"), "blind": (2, 2, "win:straight"),
      "play": (8, 8, "win"), "trips": (2, 8, "straight")}),
    # the board's straight for both: a tie pushes everything, Trips still pays the straight
    ("tie on the board", STANDARD, "2d 3h", "2c 3s", "5c 6d 7h 8s 9c", "3x",
     {"ante": (2, 0, "tie"), "blind": (2, 0, "tie"), "play": (6, 0, "tie"),
      "trips": (2, 8, "straight")}),
    # a flush over a qualifying pair: the Blind's 3:2 is 3 on an ante of 2; Trips 7:1
    ("3:2 flush", STANDARD, "Ah 9h", "Kc Kd", "2h 5h Jh 3c 8s", "2x",
     {"ante": (2, 2, "win"), "blind": (2, 3, "win:flush"), "play": (4, 4, "win"),
      "trips": (2, 14, "flush")}),
    # two pair beats a qualifying pair: the Blind pushes below a straight; Trips loses
    ("blind below straight", STANDARD, "Ac Kd", "Qc Qd", "As Ks 7h 4c 2s", "1x",
     {"ante": (2, 2, "win"), "blind": (2, 0, "win:two_pair"), "play": (2, 2, "win"),
      "trips": (2, -2, "two_pair")}),
    # the dealer qualifies and wins: Ante, Blind and Play lose
    ("dealer wins", STANDARD, "Ac Kd", "Qc Qd", "Qs 9s 7h 4c 2s", "4x",
     {"ante": (2, -2, "loss"), "blind": (2, -2, "loss"), "play": (8, -8, "loss"),
      "trips": (2, -2, "high_card")}),
    # the dealer wins without qualifying (ace high over king high): the Ante pushes
    ("dealer wins, no qualify", STANDARD, "Kc 3d", "Ac 4d", "Qs 9s 7h 6c 2s", "1x",
     {"ante": (2, 0, "dealer_not_qualified"), "blind": (2, -2, "loss"),
      "play": (2, -2, "loss"), "trips": (2, -2, "high_card")}),
    # a fold loses Ante and Blind; the Play is not placed; Trips keeps its three of a kind
    ("fold keeps Trips", STANDARD, "7c 7d", "Ac Ad", "7h As 2c 9d Kh", "fold",
     {"ante": (2, -2, "fold"), "blind": (2, -2, "fold"), "play": (0, 0, "fold"),
      "trips": (2, 6, "three_of_a_kind")}),
    # a royal: Blind 500:1, Trips 50:1
    ("royal", STANDARD, "As Ks", "2c 3d", "Qs Js Ts 4h 5c", "4x",
     {"ante": (2, 0, "dealer_not_qualified"), "blind": (2, 1000, "win:royal_flush"),
      "play": (8, 8, "win"), "trips": (2, 100, "royal_flush")}),
    # must beat: a fold loses Trips even on three of a kind
    ("must beat, fold", MUST_BEAT, "7c 7d", "Ac Ad", "7h As 2c 9d Kh", "fold",
     {"ante": (2, -2, "fold"), "blind": (2, -2, "fold"), "play": (0, 0, "fold"),
      "trips": (2, -2, "no_beat:three_of_a_kind")}),
    # must beat: a tie loses Trips; the variant's Blind straight flush pays 100
    ("must beat, tie", MUST_BEAT, "2d 3h", "2c 3s", "5c 6d 7h 8s 9c", "1x",
     {"ante": (2, 0, "tie"), "blind": (2, 0, "tie"), "play": (2, 0, "tie"),
      "trips": (2, -2, "no_beat:straight")}),
    ("must beat, win", MUST_BEAT, "9h Th", "Kc Kd", "6h 7h 8h 2c 3d", "3x",
     {"ante": (2, 2, "win"), "blind": (2, 200, "win:straight_flush"), "play": (6, 6, "win"),
      "trips": (2, 80, "beat:straight_flush")}),
    # must beat: a full house pays the variant's 9 when it beats the dealer
    ("must beat, full house", MUST_BEAT, "Kh Kd", "Qc Qd", "Ks 4s 4h 2c 7d", "1x",
     {"ante": (2, 2, "win"), "blind": (2, 6, "win:full_house"), "play": (2, 2, "win"),
      "trips": (2, 18, "beat:full_house")}),
]


@pytest.mark.parametrize(("config", "player", "dealer", "board", "play", "want"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_hand_built_rounds(config, player, dealer, board, play, want):
    assert _round(config, player, dealer, board, play) == want


def _priced(terms, path, outcome, cat):
    """{bet: net} of a kernel code, priced from the config's text alone (not from the return
    tables)."""
    a, t = terms.stakes.ante, terms.stakes["trips"]
    play = (4, 3, 2, 1, 0)[path]
    key = CATEGORY_KEYS[cat]
    if outcome == 0:
        main = {"ante": -a, "blind": -a, "play": 0}
    elif outcome in (1, 2):
        blind = Fraction(terms.blind_paytable[key]) * a if key in terms.blind_paytable else 0
        main = {"ante": a if outcome == 1 else 0, "blind": blind, "play": play * a}
    elif outcome == 3:
        main = {"ante": 0, "blind": 0, "play": 0}
    else:
        main = {"ante": -a if outcome == 4 else 0, "blind": -a, "play": -play * a}
    paid = key in terms.trips_paytable and (outcome in (1, 2) or not terms.trips_must_beat)
    main["trips"] = t * terms.trips_paytable[key] if paid else -t
    return main


@pytest.mark.parametrize("config", [STANDARD, MUST_BEAT])
def test_every_kernel_code_decodes_to_its_pricing(config):
    """The kernel's code ``(path * 6 + outcome) * 10 + category``
    (gpusim/games/holdem/play_once_kernel.py), sent to the description's joint code, settles
    every bet as the config's text prices it."""
    rules = load_config(config)
    nets = bin_layout(rules).nets()
    to_joint = code_map(rules)
    terms = uth_terms(rules)
    assert to_joint.shape == (N_KERNEL_CODES,) == (300,)
    for code in range(N_KERNEL_CODES):
        path, outcome, cat = code // 60, code // 10 % 6, code % 10
        if (path == 4) != (outcome == 0):
            continue  # no round folds to a showdown, or plays to a fold
        want = _priced(terms, path, outcome, cat)
        got = {b: int(v[to_joint[code]]) for b, v in nets.items()}
        assert got == want, code


@pytest.mark.parametrize("config", [STANDARD, MUST_BEAT])
def test_joint_code_of_dealt_rounds_matches_the_settlement(config):
    """Every path forced on dealt rounds: the code of each round decodes to its settled stakes,
    events and nets."""
    rules = load_config(config)
    spec = spec_for(rules)
    lay = bin_layout(rules)
    nets = lay.nets()
    cards = np.asarray(deal(17, 0, N, 9))
    for pre, flop, river in PLAY.values():
        dec = {"preflop": np.full(N, pre), "flop": np.full(N, flop), "river": np.full(N, river)}
        s = settle(cards, dec, rules)
        code = np.asarray(spec.joint.encode(s, spec.offered_bets(rules)))
        for b in s.bets:
            np.testing.assert_array_equal(nets[b][code], np.asarray(s.nets[b]), err_msg=b)
            np.testing.assert_array_equal(lay.stakes[b][code], np.asarray(s.stakes[b]))
            np.testing.assert_array_equal(lay.events[b][code], np.asarray(s.events[b]))


# --- the rule strategies -------------------------------------------------------------------------

def _seen(*hands):
    return np.array([parse_cards(h) for h in hands], np.int32)


def test_basic_preflop_list():
    raise4 = ["3c 3d", "Ac 2d", "Kh 2h", "Qs 6s", "Jd 8d", "Kc 5d", "Qc 8d", "Jc Td", "Ac Kc"]
    check = ["2c 2d", "Kc 4d", "Qs 5s", "Qc 7d", "Jd 7d", "Jc 9d", "Tc 9c", "9c 8c", "7h 2d"]
    got = np.asarray(S._preflop(_seen(*raise4, *check)))
    assert got.tolist() == [2] * len(raise4) + [0] * len(check)


def test_basic_flop_rules():
    cases = {
        "7c 2d 7h Kd 3s": True,    # hidden pair
        "2c 2d Kh 9d 5s": False,   # pocket deuces alone
        "2c 2d 2h Kd 9s": True,    # pocket deuces making trips (two pair or better)
        "2c 2d Kh Kd 9s": True,    # pocket deuces and a board pair: two pair
        "Ac Qd 5h 5s 5c": False,   # trips on the flop alone
        "Ac Qd 5h 5s 9c": False,   # a pair on the flop alone
        "9c Td Jh Qd Ks": True,    # a straight with both hole cards
        "Th 3h 4h 8h Kc": True,    # four hearts with the ten in the hole
        "9h 3h 4h 8h Kc": False,   # four hearts, hidden nine at best
        "Ac 3h 4h 8h Kh": False,   # four hearts, the hole heart a three
        "Th Kc 4h 8h 2h": True,    # one hole heart, the ten
        "Ah Kc 4h 8h 2c": False,   # three hearts
    }
    got = np.asarray(S._flop(_seen(*cases))).tolist()
    assert got == list(cases.values())


def test_dealer_outs_and_the_river_rule():
    # A-Q high on 2 5 9 J K: the fifteen cards that pair the board beat it, nothing else
    # (an ace gives the dealer A-K-J-9-5, below A-K-Q-J-9)
    # 4-3 on 2 7 9 J K: the pairing fifteen, plus every A, Q, T, 8, 6 and 5 (24): 39
    seen = _seen("Ad Qh 2c 5d 9h Js Kc", "3d 4h 2c 7d 9h Js Kc")
    assert np.asarray(S.dealer_outs(seen)).tolist() == [15, 39]
    assert np.asarray(S._river(seen)).tolist() == [True, False]
    cases = {
        "3d 4h 2c 7d 9h Js 4c": True,   # a hidden pair of fours
        "Td 2h 5c 6d 7h 8s 9c": True,   # a straight above the board's with the ten
        "Ad 3h Kc Kd Qh Qs 4c": True,   # the board's two pair, ace kicker: few outs (K, Q)
        "3d 4h Kc Kd Qh Qs Jc": True,   # the board's two pair, jack: K, Q and A outs only (8)
        "3d 4h Kc Kd Qh Qs 2c": False,  # the board's two pair, deuce: every A..5 outkicks it
    }
    assert np.asarray(S._river(_seen(*cases))).tolist() == list(cases.values())


@pytest.mark.parametrize("name", ["basic", "always-check"])
def test_decisions_ignore_unseen_cards(name):
    """Each point's answer stays when every card it does not see is dealt afresh."""
    from gpusim.games.strategy_registry import get_strategy

    rules = load_config(STANDARD)
    strategy = get_strategy(name, rules)
    rng = np.random.default_rng(3)
    cards = np.asarray(deal(29, 0, N, 9))
    base = strategy.decide(cards)
    rows = np.arange(N)[:, None]
    for point in spec_for(rules).decisions:
        keys = rng.random((N, 52))
        keys[rows, cards[:, list(point.sees)]] = 2.0  # seen cards sort last: never drawn
        unseen = [j for j in range(9) if j not in point.sees]
        other = cards.copy()
        other[:, unseen] = np.argsort(keys, axis=1)[:, :len(unseen)]
        np.testing.assert_array_equal(strategy.decide(other)[point.name], base[point.name])


def test_always_check_checks_then_plays_the_river_rule():
    rules = load_config(STANDARD)
    cards = np.asarray(deal(5, 0, N, 9))
    basic, check = S.uth_basic(cards), S.uth_always_check(cards)
    assert not np.asarray(check["preflop"]).any() and not np.asarray(check["flop"]).any()
    np.testing.assert_array_equal(check["river"], basic["river"])
    assert set(np.unique(np.asarray(basic["preflop"]))) == {0, 2}
    assert rules.game == "ultimate_holdem"


# --- configs -------------------------------------------------------------------------------------

_GOOD = textwrap.dedent("""\
    game = "ultimate_holdem"
    [stakes]
    ante = 2
    trips = 1
    [rules]
    trips_must_beat = false
    [rules.dealer_qualifier]
    hand = "pair"
    rank = "2"
    [paytables.blind]
    royal_flush = 500
    straight_flush = 50
    four_of_a_kind = 10
    full_house = 3
    flush = "3:2"
    straight = 1
    [paytables.trips]
    royal_flush = 50
    straight_flush = 40
    four_of_a_kind = 30
    full_house = 8
    flush = 7
    straight = 4
    three_of_a_kind = 3
    """)


def _load(tmp_path, text):
    path = tmp_path / "uth.toml"
    path.write_text(text)
    return load_config(path)


def test_a_good_config_round_trips(tmp_path):
    rules = _load(tmp_path, _GOOD)
    assert rules.pays()["blind"]["flush"] == Fraction(3, 2)
    assert spec_for(rules).paytable(rules, "blind")["flush"] == "3:2"
    assert rules.stakes.as_dict() == {"ante": 2, "trips": 1}
    # the option's default (false) is the value the config writes
    assert _load(tmp_path, _GOOD.replace("trips_must_beat = false", "")) == rules


@pytest.mark.parametrize(("old", "new", "words"), [
    ("ante = 2", "ante = 3", "stakes.ante': value 3 is not allowed: bet 'blind' pays 3:2 "
                             "(win:flush), so its stake must be a multiple of 2"),
    ('flush = "3:2"', 'flush = "3/2"', "paytables.blind.flush': value '3/2' (a string) is not "
                                      "allowed"),
    ('flush = "3:2"', 'flush = "3:0"', "paytables.blind.flush': value '3:0'"),
    ('flush = "3:2"', "flush = -1", "paytables.blind.flush': value -1 is not allowed"),
    ("trips = 1", "trips = 1\nblind = 4", "stakes.blind': unknown key; allowed keys in [stakes]: "
                                          "ante, trips"),
    ("trips_must_beat = false", "trips_must_beat = 1", "rules.trips_must_beat': value 1"),
    ('rank = "2"', 'rank = "1"', "rules.dealer_qualifier.rank': value '1'"),
])
def test_config_errors_are_one_line(tmp_path, old, new, words):
    with pytest.raises(ConfigError) as info:
        _load(tmp_path, _GOOD.replace(old, new, 1))
    msg = str(info.value)
    assert "\n" not in msg and words in msg, msg


def test_an_odd_ante_with_whole_pays_is_fine(tmp_path):
    rules = _load(tmp_path, _GOOD.replace("ante = 2", "ante = 3").replace('"3:2"', "2"))
    assert rules.stakes.ante == 3 and rules.pays()["blind"]["flush"] == 2


# --- Trips: exact and simulated ------------------------------------------------------------------

def test_seven_card_counts_are_the_published_table():
    counts = seven_card_counts()
    assert sum(counts.values()) == math.comb(52, 7)
    assert counts == {
        "high_card": 23294460, "pair": 58627800, "two_pair": 31433400,
        "three_of_a_kind": 6461620, "straight": 6180020, "flush": 4047644,
        "full_house": 3473184, "four_of_a_kind": 224848, "straight_flush": 37260,
        "royal_flush": 4324}
    rules = load_config(STANDARD)
    exact = spec_for(rules).side_bet_exact(rules)["trips"]
    rtp = sum(p * (1 + rules.pays()["trips"].get(c, -1)) for c, p in exact.items())
    assert f"{1 - float(rtp):.4f}" == "0.0350"  # the published 3.50 % house edge
    assert spec_for(load_config(MUST_BEAT)).side_bet_exact(load_config(MUST_BEAT)) == {}


def test_simulated_trips_within_a_few_sd_of_exact():
    rules = load_config(STANDARD)
    dec = {"preflop": np.full(N, 2), "flop": np.zeros(N, int), "river": np.zeros(N, int)}
    counts = np.zeros(10, np.int64)
    for first in range(0, 10 * N, N):
        ev = np.asarray(settle(np.asarray(deal(23, first, N, 9)), dec, rules).events["trips"])
        counts += np.bincount(ev, minlength=10)
    n = 10 * N
    exact = spec_for(rules).side_bet_exact(rules)["trips"]
    for i, c in enumerate(CATEGORY_KEYS):
        p = float(exact[c])
        assert abs(counts[i] - n * p) < 5 * math.sqrt(n * p * (1 - p)) + 1, c


def test_must_beat_trips_is_forfeited_by_a_fold():
    """A what-if on must-beat Trips depends on the decisions (its note says so); the standard
    Trips is strategy-free."""
    for config, forfeits in ((STANDARD, ()), (MUST_BEAT, ("trips",))):
        rules = load_config(config)
        assert spec_for(rules).forfeited_by_fold(rules) == forfeits
