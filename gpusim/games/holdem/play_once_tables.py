"""The play-once hold'em shape's table strategy (``optimal``): the exact solver's decision
tables (:mod:`gpusim.games.holdem.play_once`) read at each point
(:mod:`gpusim.strategy.table_strategy`).

- pre-flop: the action (Ultimate Texas Hold'em: 0 check, 1 Play 3x, 2 Play 4x) of the hole
  cards' starting-hand class
  (169, ``HAND_CLASSES`` order), read through a 52 x 52 table of card pairs;
- flop: Play (2x), one bit per (flop suit class, hole in the class's suits), 1,755 x 1,326;
- river: Play (1x), one bit per (5-card board suit class, hole in the class's suits),
  134,459 x 1,326 bits (22 MB): the exact river decision of every situation, no rule of thumb.

Read as stored, the river bits cost three cache misses a round (the raw board's class, its suit
permutation, the bit), which made the river a tenth of the simulation's rate. So the simulator
reads them in an equivalent compact form (:func:`river_rule`): on 119,426 of the 134,459 board
classes the player plays exactly when his seven-card rank reaches a threshold of the class (the
lowest rank that plays there); only the other 15,033, where card removal breaks that order, keep
their row of bits (2.5 MB). A round then reads one word per raw board (:func:`river_words`:
the threshold, or the kept row and the suit permutation) and, for a kept row, one bit. The
form is derived from the bits and checked against every one of them when it is built, so it
decides exactly as the table does.

The solver's tables (``{"<point>/optimal": bool array}``) are ``preflop`` (169, 3) one-hot,
``flop`` (1755, 1326) and ``river`` (134459, 1326).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import jax.numpy as jnp
import numpy as np

from gpusim.board_index import PERMUTATIONS, board_classes
from gpusim.cards import hand_class_index
from gpusim.evaluator import evaluate, evaluate_board_pairs
from gpusim.exact.boards import PAIR_I, PAIR_J, remaining_cards
from gpusim.exact.cache import FORMAT, atomic_savez, cache_dir
from gpusim.strategy.table_strategy import TableStrategy

__all__ = ["PlayOnceTables", "board_words", "pair_classes", "river_rule", "river_words"]

_NEVER = np.int64((1 << 31) - 1)  # above every rank: the class never plays


def pair_classes() -> np.ndarray:
    """(52 * 52,) int32 starting-hand class of the cards (c1, c2) at ``c1 * 52 + c2`` (0 where
    c1 == c2: never read)."""
    c1, c2 = np.divmod(np.arange(52 * 52), 52)
    ok = c1 != c2
    out = np.zeros(52 * 52, dtype=np.int32)
    out[ok] = hand_class_index(c1[ok], c2[ok])
    return out


def _get(table, index):
    """``table[index]``, every index in range by construction: without JAX's bounds check,
    whose per-round branch the varying indices mispredict."""
    return table.at[index].get(mode="promise_in_bounds")


def _preflop(seen, t):
    return _get(t["preflop"], _get(t["pair_class"], seen[:, 0] * 52 + seen[:, 1]))


# Gathers are what these lookups cost on the CPU, so everything that can be arithmetic is: the
# colex index from binomials in closed form, and the suit relabelling from a permutation code
# (two bits per old suit) stored beside the class in the raw board's word.


def _colex(cards):
    """Colex index of each row's card set (k <= 5 columns), without a table."""
    cols = [cards[:, i] for i in range(cards.shape[1])]
    net = {3: [(0, 1), (1, 2), (0, 1)],
           5: [(0, 1), (3, 4), (2, 4), (2, 3), (0, 3), (0, 2), (1, 4), (1, 3), (1, 2)]}
    for i, j in net[len(cols)]:
        cols[i], cols[j] = jnp.minimum(cols[i], cols[j]), jnp.maximum(cols[i], cols[j])
    out = 0
    for k, c in enumerate(cols, start=1):
        # C(c, k) = c (c - 1) ... (c - k + 1) / k!, exact in int32 for c < 52, k <= 5
        falling = c
        for j in range(1, k):
            falling = falling * (c - j)
        out = out + falling // _FACTORIAL[k]
    return out


_FACTORIAL = (1, 1, 2, 6, 24, 120)


def _hole_index(hole, code):
    """Hole index (0..1325) after relabelling the suits by a permutation code."""
    h = ((hole >> 2) << 2) | ((code[:, None] >> ((hole & 3) * 2)) & 3)
    hi, lo = jnp.maximum(h[:, 0], h[:, 1]), jnp.minimum(h[:, 0], h[:, 1])
    return hi * (hi - 1) // 2 + lo


def _bit(packed, idx):
    return (_get(packed, idx >> 3) >> (7 - (idx & 7)).astype(jnp.uint8)) & 1


def _flop(seen, t):
    word = _get(t["raw3"], _colex(seen[:, 2:]))
    return _bit(t["flop"], (word >> 8) * 1326 + _hole_index(seen[:, 0:2], word & 255)
                ).astype(jnp.int8)


def _river(seen, t):
    # seen: hole cards then the board, the player's seven cards in the settlement's order (so
    # XLA ranks the hand once for both). One word per raw board: the class's rank threshold,
    # or, for a class that keeps its bits, -(row << 8 | permutation code) - 1.
    word = _get(t["river_word"], _colex(seen[:, 2:]))
    rank = evaluate(seen).astype(jnp.int32)
    kept = -word - 1
    exc = _bit(t["river_exc"], jnp.maximum(kept >> 8, 0) * 1326
               + _hole_index(seen[:, 0:2], kept & 255))
    return jnp.where(word >= 0, rank >= word, exc > 0).astype(jnp.int8)


