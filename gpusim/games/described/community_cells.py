"""Stage 1 of the community-card solver (:mod:`gpusim.games.described.community`): the cells of
every 5-card board class, per hole in the class's suits: the dealer's hands by showdown result,
the classes of the hands that read the whole board, the river's decisions, packed so that sums
of cells add whole words."""

from __future__ import annotations

import numpy as np

from gpusim.exact._native import community_cells_native, loaded_library, rank_native
from gpusim.exact.fives import CellKind
from gpusim.games.described.community_program import FIELD, Program, point_rule
from gpusim.games.described.deals import _class_np
from gpusim.games.described.layout import layout
from gpusim.games.described.solver import _nodes

__all__ = ["CELLS", "cell_arrays", "class_index"]

_M = (1 << FIELD) - 1



def showdown(below, equal, nq, qualifies, total):
    """(6, ...) int64 dealer hands by showdown code (SHOWDOWN order) from the counts below,
    equal to and below the qualifier."""
    below, equal, nq = (np.asarray(x, np.int64) for x in (below, equal, nq))
    z = np.zeros_like(below)
    q = qualifies
    nq_win = np.where(q, nq, below)
    nq_tie = np.where(q, z, equal)
    nq_lose = np.where(q, z, nq - below - equal)
    win = np.where(q, below - nq, z)
    tie = np.where(q, equal, z)
    lose = total - nq_win - nq_tie - nq_lose - win - tie
    return np.stack([nq_win, nq_tie, nq_lose, win, tie, lose])


def _rank(cards: np.ndarray, ranking: str) -> np.ndarray:
    """(N,) uint32 packed ranks: the compiled evaluator where it runs (the same ranks)."""
    if ranking == "poker" and 5 <= cards.shape[1] <= 7 and loaded_library() is not None:
        return rank_native(cards)
    from gpusim.exact.dealer_counts import rank_np

    return rank_np(cards, ranking)


def class_index(prog: Program, hands: tuple[str, ...], cards: np.ndarray,
                 player_rank: np.ndarray | None = None) -> np.ndarray:
    """(N,) mixed-radix index over ``hands``' classes of rounds ``cards (N, C)``."""
    d = prog.d
    lay = layout(d)
    out = np.zeros(len(cards), np.int64)
    ph = d.showdown[0] if d.showdown else None
    for h in hands:
        hd = d.hand(h)
        if hd.ranking == "starting_hand":  # the player's two cards, by the lines' hands
            from gpusim.games.described.starting import starting_class_np

            cls = starting_class_np(cards, d, h)
        elif player_rank is not None and ph is not None and \
                sorted(hd.columns) == sorted(d.hand(ph).columns):
            cls = _class_np(player_rank, hd.ranking, lay.class_of[h])
        else:
            cls = _class_np(_rank(cards[:, list(hd.columns)], hd.ranking), hd.ranking,
                            lay.class_of[h])
        out = out * len(lay.class_names[h]) + cls
    return out


def river_decisions(prog: Program, sd: np.ndarray, high: np.ndarray,
                     cards: np.ndarray) -> np.ndarray:
    """(N,) river signature of cells: each river node's action (optimal: the best on the
    cell's counts ``sd (6, N)``, ties to the first; a rule strategy: its rule on ``cards``)."""
    if not prog.river:
        return np.zeros(len(high), np.int64)
    nodes = _nodes(prog.d)
    act: dict[int, np.ndarray] = {}
    if not prog.exact:
        for i in prog.river:
            act[i] = point_rule(prog.d, prog.strategy, nodes[i].point)(cards)
    else:
        value: dict[int, np.ndarray] = {}
        for i in sorted(prog.river, reverse=True):  # children after parents
            ev = []
            for kind, j in nodes[i].children:
                if kind == "path":
                    n = prog.river_nets[j][:, high]  # (6, N)
                    ev.append((n * sd).sum(axis=0))
                else:
                    ev.append(value[j])
            ev_a = np.stack(ev, axis=1)
            act[i] = np.argmax(ev_a, axis=1)
            value[i] = ev_a[np.arange(len(high)), act[i]]
    sig = np.zeros(len(high), np.int64)
    for i, r in zip(prog.river, prog.river_radix, strict=True):
        sig = sig * r + act[i]
    return sig


