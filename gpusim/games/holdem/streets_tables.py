"""The street-bets hold'em shape's table strategy: the flop bet per starting-hand class
(``preflop``, 169 bools), the Turn bet per (flop class, hole) and the River bet per (4-card
board class, hole), packed; a set bit reads as the point's bet (action 1), else its fold or
check (action 0)."""

from __future__ import annotations

from dataclasses import dataclass

import jax.numpy as jnp
import numpy as np

from gpusim.board_index import board_classes
from gpusim.strategy.table_strategy import TableStrategy, board_bit

__all__ = ["StreetsTables"]


def _table_flop(seen, t):
    r, s = seen[:, 0:2] >> 2, seen[:, 0:2] & 3
    hi, lo = jnp.maximum(r[:, 0], r[:, 1]), jnp.minimum(r[:, 0], r[:, 1])
    suited = s[:, 0] == s[:, 1]
    row = jnp.where(suited, 12 - hi, 12 - lo)
    col = jnp.where(suited, 12 - lo, 12 - hi)
    return t["preflop"][t["grid"][row * 13 + col]]


def _table_turn(seen, t):
    return board_bit(seen, t, "turn")


def _table_river(seen, t):
    return board_bit(seen, t, "river")


@dataclass(frozen=True)
class StreetsTables(TableStrategy):
    """``{flop, turn, river}`` (the ``tree``'s three points) from ``preflop`` (169 bool),
    ``turn`` (packed, by flop class) and ``river`` (packed, by 4-card board class)."""

    tree: tuple = ()

    @classmethod
    def of(cls, name: str, rules, tree: tuple) -> StreetsTables:
        """The table strategy ``name`` of a config of the shape."""
        from gpusim.strategy.table_strategy import _decision_tables

        return cls(name=name, game=rules.game, tables=cls.pack(name, _decision_tables(rules)),
                   tree=tree)

    @staticmethod
    def pack(name: str, tables: dict) -> dict:
        return {
            "preflop": tables[f"preflop/{name}"].astype(bool),
            "turn": np.packbits(tables[f"turn/{name}"].ravel()),
            "river": np.packbits(tables[f"river/{name}"].ravel()),
        }

    def _game_tables(self) -> dict:
        from gpusim.cards import CLASS_GRID

        b4 = board_classes(4)
        return {
            "raw4_class": jnp.asarray(b4.raw_class, jnp.int32),
            "raw4_perm": jnp.asarray(b4.raw_perm, jnp.int32),
            "grid": jnp.asarray(np.asarray(CLASS_GRID, np.int32).ravel()),
            "preflop": jnp.asarray(self.tables["preflop"], bool),
            "turn": jnp.asarray(self.tables["turn"]),
            "river": jnp.asarray(self.tables["river"]),
        }

    def _kernel_game_tables(self) -> dict[str, np.ndarray]:
        from gpusim.cards import CLASS_GRID

        b4 = board_classes(4)
        t = self.tables
        return {
            "preflop": np.ascontiguousarray(np.asarray(t["preflop"]).astype(np.uint8)),
            "grid": np.ascontiguousarray(np.asarray(CLASS_GRID).ravel(), np.int32),
            "turn": np.ascontiguousarray(t["turn"], np.uint8),
            "river": np.ascontiguousarray(t["river"], np.uint8),
            "raw4_class": np.ascontiguousarray(b4.raw_class, np.int32),
            "raw4_perm": np.ascontiguousarray(b4.raw_perm, np.int8),
        }

    @property
    def points(self) -> tuple:  # type: ignore[override]
        return self.tree

    @property
    def _point_fns(self) -> dict:  # type: ignore[override]
        flop, turn, river = (p.name for p in self.tree)
        return {flop: _table_flop, turn: _table_turn, river: _table_river}
