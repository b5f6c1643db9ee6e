"""Stage 3 of the community-card solver (:mod:`gpusim.games.described.community`): the pre-flop
points decide per starting hand on the flops' sums (:func:`preflop`), and the joint counts
follow from the sums each starting hand's play reaches (:func:`joint_counts`)."""

from __future__ import annotations

import numpy as np

from gpusim.games.described.community_flops import Flops, Holes
from gpusim.games.described.community_program import (
    N_SD,
    Program,
    community_shape,
    fill_unseen,
    point_rule,
)
from gpusim.games.described.layout import layout
from gpusim.games.described.solver import _nodes

__all__ = ["joint_counts", "preflop"]


def preflop(prog: Program, plan: Flops, acc: dict, groups: Holes):
    """The pre-flop nodes' decisions per hole group: (action per node, each node's
    (values, main values) per action, the entries the root's play reaches (groups, entries)
    0/1)."""
    d = prog.d
    shape = community_shape(d)
    nodes = _nodes(d)
    pre = [i for i, n in enumerate(nodes) if shape.level[n.point] == 0]
    entry_index = {e: k for k, e in enumerate(plan.entries)}
    rule = None
    if not prog.exact:
        cards = np.zeros((groups.n, d.n_cards), np.int32)
        cards[:, list(d.columns["player"])] = groups.reps
        # the other columns: cards off the hole (a pre-flop rule never reads them)
        others = [c for c in range(d.n_cards) if c not in d.columns["player"]]
        cards[:, others] = fill_unseen(groups.reps, len(others))
        rule = cards
    value: dict[int, np.ndarray] = {}
    value_main: dict[int, np.ndarray] = {}
    act: dict[int, np.ndarray] = {}
    evs: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    reach: dict[int, np.ndarray] = {}
    eye = np.eye(len(plan.entries), dtype=np.int64)
    rows = np.arange(groups.n)
    for i in sorted(pre, reverse=True):
        ev, ev_m, ends = [], [], []
        for kind, j in nodes[i].children:
            if kind == "node" and j in value:
                ev.append(value[j])
                ev_m.append(value_main[j])
                ends.append(reach[j])
            else:
                e = entry_index[(kind, j)]
                ev.append(acc["value"][e])
                ev_m.append(acc["value_main"][e])
                ends.append(np.broadcast_to(eye[e], (groups.n, len(plan.entries))))
        ev_a, ev_ma = np.stack(ev, 1), np.stack(ev_m, 1)
        a = np.argmax(ev_a, axis=1) if rule is None else \
            point_rule(d, prog.strategy, nodes[i].point)(rule)
        value[i], value_main[i] = ev_a[rows, a], ev_ma[rows, a]
        reach[i] = np.stack(ends, 1)[rows, a]
        act[i], evs[i] = a, (ev_a, ev_ma)
    return act, evs, reach[0]


def joint_counts(prog: Program, acc: dict, reach: np.ndarray) -> np.ndarray:
    """(n_codes,) the joint counts: every hole group's reached entries' outcome sums."""
    lay = layout(prog.d)
    n_cls = lay.n_codes // (len(lay.paths) * N_SD)
    summed = np.einsum("ke,ektlr->tlr", reach, acc["joint"])  # exact: int64
    rc = np.arange(prog.n_rc)
    high = (rc // 2) % prog.n_high
    sig = rc // (2 * prog.n_high)
    joint = np.zeros(lay.n_codes, np.int64)
    for t in range(len(prog.terms)):
        path = prog.term_path[t, sig]  # (n_rc,)
        for lo in range(prog.n_low):
            cls = prog.low_code[lo] + prog.high_code[high]
            code = ((path[:, None] * N_SD + np.arange(N_SD)[None, :]) * n_cls
                    + cls[:, None])
            np.add.at(joint, code.ravel(), summed[t, lo])
    return joint
