"""Rule-list strategies a person can follow, plus ``always-play`` and seed 000's rule text.

Each is a :class:`~gpusim.strategy.PointRules`: one function per decision point, handed only the
card columns its point sees, so every decision reads only the cards seen at that point (the
information contract of :mod:`gpusim.strategy`). "With a hole card" below means the hole card is one
of the cards that make the feature (its rank is in the pair or the run, its suit is the flush suit).

Casino Hold'em ``basic`` (call or fold, seeing hole cards + flop). Call with any of:

1. a pair or better made with a hole card (a pocket pair, or a hole card paired on the flop);
2. four or more cards to a flush, with a hole card;
3. four consecutive ranks with a hole card (A-2-3-4 and J-Q-K-A count), or a made straight;
4. a ten or higher in the hole;
5. otherwise fold (both hole cards 9 or lower, no pair with them, no four-card draw).

Casino Hold'em ``side-bet-optimal`` (seed 002): call on every AA Bonus win (a pair of aces or
better in hole cards + flop), else play ``basic``.

Texas Hold'em Bonus ``basic``:

- Flop bet (seeing the hole cards): bet everything except 2-3 to 2-7 offsuit.
- Turn bet (seeing hole cards + flop): bet with a pair or better made with a hole card, four
  to a flush with a hole card, or four consecutive ranks (or a straight) with a hole card.
- River bet (seeing hole cards + flop + turn): bet with a pair of sixes or better made with a
  hole card, two pair or better made with a hole card, four to a straight flush with a hole
  card, or a straight or flush with a hole card.

Texas Hold'em Bonus ``win-over-half`` (seed 000's rule text, taken literally): Flop bet as
``basic`` (the fold list 2-3 .. 2-7 offsuit; seed 000's "EV higher than folding" rule is left to
the exact-analysis ``optimal`` strategy); Turn and River bets when the exact probability of
winning, given the cards seen, is greater than 1/2 (ties count as not winning). See
:mod:`gpusim.strategy.equity`; this counts every completion per round, so it is meant for
``gpusim play`` and tests, not for billions of rounds.

``always-play`` calls / bets every street (a reference point, not a good strategy).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from gpusim.strategy import PointRules

__all__ = [
    "ch_always_play",
    "ch_basic",
    "ch_side_bet_optimal",
    "thb_always_play",
    "thb_basic",
    "thb_preflop_play",
    "thb_win_over_half",
]

_U = jnp.uint32


def _ranks_suits(seen: jax.Array):
    seen = seen.astype(jnp.int32)
    return seen >> 2, seen & 3


def _rank_mask(ranks: jax.Array) -> jax.Array:
    """(N, k) distinct-or-not ranks -> (N,) uint32 presence mask, bit r = rank r."""
    bits = _U(1) << ranks.astype(_U)
    out = jnp.zeros(ranks.shape[:-1], _U)
    for j in range(ranks.shape[-1]):
        out = out | bits[..., j]
    return out


def _ace_low(mask: jax.Array) -> jax.Array:
    """Shift a rank mask up one bit and copy the ace to bit 0, so runs see A-2-3-4-5."""
    return (mask << _U(1)) | (mask >> _U(12))


def _runs(e: jax.Array, length: int) -> jax.Array:
    """Bit i set where ace-low mask ``e`` holds bits i .. i+length-1."""
    run = e
    for k in range(1, length):
        run = run & (e >> _U(k))
    return run


def _hole_in_run(run: jax.Array, hole_e: jax.Array, length: int, starts) -> jax.Array:
    """True where a run of ``length`` starting at an allowed bit contains a hole bit."""
    window = _U((1 << length) - 1)
    hit = jnp.zeros(run.shape, bool)
    for i in starts:
        has = ((run >> _U(i)) & _U(1)) == _U(1)
        hit = hit | (has & (((hole_e >> _U(i)) & window) != _U(0)))
    return hit


def _hole_e(hole_ranks: jax.Array) -> jax.Array:
    return _ace_low(_rank_mask(hole_ranks))


def _features(seen: jax.Array) -> dict[str, jax.Array]:
    """Hand features of the seen cards (N, k), hole cards first (columns 0 and 1)."""
    ranks, suits = _ranks_suits(seen)
    hole_r, hole_s = ranks[:, :2], suits[:, :2]
    counts = jnp.sum(ranks[:, None, :] == hole_r[:, :, None], axis=-1)  # (N, 2)
    suit_counts = jnp.sum(suits[:, None, :] == hole_s[:, :, None], axis=-1)  # (N, 2)
    n_ranks = jnp.stack([jnp.sum(ranks == r, axis=-1) for r in range(13)], axis=-1)  # (N, 13)
    e = _ace_low(_rank_mask(ranks))
    hole_e = _hole_e(hole_r)
    # Ranks seen at least twice, and whether a hole rank is among them.
    paired = jnp.sum(n_ranks >= 2, axis=-1)
    hole_pair_rank = jnp.max(jnp.where(counts >= 2, hole_r, -1), axis=-1)
    # Four to a straight flush with a hole card: per hole card, runs of its suit.
    sf4 = jnp.zeros(seen.shape[:1], bool)
    sf5 = jnp.zeros(seen.shape[:1], bool)
    for h in range(2):
        same = suits == hole_s[:, h : h + 1]
        suit_e = _ace_low(_rank_mask(jnp.where(same, ranks, ranks[:, h : h + 1])))
        own_e = _ace_low(_U(1) << hole_r[:, h].astype(_U))
        sf4 = sf4 | _hole_in_run(_runs(suit_e, 4), own_e, 4, range(11))
        sf5 = sf5 | _hole_in_run(_runs(suit_e, 5), own_e, 5, range(10))
    return {
        "hole_pair": jnp.any(counts >= 2, axis=-1),
        "hole_pair_rank": hole_pair_rank,
        "hole_trips": jnp.any(counts >= 3, axis=-1),
        "two_pair_with_hole": (paired >= 2) & jnp.any(counts >= 2, axis=-1),
        "flush4": jnp.any(suit_counts >= 4, axis=-1),
        "flush5": jnp.any(suit_counts >= 5, axis=-1),
        "run4": _hole_in_run(_runs(e, 4), hole_e, 4, range(11)),
        "open_ended4": _hole_in_run(_runs(e, 4), hole_e, 4, range(1, 10)),
        "straight": _hole_in_run(_runs(e, 5), hole_e, 5, range(10)),
        "sf4": sf4,
        "sf5": sf5,
        "hole_high": jnp.max(hole_r, axis=-1),
        "hole_low": jnp.min(hole_r, axis=-1),
        "hole_suited": hole_s[:, 0] == hole_s[:, 1],
    }


# --- Casino Hold'em: the call point sees the hole cards and the flop (5 columns) ---------------


@jax.jit
def _ch_basic(seen: jax.Array) -> jax.Array:
    f = _features(seen)
    # Rank 8 is the ten.
    return f["hole_pair"] | f["flush4"] | f["run4"] | f["straight"] | (f["hole_high"] >= 8)


@jax.jit
def _aa_bonus_win(seen: jax.Array) -> jax.Array:
    """Pair of aces or better in hole cards + flop (every AA Bonus line of seeds 002/004)."""
    from gpusim.evaluate import PAIR, evaluate, hand_category

    seen = seen.astype(jnp.int32)
    cat = hand_category(evaluate(seen))
    aces = jnp.sum((seen >> 2) == 12, axis=-1)
    return (cat > PAIR) | ((cat == PAIR) & (aces >= 2))


def _ch_side_bet_optimal(seen) -> jax.Array:
    return _aa_bonus_win(seen) | _ch_basic(seen)


def _always(seen) -> jax.Array:
    """The last action (bet, call) at every point."""
    return jnp.ones(np.shape(seen)[0], bool)


ch_basic = PointRules("casino_holdem", {"call": _ch_basic})
"""Casino Hold'em basic strategy (module docstring)."""
ch_side_bet_optimal = PointRules("casino_holdem", {"call": _ch_side_bet_optimal})
"""Call on every AA Bonus win, else basic."""
ch_always_play = PointRules("casino_holdem", {"call": _always})


