"""Dealing: exact agreement with a from-the-spec oracle, reproducibility across batch
splits, the rejection path, input validation, and statistical checks over 10^7 deals.

The oracle below is written from the specification in ``gpusim/dealing.py`` with Python
integers: a scalar Threefry (checked against the Random123 vectors), ``divmod`` of
``x * P`` instead of the chained multiply, mixed-radix digits by division and a
textbook list Fisher-Yates. It shares no arithmetic with the code under test.
"""

from __future__ import annotations

import jax
import numpy as np
import pytest
from scipy.stats import chi2

from gpusim.dealing import (
    MAX_ROUND,
    _fisher_yates_jax,
    deal,
    deal_plan,
    deal_rounds,
)
from gpusim.dealing_numpy import deal_numpy
from gpusim.dealing_numpy import first_attempt_rejected as _first_attempt_rejected
from gpusim.rng import seed_key

M32 = 0xFFFFFFFF
ROT = (13, 15, 26, 6, 17, 29, 16, 24)


def py_threefry(k0: int, k1: int, c0: int, c1: int, rounds: int = 20) -> tuple[int, int]:
    ks = (k0, k1, k0 ^ k1 ^ 0x1BD11BDA)
    x0, x1 = (c0 + k0) & M32, (c1 + k1) & M32
    for r in range(rounds):
        x0 = (x0 + x1) & M32
        x1 = ((x1 << ROT[r % 8]) | (x1 >> (32 - ROT[r % 8]))) & M32
        x1 ^= x0
        if r % 4 == 3:
            s = r // 4 + 1
            x0 = (x0 + ks[s % 3]) & M32
            x1 = (x1 + ks[(s + 1) % 3] + s) & M32
    return x0, x1


def oracle(seed: int, r: int, k: int, force: int = 0) -> tuple[list[int], list[int]]:
    """(cards, attempts used per block) of round r."""
    k0, k1 = seed & M32, seed >> 32
    digits, attempts = [], []
    i = block = 0
    while i < k:
        start, product = i, 1
        while i < k and product * (52 - i) <= 2**52:
            product *= 52 - i
            i += 1
        a = 0
        while True:
            y0, y1 = py_threefry(k0, k1, r & M32, (r >> 32) | block << 16 | a << 19)
            u, low = divmod(((y0 << 32) | y1) * product, 2**64)
            forced = a < force and r % 4 == 0
            if (low >= 2**64 % product and not forced) or a == 8191:
                break
            a += 1
        block_digits = []
        for n in range(52 - i + 1, 52 - start + 1):  # least significant range first
            u, d = divmod(u, n)
            block_digits.append(d)
        digits += block_digits[::-1]
        attempts.append(a)
        block += 1
    deck = list(range(52))
    for i, j in enumerate(digits):
        deck[i], deck[i + j] = deck[i + j], deck[i]
    return deck[:k], attempts


def test_oracle_threefry_known_answers():
    assert py_threefry(0, 0, 0, 0) == (0x6B200159, 0x99BA4EFE)
    assert py_threefry(M32, M32, M32, M32) == (0x1CB996FC, 0xBB002BE7)
    assert py_threefry(0x13198A2E, 0x03707344, 0x243F6A88, 0x85A308D3) == (0xC4923A9C, 0x483DF7A0)
    assert py_threefry(0x13198A2E, 0x03707344, 0x243F6A88, 0x85A308D3, 13) == (
        0xBA3E4725,
        0xF27D669E,
    )


# 256 rounds each: one compiled batch size per card count, shared with other tests.
CASES = [
    (0, 0, 9),
    (2**64 - 1, 2**35, 9),
    (12345, 2**32 - 100, 5),  # round index crosses into the high word
    (7, MAX_ROUND - 256, 13),  # last representable rounds
    (99, 0, 52),
    (3, 10, 1),
    (4, 10, 2),
    (5, 0, 10),
    (6, 0, 11),
]


