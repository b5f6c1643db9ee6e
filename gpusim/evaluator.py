"""Best-five-card poker hand ranks as one uint32, table-free and vectorised.

A rank packs ``category << 27 | primary << 13 | kickers``:

- ``category`` 0..8 (see :data:`CATEGORY_NAMES`);
- ``primary`` a 13-bit rank mask (bit r = rank r, 0 = deuce .. 12 = ace) of the ranks
  that make the category: the quad rank, the trip rank of a full house, the trip rank,
  both pair ranks of two pair, the pair rank, or the top card of a straight
  (the five for the wheel);
- ``kickers`` a 13-bit rank mask: the kicker ranks, the pair rank of a full house,
  or the five ranks of a flush or high-card hand.

Within a category these masks compare as the rules demand (higher ranks first), so one
unsigned comparison orders any two hands and equal ranks tie exactly.

The algorithm uses only bit arithmetic (no lookup tables, no per-hand branches): four
13-bit suit masks, per-rank card counts as bit planes from AND/XOR of the suit masks,
popcount for the flush suit, shift-and for straights with the ace copied below the
deuce, and "clear the lowest set bit" to keep the top kickers. ``kernels/evaluate.cuh``
is the same algorithm in C++ for CUDA and must stay bit-identical.

Three-card hands (Three Card Poker) have their own ranking, :func:`evaluate_three`, with
the same packing and its own categories (:data:`THREE_CARD_CATEGORY_NAMES`).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from gpusim.cards import CATEGORY_KEYS

__all__ = [
    "CATEGORY_NAMES",
    "FLUSH",
    "FOUR_OF_A_KIND",
    "FULL_HOUSE",
    "HIGH_CARD",
    "PAIR",
    "ROYAL_FLUSH_RANK",
    "STRAIGHT",
    "STRAIGHT_FLUSH",
    "THREE_CARD_CATEGORY_NAMES",
    "THREE_OF_A_KIND",
    "TWO_PAIR",
    "rank_from_masks",
    "suit_masks",
    "best_five",
    "describe",
    "evaluate",
    "evaluate_board_pairs",
    "evaluate_np",
    "evaluate_three",
    "evaluate_three_np",
    "hand_category",
    "hand_category_three",
    "is_royal",
]

CATEGORY_NAMES = CATEGORY_KEYS[:9]
"""The evaluator's categories 0..8 (:data:`gpusim.cards.CATEGORY_KEYS` less the royal flush)."""
HIGH_CARD, PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT = 0, 1, 2, 3, 4
FLUSH, FULL_HOUSE, FOUR_OF_A_KIND, STRAIGHT_FLUSH = 5, 6, 7, 8

_CAT_SHIFT = 27
_PRI_SHIFT = 13
_MASK13 = 0x1FFF
_ACE_BIT = 1 << 12
ROYAL_FLUSH_RANK = (STRAIGHT_FLUSH << _CAT_SHIFT) | (_ACE_BIT << _PRI_SHIFT)
"""The rank of every royal flush (the best possible hand)."""

_U = jnp.uint32


def _u(x: int) -> jax.Array:
    return jnp.asarray(x, _U)


def _popcnt(x: jax.Array) -> jax.Array:
    return jax.lax.population_count(x)


def _straight_top(m: jax.Array) -> jax.Array:
    """Rank mask of the top card of the best straight in rank mask m, or 0.

    Bit i of ``run`` says ranks i-1 .. i+3 are all present (rank -1 is the ace played
    low). The runs of a hand of at most 9 cards are contiguous, so ``run & ~(run >> 1)``
    is the top one, and its top card is rank i + 3.
    """
    e = (m << _u(1)) | (m >> _u(12))
    run = e & (e >> _u(1)) & (e >> _u(2)) & (e >> _u(3)) & (e >> _u(4))
    return (run & ~(run >> _u(1))) << _u(3)


