"""Reproducible, exactly unbiased dealing: ``(seed, round index) -> the round's cards``.

Contract
--------
``deal(seed, first_round, n_rounds, n_cards)`` returns ``(n_rounds, n_cards) int32`` cards
0..51, distinct within each row; row ``i`` is round ``first_round + i``. A round's cards
depend on the seed and the round index alone, so any split of a run into chunks, shards,
devices or backends deals the same cards. ``kernels/deal.cuh`` is the same algorithm in
C++ and deals bit-identical cards.

Method
------
A deal is a partial Fisher-Yates shuffle (Durstenfeld): starting from the deck 0..51 in
order, draw ``i`` (0-based) picks ``j_i`` uniform in ``0 .. 51 - i``, swaps deck positions
``i`` and ``i + j_i`` and deals the card now at position ``i``. The map from
``(j_0, .., j_{k-1})`` to the ordered deal is a bijection onto the
``P = 52! / (52 - k)!`` ordered deals, so uniform ``j`` gives every ordered deal
probability exactly ``1 / P``.

The ``j_i`` come from 64-bit Threefry-2x32-20 words (:mod:`gpusim.rng`), taken as
``x = out0 * 2**32 + out1``. Consecutive draws are grouped into blocks whose product of
ranges ``P_b = n_a * .. * n_z`` stays at most ``2**52`` (a 9-card deal is one block,
``P = 52*51*..*44 ~ 2**50.2``). Per block, Lemire's multiply-shift on the whole product,
``x * P_b = U * 2**64 + L``, gives ``U`` uniform on ``0 .. P_b - 1`` exactly when draws with
``L < 2**64 mod P_b`` are rejected and redrawn (Lemire, "Fast random integer generation in
an interval", 2019). Multiplying by the ranges one at a time,
``x * n_a = j_a * 2**64 + x'``, then ``x' * n_b = ...``, yields the mixed-radix digits
of ``U`` (``j_a`` most significant) and leaves ``L`` as the final remainder, so each
draw costs one small multiply and no division. The rejection rate is
``(2**64 mod P_b) / 2**64 < 2**-12``; for a 9-card deal it is ``9.8e-6`` per round.

Result: given uniform, independent Threefry words, every ordered deal is exactly equally
likely, with one theoretical exception: a block rejected :data:`MAX_ATTEMPTS` (8192)
times in a row keeps its last draw, which happens with probability below ``2**-98000``
per block (never, in practice); the cap keeps the loop bounded on a GPU.

Counter layout (64-bit round indices below :data:`MAX_ROUND` = ``2**48``):
``key = (seed mod 2**32, seed >> 32)``, ``ctr0 = round mod 2**32``,
``ctr1 = (round >> 32) | block << 16 | attempt << 19``.

Performance (JAX): a deal of up to 10 cards is one fused elementwise pass (Threefry, the
digit chain in 21/21/22-bit limbs since JAX runs without x64, a sparse Fisher-Yates that
tracks only the swapped positions) whose cards leave packed in one array, because XLA
recomputes shared work once per output array. Rejected rounds (about 1 in 100,000) are
found 32 rows at a time and redealt inside the same ``jit``. About 40-70 M nine-card
deals/s on 2 CPU cores at 2**16..2**18 rounds per call (``benchmarks/deal.py``); bigger
calls mostly pay for fresh output memory. Deals of 11..52 cards take a slower general
path (a dense deck in a ``fori_loop``, about 1.5 M full-deck shuffles/s).
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from functools import lru_cache, partial

import jax
import jax.numpy as jnp
import numpy as np

from gpusim.rng import seed_key, threefry2x32

__all__ = [
    "BLOCK_LIMIT",
    "MAX_ATTEMPTS",
    "MAX_ROUND",
    "PACKED_MAX_CARDS",
    "DealBlock",
    "batch_bucket",
    "deal",
    "deal_plan",
    "deal_rounds",
]

MAX_ROUND = 2**48
MAX_ATTEMPTS = 2**13
BLOCK_LIMIT = 2**52

_M21 = (1 << 21) - 1
_M22 = (1 << 22) - 1
_M32 = (1 << 32) - 1


@dataclass(frozen=True)
class DealBlock:
    """Draws ``first .. first + len(ranges) - 1`` of a deal, fed by one 64-bit word.

    ``ranges``: ``(52 - first, 51 - first, ..)``; ``product``: their product (<= 2**52);
    ``threshold``: ``2**64 mod product`` (a word whose remainder is below it is redrawn).
    """

    index: int
    first: int
    ranges: tuple[int, ...]
    product: int
    threshold: int


@lru_cache(maxsize=64)
def deal_plan(n_cards: int) -> tuple[DealBlock, ...]:
    """Greedy split of the ``n_cards`` draws into blocks with range product <= 2**52."""
    _check_n_cards(n_cards)
    blocks: list[DealBlock] = []
    i = 0
    while i < n_cards:
        first, product = i, 1
        while i < n_cards and product * (52 - i) <= BLOCK_LIMIT:
            product *= 52 - i
            i += 1
        ranges = tuple(range(52 - first, 52 - i, -1))
        blocks.append(DealBlock(len(blocks), first, ranges, product, 2**64 % product))
    assert len(blocks) <= 8  # 3 counter bits; 52 cards need 5 blocks
    return tuple(blocks)


def _bad(field: str, value, allowed: str) -> ValueError:
    return ValueError(f"{field}: got {value!r}; expected {allowed}")


def _as_int(field: str, value, allowed: str) -> int:
    if isinstance(value, bool):
        raise _bad(field, value, allowed)
    try:
        return operator.index(value)
    except TypeError:
        raise _bad(field, value, allowed) from None


def _check_n_cards(n_cards) -> int:
    n = _as_int("n_cards", n_cards, "an integer in 1..52")
    if not 1 <= n <= 52:
        raise _bad("n_cards", n, "an integer in 1..52")
    return n


def check_args(seed, first_round, n_rounds, n_cards) -> tuple[int, int, int, int, int]:
    k0, k1 = seed_key(seed)
    first = _as_int("first_round", first_round, "an integer >= 0")
    if first < 0:
        raise _bad("first_round", first, "an integer >= 0")
    n = _as_int("n_rounds", n_rounds, "an integer >= 0")
    if n < 0:
        raise _bad("n_rounds", n, "an integer >= 0")
    if first + n > MAX_ROUND:
        raise ValueError(
            f"first_round + n_rounds: got {first} + {n}; round indices must stay below 2**48"
        )
    return k0, k1, first, n, _check_n_cards(n_cards)


# ---------------------------------------------------------------------------------------
# JAX path
#
# XLA on CPU computes each output of a fusion in its own loop, recomputing everything the
# outputs share: nine (N,) card outputs would run Threefry nine times. So a deal of up to
# PACKED_MAX_CARDS cards leaves its fused pass packed into a single array (5 cards of 6
# bits per uint32 word, two words per complex64 element, each word bit-cast to a finite
# normal float32 so that no backend can alter it); a ``while_loop`` boundary keeps the
# pass materialised, and unpacking is a cheap copy. Larger deals (rare) deal one card per
# ``fori_loop`` step from a dense (N, 52) deck, which keeps the program small for any k.

PACKED_MAX_CARDS = 10
_REJECTED = 63  # first-card field of a row whose first word was rejected (not final)


def _limbs(y0, y1):
    # x = y0 * 2**32 + y1 as 21/21/22-bit limbs: limb * 52 + carry fits in uint32.
    u32 = jnp.uint32
    return y1 & u32(_M21), (y1 >> u32(21)) | ((y0 & u32(0x3FF)) << u32(11)), y0 >> u32(10)


def _block_digits_jax(key0, key1, lo, hi, block: DealBlock, attempt, force_reject: int):
    """One block's digits and reject flags for uint32 round words ``lo, hi: (N,)``.

    ``attempt``: uint32 scalar or ``(N,)``. Returns ``(digits, reject)``: a list of
    ``(N,) int32`` (one per range) and ``(N,) bool``.
    """
    u32 = jnp.uint32
    attempt = jnp.asarray(attempt, u32)
    ctr1 = hi | u32(block.index << 16) | (attempt << u32(19))
    y0, y1 = threefry2x32(key0, key1, lo, ctr1)
    l0, l1, l2 = _limbs(y0, y1)
    digits = []
    for n in block.ranges:
        t0 = l0 * u32(n)
        l0 = t0 & u32(_M21)
        t1 = l1 * u32(n) + (t0 >> u32(21))
        l1 = t1 & u32(_M21)
        t2 = l2 * u32(n) + (t1 >> u32(21))
        l2 = t2 & u32(_M22)
        digits.append((t2 >> u32(22)).astype(jnp.int32))
    t = block.threshold
    t0, t1, t2 = u32(t & _M21), u32((t >> 21) & _M21), u32(t >> 42)
    reject = (l2 < t2) | ((l2 == t2) & ((l1 < t1) | ((l1 == t1) & (l0 < t0))))
    if force_reject:
        reject = reject | ((attempt < u32(force_reject)) & ((lo & u32(3)) == 0))
    reject = reject & (attempt < u32(MAX_ATTEMPTS - 1))
    return digits, reject


def _row_digits_jax(key0, key1, lo, hi, plan, force_reject: int, attempts=None):
    """All digits ``k x (N,) int32`` and ``(N,) bool`` (some block rejected); ``attempts``:
    one attempt number (scalar or ``(N,)``) per block, default all 0."""
    digits = []
    rejected = jnp.zeros(lo.shape, bool)
    for block in plan:
        attempt = 0 if attempts is None else attempts[block.index]
        ds, rej = _block_digits_jax(key0, key1, lo, hi, block, attempt, force_reject)
        digits.extend(ds)
        rejected = rejected | rej
    return digits, rejected


def _accepted_attempts_jax(key0, key1, lo, hi, plan, force_reject: int):
    """Per block, each row's first accepted attempt: list of ``(M,) uint32``."""
    out = []
    for block in plan:
        # One output per loop step (-1 while pending), so nothing is computed twice.
        def cond(state):
            return jnp.any(state[1] < 0)

        def body(state, block=block):
            a, status = state
            _, rej = _block_digits_jax(key0, key1, lo, hi, block, a, force_reject)
            return a + jnp.uint32(1), jnp.where((status < 0) & ~rej, a.astype(jnp.int32), status)

        _, rej0 = _block_digits_jax(key0, key1, lo, hi, block, 0, force_reject)
        status = jnp.where(rej0, -1, 0).astype(jnp.int32)
        _, status = jax.lax.while_loop(cond, body, (jnp.uint32(1), status))
        out.append(status.astype(jnp.uint32))
    return out