@pytest.mark.parametrize(("seed", "first", "k"), CASES)
def test_deal_matches_oracle(seed, first, k):
    n = 256
    expect = np.array([oracle(seed, first + i, k)[0] for i in range(n)], dtype=np.int32)
    got = deal(seed, first, n, k)
    assert got.shape == (n, k) and got.dtype == np.int32
    np.testing.assert_array_equal(np.asarray(got), expect)
    np.testing.assert_array_equal(deal_numpy(seed, first, n, k), expect)


def test_general_path_matches_packed_path():
    """Deals of <= 10 cards also have the general implementation (dense deck): same cards."""
    packed = np.asarray(deal(31, 1000, 1024, 9, _packed=True))
    dense = np.asarray(deal(31, 1000, 1024, 9, _packed=False))
    np.testing.assert_array_equal(packed, dense)


def test_naturally_rejected_rounds_match_oracle():
    """About 1 round in 100,000 redraws its 9-card word; those must follow the spec too."""
    seed = 7
    rejected = np.flatnonzero(_first_attempt_rejected(seed, 0, 10**6, 9)[:, 0])
    assert 3 <= rejected.size <= 40  # expected 9.8
    for r in rejected[:6].tolist():
        cards, attempts = oracle(seed, r, 9)
        assert attempts[0] >= 1
        first = max(0, r - 37)
        batch = np.asarray(deal(seed, first, 256, 9))
        np.testing.assert_array_equal(batch[r - first], cards)
        np.testing.assert_array_equal(deal_numpy(seed, r, 1, 9)[0], cards)


@pytest.mark.parametrize(("k", "n", "packed"), [(9, 2048, True), (9, 1024, False), (52, 256, None)])
def test_forced_rejection_path_matches_oracle(k, n, packed):
    """Every 4th round rejects its first two words per block: many redraw iterations."""
    force = 2
    expect = np.array([oracle(11, i, k, force)[0] for i in range(n)], dtype=np.int32)
    got = np.asarray(deal(11, 0, n, k, _force_reject=force, _packed=packed))
    np.testing.assert_array_equal(got, expect)
    np.testing.assert_array_equal(deal_numpy(11, 0, n, k, _force_reject=force), expect)
    plain = np.asarray(deal(11, 0, n, k))
    # The hook really changed the forced rows, and only them.
    assert (got[::4] != plain[::4]).any(axis=1).mean() > 0.9
    mask = np.arange(n) % 4 != 0
    np.testing.assert_array_equal(got[mask], plain[mask])


@pytest.mark.parametrize("first", [0, 2**32 - 3000, 2**35])
def test_same_cards_whatever_the_split(first):
    n = 4096
    whole = np.asarray(deal(2718281828, first, n, 9))
    for sizes in ([1000] * 4 + [96], [5, 995, 2000, 1096], [2048, 1, 1, 1, 2045]):
        parts, start = [], first
        for size in sizes:
            parts.append(np.asarray(deal(2718281828, start, size, 9)))
            start += size
        np.testing.assert_array_equal(np.concatenate(parts), whole)
    np.testing.assert_array_equal(deal_numpy(2718281828, first + 123, 456, 9), whole[123:579])


def test_same_cards_whatever_the_split_general_path():
    first = 2**32 - 300
    whole = np.asarray(deal(161803, first, 1024, 13))
    parts = [
        np.asarray(deal(161803, first, 256, 13)),
        np.asarray(deal(161803, first + 256, 768, 13)),
    ]
    np.testing.assert_array_equal(np.concatenate(parts), whole)


