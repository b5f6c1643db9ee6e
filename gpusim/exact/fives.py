"""Showdown counts of every suit class of 5-card boards: the one table every hold'em solver sums.

A game's counts are sums over complete 5-card boards (Casino Hold'em: a flop's 1,176
turn-river pairs; Texas Hold'em Bonus: a 4-card board's 48 rivers), and a board's showdown
counts depend on its cards only up to a relabelling of the suits. So the 134,459 suit
classes of 5-card boards are counted once each (:func:`gpusim.exact.boards.board_counts`,
1,081 holes per board: 145 million hands, against the 2.2 billion of Casino Hold'em's
flop-by-flop enumeration and 0.85 billion of Texas Hold'em Bonus' river level), and every
raw board reads its class's row through its suit permutation.

Each (class, hole) gets one row entry, the hole indexed 0..1325 in the class representative's
suits (zero where the hole meets the board), with counts (at most 990 dealer hands each)
packed in 21-bit fields (:data:`FIELD`), so that a game's second stage adds whole words and
unpacks the sums once:

- ``ch`` (Casino Hold'em): ``w = nq + qw * 2**21`` as int32 (summed by (hole, pay class) with
  :func:`binned_sums`): dealer hands that do not qualify / qualify and lose; ``pc`` the
  player's pay class (uint8); ``tie`` (int16) dealer hands that qualify and tie. The loss count
  is the rest of 990.
- ``thb`` (Texas Hold'em Bonus): ``cells = below | equal << 21 | ante << 42`` (int64): dealer
  hands the player beats, ties with, and those beaten with a hand that pays the Ante (pay
  class at least ``ante_from``).

The tables live in memory-mapped files (:class:`gpusim.exact._parallel.SharedArrays`):
worker processes fill their rows in place and the second stage's workers read them, so
nothing of this size crosses a pipe.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Executor
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from gpusim.board_index import board_classes, hole_index, permute_cards, set_index, subsets
from gpusim.cards import hand_class_index
from gpusim.exact import _native
from gpusim.exact._parallel import SharedArrays, attach, detach, run_chunks, worker_pool
from gpusim.exact._profile import stage
from gpusim.exact.boards import sorted_counts

__all__ = [
    "HOLE_CLASS",
    "CellKind",
    "binned_sums",
    "N_HOLES",
    "FIELD",
    "five_card_table",
    "flop_boards",
    "orbit_boards",
    "hole_bins",
    "hole_permutation_table",
    "lookup",
    "pay_class",
    "segment_sums",
    "stabilizer",
    "summed_rows",
    "symmetrize",
    "two_stages",
]

N_HOLES = 1326
_HOLES = subsets(2).astype(np.int32)
HOLE_CLASS = hand_class_index(_HOLES[:, 0], _HOLES[:, 1]).astype(np.int64)
"""(1326,) starting-hand class (0..168, ``HAND_CLASSES`` order) of every hole."""

FIELD = 21
"""Bits per packed count: a sum of counts <= 990 over at most 1,176 boards stays below
2**21, so packed cells add up without carrying from one field into the next."""
_ROYAL = np.uint32((8 << 27) | ((1 << 12) << 13))
_BATCH = 64  # boards per board_counts call: its arrays stay in the CPU caches (64 and 128
# measured alike)
_CHUNK = 1024  # classes per worker task


def warm_worker() -> None:
    """Nothing: submitted once to each new worker, whose unpickling of it imports this module
    (and JAX, where the compiled pass is not used) while the parent builds its index tables."""


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


@lru_cache(maxsize=1)
def hole_bins() -> np.ndarray:
    """(24, 1326) int32: for each suit permutation p, where each class-suit hole lands among
    the raw board's own holes (the inverse of :func:`hole_permutation_table` row p): the
    ``base`` of :func:`binned_sums` that sums boards in their own suits."""
    return np.argsort(hole_permutation_table(), axis=1).astype(np.int32)


def _pairs_of(n: int) -> tuple[np.ndarray, np.ndarray]:
    i, j = np.triu_indices(n, 1)
    return i, j


def flop_boards(flop: np.ndarray) -> np.ndarray:
    """(1176, 5) the flop with each turn-river pair of its 49 unseen cards."""
    ti, ri = _pairs_of(49)
    live = np.setdiff1d(np.arange(52), flop)
    return np.concatenate(
        [np.broadcast_to(flop, (len(ti), 3)), live[ti, None], live[ri, None]], axis=1
    )


def orbit_boards(flop: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The flop's 1,176 boards up to the suit permutations that fix the flop.

    Returns (boards (m, 5), orbit sizes (m,) int64, stabilizer (s,) permutation ids): one
    board per orbit of its turn-river pair. A sum over all 1,176 boards of a function of
    (board, hole) is then (1 / s) x the sum over the stabilizer's permutations of the
    orbit-size-weighted sum over these boards, read at the permuted hole.
    """
    boards = flop_boards(flop)
    stab = stabilizer(flop)
    if len(stab) == 1:
        return boards, np.ones(len(boards), dtype=np.int64), stab
    tr = boards[:, 3:]
    images = set_index(permute_cards(np.broadcast_to(tr, (len(stab),) + tr.shape),
                                     np.broadcast_to(stab[:, None], (len(stab), len(tr)))))
    key = images.min(axis=0)
    rep = key == set_index(tr)
    size = np.bincount(key, minlength=int(key.max()) + 1)
    return boards[rep], size[key[rep]].astype(np.int64), stab


