"""Card-set indices and suit classes of boards (gpusim.index)."""

from __future__ import annotations

from itertools import permutations
from math import comb

import numpy as np
import pytest

from gpusim.index import (
    PERMUTATIONS,
    board_classes,
    canonical_board,
    hole_index,
    permute_cards,
    set_index,
    subsets,
    subsets_from_index,
)


def _burnside_orbits(k: int) -> int:
    """Suit classes of k-card sets by Burnside's lemma (independent of gpusim.index): a set is
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