def test_deal_rounds_inside_a_caller_jit_with_any_round_indices():
    """The traceable core takes arbitrary (e.g. shuffled, sharded) round indices."""
    rounds = np.array([5, 2**32 + 3, 0, 2**40 + 17, 123456789, 5], dtype=np.uint64)
    k0, k1 = seed_key(2**63 + 9)
    fn = jax.jit(lambda lo, hi: deal_rounds(np.uint32(k0), np.uint32(k1), lo, hi, 9) + 0)
    lo = (rounds & np.uint64(M32)).astype(np.uint32)
    hi = (rounds >> np.uint64(32)).astype(np.uint32)
    got = np.asarray(fn(lo, hi))
    expect = [oracle(2**63 + 9, int(r), 9)[0] for r in rounds]
    np.testing.assert_array_equal(got, expect)


def test_seed_words_both_matter():
    a, b, c = (np.asarray(deal(s, 0, 1024, 9)) for s in (1, 2, 2**32 + 1))
    assert (a != b).any(axis=1).mean() > 0.99
    assert (a != c).any(axis=1).mean() > 0.99


def test_plan_blocks_cover_the_draws():
    assert [len(b.ranges) for b in deal_plan(9)] == [9]  # one Threefry word per round
    for k in range(1, 53):
        plan = deal_plan(k)
        assert [r for b in plan for r in b.ranges] == list(range(52, 52 - k, -1))
        for b in plan:
            assert b.product == int(np.prod(b.ranges, dtype=object)) <= 2**52
            assert b.threshold == 2**64 % b.product


def test_fisher_yates_is_a_bijection_for_three_cards():
    """All 52*51*50 digit triples give all 132,600 ordered triples, each once."""
    j0, j1, j2 = np.meshgrid(np.arange(52), np.arange(51), np.arange(50), indexing="ij")
    digits = [np.ravel(j).astype(np.int32) for j in (j0, j1, j2)]
    cards = np.stack([np.asarray(c) for c in _fisher_yates_jax(digits)], axis=1)
    assert cards.min() >= 0 and cards.max() <= 51
    assert (cards[:, 0] != cards[:, 1]).all() and (cards[:, 1] != cards[:, 2]).all()
    assert (cards[:, 0] != cards[:, 2]).all()
    codes = (cards[:, 0] * 52 + cards[:, 1]) * 52 + cards[:, 2]
    assert np.unique(codes).size == 52 * 51 * 50


# ---------------------------------------------------------------------------------------
# Input validation


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((-1, 0, 10, 9), r"^seed: got -1; expected an integer in 0\.\.2\*\*64-1$"),
        ((2**64, 0, 10, 9), r"^seed: got 18446744073709551616; expected"),
        ((1.5, 0, 10, 9), r"^seed: got 1\.5; expected"),
        ((True, 0, 10, 9), r"^seed: got True; expected"),
        ((0, -1, 10, 9), r"^first_round: got -1; expected an integer >= 0$"),
        ((0, 2.0, 10, 9), r"^first_round: got 2\.0; expected an integer >= 0$"),
        ((0, 0, -5, 9), r"^n_rounds: got -5; expected an integer >= 0$"),
        ((0, 0, "10", 9), r"^n_rounds: got '10'; expected an integer >= 0$"),
        ((0, 0, 10, 0), r"^n_cards: got 0; expected an integer in 1\.\.52$"),
        ((0, 0, 10, 53), r"^n_cards: got 53; expected an integer in 1\.\.52$"),
        ((0, 0, 10, 9.0), r"^n_cards: got 9\.0; expected an integer in 1\.\.52$"),
        ((0, MAX_ROUND - 5, 6, 9), r"^first_round \+ n_rounds: got .* below 2\*\*48$"),
    ],
)
@pytest.mark.parametrize("fn", [deal, deal_numpy])
def test_bad_inputs(fn, args, message):
    with pytest.raises(ValueError, match=message):
        fn(*args)


def test_edge_inputs():
    assert deal(0, 0, 0, 9).shape == (0, 9)
    assert deal_numpy(0, 0, 0, 9).shape == (0, 9)
    last = np.asarray(deal(np.uint64(2**64 - 1), np.int64(MAX_ROUND - 256), 256, 52))[-1]
    assert sorted(last.tolist()) == list(range(52))
    assert last.tolist() == oracle(2**64 - 1, MAX_ROUND - 1, 52)[0]