# How many kicker bits each category keeps (3 bits per category, category 0 lowest).
_KEEP = sum(k << (3 * cat) for cat, k in enumerate((5, 3, 1, 2, 5, 5, 1, 1, 5)))


def rank_from_masks(m0, m1, m2, m3, n_cards: int) -> jax.Array:
    """Rank from four uint32 suit masks of a hand of n_cards (5..7) distinct cards."""
    zero, one = _u(0), _u(1)
    anyr = m0 | m1 | m2 | m3
    # Per-rank card count as bit planes: count = ones + 2 * (b + d + c1), and that sum <= 2.
    a, b = m0 ^ m1, m0 & m1
    c, d = m2 ^ m3, m2 & m3
    ones, c1 = a ^ c, a & c
    twos = b ^ d ^ c1
    fours = (b & d) | (c1 & (b | d))
    trips = ones & twos
    pairs = twos & ~ones
    singles = ones & ~twos

    # At most one suit can hold five of at most nine cards.
    fm = (
        jnp.where(_popcnt(m0) >= 5, m0, zero)
        | jnp.where(_popcnt(m1) >= 5, m1, zero)
        | jnp.where(_popcnt(m2) >= 5, m2, zero)
        | jnp.where(_popcnt(m3) >= 5, m3, zero)
    )
    sf_top = _straight_top(fm)
    st_top = _straight_top(anyr)
    top_trip = jnp.where(_popcnt(trips) > 1, trips & (trips - one), trips)
    fh_pair = (trips ^ top_trip) | pairs
    top_pairs = jnp.where(_popcnt(pairs) > 2, pairs & (pairs - one), pairs)

    def hand(cat: int, primary, kickers=zero):
        return (_u(cat << _CAT_SHIFT) | (primary << _u(_PRI_SHIFT))) | kickers

    # Lowest category first, each later line overriding where its category is present.
    # Kicker masks are untrimmed here: they hold at most n_cards - 5 surplus bits.
    w = jnp.where(pairs != 0, hand(PAIR, pairs, singles), anyr)
    w = jnp.where(_popcnt(pairs) >= 2, hand(TWO_PAIR, top_pairs, anyr & ~top_pairs), w)
    w = jnp.where(trips != 0, hand(THREE_OF_A_KIND, trips, singles), w)
    w = jnp.where(st_top != 0, hand(STRAIGHT, st_top), w)
    w = jnp.where(fm != 0, hand(FLUSH, zero, fm), w)
    w = jnp.where((trips != 0) & (fh_pair != 0), hand(FULL_HOUSE, top_trip, fh_pair), w)
    w = jnp.where(fours != 0, hand(FOUR_OF_A_KIND, fours, anyr & ~fours), w)
    w = jnp.where(sf_top != 0, hand(STRAIGHT_FLUSH, sf_top), w)

    # Keep the top `keep` kicker bits; clearing the lowest set bit of w only touches the
    # kicker field when that field is non-empty.
    keep = (_u(_KEEP) >> ((w >> _u(_CAT_SHIFT)) * _u(3))) & _u(7)
    for _ in range(n_cards - 5):
        w = jnp.where(_popcnt(w & _u(_MASK13)) > keep, w & (w - one), w)
    return w


def suit_masks(cards: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array, jax.Array]:
    """Four (...,) uint32 13-bit rank masks, one per suit, of (..., K) card codes."""
    c = cards.astype(jnp.int32)
    # Two suits share a word (bits 0-12 and 16-28): half the selects and ORs. Per-card
    # slices fuse into one loop; a reduction over the card axis would not vectorise.
    lo = hi = _u(0)
    for j in range(c.shape[-1]):
        cj = c[..., j]
        bit = _u(1) << ((cj >> 2) + ((cj & 1) << 4)).astype(_U)
        high_suit = (cj & 2) != 0
        lo = lo | jnp.where(high_suit, _u(0), bit)
        hi = hi | jnp.where(high_suit, bit, _u(0))
    return lo & _u(_MASK13), lo >> _u(16), hi & _u(_MASK13), hi >> _u(16)


