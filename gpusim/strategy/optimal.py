"""Table-driven strategies from the exact analysis: ``optimal``, ``optimal-main`` (Casino
Hold'em) and ``optimal``, ``win-over-half`` (Texas Hold'em Bonus).

Lookups are pure array arithmetic on the dealt cards (no per-round Python):
the flop (or the flop plus the turn) gives its colex index, a raw-board table gives its suit
class and the suit permutation into the class's canonical suits, the hole cards are relabelled
by that permutation, and one bit is read from the packed table at
``class * 1326 + hole index``. See :mod:`gpusim.index` and :mod:`gpusim.exact.tables`.

The tables are shipped for the shipped configs; for another config they are solved on first
use (minutes; cached in the user's cache directory).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from gpusim.index import PERMUTATIONS, board_classes
from gpusim.strategy import register_strategy

__all__ = ["TableStrategy", "table_strategy"]

_BINOM = np.array([[math.comb(n, k) for k in range(5)] for n in range(52)], dtype=np.int64)
_NEW_SUIT = PERMUTATIONS.astype(np.int32).ravel()  # [perm * 4 + old suit] -> new suit


def _colex(cards: np.ndarray) -> np.ndarray:
    """Colex index of each row's card set. cards: (N, k) int, k <= 4."""
    c = np.sort(cards.astype(np.int64), axis=1)
    out = np.zeros(len(c), dtype=np.int64)
    for i in range(c.shape[1]):
        out += _BINOM[c[:, i], i + 1]
    return out


def _hole_in_class(hole: np.ndarray, perm: np.ndarray) -> np.ndarray:
    """Hole index (0..1325) after relabelling suits by perm. hole: (N, 2) int; perm: (N,)."""
    base = perm.astype(np.int32)[:, None] * 4
    h = ((hole >> 2) << 2) | _NEW_SUIT[base + (hole & 3)]
    hi = np.maximum(h[:, 0], h[:, 1]).astype(np.int64)
    lo = np.minimum(h[:, 0], h[:, 1]).astype(np.int64)
    return hi * (hi - 1) // 2 + lo


def _bit(packed: np.ndarray, idx: np.ndarray) -> np.ndarray:
    return ((packed[idx >> 3] >> (7 - (idx & 7)).astype(np.uint8)) & 1).astype(bool)


@dataclass(frozen=True)
class TableStrategy:
    """A strategy read from packed decision tables (see the module docstring).

    decide(cards: (N, 9) int) -> {"call"} for Casino Hold'em, {"flop", "turn", "river"} for
    Texas Hold'em Bonus; (N,) numpy bool arrays.
    """

    name: str
    game: str
    tables: dict = field(repr=False)
    description: str = ""

    def decide(self, cards) -> dict[str, np.ndarray]:
        c = np.asarray(cards).astype(np.int32, copy=False)
        hole = c[:, 0:2]
        b3 = board_classes(3)
        fid = _colex(c[:, 4:7])
        fcls = b3.raw_class[fid].astype(np.int64)
        fh = _hole_in_class(hole, b3.raw_perm[fid])
        if self.game == "casino_holdem":
            return {"call": _bit(self.tables["call"], fcls * 1326 + fh)}
        from gpusim.cards import hand_class_index

        b4 = board_classes(4)
        flop = self.tables["preflop"][hand_class_index(hole[:, 0], hole[:, 1])]
        tid = _colex(c[:, 4:8])
        tcls = b4.raw_class[tid].astype(np.int64)
        th = _hole_in_class(hole, b4.raw_perm[tid])
        turn = flop & _bit(self.tables["turn"], fcls * 1326 + fh)
        river = flop & _bit(self.tables["river"], tcls * 1326 + th)
        return {"flop": flop, "turn": turn, "river": river}


def table_strategy(name: str, rules) -> TableStrategy:
    """Load (or solve) the tables of a table strategy for ``rules``."""
    from gpusim.exact.tables import decision_tables

    t = decision_tables(rules)
    if rules.game == "casino_holdem":
        tables = {"call": np.packbits(t[f"call/{name}"].ravel())}
    else:
        tables = {
            "preflop": t[f"preflop/{name}"].astype(bool),
            "turn": np.packbits(t[f"turn/{name}"].ravel()),
            "river": np.packbits(t[f"river/{name}"].ravel()),
        }
    return TableStrategy(name=name, game=rules.game, tables=tables)


_DESCRIPTIONS = {
    ("casino_holdem", "optimal"): "exact: call iff it beats folding, counting the AA Bonus "
    "win a fold forfeits",
    ("casino_holdem", "optimal-main"): "exact: call iff it beats folding in the main game alone",
    ("holdem_bonus", "optimal"): "exact: Turn/River bet iff P(win) > P(lose); flop bet iff "
    "its EV beats folding",
    ("holdem_bonus", "win-over-half"): "seed 000: Turn/River bet iff exact P(win) > 50 %; flop "
    "bet iff the EV under that rule beats folding",
}

for (_game, _name), _desc in _DESCRIPTIONS.items():
    register_strategy(
        _game, _name, lambda rules, _n=_name: table_strategy(_n, rules), _desc
    )