# --- Texas Hold'em Bonus: flop sees the hole cards (2 columns), turn + the flop (5), river + the
# turn card (6) ----------------------------------------------------------------------------------


@jax.jit
def thb_preflop_play(seen: jax.Array) -> jax.Array:
    """Flop-bet decision from the hole cards ``seen[:, :2]``: fold 2-3 .. 2-7 offsuit, play the
    rest."""
    r, s = _ranks_suits(seen[:, :2])
    hi, lo = jnp.max(r, axis=-1), jnp.min(r, axis=-1)
    fold = (lo == 0) & (hi >= 1) & (hi <= 5) & (s[:, 0] != s[:, 1])
    return ~fold


def _cover(e: jax.Array, length: int) -> jax.Array:
    """Bit i set where ``e`` has a bit in i .. i+length-1 (the window of a run starting at i)."""
    out = e
    for j in range(1, length):
        out = out | (e >> _U(j))
    return out


def _hole_in_run_bits(run, hole_e, length: int, n_starts: int) -> jax.Array:
    """:func:`_hole_in_run` for starts 0 .. n_starts-1, all at once on the bits."""
    return (run & _cover(hole_e, length) & _U((1 << n_starts) - 1)) != _U(0)


def _street(seen: jax.Array):
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
    return r, bit, count, suited, suit_count, _ace_low(mask), _ace_low(bit[0] | bit[1])