@jax.jit
def _evaluate_jit(cards: jax.Array) -> jax.Array:
    return rank_from_masks(*suit_masks(cards), cards.shape[-1])


def _as_hands(cards, name: str = "cards"):
    """Check the shape and dtype of (..., K) card codes; return them as int32."""
    if not isinstance(cards, jax.Array):
        cards = np.asarray(cards)
    shape = tuple(cards.shape)
    if len(shape) == 0 or shape[-1] not in (5, 6, 7):
        raise ValueError(
            f"{name}: shape {shape} is not allowed; the last axis must hold 5, 6 or 7 cards"
        )
    if not jnp.issubdtype(cards.dtype, jnp.integer):
        raise ValueError(
            f"{name}: dtype {cards.dtype} is not allowed; use integer card codes 0..51"
        )
    # Narrow dtypes are converted before the kernel: inside it they vectorise poorly.
    return cards if cards.dtype == np.int32 else cards.astype(np.int32)


def evaluate(cards) -> jax.Array:
    """Rank of the best five cards of each hand; higher is better, equal is a tie.

    cards: (..., K) integer array (numpy or jax), K in {5, 6, 7}, card codes 0..51 with no
    repeats within a hand (not checked here; see :func:`evaluate_np`). int32 is the fast
    path; other integer dtypes are converted first.
    Returns (...,) uint32 ranks (jax array). jit-compiled once per shape.
    """
    return _evaluate_jit(_as_hands(cards))


@jax.jit
def _board_pairs_jit(boards, first, second):
    # The board's suit masks are built once per board, not once per hand: each of the
    # P hands only ORs in its two cards (the board's partial state).
    bm = suit_masks(boards)
    hm = suit_masks(jnp.stack([first, second], axis=-1))
    masks = (m[:, None] | h for m, h in zip(bm, hm, strict=True))
    return rank_from_masks(*masks, boards.shape[-1] + 2)


def evaluate_board_pairs(boards, first, second) -> np.ndarray:
    """Ranks of each board completed by each of its P two-card pairs, bit-identical to
    :func:`evaluate` of the (k + 2)-card hands.

    boards: (nb, k) int, k in 3..5; first, second: (nb, P) int, the pairs' cards (not on
    the board, distinct). Returns (nb, P) np.uint32: rank of boards[n] + first[n, p] +
    second[n, p].
    """
    b = np.asarray(boards, dtype=np.int32)
    if b.ndim != 2 or b.shape[1] not in (3, 4, 5):
        raise ValueError(f"boards: shape {b.shape} is not allowed; use (nb, k), k in 3..5")
    c1 = np.asarray(first, dtype=np.int32)
    c2 = np.asarray(second, dtype=np.int32)
    return np.asarray(_board_pairs_jit(b, c1, c2))


def _check_cards(arr: np.ndarray) -> None:
    """ValueError (one line) unless every code of ``arr`` (..., K) lies in 0..51 and no hand
    repeats a card."""
    if not arr.size:
        return
    lo, hi = int(arr.min()), int(arr.max())
    if lo < 0 or hi > 51:
        raise ValueError(f"cards: card code {lo if lo < 0 else hi} is not allowed; codes are 0..51")
    srt = np.sort(arr, axis=-1)
    dup = srt[..., 1:] == srt[..., :-1]
    if dup.any():
        where = np.argwhere(dup)[0]
        raise ValueError(
            f"cards: hand at index {tuple(int(i) for i in where[:-1])} repeats card code "
            f"{int(srt[tuple(where)])}; a hand's cards must be distinct"
        )


def evaluate_np(cards, *, check: bool = True) -> np.ndarray:
    """Numpy convenience around :func:`evaluate`: checks the cards, returns np.uint32.

    cards: (..., K) integer array-like, K in {5, 6, 7}. With ``check`` the codes must lie
    in 0..51 and not repeat within a hand.
    """
    arr = np.asarray(_as_hands(np.asarray(cards)))
    if check:
        _check_cards(arr)
    return np.asarray(_evaluate_jit(arr))


