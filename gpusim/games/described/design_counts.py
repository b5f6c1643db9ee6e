"""The outcome counts a described game's main-game paytable is priced from, counted once, and
the backward induction that prices a candidate (:mod:`gpusim.games.described.design`).

The exact solver's outcome counts (:mod:`.solver`: per row of the deepest decision point, every
deal after it counted) are grouped by the outcome groups of :class:`Nets` and the rows
merged into *types* (:class:`Rows`): rows of a level with the same outcome counts (the deepest
level) or the same children by type (a level above) take the same actions under every
strategy. Mississippi Stud's 414,050 rows are 236 types, Caribbean Stud's 6.3 million (player
cards x up card) 355,167. A candidate re-runs only the backward induction on the types
(:func:`induct`): the best action per type from the last point to the first (ties to the first
action, as the solver breaks them), then each type's deals counted down the actions taken;
:func:`price` sums the main game's net as the exact report does.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field

import numpy as np

from gpusim.games.described.layout import shape_of

__all__ = ["Nets", "Rows", "batch_size", "induct", "outcome_rows", "price"]


@dataclass(frozen=True)
class Nets:
    """Per (path, outcome group), affine in the pays ``a`` of ``table``'s ``lines``: the net the
    optimal strategy maximises, ``obj0 + a . obj`` (1/scale money units; the side bets that
    no decision moves left out), and the main game's net ``main0 + a . main`` (1/``unit`` of
    the base bet), with each path's main ``wager`` (base bets) and whether it ``stays`` (no
    fold). ``group``: each outcome's group; ``monotone``: the strategy maximises the main net
    and no pay lowers it (a box's corners bound its values)."""

    table: str
    lines: tuple[str, ...]
    group: np.ndarray
    obj0: np.ndarray
    obj: np.ndarray
    main0: np.ndarray
    main: np.ndarray
    unit: int
    wager: np.ndarray
    stays: np.ndarray
    monotone: bool


# --- the outcome counts, counted once and merged into types ----------------------------------


@dataclass
class Rows:
    """The solver's rows merged into *types*: two rows of a level (the cards a decision point
    sees) are one type when their outcome counts (the deepest level) or their children's
    types (a level above) are the same, so that every strategy treats them alike. ``DU``
    (T_deep, G) outcome counts per deepest type; ``M[i]`` (T_s, T_s+1) the children of each
    type of level ``s = top + i`` by type (sparse); ``W`` (T_top,) the raw hands of each type
    of the first decision's level ``top``; ``bound``: the most deals under one type."""

    DU: np.ndarray
    M: list
    W: np.ndarray
    top: int
    bound: float = field(init=False)
    deals: int = field(init=False)  # every deal, weighted
    size: int = field(init=False)  # types of every level
    as_float: tuple = field(init=False, repr=False)  # (DU, DU.T, M, W) in float64

    def __post_init__(self) -> None:
        du = self.DU.astype(np.float64)
        self.as_float = (du, np.ascontiguousarray(du.T), [m.astype(np.float64) for m in self.M],
                         self.W.astype(np.float64))
        deals = self.DU.sum(axis=1)
        for m in reversed(self.M):
            deals = m @ deals
        self.bound = float(deals.max(initial=0))
        self.deals = int((deals.astype(object) * self.W.astype(object)).sum())
        self.size = len(self.DU) + sum(m.shape[0] for m in self.M)

    @property
    def deep(self) -> int:
        return self.top + len(self.M)


def _chunk_rows(d, shape, deck, p_cards, group, n_groups) -> tuple[np.ndarray, list]:
    """One chunk of player classes: (D (rows, groups), each level's row per row), as the
    solver's ``_chunk`` counts them."""
    from gpusim.games.described.deals import deal_stages, outcome_counts

    st = deal_stages(shape, deck, p_cards)
    deep = shape.deepest - 1
    return (outcome_counts(d, shape, st, deck, group, n_groups),
            [st.ancestor(deep, s) for s in range(deep + 1)])


def _merge(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(unique rows of ``keys``, each row's index among them)."""
    uniq, inv = np.unique(keys, axis=0, return_inverse=True)
    return uniq, inv.reshape(-1)


def _types(D_parts, levels, w_top, top: int) -> Rows:
    """Merge the rows of every chunk into types, from the deepest level up. ``D_parts``:
    (unique outcome counts, each deepest row's index among them) per chunk; ``levels[s]``:
    each deepest row's row of level s (global, ascending); ``w_top``: the raw hands of each
    row of level ``top``."""
    from scipy import sparse

    DU, inv = _merge(np.concatenate([u for u, _ in D_parts]))
    offsets = np.cumsum([0] + [len(u) for u, _ in D_parts[:-1]])
    kind = np.concatenate([inv[o + t] for o, (_, t) in zip(offsets, D_parts, strict=True)])
    deep = top + len(levels)
    M: list = []
    for s in range(deep - 1, top - 1, -1):
        # each row of level s + 1 (its first deepest row), its type and its parent row
        first = np.flatnonzero(np.r_[True, np.diff(levels[s + 1 - top]) != 0]) if s + 1 < deep \
            else np.arange(len(kind))
        parent = levels[s - top][first]
        n_rows, n_kinds = int(parent[-1]) + 1, int(kind.max()) + 1
        count = sparse.csr_matrix((np.ones(len(first), np.int64), (parent, kind)),
                                  shape=(n_rows, n_kinds))
        if n_rows * n_kinds <= 50_000_000:  # merge the rows with the same children
            uniq, kind = _merge(count.toarray())
            count = sparse.csr_matrix(uniq)
        else:  # too many to compare whole: every row its own type
            kind = np.arange(n_rows)
        M.insert(0, count)
    W = np.bincount(kind, weights=w_top.astype(np.float64), minlength=int(kind.max()) + 1)
    return Rows(DU, M, np.rint(W).astype(np.int64), top)


def outcome_rows(rules, nets: Nets, *, progress: bool = False) -> Rows:
    """The outcome counts of ``rules``' game, grouped as ``nets`` groups outcomes and merged
    into types (:class:`Rows`), from the cache or counted now (a minute and a half for
    Caribbean Stud) and cached."""
    from scipy import sparse

    from gpusim.board_index import board_classes
    from gpusim.exact.cache import atomic_savez, cache_dir, progress_bar
    from gpusim.games.described.solver import _ROWS_PER_CHUNK

    d = rules.game_def
    key = hashlib.sha256(d.raw.encode() + nets.group.astype(np.int64).tobytes()).hexdigest()
    path = cache_dir() / f"described_types_{key[:16]}_v2.npz"
    if path.is_file():
        with np.load(path) as z:
            n = int(z["n_levels"])
            M = [sparse.csr_matrix((z[f"data{i}"], z[f"indices{i}"], z[f"indptr{i}"]),
                                   shape=tuple(z[f"shape{i}"])) for i in range(n)]
            return Rows(z["DU"], M, z["W"], int(z["top"]))
    shape = shape_of(d)
    b = board_classes(d.player)
    deck = np.arange(52, dtype=np.int64)
    per_p = math.prod(math.comb(52 - d.player - sum(m for _, m, _ in shape.stages[1:i]), mm)
                      for i, (_, mm, _) in enumerate(shape.stages[1: shape.deepest], 1))
    step = max(1, _ROWS_PER_CHUNK // per_p)
    n_groups = int(nets.group.max()) + 1
    top, deep = min(shape.seen) - 1, shape.deepest - 1
    update, stop = (progress_bar(f"{d.title}: counting outcomes") if progress
                    else (None, None))
    D_parts, w_top, levels = [], [], []
    offset = np.zeros(deep + 1, np.int64)
    try:
        for i in range(0, b.n_classes, step):
            ids = np.arange(i, min(i + step, b.n_classes))
            D, lv = _chunk_rows(d, shape, deck, b.reps[ids].astype(np.int64), nets.group,
                                n_groups)
            D_parts.append(_merge(D))
            first = np.flatnonzero(np.r_[True, np.diff(lv[top]) != 0])
            w_top.append(b.weights[ids][lv[0][first]])
            levels.append([x + offset[s] for s, x in enumerate(lv)][top:deep])
            offset += [int(x.max()) + 1 for x in lv]
            if update is not None:
                update(min(i + step, b.n_classes), b.n_classes)
    finally:
        if stop is not None:
            stop()
    rows = _types(D_parts, [np.concatenate([lv[s] for lv in levels])
                            for s in range(deep - top)], np.concatenate(w_top), top)
    arrays: dict[str, np.ndarray] = {}
    for i, m in enumerate(rows.M):
        arrays |= {f"data{i}": m.data, f"indices{i}": m.indices, f"indptr{i}": m.indptr,
                   f"shape{i}": np.array(m.shape)}
    atomic_savez(path, level=1, DU=rows.DU, W=rows.W, top=np.int64(top),
                 n_levels=np.int64(len(rows.M)), **arrays)
    return rows


# --- one candidate --------------------------------------------------------------------------


def induct(rules, rows: Rows, objective: np.ndarray) -> np.ndarray:
    """The deals of each candidate per (path, outcome group), (K, paths, G) int64, under the
    strategy that maximises its ``objective`` (K, paths, G) int64 per outcome group: backward
    induction over the solver's nodes on the types, ties to the first action (the solver's
    ``argmax``), then each type's deals down the actions taken. Exact: in float64 while every
    sum stays below 2^53, else in int64 (as the solver)."""
    from gpusim.games.described.solver import _nodes

    d = rules.game_def
    shape = shape_of(d)
    nodes = _nodes(d)
    k, n_p, n_g = objective.shape
    exact = rows.bound * float(np.abs(objective).max(initial=0)) < 2 ** 53
    dt = np.float64 if exact else np.int64
    DU, DUT, M, W = rows.as_float if exact else (rows.DU, rows.DU.T, rows.M, rows.W)
    E = objective.reshape(k * n_p, n_g).astype(dt) @ DUT  # (K x paths, T_deep)
    of = np.arange(k * n_p).reshape(k, n_p)
    deep, top = rows.deep, rows.top

    def up(v: np.ndarray, s_from: int, s_to: int) -> np.ndarray:  # sum over the children
        for s in range(s_from - 1, s_to - 1, -1):
            v = (M[s - top] @ v.T).T
        return v

    def down(v: np.ndarray, s_from: int, s_to: int) -> np.ndarray:  # deals to the children
        for s in range(s_from, s_to):
            v = (M[s - top].T @ v.T).T
        return v

    def level(j: int) -> int:
        return shape.seen[nodes[j].point] - 1

    value: dict[int, np.ndarray] = {}
    action: dict[int, np.ndarray] = {}
    for i in range(len(nodes) - 1, -1, -1):
        evs = [up(E[of[:, j]], deep, level(i)) if kind == "path" else up(value[j], level(j),
                                                                         level(i))
               for kind, j in nodes[i].children]
        best, act = evs[0], np.zeros(evs[0].shape, np.int64)
        for a, v in enumerate(evs[1:], 1):  # strictly better: a tie stays with the first
            better = v > best
            best = np.where(better, v, best)
            act[better] = a
        value[i], action[i] = best, act
    counts = np.zeros((k, n_p, n_g), dt)
    mass = {0: np.broadcast_to(W, (k, len(W)))}
    for i, node in enumerate(nodes):
        here = mass.pop(i, None)
        if here is None:
            continue
        for a, (kind, j) in enumerate(node.children):
            part = np.where(action[i] == a, here, 0)
            if kind == "path":
                counts[:, j, :] += down(part, level(i), deep) @ DU
            else:
                mass[j] = mass.get(j, 0) + down(part, level(i), level(j))
    return np.rint(counts).astype(np.int64) if exact else counts


def price(rules, rows: Rows, nets: Nets, pays) -> list[tuple[int, ...]]:
    """Per paytable of ``pays`` (K, L): (deals, net, net^2, wagered, deals won, deals played
    out) of the main game, exact integers, the net in 1/``nets.unit`` of the base bet (the
    exact report's sums)."""
    a = np.asarray(pays, np.int64).reshape(-1, len(nets.lines))
    obj = nets.obj0[None] + np.tensordot(a, nets.obj, 1)
    main = nets.main0[None] + np.tensordot(a, nets.main, 1)
    c = induct(rules, rows, obj)
    wager = (nets.wager * nets.unit)[None, :, None]
    if float(rows.deals) * max(float(np.abs(main).max(initial=0)), float(wager.max())) ** 2 \
            >= 2 ** 62:  # sums past int64: Python integers
        c, main, wager = c.astype(object), main.astype(object), wager.astype(object)
    sums = [c.sum(axis=(1, 2)), (c * main).sum(axis=(1, 2)), (c * main * main).sum(axis=(1, 2)),
            (c * wager).sum(axis=(1, 2)), (c * (main > 0)).sum(axis=(1, 2)),
            c[:, nets.stays].sum(axis=(1, 2))]
    return [tuple(int(v) for v in row) for row in zip(*sums, strict=True)]


def batch_size(rows: Rows, nets: Nets) -> int:
    """Paytables priced together: their values per type in about 160 MB."""
    return int(np.clip(2e7 // (rows.size * (nets.obj0.shape[0] + 4)), 1, 256))
