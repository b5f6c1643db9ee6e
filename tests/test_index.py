"""Card-set indices and suit classes of boards (gpusim.board_index)."""

from __future__ import annotations

from itertools import permutations
from math import comb

import numpy as np
import pytest

from gpusim.board_index import (
    PERMUTATIONS,
    board_classes,
    canonical_board,
    hole_index,
    permute_cards,
    set_index,
    situation_class,
    subsets,
    subsets_from_index,
)


def _burnside_orbits(k: int) -> int:
    """Suit classes of k-card sets by Burnside's lemma (independent of gpusim.board_index): a set is
    fixed by a suit permutation iff it is a union of the permutation's card cycles; each rank
    contributes one card cycle per suit cycle."""
    total = 0
    for perm in permutations(range(4)):
        seen, cycles = set(), []
        for s in range(4):
            if s in seen:
                continue
            n, t = 0, s
            while t not in seen:
                seen.add(t)
                t = perm[t]
                n += 1
            cycles.append(n)
        poly = np.zeros(k + 1, dtype=object)
        poly[0] = 1
        for length in cycles:
            for _ in range(13):
                new = poly.copy()
                new[length:] += poly[: k + 1 - length]
                poly = new
        total += poly[k]
    assert total % 24 == 0
    return total // 24


@pytest.mark.parametrize("k", [2, 3, 4])
def test_set_index_is_a_bijection(k):
    s = subsets(k)
    assert s.shape == (comb(52, k), k)
    assert (set_index(s) == np.arange(comb(52, k))).all()
    assert (subsets_from_index(np.arange(comb(52, k)), k) == s).all()


def test_hole_index_matches_set_index():
    rng = np.random.default_rng(5)
    pairs = np.array([rng.choice(52, 2, replace=False) for _ in range(500)])
    assert (hole_index(pairs[:, 0], pairs[:, 1]) == set_index(pairs)).all()
    assert (hole_index(pairs[:, 1], pairs[:, 0]) == set_index(pairs)).all()


@pytest.mark.parametrize("k,known", [(3, 1755), (4, None)])
def test_class_counts(k, known):
    b = board_classes(k)
    assert b.n_classes == _burnside_orbits(k)
    if known is not None:
        assert b.n_classes == known  # the well-known 1,755 strategically distinct flops
    assert b.weights.sum() == comb(52, k)
    # every raw board maps onto its class representative
    raw = subsets(k)
    rep = np.sort(permute_cards(raw, b.raw_perm), axis=1)
    assert (rep == b.reps[b.raw_class]).all()


def test_canonical_board_is_suit_invariant():
    rng = np.random.default_rng(11)
    boards = np.array([rng.choice(52, 4, replace=False) for _ in range(300)])
    canon, _ = canonical_board(boards)
    for p in range(24):
        moved = permute_cards(boards, np.full(len(boards), p))
        c2, _ = canonical_board(moved)
        assert (c2 == canon).all()


def test_permutation_table_is_all_24():
    assert len({tuple(p) for p in PERMUTATIONS}) == 24


def _brute_situation_key(hole, board):
    """Smallest (sorted board, sorted hole) over all 24 suit relabellings: one key per class."""
    keys = []
    for p in range(24):
        b = np.sort(permute_cards(board, np.full(len(board), p)), axis=1)
        h = np.sort(permute_cards(hole, np.full(len(hole), p)), axis=1)
        keys.append([tuple(bb) + tuple(hh) for bb, hh in zip(b.tolist(), h.tolist(), strict=True)])
    return [min(k) for k in zip(*keys, strict=True)]


@pytest.mark.parametrize("k", [3, 5])
def test_situation_class_matches_brute_force(k):
    """River (k = 5) and flop situations: situation_class gives one id per suit class, on a
    sample rich in suit-symmetric boards, each situation also relabelled at random."""
    rng = np.random.default_rng(40 + k)
    n = 150
    cards = np.argsort(rng.random((n, 52)), axis=1)[:, : 2 + k]
    # boards with tied suit masks (the same ranks in two suits), hole cards drawn at random
    r = np.stack([rng.choice(13, 3, replace=False) for _ in range(n)])
    board = np.stack([r[:, 0] * 4, r[:, 0] * 4 + 1, r[:, 1] * 4 + 2, r[:, 1] * 4 + 3, r[:, 2] * 4],
                     axis=1)[:, :k]
    rest = np.array([rng.choice(np.setdiff1d(np.arange(52), b), 2, replace=False)
                     for b in board])
    situations = np.concatenate([cards, np.concatenate([rest, board], axis=1)])
    perms = rng.integers(0, 24, len(situations))
    moved = np.concatenate([permute_cards(situations[:, :2], perms),
                            permute_cards(situations[:, 2:], perms)], axis=1)
    both = np.concatenate([situations, moved])
    cls, hole = situation_class(both[:, :2], both[:, 2:])
    assert (cls == board_classes(k).lookup(both[:, 2:])[0]).all()
    assert ((0 <= hole) & (hole < 1326)).all()
    ours = list(zip(cls.tolist(), hole.tolist(), strict=True))
    brute = _brute_situation_key(both[:, :2], both[:, 2:])
    m = len(situations)
    assert ours[:m] == ours[m:]  # a relabelled situation has the same class
    # the same partition as brute force: equal ids exactly when equal brute-force keys
    pairs = {}
    for o, b in zip(ours, brute, strict=True):
        assert pairs.setdefault(o, b) == b
    assert len(set(ours)) == len(set(brute))


@pytest.mark.parametrize("k", [2, 3, 4, 5])
def test_table_strategies_colex_matches_set_index(k):
    """The JAX lookup the table strategies use (up to a 5-card river board) is set_index,
    whatever order the cards come in (every order of k distinct cards, and random sets)."""
    import jax.numpy as jnp

    from gpusim.strategy.table_strategy import _BINOM, _colex

    orders = np.array(list(permutations(range(k))))
    rng = np.random.default_rng(k)
    sets = np.argsort(rng.random((50, 52)), axis=1)[:, :k]
    cards = np.concatenate([sets[0][orders], sets]).astype(np.int32)
    got = np.asarray(_colex(jnp.asarray(cards), jnp.asarray(_BINOM)))
    assert (got == set_index(cards)).all()
