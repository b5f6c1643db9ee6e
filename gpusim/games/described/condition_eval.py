"""The JAX evaluation of the rule-strategy conditions beyond the first five
(:mod:`.conditions` reads them; its docstring says what each means)."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from gpusim.evaluator import (
    ROYAL_FLUSH_RANK,
    evaluate,
    evaluate_three,
    rank_from_masks,
    suit_masks,
)
from gpusim.games.described.description import Description
from gpusim.strategy.features import ace_low, hole_in_run_bits, rank_mask, runs

__all__ = ["any_true", "dealer_outs", "evaluate_condition", "lookup", "made_rank", "n_true"]

_U = jnp.uint32

# A gather in an XLA CPU loop fusion keeps LLVM from vectorizing the whole loop, the hand
# evaluators fused with it included: Ultimate Texas Hold'em's joint code, one scalar loop, ran at
# 0.86x the hand-written game's rate, vectorized at par or better; Casino Hold'em's ``optimal``
# ran at 0.44x while its 130-entry hand-class table was read by a gather, ``basic`` also for its
# 169-entry starting-hand table (benchmarks/described_vs_package.py). A table is therefore read
# by compares and selects: a small one entry by entry, a larger one packed a few bits an entry
# into 32-bit words, the word chosen by selects and the entry shifted out of it.
_SELECT_MAX = 64


def lookup(table, index: jax.Array) -> jax.Array:
    """``table[index]`` (int32) without a gather, every index in range by construction."""
    values = np.asarray(table, np.int64).ravel()
    if len(values) <= _SELECT_MAX:
        out = jnp.full(index.shape, int(values[0]), jnp.int32)
        for k, v in enumerate(values.tolist()):
            if k and v != values[0]:
                out = jnp.where(index == k, jnp.int32(v), out)
        return out
    low = int(values.min())
    bits = max(1, int(values.max() - low).bit_length())
    # the entries' bits in planes of ``width`` bits, each plane's words chosen by selects: the
    # width that needs the fewest selects in all (one plane where it fits in _SELECT_MAX words;
    # Texas Hold'em Bonus's 338-entry starting-hand classes, 5 bits, in 5 planes of 11 words)
    words = {w: -(-len(values) // _per_word(w)) for w in range(1, min(bits, 16) + 1)}
    plans = [(-(-bits // w) * n, w) for w, n in words.items() if n <= _SELECT_MAX]
    if not plans:  # too many words even a bit an entry: a gather
        return jnp.asarray(values, jnp.int32).at[index].get(mode="promise_in_bounds")
    width = min(plans)[1]
    i = index.astype(_U)
    out = jnp.zeros(index.shape, _U)
    for lo_bit in range(0, bits, width):
        plane = (values - low) >> lo_bit & ((1 << width) - 1)
        out = out | (_packed(plane, width, i) << _U(lo_bit))
    return out.astype(jnp.int32) + jnp.int32(low)


def _per_word(width: int) -> int:
    """Entries of ``width`` bits a 32-bit word holds, a power of two (shifts, not divisions)."""
    return 1 << (32 // width).bit_length() - 1


def _packed(values: np.ndarray, width: int, i: jax.Array) -> jax.Array:
    """(N,) uint32 ``values[i]``, entries of ``width`` bits packed into words picked by selects."""
    per = _per_word(width)
    shift = per.bit_length() - 1
    padded = np.zeros(-(-len(values) // per) * per, np.uint64)
    padded[: len(values)] = values
    words = (padded.reshape(-1, per) << (np.arange(per, dtype=np.uint64) * width)).sum(axis=1)
    slot = i >> _U(shift)
    word = jnp.full(i.shape, _U(int(words[0])), _U)
    for k, w in enumerate(words.tolist()):
        if k and w != words[0]:
            word = jnp.where(slot == _U(k), _U(w), word)
    return (word >> ((i & _U(per - 1)) * _U(width))) & _U((1 << width) - 1)


# --- evaluation ----------------------------------------------------------------------------------


def made_rank(cards: jax.Array) -> jax.Array:
    """A packed rank of fewer than five poker cards: pairs, two pair, trips and quads only
    (high card keeps the ranks as kickers), comparable with the engine's ``threshold``.

    From the equal-rank pairs among the k cards (k(k-1)/2 compares, no table): 1 is a pair, 2
    two pair, 3 trips, 6 quads; the named rank is the highest rank of an equal pair."""
    r = cards >> 2
    k = cards.shape[1]
    n_eq = jnp.zeros(cards.shape[:1], jnp.int32)
    named = jnp.full(cards.shape[:1], -1, jnp.int32)
    kick = jnp.zeros(cards.shape[:1], jnp.int32)
    for i in range(k):
        kick = kick | jnp.left_shift(1, r[:, i])
        for j in range(i + 1, k):
            eq = r[:, i] == r[:, j]
            n_eq = n_eq + eq
            named = jnp.maximum(named, jnp.where(eq, r[:, i], -1))
    cat = jnp.select([n_eq >= 6, n_eq == 3, n_eq == 2, n_eq == 1], [7, 3, 2, 1], 0)
    made = (cat << 27) | (jnp.left_shift(1, jnp.maximum(named, 0)) << 13)
    return jnp.where(cat == 0, kick, made).astype(_U)


def _category(hand: jax.Array, ranking: str) -> jax.Array:
    """(N,) int32 category index of the hand in its ranking (poker's royal flush its own)."""
    if ranking == "three_card":
        return (evaluate_three(hand) >> 27).astype(jnp.int32)
    if hand.shape[1] < 5:
        return (made_rank(hand) >> 27).astype(jnp.int32)
    rank = evaluate(hand)
    return jnp.where(rank == _U(ROYAL_FLUSH_RANK), 9, rank >> 27).astype(jnp.int32)


# numpy, not a JAX array: this module may first load while a program is being traced, and a
# JAX array made then would be a constant of that trace, not of the module
_BITS = (1 << np.arange(13)).astype(np.uint32)
_ALL = 0x1FFF


def dealer_outs(hand: jax.Array, board: jax.Array, up: jax.Array) -> jax.Array:
    """(N,) int32: the cards not seen (not in ``hand``, the player's own cards and the board,
    nor ``up``) that make with ``board`` (4 to 6 cards) a hand ranking above ``hand``'s.

    Not 52 evaluations a round but 26: the board plus a card ranks by the card's rank and by
    whether it lands in the one suit that can reach five (the board holds four or more of it,
    the *flush suit*). So each rank is evaluated once in a suit that cannot make a flush and
    holds no board card of that rank (two suits are empty when a flush suit exists; else any
    suit without that rank), and once in the flush suit; each result counts the unseen cards
    it stands for."""
    player = evaluate(hand)
    b = suit_masks(board)
    seen = suit_masks(jnp.concatenate([hand, up], axis=1))
    flush = [jax.lax.population_count(m) >= 4 for m in b]
    taken = _U(0)
    plain, flushed = [], []
    n_plain = n_flushed = jnp.zeros((), jnp.int32)
    for m, f, s in zip(b, flush, seen, strict=True):
        free = jnp.where(f, _U(0), ~m & _U(_ALL))  # ranks this suit can take, no flush made
        plain.append(m[:, None] | ((free & ~taken)[:, None] & _BITS))
        taken = taken | free
        flushed.append(m[:, None] | (jnp.where(f, _U(_ALL), _U(0))[:, None] & _BITS))
        unseen = ((~s[:, None] & _BITS) != 0).astype(jnp.int32)  # (N, 13) per rank
        n_plain = n_plain + jnp.where(f[:, None], 0, unseen)
        n_flushed = n_flushed + jnp.where(f[:, None], unseen, 0)
    k = board.shape[1] + 1
    beats = rank_from_masks(plain[0], plain[1], plain[2], plain[3], k) > player[:, None]
    beats_f = rank_from_masks(flushed[0], flushed[1], flushed[2], flushed[3], k) > player[:, None]
    return jnp.sum(beats * n_plain + beats_f * n_flushed, axis=1, dtype=jnp.int32)


def evaluate_condition(seen: jax.Array, d: Description, cond: str, value: Any) -> jax.Array:
    """(N,) bool: ``cond`` (one of the conditions beyond the first five, as
    :func:`parse_condition` read it) on each round's seen cards (N, k): own, up, board."""
    own = seen[:, : d.player]
    up = seen[:, d.player: d.player + d.dealer_up]
    board = seen[:, d.player + d.dealer_up:]
    hand = jnp.concatenate([own, board], axis=1)
    if cond == "hand_in":
        table = np.zeros(169, bool)
        table[list(value)] = True
        r, s = own >> 2, own & 3
        hi, lo = jnp.maximum(r[:, 0], r[:, 1]), jnp.minimum(r[:, 0], r[:, 1])
        return lookup(table, jnp.where(s[:, 0] == s[:, 1], lo * 13 + hi, hi * 13 + lo)) == 1
    if cond == "category_in":
        ranking, cats = value
        mask = sum(1 << c for c in cats)
        return (jnp.right_shift(mask, _category(hand, ranking)) & 1) == 1
    # sums and "any" over a round's few cards are written out, as elementwise adds and ors: a
    # reduce in an XLA CPU loop fusion, like a gather, keeps the whole loop (the hand
    # evaluators fused with it) from being vectorized (Casino Hold'em's ``basic``: 0.44x the
    # hand-written game's rate with them, benchmarks/described_vs_package.py)
    if cond == "own_card_paired":
        r = hand >> 2
        return any_true([n_true([r[:, j] == r[:, i] for j in range(r.shape[1])]) >= 2
                         for i in range(d.player)])
    if cond == "beats_board":
        return evaluate(hand) > evaluate(board)
    if cond == "suited_with_own":
        n, lowest = value
        suit = hand & 3
        same = [n_true([suit[:, j] == suit[:, i] for j in range(suit.shape[1])])
                for i in range(d.player)]  # per own card
        return any_true([(same[i] >= n) & ((own[:, i] >> 2) >= lowest)
                         for i in range(d.player)])
    if cond == "dealer_outs_below":
        return dealer_outs(hand, board, up) < value
    if cond == "run_with_own":
        return _run_with_own(hand >> 2, own >> 2, value)
    if cond == "win_chance":
        from gpusim.games.described.equity import evaluate as chance

        return chance(seen, d, value)
    if cond in ("own_rank_count", "paired_ranks", "suited_run_with_own"):
        from gpusim.games.described.rank_conditions import evaluate as by_ranks

        return by_ranks(hand, d.player, cond, value)
    raise AssertionError(cond)


def n_true(flags: list) -> jax.Array:
    """(N,) int32: how many of the (N,) bools hold, summed one by one (no reduce)."""
    out = flags[0].astype(jnp.int32)
    for f in flags[1:]:
        out = out + f.astype(jnp.int32)
    return out


def any_true(flags: list) -> jax.Array:
    """(N,) bool: any of the (N,) bools, or-ed one by one (no reduce)."""
    out = flags[0]
    for f in flags[1:]:
        out = out | f
    return out


def _run_with_own(ranks: jax.Array, own: jax.Array, n: int) -> jax.Array:
    """(N,) bool: ``n`` consecutive ranks among ``ranks`` (an ace high or low), an ``own``
    rank among them: on ace-low rank masks (bit 0 the ace, bits 1..13 deuce to ace)."""
    # every start at once on the bits (a start at a time: a dozen selects a start)
    return hole_in_run_bits(runs(ace_low(rank_mask(ranks)), n), ace_low(rank_mask(own)), n,
                            15 - n)
