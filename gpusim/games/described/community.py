"""The exact analysis of described games whose hands are made with community cards: the
player's two hole cards and the dealer's two hidden cards, each with the same five-card board.

The dealer's hidden cards are counted, not dealt, and a dealer hand is the dealer's two
cards and the whole board, so the counting goes board first (the described solver without a
board, :mod:`gpusim.games.described.solver`, goes player first):

1. **Cells** (per suit class of 5-card boards, every hole in the class's suits): the dealer
   hands by showdown result (dealer qualified or not x the player wins, ties, loses), from the
   per-board sorts of :func:`gpusim.exact.boards.sorted_counts`; the classes of the paytable
   hands that read the whole board; and the decisions of the points that see the whole
   board (the river), taken there and then (``optimal``: the best action on the cell's own
   counts). A cell's code (:class:`~.community_program.Program`'s ``rc``) packs the river
   decisions, the classes and whether the player's hand reaches the qualifier; its counts are
   packed in 21-bit fields so that sums of cells add whole words (:mod:`gpusim.exact.fives`).
2. **Flops** (per suit class of flops, every hole in the flop's suits): the flop's 1,176
   turn-river boards' cells summed by (hole, cell code), each board read through its suit
   permutation (:func:`gpusim.exact.fives.binned_sums`). Every value the game needs is linear
   in these sums: the net of each action path is a matrix product with the nets of the paths
   by (code, showdown result). The points that see the flop decide here, per (flop, hole);
   where the turn is a street of its own, each turn card's rivers are summed first and the
   turn's points decide per (flop, turn card, hole). The round's outcome counts are added by
   (starting hand, the way down from the pre-flop points, the path's end, the classes).
3. **Pre-flop** (per starting hand): the points that see the hole cards only decide on the
   flops' sums, and the joint counts follow from the sums each starting hand's decisions
   reach.

Supported: streets of 3 then 2, or 3, 1 and 1; points before the flop, on the flop, on the
turn and with the whole board out (the first one before or on the flop); paytable hands of the
hole cards (a starting hand too), of the hole cards and the board so far, or of the whole
board. A dealer card dealt face up, a paytable or rank line on the dealer's hidden cards and
more than 256 river outcomes in one cell code are refused in one line
(:func:`~.community_program.community_shape`; the stages: ``community_cells``,
``community_flops``; the table strategy: ``community_tables``).

Money is integers throughout, as in the described solver: nets in ``1/scale`` money units
(:func:`gpusim.games.described.solver._nets`), counts int64; sums that go through float64
matrix products are bounded below 2**53 first.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import combinations

import numpy as np

from gpusim.board_index import board_classes, hole_index, set_index, subsets
from gpusim.exact._parallel import attach, default_workers, run_chunks, worker_pool
from gpusim.exact.fives import five_card_table, warm_worker
from gpusim.games.described.community_cells import CELLS, cell_arrays
from gpusim.games.described.community_flops import (
    Flops,
    Holes,
    flop_chunk,
    flop_plan,
    flop_rule_actions,
    merge,
    new_acc,
    one_flop,
    starting_hands,
    turn_flop,
    unpack,
)
from gpusim.games.described.community_preflop import joint_counts, preflop
from gpusim.games.described.community_program import (
    FIELD,
    CommunityShape,
    Program,
    check_strategy,
    community_shape,
    program,
)
from gpusim.games.described.layout import tree
from gpusim.games.described.solver import Solved, _nets, _nodes

__all__ = ["CommunityShape", "community_shape", "solve", "solve_reduced"]

_M = (1 << FIELD) - 1
_FULL_DEALER = 990  # C(45, 2): the dealer's hidden hands on a full deck

def solve(rules, strategy: str = "optimal", *, workers: int | None = None,
          progress: Callable[[int, int], None] | None = None) -> Solved:
    """Count every deal of a community game's config under ``strategy`` (``"optimal"`` or one
    of the description's rule strategies), on the full deck. Returns the described solver's
    :class:`~gpusim.games.described.solver.Solved`: the joint counts, the first decision's
    rows and, for ``optimal``, the decision tables: a pre-flop point's (169, actions) one-hot
    by starting hand, a flop point's (1755, 1326) by (flop class, hole in its suits) and a
    river point's (134459, 1326) by (5-card class, hole in its suits), each a bool (two
    actions: the second taken) or the action index (uint8)."""
    d = rules.game_def
    check_strategy(d, strategy)
    workers = default_workers() if workers is None else workers
    prog = program(rules, strategy, _FULL_DEALER)
    plan = flop_plan(prog)
    b3 = board_classes(3)
    tables = d.decides_for(strategy) is not None
    extra = {"flop_act": ((b3.n_classes, max(1, len(plan.flop_nodes)), 1326), np.uint8),
             "turn_act": ((b3.n_classes, 52, max(1, len(plan.turn_nodes)), 1326)
                          if tables and plan.turn_nodes else (1, 1, 1, 1), np.uint8)}
    ids = np.arange(b3.n_classes)
    chunks = [c for c in np.array_split(ids, max(1, len(ids) // 8)) if len(c)]
    acc = None
    with worker_pool(workers, warm_worker) as pool:
        b5 = board_classes(5)
        needed = np.ones(b5.n_classes, np.int64)
        with five_card_table(CELLS, (prog.qualifier, prog), needed, pool=pool,
                             workers=workers, extra=extra) as (spec, _):
            args = [(spec, prog, plan, c, b3.reps[c], b3.weights[c], tables) for c in chunks]
            done = 0
            for c, part in run_chunks(flop_chunk, args, chunks, workers, pool=pool):
                acc = merge(acc, part)
                done += len(c)
                if progress is not None:
                    progress(done, len(ids))
            arrays = attach(spec)
            river = None
            if tables and prog.river:
                river = [_river_digit(prog, k)[arrays["rc"]] for k in range(len(prog.river))]
            flop_act = np.array(arrays["flop_act"]) if tables else None
            turn_act = np.array(arrays["turn_act"]) if tables and plan.turn_nodes else None
    assert acc is not None
    later = 47 * 46 if plan.turn_street else 1081  # turn and river, one by one or together
    return _finish(rules, prog, plan, acc, starting_hands(), 19600 * later * _FULL_DEALER,
                   river, flop_act, turn_act)


def _river_digit(prog: Program, k: int) -> np.ndarray:
    """(n_rc,) uint8 the action of river node k in each cell code."""
    sig = np.arange(prog.n_rc) // (2 * prog.n_high)
    for r in prog.river_radix[k + 1:]:
        sig = sig // r
    return (sig % prog.river_radix[k]).astype(np.uint8)


def _finish(rules, prog: Program, plan: Flops, acc: dict, groups: Holes,
            deals_per_hole: int, river, flop_act, turn_act=None) -> Solved:
    d = rules.game_def
    nodes = _nodes(d)
    points = tree(d)
    shape = community_shape(d)
    tables: dict[str, np.ndarray] | None = {} if flop_act is not None else None
    if plan.root_on_flop:
        reach = np.ones((groups.n, 1), np.int64)
        ks, a_s = np.nonzero(acc["root_deals"])
        root = {"cards": groups.reps[ks].astype(np.int32), "weight": np.ones(len(ks), np.int64),
                "deals": acc["root_deals"][ks, a_s], "ev": acc["root_ev"][ks, a_s],
                "ev_main": acc["root_ev_main"][ks, a_s], "action": a_s.astype(np.int64)}
    else:
        act, evs, reach = preflop(prog, plan, acc, groups)
        on = np.flatnonzero(groups.size > 0)
        size = groups.size[on][:, None]

        def per(values: np.ndarray) -> np.ndarray:
            if (values[on] % size).any():
                raise AssertionError("a starting hand's holes must all be worth the same")
            return values[on] // size

        ev_a, ev_m = evs[0]
        # the side bets no decision changes, per starting hand: alike under every entry
        # (each entry's sums hold every deal of the hand)
        assert prog.nets_free is not None
        free = np.einsum("gtlw,tlw->g", acc["joint"][0], prog.nets_free)
        root = {"cards": groups.reps[on].astype(np.int32), "weight": groups.size[on],
                "deals": np.full(len(on), deals_per_hole, np.int64), "ev": per(ev_a),
                "ev_main": per(ev_m), "action": act[0][on].astype(np.int64),
                "ev_free": per(free[:, None])[:, 0]}
        if tables is not None:
            for i, n in enumerate(nodes):
                if shape.level[n.point] == 0:
                    _put(tables, points[n.point].name, prog.strategy,
                         np.eye(len(n.children), dtype=bool)[act[i]], i, nodes)
    if tables is not None:
        for k, i in enumerate(plan.flop_nodes):
            _put(tables, points[nodes[i].point].name, prog.strategy,
                 _as_table(flop_act[:, k], len(nodes[i].children)), i, nodes)
        for k, i in enumerate(plan.turn_nodes):
            _put(tables, points[nodes[i].point].name, prog.strategy,
                 _as_table(turn_act[:, :, k], len(nodes[i].children)), i, nodes)
        for k, i in enumerate(prog.river):
            _put(tables, points[nodes[i].point].name, prog.strategy,
                 _as_table(river[k], len(nodes[i].children)), i, nodes)
    joint = joint_counts(prog, acc, reach)
    return Solved(rules=rules, strategy=prog.strategy, joint=joint, deals=int(joint.sum()),
                  scale=_nets(rules)[0], root_cards=root["cards"], root_weight=root["weight"],
                  root_deals=root["deals"], root_ev=root["ev"], root_ev_main=root["ev_main"],
                  root_action=root["action"], tables=tables, root_ev_free=root.get("ev_free"))


def _as_table(actions: np.ndarray, n_actions: int) -> np.ndarray:
    """A point's table: bool where two actions (the second taken), else the action index's
    bits (a last axis of bool planes, lowest bit first)."""
    if n_actions == 2:
        return actions == 1
    bits = max(1, (n_actions - 1).bit_length())
    return ((actions[..., None] >> np.arange(bits, dtype=np.uint8)) & 1).astype(bool)


def _put(tables: dict, point: str, strategy: str, table: np.ndarray, node: int,
         nodes) -> None:
    """One node's table under ``point/strategy`` (several nodes of a point: stacked)."""
    key = f"{point}/{strategy}"
    same = [i for i, n in enumerate(nodes) if n.point == nodes[node].point]
    if len(same) == 1:
        tables[key] = table
    else:
        tables.setdefault(key, np.zeros((len(same),) + table.shape, table.dtype))
        tables[key][same.index(node)] = table