def cell_arrays(prog: Program, below, equal, nq, rank, holes: np.ndarray,
                 boards: np.ndarray) -> dict:
    """The packed cells of (hole, board) pairs: ``f`` int64 fields, ``n`` int16 boards (1),
    ``rc`` the cell code."""
    qualifies = rank >= np.uint32(prog.qualifier)
    sd = showdown(below, equal, nq, qualifies, prog.total_dealer)
    d = prog.d
    cards = np.zeros((len(holes), d.n_cards), np.int64)
    cards[:, list(d.columns["player"])] = holes
    cards[:, list(d.columns["board"])] = boards
    high = class_index(prog, prog.high, cards, rank)
    sig = river_decisions(prog, sd, high, cards)
    rc = (sig * prog.n_high + high) * 2 + qualifies
    f0 = sd[0]
    f1 = np.where(qualifies, sd[4], sd[1])
    f2 = np.where(qualifies, sd[3], sd[2])
    return {"f": f0 | (f1 << FIELD) | (f2 << 2 * FIELD), "n": np.ones(len(holes), np.int16),
            "rc": rc.astype(np.uint8)}


def _cells(sc, pc, param) -> dict:
    """:class:`CellKind` cells of a batch of 5-card classes (in the hands' sorted order)."""
    del pc
    _, prog = param
    nb, npairs = sc.hole.shape
    live = np.ones((nb, 52), bool)
    live[np.arange(nb)[:, None], sc.rem] = False
    boards = np.nonzero(live)[1].reshape(nb, 5)
    rem = sc.rem.astype(np.int64)
    c = sc.cards.astype(np.int64)
    holes = np.stack([np.take_along_axis(rem, c[..., 0], 1),
                      np.take_along_axis(rem, c[..., 1], 1)], axis=-1).reshape(-1, 2)
    out = cell_arrays(prog, sc.below.ravel(), sc.equal.ravel(), sc.not_qualified.ravel(),
                       sc.rank.ravel(), holes, np.repeat(boards, npairs, axis=0))
    return {k: v.reshape(nb, npairs) for k, v in out.items()}


def _write(arrays: dict, ids: np.ndarray, sc, param) -> bool:
    """The compiled form of :func:`_cells` (written straight into the rows), where the library
    is built and the cells need no cards: every high hand is the player's own hand, and the
    river's decisions, if any, are the optimal ones."""
    _, prog = param
    plan = _native_plan(prog)
    if plan is None:
        return False
    community_cells_native(arrays, ids, sc, prog.qualifier, prog.total_dealer, prog.n_high,
                           class_of=plan[0], river=plan[1])
    return True


def _native_plan(prog: Program):
    """(class_of per high hand, the river program) for :func:`community_cells_native`, or None
    where the numpy form runs."""
    if loaded_library() is None or (prog.river and not prog.exact):
        return None
    d = prog.d
    lay = layout(d)
    assert d.showdown is not None  # community_shape: a showdown
    ph = d.showdown[0]
    for h in prog.high:
        hd = d.hand(h)
        if hd.ranking != "poker" or sorted(hd.columns) != sorted(d.hand(ph).columns):
            return None
    class_of = tuple((lay.class_of[h], len(lay.class_names[h])) for h in prog.high)
    if not prog.river:
        return class_of, None
    nodes = _nodes(d)
    river = list(prog.river)
    cs, kind, ref = [0], [], []
    for i in river:
        for k, j in nodes[i].children:
            kind.append(0 if k == "path" else 1)
            ref.append(j if k == "path" else river.index(j))
        cs.append(len(kind))
    proc = [river.index(i) for i in sorted(river, reverse=True)]  # children before parents
    return class_of, (proc, cs, kind, ref, list(prog.river_radix), prog.river_nets)


CELLS = CellKind(layout={"f": np.int64, "n": np.int16, "rc": np.uint8}, cells=_cells,
                 qualified=True, write=_write)


