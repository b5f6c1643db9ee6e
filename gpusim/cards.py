"""Card codes, parsing and formatting, and the 169 starting-hand classes.

A card is one integer ``c`` in 0..51 with ``rank = c >> 2`` (0 = deuce .. 12 = ace) and
``suit = c & 3`` (0 = clubs, 1 = diamonds, 2 = hearts, 3 = spades). People see cards as
two-character strings such as ``As``, ``Td`` or ``7h``; ``10h`` is accepted as ``Th``.

Hand categories, low to high, are :data:`CATEGORY_KEYS` (the evaluator's nine, then the royal
flush that paytables single out).

Starting-hand classes are named the way players name them: ``AA`` (a pair, 6 combinations),
``AKs`` (suited, 4 combinations) and ``AKo`` (offsuit, 12 combinations), higher rank first.
Their order in :data:`HAND_CLASSES` is the 13x13 grid read row by row from the top left
(``AA, AKs, AQs, ..., A2s, AKo, KK, KQs, ...``): row = first rank, column = second rank,
suited above the diagonal and offsuit below it.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

__all__ = [
    "CATEGORY_KEYS",
    "HAND_CLASSES",
    "RANKS",
    "SUITS",
    "CardError",
    "class_combos",
    "class_members",
    "format_card",
    "format_cards",
    "hand_class",
    "hand_class_index",
    "parse_card",
    "parse_cards",
]

RANKS = "23456789TJQKA"
SUITS = "cdhs"
CATEGORY_KEYS = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
)
"""Five-card hand categories low to high, the one definition: index i < 9 is the evaluator's
category i (``gpusim.evaluator.CATEGORY_NAMES``), and 9 is the royal flush (an ace-high straight
flush), which several paytables single out."""


class CardError(ValueError):
    """A card string or card code that is not valid; the message is one line."""


def parse_card(text: str) -> int:
    """Parse one card such as ``"As"``, ``"td"`` or ``"10h"`` into its code 0..51."""
    if not isinstance(text, str):
        raise CardError(f"card {text!r}: expected a string like 'As', 'Td' or '7h'")
    s = text.strip()
    if s[:2] == "10":
        s = "T" + s[2:]
    rank = RANKS.find(s[0].upper()) if len(s) == 2 else -1
    suit = SUITS.find(s[1].lower()) if len(s) == 2 else -1
    if rank < 0 or suit < 0:
        raise CardError(
            f"unknown card {text!r}: expected a rank in {RANKS} (or 10) "
            f"followed by a suit in {SUITS}"
        )
    return rank * 4 + suit


def parse_cards(text: str | Iterable[str], *, distinct: bool = True) -> list[int]:
    """Parse cards from ``"As Kd Th"`` (spaces or commas) or from a list of strings.

    With ``distinct`` (the default) a card given twice is an error: one deck has one of each.
    """
    if isinstance(text, str):
        tokens = text.replace(",", " ").split()
    else:
        tokens = [t for item in text for t in str(item).replace(",", " ").split()]
    codes = [parse_card(t) for t in tokens]
    if distinct:
        seen: set[int] = set()
        for token, code in zip(tokens, codes, strict=True):
            if code in seen:
                raise CardError(
                    f"duplicate card {format_card(code)!r} (given as {token!r}): "
                    "each card may appear once in a 52-card deck"
                )
            seen.add(code)
    return codes


def format_card(code: int) -> str:
    """Format a card code 0..51 as ``"As"``."""
    c = int(code)
    if not 0 <= c < 52:
        raise CardError(f"card code {code!r}: expected an integer in 0..51")
    return RANKS[c >> 2] + SUITS[c & 3]


def format_cards(codes: Iterable[int]) -> str:
    """Format card codes as a space-separated string, ``"As Kd"``."""
    return " ".join(format_card(c) for c in codes)


def _class_name(r1: int, r2: int, suited: bool) -> str:
    hi, lo = max(r1, r2), min(r1, r2)
    if hi == lo:
        return RANKS[hi] * 2
    return RANKS[hi] + RANKS[lo] + ("s" if suited else "o")


def _grid() -> tuple[list[str], np.ndarray]:
    names: list[str] = []
    # lookup[r_hi_or_row, r_col]: grid cell -> class index; ranks counted from the ace down
    lookup = np.zeros((13, 13), dtype=np.int16)
    for i in range(13):
        for j in range(13):
            ri, rj = 12 - i, 12 - j
            if i == j:
                name = RANKS[ri] * 2
            elif i < j:
                name = RANKS[ri] + RANKS[rj] + "s"
            else:
                name = RANKS[rj] + RANKS[ri] + "o"
            lookup[i, j] = len(names)
            names.append(name)
    return names, lookup


_NAMES, CLASS_GRID = _grid()
HAND_CLASSES: tuple[str, ...] = tuple(_NAMES)
_CLASS_INDEX = {name: i for i, name in enumerate(HAND_CLASSES)}


def hand_class(c1: int, c2: int) -> str:
    """The starting-hand class of two distinct cards: ``"AA"``, ``"AKs"`` or ``"AKo"``."""
    a, b = int(c1), int(c2)
    format_card(a), format_card(b)  # validates the codes
    if a == b:
        raise CardError(f"hand {format_card(a)} {format_card(b)}: the two cards must differ")
    return _class_name(a >> 2, b >> 2, (a & 3) == (b & 3))


def hand_class_index(c1, c2) -> np.ndarray:
    """Vectorised class index 0..168 into :data:`HAND_CLASSES`.

    ``c1, c2``: int arrays of equal shape (...,) holding distinct card codes; returns (...,) int16.
    """
    a = np.asarray(c1, dtype=np.int32)
    b = np.asarray(c2, dtype=np.int32)
    ra, rb = a >> 2, b >> 2
    hi, lo = np.maximum(ra, rb), np.minimum(ra, rb)
    suited = (a & 3) == (b & 3)
    # suited hands sit above the diagonal (row = high rank), offsuit below (row = low rank)
    row = np.where(suited, 12 - hi, 12 - lo)
    col = np.where(suited, 12 - lo, 12 - hi)
    return CLASS_GRID[row, col]


def class_combos(name: str) -> int:
    """Number of two-card combinations in a class: 6 for a pair, 4 suited, 12 offsuit."""
    if name not in _CLASS_INDEX:
        raise CardError(
            f"unknown hand class {name!r}: expected a pair like 'AA' "
            "or two ranks plus s/o like 'AKs'"
        )
    if len(name) == 2:
        return 6
    return 4 if name[2] == "s" else 12


def class_members(name: str) -> list[tuple[int, int]]:
    """All two-card combinations (c1 > c2) of a class, e.g. 6 pairs of codes for ``"AA"``."""
    class_combos(name)  # validates
    out = []
    for c1 in range(52):
        for c2 in range(c1):
            if hand_class(c1, c2) == name:
                out.append((c1, c2))
    return out
