"""Stage 2 and 3 of the community-card solver (:mod:`gpusim.games.described.community`): per flop
class, its boards' cells summed by (hole, cell code); the flop's decisions; the sums by hole
group (starting hand) and the way down from the pre-flop points; then the pre-flop decisions
and the joint counts."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from gpusim.board_index import subsets
from gpusim.exact._parallel import attach
from gpusim.exact.fives import (
    HOLE_CLASS,
    binned_sums,
    hole_bins,
    hole_permutation_table,
    lookup,
    orbit_boards,
    symmetrize,
)
from gpusim.games.described.community_cells import class_index
from gpusim.games.described.community_program import (
    FIELD,
    N_SD,
    Program,
    community_shape,
    fill_unseen,
    point_rule,
)
from gpusim.games.described.solver import _nodes

__all__ = ["Flops", "Holes", "flop_chunk", "flop_plan", "flop_rule_actions", "merge", "new_acc",
           "one_flop", "packed_nets", "starting_hands", "turn_flop", "unpack", "unpack_packed"]

_M = (1 << FIELD) - 1



def unpack(fields: list[np.ndarray], bins_n: np.ndarray, n_rc: int, total: int) -> np.ndarray:
    """(holes, n_rc, 6) int64 showdown counts from the binned sums (n_rc, holes) of the three
    fields and of the boards."""
    f0, f1, f2 = fields
    q = (np.arange(n_rc) % 2 == 1)[:, None]
    z = np.zeros_like(f0)
    lose = total * bins_n - f0 - f1 - f2
    sd = np.stack([f0, np.where(q, z, f1), np.where(q, z, f2), np.where(q, f2, z),
                   np.where(q, f1, z), lose], axis=-1)  # (n_rc, holes, 6)
    return np.ascontiguousarray(sd.transpose(1, 0, 2))


@dataclass(frozen=True)
class Flops:
    """What stage 2 needs besides the program: the nodes on the flop and on the turn, the
    entries (where the pre-flop play goes: a path, a node on a later street; or the root on
    the flop), and whether the turn is a street of its own (its card then counts apart from
    the river's)."""

    flop_nodes: tuple[int, ...]
    turn_nodes: tuple[int, ...]
    entries: tuple[tuple[str, int], ...]
    root_on_flop: bool
    turn_street: bool


def flop_plan(prog: Program) -> Flops:
    d = prog.d
    shape = community_shape(d)
    nodes = _nodes(d)
    flop_nodes = tuple(i for i, n in enumerate(nodes) if shape.level[n.point] == 3)
    turn_nodes = tuple(i for i, n in enumerate(nodes) if shape.level[n.point] == 4)
    turn_street = len(d.streets) > 1 and d.streets[1] == 1
    if shape.level[nodes[0].point] > 0:
        return Flops(flop_nodes, turn_nodes, (("node", 0),), True, turn_street)
    entries = []
    for n in nodes:
        if shape.level[n.point] == 0:
            for kind, j in n.children:
                if kind == "path" or shape.level[nodes[j].point] > 0:
                    entries.append((kind, j))
    return Flops(flop_nodes, turn_nodes, tuple(dict.fromkeys(entries)), False, turn_street)


def terminal_values(prog: Program, sd: np.ndarray, low: np.ndarray):
    """(n_terms, H) each terminal's value, total and main bets, of counts ``sd (H, n_rc, 6)``
    with the holes' low classes ``low (H,)``. Through float64 products: exact, every sum is
    an integer below 2**53 (:func:`~gpusim.games.described.community_program.program` bounds
    the nets)."""
    n_h, n_t = len(sd), len(prog.terms)
    flat = sd.reshape(n_h, -1).astype(np.float64)
    both = np.concatenate([prog.nets, prog.nets_main])  # (2 terms, n_low, n_rc * 6)
    if prog.n_low == 1:
        out = flat @ both[:, 0].T
    else:  # every low class's product at once (one matrix product), then each hole's own
        every = (flat @ both.reshape(2 * n_t * prog.n_low, -1).T).reshape(n_h, 2 * n_t,
                                                                          prog.n_low)
        out = np.take_along_axis(every, low[:, None, None], axis=2)[..., 0]
    res = np.rint(out.T).astype(np.int64)
    return res[:n_t], res[n_t:]


def level_values(prog: Program, node_ids, tv, tv_main, deeper: dict, rule_acts):
    """Backward induction per hole over the nodes ``node_ids`` of one street: every child is a
    node of these, a terminal (a path or a river node: ``tv``/``tv_main`` rows) or a node of a
    later street (``deeper[node] = (value, main value, target)``). Returns (value, main value,
    target reached, action, (values, main values) per action) per node, and a function that
    gives the same three for any child (an entry)."""
    nodes = prog.nodes
    n_h = tv.shape[1]
    n_paths = prog.n_paths
    value: dict[int, np.ndarray] = {}
    value_main: dict[int, np.ndarray] = {}
    reach: dict[int, np.ndarray] = {}
    act: dict[int, np.ndarray] = {}
    evs: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def child(kind: str, j: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if kind == "node" and j in value:
            return value[j], value_main[j], reach[j]
        if kind == "node" and j in deeper:
            v, vm, target = deeper[j]
            return v, vm, np.full(n_h, target, np.int64)
        t = j if kind == "path" else n_paths + prog.river.index(j)
        return tv[t], tv_main[t], np.full(n_h, t, np.int64)

    rows = np.arange(n_h)
    for i in sorted(node_ids, reverse=True):
        got = [child(kind, j) for kind, j in nodes[i].children]
        ev_a = np.stack([g[0] for g in got], 1)
        ev_m = np.stack([g[1] for g in got], 1)
        ends = np.stack([g[2] for g in got], 1)
        a = np.argmax(ev_a, axis=1) if rule_acts is None else rule_acts[i]
        value[i], value_main[i], reach[i] = ev_a[rows, a], ev_m[rows, a], ends[rows, a]
        act[i], evs[i] = a, (ev_a, ev_m)
    return act, evs, child


def flop_values(prog: Program, plan: Flops, sd: np.ndarray, low: np.ndarray,
                rule_acts: dict[int, np.ndarray] | None):
    """Per hole of one flop (the turn and river together): the entries' (value, main value,
    terminal reached), the flop nodes' actions and their values per action."""
    tv, tv_main = terminal_values(prog, sd, low)
    act, evs, child = level_values(prog, plan.flop_nodes, tv, tv_main, {}, rule_acts)
    return [child(k, j) for k, j in plan.entries], act, evs


def _cards(prog: Program, holes: np.ndarray, board: np.ndarray, fill: bool = True) -> np.ndarray:
    """(N, C) rounds of ``holes`` (N, 2) and the first board cards ``board`` ((k,) or (N, k)),
    the columns not dealt yet filled with other cards (a point never reads them, and an
    evaluator must not see one card twice); ``fill=False`` leaves them 0, for a reader of the
    dealt columns only."""
    d = prog.d
    k = board.shape[-1]
    cards = np.zeros((len(holes), d.n_cards), np.int32)
    cards[:, list(d.columns["player"])] = holes
    cards[:, list(d.columns["board"])[:k]] = board
    if not fill:
        return cards
    seen = np.concatenate([np.broadcast_to(holes, (len(holes), 2)),
                           np.broadcast_to(board, (len(holes), k))], axis=1)
    later = [c for c in range(d.n_cards) if c not in d.columns["player"]
             and c not in d.columns["board"][:k]]
    cards[:, later] = fill_unseen(seen, len(later))
    return cards


def low_classes(prog: Program, board: np.ndarray, holes: np.ndarray) -> np.ndarray:
    """(H,) the low class index of holes with the first board cards (the flop, or the flop
    and the turn): the low hands read at most those (community_shape)."""
    return class_index(prog, prog.low, _cards(prog, holes, board, fill=False))


def rule_actions(prog: Program, node_ids, board: np.ndarray,
                 holes: np.ndarray) -> dict[int, np.ndarray] | None:
    """A rule strategy's actions at ``node_ids`` (all on one street) for ``holes`` (N, 2) with
    the board so far ``board`` ((k,) or (N, k)); None for ``optimal``."""
    if prog.exact or not node_ids:
        return None
    cards = _cards(prog, holes, board)
    nodes = _nodes(prog.d)
    return {i: point_rule(prog.d, prog.strategy, nodes[i].point)(cards) for i in node_ids}


def flop_rule_actions(prog: Program, plan: Flops, flop: np.ndarray,
                      holes: np.ndarray) -> dict[int, np.ndarray] | None:
    """A rule strategy's actions at the flop nodes (see :func:`rule_actions`)."""
    return rule_actions(prog, plan.flop_nodes, flop, holes)


@dataclass(frozen=True)
class Holes:
    """How holes group for the pre-flop decisions: ``of[h]`` the group of hole h (0..1325),
    ``reps`` a hole of each group, ``size`` the holes of each (the full deck: the 169
    starting hands; a reduced deck: each hole its own group, those off the deck empty)."""

    of: np.ndarray
    reps: np.ndarray
    size: np.ndarray

    @property
    def n(self) -> int:
        return len(self.reps)


@cache
def starting_hands() -> Holes:
    first = np.array([np.flatnonzero(HOLE_CLASS == k)[0] for k in range(169)])
    return Holes(HOLE_CLASS, subsets(2)[first].astype(np.int64),
                  np.bincount(HOLE_CLASS, minlength=169).astype(np.int64))


def accumulate(prog: Program, plan: Flops, sd, low, groups: Holes, valid, weight,
                entries, acc: dict) -> None:
    """Add one flop's outcome counts (weight x) to ``acc['joint']`` (entries, groups, terms,
    n_low, n_rc * 6) and its entries' values to ``acc['value']`` / ``acc['value_main']``
    (entries, groups)."""
    flat = sd.reshape(len(sd), -1)[valid]
    k = groups.of[valid]
    lo = low[valid]
    n_t = len(prog.terms)
    for e, (val, val_main, term) in enumerate(entries):
        np.add.at(acc["value"][e], k, weight * val[valid])
        np.add.at(acc["value_main"][e], k, weight * val_main[valid])
        key = ((k * n_t) + term[valid]) * prog.n_low + lo
        order = np.argsort(key, kind="stable")
        ks = key[order]
        starts = np.flatnonzero(np.r_[True, ks[1:] != ks[:-1]])
        sums = np.add.reduceat(flat[order], starts, axis=0)
        acc["joint"][e].reshape(-1, flat.shape[1])[ks[starts]] += weight * sums


def new_acc(prog: Program, plan: Flops, groups: Holes) -> dict:
    n_e = len(plan.entries)
    return {"joint": np.zeros((n_e, groups.n, len(prog.terms), prog.n_low,
                               prog.n_rc * N_SD), np.int64),
            "value": np.zeros((n_e, groups.n), np.int64),
            "value_main": np.zeros((n_e, groups.n), np.int64),
            "root_ev": None, "root_ev_main": None, "root_deals": None}


def add_root_rows(prog: Program, acc, act, evs, groups: Holes, valid, weight,
                   deals_per_hole) -> None:
    """The root on the flop: per (starting hand, action taken), the summed EV of every action
    and the deals (the report's first decision, aggregated)."""
    n_a = len(_nodes(prog.d)[0].children)
    if acc["root_ev"] is None:
        acc["root_ev"] = np.zeros((groups.n, n_a, n_a), np.int64)
        acc["root_ev_main"] = np.zeros((groups.n, n_a, n_a), np.int64)
        acc["root_deals"] = np.zeros((groups.n, n_a), np.int64)
    ev_a, ev_m = evs[0]
    k, a = groups.of[valid], act[0][valid]
    np.add.at(acc["root_ev"], (k, a), weight * ev_a[valid])
    np.add.at(acc["root_ev_main"], (k, a), weight * ev_m[valid])
    np.add.at(acc["root_deals"], (k, a), weight * deals_per_hole)


def one_flop(prog: Program, plan: Flops, groups: Holes, acc: dict, flop: np.ndarray,
              sd: np.ndarray, valid: np.ndarray, weight: int, deals_per_hole: int,
              rule_acts: dict[int, np.ndarray] | None = None):
    """Everything one flop adds (its summed counts ``sd (1326, n_rc, 6)``); returns the flop
    nodes' actions. ``rule_acts``: a rule strategy's flop decisions when asked already."""
    holes = subsets(2).astype(np.int64)
    low = low_classes(prog, flop, holes)
    if rule_acts is None:
        rule_acts = flop_rule_actions(prog, plan, flop, holes)
    entries, act, evs = flop_values(prog, plan, sd, low, rule_acts)
    accumulate(prog, plan, sd, low, groups, valid, weight, entries, acc)
    if plan.root_on_flop:
        add_root_rows(prog, acc, act, evs, groups, valid, weight, deals_per_hole)
    return act


def packed_nets(prog: Program) -> np.ndarray:
    """(2 terms, n_low, 4 * n_rc) float64: the nets of :attr:`Program.nets` and
    ``nets_main`` folded onto the packed counts (the three fields and the boards, per cell
    code) that :func:`unpack` spreads into the six showdown results: a value is then one
    product with the packed sums, which are summed over turns before they are unpacked."""
    both = np.concatenate([prog.nets, prog.nets_main])
    n = both.reshape(len(both), prog.n_low, prog.n_rc, N_SD)
    q = (np.arange(prog.n_rc) % 2 == 1)[None, None, :]
    lose = n[..., 5]
    out = np.stack([n[..., 0] - lose,
                    np.where(q, n[..., 4], n[..., 1]) - lose,
                    np.where(q, n[..., 3], n[..., 2]) - lose,
                    prog.total_dealer * lose], axis=2)  # (2 terms, n_low, 4, n_rc)
    return out.reshape(len(both), prog.n_low, 4 * prog.n_rc)


def unpack_packed(packed: np.ndarray, n_rc: int, total: int) -> np.ndarray:
    """(holes, ..., n_rc * 6) showdown counts from packed sums (..., 4, n_rc, holes)."""
    lead = packed.shape[:-3]
    flat = packed.reshape(-1, 4, n_rc, packed.shape[-1])
    out = np.stack([unpack(list(x[:3]), x[3], n_rc, total) for x in flat])  # (k, h, n_rc, 6)
    return np.moveaxis(out, 1, 0).reshape(packed.shape[-1], *lead, n_rc * N_SD)


def turn_flop(prog: Program, plan: Flops, groups: Holes, acc: dict, flop: np.ndarray,
              turns: list[int], turn_counts, valid: np.ndarray, weight: int,
              deals_per_hole: int, turn_act: np.ndarray | None = None):
    """One flop of a game whose turn is a street of its own: per turn card, its rivers'
    packed counts (``turn_counts(t) -> (4, n_rc, 1326)``: the three fields and the boards by
    cell code and hole), the turn nodes' decisions per hole, and the sums the flop's decisions
    and the joint counts need (kept packed, hole last, and unpacked once a flop); then the
    flop as :func:`one_flop`. ``turn_act`` (52, turn nodes, 1326): filled with the turn
    decisions."""
    holes = subsets(2).astype(np.int64)
    n_t, n_low, width = len(prog.terms), prog.n_low, prog.n_rc * N_SD
    targets = {j: n_t + k for k, j in enumerate(plan.turn_nodes)}
    # a hole's low class is the same on every turn unless a hand reads the turn: then the
    # sums keep a slot per low class, else one
    on_turn = any(n == 4 for _, n in community_shape(prog.d).hand_level)
    n_slot = n_low if on_turn else 1
    # a turn node whose first action ends in a terminal: its block there is what the others
    # leave of every board's counts (each board's counts reach one terminal), not summed
    rest = {}
    for j in plan.turn_nodes:
        kind, c = prog.nodes[j].children[0]
        rest[j] = c if kind == "path" else (prog.n_paths + prog.river.index(c)
                                            if c in prog.river else -1)
    nets = packed_nets(prog).reshape(2 * n_t * n_low, 4 * prog.n_rc)
    sd_low = np.zeros((n_slot, 4, prog.n_rc, 1326), np.int64)  # every board's counts
    blocks = {j: np.zeros((n_t, n_slot, 4, prog.n_rc, 1326), np.int64)
              for j in plan.turn_nodes}
    v_sum = {j: np.zeros(1326, np.int64) for j in plan.turn_nodes}
    vm_sum = {j: np.zeros(1326, np.int64) for j in plan.turn_nodes}
    tv = np.zeros((n_t, 1326), np.int64)
    tv_main = np.zeros_like(tv)
    low = low_classes(prog, flop, holes)
    slot = np.zeros(1326, np.int64)
    cols = np.arange(1326)
    for t in turns:
        board = np.append(flop, t)
        packed = turn_counts(t)
        on = valid & ~(holes == t).any(axis=1)
        if on_turn:
            low = slot = low_classes(prog, board, holes)
        every = (nets @ packed.reshape(4 * prog.n_rc, 1326).astype(np.float64)).reshape(
            2, n_t, n_low, 1326)
        both = np.rint(every[:, :, low, cols]).astype(np.int64)  # (2, n_t, 1326)
        tv4, tvm4 = both[0], both[1]
        tv += tv4
        tv_main += tvm4
        # (a hole this turn card, the flop or the deck leaves out sums to zero: no mask)
        for s in (np.unique(slot[on]) if on_turn else (0,)):
            sd_low[s] += packed * (slot == s) if on_turn else packed
        acts = rule_actions(prog, plan.turn_nodes, board, holes)
        act, _, child = level_values(prog, plan.turn_nodes, tv4, tvm4, {}, acts)
        for j in plan.turn_nodes:
            v, vm, term = child("node", j)
            v_sum[j] += v
            vm_sum[j] += vm
            ends = np.unique(term[on])
            for k in ends:
                if k == rest[j]:
                    continue
                hit = packed if len(ends) == 1 else packed * (term == k)
                for s in (np.unique(slot[on]) if on_turn else (0,)):
                    blocks[j][k, s] += hit * (slot == s) if on_turn else hit
            if turn_act is not None:
                turn_act[t, plan.turn_nodes.index(j)] = act[j]
    for j, r in rest.items():
        if r >= 0:
            blocks[j][r] = sd_low - blocks[j].sum(axis=0)
    total = prog.total_dealer
    sd_low_u = unpack_packed(sd_low, prog.n_rc, total)  # (1326, n_slot, width)
    blocks_u = {j: unpack_packed(b, prog.n_rc, total) for j, b in blocks.items()}
    deeper = {j: (v_sum[j], vm_sum[j], targets[j]) for j in plan.turn_nodes}
    rule3 = rule_actions(prog, plan.flop_nodes, flop, holes)
    act3, evs3, child3 = level_values(prog, plan.flop_nodes, tv, tv_main, deeper, rule3)
    entries = [child3(k, j) for k, j in plan.entries]
    k = groups.of[valid]
    key = k if on_turn else k * n_low + low[valid]
    order = np.argsort(key, kind="stable")
    ks = key[order]
    starts = np.flatnonzero(np.r_[True, ks[1:] != ks[:-1]])
    rows = np.arange(1326)
    for e, (val, val_main, target) in enumerate(entries):
        np.add.at(acc["value"][e], k, weight * val[valid])
        np.add.at(acc["value_main"][e], k, weight * val_main[valid])
        block = np.zeros((1326, n_t, n_slot, width), np.int64)
        direct = target < n_t
        block[rows[direct], target[direct]] = sd_low_u[direct]
        for j, at in targets.items():
            hit = target == at
            block[hit] = blocks_u[j][hit]
        sums = weight * np.add.reduceat(block[valid][order], starts, axis=0)
        if on_turn:
            acc["joint"][e][ks[starts]] += sums
        else:  # one slot: the hole's own low class
            kk, ll = np.divmod(ks[starts], n_low)
            acc["joint"][e][kk, :, ll, :] += sums[:, :, 0, :]
    if plan.root_on_flop:
        add_root_rows(prog, acc, act3, evs3, groups, valid, weight, deals_per_hole)
    return act3


def flop_chunk(spec, prog: Program, plan: Flops, ids, flops, weights, tables: bool) -> dict:
    """Stage 2 over flop classes ``ids`` (canonical ``flops``, raw flops each stands for
    ``weights``): the accumulated sums; the flop nodes' actions go into the shared
    ``flop_act`` table when ``tables``."""
    arrays = attach(spec)
    holes = subsets(2).astype(np.int64)
    groups = starting_hands()
    acc = new_acc(prog, plan, groups)
    base = hole_bins()
    for f, flop, w in zip(ids, flops, weights, strict=True):
        flop = np.asarray(flop, np.int64)
        valid = np.asarray(~np.isin(holes, flop).any(axis=1))
        if plan.turn_street:
            turns = np.setdiff1d(np.arange(52), flop)
            # every turn's 48 rivers summed in one pass, each turn into bins of its own
            rivers = np.array([np.setdiff1d(turns, t) for t in turns])  # (49, 48)
            boards = np.concatenate([np.broadcast_to(flop, (49 * 48, 3)),
                                     np.repeat(turns, 48)[:, None],
                                     rivers.reshape(-1, 1)], axis=1)
            cls, perm = lookup(spec, boards)
            span = prog.n_rc * 1326
            b4 = binned_sums([arrays["f"], arrays["n"]], arrays["rc"], cls, perm,
                             np.ones(len(boards), np.int64), base, 49 * span, code_stride=1326,
                             offset=np.repeat(np.arange(49) * span, 48)
                             ).reshape(2, 49, prog.n_rc, 1326)
            packed_all = np.stack([b4[0] & _M, (b4[0] >> FIELD) & _M, b4[0] >> 2 * FIELD,
                                   b4[1]], axis=1)  # (49, 4, n_rc, 1326)
            turn_of = {int(t): i for i, t in enumerate(turns)}

            def counts(t: int, packed_all=packed_all, turn_of=turn_of) -> np.ndarray:
                return packed_all[turn_of[t]]

            turn_act = arrays["turn_act"][f] if tables else None
            act = turn_flop(prog, plan, groups, acc, flop, turns.tolist(), counts, valid, int(w),
                            47 * 46 * prog.total_dealer, turn_act)
            if tables:
                for n, i in enumerate(plan.flop_nodes):
                    arrays["flop_act"][f, n] = act[i]
            continue
        boards, size, stab = orbit_boards(flop)
        cls, perm = lookup(spec, boards)
        bins = binned_sums([arrays["f"], arrays["n"]], arrays["rc"], cls, perm, size, base,
                           prog.n_rc * 1326, code_stride=1326)
        b = bins.reshape(2, prog.n_rc, 1326)
        bf = b[0]
        parts = [bf & _M, (bf >> FIELD) & _M, bf >> 2 * FIELD, b[1]]
        if len(stab) > 1:  # the orbit sums spread over the flop's symmetric holes
            perms = hole_permutation_table()[stab]
            parts = [symmetrize(p, perms, axis=1) for p in parts]
        sd = unpack(parts[:3], parts[3], prog.n_rc, prog.total_dealer)
        act = one_flop(prog, plan, groups, acc, flop, sd, valid, int(w),
                        1081 * prog.total_dealer)
        if tables:
            for n, i in enumerate(plan.flop_nodes):
                arrays["flop_act"][f, n] = act[i]
    return acc


def merge(total: dict | None, part: dict) -> dict:
    if total is None:
        return part
    for k, v in part.items():
        if v is None:
            continue
        total[k] = v if total[k] is None else total[k] + v
    return total
