"""Ultimate Texas Hold'em's table strategy (``optimal``): the exact solver's decision tables
read at each point (:mod:`gpusim.strategy.table_strategy`).

- pre-flop: the action (0 check, 1 Play 3x, 2 Play 4x) of the hole cards' starting-hand class
  (169, ``HAND_CLASSES`` order), read through a 52 x 52 table of card pairs;
- flop: Play 2x, one bit per (flop suit class, hole in the class's suits), 1,755 x 1,326;
- river: Play 1x, one bit per (5-card board suit class, hole in the class's suits),
  134,459 x 1,326 bits (22 MB): the exact river decision of every situation, no rule of thumb.

The solver's tables (``{"<point>/optimal": bool array}``) are ``preflop`` (169, 3) one-hot,
``flop`` (1755, 1326) and ``river`` (134459, 1326).
"""

from __future__ import annotations

from dataclasses import dataclass

import jax.numpy as jnp
import numpy as np

from gpusim.cards import hand_class_index
from gpusim.games.ultimate_holdem.events import TREE
from gpusim.index import board_classes
from gpusim.strategy.table_strategy import TableStrategy, board_bit

__all__ = ["UltimateHoldemTables", "pair_classes"]


def pair_classes() -> np.ndarray:
    """(52 * 52,) int32 starting-hand class of the cards (c1, c2) at ``c1 * 52 + c2`` (0 where
    c1 == c2: never read)."""
    c1, c2 = np.divmod(np.arange(52 * 52), 52)
    ok = c1 != c2
    out = np.zeros(52 * 52, dtype=np.int32)
    out[ok] = hand_class_index(c1[ok], c2[ok])
    return out


def _preflop(seen, t):
    return t["preflop"][t["pair_class"][seen[:, 0] * 52 + seen[:, 1]]]


def _flop(seen, t):
    return board_bit(seen, t, "flop").astype(jnp.int8)


def _river(seen, t):
    return board_bit(seen, t, "river").astype(jnp.int8)


@dataclass(frozen=True)
class UltimateHoldemTables(TableStrategy):
    """Ultimate Texas Hold'em: ``{"preflop", "flop", "river"}`` action indices from the
    packed tables (module docstring)."""

    @staticmethod
    def pack(name: str, tables: dict) -> dict:
        return {
            "preflop": np.argmax(tables[f"preflop/{name}"], axis=1).astype(np.uint8),
            "flop": np.packbits(tables[f"flop/{name}"].ravel()),
            "river": np.packbits(tables[f"river/{name}"].ravel()),
        }

    def _game_tables(self) -> dict:
        b5 = board_classes(5)
        return {
            "raw5_class": jnp.asarray(b5.raw_class, jnp.int32),
            "raw5_perm": jnp.asarray(b5.raw_perm, jnp.int32),
            "pair_class": jnp.asarray(pair_classes()),
            "preflop": jnp.asarray(self.tables["preflop"], jnp.int8),
            "flop": jnp.asarray(self.tables["flop"]),
            "river": jnp.asarray(self.tables["river"]),
        }

    def _kernel_game_tables(self) -> dict[str, np.ndarray]:
        b5 = board_classes(5)
        t = self.tables
        return {
            "preflop": np.ascontiguousarray(t["preflop"], np.uint8),
            "flop": np.ascontiguousarray(t["flop"], np.uint8),
            "raw5_class": np.ascontiguousarray(b5.raw_class, np.int32),
            "raw5_perm": np.ascontiguousarray(b5.raw_perm, np.int8),
            "river": np.ascontiguousarray(t["river"], np.uint8),
        }

    points = TREE
    _point_fns = {"preflop": _preflop, "flop": _flop, "river": _river}