def hand_category(rank):
    """Category 0..8 of each rank (index into :data:`CATEGORY_NAMES`); same array kind."""
    if isinstance(rank, jax.Array):
        return (rank >> _CAT_SHIFT).astype(jnp.int32)
    r = np.asarray(rank)
    return (r.astype(np.uint32) >> np.uint32(_CAT_SHIFT)).astype(np.int32)


def is_royal(rank):
    """True where the rank is a royal flush (ace-high straight flush)."""
    if isinstance(rank, jax.Array):
        return rank == _u(ROYAL_FLUSH_RANK)
    return np.asarray(rank).astype(np.uint32) == np.uint32(ROYAL_FLUSH_RANK)


def _straight_ranks(top: jax.Array) -> jax.Array:
    """Rank mask of the five ranks of the straight whose top-card rank mask is `top`."""
    # In the ace-low layout (bit j = rank j - 1) the run fills bits t - 3 .. t + 1.
    run = (top << _u(2)) - (top >> _u(3))
    return (run >> _u(1)) | ((run & _u(1)) << _u(12))


# Per category: how many cards of each primary rank the hand uses, and of each kicker rank.
_WANT_PRIMARY = (0, 2, 2, 3, 1, 1, 3, 4, 1)
_WANT_KICKER = (1, 1, 1, 1, 0, 0, 2, 1, 0)


@jax.jit
def _best_five_jit(cards: jax.Array) -> jax.Array:
    c = cards.astype(jnp.int32)
    rank = _evaluate_jit(c)
    cat = (rank >> _u(_CAT_SHIFT)).astype(jnp.int32)[..., None]
    pri = ((rank >> _u(_PRI_SHIFT)) & _u(_MASK13))[..., None]
    kick = (rank & _u(_MASK13))[..., None]
    r = c >> 2
    s = c & 3
    bit = _u(1) << r.astype(_U)

    straightish = (cat == STRAIGHT) | (cat == STRAIGHT_FLUSH)
    flushy = (cat == FLUSH) | (cat == STRAIGHT_FLUSH)
    prim_mask = jnp.where(straightish, _straight_ranks(pri), jnp.where(cat == FLUSH, kick, pri))
    kick_mask = jnp.where(straightish | (cat == FLUSH), _u(0), kick)
    want_p = jnp.asarray(_WANT_PRIMARY, jnp.int32)[cat]
    want_k = jnp.asarray(_WANT_KICKER, jnp.int32)[cat]

    in_p = (prim_mask & bit) != 0
    in_k = (kick_mask & bit) != 0
    want = jnp.where(in_p, want_p, jnp.where(in_k, want_k, 0))
    # Copies of the same rank with a higher code come first (deterministic choice).
    same_rank_higher = (r[..., :, None] == r[..., None, :]) & (c[..., None, :] > c[..., :, None])
    occ = jnp.sum(same_rank_higher, axis=-1)
    masks = suit_masks(c)
    counts = jnp.stack([_popcnt(m) for m in masks], axis=-1)
    flush_suit = jnp.argmax(counts, axis=-1)[..., None]
    chosen = jnp.where(flushy, s == flush_suit, occ < want) & (want > 0)

    wheel = straightish & (pri == _u(1 << 3))
    disp = jnp.where(wheel & (r == 12), -1, r) + 1
    group = jnp.where(in_p & ~(cat == HIGH_CARD), 2, jnp.where(cat == FULL_HOUSE, 1, 0))
    key = jnp.where(chosen, ((group * 16 + disp) * 4 + s), -1)
    _, idx = jax.lax.top_k(key, 5)
    return jnp.take_along_axis(c, idx, axis=-1)