def _fisher_yates_jax(digits):
    """Sparse partial Fisher-Yates: ``digits`` k arrays ``(N,) int32`` -> k card arrays.

    Only swapped positions are tracked: after draw m, deck position ``pos[m]`` holds
    ``val[m]`` (later entries win); any other live position p still holds card p.
    """
    cards, pos, val = [], [], []  # type: list[jax.Array], list[jax.Array], list[jax.Array]
    k = len(digits)
    for i, j in enumerate(digits):
        t = j + i
        card = t
        for m in range(i):
            card = jnp.where(pos[m] == t, val[m], card)
        cards.append(card)
        if i + 1 < k:
            moved = jnp.full_like(t, i)
            for m in range(i):
                moved = jnp.where(pos[m] == i, val[m], moved)
            pos.append(t)
            val.append(moved)
    return cards


_DENSE_CHUNK = 16384  # rows per dense-deck pass: the int8 deck then stays in cache


def _dense_deal_jax(key0, key1, lo, hi, plan, attempts=None):
    """Cards ``(N, k) int32`` from the words of the given attempts (default 0), without
    rejection checks: digits and a dense (N, 52) deck, one draw per ``fori_loop`` step,
    so the program stays small for any k. Large N runs in chunks."""
    n_rows = lo.shape[0]
    if n_rows <= _DENSE_CHUNK:
        return _dense_deal_chunk(key0, key1, lo, hi, plan, attempts)
    n_chunks = -(-n_rows // _DENSE_CHUNK)
    pad = n_chunks * _DENSE_CHUNK - n_rows

    def split(a):
        a = jnp.broadcast_to(jnp.asarray(a, jnp.uint32), (n_rows,))
        return jnp.pad(a, (0, pad)).reshape(n_chunks, _DENSE_CHUNK)

    attempts = [0] * len(plan) if attempts is None else attempts
    xs = (split(lo), split(hi), tuple(split(a) for a in attempts))
    cards = jax.lax.map(lambda x: _dense_deal_chunk(key0, key1, x[0], x[1], plan, x[2]), xs)
    return cards.reshape(n_chunks * _DENSE_CHUNK, -1)[:n_rows]


def _dense_deal_chunk(key0, key1, lo, hi, plan, attempts):
    u32 = jnp.uint32
    n_rows, k = lo.shape[0], plan[-1].first + len(plan[-1].ranges)
    words = []
    for block in plan:
        attempt = u32(0) if attempts is None else attempts[block.index]
        ctr1 = hi | u32(block.index << 16) | (jnp.asarray(attempt, u32) << u32(19))
        words.extend(threefry2x32(key0, key1, lo, ctr1))
    words = jnp.stack(words, axis=1)  # (N, 2 * blocks)
    block_of = np.zeros(k, np.int32)
    for block in plan:
        block_of[block.first : block.first + len(block.ranges)] = block.index
    starts = jnp.asarray(np.isin(np.arange(k), [b.first for b in plan]))
    block_of = jnp.asarray(block_of)
    # int8 deck: the loop streams the whole (N, 52) deck once per draw.
    lanes = jnp.arange(52, dtype=jnp.int8)[None, :]

    def draw(i, state):
        deck, l0, l1, l2 = state
        b = block_of[i]
        y0 = jax.lax.dynamic_index_in_dim(words, 2 * b, axis=1, keepdims=False)
        y1 = jax.lax.dynamic_index_in_dim(words, 2 * b + 1, axis=1, keepdims=False)
        fresh = _limbs(y0, y1)
        l0, l1, l2 = (
            jnp.where(starts[i], f, old) for f, old in zip(fresh, (l0, l1, l2), strict=True)
        )
        n = (52 - i).astype(u32)
        t0 = l0 * n
        t1 = l1 * n + (t0 >> u32(21))
        t2 = l2 * n + (t1 >> u32(21))
        t = (i + (t2 >> u32(22)).astype(jnp.int32)).astype(jnp.int8)[:, None]  # (N, 1)
        at_i = jax.lax.dynamic_index_in_dim(deck, i, axis=1)
        picked = jnp.take_along_axis(deck, t.astype(jnp.int32), axis=1)
        deck = jnp.where(lanes == i.astype(jnp.int8), picked, jnp.where(lanes == t, at_i, deck))
        return deck, t0 & u32(_M21), t1 & u32(_M21), t2 & u32(_M22)

    zero = jnp.zeros(n_rows, u32)
    deck = jnp.broadcast_to(lanes, (n_rows, 52))
    deck, *_ = jax.lax.fori_loop(0, k, draw, (deck, zero, zero, zero))
    return deck[:, :k].astype(jnp.int32)


def _to_float(word):
    # 30 payload bits -> float32 bits with exponent 0b01xxxxxx: finite, normal, never NaN.
    bits = (word & jnp.uint32(0x1FFFFFFF)) | jnp.uint32(0x20000000)
    bits = bits | ((word >> jnp.uint32(29)) << jnp.uint32(31))
    return jax.lax.bitcast_convert_type(bits, jnp.float32)


def _from_float(value):
    bits = jax.lax.bitcast_convert_type(value, jnp.uint32)
    return (bits & jnp.uint32(0x1FFFFFFF)) | ((bits >> jnp.uint32(31)) << jnp.uint32(29))


def _pack(cards, rejected):
    """``cards``: k <= 10 arrays ``(N,)``; ``rejected: (N,) bool`` -> ``(N,) complex64``."""
    u32 = jnp.uint32
    words = [u32(0), u32(0)]
    for i, card in enumerate(cards):
        if i == 0 and rejected is not None:
            card = jnp.where(rejected, _REJECTED, card)
        words[i // 5] = words[i // 5] | (card.astype(u32) << u32(6 * (i % 5)))
    words = [jnp.broadcast_to(w, cards[0].shape) for w in words]
    return jax.lax.complex(_to_float(words[0]), _to_float(words[1]))


def _packed_rejected(packed):
    return (_from_float(jnp.real(packed)) & jnp.uint32(63)) == _REJECTED


def _unpack(packed, n_cards: int):
    """``(N,) complex64`` -> ``(N, n_cards) int32``."""
    u32 = jnp.uint32
    col = jnp.arange(n_cards, dtype=jnp.int32)[None, :]
    word = jnp.where(
        col < 5, _from_float(jnp.real(packed))[:, None], _from_float(jnp.imag(packed))[:, None]
    )
    shift = (col % 5).astype(u32) * u32(6)
    return ((word >> shift) & u32(63)).astype(jnp.int32)


def _redraw_tiles(n_rows: int, plan) -> tuple[int, int]:
    """``(tile, n_tiles)`` for the redraw pass: rows are revisited a tile at a time.

    Finding rejected rows one by one (``nonzero`` over all N) costs as much as dealing;
    an ``any`` per tile of 32 rows is a cheap reduction. Each loop iteration redeals up to
    ``n_tiles`` tiles (the expected number of hit tiles, times 4, plus 16), so the loop
    almost always runs once; further iterations, when needed, keep the result exact.
    """
    p_row = 1.0 - float(np.prod([1.0 - b.threshold / 2**64 for b in plan]))
    tile = 32
    n_all = -(-n_rows // tile)
    return tile, min(n_all, 16 + int(4 * n_rows * p_row))


def _redraw_rejected(state, rejected_of, redeal, lo, hi, plan):
    """Loop until ``rejected_of(state)`` is all False; ``redeal(state, idx, lo, hi)``
    redeals rows ``idx`` completely (indices >= N are padding, to be dropped)."""
    n_rows = lo.shape[0]
    tile, n_tiles = _redraw_tiles(n_rows, plan)
    n_pad = -n_rows % tile
    lanes = jnp.arange(tile, dtype=jnp.int32)

    def cond(state):
        return jnp.any(rejected_of(state))

    def body(state):
        hit = jnp.pad(rejected_of(state), (0, n_pad)).reshape(-1, tile).any(axis=1)
        (tiles,) = jnp.nonzero(hit, size=n_tiles, fill_value=hit.shape[0])
        # Rows past the end (padding tiles, the ragged last tile) are clipped when read
        # and dropped when written; whole tiles are redealt, which changes no accepted row.
        idx = (tiles[:, None] * tile + lanes[None, :]).reshape(-1)
        sub_lo = jnp.take(lo, idx, mode="clip")
        sub_hi = jnp.take(hi, idx, mode="clip")
        return redeal(state, idx, sub_lo, sub_hi)

    return jax.lax.while_loop(cond, body, state)


def deal_rounds(key0, key1, round_lo, round_hi, n_cards: int, *, _force_reject: int = 0):
    """Deal the rounds whose indices are ``round_hi * 2**32 + round_lo``. Traceable.

    ``key0, key1``: uint32 scalars (see :func:`gpusim.rng.seed_key`);
    ``round_lo, round_hi: (N,) uint32`` with ``round_hi < 2**16``; ``n_cards`` static.
    Returns ``(N, n_cards) int32``. ``_force_reject`` is a test hook: rounds with
    ``round_lo % 4 == 0`` have their first ``_force_reject`` attempts of every block rejected.
    """
    return _deal_rounds(key0, key1, round_lo, round_hi, n_cards, _force_reject, None)


def _deal_rounds(key0, key1, round_lo, round_hi, n_cards, force_reject, packed):
    plan = deal_plan(n_cards)
    u32 = jnp.uint32
    key0, key1 = jnp.asarray(key0, u32), jnp.asarray(key1, u32)
    lo, hi = jnp.asarray(round_lo, u32), jnp.asarray(round_hi, u32)
    if lo.shape[0] == 0:
        return jnp.zeros((0, n_cards), jnp.int32)
    if packed is None:
        packed = n_cards <= PACKED_MAX_CARDS

    def digits_of(sub_lo, sub_hi):
        attempts = _accepted_attempts_jax(key0, key1, sub_lo, sub_hi, plan, force_reject)
        return _row_digits_jax(key0, key1, sub_lo, sub_hi, plan, force_reject, attempts)[0]

    if packed:

        def redeal(cards, idx, sub_lo, sub_hi):
            sub = _pack(_fisher_yates_jax(digits_of(sub_lo, sub_hi)), None)
            return cards.at[idx].set(sub, mode="drop")

        digits, rejected = _row_digits_jax(key0, key1, lo, hi, plan, force_reject)
        cards = _pack(_fisher_yates_jax(digits), rejected)
        cards = _redraw_rejected(cards, _packed_rejected, redeal, lo, hi, plan)
        return _unpack(cards, n_cards)

    def redeal_dense(state, idx, sub_lo, sub_hi):
        cards, rejected = state
        attempts = _accepted_attempts_jax(key0, key1, sub_lo, sub_hi, plan, force_reject)
        sub = _dense_deal_jax(key0, key1, sub_lo, sub_hi, plan, attempts)
        return cards.at[idx].set(sub, mode="drop"), rejected.at[idx].set(False, mode="drop")

    rejected = jnp.zeros(lo.shape, bool)
    for block in plan:
        rejected = rejected | _block_digits_jax(key0, key1, lo, hi, block, 0, force_reject)[1]
    state = (_dense_deal_jax(key0, key1, lo, hi, plan), rejected)
    cards, _ = _redraw_rejected(state, lambda s: s[1], redeal_dense, lo, hi, plan)
    return cards


@partial(jax.jit, static_argnames=("n_rounds", "n_cards", "force_reject", "packed"))
def _deal_range_jit(key0, key1, first_lo, first_hi, *, n_rounds, n_cards, force_reject, packed):
    lo = first_lo + jnp.arange(n_rounds, dtype=jnp.uint32)
    hi = first_hi + (lo < first_lo).astype(jnp.uint32)
    return _deal_rounds(key0, key1, lo, hi, n_cards, force_reject, packed)


def deal(
    seed: int,
    first_round: int,
    n_rounds: int,
    n_cards: int,
    *,
    _force_reject: int = 0,
    _packed: bool | None = None,
):
    """Cards of rounds ``first_round .. first_round + n_rounds - 1``.

    ``seed``: 0..2**64-1; ``first_round >= 0``, ``n_rounds >= 0`` with
    ``first_round + n_rounds <= 2**48``; ``n_cards``: 1..52.
    Returns ``jax.Array (n_rounds, n_cards) int32`` of distinct cards 0..51 per row.

    Seed and offset are runtime values; batch sizes are rounded up to a few compiled
    sizes (:func:`batch_bucket`: powers of two up to 1024, then 8 per octave), so
    odd sizes neither recompile each time nor cost more than 1/8 extra work. Batches of
    a power-of-two size are returned without a slicing copy.
    ``_force_reject`` and ``_packed`` (choose the <= 10-card or the general path) are
    test hooks.
    """
    k0, k1, first, n, k = check_args(seed, first_round, n_rounds, n_cards)
    if n == 0:
        return jnp.zeros((0, k), jnp.int32)
    u32 = np.uint32
    bucket = batch_bucket(n)
    # Rows past n (discarded) may pass 2**48; their counters then differ, nothing else.
    cards = _deal_range_jit(
        u32(k0), u32(k1), u32(first & _M32), u32(first >> 32),
        n_rounds=bucket, n_cards=k, force_reject=int(_force_reject), packed=_packed,
    )  # fmt: skip
    return cards if bucket == n else cards[:n]


def batch_bucket(n_rounds: int) -> int:
    """The compiled batch size used for ``n_rounds`` rounds (>= n_rounds, <= 9/8 of it
    above 1024)."""
    if n_rounds <= 16:
        return 16
    if n_rounds <= 1024:
        return 1 << (n_rounds - 1).bit_length()
    granule = 1 << (n_rounds.bit_length() - 4)
    return -(-n_rounds // granule) * granule