def stabilizer(board: np.ndarray) -> np.ndarray:
    """Suit permutation ids (into :data:`gpusim.board_index.PERMUTATIONS`) that map the board
    (k cards) onto itself: the identity, and the swaps of suits the board holds alike."""
    images = permute_cards(np.broadcast_to(board, (24, len(board))), np.arange(24))
    return np.flatnonzero(set_index(images) == set_index(board))


def symmetrize(a: np.ndarray, hole_perms: np.ndarray, axis: int = 0) -> np.ndarray:
    """(1 / s) x the sum of ``a`` read through each of the s hole permutations (holes on
    ``axis``): an orbit-weighted sum over a symmetric board's boards spread back over its
    symmetric holes. Exact: the orbit weights make every sum a multiple of s."""
    total = np.take(a, hole_perms, axis=axis).sum(axis=axis)
    if (total % len(hole_perms)).any():
        raise AssertionError("orbit sums must divide evenly by the stabilizer's size")
    return total // len(hole_perms)


def lookup(spec: tuple, boards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(class, suit permutation) of raw 5-card boards (m, 5): int64 (m,) each."""
    arrays = attach(spec)
    idx = set_index(boards)
    return arrays["raw_class"][idx].astype(np.int64), arrays["raw_perm"][idx].astype(np.int64)


def summed_rows(spec: tuple, group: np.ndarray, boards: np.ndarray) -> np.ndarray:
    """Per group, the sum of its boards' cells, each read through its suit permutation.

    group: (m,) int ascending group id 0..G-1 of each board; boards: (m, 5) raw cards.
    Returns (G, 1326) int64, the hole in the boards' own suits (field sums as packed).
    With the compiled pass, one :func:`binned_sums` (each group its own 1,326 bins). In numpy,
    boards of a group that share a permutation are summed in the class's suits first (a row
    copy and an add per board), so only one row per (group, permutation) is permuted.
    """
    cls, perm = lookup(spec, boards)
    if _native.loaded_library() is not None:
        cells = attach(spec)["cells"]
        base = hole_bins()
        n_groups = int(group[-1]) + 1 if len(group) else 0
        return binned_sums([cells], None, cls, perm, np.ones(len(cls), np.int64), base,
                           n_groups * N_HOLES, offset=np.asarray(group) * N_HOLES,
                           native=True)[0].reshape(n_groups, N_HOLES)
    order = np.lexsort((perm, group))
    g, p = group[order], perm[order]
    rows = attach(spec)["cells"][cls[order]]
    new = np.ones(len(order), dtype=bool)
    new[1:] = (g[1:] != g[:-1]) | (p[1:] != p[:-1])
    starts = np.flatnonzero(new)
    part = segment_sums(rows, starts)
    part = np.take_along_axis(part, hole_permutation_table()[p[starts]], axis=1)
    gs = g[starts]
    first = np.ones(len(gs), dtype=bool)
    first[1:] = gs[1:] != gs[:-1]
    return segment_sums(part, np.flatnonzero(first))


def binned_sums(tables: list[np.ndarray], code: np.ndarray | None, cls: np.ndarray,
                perm: np.ndarray, weight: np.ndarray, base: np.ndarray, n_bins: int, *,
                code_stride: int = 1, offset: np.ndarray | None = None,
                native: bool | None = None) -> np.ndarray:
    """Weighted sums of table cells over m boards, by bin: a flop's boards summed in the flop's
    suits in one pass (the second stage of every game).

    tables: one or two (T, 1326) cell tables (int16, int32, int64, or float64 holding integers);
    board i reads row ``cls[i]`` and adds ``weight[i]`` x its cell h to bin ``offset[i] +
    base[perm[i], h] + code[cls[i], h] * code_stride`` (``code``: (T, 1326) uint8, or None for
    0; ``offset`` (m,), or None for 0); ``base``: (24, 1326), each suit permutation's bin base
    of every class-suit hole. Returns (len(tables), n_bins) int64. Code-major bins
    (``code_stride`` = 1326, ``base`` the hole in the group's suits) are the fast layout.

    native: None runs the compiled loop where it is available (:mod:`gpusim.exact._native`),
    False ``np.bincount``s in float64, which are exact while every bin's sum stays below 2**53
    (int64 tables are summed as two 32-bit halves, each within that).
    """
    if native is None:
        native = _native.loaded_library() is not None
    if native:
        return _native.binned_sums_native(tables, code, cls, perm, weight, base, n_bins, offset,
                                          code_stride)
    key = base[perm] if code is None else base[perm] + code[cls].astype(np.intp) * code_stride
    if offset is not None:
        key = key + np.asarray(offset)[:, None]
    k = key.ravel().astype(np.intp, copy=False)
    w = np.asarray(weight, dtype=np.float64)[:, None]
    out = np.empty((len(tables), n_bins), dtype=np.int64)

    def bins(x: np.ndarray) -> np.ndarray:
        return np.rint(np.bincount(k, weights=(x * w).ravel(), minlength=n_bins)).astype(np.int64)

    for t, row in zip(tables, out, strict=True):
        x = t[cls]
        if t.dtype == np.int64:  # packed fields beyond 2**53: summed as two 32-bit halves
            row[:] = bins(x & 0xFFFFFFFF) + (bins(x >> 32) << 32)
        else:
            row[:] = bins(x)
    return out


def segment_sums(rows: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Sums of consecutive row ranges beginning at ``starts`` (a row-block add each:
    several times faster than ``np.add.reduceat`` along axis 0)."""
    ends = np.append(starts[1:], len(rows))
    out = np.empty((len(starts),) + rows.shape[1:], dtype=rows.dtype)
    for i, (a, b) in enumerate(zip(starts, ends, strict=True)):
        np.sum(rows[a:b], axis=0, out=out[i])
    return out


@dataclass(frozen=True)
class CellKind:
    """A game's own packing of the 5-card table's cells (the built-in ``"ch"`` and ``"thb"``
    are the call-once and street-bets hold'em shapes', Casino Hold'em's and Texas Hold'em
    Bonus's; any other game passes one of these).

    ``layout``: {table name: dtype}, each table (134459, 1326); ``qualified``: whether
    :func:`gpusim.exact.boards.sorted_counts` counts the dealer hands below a qualifier, the
    rank given as ``param[0]``; ``cells(sc, pay_class, param) -> {table name: (nb, P) array}``
    in the hands' sorted order (``sc``: a :class:`~gpusim.exact.boards.SortedCounts` of nb
    boards). ``cells`` must be a module-level function and ``param`` picklable: both travel to
    the worker processes. ``write(arrays, ids, sc, param) -> bool``, where given, may write a
    batch's rows itself (a compiled form): True when it did, False to have ``cells`` run.
    """

    layout: Mapping[str, Any]
    cells: Callable[..., dict]
    qualified: bool = True
    write: Callable[..., bool] | None = None


def _qualifier_of(kind, param):
    if isinstance(kind, CellKind):
        return int(param[0]) if kind.qualified else None
    return param if kind == "ch" else None


def _fill(spec: tuple, ids: np.ndarray, reps: np.ndarray, kind, param,
          mult: np.ndarray) -> dict:
    """Count the classes ``ids`` (representatives ``reps``) and write their rows; Texas
    Hold'em Bonus also returns the per-starting-hand sums weighted by ``mult`` (raw boards
    each class stands for)."""
    arrays = attach(spec)
    stats = _zero_stats()
    for at in range(0, len(ids), _BATCH):
        part = slice(at, at + _BATCH)
        sc = sorted_counts(reps[part], _qualifier_of(kind, param))
        with stage("5-card table: pack, write rows"):
            _write_rows(arrays, ids[part], sc, kind, param, mult[part], stats)
    return stats


def _write_rows(arrays: dict, ids: np.ndarray, sc, kind, param, mult: np.ndarray,
                stats: dict) -> None:
    """Pack one batch's cells into the shared tables (rows ``ids``); add its weighted
    per-starting-hand sums (Texas Hold'em Bonus) to ``stats``."""
    h = sc.hole
    if kind == "thb" and _native.loaded_library() is not None:
        acc = _native.thb_cells_native(arrays["cells"], ids, sc.rank, h, sc.below, sc.equal,
                                       int(_ROYAL), param, HOLE_CLASS, mult)
        _add_class_sums(stats, *acc)
        return
    if isinstance(kind, CellKind) and kind.write is not None and kind.write(arrays, ids, sc,
                                                                              param):
        return
    pc = pay_class(sc.rank)
    below, equal = sc.below.astype(np.int64), sc.equal.astype(np.int64)
    if isinstance(kind, CellKind):
        tables = kind.cells(sc, pc, param)
    elif kind == "ch":
        nq = sc.not_qualified.astype(np.int64)
        qw = np.maximum(below - nq, 0)
        tie = np.where(sc.rank >= np.uint32(param), equal, 0)
        # (nq, qw) in one int32 (qw <= 990 < 2**10) to be binned by (hole, pay class); the
        # bins' float64 sums stay exact and keep the fields apart (each sum < 2**21)
        tables = {"w": (nq | (qw << FIELD)).astype(np.int32), "pc": pc.astype(np.uint8),
                  "tie": tie.astype(np.int16)}
    else:
        ante = np.where(pc >= param, below, 0)
        tables = {"cells": below | (equal << FIELD) | (ante << 2 * FIELD)}
        # Per (hole class, pay class): wins, ties and holes, each weighted by the raw boards
        # its class stands for, summed over the whole batch (float64 weights: exact, a batch's
        # sums stay below 2**53)
        key = (HOLE_CLASS[h] * 10 + pc).ravel()
        w = mult.astype(np.float64)[:, None]
        _add_class_sums(stats, *(
            np.rint(np.bincount(key, weights=x.ravel(), minlength=1690)).astype(np.int64)
            for x in (below * w, equal * w, np.broadcast_to(w, below.shape))))
    # written straight into the shared rows: a fresh table is zero where a hole meets the board
    to_cell = (h + (np.asarray(ids, dtype=np.intp) * N_HOLES)[:, None]).ravel()
    for name, val in tables.items():
        arrays[name].reshape(-1)[to_cell] = val.ravel()


def _add_class_sums(stats: dict, cw: np.ndarray, ct: np.ndarray, ch: np.ndarray) -> None:
    """Add a batch's (1690,) wins, ties and holes by (hole class, pay class) to ``stats``."""
    stats["cw"] += cw
    stats["ch"] += ch
    stats["ct"] += ct.reshape(169, 10).sum(axis=1)
    stats["cl"] += (990 * ch - cw - ct).reshape(169, 10).sum(axis=1)


def _zero_stats() -> dict:
    return {"cw": np.zeros(1690, np.int64), "ch": np.zeros(1690, np.int64),
            "ct": np.zeros(169, np.int64), "cl": np.zeros(169, np.int64)}


_ANNOUNCED: list[str] = []


def _announce_form() -> None:
    """One line on stderr per process when a solve runs without the compiled passes it would
    otherwise use (no compiler, a failed build): the counts are the same, the solve slower."""
    if _native.loaded_library() is None and not _ANNOUNCED and "=0" not in _native.status():
        _ANNOUNCED.append(_native.status())
        print(f"gpusim exact: counting with {_native.status()}; the counts are the same, "
              "the solve takes up to twice as long", file=sys.stderr)


@contextmanager
def five_card_table(
    kind,
    param,
    needed: np.ndarray,
    *,
    pool: Executor | None,
    workers: int,
    extra: dict | None = None,
    progress: Callable[[int], None] | None = None,
) -> Iterator[tuple[tuple, dict]]:
    """Fill the cell table of the 5-card classes whose ``needed`` weight is non-zero.

    kind: ``ch`` (param = the dealer qualifier's rank), ``thb`` (param = ``ante_from``) or a
    game's :class:`CellKind` (param: its picklable tuple);
    needed: (134459,) int64 raw boards each class stands for in the caller's sums (the
    Texas Hold'em Bonus per-class sums are weighted by it). ``extra``: more shared arrays
    for the caller's second stage (name -> (shape, dtype)). progress(classes done).
    Yields (spec for :func:`gpusim.exact._parallel.attach` and :func:`class_rows`,
    summed per-starting-hand counts); the files are removed on exit.
    """
    _announce_form()  # also builds the compiled pass here, once, before the workers load it
    b5 = board_classes(5)
    rows = (b5.n_classes, N_HOLES)
    layout = {"raw_class": (b5.raw_class.shape, np.int32), "raw_perm": (b5.raw_perm.shape, np.int8)}
    if isinstance(kind, CellKind):
        layout.update({name: (rows, dt) for name, dt in kind.layout.items()})
    elif kind == "ch":
        layout.update(w=(rows, np.int32), pc=(rows, np.uint8), tie=(rows, np.int16))
    else:
        layout["cells"] = (rows, np.int64)
    layout.update(extra or {})
    with SharedArrays(**layout) as shared:
        shared.arrays["raw_class"][:] = b5.raw_class
        shared.arrays["raw_perm"][:] = b5.raw_perm
        ids = np.flatnonzero(needed)
        chunks = [ids[i : i + _CHUNK] for i in range(0, len(ids), _CHUNK)]
        stats = _zero_stats()
        done = 0
        par = param if isinstance(kind, CellKind) else int(param)
        args = [(shared.spec, c, b5.reps[c], kind, par, needed[c]) for c in chunks]
        for chunk, part in run_chunks(_fill, args, chunks, workers, pool=pool):
            for name in stats:
                stats[name] += part[name]
            done += len(chunk)
            if progress is not None:
                progress(done)
        yield shared.spec, stats


def two_stages(
    kind,
    param,
    needed_of: Callable[[object], np.ndarray],
    second: Callable[[tuple, np.ndarray, np.ndarray], int],
    chunks: list[np.ndarray],
    reps: np.ndarray,
    extra: dict,
    *,
    workers: int,
    progress: Callable[[int, int], None] | None = None,
    keep: tuple[str, ...] = (),
) -> tuple[dict[str, np.ndarray], dict]:
    """A game's solve: the 5-card table (:func:`five_card_table`), then ``second(spec, ids,
    reps[ids])`` on every chunk of the game's own classes, writing into the ``extra`` shared
    arrays; one worker pool for both stages, started before the 5-card index is built.

    needed_of(5-card BoardClasses) -> the ``needed`` weights. progress(done, total) as the
    second stage's classes finish. Returns (copies of the ``extra`` arrays and of the 5-card
    tables named in ``keep``, the table's per-starting-hand sums).
    """
    total = sum(len(c) for c in chunks)
    with worker_pool(workers, warm_worker) as pool:
        with stage("suit classes of 5-card boards"):
            b5 = board_classes(5)
        needed = needed_of(b5)
        with five_card_table(kind, param, needed, pool=pool, workers=workers,
                             extra=extra) as (spec, stats):
            done = 0
            args = [(spec, c, reps[c]) for c in chunks]
            for _, m in run_chunks(second, args, chunks, workers, pool=pool):
                done += m
                if progress is not None:
                    progress(done, total)
            out = {name: np.array(a) for name, a in attach(spec, keep).items()}
            # the 5-card tables leave this process's memory before the results are copied
            detach(spec, keep=tuple(extra))
            out.update({name: np.array(a) for name, a in attach(spec, tuple(extra)).items()})
            return out, stats
