"""Threefry-2x32-20: the counter-based generator behind every dealt card.

Threefry-2x32 (Salmon, Moraes, Dror, Shaw, "Parallel random numbers: as easy as 1, 2, 3",
SC'11) maps a 64-bit key and a 64-bit counter, each as two uint32 words, to two uint32
words. With 20 rounds it is the generator JAX itself uses. Being a pure function of
(key, counter), any batch of counters can be evaluated in any order,
on any device, with identical results: this is what makes a round's cards depend on
(seed, round index) alone.

Three implementations must agree bit for bit, and the tests check that they do:

- :func:`threefry2x32` in plain ``jax.numpy`` uint32 ops (jit-friendly, any shape);
- :func:`threefry2x32_numpy`, the numpy reference;
- ``kernels/rng.cuh``, the same rounds as ``__host__ __device__`` C++.

All three are checked against the Random123 known-answer vectors (``kat_vectors``),
see :data:`KAT_VECTORS`.

A run seed (0 .. 2**64 - 1) becomes the key by splitting it into two 32-bit words,
low word first (:func:`seed_key`).
"""

from __future__ import annotations

import operator

import jax.numpy as jnp
import numpy as np

__all__ = [
    "KAT_VECTORS",
    "ROTATIONS",
    "SEED_MAX",
    "SKEIN_PARITY",
    "seed_key",
    "threefry2x32",
    "threefry2x32_numpy",
]

SEED_MAX = 2**64 - 1

# Rotation constants R_32x2 of Threefry-2x32 (Random123 threefry.h), applied in turn.
ROTATIONS = (13, 15, 26, 6, 17, 29, 16, 24)
# Key-schedule parity constant of Skein/Threefish for 32-bit words.
SKEIN_PARITY = 0x1BD11BDA

# Random123 examples/kat_vectors, threefry2x32 lines:
# (rounds, (ctr0, ctr1), (key0, key1), (out0, out1)).
KAT_VECTORS = (
    (13, (0x00000000, 0x00000000), (0x00000000, 0x00000000), (0x9D1C5EC6, 0x8BD50731)),
    (13, (0xFFFFFFFF, 0xFFFFFFFF), (0xFFFFFFFF, 0xFFFFFFFF), (0xFD36D048, 0x2D17272C)),
    (13, (0x243F6A88, 0x85A308D3), (0x13198A2E, 0x03707344), (0xBA3E4725, 0xF27D669E)),
    (20, (0x00000000, 0x00000000), (0x00000000, 0x00000000), (0x6B200159, 0x99BA4EFE)),
    (20, (0xFFFFFFFF, 0xFFFFFFFF), (0xFFFFFFFF, 0xFFFFFFFF), (0x1CB996FC, 0xBB002BE7)),
    (20, (0x243F6A88, 0x85A308D3), (0x13198A2E, 0x03707344), (0xC4923A9C, 0x483DF7A0)),
    (32, (0x00000000, 0x00000000), (0x00000000, 0x00000000), (0xCEE3D47E, 0xA23DFD5C)),
    (32, (0xFFFFFFFF, 0xFFFFFFFF), (0xFFFFFFFF, 0xFFFFFFFF), (0x6E2FE0D0, 0xB1B76F82)),
    (32, (0x243F6A88, 0x85A308D3), (0x13198A2E, 0x03707344), (0xE2827716, 0xC3C05CDF)),
)


def seed_key(seed: int) -> tuple[int, int]:
    """Split a run seed into the Threefry key words ``(low 32 bits, high 32 bits)``.

    Raises ``ValueError`` unless ``seed`` is an integer in 0 .. 2**64 - 1.
    """
    if isinstance(seed, bool):
        raise ValueError(f"seed: got {seed!r}; expected an integer in 0..2**64-1")
    try:
        value = operator.index(seed)
    except TypeError:
        raise ValueError(f"seed: got {seed!r}; expected an integer in 0..2**64-1") from None
    if not 0 <= value <= SEED_MAX:
        raise ValueError(f"seed: got {value}; expected an integer in 0..2**64-1")
    return value & 0xFFFFFFFF, value >> 32


def _check_rounds(rounds: int) -> None:
    # Random123 defines Threefry-2x32 for 1..32 rounds (key injected after every 4th).
    if not 1 <= rounds <= 32:
        raise ValueError(f"rounds: got {rounds}; expected 1..32 (20 is the standard)")


def threefry2x32(key0, key1, ctr0, ctr1, rounds: int = 20):
    """Threefry-2x32 in ``jax.numpy`` uint32 arithmetic.

    ``key0, key1, ctr0, ctr1``: uint32 arrays or scalars, broadcast together (shape S).
    Returns ``(out0, out1)``: two ``S`` uint32 arrays. Traceable (use inside ``jax.jit``).
    """
    _check_rounds(rounds)
    u32 = jnp.uint32
    k0 = jnp.asarray(key0, u32)
    k1 = jnp.asarray(key1, u32)
    ks = (k0, k1, k0 ^ k1 ^ u32(SKEIN_PARITY))
    x0 = jnp.asarray(ctr0, u32) + ks[0]
    x1 = jnp.asarray(ctr1, u32) + ks[1]
    for r in range(rounds):
        rot = ROTATIONS[r % 8]
        x0 = x0 + x1
        x1 = (x1 << u32(rot)) | (x1 >> u32(32 - rot))
        x1 = x1 ^ x0
        if r % 4 == 3:
            s = r // 4 + 1
            x0 = x0 + ks[s % 3]
            x1 = x1 + ks[(s + 1) % 3] + u32(s)
    return x0, x1


def threefry2x32_numpy(key0, key1, ctr0, ctr1, rounds: int = 20):
    """Threefry-2x32 reference in numpy (same contract as :func:`threefry2x32`)."""
    _check_rounds(rounds)
    u32 = np.uint32
    k0, k1, c0, c1 = np.broadcast_arrays(
        *(np.asarray(v, dtype=np.uint64).astype(u32) for v in (key0, key1, ctr0, ctr1))
    )
    shape = k0.shape
    # Work on 1-d arrays: numpy scalars warn on wrap-around, arrays wrap silently.
    k0, k1, c0, c1 = (np.ravel(v) for v in (k0, k1, c0, c1))
    ks = (k0, k1, k0 ^ k1 ^ u32(SKEIN_PARITY))
    # uint32 array arithmetic wraps modulo 2**32 in numpy, as Threefry requires.
    x0 = c0 + ks[0]
    x1 = c1 + ks[1]
    for r in range(rounds):
        rot = ROTATIONS[r % 8]
        x0 = x0 + x1
        x1 = (x1 << u32(rot)) | (x1 >> u32(32 - rot))
        x1 = x1 ^ x0
        if r % 4 == 3:
            s = r // 4 + 1
            x0 = x0 + ks[s % 3]
            x1 = x1 + ks[(s + 1) % 3] + u32(s)
    return x0.reshape(shape), x1.reshape(shape)