# The rule list of the module docstring on rank and suit bit masks, one function per street:
# the same decisions as _features (a test compares them round by round) with elementwise
# integer work only, no (N, k) intermediates.


@jax.jit
def _thb_turn(seen: jax.Array) -> jax.Array:
    _, _, count, _, suit_count, e, hole_e = _street(seen)
    return (
        (count[0] >= 2) | (count[1] >= 2)
        | (suit_count[0] >= 4) | (suit_count[1] >= 4)
        | _hole_in_run_bits(_runs(e, 4), hole_e, 4, 11)
    )  # fmt: skip


@jax.jit
def _thb_river(seen: jax.Array) -> jax.Array:
    r, bit, count, suited, suit_count, e, hole_e = _street(seen)
    pair_mask = _U(0)
    for i in range(1, 6):
        for j in range(i):
            pair_mask = pair_mask | jnp.where(r[i] == r[j], bit[i], _U(0))
    hole_pair = (count[0] >= 2) | (count[1] >= 2)
    sf4 = jnp.zeros_like(hole_pair)
    for h in (0, 1):
        suit_mask = _U(0)
        for j in range(6):
            suit_mask = suit_mask | jnp.where(suited[h][j], bit[j], _U(0))
        sf4 = sf4 | _hole_in_run_bits(_runs(_ace_low(suit_mask), 4), _ace_low(bit[h]), 4, 11)
    return (
        ((count[0] >= 2) & (r[0] >= 4)) | ((count[1] >= 2) & (r[1] >= 4))  # sixes or better
        | ((jax.lax.population_count(pair_mask) >= 2) & hole_pair)  # two pair with a hole card
        | (count[0] >= 3) | (count[1] >= 3)
        | sf4
        | _hole_in_run_bits(_runs(e, 5), hole_e, 5, 10)
        | (suit_count[0] >= 5) | (suit_count[1] >= 5)
    )  # fmt: skip


thb_basic = PointRules(
    "holdem_bonus",
    {"flop": thb_preflop_play, "turn": _thb_turn, "river": _thb_river},
)
"""Texas Hold'em Bonus basic strategy (module docstring)."""
thb_always_play = PointRules("holdem_bonus", {"flop": _always, "turn": _always, "river": _always})


def _over_half(seen) -> np.ndarray:
    """(N,) bool: exact P(win) > 1/2 given the seen cards (hole, then the board so far), for
    the rounds whose hole cards bet the Flop (the rest are folded before this point)."""
    from gpusim.strategy.equity import showdown_counts

    c = np.asarray(seen, dtype=np.int32)
    flop = np.asarray(thb_preflop_play(jnp.asarray(c[:, :2])))
    # Count each distinct seen situation once (padded batches repeat rows).
    uniq, inverse = np.unique(c, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    played = np.zeros(len(uniq), bool)
    played[inverse[flop]] = True
    out = np.zeros(len(uniq), bool)
    for i in np.flatnonzero(played):
        win, _tie, _loss, total = showdown_counts(uniq[i, 0:2], uniq[i, 2:])
        out[i] = 2 * win > total
    return out[inverse]


thb_win_over_half = PointRules(
    "holdem_bonus", {"flop": thb_preflop_play, "turn": _over_half, "river": _over_half}
)
"""Seed 000's rule text: Turn/River bets when exact P(win) > 1/2 (module docstring)."""
