"""Table-driven strategies from the exact analysis: :class:`TableStrategy`, the base of every
game's table strategy (``GameSpec.table_strategy_class``), and the lookups they share.

Lookups are pure array arithmetic on the dealt cards (no per-round Python):
the flop (or the flop plus the turn) gives its colex index, a raw-board table gives its suit
class and the suit permutation into the class's canonical suits, the hole cards are relabelled
by that permutation, and one bit is read from the packed table at
``class * 1326 + hole index``. See :mod:`gpusim.board_index` and :mod:`gpusim.strategy.tables`.

The tables are shipped for the shipped configs; for another config they are read from the
user's cache once ``gpusim exact`` (or a run, :mod:`gpusim.runs.exact_on_demand`) has solved them.
"""


from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property, partial
from typing import ClassVar

import jax
import jax.numpy as jnp
import numpy as np

from gpusim.board_index import PERMUTATIONS, board_classes
from gpusim.strategy.tree import decide_points

__all__ = ["TableStrategy", "board_bit"]

_BINOM = np.array([[math.comb(n, k) for k in range(6)] for n in range(52)], dtype=np.int32)
_NEW_SUIT = PERMUTATIONS.astype(np.int32).ravel()  # [perm * 4 + old suit] -> new suit


def _sorted(cols: list) -> list:
    """Sort a few (N,) arrays elementwise with a compare-exchange network (no argsort)."""
    net = {2: [(0, 1)], 3: [(0, 1), (1, 2), (0, 1)], 4: [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)],
           5: [(0, 1), (3, 4), (2, 4), (2, 3), (0, 3), (0, 2), (1, 4), (1, 3), (1, 2)]}
    c = list(cols)
    for i, j in net[len(c)]:
        c[i], c[j] = jnp.minimum(c[i], c[j]), jnp.maximum(c[i], c[j])
    return c


def _colex(cards, binom):
    """Colex index of each row's card set. cards: (N, k) int32, k <= 5 (a river board)."""
    c = _sorted([cards[:, i] for i in range(cards.shape[1])])
    out = binom[c[0], 1]
    for i in range(1, len(c)):
        out = out + binom[c[i], i + 1]
    return out


def _hole_in_class(hole, perm, new_suit):
    """Hole index (0..1325) after relabelling suits by perm. hole: (N, 2); perm: (N,)."""
    base = perm.astype(jnp.int32)[:, None] * 4
    h = ((hole >> 2) << 2) | new_suit[base + (hole & 3)]
    hi = jnp.maximum(h[:, 0], h[:, 1])
    lo = jnp.minimum(h[:, 0], h[:, 1])
    return hi * (hi - 1) // 2 + lo


def _bit(packed, idx):
    return ((packed[idx >> 3] >> (7 - (idx & 7)).astype(jnp.uint8)) & 1).astype(bool)


# One jitted lookup per decision point, each given only its point's columns (hole cards
# first, then the board seen so far): see gpusim.strategy.tree.decide_points.


def board_bit(seen, t, table: str):
    """The bit of packed ``t[table]`` at (class of the board ``seen[:, 2:]``, the hole cards
    ``seen[:, :2]`` in the class's suits); a k-card board reads ``raw{k}_class/_perm``."""
    k = seen.shape[1] - 2
    bid = _colex(seen[:, 2:], t["binom"])
    hole = _hole_in_class(seen[:, 0:2], t[f"raw{k}_perm"][bid], t["new_suit"])
    return _bit(t[table], t[f"raw{k}_class"][bid] * 1326 + hole)


@dataclass(frozen=True)
class TableStrategy:
    """A strategy read from packed decision tables (see the module docstring); one subclass
    per game (the spec's ``table_strategy_class``) knows its tables and decision points.

    decide(cards: (N, 9) int) -> {point: (N,) int8 action index}; each point's jitted gather
    (``_point_fns``) is handed only the columns its point sees.
    """

    name: str
    game: str
    tables: dict = field(repr=False)
    description: str = ""

    @classmethod
    def load(cls, name: str, rules) -> TableStrategy:
        """The table strategy ``name`` of ``rules``, from its shipped or cached tables
        (FileNotFoundError when there are none: :func:`gpusim.runs.exact_on_demand.prepare_strategy`
        solves them)."""
        return cls(name=name, game=rules.game, tables=cls.pack(name, _decision_tables(rules)))

    @staticmethod
    def pack(name: str, tables: dict) -> dict:
        """This strategy's tables, from the solver's unpacked ``{"<point>/<name>": bool}``."""
        raise NotImplementedError

    @cached_property
    def _device_tables(self) -> dict:
        # built eagerly even when first reached while a caller's jit is tracing, so the cached
        # arrays are constants, not that trace's tracers
        with jax.ensure_compile_time_eval():
            b3 = board_classes(3)
            return {
                "binom": jnp.asarray(_BINOM),
                "new_suit": jnp.asarray(_NEW_SUIT),
                "raw3_class": jnp.asarray(b3.raw_class, jnp.int32),
                "raw3_perm": jnp.asarray(b3.raw_perm, jnp.int32),
                **self._game_tables(),
            }

    def _game_tables(self) -> dict:
        raise NotImplementedError

    def kernel_tables(self) -> dict[str, np.ndarray]:
        """The tables in the CUDA kernels' layout (kernels/strategy_common.cuh), numpy."""
        b3 = board_classes(3)
        return {
            "raw3_class": np.ascontiguousarray(b3.raw_class, np.int32),
            "raw3_perm": np.ascontiguousarray(b3.raw_perm, np.int8),
            "new_suit": np.ascontiguousarray(PERMUTATIONS.ravel(), np.int8),
            **self._kernel_game_tables(),
        }

    def _kernel_game_tables(self) -> dict[str, np.ndarray]:
        raise NotImplementedError

    points: ClassVar[tuple] = ()
    """The game's decision tree (per subclass)."""
    _point_fns: ClassVar[dict] = {}
    """{point: fn(seen (N, len(sees)) int32, device tables) -> (N,) bool} (per subclass)."""
    gather: ClassVar[bool] = False
    """How a point's columns are built for XLA (:func:`gpusim.strategy.tree.visible`; the
    values are the same): measured per game."""

    @cached_property
    def _decide_all(self):
        # one jitted function for every point: separately jitted lookups, nested in the batch
        # program, are kept apart by XLA and cost a quarter of Hold'em Bonus's rate
        def run(cards, t):
            fns = {p: partial(fn, t=t) for p, fn in self._point_fns.items()}
            return decide_points(self.points, fns, cards, gather=self.gather)

        return jax.jit(run)

    def decide(self, cards) -> dict:
        return self._decide_all(jnp.asarray(cards, jnp.int32), self._device_tables)


def _decision_tables(rules) -> dict:
    # only reads: solving missing tables is for runs/ and cli/ (gpusim.runs.exact_on_demand)
    from gpusim.strategy.tables import stored_tables

    tables = stored_tables(rules)
    if tables is None:
        raise FileNotFoundError(
            f"no decision tables for config {rules.name!r} (hash {rules.config_hash[:12]}); "
            f"run `gpusim exact {rules.name}` to solve them"
        )
    return tables
