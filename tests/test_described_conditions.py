"""The rule-strategy conditions of a described game beyond the first five (hand_in,
category_in, own_card_paired, beats_board, suited_with_own, dealer_outs_below): Ultimate Texas
Hold'em's basic and always-check strategies written as description rules
(configs/ultimate_holdem.toml) take exactly the hand-written reference strategies' action
(tests/uth_reference.py) at every point, on random rounds and on rounds dealt to
hit the edges of their rules; every mistake in a new condition is one line naming the key, the
value and what is allowed."""

from __future__ import annotations

import copy
import json
import tomllib
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import uth_reference as S
from uth_reference import TREE

from gpusim.cards import parse_cards
from gpusim.evaluator import FLUSH, STRAIGHT, STRAIGHT_FLUSH, evaluate_np, evaluate_three_np
from gpusim.games.described.conditions import parse_hand_range
from gpusim.games.described.engine import rule_strategy
from gpusim.games.described.sections import parse_description
from gpusim.rules import ConfigError, ConfigReader

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = {"basic": S.uth_basic, "always-check": S.uth_always_check}
N_RANDOM = 200_000
RIVER = [0, 1, 4, 5, 6, 7, 8]  # what the river point sees: hole cards and the board


def _config(name: str) -> dict:
    return tomllib.loads((ROOT / "configs" / f"{name}.toml").read_text(encoding="utf-8"))


def _uth_game() -> dict:
    """The shipped Ultimate Texas Hold'em's [game], its strategies the ones under test."""
    game = _config("ultimate_holdem")["game"]
    game["name"] = "uth_conditions"
    return game


@pytest.fixture(scope="module")
def uth():
    return parse_description(ConfigReader("uth.toml"), _uth_game())


@pytest.fixture(scope="module")
def decided(uth, rounds):
    """{strategy: (described, reference)}: each one's {point: (N,) action} on the rounds."""
    return {name: (jax.jit(rule_strategy(uth, name))(rounds), jax.jit(REFERENCE[name])(rounds))
            for name in REFERENCE}


# hand-picked rounds (the dealer's cards are the third and fourth) and the basic strategy's
# answer at each point, whether or not the round reaches it
CASES = {
    "2c 2d 5c 5d 7h Kd 9s 3c 4d": ("check", "check", "play_1x"),     # 2-2 alone; paired later
    "2c 2d 5c 5d 2h Kd 9s 3c 4d": ("check", "play_2x", "play_1x"),   # 2-2 makes trips
    "2c 2d 5c 5d Kh Kd 9s 3c 4d": ("check", "play_2x", "play_1x"),   # 2-2 and a board pair
    "3c 3d 5c 5d 7h Kd 9s 2c 4d": ("play_4x", "play_2x", "play_1x"),  # 3-3 plays 4x
    "Ah Qc 5c 5d 8s 8d 8c 2d 3h": ("play_4x", "check", "play_1x"),   # board trips, 7 outs
    "Js 6h 5c 5d 7h Kd 9s 3c 4d": ("check", "check", "fold"),
    "9c Td 5c 5d Jh Qd Ks 3c 4d": ("check", "play_2x", "play_1x"),   # a flopped straight
    "Th 3c 5c 5d 4h 8h 2h Kc Qs": ("check", "play_2x", "fold"),      # four hearts, hidden ten
    "9h 3c 5c 5d 4h 8h 2h Kc Qs": ("check", "check", "fold"),        # ... a hidden nine
    "Td 2h 5c 5d 5s 6d 7h 8s 9c": ("check", "check", "play_1x"),     # the ten plays
    "2c 3d 7c 7d 9h Td Jc Qs Kh": ("check", "check", "play_1x"),     # board straight, 4 outs
    "4c 3d 7c 7d 2s 2h 2d 2c 5h": ("check", "check", "fold"),        # quads on board, 36 outs
    "Ad Qh 3c 3d 2c 5d 9h Js Kc": ("play_4x", "check", "play_1x"),   # 15 outs
}


