"""Showdown counts of every suit class of 5-card boards: the one table both games sum.

A game's counts are sums over complete 5-card boards (Casino Hold'em: a flop's 1,176
turn-river pairs; Texas Hold'em Bonus: a 4-card board's 48 rivers), and a board's showdown
counts depend on its cards only up to a relabelling of the suits. So the 134,459 suit
classes of 5-card boards are counted once each (:func:`gpusim.exact.boards.board_counts`,
1,081 holes per board: 145 million hands, against the 2.2 billion of Casino Hold'em's
flop-by-flop enumeration and 0.85 billion of Texas Hold'em Bonus' river level), and every
raw board reads its class's row through its suit permutation.

The table is one uint32 *cell* per (class, hole), the hole indexed 0..1325 in the class
representative's suits (zero where the hole meets the board), packing three 10-bit counts
(at most 990 dealer hands each) so that a game's second stage gathers one word per board
and hole:

- ``ch`` (Casino Hold'em): ``nq | qw << 10 | tie << 20``: dealer hands that do not qualify,
  that qualify and lose, that qualify and tie (the loss count is the rest of 990); plus the
  player's pay class in a uint8 table ``pay``.
- ``thb`` (Texas Hold'em Bonus): ``below | equal << 10 | ante << 20``: dealer hands the
  player beats, ties with, and whether the player's hand pays the Ante (pay class at least
  ``ante_from``).

The tables live in memory-mapped files (:class:`gpusim.exact._parallel.SharedArrays`):
worker processes fill their rows in place and the second stage's workers read them, so
nothing of this size crosses a pipe.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from contextlib import contextmanager
from functools import lru_cache

import numpy as np

from gpusim.cards import hand_class_index
from gpusim.exact._parallel import SharedArrays, attach, run_chunks
from gpusim.exact.boards import PAIR_I, PAIR_J, board_counts
from gpusim.index import board_classes, hole_index, permute_cards, set_index, subsets

__all__ = [
    "HOLE_CLASS",
    "N_HOLES",
    "class_rows",
    "five_card_table",
    "hole_permutation_table",
    "pay_class",
]

N_HOLES = 1326
_HOLES = subsets(2).astype(np.int32)
HOLE_CLASS = hand_class_index(_HOLES[:, 0], _HOLES[:, 1]).astype(np.int64)
"""(1326,) starting-hand class (0..168, ``HAND_CLASSES`` order) of every hole."""

_ROYAL = np.uint32((8 << 27) | ((1 << 12) << 13))
_BATCH = 128  # boards per board_counts call: its arrays stay in the CPU caches
_CHUNK = 1024  # classes per worker task


def pay_class(rank) -> np.ndarray:
    """Pay class 0..9 of uint32 ranks: the category, with a royal flush as class 9."""
    r = np.asarray(rank, dtype=np.uint32)
    return np.where(r == _ROYAL, 9, (r >> np.uint32(27)).astype(np.int32)).astype(np.int32)


@lru_cache(maxsize=1)
def hole_permutation_table() -> np.ndarray:
    """(24, 1326) int64: hole index after each suit permutation."""
    out = np.empty((24, N_HOLES), dtype=np.int64)
    for p in range(24):
        q = permute_cards(_HOLES, np.full(N_HOLES, p))
        out[p] = hole_index(q[:, 0], q[:, 1])
    return out


def class_rows(spec: tuple, boards: np.ndarray) -> np.ndarray:
    """Flat cell index of every (board, hole): boards (m, 5) raw cards -> (m, 1326) int64,
    the hole in the boards' own suits; gather ``cells.reshape(-1)[index]``."""
    arrays = attach(spec)
    idx = set_index(boards)
    cls = arrays["raw_class"][idx].astype(np.int64)
    perm = arrays["raw_perm"][idx].astype(np.int64)
    return cls[:, None] * N_HOLES + hole_permutation_table()[perm]


