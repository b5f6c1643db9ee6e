"""The exact analysis of any described game (:mod:`gpusim.games.described`): every deal counted
once, in integers, with backward induction over the decision tree.

A deal is the player's cards, the dealer's face-up cards, each street's community cards (in
order) and the dealer's hidden cards. The enumeration has three parts:

1. **Rows.** The player's cards by suit class (:func:`gpusim.board_index.board_classes`, each
   class weighted by its raw hands; with a reduced deck every raw hand once), then every
   face-up card set and street the *deepest* decision point sees, raw. Every decision point
   sees a prefix of a row (its player cards, up cards and the streets out by then), so the
   information sets of a point are groups of consecutive rows.
2. **Outcomes of a row.** The streets still to come are dealt out (every set), and the dealer's
   hidden cards are *counted*, not dealt: the dealer hands that avoid the cards in view, by
   whether they qualify and beat, tie or lose to the player's hand, come from cumulative rank
   tables of the hands that hold a given card subset, by inclusion-exclusion over the cards in
   view (:class:`gpusim.exact.dealer_counts.DealerCounts`). Where a paytable reads the
   dealer's hidden cards (a hand holding one, or a line on his two cards; a game without
   streets), they are dealt out instead, every set that avoids the row's cards, and each
   deal's showdown and classes are computed whole
   (:func:`gpusim.games.described.deals.outcome_counts`). A row's outcome counts ``D (rows,
   n_out)`` are over the layout's outcome codes (showdown x paytable classes,
   :mod:`gpusim.games.described.layout`); the player decides on them, knowing his own cards
   only.
3. **Decisions.** The game tree's nodes (a point and the actions that led to it) are valued from
   the last to the first: at each information set, the expected net of every action (the
   rows' ``D`` times the net of each terminal path, or the value of the node it leads to), and
   the best (``optimal``; ties go to the first action) or the one a rule strategy takes. A
   forward pass then counts every deal into its joint code.

Money is integers throughout: nets are in units of ``1/scale`` of a money unit (``scale`` the
least common denominator of the pays, 2 for a 3:2 pay), counts are int64. The ``optimal``
decision tables (:func:`table_key`) are indexed by (node, the player's suit class, the other
seen cards in the class's suits) and read by :mod:`gpusim.games.described.tables`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from typing import Any

import numpy as np

from gpusim.board_index import board_classes, set_index
from gpusim.games.described.deals import deal_stages, dealt_hidden, outcome_counts
from gpusim.games.described.description import Description
from gpusim.games.described.engine import rule_strategy
from gpusim.games.described.layout import GameShape, event_returns, layout, shape_of, tree
from gpusim.games.described.layout import nodes as _nodes
from gpusim.strategy import StrategyError

__all__ = ["Solved", "node_index", "solve", "table_key", "table_size"]

FULL_DECK = tuple(range(52))
_ROWS_PER_CHUNK = 300_000
_FINAL_PER_CHUNK = 2_000_000  # rows with every street dealt: bounds a chunk's memory


# --- nets -----------------------------------------------------------------------------------


def _nets(rules) -> tuple[int, np.ndarray, dict[str, np.ndarray]]:
    """(scale, net (n_paths, n_out) int64 of the whole round, {bet: the bet's net (n_paths,
    n_out)}) in 1/scale money units, for the bets the config offers."""
    d = rules.game_def
    lay = layout(d)
    amounts = rules.stakes.as_dict()
    offered = [b.name for b in d.bets if not b.side or amounts.get(b.name, 0) > 0]
    rets = event_returns(d, rules.pays())
    scale = 1
    for b in offered:
        for r in rets[b]:
            scale = math.lcm(scale, Fraction(r).denominator)
    n_out = lay.n_codes // len(lay.paths)
    total = np.zeros(lay.n_codes, np.int64)
    per_bet = {}
    for b in offered:
        unit = amounts[b] if d.bet(b).side else amounts[d.base_bet]
        value = np.array([int((Fraction(r) - 1) * scale) for r in rets[b]], np.int64)
        net = lay.multiple_of[b] * unit * value[lay.event_of[b]]
        per_bet[b] = net.reshape(len(lay.paths), n_out)
        total += net
    return scale, total.reshape(len(lay.paths), n_out), per_bet


# --- the game tree's nodes ------------------------------------------------------------------


def node_index(d: Description) -> dict[int, list[int]]:
    """{point: its nodes' indexes in :func:`_nodes`, in order} (a table's first axis)."""
    out: dict[int, list[int]] = {k: [] for k in range(len(d.points))}
    for i, n in enumerate(_nodes(d)):
        out[n.point].append(i)
    return out


# --- table keys -----------------------------------------------------------------------------


def table_key(d: Description, k: int, class_id: np.ndarray, rest: list[np.ndarray]) -> np.ndarray:
    """The index of an information set of point k in its decision table: the player's suit
    class, then each further stage it sees (its cards relabelled into the class's suits) by
    colex index. ``rest``: one (N, m) array per stage after the player's."""
    shape = shape_of(d)
    key = class_id.astype(np.int64)
    for (_, m, _), cards in zip(shape.stages[1: shape.seen[k]], rest, strict=True):
        key = key * math.comb(52, m) + set_index(cards)
    return key


def table_size(d: Description, k: int) -> int:
    shape = shape_of(d)
    n = board_classes(d.player).n_classes
    for _, m, _ in shape.stages[1: shape.seen[k]]:
        n *= math.comb(52, m)
    return n


# --- the solve ------------------------------------------------------------------------------


@dataclass
class Solved:
    """A solve's integer results (see :func:`solve`)."""

    rules: Any
    strategy: str
    joint: np.ndarray
    deals: int
    scale: int
    root_cards: np.ndarray
    root_weight: np.ndarray
    root_deals: np.ndarray
    root_ev: np.ndarray
    root_ev_main: np.ndarray
    root_action: np.ndarray
    tables: dict[str, np.ndarray] | None = field(default=None, repr=False)
    # (rows,) int64 the EV of the side bets no decision changes, per first-decision row and
    # deal (the community solver's; None where not counted)
    root_ev_free: np.ndarray | None = None

    def net_histogram(self, bet: str | None = None) -> dict[Fraction, int]:
        """{net result in money units: deals} of the whole round (None) or one bet."""
        scale, total, per_bet = _nets(self.rules)
        net = (total if bet is None else per_bet[bet]).ravel()
        out: dict[Fraction, int] = {}
        for v, c in zip(net.tolist(), self.joint.tolist(), strict=True):
            if c:
                key = Fraction(v, scale)
                out[key] = out.get(key, 0) + c
        return out

    def action_counts(self) -> dict[str, dict[str, int]]:
        """{point: {action: deals that took it}}."""
        d = self.rules.game_def
        lay = layout(d)
        out = {}
        for p in tree(d):
            took = lay.action_of[p.name]
            out[p.name] = {a.name: int(self.joint[took == i].sum())
                           for i, a in enumerate(p.actions)}
        return out


def _segsum(values: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Sums of consecutive row groups (int64, exact) that begin at ``starts``."""
    return np.add.reduceat(values, starts, axis=0)


def solve(rules, strategy: str = "optimal", *, deck=None, player_classes=None,
          progress: Callable[[int, int], None] | None = None) -> Solved:
    """Count every deal of a described game's config under ``strategy`` (``"optimal"`` or one
    of its rule strategies). ``deck``: the card codes dealt from (default all 52; a reduced
    deck turns suit classes off and writes no tables). ``player_classes``: only the deals whose
    player cards are in these suit classes (:func:`gpusim.board_index.board_classes` ids; a
    partial solve, to check a slow game's shipped tables in part). ``progress(done, total)``
    per chunk of player classes."""
    d = rules.game_def
    full = deck is None or tuple(sorted(deck)) == FULL_DECK
    deck_t = FULL_DECK if full else tuple(sorted(int(c) for c in deck))
    deck_a = np.array(deck_t, np.int64)
    shape = shape_of(d)
    lay = layout(d)
    points = tree(d)
    nodes = _nodes(d)
    scale, net, per_bet = _nets(rules)
    n_out = net.shape[1]
    net_main = sum((v for b, v in per_bet.items() if not d.bet(b).side),
                   np.zeros_like(net))
    decide = None
    exact = d.decides_for(strategy)
    if exact is None:
        # the description's own rule strategies (not the registry: the solver stays below it)
        names = [name for name, _, _ in d.strategies]
        if strategy not in names:
            others = "".join(f", '{n}'" for n, _, _ in d.exact_strategies)
            raise StrategyError(f"strategy {strategy!r}: the exact solver of {d.name} prices "
                                f"'optimal'{others} and the description's rule strategies: "
                                f"{', '.join(names)}")
        decide = rule_strategy(d, strategy)
    # what the best actions weigh: every offered bet, or the main bets alone (optimal_for)
    weighed = net_main if exact == "main" else net
    if full:
        b = board_classes(d.player)
        p_cards, p_weight = b.reps.astype(np.int64), b.weights
        p_class = np.arange(b.n_classes)
        if player_classes is not None:
            p_class = np.asarray(player_classes, np.int64)
            p_cards, p_weight = p_cards[p_class], p_weight[p_class]
    else:
        p_cards = np.array(list(combinations(deck_t, d.player)), np.int64)
        p_weight = np.ones(len(p_cards), np.int64)
        p_class = np.arange(len(p_cards))
    rows_per_p = 1
    left = len(deck_t) - d.player
    for _, m, _ in shape.stages[1: shape.deepest]:
        rows_per_p *= math.comb(left, m)
        left -= m
    dealt_out = rows_per_p  # and the streets after the deepest point, dealt out per row
    for _, m, _ in shape.stages[shape.deepest:]:
        dealt_out *= math.comb(left, m)
        left -= m
    if dealt_hidden(d, shape):  # and the dealer's hidden cards, where a paytable reads them
        dealt_out *= max(1, math.comb(left, len(shape.hidden)))
    per_chunk = max(1, min(_ROWS_PER_CHUNK // rows_per_p, _FINAL_PER_CHUNK // dealt_out))
    chunks = [np.arange(i, min(i + per_chunk, len(p_cards)))
              for i in range(0, len(p_cards), per_chunk)]
    joint = np.zeros(lay.n_codes, np.int64)
    roots: dict[str, list] = {"cards": [], "weight": [], "deals": [], "ev": [], "ev_main": [],
                              "action": []}
    by_point = node_index(d)
    tables = None
    if full and exact is not None:
        tables = {k: np.zeros((len(by_point[k]), table_size(d, k)), np.uint8)
                  for k in range(len(points))}
    for done, ids in enumerate(chunks):
        part = _chunk(rules, shape, lay, nodes, (weighed, net_main), n_out, deck_a, p_cards[ids],
                      p_weight[ids], p_class[ids], decide, tables)
        joint += part["joint"]
        for key in roots:
            roots[key].append(part[key])
        if progress is not None:
            progress(done + 1, len(chunks))
    bits = max(1, max(len(p.actions) for p in points) - 1).bit_length()
    out_tables = None
    if tables is not None:
        out_tables = {}
        for k, t in tables.items():
            planes = ((t[..., None] >> np.arange(bits, dtype=np.uint8)) & 1).astype(bool)
            out_tables[f"{points[k].name}/{strategy}"] = planes
    return Solved(rules=rules, strategy=strategy, joint=joint, deals=int(joint.sum()),
                  scale=scale, root_cards=np.concatenate(roots["cards"]).astype(np.int32),
                  root_weight=np.concatenate(roots["weight"]),
                  root_deals=np.concatenate(roots["deals"]),
                  root_ev=np.concatenate(roots["ev"]),
                  root_ev_main=np.concatenate(roots["ev_main"]),
                  root_action=np.concatenate(roots["action"]), tables=out_tables)


def _chunk(rules, shape: GameShape, lay, nodes, nets, n_out, deck, p_cards, p_weight, p_class,
           decide, tables) -> dict:
    """One chunk of player classes: the joint counts, the root rows and (optimal, full deck)
    the decision tables' entries of its information sets. ``nets``: (the round's, the main
    game's) net per (path, outcome)."""
    d = rules.game_def
    net, net_main = nets
    points = tree(d)
    st = deal_stages(shape, deck, p_cards)
    stage_cards, new_cards, ancestor = st.cards, st.new, st.ancestor
    deep = shape.deepest - 1  # the stage index of the deepest point's rows
    n_deep = len(stage_cards[deep])
    D = outcome_counts(d, shape, st, deck, np.arange(n_out), n_out)
    E = D @ net.T  # (n_deep, n_paths) sum of nets in 1/scale units
    E_main = D @ net_main.T
    starts = {}
    for s in range(deep + 1):
        anc = ancestor(deep, s)
        starts[s] = np.searchsorted(anc, np.arange(len(stage_cards[s])))

    def to_level(values: np.ndarray, s: int) -> np.ndarray:
        return values if s == deep else _segsum(values, starts[s])

    def level_to_level(values: np.ndarray, s_from: int, s_to: int) -> np.ndarray:
        if s_from == s_to:
            return values
        anc = ancestor(s_from, s_to)
        return _segsum(values, np.searchsorted(anc, np.arange(len(stage_cards[s_to]))))

    value: dict[int, np.ndarray] = {}
    value_main: dict[int, np.ndarray] = {}
    action: dict[int, np.ndarray] = {}
    evs: dict[int, np.ndarray] = {}
    evs_main: dict[int, np.ndarray] = {}
    rule_cache: dict[int, np.ndarray] = {}
    for i in range(len(nodes) - 1, -1, -1):
        node = nodes[i]
        lvl = shape.seen[node.point] - 1
        ev = np.zeros((len(stage_cards[lvl]), len(node.children)), np.int64)
        ev_main = np.zeros_like(ev)
        for a, (kind, j) in enumerate(node.children):
            if kind == "path":
                ev[:, a] = to_level(E[:, j], lvl)
                ev_main[:, a] = to_level(E_main[:, j], lvl)
            else:
                s_child = shape.seen[nodes[j].point] - 1
                ev[:, a] = level_to_level(value[j], s_child, lvl)
                ev_main[:, a] = level_to_level(value_main[j], s_child, lvl)
        if decide is None:
            act = np.argmax(ev, axis=1)
        else:
            if node.point not in rule_cache:
                cards = np.zeros((len(stage_cards[lvl]), shape.n_columns), np.int32)
                at = 0
                for _, m, cols in shape.stages[: lvl + 1]:
                    cards[:, list(cols)] = stage_cards[lvl][:, at: at + m]
                    at += m
                rule_cache[node.point] = np.asarray(
                    decide(cards)[points[node.point].name]).astype(np.int64)
            act = rule_cache[node.point]
        value[i] = ev[np.arange(len(ev)), act]
        value_main[i] = ev_main[np.arange(len(ev)), act]
        action[i], evs[i], evs_main[i] = act, ev, ev_main
        if tables is not None:
            k = node.point
            rest = [new_cards[t] for t in range(1, lvl + 1)]
            rest = [r[ancestor(lvl, t)] for r, t in zip(rest, range(1, lvl + 1), strict=True)]
            key = table_key(d, k, p_class[ancestor(lvl, 0)], rest)
            tables[k][node_index(d)[k].index(i), key] = act
    # forward: which path each deepest row takes
    path = np.full(n_deep, -1, np.int64)
    reach = {0: np.ones(n_deep, bool)}
    for i, node in enumerate(nodes):
        rows = reach.pop(i, None)
        if rows is None:
            continue
        lvl = shape.seen[node.point] - 1
        act = action[i][ancestor(deep, lvl)]
        for a, (kind, j) in enumerate(node.children):
            hit = rows & (act == a)
            if kind == "path":
                path[hit] = j
            else:
                reach[j] = reach.get(j, np.zeros(n_deep, bool)) | hit
    assert (path >= 0).all()
    w = p_weight[ancestor(deep, 0)]
    joint = np.zeros(lay.n_codes, np.int64)
    for pth in np.unique(path):
        sel = path == pth
        joint[pth * n_out: (pth + 1) * n_out] = (D[sel] * w[sel, None]).sum(axis=0)
    s0 = shape.seen[0] - 1
    root_w = p_weight[ancestor(s0, 0)]
    return {"joint": joint, "cards": stage_cards[s0], "weight": root_w,
            "deals": to_level(D.sum(axis=1), s0), "ev": evs[0], "ev_main": evs_main[0],
            "action": action[0]}