def _deal(rng, n: int, deck, fixed=()) -> np.ndarray:
    """(n, 9) rounds dealt from ``deck`` (codes), the first columns ``fixed`` when given."""
    deck = np.asarray([c for c in deck if c not in fixed], np.int32)
    keys = rng.random((n, deck.size))
    rest = deck[np.argsort(keys, axis=1)[:, : 9 - len(fixed)]]
    return np.concatenate([np.broadcast_to(np.asarray(fixed, np.int32), (n, len(fixed))),
                           rest], axis=1).astype(np.int32)


def _ranks(*ranks: int):
    return [4 * r + s for r in ranks for s in range(4)]


def _rounds() -> np.ndarray:
    """Random rounds, then rounds dealt from small decks to hit the rules' edges: pocket deuces,
    board trips and quads, boards with straights and flushes the hole cards do or do not play
    on, four to a flush with a hidden ten or nine, dealer outs around 21."""
    rng = np.random.default_rng(20260611)
    hearts, clubs = list(range(2, 52, 4)), list(range(0, 52, 4))
    parts = [
        _deal(rng, N_RANDOM, range(52)),
        _deal(rng, 20_000, range(52), fixed=(0, 1)),           # 2c 2d in the hole
        _deal(rng, 20_000, hearts + clubs),                    # two suits: flushes, draws
        _deal(rng, 20_000, hearts + clubs[:8]),                # mostly hearts
        _deal(rng, 10_000, range(52), fixed=(34, 9)),          # Th 4d in the hole
        _deal(rng, 10_000, hearts + clubs, fixed=(30, 3)),     # 9h 2s in the hole
        _deal(rng, 20_000, _ranks(0, 5, 11)),                  # three ranks: trips, quads
        _deal(rng, 20_000, _ranks(6, 7, 8, 9, 10)),            # 8..Q: straights
        _deal(rng, 20_000, _ranks(12, 0, 1, 2, 3, 4)),         # A..6: wheels
        np.array([parse_cards(t) for t in CASES], np.int32),  # last: the hand-picked ones
    ]
    return np.concatenate(parts)


@pytest.fixture(scope="module")
def rounds():
    return _rounds()


def _features(cards: np.ndarray) -> dict[str, np.ndarray]:
    """What the reference's rules turn on, per round, to check that the rounds reach the edges."""
    river = cards[:, RIVER]
    r, s = cards >> 2, cards & 3
    flop = np.concatenate([cards[:, :2], cards[:, 4:7]], axis=1)
    n_suit = ((flop & 3)[:, None, :] == (flop[:, :2] & 3)[:, :, None]).sum(axis=-1)
    board = evaluate_np(cards[:, 4:9], check=False) >> 27
    player = evaluate_np(river, check=False)
    return {
        "deuces": (r[:, 0] == 0) & (r[:, 1] == 0),
        "flop_trips": (r[:, 4] == r[:, 5]) & (r[:, 5] == r[:, 6]),
        "board_made": np.isin(board, (STRAIGHT, FLUSH, STRAIGHT_FLUSH)),
        "hole_plays": player > evaluate_np(cards[:, 4:9], check=False),
        "draw_ten": ((n_suit == 4) & (r[:, :2] == 8)).any(axis=1),
        "draw_nine": ((n_suit == 4) & (r[:, :2] == 7)).any(axis=1) & ~(r[:, :2] >= 8).any(
            axis=1),
        "outs": np.asarray(jax.jit(S.dealer_outs)(jnp.asarray(river))),
        "suited": s[:, 0] == s[:, 1],
    }


def test_rounds_reach_the_edges(rounds):
    f = _features(rounds)
    assert f["deuces"].sum() >= 20_000
    assert f["flop_trips"].sum() > 1_000
    made = f["board_made"]
    assert (made & f["hole_plays"]).sum() > 1_000 and (made & ~f["hole_plays"]).sum() > 1_000
    assert f["draw_ten"].sum() > 1_000 and f["draw_nine"].sum() > 1_000
    # 21 outs is rare (outs come in threes and fours: the board's ranks, the overcards)
    assert (f["outs"] == 20).sum() > 1_000 and (f["outs"] == 21).sum() > 100


