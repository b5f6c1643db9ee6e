"""Shared pieces of the game engines: the Settlement record and hand-category helpers."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import jax
import jax.numpy as jnp

from gpusim.evaluator import evaluate, hand_category, is_royal
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