# --- a reduced deck: the same stages on raw boards (tests) -----------------------------------


def solve_reduced(rules, strategy: str, deck) -> Solved:
    """The same count on a reduced deck: every board raw (no suit classes), the dealer's
    hands ranked one by one, every hole its own pre-flop group; no tables. For tests against
    a brute force."""
    from gpusim.exact.dealer_counts import rank_np

    d = rules.game_def
    check_strategy(d, strategy)
    deck_t = tuple(sorted(int(c) for c in deck))
    n = len(deck_t)
    total_dealer = math.comb(n - 7, 2)
    prog = program(rules, strategy, total_dealer)
    plan = flop_plan(prog)
    holes = subsets(2).astype(np.int64)
    in_deck = np.isin(holes, deck_t).all(axis=1)
    groups = Holes(np.arange(1326), holes, np.asarray(in_deck, np.int64))
    # stage 1: every raw 5-card board's cells
    boards = np.array(list(combinations(deck_t, 5)), np.int64)
    row_of = {int(s): i for i, s in enumerate(set_index(boards))}
    tab: dict[str, np.ndarray] = {"f": np.zeros((len(boards), 1326), np.int64),
           "n": np.zeros((len(boards), 1326), np.int16),
           "rc": np.zeros((len(boards), 1326), np.uint8)}
    per_board = []
    for k, board in enumerate(boards):
        rest = [c for c in deck_t if c not in board.tolist()]
        pairs = np.array(list(combinations(rest, 2)), np.int64)
        seven = np.concatenate([pairs, np.broadcast_to(board, (len(pairs), 5))], axis=1)
        r = rank_np(seven, "poker").astype(np.int64)
        # the dealer's hands against each hole: every other pair that avoids it
        ok = ~(pairs[:, None, :, None] == pairs[None, :, None, :]).any(axis=(2, 3))
        below = (ok & (r[None, :] < r[:, None])).sum(axis=1)
        equal = (ok & (r[None, :] == r[:, None])).sum(axis=1)
        nq = (ok & (r[None, :] < prog.qualifier)).sum(axis=1)
        per_board.append((np.full(len(pairs), k), pairs, below, equal, nq, r))
    cat = [np.concatenate(x) for x in zip(*per_board, strict=True)]
    cells = cell_arrays(prog, cat[2], cat[3], cat[4], cat[5].astype(np.uint32), cat[1],
                        boards[cat[0]])
    h = hole_index(cat[1][:, 0], cat[1][:, 1])
    for name, v in cells.items():
        tab[name][cat[0], h] = v
    # stage 2: every raw flop with its raw turn-river boards
    acc = new_acc(prog, plan, groups)
    cols = np.arange(1326)
    flops = np.array(list(combinations(deck_t, 3)), np.int64)
    rule = flop_rule_actions(prog, plan, np.repeat(flops, 1326, axis=0),
                              np.tile(holes, (len(flops), 1)))
    for f, flop in enumerate(map(tuple, flops.tolist())):
        fl = np.array(flop, np.int64)
        rest = [c for c in deck_t if c not in flop]
        valid = np.asarray(in_deck & ~np.isin(holes, fl).any(axis=1))
        if plan.turn_street:
            def counts(t: int, flop=flop, rest=rest) -> np.ndarray:  # packed (4, n_rc, 1326)
                fsum = np.zeros((prog.n_rc, 1326), np.int64)
                nsum = np.zeros((prog.n_rc, 1326), np.int64)
                for r in rest:
                    if r == t:
                        continue
                    row = row_of[int(set_index(np.array(flop + (t, r))))]
                    rc = tab["rc"][row].astype(np.int64)
                    np.add.at(fsum, (rc, cols), tab["f"][row])
                    np.add.at(nsum, (rc, cols), tab["n"][row].astype(np.int64))
                return np.stack([fsum & _M, (fsum >> FIELD) & _M, fsum >> 2 * FIELD, nsum])

            turn_flop(prog, plan, groups, acc, fl, rest, counts, valid, 1,
                      (n - 5) * (n - 6) * total_dealer)
            continue
        fsum = np.zeros((prog.n_rc, 1326), np.int64)
        nsum = np.zeros((prog.n_rc, 1326), np.int64)
        for tr in combinations(rest, 2):
            row = row_of[int(set_index(np.array(flop + tr)))]
            rc = tab["rc"][row].astype(np.int64)
            np.add.at(fsum, (rc, cols), tab["f"][row])
            np.add.at(nsum, (rc, cols), tab["n"][row].astype(np.int64))
        parts = [fsum & _M, (fsum >> FIELD) & _M, fsum >> 2 * FIELD]
        sd = unpack(parts, nsum, prog.n_rc, total_dealer)
        acts = None if rule is None else {
            i: a[f * 1326: (f + 1) * 1326] for i, a in rule.items()}
        one_flop(prog, plan, groups, acc, fl, sd, valid, 1,
                  math.comb(n - 5, 2) * total_dealer, acts)
    later = (n - 5) * (n - 6) if plan.turn_street else math.comb(n - 5, 2)
    per_hole = math.comb(n - 2, 3) * later * total_dealer
    return _finish(rules, prog, plan, acc, groups, per_hole, None, None)
