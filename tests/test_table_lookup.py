"""The described engine reads its tables without a gather (selects on packed words, in bit
planes when one plane would need too many words): every way must give ``table[index]``."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
import pytest

from gpusim.games.described.condition_eval import lookup


@pytest.mark.parametrize(
    "n, low, high",
    [
        (10, -3, 5),      # entry by entry
        (130, 0, 13),     # one plane of 4-bit entries (a hand-class table)
        (338, 0, 21),     # 5-bit entries in planes (a starting-hand table with a dealer's AA)
        (169, 0, 2),      # 1-bit entries
        (3000, 0, 1000),  # too many words even a bit an entry: a gather
        (2048, -7, 1),
    ],
)
def test_lookup_is_the_table_at_every_index(n, low, high):
    rng = np.random.default_rng(n)
    table = rng.integers(low, high, n)
    table[-1] = high - 1  # the widest entry at the last slot of the last word
    index = np.arange(n, dtype=np.int32)
    got = np.asarray(lookup(table, jnp.asarray(index)))
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, table)
