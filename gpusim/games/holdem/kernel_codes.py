"""What a shape's CUDA kernel counts, read as a description's joint codes.

A kernel counts codes of its own (a few hundred, fixed when it was written); a described game
of its shape has joint codes of the description's layout (:mod:`gpusim.games.described.layout`).
A kernel's ``code_map`` sends each kernel code to one joint code. Where the kernel merges
outcomes the description may tell apart (a tie whether or not the dealer qualified, the
showdown behind a fold, a category no bet of the round reads), the map names every joint code
the kernel code stands for, and :func:`checked_map` refuses a config whose offered bets settle
any of them apart (so the counts decoded from the kernel are the JAX settlement's exactly).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

__all__ = ["checked_map", "joint_code", "kernel_rule_code", "path_index", "playable_layout",
           "rename_actions", "rule_code_by_place", "rule_code_of"]


def playable_layout(rules, refusal, kernel: str):
    """The description's layout (:func:`gpusim.games.described.layout.layout`) where the
    ``kernel`` plays the game; ValueError (one line) naming why not, ``refusal(description)``
    (None where it plays)."""
    from gpusim.games.described.layout import layout

    d = rules.game_def
    why = refusal(d)
    if why is not None:
        raise ValueError(f"game {d.name!r}: the {kernel} kernel cannot play it: {why}")
    return layout(d)


def path_index(lay, d, took: Sequence[int]) -> int:
    """The layout's index of the way through the tree that takes ``took`` (an action index per
    decision point, -1 not reached)."""
    names = [p.name for p in d.points]
    for i, (path, _) in enumerate(lay.paths):
        if [path[n] for n in names] == list(took):
            return i
    raise ValueError(f"game {d.name!r}: no way through its decisions takes {list(took)}")


def joint_code(lay, path: int, showdown: int, classes: dict[str, int]) -> int:
    """The joint code of (path, showdown, {class hand: class}) (the layout's radices)."""
    code = path * lay.n_showdown + showdown
    for h in lay.class_hands:
        code = code * len(lay.class_names[h]) + classes[h]
    return code


def checked_map(rules, stands_for: Sequence[Sequence[int]], kernel: str) -> np.ndarray:
    """(K,) int64: per kernel code the first joint code it ``stands_for`` (the joint codes the
    kernel does not tell apart; a code the kernel never writes stands for one). ValueError,
    one line, where an offered bet's event or stake differs between the codes one stands for."""
    from gpusim.games.described.layout import layout, offered_bets

    d = rules.game_def
    lay = layout(d)
    for bet in offered_bets(rules):
        ev, mult = lay.event_of[bet], lay.multiple_of[bet]
        for alike in stands_for:
            first = alike[0]
            if any(ev[c] != ev[first] or mult[c] != mult[first] for c in alike[1:]):
                names = lay.events[bet]
                seen = sorted({names[ev[c]] for c in alike})
                raise ValueError(
                    f"game {d.name!r}: bet {bet!r} settles outcomes the {kernel} kernel does "
                    f"not tell apart differently ({', '.join(seen)}); use --backend jax-gpu")
    return np.array([alike[0] for alike in stands_for], np.int64)


def kernel_rule_code(rules, strategy, texts: dict[int, dict[str, list[str]]]) -> int | None:
    """The kernel's strategy code whose rules (``texts``: {code: {point: [rule as a TOML inline
    table, in the description's action names]}}) are, condition for condition, the described
    rule strategy's; None for a strategy that is not the config's game's, or whose rules are
    none of them."""
    import tomllib

    from gpusim.games.described.sections import parse_strategies
    from gpusim.rules import ConfigReader

    d = rules.game_def
    name = getattr(strategy, "name", None)
    if getattr(strategy, "game", d.name) != d.name:
        return None
    mine = next((s[2] for s in d.strategies if s[0] == name), None)
    if mine is None:
        return None
    for code, per_point in texts.items():
        body = {p: tomllib.loads(f"r = [{', '.join(rules_)}]")["r"]
                for p, rules_ in per_point.items()}
        parsed = parse_strategies(ConfigReader("the kernel's rules"),
                                  {"strategies": {"kernel": body}}, d)
        if parsed[0][2] == mine:
            return code
    return None


def rename_actions(rule: str, names: dict[str, str]) -> str:
    """A rule written in the kernel's action names (``'call'``, quoted) in a description's,
    in one pass (a description may give one action another's kernel name)."""
    pattern = "|".join(re.escape(f"'{k}'") for k in names)
    return re.sub(pattern, lambda m: repr(names[m.group(0)[1:-1]]), rule)


def rule_code_by_place(rules, strategy, kernel_of, kernel_rules: dict, points: Sequence[str],
                       actions: Sequence[Sequence[str]]) -> int | None:
    """:func:`kernel_rule_code` for rule lists written in the kernel's point and action names
    (``kernel_rules``: {code: {kernel point: [rule]}}; ``points``, ``actions``: the kernel's
    tree), matched to the description's points and actions by their place in the tree; None
    for a game the kernel does not play (``kernel_of(description)`` None)."""
    d = rules.game_def
    if d is None or kernel_of(d) is None:
        return None
    texts: dict = {}
    for code, text in kernel_rules.items():
        texts[code] = {}
        for point, kernel_point, kernel_names in zip(d.points, points, actions, strict=True):
            names = {k: a.name for k, a in zip(kernel_names, point.actions, strict=True)}
            texts[code][point.name] = [rename_actions(r, names) for r in text[kernel_point]]
    return kernel_rule_code(rules, strategy, texts)


def rule_code_of(kernel_of, kernel_rules: dict, points: Sequence[str],
                 actions: Sequence[Sequence[str]]):
    """A kernel binding's ``rule_code(rules, strategy) -> int | None``: the kernel's strategy
    code of a described rule strategy whose rules are, condition for condition, one of
    ``kernel_rules`` (the actions matched by their place in the tree,
    :func:`rule_code_by_place`); None for any other."""

    def rule_code(rules, strategy) -> int | None:
        return rule_code_by_place(rules, strategy, kernel_of, kernel_rules, points, actions)

    return rule_code