@pytest.mark.parametrize("name", list(REFERENCE))
def test_described_strategy_is_the_references(decided, rounds, name):
    """Every point's action, reached or not, on every round: each sees only its columns."""
    got, want = decided[name]
    for p in TREE:
        g, w = np.asarray(got[p.name]), np.asarray(want[p.name])
        bad = np.flatnonzero(g != w)
        assert bad.size == 0, (p.name, rounds[bad[:5]].tolist(), g[bad[:5]], w[bad[:5]])
    if name == "basic":  # every action of the reference's is taken somewhere
        assert {int(a) for a in np.unique(np.asarray(want["flop"]))} == {0, 1}
        assert {int(a) for a in np.unique(np.asarray(want["river"]))} == {0, 1}




def test_hand_picked_rounds(decided):
    got, _ = decided["basic"]
    n = len(next(iter(got.values())))
    words = [tuple(p.actions[int(got[p.name][i])].name for p in TREE)
             for i in range(n - len(CASES), n)]
    assert dict(zip(CASES, words, strict=True)) == CASES


def test_dealer_outs_are_the_references_on_flush_boards():
    """The 26-evaluation count against the reference's 52 evaluations on boards of one or two
    suits (the flush suit's cards count apart), and against a brute count by the evaluator."""
    from gpusim.games.described.condition_eval import dealer_outs

    rng = np.random.default_rng(5)
    cards = np.concatenate([_deal(rng, 5_000, range(2, 52, 4)),
                            _deal(rng, 5_000, [c for c in range(52) if c % 4 < 2])])
    river = jnp.asarray(cards[:, RIVER])
    got = np.asarray(jax.jit(dealer_outs)(river, river[:, 2:], river[:, :0]))
    np.testing.assert_array_equal(got, np.asarray(jax.jit(S.dealer_outs)(river)))
    one = cards[0, RIVER]
    player = evaluate_np(one[None])[0]
    brute = sum(evaluate_np(np.append(one[2:], c)[None])[0] > player
                for c in range(52) if c not in one)
    assert got[0] == brute


# --- the conditions in other games' shapes ----------------------------------------------------


def _holds(base: str, point: str, cond: dict, cards: np.ndarray) -> np.ndarray:
    """(N,) bool: ``cond`` at ``point`` of game ``base``, read off a two-rule strategy."""
    game = copy.deepcopy(_game(base))
    actions = next(p for p in game["decisions"] if p["name"] == point)["actions"]
    name, strategy = next(iter(game["strategies"].items()))
    strategy[point] = [{**cond, "action": actions[1]["name"]}, {"action": actions[0]["name"]}]
    fn = rule_strategy(parse_description(ConfigReader("g.toml"), game), name)
    return np.asarray(jax.jit(fn)(jnp.asarray(cards))[point]) == 1