def river_words(info: np.ndarray) -> np.ndarray:
    """(C(52, 5),) int32 per raw 5-card board (by colex index): :func:`river_rule`'s threshold
    of its class, or -(exception row << 8 | the permutation code into the class's suits) - 1,
    so a round reads one word (one cache miss) for its river decision."""
    word = board_words(5)
    cls, code = word >> 8, word & 255
    i = info.astype(np.int64)[cls]
    return np.where(i >= 0, i, -(((-i - 1) << 8) | code) - 1).astype(np.int32)


def board_words(k: int) -> np.ndarray:
    """(C(52, k),) int32 per raw k-card board (by colex index): its suit class << 8 | the
    code of the permutation into the class's suits (new suit of old suit s at bits 2s)."""
    b = board_classes(k)
    codes = (PERMUTATIONS.astype(np.int32) << (2 * np.arange(4, dtype=np.int32))).sum(axis=1)
    return (b.raw_class.astype(np.int32) << 8) | codes[b.raw_perm.astype(np.int64)]


def river_rule(packed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The river table's compact exact form (module docstring), from its packed bits.

    Returns (info (134459,) int32: the class's rank threshold, or -(exception row + 1);
    exceptions: packed bits (n_exceptions x 1326), the rows of the classes that keep them).
    Cached in memory and, by the table's sha256, in the cache folder (building it ranks all
    145 million (class, hole) hands: about ten seconds)."""
    return _river_rule(hashlib.sha256(packed.tobytes()).hexdigest()[:16], packed.tobytes())


@lru_cache(maxsize=2)
def _river_rule(digest: str, raw: bytes) -> tuple[np.ndarray, np.ndarray]:
    path = cache_dir() / f"uth_river_rule_{digest}_v{FORMAT}.npz"
    if path.is_file():
        with np.load(path) as z:
            return z["info"], z["exceptions"]
    reps = board_classes(5).reps.astype(np.int32)
    n = len(reps)
    bits = np.unpackbits(np.frombuffer(raw, np.uint8), count=n * 1326).reshape(n, 1326)
    thr = np.empty(n, dtype=np.int64)
    exc = np.zeros(n, dtype=bool)
    for a in range(0, n, 4096):
        rem = remaining_cards(reps[a : a + 4096])
        lo, hi = rem[:, PAIR_I], rem[:, PAIR_J]
        rank = evaluate_board_pairs(reps[a : a + 4096], lo, hi).astype(np.int64)
        played = bits[a : a + 4096][np.arange(len(rem))[:, None], hi * (hi - 1) // 2 + lo] > 0
        thr[a : a + 4096] = np.where(played, rank, _NEVER).min(axis=1)
        # a class keeps its bits unless the threshold gives every one of its hands' bits
        exc[a : a + 4096] = ((rank >= thr[a : a + 4096, None]) != played).any(axis=1)
    rows = np.flatnonzero(exc)
    info = np.where(exc, -(np.cumsum(exc) - 1) - 1, thr).astype(np.int32)
    exceptions = np.packbits(bits[rows].astype(bool).ravel())
    atomic_savez(path, info=info, exceptions=exceptions)
    return info, exceptions


@dataclass(frozen=True)
class PlayOnceTables(TableStrategy):
    """The shape's table strategy: ``{preflop, flop, river}`` action indices from the packed
    tables (module docstring). ``tree``: the game's three decision points; a flop or river bit
    reads as the point's Play, else its check or fold (the actions of ``play_tree``)."""

    tree: tuple = ()
    play_tree: Any = None

    @classmethod
    def of(cls, name: str, rules, tree: tuple, play_tree) -> PlayOnceTables:
        """The table strategy ``name`` of a config of the shape."""
        from gpusim.strategy.table_strategy import _decision_tables

        return cls(name=name, game=rules.game, tables=cls.pack(name, _decision_tables(rules)),
                   tree=tree, play_tree=play_tree)

    @property
    def points(self) -> tuple:  # type: ignore[override]
        return self.tree

    @property
    def _point_fns(self) -> dict:  # type: ignore[override]
        pt = self.play_tree
        return {self.tree[0].name: _preflop,
                self.tree[1].name: lambda seen, t: _choose(_flop(seen, t), pt.flop[0],
                                                           pt.flop_check),
                self.tree[2].name: lambda seen, t: _choose(_river(seen, t), pt.river[0],
                                                           pt.river_fold)}

    @staticmethod
    def pack(name: str, tables: dict) -> dict:
        return {
            "preflop": np.argmax(tables[f"preflop/{name}"], axis=1).astype(np.uint8),
            "flop": np.packbits(tables[f"flop/{name}"].ravel()),
            "river": np.packbits(tables[f"river/{name}"].ravel()),
        }

    def _game_tables(self) -> dict:
        info, exceptions = river_rule(self.tables["river"])
        # class and suit permutation in one word: one cache miss a round, not two
        return {
            "raw3": jnp.asarray(board_words(3)),
            "river_word": jnp.asarray(river_words(info)),
            "river_exc": jnp.asarray(exceptions),
            "pair_class": jnp.asarray(pair_classes()),
            "preflop": jnp.asarray(self.tables["preflop"], jnp.int8),
            "flop": jnp.asarray(self.tables["flop"]),
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

    gather = True


def _choose(bit, play: int, other: int):
    """The action index of a Play bit: as is where the Play is action 1 and the other 0."""
    if (play, other) == (1, 0):
        return bit
    return jnp.where(bit > 0, play, other).astype(jnp.int8)
