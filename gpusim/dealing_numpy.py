"""The numpy reference of :func:`gpusim.dealing.deal`: the same cards by independent arithmetic
(uint64 halves of each word, a full-deck Fisher-Yates), so the tests can check the JAX path (and
the CUDA kernels check against both) card for card."""

from __future__ import annotations

import numpy as np

from gpusim.dealing import MAX_ATTEMPTS, DealBlock, check_args, deal_plan
from gpusim.rng import threefry2x32_numpy

__all__ = ["deal_numpy", "first_attempt_rejected"]

_M32 = 0xFFFFFFFF


def _block_digits_numpy(k0, k1, lo, hi, block: DealBlock, attempt: int, force_reject: int):
    ctr1 = hi | np.uint32(block.index << 16) | np.uint32(attempt << 19)
    y0, y1 = threefry2x32_numpy(k0, k1, lo, ctr1)
    x = (y0.astype(np.uint64) << np.uint64(32)) | y1.astype(np.uint64)
    m32, s32 = np.uint64(_M32), np.uint64(32)
    digits = []
    for n in block.ranges:
        low = (x & m32) * np.uint64(n)
        high = (x >> s32) * np.uint64(n) + (low >> s32)
        digits.append((high >> s32).astype(np.int64))
        x = (high << s32) | (low & m32)
    reject = x < np.uint64(block.threshold)
    if force_reject and attempt < force_reject:
        reject |= (lo & np.uint32(3)) == 0
    if attempt >= MAX_ATTEMPTS - 1:
        reject[:] = False
    return np.stack(digits, axis=1), reject


def _digits_numpy(k0, k1, lo, hi, n_cards: int, force_reject: int = 0) -> np.ndarray:
    """Fisher-Yates offsets ``j: (N, n_cards) int64``, rejections resolved."""
    n_rows = lo.shape[0]
    out = np.empty((n_rows, n_cards), np.int64)
    for block in deal_plan(n_cards):
        cols = slice(block.first, block.first + len(block.ranges))
        todo = np.arange(n_rows)
        attempt = 0
        while todo.size:
            ds, rej = _block_digits_numpy(k0, k1, lo[todo], hi[todo], block, attempt, force_reject)
            out[todo[~rej], cols] = ds[~rej]
            todo = todo[rej]
            attempt += 1
    return out


def deal_numpy(seed: int, first_round: int, n_rounds: int, n_cards: int, *, _force_reject=0):
    """numpy twin of :func:`deal`: same arguments, same cards, as ``np.ndarray`` int32."""
    k0, k1, first, n, k = check_args(seed, first_round, n_rounds, n_cards)
    rounds = np.uint64(first) + np.arange(n, dtype=np.uint64)
    lo = (rounds & np.uint64(_M32)).astype(np.uint32)
    hi = (rounds >> np.uint64(32)).astype(np.uint32)
    j = _digits_numpy(k0, k1, lo, hi, k, int(_force_reject))
    deck = np.tile(np.arange(52, dtype=np.int32), (n, 1))
    rows = np.arange(n)
    for i in range(k):
        t = i + j[:, i]
        picked = deck[rows, t]
        deck[rows, t] = deck[rows, i]
        deck[rows, i] = picked
    return np.ascontiguousarray(deck[:, :k])


def first_attempt_rejected(seed: int, first_round: int, n_rounds: int, n_cards: int):
    """``(n_rounds, n_blocks) bool``: which blocks' first words are redrawn (for tests)."""
    k0, k1, first, n, k = check_args(seed, first_round, n_rounds, n_cards)
    rounds = np.uint64(first) + np.arange(n, dtype=np.uint64)
    lo = (rounds & np.uint64(_M32)).astype(np.uint32)
    hi = (rounds >> np.uint64(32)).astype(np.uint32)
    cols = [_block_digits_numpy(k0, k1, lo, hi, b, 0, 0)[1] for b in deal_plan(k)]
    return np.stack(cols, axis=1)