def test_conditions_on_fewer_than_five_cards_and_three_card_hands():
    """Mississippi Stud's fifth street sees four cards (two own, two on the board): category,
    own pair and suit conditions against counts written out here; Three Card Poker's play
    sees a three-card hand."""
    rng = np.random.default_rng(11)
    ms = _deal(rng, 4_000, range(52))[:, :5]
    seen = ms[:, :4]
    r, s = seen >> 2, seen & 3
    same_rank = (r[:, :, None] == r[:, None, :]).sum(axis=-1)  # per card: cards of its rank
    n_pairs = ((same_rank == 2).sum(axis=1) // 2)
    two_pair = (n_pairs == 2) & (same_rank.max(axis=1) == 2)
    np.testing.assert_array_equal(
        _holds("mississippi_stud", "fifth", {"category_in": ["two_pair"]}, ms), two_pair)
    np.testing.assert_array_equal(
        _holds("mississippi_stud", "fifth", {"own_card_paired": True}, ms),
        (same_rank[:, :2] >= 2).any(axis=1))
    same_suit = (s[:, :2, None] == s[:, None, :]).sum(axis=-1)  # per own card
    np.testing.assert_array_equal(
        _holds("mississippi_stud", "fifth",
               {"suited_with_own": {"cards": 3, "at_least": "Q"}}, ms),
        ((same_suit >= 3) & (r[:, :2] >= 10)).any(axis=1))
    tcp = np.concatenate([_deal(rng, 4_000, range(52))[:, :6],
                          _deal(rng, 1_000, range(0, 52, 4))[:, :6]])
    cat = evaluate_three_np(tcp[:, :3]) >> 27  # 1 pair, 2 flush
    np.testing.assert_array_equal(
        _holds("three_card_poker", "play", {"category_in": ["pair", "flush"]}, tcp),
        np.isin(cat, (1, 2)))


# --- the hand range --------------------------------------------------------------------------


def _cells(text: str) -> set[tuple[str, str]]:
    """The range as (ranks high-low, 's' / 'o' / '') hands."""
    out = set()
    for k in parse_hand_range(ConfigReader("t.toml"), text, "k"):
        a, b = divmod(k, 13)  # a suited hand sits above the diagonal
        hi, lo = max(a, b), min(a, b)
        kind = "" if hi == lo else ("s" if a < b else "o")
        out.add(("23456789TJQKA"[hi] + "23456789TJQKA"[lo], kind))
    return out


def test_hand_range_notation():
    assert _cells("33+") == {(r + r, "") for r in "3456789TJQKA"}
    assert _cells("22-44") == _cells("44-22") == {("22", ""), ("33", ""), ("44", "")}
    assert _cells("Q6s+") == {("Q" + r, "s") for r in "6789TJ"}
    assert _cells("K5o+") == {("K" + r, "o") for r in "56789TJQ"}
    assert _cells("AK") == {("AK", "s"), ("AK", "o")}
    assert _cells("K9s-KJs") == _cells("KJs-K9s") == {("K9", "s"), ("KT", "s"), ("KJ", "s")}
    assert _cells(" jto ,A10s") == {("JT", "o"), ("AT", "s")}
    assert len(_cells("22+, A2+, K2+, Q2+, J2+, T2+, 92+, 82+, 72+, 62+, 52+, 42+, 32")) == 169


BAD_RANGES = ["", "A2x", "2A", "2A+", "K2s-KAs", "22s", "AA-KQ", "A2s-K5s", "A2s-A5o", "A1s",
              "AKs+,", "AKQ", 33]


@pytest.mark.parametrize("text", BAD_RANGES, ids=[repr(t) for t in BAD_RANGES])
def test_bad_ranges_fail_in_one_line(text):
    with pytest.raises(ConfigError) as e:
        parse_hand_range(ConfigReader("t.toml"), text, "game.strategies.s.p[0].hand_in")
    msg = str(e.value)
    assert "\n" not in msg and "'game.strategies.s.p[0].hand_in'" in msg and "'33+'" in msg


def test_schema_reads_what_the_loader_reads():
    import jsonschema  # the dev extra installs it

    schema = json.loads((ROOT / "gpusim" / "games" / "described" / "schema.json").read_text())
    rule = schema["properties"]["game"]["properties"]["strategies"]["additionalProperties"][
        "additionalProperties"]["items"]
    hand_in = jsonschema.Draft202012Validator(rule["properties"]["hand_in"])
    for text in ("33+, A2s+, K2s+, Q6s+, J8s+, A2o+, K5o+, Q8o+, JTo", "22", "K9s-KJs", "ak",
                 "1010+", "A10o"):
        parse_hand_range(ConfigReader("t.toml"), text, "k")
        assert hand_in.is_valid(text), text
    for text in ("", "A2x", "AKs+,", "AKQ", "A1s", "33++"):
        assert not hand_in.is_valid(text), text
    validator = jsonschema.Draft202012Validator(schema)
    doc = _config("ultimate_holdem_3x_open")
    doc["game"] = _uth_game()
    assert [e.message for e in validator.iter_errors(doc)] == []


# --- mistakes --------------------------------------------------------------------------------


def _game(base: str) -> dict:
    return _uth_game() if base == "uth" else _config(base)["game"]


def _with_rule(base: str, point: str, cond: dict) -> tuple[dict, str]:
    """The game ``base`` with ``cond`` as the first rule at ``point`` of its first strategy
    (taking that point's last action), and that strategy's name."""
    game = copy.deepcopy(_game(base))
    name, strategy = next(iter(game["strategies"].items()))
    last = strategy[point][-1]
    strategy[point] = [{**cond, "action": last["action"]}, last]
    return game, name


MISTAKES = [  # base game, point, the rule's condition, the key's tail, words the line holds
    ("uth", "preflop", {"hand_in": "A2x"}, "preflop[0].hand_in", ("'A2x'", "'33+'")),
    ("uth", "preflop", {"hand_in": ["33+"]}, "preflop[0].hand_in", ("['33+']", "'A2s+'")),
    ("three_card_poker", "play", {"hand_in": "AK"}, "play[0].hand_in",
     ("two cards", "game.cards.player")),
    ("uth", "preflop", {"category_in": ["straight"]}, "preflop[0].category_in",
     ("['straight']", "high_card, pair, two_pair, three_of_a_kind, four_of_a_kind")),
    ("uth", "river", {"category_in": ["flushes"]}, "river[0].category_in",
     ("['flushes']", "straight_flush, royal_flush")),
    ("uth", "river", {"category_in": "flush"}, "river[0].category_in", ("'flush'", "array")),
    ("uth", "river", {"category_in": ["flush", "flush"]}, "river[0].category_in",
     ("distinct",)),
    ("uth", "flop", {"own_card_paired": False}, "flop[0].own_card_paired",
     ("false", "allowed: true")),
    ("uth", "flop", {"beats_board": True}, "flop[0].beats_board",
     ("3 board cards", "5 to 7 board cards")),
    ("uth", "river", {"beats_board": 1}, "river[0].beats_board", ("1", "allowed: true")),
    ("uth", "flop", {"suited_with_own": 4}, "flop[0].suited_with_own",
     ("4", "{ cards = N, at_least = R }", "2..5")),
    ("uth", "flop", {"suited_with_own": {"cards": 6}}, "flop[0].suited_with_own", ("2..5",)),
    ("uth", "flop", {"suited_with_own": {"cards": 4, "suit": "h"}}, "flop[0].suited_with_own",
     ("'suit'", "at_least")),
    ("uth", "flop", {"suited_with_own": {"cards": 4, "at_least": "Z"}},
     "flop[0].suited_with_own.at_least", ("'Z'", "2, 3, 4")),
    ("uth", "river", {"dealer_outs_below": 0}, "river[0].dealer_outs_below", ("0", "1..52")),
    ("uth", "river", {"dealer_outs_below": True}, "river[0].dealer_outs_below",
     ("true", "1..52")),
    ("uth", "flop", {"dealer_outs_below": 21}, "flop[0].dealer_outs_below",
     ("3 board cards", "4 to 6 board cards")),
    ("mississippi_stud", "fifth", {"dealer_outs_below": 21}, "fifth[0].dealer_outs_below",
     ("no dealer cards", "game.cards.dealer")),
]


@pytest.mark.parametrize("base, point, cond, key, words", MISTAKES,
                         ids=[f"{m[0]}-{m[3]}-{m[2]}" for m in MISTAKES])
def test_mistakes_are_one_line(base, point, cond, key, words):
    game, strategy = _with_rule(base, point, cond)
    with pytest.raises(ConfigError) as e:
        parse_description(ConfigReader("g.toml"), game)
    msg = str(e.value)
    assert "\n" not in msg, msg
    assert f"key 'game.strategies.{strategy}.{key}'" in msg, msg
    for w in words:
        assert w in msg, (w, msg)
