"""Starting hands in the order a strategy card reads them, strongest first, and runs of hands
that decide alike folded into one row.

The exact reports list a first decision's hands by their best EV (ties by name), so the hands
every strategy folds, all at the same EV, come in string order (``high card 7-5``, ``7-6``,
``8-5`` .. ``A-6``, ``A-7``, ``A-J``, ``A-Q``, ``A-T``). :func:`strength` reads a label as the
exact report writes it (:func:`gpusim.games.described.exact_report.starting_label`, the hold'em
reports' ``AKs``) and ranks it; :func:`runs` and :func:`run_label` fold a run of consecutive
rows with one decision into a row such as ``high card below A-K``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from gpusim.cards import RANKS

__all__ = ["by_strength", "run_label", "runs", "strength"]

T = TypeVar("T")

# five-card categories, weakest first (the exact reports' names)
_CATEGORIES = ("high card", "pair", "two pair", "three of a kind", "straight", "flush",
               "full house", "four of a kind", "straight flush", "royal flush")
# four cards that make no rank group: what they draw to, weakest first, above a plain high card
_DRAWS = ("four to an inside straight", "four to an outside straight", "four to a flush",
          "four to a straight flush")
_RANK = {r: i for i, r in enumerate(RANKS)}
_PAIR = re.compile(r"^pair of ([2-9TJQKA])s$")
_HIGH = re.compile(r"^high card ([2-9TJQKA](?:-[2-9TJQKA])*)$")
_SHORT = re.compile(r"^([2-9TJQKA]{2,3})(s|o)?$")


def strength(label: str) -> tuple | None:
    """A sort key of a starting hand's label, larger for a stronger hand; None for a label of
    no known form. A two- or three-card label (``AKs``, ``72``, ``QQ4``, ``Q64s``) ranks as
    those cards alone (three cards as Three Card Poker ranks them: a straight flush, three of a
    kind, a straight, a flush, a pair, high cards); a named hand (``pair of 9s``, ``high card
    A-K``, ``flush``) by the five-card categories, a four-card draw between a pair and a high
    card. Within a class, the ranks that name the hand decide, high card first."""
    m = _SHORT.match(label)
    if m:
        return _short(m[1], m[2] == "s")
    m = _PAIR.match(label)
    if m:
        return (1, 0, (_RANK[m[1]],))
    m = _HIGH.match(label)
    if m:
        return (0, 0, tuple(_RANK[r] for r in m[1].split("-")))
    if label in _DRAWS:
        return (0, 1 + _DRAWS.index(label), ())
    if label in _CATEGORIES:
        return (_CATEGORIES.index(label), 0, ())
    return None


def _short(ranks: str, suited: bool) -> tuple | None:
    r = sorted((_RANK[c] for c in ranks), reverse=True)
    if len(r) == 2:
        if r[0] == r[1]:
            return None if suited else (1, 0, tuple(r))
        return (0, 0, tuple(r), int(suited))
    if r[0] == r[2]:
        return None if suited else (4, 0, (r[0],))
    if r[0] == r[1] or r[1] == r[2]:  # a pair, then its kicker
        pair, kicker = (r[1], r[2] if r[0] == r[1] else r[0])
        return None if suited else (1, 0, (pair, kicker))
    straight = r[0] - r[2] == 2 or r == [12, 1, 0]  # A-2-3 is the lowest straight
    top = (1,) if r == [12, 1, 0] else (r[0],)
    if straight:
        return (5 if suited else 3, 0, top)
    return (2 if suited else 0, 0, tuple(r))


def by_strength(items: Sequence[T], label: Callable[[T], str],
                then: Callable[[T], Any] | None = None) -> list[T]:
    """``items`` strongest hand first (``then`` orders the items of one hand), or as given
    when a label is of no known form (its place in the order would be a guess)."""
    found = {id(x): strength(label(x)) for x in items}
    keys = {i: k for i, k in found.items() if k is not None}
    if len(keys) < len(found):
        return list(items)
    ordered = sorted(items, key=then) if then else list(items)
    # a stable sort, reversed: the items of one hand keep ``then``'s order
    return sorted(ordered, key=lambda x: keys[id(x)], reverse=True)


def runs(decisions: Sequence[object | None]) -> list[tuple[int, int]]:
    """``[(start, stop), ...]``: the rows cut into runs of consecutive equal decisions. A None
    decision (a row that does not decide one way) is a run of its own."""
    out: list[tuple[int, int]] = []
    start = 0
    for i in range(1, len(decisions) + 1):
        if i == len(decisions) or decisions[i] is None or decisions[i] != decisions[start]:
            out.append((start, i))
            start = i
    return out


def run_label(labels: Sequence[str], start: int, stop: int) -> str:
    """The name of rows ``start:stop`` of hands ordered strongest first: the hand itself, "X
    or better" from the top, "below X" to the bottom (``high card below A-K``: the hand above
    the run names where it starts), "every hand", else "X to Y" (``pair of 5s to 2s``)."""
    first, last = labels[start], labels[stop - 1]
    if stop - start == 1:
        return first
    top, bottom = start == 0, stop == len(labels)
    if top and bottom:
        return "every hand"
    if top:
        return f"{last} or better"
    if bottom:
        above = labels[start - 1]
        prefix = _shared_prefix(above, first)
        return f"{prefix}below {above[len(prefix):]}" if prefix else f"{first} or worse"
    prefix = _shared_prefix(first, last)
    return f"{first} to {last[len(prefix):]}"


def _shared_prefix(a: str, b: str) -> str:
    """The words two labels of one class start with (``high card ``, ``pair of ``), or ''."""
    for m in (_HIGH.match(a) and _HIGH.match(b) and "high card ",
              _PAIR.match(a) and _PAIR.match(b) and "pair of "):
        if m:
            return m
    return ""
