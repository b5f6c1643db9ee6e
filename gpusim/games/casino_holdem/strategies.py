"""Casino Hold'em's strategies: its rule lists and its table strategy (``optimal``,
``optimal-main``, read from the exact decision tables).

Each rule strategy is a :class:`~gpusim.strategy.PointRules`: one function per decision point,
handed only the card columns its point sees, so every decision reads only the cards seen at
that point (the information contract of :mod:`gpusim.strategy`). "With a hole card" below means
the hole card is one of the cards that make the feature (its rank is in the pair or the run,
its suit is the flush suit); the features are :mod:`gpusim.strategy.features`.

Casino Hold'em ``basic`` (call or fold, seeing hole cards + flop). Call with any of:

1. a pair or better made with a hole card (a pocket pair, or a hole card paired on the flop);
2. four or more cards to a flush, with a hole card;
3. four consecutive ranks with a hole card (A-2-3-4 and J-Q-K-A count), or a made straight;
4. a ten or higher in the hole;
5. otherwise fold (both hole cards 9 or lower, no pair with them, no four-card draw).

Casino Hold'em ``side-bet-optimal`` (the Norwegian rules): call on every AA Bonus win (a pair of
aces or better in hole cards + flop), else play ``basic``.

``always-play`` calls every hand (a reference point, not a good strategy).
"""

from __future__ import annotations

from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np

from gpusim.games.casino_holdem.events import TREE
from gpusim.strategy import PointRules
from gpusim.strategy.features import always, features
from gpusim.strategy.table_strategy import TableStrategy, board_bit

__all__ = [
    "CasinoHoldemTables",
    "ch_always_play",
    "ch_basic",
    "ch_side_bet_optimal",
]

# --- Casino Hold'em: the call point sees the hole cards and the flop (5 columns) ---------------


@jax.jit
def _ch_basic(seen: jax.Array) -> jax.Array:
    f = features(seen)
    # Rank 8 is the ten.
    return f["hole_pair"] | f["flush4"] | f["run4"] | f["straight"] | (f["hole_high"] >= 8)


@jax.jit
def _aa_bonus_win(seen: jax.Array) -> jax.Array:
    """Pair of aces or better in hole cards + flop (every AA Bonus line of the Norwegian rules
    and guide)."""
    from gpusim.evaluator import PAIR, evaluate, hand_category

    seen = seen.astype(jnp.int32)
    cat = hand_category(evaluate(seen))
    aces = jnp.sum((seen >> 2) == 12, axis=-1)
    return (cat > PAIR) | ((cat == PAIR) & (aces >= 2))


def _ch_side_bet_optimal(seen) -> jax.Array:
    return _aa_bonus_win(seen) | _ch_basic(seen)


# The call point's columns are gathered (gpusim.strategy.tree.visible): the features reduce over
# the cards, and side-bet-optimal's hand is the settlement's AA Bonus hand (first_five), so XLA
# evaluates it once.
ch_basic = PointRules(TREE, {"call": _ch_basic}, gather=True)
"""Casino Hold'em basic strategy (module docstring)."""
ch_side_bet_optimal = PointRules(TREE, {"call": _ch_side_bet_optimal}, gather=True)
"""Call on every AA Bonus win, else basic."""
ch_always_play = PointRules(TREE, {"call": always}, gather=True)


# --- the table strategy ---------------------------------------------------------------------------


def _ch_call(seen, t):
    return board_bit(seen, t, "call")


@dataclass(frozen=True)
class CasinoHoldemTables(TableStrategy):
    """Casino Hold'em: ``{"call"}`` from ``call`` (packed bits by flop class and hole)."""

    @staticmethod
    def pack(name: str, tables: dict) -> dict:
        return {"call": np.packbits(tables[f"call/{name}"].ravel())}

    def _game_tables(self) -> dict:
        return {"call": jnp.asarray(self.tables["call"])}

    def _kernel_game_tables(self) -> dict[str, np.ndarray]:
        return {"call": np.ascontiguousarray(self.tables["call"], np.uint8)}

    points = TREE
    _point_fns = {"call": _ch_call}
    gather = True  # the lookups and the AA Bonus hand then share one gathered (N, 5)
