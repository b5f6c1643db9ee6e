"""Shared pieces of the game engines: the Settlement record and hand-category helpers."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from gpusim.evaluator import CATEGORY_NAMES, evaluate, evaluate_np, hand_category, is_royal
from gpusim.rules import Qualifier
from gpusim.strategy.tree import visible

__all__ = [
    "BOARD",
    "DEALER7",
    "FIRST5",
    "PLAYER7",
    "Settlement",
    "category10",
    "first_five",
    "in_bet_order",
    "net_from_returns",
    "qualifier_threshold",
]

PLAYER7 = (0, 1, 4, 5, 6, 7, 8)
"""Columns of the (N, 9) round layout that make the player's seven cards."""
DEALER7 = (2, 3, 4, 5, 6, 7, 8)
FIRST5 = (0, 1, 4, 5, 6)
"""The player's hole cards and the flop (AA Bonus, default Jackpot hand)."""
BOARD = (4, 5, 6, 7, 8)


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class Settlement:
    """Result of settling N rounds; every array is (N,) and indexed like the input rounds.

    - ``stakes[bet]`` int32: amount wagered on the bet this round (0 where not placed).
    - ``nets[bet]`` int32: net result in money units (returned - wagered; 0 where not placed).
    - ``events[bet]`` int32: index into ``event_names[bet]``, a fixed tuple per bet and game
      (the rows of a return table); see each game module for the meaning of every event.
    - ``player_category`` / ``dealer_category`` int32: final seven-card hand category 0..9,
      index into :data:`gpusim.cards.CATEGORY_KEYS` (9 = royal flush).
    - ``player_rank`` / ``dealer_rank`` uint32: evaluator ranks (higher wins, equal ties).
    - ``joint`` int32 or None: the round's joint outcome code, for a game whose settlement
      computes it itself (a described game: its ``JointCode`` reads ``"joint"``).

    A pytree (``event_table`` is static), so it can leave a ``jax.jit``.
    """

    stakes: dict[str, Any]
    nets: dict[str, Any]
    events: dict[str, Any]
    player_category: Any
    dealer_category: Any
    player_rank: Any
    dealer_rank: Any
    event_table: tuple[tuple[str, tuple[str, ...]], ...] = field(
        default=(), metadata={"static": True}
    )
    joint: Any = None

    @property
    def event_names(self) -> dict[str, tuple[str, ...]]:
        return dict(self.event_table)

    @property
    def bets(self) -> tuple[str, ...]:
        return tuple(self.stakes)


def in_bet_order(s: Settlement, order: tuple[str, ...]) -> Settlement:
    """The same settlement with its dicts in ``order`` (jit outputs come back key-sorted)."""
    return replace(
        s,
        stakes={b: s.stakes[b] for b in order},
        nets={b: s.nets[b] for b in order},
        events={b: s.events[b] for b in order},
    )


def first_five(cards: jax.Array) -> jax.Array:
    """(N, 5) the player's hole cards and the flop (:data:`FIRST5`), for the evaluator: gathered
    (:func:`gpusim.strategy.tree.visible` with ``gather=True``), so it reads contiguous columns.
    A strategy whose point sees these columns and builds them the same way (Casino Hold'em's)
    shares the hand with the settlement, and XLA evaluates it once."""
    return visible(cards, FIRST5, gather=True)


def category10(rank: jax.Array) -> jax.Array:
    """Hand category 0..9 of evaluator ranks: 0..8 as the evaluator, 9 for a royal flush."""
    return jnp.where(is_royal(rank), jnp.int32(9), hand_category(rank)).astype(jnp.int32)


def seven_card_ranks(cards: jax.Array) -> tuple[jax.Array, jax.Array]:
    """(player, dealer) uint32 ranks of the best five of seven. cards: (N, 9) int32."""
    return evaluate(cards[:, list(PLAYER7)]), evaluate(cards[:, list(DEALER7)])


def net_from_returns(stake: jax.Array, returns: tuple[int, ...], event: jax.Array) -> jax.Array:
    """stake * (returns[event] - 1): the net of a bet whose return per unit is tabled by event.

    ``stake``: (N,) int32, 0 where the bet was not placed (then the net is 0 too).
    """
    table = jnp.asarray(returns, dtype=jnp.int32)
    return stake * (jnp.take(table, event) - jnp.int32(1))


@lru_cache(maxsize=64)
def qualifier_threshold(qualifier: Qualifier) -> int:
    """The evaluator rank of the weakest hand that qualifies: ranks >= it qualify.

    Found by evaluating one five-card hand per rank pattern (and every rank set as a flush),
    so it follows the evaluator's ordering without knowing its bit layout.
    """
    hands = []
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in set(ranks)) > 4:
            continue
        # Suits by position cycle 0,1,2,3,0: a rank's copies sit together, so they differ,
        # and all four suits appear, so this is never a flush.
        hands.append([4 * r + (i % 4) for i, r in enumerate(ranks)])
        if len(set(ranks)) == 5:
            hands.append([4 * r for r in ranks])
    cards = np.asarray(hands, dtype=np.int32)
    # Concrete even when first called while a caller's jax.jit is tracing.
    with jax.ensure_compile_time_eval():
        rank = evaluate_np(cards).astype(np.int64)
    cat = rank >> 27
    # The rank that names a hand (pair rank, top of a straight, top card of a flush...).
    named = np.array([max(c >> 2 for c in h) for h in hands])
    for i, h in enumerate(hands):
        rs = [c >> 2 for c in h]
        counts = {r: rs.count(r) for r in rs}
        top = max(counts.values())
        if top >= 2:
            named[i] = max(r for r, k in counts.items() if k == top)
    straight_like = (cat == 4) | (cat == 8)
    is_wheel = np.array([sorted({c >> 2 for c in h}) == [0, 1, 2, 3, 12] for h in hands])
    named = np.where(straight_like & is_wheel, 3, named)
    want = CATEGORY_NAMES.index(qualifier.hand)
    ok = (cat == want) & (named >= qualifier.rank)
    if not ok.any():
        raise ValueError(f"dealer qualifier {qualifier.describe()}: no such hand exists")
    return int(rank[ok].min())
