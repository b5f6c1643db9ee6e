"""A round's decisions as a small tree of actions: :class:`DecisionPoint` and :class:`Action`.

A game's decisions are a tuple of points, the first the root. Each point offers two or more
actions; an action places stakes (``{bet: multiple of the base unit}``) and leads to another
point, or ends the decisions (``next=None``; a fold also sets ``folds``). A point names the card
columns (of the dealt ``(N, 9)`` round) it may see, so a decision function given only those
columns cannot read a card that is not dealt yet.

A strategy answers every point of every round with an action index (a small int, ``(N,)``);
the tree decides which points a round reached, which answers count, and what each bet's stake
is. Points come in an order where every ``next`` names a later point, so one pass from the root
settles reach. Several actions may lead to one point (Hold'em Bonus: a Turn bet or check both go
on to the River), so the "tree" is a small DAG.

The array functions use operators and ``astype`` only, so they take numpy and JAX arrays alike
(and run inside a jitted settlement). Action index order is the tree's order; the ``decisions``
tables list a point's actions from the last (the most committal: bet, call, Play 4x) to the
first (check, fold), the order the reports have always shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "Action",
    "DecisionPoint",
    "action_paths",
    "check_tree",
    "count_taken",
    "decide_points",
    "legal_mask",
    "placed_multiples",
    "reached",
    "taken",
    "visible",
]


@dataclass(frozen=True)
class Action:
    """One answer at a decision point.

    ``stakes``: {bet: multiple of the config's base unit this action places} ({} for a check or
    a fold); ``next``: the point it leads to, or None (no more decisions this round); ``folds``:
    the round ends in a fold (the game's settlement gives the fold events).
    """

    name: str
    stakes: Mapping[str, int] = field(default_factory=dict)
    next: str | None = None
    folds: bool = False


@dataclass(frozen=True)
class DecisionPoint:
    """A point of the decision tree: its ``actions`` (a strategy returns the index of one) and
    the card columns ``sees`` of the dealt round (``(N, 9)``: player 0:2, dealer 2:4, board 4:9)
    its decision may read."""

    name: str
    actions: tuple[Action, ...]
    sees: tuple[int, ...]

    def index(self, action: str) -> int:
        """The index of the action named ``action``."""
        return [a.name for a in self.actions].index(action)

    @property
    def action_names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.actions)


def check_tree(points: Sequence[DecisionPoint], n_cards: int = 9) -> None:
    """ValueError (one line) unless ``points`` is a decision tree: unique names, two or more
    distinct actions per point, every ``next`` a later point, every point after the root
    reached by some action, and ``sees`` within the ``n_cards`` card columns of a round."""
    names = [p.name for p in points]
    if not points or len(set(names)) != len(names):
        raise ValueError(f"decisions: point names {names} must be one or more, all different")
    led_to: set[str] = set()
    for i, p in enumerate(points):
        acts = p.action_names
        if len(acts) < 2 or len(set(acts)) != len(acts):
            raise ValueError(f"decisions: point {p.name!r} has actions {list(acts)}; it needs "
                             "two or more, all different")
        if not p.sees or any(not 0 <= c < n_cards for c in p.sees):
            raise ValueError(f"decisions: point {p.name!r} sees columns {p.sees}; allowed: "
                             f"one or more of 0..{n_cards - 1}")
        for a in p.actions:
            if a.next is not None and a.next not in names[i + 1 :]:
                raise ValueError(f"decisions: action {p.name}/{a.name} leads to {a.next!r}; "
                                 f"allowed: a later point ({', '.join(names[i + 1:]) or 'none'})")
            if a.folds and a.next is not None:
                raise ValueError(f"decisions: fold {p.name}/{a.name} must end the decisions")
            if any(m < 0 for m in a.stakes.values()):
                raise ValueError(f"decisions: action {p.name}/{a.name} stakes {dict(a.stakes)}; "
                                 "multiples must be >= 0")
            if a.next is not None:
                led_to.add(a.next)
    unreached = [n for n in names[1:] if n not in led_to]
    if unreached:
        raise ValueError(f"decisions: points {unreached} are not reached by any action")


def reached(points: Sequence[DecisionPoint], actions: Mapping[str, Any]) -> dict[str, Any]:
    """{point: (N,) bool}: the rounds that reach each point, given every point's answers
    ``actions`` ({point: (N,) int}; answers at points a round does not reach are ignored).

    Where every action of a point leads to the same next point (Hold'em Bonus: a Turn bet or
    check both go on to the River), reaching it does not depend on the answer, so it is not
    read: in a compiled batch the later point's settlement then does not wait on (or recompute)
    the earlier point's lookup. An answer outside a point's actions is an error
    (:func:`count_taken` says so); such a round reaches that next point all the same.
    """
    root = actions[points[0].name]
    out = {points[0].name: root == root}
    for p in points[1:]:
        out[p.name] = root != root
    for p in points:
        a, r = actions[p.name], out[p.name]
        leads: dict[str, list[int]] = {}
        for i, act in enumerate(p.actions):
            if act.next is not None:
                leads.setdefault(act.next, []).append(i)
        for nxt, idx in leads.items():
            hit = r
            if len(idx) < len(p.actions):
                hit = r & (a == idx[0])
                for i in idx[1:]:
                    hit = hit | (r & (a == i))
            out[nxt] = out[nxt] | hit
    return out


def decide_points(points: Sequence[DecisionPoint], fns: Mapping[str, Any], cards, *,
                  gather: bool = False) -> dict:
    """{point: (N,) int8 action index}: each point's ``fns[point](visible)``, where ``visible``
    is ``cards[:, point.sees]`` (``(N, len(sees))``, built as :func:`visible` with ``gather``),
    so a decision function is never handed a card its point may not see. cards: (N, 9) int32,
    numpy or JAX."""
    return {p.name: fns[p.name](visible(cards, p.sees, gather=gather)).astype("int8")
            for p in points}


def visible(cards, sees: tuple[int, ...], *, gather: bool = False):
    """``cards[:, sees]`` (numpy or JAX); the same values either way, built for XLA's CPU
    backend in one of two ways (``python benchmarks/simulate.py`` measures them):

    - ``gather=False``: static slices, joined. XLA fuses them into the elementwise work that
      follows (Hold'em Bonus's per-street rules and table lookups lost about a fifth of their
      rate to a gather), but work that reads the (N, k) whole (the evaluator, reductions over
      the cards) may then read it strided from a row-major array.
    - ``gather=True``: a gather with constant indices, which XLA writes once as a column-major
      (N, k) array; the evaluator and the reductions then read contiguous columns (Casino
      Hold'em's strategies and its AA Bonus lost 8-15 % of their rate without it).

    A point that sees two cards is sliced either way: its gather was fused into the
    settlement's loop and kept that from being vectorized (Texas Hold'em Bonus's described
    ``basic``). A hand read by a strategy and by the settlement
    (:func:`gpusim.games.base.first_five`) is evaluated once only when both build it the same
    way."""
    if gather and len(sees) > 2:
        return cards[:, list(sees)]
    runs: list[list[int]] = []
    for c in sees:
        if runs and c == runs[-1][1]:
            runs[-1][1] = c + 1
        else:
            runs.append([c, c + 1])
    parts = [cards[:, a:b] for a, b in runs]
    if len(parts) == 1:
        return parts[0]
    if type(cards).__module__.startswith("numpy"):
        import numpy as np

        return np.concatenate(parts, axis=1)
    import jax.numpy as jnp

    return jnp.concatenate(parts, axis=1)


def taken(points: Sequence[DecisionPoint], actions: Mapping[str, Any]) -> dict[str, Any]:
    """{point: (N,) int32}: the action taken at each point, -1 where the round did not reach it."""
    r = reached(points, actions)
    return {p.name: (actions[p.name].astype("int32") + 1) * r[p.name] - 1 for p in points}


def legal_mask(points: Sequence[DecisionPoint], actions: Mapping[str, Any]) -> dict[str, Any]:
    """{point: (N, k) bool}, ``k`` the most actions of any point: the actions a round may take
    at each point (all of the point's actions where it is reached, none elsewhere)."""
    k = max(len(p.actions) for p in points)
    r = reached(points, actions)
    out = {}
    for p in points:
        n_act = len(p.actions)
        cols = [r[p.name] & (j < n_act) for j in range(k)]
        out[p.name] = _stack(cols)
    return out


def _stack(cols: list) -> Any:
    """Stack (N,) arrays into (N, k), numpy or JAX as given."""
    if type(cols[0]).__module__.startswith("numpy"):
        import numpy as np

        return np.stack(cols, axis=-1)
    import jax.numpy as jnp

    return jnp.stack(cols, axis=-1)


def placed_multiples(points: Sequence[DecisionPoint], actions: Mapping[str, Any]) -> dict:
    """{bet: (N,) int32 multiple of the base unit}: every bet some action may place, summed
    over the actions the round took (0 where it placed none)."""
    t = taken(points, actions)
    out: dict[str, Any] = {}
    for p in points:
        for i, act in enumerate(p.actions):
            for bet, m in act.stakes.items():
                add = (t[p.name] == i).astype("int32") * m
                out[bet] = out[bet] + add if bet in out else add
    return out


def count_taken(points: Sequence[DecisionPoint], taken_: Mapping[str, Any], weight=None) -> dict:
    """``{point: {action: count}}`` (numpy, host side) from ``taken_`` ({point: (n,) int, -1 =
    not reached}) with optional ``weight`` (n,) per row (a joint code's round count). Every
    action of a point is listed (0 included), last action first (see the module docstring).
    ValueError if a reached point holds an index that is not one of its actions."""
    import numpy as np

    out: dict[str, dict[str, int]] = {}
    for p in points:
        a = np.asarray(taken_[p.name]).astype(np.int64).reshape(-1)
        bad = (a < -1) | (a >= len(p.actions))
        if bad.any():
            raise ValueError(f"decisions: point {p.name!r} answered {int(a[bad][0])}; allowed: "
                             f"0..{len(p.actions) - 1} ({', '.join(p.action_names)})")
        w = np.ones(a.size, np.int64) if weight is None else np.asarray(weight, np.int64)
        c = np.zeros(len(p.actions), np.int64)
        np.add.at(c, a[a >= 0], w.reshape(-1)[a >= 0])
        out[p.name] = {act.name: int(c[i]) for i, act in reversed(list(enumerate(p.actions)))}
    return out


def action_paths(points: Sequence[DecisionPoint]) -> list[tuple[dict[str, int], dict[str, int]]]:
    """Every way through the tree: ``[(taken {point: action index, -1 = not reached}, placed
    {bet: multiple})]``, in depth-first order of the action indexes."""
    by_name = {p.name: p for p in points}
    out: list[tuple[dict[str, int], dict[str, int]]] = []

    def walk(name: str | None, took: dict[str, int], placed: dict[str, int]) -> None:
        if name is None:
            out.append(({p.name: took.get(p.name, -1) for p in points}, placed))
            return
        for i, act in enumerate(by_name[name].actions):
            more = dict(placed)
            for bet, m in act.stakes.items():
                more[bet] = more.get(bet, 0) + m
            walk(act.next, {**took, name: i}, more)

    walk(points[0].name, {}, {})
    return out
