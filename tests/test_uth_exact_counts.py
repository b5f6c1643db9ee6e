"""Ultimate Texas Hold'em's enumeration against brute force: for a few flops and holes, every
turn-river board and every dealer hand is dealt and settled by the rules as the issue states
them, independently of the solver's packed cells, inclusion-exclusion and suit permutations.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from gpusim.board_index import board_classes, hole_index, situation_class
from gpusim.evaluator import evaluate_np
from gpusim.exact.boards import N_DEALER
from gpusim.games.base import qualifier_threshold
from gpusim.games.holdem.play_once_counts import (
    A_BOARDS,
    A_LQ,
    A_T,
    A_WINS,
    A_WN,
    R_BOARDS,
    R_LQ,
    R_T,
    R_WINS,
    R_WN,
    RiverPrices,
    solve_counts,
)
from gpusim.rules import Qualifier

# Blind 500/50/10/3/3:2/1 in half units (den 2), Trips 50/40/30/8/7/4/3 (must beat the dealer,
# so the river weighs it too), Ante 2.
BLIND2 = np.array([0, 0, 0, 0, 2, 3, 6, 20, 100, 1000])
TRIPS = np.array([-1, -1, -1, 3, 4, 7, 8, 30, 40, 50])
ANTE = 2


def _pay_class(rank):
    r = rank.astype(np.int64)
    cat = r >> 27
    royal = (cat == 8) & (((r >> 13) & 0x1FFF) == (0x1F << 8))
    return np.where(royal, 9, cat)


def _brute(flop, hole, qualifier, trips_stake):
    """(A counts, R counts) of one (flop, hole), dealing everything: wins, dealer-not-qualified
    wins and boards by pay class, ties, qualifying and non-qualifying losses."""
    dead = set(flop) | set(hole)
    live = [c for c in range(52) if c not in dead]
    a = np.zeros(51, np.int64)  # wins[10], wn[10], boards[10], t[10], lq[10], ln
    r = np.zeros(51, np.int64)
    for turn, river in combinations(live, 2):
        board = [*flop, turn, river]
        rest = [c for c in live if c not in (turn, river)]
        dealers = np.array(list(combinations(rest, 2)))
        pr = int(evaluate_np(np.array([[*hole, *board]]))[0])
        dr = evaluate_np(np.concatenate([dealers, np.broadcast_to(board, (len(dealers), 5))],
                                        axis=1)).astype(np.int64)
        pc = int(_pay_class(np.array([pr]))[0])
        q = dr >= qualifier
        win, tie, loss = pr > dr, pr == dr, pr < dr
        cnt = np.zeros(51, np.int64)
        cnt[pc] = win.sum()
        cnt[10 + pc] = (win & ~q).sum()
        cnt[20 + pc] = 1
        cnt[30 + pc], cnt[40 + pc], cnt[50] = tie.sum(), (loss & q).sum(), (loss & ~q).sum()
        # the river decision, priced bet by bet in money x 2 (a 3:2 pay stays whole)
        play = (2 * 1 * ANTE * (win.astype(int) - loss)          # Play 1x
                + 2 * ANTE * np.where(q, win.astype(int) - loss, 0)  # Ante
                + np.where(win, ANTE * BLIND2[pc], 2 * ANTE * -loss.astype(int)))  # Blind
        value = play.sum()
        if trips_stake:
            value += 2 * trips_stake * np.where(win, max(TRIPS[pc] + 1, 0), 0).sum()
        fold = -2 * 2 * ANTE * N_DEALER
        a += cnt
        if value > fold:
            r += cnt
    return a, r


# with Trips that must beat the dealer the river also weighs Trips: the fuller check runs in
# the default suite, the plain one in the slow suite
@pytest.mark.parametrize(("trips_stake", "qualifier"), [
    pytest.param(0, "pair", marks=pytest.mark.slow), (1, "pair"),
    # no qualifier (a dealer who always opens, configs/ultimate_holdem_3x_open.toml): rank 0
    pytest.param(0, None, marks=pytest.mark.slow)])
def test_counts_and_river_bits_equal_brute_force(trips_stake, qualifier):
    q = 0 if qualifier is None else qualifier_threshold(Qualifier(qualifier, 0))
    prices = RiverPrices(ANTE, 2, BLIND2, trips_stake, TRIPS)
    b3 = board_classes(3)
    # three deuces (symmetric in their three suits) and a flop of three suits and ranks
    flops = {0: None, 900: None}
    got = solve_counts(q, prices, flop_ids=np.array(list(flops)))
    rng = np.random.default_rng(7)
    for f in flops:
        flop = [int(c) for c in b3.reps[f]]
        live = [c for c in range(52) if c not in flop]
        for _ in range(2):
            hole = sorted(int(c) for c in rng.choice(live, 2, replace=False))
            a, r = _brute(flop, hole, q, trips_stake)
            row = got.counts[f, hole_index(hole[0], hole[1])].astype(np.int64)
            want_a = np.r_[row[A_WINS], row[A_WN], row[A_BOARDS], row[A_T], row[A_LQ]]
            np.testing.assert_array_equal(want_a, a[:50], err_msg=f"flop {flop} hole {hole}")
            want_r = np.r_[row[R_WINS], row[R_WN], row[R_BOARDS], row[R_T], row[R_LQ]]
            np.testing.assert_array_equal(want_r, r[:50], err_msg=f"flop {flop} hole {hole}")
            assert a[20:30].sum() == 1081


@pytest.mark.slow  # tests/test_uth_tables.py reads the shipped tables at the same classes
def test_river_bit_is_read_at_the_situations_class():
    """The river table is indexed by (5-card class, hole in the class's suits): every raw
    (board, hole) of one class reads the same bit."""
    q = qualifier_threshold(Qualifier("pair", 0))
    got = solve_counts(q, RiverPrices(ANTE, 2, BLIND2, 0, TRIPS), flop_ids=np.array([900]))
    b3, b5 = board_classes(3), board_classes(5)
    flop = b3.reps[900]
    rng = np.random.default_rng(3)
    live = np.setdiff1d(np.arange(52), flop)
    seen = 0
    for _ in range(200):
        c = rng.choice(live, 4, replace=False)
        board, hole = np.r_[flop, c[:2]], c[2:]
        cls, perm = b5.lookup(board[None])
        from gpusim.board_index import permute_cards

        h = permute_cards(hole[None], perm)[0]
        bit = got.river[cls[0], hole_index(h[0], h[1])]
        cls2, h2 = situation_class(hole[None], board[None])
        assert got.river[cls2[0], h2[0]] == bit
        seen += int(bit)
    assert 0 < seen < 200  # both answers occur
