"""A described game's table strategy (``optimal``): the exact solver's decision tables
(:mod:`gpusim.games.described.solver`), read in JAX.

A point's table is indexed by (node, information set). The node is the way the round came to
the point (the actions taken before it: the best action may depend on the bets already
placed), and the information set is the player's cards by suit class
(:func:`gpusim.board_index.board_classes`) with every other card the point sees relabelled
into the class's suits. Each point's function is handed only its own columns; it recomputes
the earlier points' actions from the prefix of them those points saw, so the information
contract holds by construction.
"""

from __future__ import annotations

import math

import jax.numpy as jnp
import numpy as np

from gpusim.board_index import PERMUTATIONS, board_classes
from gpusim.strategy import PointRules, RuleStrategy
from gpusim.strategy.tables import stored_tables

__all__ = ["DescribedTables", "advance", "point_function"]

_BINOM = np.array([[math.comb(n, k) for k in range(8)] for n in range(53)], np.int32)


def _colex(cards, binom):
    """Colex index of each row's card set (N, m): sorted by a compare-exchange network."""
    c = [cards[:, i] for i in range(cards.shape[1])]
    for i in range(len(c)):
        for j in range(len(c) - 1 - i):
            c[j], c[j + 1] = jnp.minimum(c[j], c[j + 1]), jnp.maximum(c[j], c[j + 1])
    out = binom[c[0], 1]
    for i in range(1, len(c)):
        out = out + binom[c[i], i + 1]
    return out


def advance(nodes, j: int, here, act, node_at: dict) -> None:
    """Where each round goes after point ``j``: ``node_at[point]`` (the global node index at
    each later point, -1 where the round does not reach it) from the node ``here`` it was at
    and the action ``act`` it took there."""
    n = here.shape[0]
    for i, node in enumerate(nodes):
        if node.point != j:
            continue
        for a, (kind, child) in enumerate(node.children):
            if kind != "node":
                continue
            to = nodes[child].point
            hit = (here == i) & (act == a)
            node_at[to] = jnp.where(hit, child, node_at.get(to, jnp.full(n, -1, jnp.int32)))


def point_function(rules, packed: dict[int, np.ndarray]):
    """``fns[point](seen) -> (N,) int32`` action index for every point of a described game,
    from ``packed`` {point index: (n_nodes, n_keys) uint8 action}."""
    from gpusim.games.described.layout import shape_of, tree
    from gpusim.games.described.solver import _nodes, node_index

    d = rules.game_def
    shape = shape_of(d)
    points = tree(d)
    nodes = _nodes(d)
    local = {i: by.index(i) for by in node_index(d).values() for i in by}
    classes = board_classes(d.player)
    consts = {
        "binom": jnp.asarray(_BINOM),
        "raw_class": jnp.asarray(classes.raw_class, jnp.int32),
        "raw_perm": jnp.asarray(classes.raw_perm, jnp.int32),
        "new_suit": jnp.asarray(PERMUTATIONS.astype(np.int32).ravel()),
        "tables": {k: jnp.asarray(t) for k, t in packed.items()},
    }
    for k in packed:
        if packed[k].size >= 2**31:
            raise ValueError(f"point {points[k].name!r}: decision table too large to index")

    def key(seen, k: int):
        c = consts
        p = d.player
        hole = seen[:, :p]
        idx = _colex(hole, c["binom"])
        cls, perm = c["raw_class"][idx], c["raw_perm"][idx]
        out = cls
        at = p
        for _, m, _ in shape.stages[1: shape.seen[k]]:
            part = seen[:, at: at + m]
            relabelled = ((part >> 2) << 2) | c["new_suit"][perm[:, None] * 4 + (part & 3)]
            out = out * math.comb(52, m) + _colex(relabelled, c["binom"])
            at += m
        return out

    def actions_to(seen, k: int):
        """The action at point k, the earlier points' actions recomputed on their columns."""
        n = seen.shape[0]
        node_at = {0: jnp.zeros(n, jnp.int32)}  # the global node index at each point, -1 away
        act = jnp.zeros(n, jnp.int32)
        for j in range(k + 1):
            here = node_at.get(j, jnp.full(n, -1, jnp.int32))
            width = sum(m for _, m, _ in shape.stages[: shape.seen[j]])
            to_local = jnp.asarray([local.get(i, 0) for i in range(len(nodes))], jnp.int32)
            row = to_local[jnp.maximum(here, 0)]
            act = consts["tables"][j][row, key(seen[:, :width], j)].astype(jnp.int32)
            if j == k:
                break
            advance(nodes, j, here, act, node_at)
        return act

    return {p.name: (lambda seen, k=k: actions_to(jnp.asarray(seen, jnp.int32), k))
            for k, p in enumerate(points)}


def pack(rules, tables: dict[str, np.ndarray], name: str) -> dict[int, np.ndarray]:
    """{point index: (n_nodes, n_keys) uint8 action} from the solver's bool bit planes."""
    from gpusim.games.described.layout import tree

    out = {}
    for k, p in enumerate(tree(rules.game_def)):
        planes = tables[f"{p.name}/{name}"]
        weights = (1 << np.arange(planes.shape[-1])).astype(np.uint8)
        out[k] = (planes.astype(np.uint8) * weights).sum(axis=-1).astype(np.uint8)
    return out


class DescribedTables:
    """The ``table_strategy_class`` of described games: :meth:`load` gives a Strategy."""

    @classmethod
    def load(cls, name: str, rules) -> RuleStrategy:
        tables = stored_tables(rules)
        if tables is None:
            raise FileNotFoundError(
                f"no decision tables for config {rules.name!r} (hash {rules.config_hash[:12]}); "
                f"run `gpusim exact {rules.name}` to solve them")
        from gpusim.games.described.layout import tree

        fns = point_function(rules, pack(rules, tables, name))
        rules_fn = PointRules(tree(rules.game_def), fns, gather=True)
        return RuleStrategy(name, rules.game, rules_fn,
                            "exact: the best action at every point, given the bets placed")
