"""Starting-hand paytables: a hand of ``ranking = "starting_hand"`` (two cards) is paid on
lines of starting-hand ranges, and a line may also need the dealer's two cards to be in a range
(Texas Hold'em Bonus's "AA, and the dealer holds AA too"):

.. code-block:: toml

    [game.hands.hole]
    cards = ["player"]
    ranking = "starting_hand"

    [game.lines]
    AA_vs_dealer_AA = { hands = "AA", dealer_hands = "AA" }
    AA = { hands = "AA" }
    AQs_AJs = { hands = "AQs, AJs" }

A hand is paid by the first line of its paytable it is on (so ``AA_vs_dealer_AA`` before
``AA``); a hand on none gets the paytable's ``otherwise``. With ``event_names = "hand"`` each
event names the starting hand (``AQs``; on a line with ``dealer_hands``, ``AA_vs_AA``: the
player's hand, ``_vs_``, the dealer's), else the line. Reading and the numpy tables live here
(no JAX); :func:`starting_class` is the settlement's JAX part.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import numpy as np

from gpusim.cards import RANKS
from gpusim.rules import ConfigReader

__all__ = ["LINE_NAME", "cell_name", "classes", "parse_line", "starting_class"]

LINE_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
"""A starting-hand line's name: letters (either case: ``AKs``), digits and ``_``."""


def cell_name(cell: int) -> str:
    """A grid cell (:func:`gpusim.games.described.conditions.parse_hand_range`) as poker
    players write it: ``AA``, ``AKs``, ``AKo``."""
    a, b = divmod(cell, 13)
    if a == b:
        return RANKS[a] * 2
    hi, lo = max(a, b), min(a, b)
    return f"{RANKS[hi]}{RANKS[lo]}{'s' if a < b else 'o'}"


def parse_line(r: ConfigReader, spec: dict, w: str, name: str, d) -> tuple:
    """``(hands, dealer_hands)`` grid cells of a line ``{ hands = "...", dealer_hands = "..."
    }`` (the range notation of ``hand_in``)."""
    from gpusim.games.described.conditions import parse_hand_range

    if not LINE_NAME.match(name):
        raise r.fail(w, f"the name {name!r} is not allowed; a line's name is letters, digits "
                        "and '_', starting with a letter")
    for key in ("category", "ranks", "categories"):
        if key in spec:
            raise r.fail(f"{w}.{key}", "not allowed with 'hands' (a line of starting hands "
                                       "names no category)")
    if not any(h.ranking == "starting_hand" for h in d.hands):
        raise r.fail(f"{w}.hands", "not allowed: no hand of the game has ranking = "
                                   "'starting_hand'")
    hands = parse_hand_range(r, spec["hands"], f"{w}.hands")
    dealer: tuple[int, ...] = ()
    if "dealer_hands" in spec:
        if d.dealer != 2 or d.dealer_up:
            raise r.fail(f"{w}.dealer_hands", f"not allowed: the game deals the dealer "
                                              f"{d.dealer} cards ({d.dealer_up} face up); a "
                                              "dealer's starting hand is two face-down cards")
        dealer = parse_hand_range(r, spec["dealer_hands"], f"{w}.dealer_hands")
    if any(cell_name(c) == name for c in range(169)) and (
            hands != (next(c for c in range(169) if cell_name(c) == name),) or dealer):
        raise r.fail(f"{w}.hands", f"value {spec['hands']!r} is not allowed: a line named "
                                   f"after the starting hand {name!r} holds that hand only")
    return hands, dealer


def check_paytable(r: ConfigReader, d, w: str, hand: str, lines: list) -> None:
    """A starting-hand paytable: its lines are lines of starting hands, each paying some hand
    no earlier line takes, and it is the only paytable of its hand."""
    of = {ln.name: ln for ln in d.lines if ln.hands}
    bad = [ln for ln in lines if ln not in of]
    if bad:
        raise r.fail(f"{w}.lines", f"line {bad[0]!r} is not allowed for a starting_hand hand; "
                                   f"allowed: {', '.join(of) or 'none (game.lines with hands)'}")
    taken: set[int] = set()
    for ln in lines:
        line = of[ln]
        if set(line.hands) <= taken:
            raise r.fail(f"{w}.lines", f"line {ln!r} never pays: every hand of it is on an "
                                       "earlier line; list the line with dealer_hands first")
        if not line.dealer_hands:
            taken |= set(line.hands)
    if any(p.hand == hand for p in d.paytables):
        raise r.fail(f"{w}.hand", f"value {hand!r} is not allowed: another paytable reads it; "
                                  "a starting_hand hand is read by one paytable")


