"""A community game's table strategy (``optimal``): the decision tables of the
community-card solver (:mod:`gpusim.games.described.community`) read in JAX.

A point's table is read at its information set: before the flop the hole cards' starting hand
(169), on the flop the (flop suit class, hole relabelled into the class's suits), on the turn
(flop suit class, turn card and hole in the flop class's suits) and on the river the (5-card
board suit class, hole in the class's suits), with the node (the actions taken before the
point) as the first axis where a point has several. Each point's function
is handed only its own columns; it recomputes the earlier points' actions from the prefix of
them those points saw, so the information contract holds by construction.

The tables as the solver writes them (bool arrays, the form decision tables are stored in):
a pre-flop point's (169, actions) one-hot; a flop or river point's (classes, 1326) and a turn
point's (1755, 52, 1326) where it has two actions (True: the second), else with a last axis of
the action index's bits.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from gpusim.board_index import PERMUTATIONS, board_classes
from gpusim.cards import hand_class_index
from gpusim.games.described.tables import _BINOM, _colex, advance
from gpusim.strategy import PointRules, RuleStrategy
from gpusim.strategy.tables import stored_tables

__all__ = ["CommunityTables", "point_functions"]


def _pair_classes() -> np.ndarray:
    c1, c2 = np.divmod(np.arange(52 * 52), 52)
    ok = c1 != c2
    out = np.zeros(52 * 52, np.int32)
    out[ok] = hand_class_index(c1[ok], c2[ok])
    return out


def _actions(table: np.ndarray, level: int, n_actions: int) -> np.ndarray:
    """(nodes, keys) uint8 action index, or for two actions (nodes, ceil(keys / 8)) packed
    bits (little-endian within a byte), from a point's stored table."""
    if level == 0:
        idx = np.argmax(table, axis=-1).astype(np.uint8)
    elif n_actions == 2:
        idx = table.astype(np.uint8)
    else:
        idx = (table.astype(np.uint8) << np.arange(table.shape[-1], dtype=np.uint8)).sum(
            axis=-1).astype(np.uint8)
    one_node = {0: 1, 3: 2, 4: 3, 5: 2}[level]  # the key's axes of one node's table
    per_node = 1 if idx.ndim == one_node else idx.shape[0]
    flat = idx.reshape(per_node, -1)
    if n_actions == 2 and level > 0:
        return np.packbits(flat, axis=-1, bitorder="little")
    return flat


def point_functions(rules, tables: dict[str, np.ndarray], name: str):
    """``{point: fn(seen) -> (N,) int32 action}`` for every point of a community game."""
    from gpusim.games.described.community import community_shape
    from gpusim.games.described.layout import tree
    from gpusim.games.described.solver import _nodes, node_index

    d = rules.game_def
    shape = community_shape(d)
    points = tree(d)
    nodes = _nodes(d)
    local = {i: by.index(i) for by in node_index(d).values() for i in by}
    to_local = jnp.asarray([local.get(i, 0) for i in range(len(nodes))], jnp.int32)
    consts: dict = {"binom": jnp.asarray(_BINOM), "pair": jnp.asarray(_pair_classes()),
                    "new_suit": jnp.asarray(PERMUTATIONS.astype(np.int32).ravel())}
    for k in (3, 5):
        if k in shape.level or (k == 3 and 4 in shape.level):
            b = board_classes(k)
            consts[f"class{k}"] = jnp.asarray(b.raw_class, jnp.int32)
            consts[f"perm{k}"] = jnp.asarray(b.raw_perm, jnp.int32)
    packed = {k: jnp.asarray(_actions(tables[f"{p.name}/{name}"], shape.level[k],
                                      len(p.actions)))
              for k, p in enumerate(points)}
    two = {k: shape.level[k] > 0 and len(p.actions) == 2 for k, p in enumerate(points)}

    def key(seen, level: int):
        c = consts
        if level == 0:
            return c["pair"][seen[:, 0] * 52 + seen[:, 1]]
        # the turn is read in the flop's suits: its decision may depend on which cards are
        # the flop (a hand of the hole cards and the flop)
        by = 3 if level == 4 else level
        idx = _colex(seen[:, 2: 2 + by], c["binom"])
        cls, perm = c[f"class{by}"][idx], c[f"perm{by}"][idx]

        def moved(cards):
            return ((cards >> 2) << 2) | c["new_suit"][perm[:, None] * 4 + (cards & 3)]

        hole = moved(seen[:, :2])
        hi, lo = jnp.maximum(hole[:, 0], hole[:, 1]), jnp.minimum(hole[:, 0], hole[:, 1])
        if level == 4:
            cls = cls * 52 + moved(seen[:, 5:6])[:, 0]
        return cls * 1326 + (hi * (hi - 1)) // 2 + lo

    def read(k: int, row, at):
        t = packed[k]
        if two[k]:
            return ((t[row, at >> 3] >> (at & 7)) & 1).astype(jnp.int32)
        return t[row, at].astype(jnp.int32)

    def actions_to(seen, k: int):
        n = seen.shape[0]
        node_at = {0: jnp.zeros(n, jnp.int32)}
        act = jnp.zeros(n, jnp.int32)
        for j in range(k + 1):
            here = node_at.get(j, jnp.full(n, -1, jnp.int32))
            width = 2 + shape.level[j]
            act = read(j, to_local[jnp.maximum(here, 0)], key(seen[:, :width], shape.level[j]))
            if j == k:
                break
            advance(nodes, j, here, act, node_at)
        return act

    return {p.name: (lambda seen, k=k: actions_to(jnp.asarray(seen, jnp.int32), k))
            for k, p in enumerate(points)}


class CommunityTables:
    """The ``table_strategy_class`` of community games: :meth:`load` gives a Strategy."""

    @classmethod
    def load(cls, name: str, rules) -> RuleStrategy:
        tables = stored_tables(rules)
        if tables is None:
            raise FileNotFoundError(
                f"no decision tables for config {rules.name!r} (hash {rules.config_hash[:12]}); "
                f"run `gpusim exact {rules.name}` to solve them")
        from gpusim.games.described.layout import tree

        fns = point_functions(rules, tables, name)
        rules_fn = PointRules(tree(rules.game_def), fns, gather=True)
        return RuleStrategy(name, rules.game, rules_fn,
                            "exact: the best action at every point, given the cards seen and "
                            "the bets placed")