def _fill(spec: tuple, ids: np.ndarray, reps: np.ndarray, kind: str, param: int,
          mult: np.ndarray) -> dict:
    """Count the classes ``ids`` (representatives ``reps``) and write their rows; Texas
    Hold'em Bonus also returns the per-starting-hand sums weighted by ``mult`` (raw boards
    each class stands for)."""
    arrays = attach(spec)
    stats = {"cw": np.zeros(1690, np.int64), "ch": np.zeros(1690, np.int64),
             "ct": np.zeros(169, np.int64), "cl": np.zeros(169, np.int64)}
    for at in range(0, len(ids), _BATCH):
        part = ids[at : at + _BATCH]
        nb = len(part)
        bc = board_counts(reps[at : at + _BATCH], param if kind == "ch" else None)
        h = hole_index(bc.rem[:, PAIR_I], bc.rem[:, PAIR_J])  # (nb, 1081) in the rep's suits
        pc = pay_class(bc.rank)
        below, equal = bc.below, bc.equal
        if kind == "ch":
            nq = bc.not_qualified
            qw = np.maximum(below - nq, 0)
            tie = np.where(bc.rank >= np.uint32(param), equal, 0)
            cell = nq | (qw << 10) | (tie << 20)
            pay = np.zeros((nb, N_HOLES), dtype=np.uint8)
            np.put_along_axis(pay, h, pc.astype(np.uint8), axis=1)
            arrays["pay"][part] = pay
        else:
            cell = below | (equal << 10) | ((pc >= param).astype(np.int32) << 20)
            wt = mult[at : at + _BATCH].astype(np.float64)[:, None]
            hc = HOLE_CLASS[h]
            key = (hc * 10 + pc).ravel()
            # float64 weights are exact here: every partial sum stays far below 2**53
            for name, idx, val, n in (
                ("cw", key, below * wt, 1690),
                ("ch", key, np.broadcast_to(wt, h.shape), 1690),
                ("ct", hc.ravel(), equal * wt, 169),
                ("cl", hc.ravel(), (990 - below - equal) * wt, 169),
            ):
                stats[name] += np.rint(np.bincount(idx, weights=val.ravel(), minlength=n)
                                       ).astype(np.int64)
        row = np.zeros((nb, N_HOLES), dtype=np.uint32)
        np.put_along_axis(row, h, cell.astype(np.uint32), axis=1)
        arrays["cells"][part] = row
    return stats


@contextmanager
def five_card_table(
    kind: str,
    param: int,
    needed: np.ndarray,
    *,
    pool: Executor | None,
    workers: int,
    extra: dict | None = None,
    progress: Callable[[int], None] | None = None,
) -> Iterator[tuple[tuple, dict]]:
    """Fill the cell table of the 5-card classes whose ``needed`` weight is non-zero.

    kind: ``ch`` (param = the dealer qualifier's rank) or ``thb`` (param = ``ante_from``);
    needed: (134459,) int64 raw boards each class stands for in the caller's sums (the
    Texas Hold'em Bonus per-class sums are weighted by it). ``extra``: more shared arrays
    for the caller's second stage (name -> (shape, dtype)). progress(classes done).
    Yields (spec for :func:`gpusim.exact._parallel.attach` and :func:`class_rows`,
    summed per-starting-hand counts); the files are removed on exit.
    """
    b5 = board_classes(5)
    layout = {
        "cells": ((b5.n_classes, N_HOLES), np.uint32),
        "raw_class": (b5.raw_class.shape, np.int32),
        "raw_perm": (b5.raw_perm.shape, np.int8),
    }
    if kind == "ch":
        layout["pay"] = ((b5.n_classes, N_HOLES), np.uint8)
    layout.update(extra or {})
    with SharedArrays(**layout) as shared:
        shared.arrays["raw_class"][:] = b5.raw_class
        shared.arrays["raw_perm"][:] = b5.raw_perm
        ids = np.flatnonzero(needed)
        chunks = [ids[i : i + _CHUNK] for i in range(0, len(ids), _CHUNK)]
        stats = {"cw": np.zeros(1690, np.int64), "ch": np.zeros(1690, np.int64),
                 "ct": np.zeros(169, np.int64), "cl": np.zeros(169, np.int64)}
        done = 0
        args = [(shared.spec, c, b5.reps[c], kind, int(param), needed[c]) for c in chunks]
        for chunk, part in run_chunks(_fill, args, chunks, workers, pool=pool):
            for name in stats:
                stats[name] += part[name]
            done += len(chunk)
            if progress is not None:
                progress(done)
        yield shared.spec, stats
