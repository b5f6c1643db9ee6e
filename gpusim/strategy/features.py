"""Poker hand features of the cards a player has seen, for rule strategies (JAX, elementwise):
pairs and trips made with a hole card, flush and straight draws, runs on rank bit masks.

Every function takes ``seen`` (N, k) int32 cards, the hole cards first (columns 0 and 1), then
the board seen so far, and works for any k, so any hold'em-like game's rule lists can use them.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

__all__ = [
    "ace_low",
    "always",
    "cover",
    "features",
    "hole_mask",
    "hole_in_run",
    "hole_in_run_bits",
    "rank_mask",
    "ranks_suits",
    "runs",
    "street",
]

_U = jnp.uint32


def ranks_suits(seen: jax.Array):
    seen = seen.astype(jnp.int32)
    return seen >> 2, seen & 3


def rank_mask(ranks: jax.Array) -> jax.Array:
    """(N, k) distinct-or-not ranks -> (N,) uint32 presence mask, bit r = rank r."""
    bits = _U(1) << ranks.astype(_U)
    out = jnp.zeros(ranks.shape[:-1], _U)
    for j in range(ranks.shape[-1]):
        out = out | bits[..., j]
    return out


def ace_low(mask: jax.Array) -> jax.Array:
    """Shift a rank mask up one bit and copy the ace to bit 0, so runs see A-2-3-4-5."""
    return (mask << _U(1)) | (mask >> _U(12))


def runs(e: jax.Array, length: int) -> jax.Array:
    """Bit i set where ace-low mask ``e`` holds bits i .. i+length-1."""
    run = e
    for k in range(1, length):
        run = run & (e >> _U(k))
    return run


def hole_in_run(run: jax.Array, hole_e: jax.Array, length: int, starts) -> jax.Array:
    """True where a run of ``length`` starting at an allowed bit contains a hole bit."""
    window = _U((1 << length) - 1)
    hit = jnp.zeros(run.shape, bool)
    for i in starts:
        has = ((run >> _U(i)) & _U(1)) == _U(1)
        hit = hit | (has & (((hole_e >> _U(i)) & window) != _U(0)))
    return hit


def hole_mask(hole_ranks: jax.Array) -> jax.Array:
    return ace_low(rank_mask(hole_ranks))


def features(seen: jax.Array) -> dict[str, jax.Array]:
    """Hand features of the seen cards (N, k), hole cards first (columns 0 and 1)."""
    ranks, suits = ranks_suits(seen)
    hole_r, hole_s = ranks[:, :2], suits[:, :2]
    counts = jnp.sum(ranks[:, None, :] == hole_r[:, :, None], axis=-1)  # (N, 2)
    suit_counts = jnp.sum(suits[:, None, :] == hole_s[:, :, None], axis=-1)  # (N, 2)
    n_ranks = jnp.stack([jnp.sum(ranks == r, axis=-1) for r in range(13)], axis=-1)  # (N, 13)
    e = ace_low(rank_mask(ranks))
    hole_e = hole_mask(hole_r)
    # Ranks seen at least twice, and whether a hole rank is among them.
    paired = jnp.sum(n_ranks >= 2, axis=-1)
    hole_pair_rank = jnp.max(jnp.where(counts >= 2, hole_r, -1), axis=-1)
    # Four to a straight flush with a hole card: per hole card, runs of its suit.
    sf4 = jnp.zeros(seen.shape[:1], bool)
    sf5 = jnp.zeros(seen.shape[:1], bool)
    for h in range(2):
        same = suits == hole_s[:, h : h + 1]
        suit_e = ace_low(rank_mask(jnp.where(same, ranks, ranks[:, h : h + 1])))
        own_e = ace_low(_U(1) << hole_r[:, h].astype(_U))
        sf4 = sf4 | hole_in_run(runs(suit_e, 4), own_e, 4, range(11))
        sf5 = sf5 | hole_in_run(runs(suit_e, 5), own_e, 5, range(10))
    return {
        "hole_pair": jnp.any(counts >= 2, axis=-1),
        "hole_pair_rank": hole_pair_rank,
        "hole_trips": jnp.any(counts >= 3, axis=-1),
        "two_pair_with_hole": (paired >= 2) & jnp.any(counts >= 2, axis=-1),
        "flush4": jnp.any(suit_counts >= 4, axis=-1),
        "flush5": jnp.any(suit_counts >= 5, axis=-1),
        "run4": hole_in_run(runs(e, 4), hole_e, 4, range(11)),
        "open_ended4": hole_in_run(runs(e, 4), hole_e, 4, range(1, 10)),
        "straight": hole_in_run(runs(e, 5), hole_e, 5, range(10)),
        "sf4": sf4,
        "sf5": sf5,
        "hole_high": jnp.max(hole_r, axis=-1),
        "hole_low": jnp.min(hole_r, axis=-1),
        "hole_suited": hole_s[:, 0] == hole_s[:, 1],
    }


def cover(e: jax.Array, length: int) -> jax.Array:
    """Bit i set where ``e`` has a bit in i .. i+length-1 (the window of a run starting at i)."""
    out = e
    for j in range(1, length):
        out = out | (e >> _U(j))
    return out


def hole_in_run_bits(run, hole_e, length: int, n_starts: int) -> jax.Array:
    """:func:`hole_in_run` for starts 0 .. n_starts-1, all at once on the bits."""
    return (run & cover(hole_e, length) & _U((1 << n_starts) - 1)) != _U(0)


def street(seen: jax.Array):
    """Rank/suit bits of the k seen cards (hole, hole, flop x3[, turn]) and their features."""
    c = seen.astype(jnp.int32)
    k = c.shape[1]
    r = [c[:, j] >> 2 for j in range(k)]
    s = [c[:, j] & 3 for j in range(k)]
    bit = [_U(1) << x.astype(_U) for x in r]
    count = [sum((r[j] == r[h]).astype(jnp.int32) for j in range(k)) for h in (0, 1)]
    suited = [[s[j] == s[h] for j in range(k)] for h in (0, 1)]
    suit_count = [sum(x.astype(jnp.int32) for x in suited[h]) for h in (0, 1)]
    mask = bit[0]
    for j in range(1, k):
        mask = mask | bit[j]
    return r, bit, count, suited, suit_count, ace_low(mask), ace_low(bit[0] | bit[1])


def always(seen) -> jax.Array:
    """The last action of a point (bet, call) for every round."""
    return jnp.ones(np.shape(seen)[0], bool)
