"""Tests for gpusim.evaluate: exhaustive counts, the eval7 oracle, scripted edge cases.

Expected numbers come from outside the code under test: the published category counts of
all 5-, 6- and 7-card hands (e.g. Wikipedia "Poker probability"; the 6-card counts were
also recounted with eval7 alone over all 20,358,520 hands), the eval7 evaluator as an
independent oracle, and hand-worked examples whose expected ranks are written out with
the documented packing ``category << 27 | primary << 13 | kickers``.
"""

from __future__ import annotations

import itertools
import json
import math
import runpy
from pathlib import Path

import eval7
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from gpusim.cards import format_cards, parse_cards
from gpusim.compute.bench import bench_evaluator, random_hands
from gpusim.evaluator import (
    CATEGORY_NAMES,
    ROYAL_FLUSH_RANK,
    best_five,
    describe,
    evaluate,
    evaluate_np,
    hand_category,
    is_royal,
)

# Category indices spelled out here, not imported, so a renumbering would be caught.
HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
RANK_OF = {ch: i for i, ch in enumerate("23456789TJQKA")}
EVAL7_TYPES = (
    "High Card",
    "Pair",
    "Two Pair",
    "Trips",
    "Straight",
    "Flush",
    "Full House",
    "Quads",
    "Straight Flush",
)
EVAL7_DECK = [eval7.Card(format_cards([c])) for c in range(52)]


def packed(cat: int, primary: str = "", kickers: str = "") -> int:
    """Rank as documented: category << 27 | primary rank mask << 13 | kicker rank mask."""
    pri = sum(1 << RANK_OF[ch] for ch in primary)
    kick = sum(1 << RANK_OF[ch] for ch in kickers)
    return cat << 27 | pri << 13 | kick


def rank_of(text: str) -> int:
    return int(evaluate(np.array(parse_cards(text), np.int32)))


def all_combos(n: int, k: int) -> np.ndarray:
    """All k-subsets of range(n) in lexicographic order: (C(n, k), k) uint8."""
    flat = itertools.chain.from_iterable(itertools.combinations(range(n), k))
    return np.fromiter(flat, dtype=np.uint8, count=math.comb(n, k) * k).reshape(-1, k)