def best_five(cards) -> jax.Array:
    """The five cards making each hand's rank, ordered for display.

    cards: (..., K) integer array, K in {5, 6, 7}. Returns (..., 5) int32 card codes: the
    cards making the category first (trips before the pair of a full house), then the
    kickers, highest rank first; a wheel lists the ace last. Where several cards of a rank
    would do, the highest suit is shown.
    """
    return _best_five_jit(_as_hands(cards))


_RANK_WORDS = tuple("two three four five six seven eight nine ten jack queen king ace".split())
_RANK_PLURALS = tuple(
    "twos threes fours fives sixes sevens eights nines tens jacks queens kings aces".split()
)


def _ranks_desc(mask: int) -> list[int]:
    return [r for r in range(12, -1, -1) if mask >> r & 1]


def _kicker_text(ranks: list[int]) -> str:
    words = ", ".join(_RANK_WORDS[r] for r in ranks)
    return f"{words} kicker" + ("s" if len(ranks) > 1 else "")


def describe(rank: int) -> str:
    """Human text for one rank, e.g. "Two pair, kings and fives, seven kicker"."""
    value = int(rank)
    cat = value >> _CAT_SHIFT
    bad = f"rank: {value} is not allowed; it is not a rank from evaluate()"
    if not 0 <= value < (1 << 32) or cat > STRAIGHT_FLUSH:
        raise ValueError(bad)
    pri, kick = _ranks_desc(value >> _PRI_SHIFT & _MASK13), _ranks_desc(value & _MASK13)
    try:
        return _describe(cat, pri, kick)
    except IndexError:  # a mask lacks a rank the category needs
        raise ValueError(bad) from None


def _describe(cat: int, pri: list[int], kick: list[int]) -> str:
    if cat == STRAIGHT_FLUSH:
        top = pri[0]
        extra = " (royal flush)" if top == 12 else " (steel wheel)" if top == 3 else ""
        return f"Straight flush, {_RANK_WORDS[top]} high{extra}"
    if cat == FOUR_OF_A_KIND:
        return f"Four of a kind, {_RANK_PLURALS[pri[0]]}, {_kicker_text(kick)}"
    if cat == FULL_HOUSE:
        return f"Full house, {_RANK_PLURALS[pri[0]]} full of {_RANK_PLURALS[kick[0]]}"
    if cat == FLUSH:
        return "Flush, " + ", ".join(_RANK_WORDS[r] for r in kick)
    if cat == STRAIGHT:
        top = pri[0]
        return f"Straight, {_RANK_WORDS[top]} high" + (" (wheel)" if top == 3 else "")
    if cat == THREE_OF_A_KIND:
        return f"Three of a kind, {_RANK_PLURALS[pri[0]]}, {_kicker_text(kick)}"
    if cat == TWO_PAIR:
        hi, lo = _RANK_PLURALS[pri[0]], _RANK_PLURALS[pri[1]]
        return f"Two pair, {hi} and {lo}, {_kicker_text(kick)}"
    if cat == PAIR:
        return f"Pair of {_RANK_PLURALS[pri[0]]}, {_kicker_text(kick)}"
    return "High card, " + ", ".join(_RANK_WORDS[r] for r in kick)


# Three-card hands (Three Card Poker) ------------------------------------------------------

THREE_CARD_CATEGORY_NAMES = tuple(
    "high_card pair flush straight three_of_a_kind straight_flush".split()
)
"""Categories 0..5 of :func:`evaluate_three` ranks, low to high: with three cards a
straight beats a flush and three of a kind beats a straight."""
_T3_PAIR, _T3_FLUSH, _T3_STRAIGHT, _T3_TRIPS, _T3_STRAIGHT_FLUSH = 1, 2, 3, 4, 5