# ---------------------------------------------------------------------------------------
# Statistics over 10 x 2**20 (> 10^7) nine-card deals (fixed seed, so the outcome is deterministic).
#
# 12 chi-square tests: the card frequency at each of the 9 positions (52 cells, 51 degrees
# of freedom) and the joint frequency of the ordered card pairs at positions (0, 1),
# (0, 8) and (3, 4) (2652 cells, 2651 df). Each test fails below p = ALPHA / 12
# (Bonferroni), so a correct dealer fails this file's statistics with probability at most
# ALPHA = 1e-4 over the choice of seed.

CHUNK = 2**20
N_DEALS = 10 * CHUNK  # 10,485,760
PAIRS = ((0, 1), (0, 8), (3, 4))
ALPHA = 1e-4
N_TESTS = 9 + len(PAIRS)


def chi_square_p(counts: np.ndarray) -> float:
    """Upper-tail p-value of uniformity over the given cells."""
    counts = counts.astype(np.float64).ravel()
    expected = counts.sum() / counts.size
    stat = float(((counts - expected) ** 2).sum() / expected)
    return float(chi2.sf(stat, counts.size - 1))


@pytest.fixture(scope="module")
def tallies():
    pos = np.zeros((9, 52), np.int64)
    pairs = {p: np.zeros((52, 52), np.int64) for p in PAIRS}
    bad_rows = 0
    offsets = (np.arange(9) * 52).astype(np.int64)
    for start in range(0, N_DEALS, CHUNK):
        cards = np.asarray(deal(20250101, start, CHUNK, 9)).astype(np.int64)
        in_range = (cards >= 0) & (cards <= 51)
        bits = np.bitwise_or.reduce(np.left_shift(np.uint64(1), cards.astype(np.uint64)), axis=1)
        bad_rows += int((~in_range.all(axis=1) | (np.bitwise_count(bits) != 9)).sum())
        pos += np.bincount((cards + offsets).ravel(), minlength=9 * 52).reshape(9, 52)
        for a, b in PAIRS:
            pairs[(a, b)] += np.bincount(cards[:, a] * 52 + cards[:, b], minlength=2704).reshape(
                52, 52
            )
    return pos, pairs, bad_rows


def test_no_duplicate_or_invalid_card_in_ten_million_deals(tallies):
    pos, pairs, bad_rows = tallies
    assert bad_rows == 0
    assert pos.sum() == 9 * N_DEALS
    for table in pairs.values():
        assert np.trace(table) == 0  # a card never meets itself


def test_card_frequency_per_position(tallies):
    pos, _, _ = tallies
    for p in range(9):
        assert chi_square_p(pos[p]) > ALPHA / N_TESTS, f"position {p}"


@pytest.mark.parametrize("pair", PAIRS)
def test_ordered_pair_frequency(tallies, pair):
    table = tallies[1][pair]
    off_diagonal = table[~np.eye(52, dtype=bool)]
    assert off_diagonal.size == 2652
    assert chi_square_p(off_diagonal) > ALPHA / N_TESTS


def test_chi_square_detects_a_modulo_biased_dealer():
    """The same statistic flags a classic bug: j = (random byte) % n instead of exact."""
    rng = np.random.default_rng(5)
    n = 2**17
    deck = np.tile(np.arange(52), (n, 1))
    rows = np.arange(n)
    for i in range(2):
        j = rng.integers(0, 256, n) % (52 - i)
        t = i + j
        deck[rows, i], deck[rows, t] = deck[rows, t], deck[rows, i].copy()
    assert chi_square_p(np.bincount(deck[:, 0], minlength=52)) < ALPHA / N_TESTS
    unbiased = np.asarray(deal(1, 0, n, 2))
    assert chi_square_p(np.bincount(unbiased[:, 0], minlength=52)) > ALPHA / N_TESTS
