"""The call-once hold'em shape's table strategy: one call bit per (flop class, hole in the
class's suits), packed; a set bit reads as the point's call, else its fold."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import jax.numpy as jnp
import numpy as np

from gpusim.strategy.table_strategy import TableStrategy, board_bit

__all__ = ["CallOnceTables"]


@dataclass(frozen=True)
class CallOnceTables(TableStrategy):
    """``{point}`` from the packed call bits. ``tree``: the game's one decision point;
    ``roles``: the shape's names (:class:`gpusim.games.holdem.call_once_shape.CallTree`)."""

    tree: tuple = ()
    roles: Any = None

    @classmethod
    def of(cls, name: str, rules, tree: tuple, roles) -> CallOnceTables:
        """The table strategy ``name`` of a config of the shape."""
        from gpusim.strategy.table_strategy import _decision_tables

        tables = _decision_tables(rules)
        return cls(name=name, game=rules.game,
                   tables={"call": np.packbits(tables[f"{roles.point}/{name}"].ravel())},
                   tree=tree, roles=roles)

    @staticmethod
    def pack(name: str, tables: dict) -> dict:
        (key,) = [k for k in tables if k.endswith(f"/{name}")]
        return {"call": np.packbits(tables[key].ravel())}

    @property
    def points(self) -> tuple:  # type: ignore[override]
        return self.tree

    @property
    def _point_fns(self) -> dict:  # type: ignore[override]
        r = self.roles

        def call(seen, t):
            bit = board_bit(seen, t, "call")
            if (r.call_index, r.fold_index) == (1, 0):
                return bit
            return jnp.where(bit > 0, r.call_index, r.fold_index).astype(jnp.int8)

        return {self.tree[0].name: call}

    def _game_tables(self) -> dict:
        return {"call": jnp.asarray(self.tables["call"])}

    def _kernel_game_tables(self) -> dict[str, np.ndarray]:
        return {"call": np.ascontiguousarray(self.tables["call"], np.uint8)}

    gather = True