def _rank_three_from_masks(m0, m1, m2, m3) -> jax.Array:
    """Three-card rank from the four uint32 suit masks of three distinct cards."""
    zero = _u(0)
    anyr = m0 | m1 | m2 | m3
    # Per-rank card count = ones + 2 * twos (as in rank_from_masks; a count is at most 3).
    a, c = m0 ^ m1, m2 ^ m3
    ones, twos = a ^ c, (m0 & m1) ^ (m2 & m3) ^ (a & c)
    trips, pairs = ones & twos, twos & ~ones
    flush = (_popcnt(m0) == 3) | (_popcnt(m1) == 3) | (_popcnt(m2) == 3) | (_popcnt(m3) == 3)
    # Ace-low layout (bit j = rank j - 1): bit i of run says ranks i-1 .. i+1 are present.
    # Three distinct ranks make at most one run, whose top card is rank i + 1.
    e = (anyr << _u(1)) | (anyr >> _u(12))
    top = (e & (e >> _u(1)) & (e >> _u(2))) << _u(1)

    def hand(cat: int, primary, kickers=zero):
        return (_u(cat << _CAT_SHIFT) | (primary << _u(_PRI_SHIFT))) | kickers

    # Lowest category first, each later line overriding where its category is present.
    w = jnp.where(pairs != 0, hand(_T3_PAIR, pairs, ones & ~twos), anyr)
    w = jnp.where(flush, hand(_T3_FLUSH, zero, anyr), w)
    w = jnp.where(top != 0, hand(_T3_STRAIGHT, top), w)
    w = jnp.where(trips != 0, hand(_T3_TRIPS, trips), w)
    return jnp.where(flush & (top != 0), hand(_T3_STRAIGHT_FLUSH, top), w)


@jax.jit
def _evaluate_three_jit(cards: jax.Array) -> jax.Array:
    return _rank_three_from_masks(*suit_masks(cards))


def _as_three(cards, name: str = "cards"):
    """Check the shape and dtype of (..., 3) card codes; return them as int32."""
    if not isinstance(cards, jax.Array):
        cards = np.asarray(cards)
    shape = tuple(cards.shape)
    if len(shape) == 0 or shape[-1] != 3:
        raise ValueError(f"{name}: shape {shape} is not allowed; the last axis must hold 3 cards")
    if not jnp.issubdtype(cards.dtype, jnp.integer):
        raise ValueError(
            f"{name}: dtype {cards.dtype} is not allowed; use integer card codes 0..51"
        )
    return cards if cards.dtype == np.int32 else cards.astype(np.int32)


def evaluate_three(cards) -> jax.Array:
    """Three Card Poker rank of each three-card hand; higher is better, equal is a tie.

    The packing is ``category << 27 | primary << 13 | kickers`` with 13-bit rank masks, the
    category indexing :data:`THREE_CARD_CATEGORY_NAMES`:

    - high card and flush: primary 0, kickers the three rank bits;
    - pair: primary the pair rank bit, kickers the odd card's rank bit;
    - straight and straight flush: primary the top card's rank bit (the three for A-2-3,
      the lowest; the ace for A-K-Q, the highest), kickers 0;
    - three of a kind: primary the rank bit, kickers 0.

    cards: (..., 3) integer array (numpy or jax), codes 0..51 with no repeats within a hand
    (not checked here; see :func:`evaluate_three_np`). Returns (...,) uint32 ranks (jax
    array); suits never break ties. jit-compiled once per shape. ``kernels/evaluate.cuh``'s
    ``gpusim_evaluate3`` is the same algorithm and must stay bit-identical.
    """
    return _evaluate_three_jit(_as_three(cards))


def evaluate_three_np(cards, *, check: bool = True) -> np.ndarray:
    """Numpy convenience around :func:`evaluate_three`: checks the cards, returns np.uint32.

    cards: (..., 3) integer array-like. With ``check`` the codes must lie in 0..51 and not
    repeat within a hand.
    """
    arr = np.asarray(_as_three(np.asarray(cards)))
    if check:
        _check_cards(arr)
    return np.asarray(_evaluate_three_jit(arr))


def hand_category_three(rank):
    """Category 0..5 of each :func:`evaluate_three` rank (index into
    :data:`THREE_CARD_CATEGORY_NAMES`); same array kind."""
    return hand_category(rank)