def deal_distinct(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    """n uniform random ordered draws of k distinct cards: (n, k) int32."""
    out = np.zeros((n, k), np.int32)
    for i in range(k):
        x = rng.integers(0, 52 - i, n, dtype=np.int32)
        # The x-th card not yet used: step over used cards in ascending order.
        for used in np.sort(out[:, :i], axis=1).T:
            x += x >= used
        out[:, i] = x
    return out


def eval7_values(hands: np.ndarray) -> np.ndarray:
    deck, ev = EVAL7_DECK, eval7.evaluate
    return np.array([ev([deck[c] for c in row]) for row in hands.tolist()], np.int64)


def eval7_categories(values: np.ndarray) -> np.ndarray:
    uniq, inv = np.unique(values, return_inverse=True)
    cats = np.array([EVAL7_TYPES.index(eval7.handtype(int(v))) for v in uniq])
    return cats[inv]


def assert_same_order(ours: np.ndarray, theirs: np.ndarray) -> None:
    """The two rank arrays order the hands identically, ties included."""
    idx = np.lexsort((theirs, ours))
    a, b = ours[idx], theirs[idx]
    assert np.all(np.diff(b) >= 0), "eval7 disagrees with gpusim's order"
    assert np.array_equal(a[1:] == a[:-1], b[1:] == b[:-1]), "ties differ from eval7's"


_CHUNK = 1 << 20


def category_counts(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Category counts and the distinct ranks of (M, K) hands, evaluated in fixed chunks."""
    counts = np.zeros(9, np.int64)
    distinct = []
    for i in range(0, len(hands), _CHUNK):
        chunk = hands[i : i + _CHUNK]
        m = len(chunk)
        if m < _CHUNK:  # pad to one compiled shape; the padding is sliced off
            chunk = np.concatenate([chunk, np.repeat(chunk[:1], _CHUNK - m, axis=0)])
        r = np.asarray(evaluate(chunk))[:m]
        counts += np.bincount(r >> 27, minlength=9)
        distinct.append(np.unique(r))
    return counts, np.unique(np.concatenate(distinct))


@pytest.fixture(scope="module")
def five_card_hands() -> np.ndarray:
    return all_combos(52, 5)


# --------------------------------------------------------------------------------------
# Exhaustive counts


def test_five_card_counts_exhaustive(five_card_hands):
    assert len(five_card_hands) == 2_598_960
    r = np.asarray(evaluate(five_card_hands))
    counts = np.bincount(hand_category(r), minlength=9)
    assert counts.tolist() == [
        1_302_540,
        1_098_240,
        123_552,
        54_912,
        10_200,
        5_108,
        3_744,
        624,
        40,
    ]
    assert int(is_royal(r).sum()) == 4
    assert len(np.unique(r)) == 7_462


def test_five_card_order_equals_eval7_exhaustive(five_card_hands):
    ours = np.asarray(evaluate(five_card_hands)).astype(np.int64)
    theirs = eval7_values(five_card_hands)
    assert np.array_equal(hand_category(ours), eval7_categories(theirs))
    assert_same_order(ours, theirs)


def six_card_hands(five: np.ndarray) -> np.ndarray:
    """All 20,358,520 six-card hands: lowest card a, then five cards above it."""
    first = five[:, 0]
    blocks = []
    for a in range(47):
        rest = five[np.searchsorted(first, a + 1) :]
        blocks.append(np.concatenate([np.full((len(rest), 1), a, np.uint8), rest], axis=1))
    return np.concatenate(blocks)


def test_six_card_counts_exhaustive(five_card_hands):
    hands = six_card_hands(five_card_hands)
    assert len(hands) == 20_358_520
    counts, distinct = category_counts(hands)
    assert counts.tolist() == [
        6_612_900,
        9_730_740,
        2_532_816,
        732_160,
        361_620,
        205_792,
        165_984,
        14_664,
        1_844,
    ]
    # Distinct 6-card values, recounted with eval7 alone over all 6-card hands.
    assert len(distinct) == 6_075


@pytest.mark.slow
def test_seven_card_counts_exhaustive(five_card_hands):
    first = five_card_hands[:, 0]
    counts = np.zeros(9, np.int64)
    distinct = []
    total = 0
    for a in range(46):
        blocks = []
        for b in range(a + 1, 47):
            rest = five_card_hands[np.searchsorted(first, b + 1) :]
            head = np.broadcast_to(np.array([a, b], np.uint8), (len(rest), 2))
            blocks.append(np.concatenate([head, rest], axis=1))
        hands = np.concatenate(blocks)
        total += len(hands)
        c, d = category_counts(hands)
        counts += c
        distinct.append(d)
    assert total == 133_784_560
    assert counts.tolist() == [
        23_294_460,
        58_627_800,
        31_433_400,
        6_461_620,
        6_180_020,
        4_047_644,
        3_473_184,
        224_848,
        41_584,
    ]
    assert len(np.unique(np.concatenate(distinct))) == 4_824


# --------------------------------------------------------------------------------------
# eval7 oracle on random hands


def _oracle_pairs(n: int, seed: int) -> None:
    """n heads-up showdowns (shared board): categories and comparison signs as eval7."""
    cards = deal_distinct(np.random.default_rng(seed), n, 9)
    player = np.concatenate([cards[:, 0:2], cards[:, 4:9]], axis=1)
    dealer = cards[:, 2:9]
    ours_p = np.asarray(evaluate(player)).astype(np.int64)
    ours_d = np.asarray(evaluate(dealer)).astype(np.int64)
    theirs_p, theirs_d = eval7_values(player), eval7_values(dealer)
    assert np.array_equal(hand_category(ours_p), eval7_categories(theirs_p))
    assert np.array_equal(hand_category(ours_d), eval7_categories(theirs_d))
    assert np.array_equal(np.sign(ours_p - ours_d), np.sign(theirs_p - theirs_d))
    assert_same_order(np.concatenate([ours_p, ours_d]), np.concatenate([theirs_p, theirs_d]))


def test_oracle_eval7_random_showdowns():
    _oracle_pairs(1_000_000, seed=20240601)


@pytest.mark.slow
def test_oracle_eval7_random_showdowns_10m():
    for i in range(10):
        _oracle_pairs(1_000_000, seed=7_000 + i)


def test_oracle_eval7_random_six_and_five_card_hands():
    rng = np.random.default_rng(11)
    for k in (5, 6):
        hands = deal_distinct(rng, 200_000, k)
        ours = np.asarray(evaluate(hands)).astype(np.int64)
        theirs = eval7_values(hands)
        assert np.array_equal(hand_category(ours), eval7_categories(theirs))
        assert_same_order(ours, theirs)


def test_deal_distinct_helper_gives_distinct_cards():
    cards = deal_distinct(np.random.default_rng(3), 10_000, 9)
    assert cards.min() == 0 and cards.max() == 51
    srt = np.sort(cards, axis=1)
    assert np.all(srt[:, 1:] != srt[:, :-1])


# --------------------------------------------------------------------------------------
# Scripted edge cases (expected ranks worked out by hand from the rules)


def test_wheel_is_five_high_straight():
    # A-2-3-4-5 plus a pair of kings: the straight beats the pair; the ace plays low.
    assert rank_of("As 2d 3h 4c 5s Kd Kh") == packed(STRAIGHT, "5")
    assert rank_of("As 2d 3h 4c 5s") == packed(STRAIGHT, "5")
    # Any six-high straight beats the wheel; the wheel beats three aces.
    assert rank_of("As 2d 3h 4c 5s") < rank_of("2d 3h 4c 5s 6c")
    assert rank_of("As 2d 3h 4c 5s") > rank_of("As Ad Ac Kd 9s")
    # A-K-Q-J-T is the top straight; K-A-2-3-4 is no straight (no wrap-around).
    assert rank_of("As Kd Qh Jc Ts") == packed(STRAIGHT, "A")
    assert rank_of("Ks As 2d 3h 4c") == packed(HIGH, kickers="AK432")


def test_steel_wheel_beats_higher_plain_straight():
    # Ah-5h make a five-high straight flush; 6c also makes a six-high straight, which
    # is lower than any straight flush.
    assert rank_of("Ah 2h 3h 4h 5h 6c Kd") == packed(STRAIGHT_FLUSH, "5")
    assert rank_of("Ah 2h 3h 4h 5h") == packed(STRAIGHT_FLUSH, "5")
    assert describe(rank_of("Ah 2h 3h 4h 5h")) == "Straight flush, five high (steel wheel)"


def test_six_and_seven_card_straights_use_top_five():
    assert rank_of("4c 5d 6h 7s 8c 9d Kh") == packed(STRAIGHT, "9")
    assert rank_of("4c 5d 6h 7s 8c 9d Th") == packed(STRAIGHT, "T")
    assert rank_of("Ac 2d 3h 4s 5c 6d") == packed(STRAIGHT, "6")
    # Straights with a paired rank inside: still the straight.
    assert rank_of("8c 8d 9h Ts Jc Qd 2h") == packed(STRAIGHT, "Q")


def test_two_trips_make_a_full_house():
    # Kings full of fives: the higher trips make the three, two of the lower the pair.
    assert rank_of("Kd Kh Ks 5c 5s 5d 2h") == packed(FULL_HOUSE, "K", "5")
    assert rank_of("5c 5s 5d Kd Kh Ks Ah") == packed(FULL_HOUSE, "K", "5")
    # Trips plus two pairs: the higher pair completes the house.
    assert rank_of("7c 7d 7h 9c 9d 4s 4h") == packed(FULL_HOUSE, "7", "9")
    # Sevens full of nines lose to nines full of sevens.
    assert rank_of("7c 7d 7h 9c 9d") < rank_of("9c 9d 9h 7c 7d")


def test_three_pairs_play_the_top_two_and_best_kicker():
    # K-K, 7-7 and 5-5: the fives can be the kicker, beating a lone three.
    assert rank_of("Kd Kh 5c 5s 7d 7c 3h") == packed(TWO_PAIR, "K7", "5")
    # A higher single card beats the third pair as kicker.
    assert rank_of("Kd Kh 5c 5s 7d 7c Ah") == packed(TWO_PAIR, "K7", "A")
    assert rank_of("Kd Kh 5c 5s 7d 7c 2h") == packed(TWO_PAIR, "K7", "5")
    assert describe(rank_of("Kd Kh 5c 5s 7d 7c 2h")) == "Two pair, kings and sevens, five kicker"


def test_quads_take_the_best_kicker():
    assert rank_of("9c 9d 9h 9s Ad Ac Kh") == packed(QUADS, "9", "A")
    # Quads plus trips: one king is the kicker.
    assert rank_of("9c 9d 9h 9s Kc Kd Kh") == packed(QUADS, "9", "K")
    assert rank_of("2c 2d 2h 2s 3c 4d 6h") == packed(QUADS, "2", "6")
    # Quads on the board: the kicker decides between the two hands.
    board = "9c 9d 9h 9s 3c"
    assert rank_of("Ad 4d " + board) > rank_of("Kd Qd " + board)
    # ...unless the board card is the best kicker: then the board plays and they tie.
    board = "9c 9d 9h 9s Ac"
    assert rank_of("Kd Qd " + board) == rank_of("2c 3c " + board) == packed(QUADS, "9", "A")


def test_six_or_seven_suited_cards_use_top_five():
    assert rank_of("Ah Jh 9h 6h 3h 2h Kd") == packed(FLUSH, kickers="AJ963")
    assert rank_of("Ah Jh 9h 6h 3h 2h 4h") == packed(FLUSH, kickers="AJ964")
    assert rank_of("Ah Jh 9h 6h 3h 2h") == packed(FLUSH, kickers="AJ963")
    # Flushes compare card by card down to the fifth.
    assert rank_of("Ah Jh 9h 6h 4h") > rank_of("Ad Jd 9d 6d 3d")
    assert rank_of("Ah Jh 9h 6h 4h") == rank_of("Ad Jd 9d 6d 4d")
    # Seven hearts holding a straight flush: the straight flush.
    assert rank_of("9h Th Jh Qh Kh 2h 8h") == packed(STRAIGHT_FLUSH, "K")


def test_straight_and_flush_without_straight_flush():
    # Hearts 9 T J K 2 make a flush; 8-9-T-J-Q-K a straight; no five suited in sequence.
    assert rank_of("9h Th Jh Qc Kh 2h 8d") == packed(FLUSH, kickers="KJT92")
    # A lower straight flush still beats a higher straight.
    assert rank_of("5h 6h 7h 8h 9h Tc Jd") == packed(STRAIGHT_FLUSH, "9")
    # Straight flush with a higher off-suit straight card on top.
    assert rank_of("5h 6h 7h 8h 9h Tc") == packed(STRAIGHT_FLUSH, "9")


def test_board_plays_for_both_hands():
    board = "Tc Jd Qh Ks Ad"
    player, dealer = "2c 3d " + board, "4h 5s " + board
    assert rank_of(player) == rank_of(dealer) == packed(STRAIGHT, "A")
    # Two pair on board with the best kicker on board: the hole cards do not play.
    board = "Kc Kd 8h 8s Ac"
    assert rank_of("2c 3d " + board) == rank_of("Qh Jd " + board) == packed(TWO_PAIR, "K8", "A")


def test_pairs_and_high_cards():
    assert rank_of("7c 7d Ah Kh 2s 3s 9d") == packed(PAIR, "7", "AK9")
    assert rank_of("2c 7d 9h Jc Ks 3d 4h") == packed(HIGH, kickers="KJ974")
    assert rank_of("7c 7d 7h Ah Kh 2s 3s") == packed(TRIPS, "7", "AK")
    # The sixth and seventh best cards never count.
    assert rank_of("Ac Kd Qh 9s 7c 3d 2h") == rank_of("As Kh Qd 9c 7d 4s 3c")


def test_royal_flush():
    r = rank_of("Ts Js Qs Ks As 2c 3d")
    assert r == ROYAL_FLUSH_RANK == packed(STRAIGHT_FLUSH, "A")
    assert bool(is_royal(np.uint32(r)))
    assert not bool(is_royal(np.uint32(rank_of("9s Ts Js Qs Ks"))))
    assert describe(r) == "Straight flush, ace high (royal flush)"


# --------------------------------------------------------------------------------------
# API behaviour


def test_category_names_and_hand_category_kinds():
    assert CATEGORY_NAMES == (
        "high_card",
        "pair",
        "two_pair",
        "three_of_a_kind",
        "straight",
        "flush",
        "full_house",
        "four_of_a_kind",
        "straight_flush",
    )
    ranks = evaluate(np.array([parse_cards("As Ks Qs Js Ts"), parse_cards("2c 2d 5h 7s 9c")]))
    assert hand_category(ranks).tolist() == [STRAIGHT_FLUSH, PAIR]
    assert hand_category(np.asarray(ranks)).tolist() == [STRAIGHT_FLUSH, PAIR]
    assert is_royal(ranks).tolist() == [True, False]


def test_batch_shapes_and_dtypes_agree():
    hands = deal_distinct(np.random.default_rng(5), 24, 7)
    flat = np.asarray(evaluate(hands))
    assert flat.dtype == np.uint32 and flat.shape == (24,)
    assert np.array_equal(np.asarray(evaluate(hands.reshape(2, 3, 4, 7))).ravel(), flat)
    for dtype in (np.uint8, np.int8, np.int64, np.uint32):
        assert np.array_equal(np.asarray(evaluate(hands.astype(dtype))), flat)
    assert np.array_equal(np.asarray(evaluate(jnp.asarray(hands))), flat)
    assert np.array_equal(evaluate_np(hands), flat)
    # Card order within a hand does not matter.
    assert np.array_equal(np.asarray(evaluate(hands[:, ::-1])), flat)


@pytest.mark.parametrize("shape", [(4,), (3, 8), (2, 4), ()])
def test_evaluate_rejects_bad_shapes(shape):
    with pytest.raises(ValueError, match="cards: shape"):
        evaluate(np.zeros(shape, np.int32))
    with pytest.raises(ValueError, match="cards: shape"):
        best_five(np.zeros(shape, np.int32))


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ([0, 1, 2, 3, 52], "card code 52"),
        ([0, 1, 2, 3, -1], "card code -1"),
        ([[0, 1, 2, 3, 4], [5, 6, 7, 7, 9]], r"index \(1,\) repeats card code 7"),
    ],
)
def test_evaluate_np_rejects_bad_cards(hand, message):
    with pytest.raises(ValueError, match=message):
        evaluate_np(np.array(hand))


def test_evaluate_np_rejects_float_cards():
    with pytest.raises(ValueError, match="dtype float64"):
        evaluate_np(np.zeros((1, 7)))


@pytest.mark.parametrize(
    ("hand", "five"),
    [
        ("As 2d 3h 4c 5s Kd Kh", "5s 4c 3h 2d As"),
        ("Ah 2h 3h 4h 5h 6c Kd", "5h 4h 3h 2h Ah"),
        ("Kd Kh 5c 5s 7d 2c 3h", "Kh Kd 5s 5c 7d"),
        ("5c 5s 5d Kd Kh Ks 2h", "Ks Kh Kd 5s 5d"),
        ("9c 9d 9h 9s Ad Ac Kh", "9s 9h 9d 9c Ad"),
        ("Ah Jh 9h 6h 3h 2h Kd", "Ah Jh 9h 6h 3h"),
        ("9h Th Jh Qc Kh 2h 8d", "Kh Jh Th 9h 2h"),
        ("4c 5d 6h 7s 8c 9d Th", "Th 9d 8c 7s 6h"),
        ("7c 7d Ah Kh 2s 3s 9d", "7d 7c Ah Kh 9d"),
        ("7c 7d 7h Ah Kh 2s 3s", "7h 7d 7c Ah Kh"),
        ("2c 7d 9h Jc Ks 3d 4h", "Ks Jc 9h 7d 4h"),
        ("Kd Kh 5c 5s 7d 7c 3h", "Kh Kd 7d 7c 5s"),
        ("7c 7d 7h 9c 9d 4s 4h", "7h 7d 7c 9d 9c"),
        ("9h Th Jh Qh Kh 2h 8h", "Kh Qh Jh Th 9h"),
        ("Qs Jd Tc 9h 8s", "Qs Jd Tc 9h 8s"),
    ],
)
def test_best_five_scripted(hand, five):
    assert format_cards(np.asarray(best_five(np.array(parse_cards(hand))))) == format_cards(
        parse_cards(five)
    )


def test_best_five_random_hands_reproduce_the_rank():
    rng = np.random.default_rng(9)
    for k in (5, 6, 7):
        hands = deal_distinct(rng, 20_000, k)
        five = np.asarray(best_five(hands))
        assert five.shape == (20_000, 5)
        # The five cards come from the hand, are distinct, and score the hand's rank.
        assert np.all((five[:, :, None] == hands[:, None, :]).any(axis=2))
        srt = np.sort(five, axis=1)
        assert np.all(srt[:, 1:] != srt[:, :-1])
        assert np.array_equal(np.asarray(evaluate(five)), np.asarray(evaluate(hands)))


@pytest.mark.parametrize(
    ("hand", "text"),
    [
        ("Ts Js Qs Ks As", "Straight flush, ace high (royal flush)"),
        ("9s Ts Js Qs Ks", "Straight flush, king high"),
        ("9c 9d 9h 9s Ad", "Four of a kind, nines, ace kicker"),
        ("Kd Kh Ks 5c 5s", "Full house, kings full of fives"),
        ("Ac Jc 9c 6c 3c", "Flush, ace, jack, nine, six, three"),
        ("Tc Jd Qh Ks 9d", "Straight, king high"),
        ("As 2d 3h 4c 5s", "Straight, five high (wheel)"),
        ("7c 7d 7h Ah Kh", "Three of a kind, sevens, ace, king kickers"),
        ("Kd Kh 5c 5s 7d", "Two pair, kings and fives, seven kicker"),
        ("6c 6d Ah Kh 9d", "Pair of sixes, ace, king, nine kickers"),
        ("2c 7d 9h Jc Ks", "High card, king, jack, nine, seven, two"),
    ],
)
def test_describe(hand, text):
    assert describe(rank_of(hand)) == text


def test_describe_rejects_non_ranks():
    with pytest.raises(ValueError, match="rank: "):
        describe(9 << 27)
    with pytest.raises(ValueError, match="rank: -1"):
        describe(-1)
    with pytest.raises(ValueError, match="rank: "):
        describe(TWO_PAIR << 27 | 1 << 13)  # two pair with one pair rank


def test_evaluate_composes_with_user_jit_and_vmap():
    hands = deal_distinct(np.random.default_rng(12), 64, 7)
    direct = np.asarray(evaluate(hands))
    assert np.array_equal(np.asarray(jax.jit(evaluate)(jnp.asarray(hands))), direct)
    assert np.array_equal(np.asarray(jax.vmap(evaluate)(jnp.asarray(hands))), direct)


# --------------------------------------------------------------------------------------
# Benchmark plumbing (no timing asserts: only that it runs and reports)


def test_random_hands_are_distinct_and_seeded():
    a = random_hands(20_000, 9, seed=4)
    assert a.shape == (20_000, 9) and a.dtype == np.int32
    assert a.min() == 0 and a.max() == 51
    srt = np.sort(a, axis=1)
    assert np.all(srt[:, 1:] != srt[:, :-1])
    assert np.array_equal(a, random_hands(20_000, 9, seed=4))
    assert not np.array_equal(a, random_hands(20_000, 9, seed=5))
    with pytest.raises(ValueError, match="random_hands"):
        random_hands(0)


def test_bench_evaluator_reports_gpusim_and_peers():
    res = bench_evaluator(n_hands=4096, repeats=2, seed=1, peer_hands=300)
    assert res["batch"] == 4096 and res["repeats"] == 2 and res["peer_hands"] == 300
    assert res["evals_per_s"] > 0 and res["evals_per_cpu_s"] > 0 and len(res["seconds"]) == 2
    # each timed window lasts at least min_window (0.5 s): a 5 ms window measured noise
    assert min(res["seconds"]) >= 0.5 and res["window_s"] == 0.5 and len(res["rates"]) == 2
    assert res["evals_per_s"] == pytest.approx(sum(res["rates"]) / 2)
    assert res["spread"] >= 0
    assert res["peers"]["eval7"] > 0 and res["ratios"]["eval7"] > 0
    assert res["peer_errors"] == {}
    json.dumps(res)
    with pytest.raises(ValueError, match="n_hands: 0"):
        bench_evaluator(n_hands=0)


def test_benchmark_script_prints_json(capsys):
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "evaluator.py"
    module = runpy.run_path(str(path))
    args = ["--json", "--n-hands", "2048", "--repeats", "1", "--peer-hands", "100"]
    assert module["main"](args) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"evals_per_s", "peers", "batch", "repeats"} <= set(out)
    assert out["batch"] == 2048 and "eval7" in out["peers"]


@pytest.mark.parametrize("k", [3, 4, 5])
def test_evaluate_board_pairs_equals_evaluate(k):
    from gpusim.evaluator import evaluate_board_pairs

    rng = np.random.default_rng(k)
    cards = np.array([rng.permutation(52)[: k + 12] for _ in range(40)], dtype=np.int32)
    boards, rest = cards[:, :k], cards[:, k:]
    i, j = np.triu_indices(12, 1)
    got = evaluate_board_pairs(boards, rest[:, i], rest[:, j])
    hands = np.concatenate([np.broadcast_to(boards[:, None], (40, len(i), k)),
                            rest[:, i, None], rest[:, j, None]], axis=2)
    assert got.dtype == np.uint32 and got.shape == (40, len(i))
    assert np.array_equal(got, evaluate_np(hands))
    with pytest.raises(ValueError, match="boards: shape"):
        evaluate_board_pairs(cards[:, :2], rest[:, i], rest[:, j])