@cache
def _tables(d, hand: str) -> tuple[tuple[tuple[str, str], ...], np.ndarray, np.ndarray]:
    pt = next(p for p in d.paytables if p.hand == hand)
    of = {ln.name: ln for ln in d.lines}
    dealer_cells = sorted({c for ln in pt.lines for c in of[ln].dealer_hands})
    group = np.zeros(169, np.int32)  # a dealer cell's group: 0 none, k the k-th cell named
    for k, c in enumerate(dealer_cells, 1):
        group[c] = k
    n_groups = 1 + len(dealer_cells)
    keys: dict[tuple, int] = {}
    names: list[tuple[str, str]] = []
    table = np.zeros(169 * n_groups, np.int32)
    other = ("other", "")
    for cell in range(169):
        for g in range(n_groups):
            key: tuple = other
            name = other
            for ln in pt.lines:
                line = of[ln]
                if cell not in line.hands:
                    continue
                if line.dealer_hands:
                    if g and dealer_cells[g - 1] in line.dealer_hands:
                        vs = f"{cell_name(cell)}_vs_{cell_name(dealer_cells[g - 1])}"
                        key, name = (ln, cell, g), (vs, ln)
                        break
                    continue
                key, name = (ln, cell), (cell_name(cell), ln)
                break
            if key not in keys:
                keys[key] = len(names)
                names.append(name)
            table[cell * n_groups + g] = keys[key]
    # "other" last, whatever cell met it first
    if other in keys:
        k = keys[other]
        order = [i for i in range(len(names)) if i != k] + [k]
        new = np.empty(len(names), np.int32)
        new[order] = np.arange(len(names), dtype=np.int32)
        table, names = new[table], [names[i] for i in order]
    return tuple(names), table, group


def classes(d, hand: str, other: str) -> tuple[tuple[str, str], ...]:
    """The classes of a starting-hand hand: (event name, line) each, the hands on no line
    last as (``other``, "")."""
    return tuple((other if n == "other" and ln == "" else n, ln)
                 for n, ln in _tables(d, hand)[0])


def starting_class(cards: Any, d, hand: str) -> Any:
    """(N,) int32 class of each round's starting hand (JAX)."""
    import jax.numpy as jnp

    from gpusim.games.described.condition_eval import lookup

    _, table, group = _tables(d, hand)
    n_groups = len(table) // 169

    def cell(cols):
        # the two columns one by one: picked by a list, they are a gather, which keeps XLA
        # from vectorizing the loop this joins (Texas Hold'em Bonus's whole settlement)
        a, b = (cards[:, c] for c in cols)
        ra, rb = a >> 2, b >> 2
        hi, lo = jnp.maximum(ra, rb), jnp.minimum(ra, rb)
        return jnp.where((a & 3) == (b & 3), lo * 13 + hi, hi * 13 + lo)

    idx = cell(d.hand(hand).columns) * n_groups
    if n_groups > 1:
        idx = idx + lookup(group, cell(d.columns["dealer"][:2]))
    return lookup(table, idx)


def starting_class_np(cards: np.ndarray, d, hand: str) -> np.ndarray:
    """(N,) int64 class of each round's starting hand, ``cards (N, C)`` in the game's columns
    (NumPy, for the exact solver; a line that also reads the dealer's hand is not counted
    there: :func:`gpusim.games.described.layout.shape_of` refuses it)."""
    _, table, group = _tables(d, hand)
    assert len(table) == 169, "a line with dealer_hands: the solver does not count it"
    a, b = (cards[:, c].astype(np.int64) for c in d.hand(hand).columns)
    ra, rb = a >> 2, b >> 2
    hi, lo = np.maximum(ra, rb), np.minimum(ra, rb)
    return table[np.where((a & 3) == (b & 3), lo * 13 + hi, hi * 13 + lo)].astype(np.int64)
