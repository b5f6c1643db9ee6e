"""Threefry-2x32: Random123 known answers, numpy vs JAX, JAX's own Threefry, seed keys."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from gpusim.rng import KAT_VECTORS, SEED_MAX, seed_key, threefry2x32, threefry2x32_numpy

# Random123 examples/kat_vectors, threefry2x32 lines: rounds, ctr0 ctr1, key0 key1, out0 out1.
# Written out again here (not imported) so that the test does not trust the module's copy.
PUBLISHED = """
threefry2x32 13 00000000 00000000 00000000 00000000 9d1c5ec6 8bd50731
threefry2x32 13 ffffffff ffffffff ffffffff ffffffff fd36d048 2d17272c
threefry2x32 13 243f6a88 85a308d3 13198a2e 03707344 ba3e4725 f27d669e
threefry2x32 20 00000000 00000000 00000000 00000000 6b200159 99ba4efe
threefry2x32 20 ffffffff ffffffff ffffffff ffffffff 1cb996fc bb002be7
threefry2x32 20 243f6a88 85a308d3 13198a2e 03707344 c4923a9c 483df7a0
threefry2x32 32 00000000 00000000 00000000 00000000 cee3d47e a23dfd5c
threefry2x32 32 ffffffff ffffffff ffffffff ffffffff 6e2fe0d0 b1b76f82
threefry2x32 32 243f6a88 85a308d3 13198a2e 03707344 e2827716 c3c05cdf
"""
KATS = [
    (int(f[1]), *(int(w, 16) for w in f[2:]))
    for f in (line.split() for line in PUBLISHED.strip().splitlines())
]


def test_module_kat_table_is_the_published_one():
    assert [(r, *c, *k, *o) for r, c, k, o in KAT_VECTORS] == KATS


@pytest.mark.parametrize(("rounds", "c0", "c1", "k0", "k1", "o0", "o1"), KATS)
def test_known_answers(rounds, c0, c1, k0, k1, o0, o1):
    u32 = np.uint32
    y = threefry2x32(u32(k0), u32(k1), u32(c0), u32(c1), rounds)
    assert (int(y[0]), int(y[1])) == (o0, o1)
    y = threefry2x32_numpy(k0, k1, c0, c1, rounds)
    assert (int(y[0]), int(y[1])) == (o0, o1)


def test_numpy_and_jax_agree_under_jit_and_broadcasting():
    rng = np.random.default_rng(2024)
    k0, k1 = (int(v) for v in rng.integers(0, 2**32, 2))
    c0, c1 = rng.integers(0, 2**32, size=(2, 50_000), dtype=np.uint64).astype(np.uint32)
    expect = threefry2x32_numpy(k0, k1, c0, c1)
    fn = jax.jit(lambda a, b, x, y: threefry2x32(a, b, x, y))
    got = fn(np.uint32(k0), np.uint32(k1), c0, c1)
    np.testing.assert_array_equal(np.asarray(got[0]), expect[0])
    np.testing.assert_array_equal(np.asarray(got[1]), expect[1])
    assert got[0].dtype == jnp.uint32 and got[0].shape == (50_000,)


def test_matches_jax_internal_threefry():
    """JAX's own PRNG core is Threefry-2x32-20: an independent implementation."""
    # an internal module: if a JAX release moves it, follow it here (the KAT tests still pin
    # the algorithm, but this oracle must not silently stop running)
    from jax._src.random.threefry2x32 import threefry_2x32

    rng = np.random.default_rng(7)
    for _ in range(3):
        k0, k1 = rng.integers(0, 2**32, 2, dtype=np.uint64).astype(np.uint32)
        c = rng.integers(0, 2**32, size=(2, 4096), dtype=np.uint64).astype(np.uint32)
        # threefry_2x32 takes the counters as one array: first half word 0, second word 1.
        ref = np.asarray(threefry_2x32((k0, k1), c.reshape(-1))).reshape(2, -1)
        y0, y1 = threefry2x32_numpy(k0, k1, c[0], c[1])
        np.testing.assert_array_equal(y0, ref[0])
        np.testing.assert_array_equal(y1, ref[1])


def test_numpy_scalars_give_zero_dim_arrays():
    y0, y1 = threefry2x32_numpy(0, 0, 0, 0)
    assert y0.shape == () and y0.dtype == np.uint32
    assert (int(y0), int(y1)) == (0x6B200159, 0x99BA4EFE)


def test_seed_key_splits_low_word_first():
    assert seed_key(0x0123456789ABCDEF) == (0x89ABCDEF, 0x01234567)
    assert seed_key(0) == (0, 0)
    assert seed_key(SEED_MAX) == (0xFFFFFFFF, 0xFFFFFFFF)
    assert seed_key(np.uint64(2**63)) == (0, 0x80000000)


@pytest.mark.parametrize("bad", [-1, 2**64, 1.5, True, "3", None])
def test_seed_key_rejects_bad_seeds(bad):
    with pytest.raises(ValueError, match=r"^seed: got .*expected an integer in 0\.\.2\*\*64-1$"):
        seed_key(bad)


@pytest.mark.parametrize("rounds", [0, 33, -4])
def test_rounds_out_of_range(rounds):
    with pytest.raises(ValueError, match="^rounds: got"):
        threefry2x32(0, 0, 0, 0, rounds)
    with pytest.raises(ValueError, match="^rounds: got"):
        threefry2x32_numpy(0, 0, 0, 0, rounds)
