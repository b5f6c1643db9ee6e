"""The conditions a described rule strategy's rule may ask of the cards its point sees
(:data:`~gpusim.games.described.description.CONDITIONS`): reading and checking each one
(:func:`parse_condition`, one ConfigError line naming the key, the value and what is allowed)
and, for those beyond the first five, their JAX evaluation in
:mod:`.condition_eval` (this module imports no JAX: reading a config must not).

The cards a point sees are the player's own, the dealer's face-up ones, then the board dealt so
far. The player's *hand* at a point is the own cards and that board (never the up card):

- ``hand_in``: the two own cards are a starting hand of a range in the usual notation;
- ``category_in``: the hand's category (best five; fewer than five cards make high cards,
  pairs, two pair, trips and quads only) is one of a list;
- ``own_card_paired``: an own card's rank is there twice or more in the hand: a pocket pair,
  or an own card that the board pairs;
- ``beats_board``: the hand ranks strictly above the board's own best five (own cards play);
- ``suited_with_own``: ``cards`` or more of the hand share a suit, an own card of that suit
  ranking at least ``at_least``;
- ``dealer_outs_below``: fewer than N of the cards the point does not see each make, with the
  board, a hand that ranks strictly above the player's (a tie is not an out);
- ``run_with_own``: N or more consecutive ranks in the hand (an ace high or low: A-2-3-4 and
  J-Q-K-A), an own card's rank among them (four to a straight with a hole card: 4).
"""

from __future__ import annotations

import re
from typing import Any

from gpusim.cards import RANKS
from gpusim.games.described.description import (
    RANKINGS,
    Description,
    PointDef,
    _show,
    parse_hand_spec,
    parse_rank,
)
from gpusim.rules import ConfigReader

__all__ = ["FEW", "parse_condition", "parse_hand_range", "parse_rank"]

FEW = ("high_card", "pair", "two_pair", "three_of_a_kind", "four_of_a_kind")
"""The categories fewer than five poker cards can make."""
_RANGE_FORMS = ("expected starting hands separated by commas, such as '33+', '22-55', 'A2s+', "
                "'K5o+', 'JTo', 'AK', 'K9s-KJs'")
_R = "([2-9TJQKA])"
_ONE = re.compile(f"^{_R}{_R}([SO]?)(\\+?)$")
_SPAN = re.compile(f"^{_R}{_R}([SO]?)-{_R}{_R}([SO]?)$")


# --- reading -------------------------------------------------------------------------------------


def _hand_index(hi: int, lo: int, suited: bool) -> int:
    """A starting hand's cell of the 13 x 13 grid: suited hands above the diagonal, offsuit
    hands and pairs on and below it (the cell :func:`evaluate_condition` computes)."""
    return lo * 13 + hi if suited else hi * 13 + lo


def parse_hand_range(r: ConfigReader, text: Any, where: str) -> tuple[int, ...]:
    """A range of two-card starting hands as their grid cells (:func:`_hand_index`), sorted.

    ``RR`` a pair, ``RR+`` it and every higher pair, ``RR-SS`` the pairs between; ``XYs`` /
    ``XYo`` suited / offsuit (``XY``: both), the higher rank first; ``XYs+`` raises the lower
    card up to one below the higher (``Q6s+``: Q6s .. QJs); ``XYs-XZs`` the lower card between
    Y and Z. ``10`` is read as ``T``."""
    if not isinstance(text, str) or not text.strip():
        raise r.fail(where, f"value {_show(text)} is not allowed; {_RANGE_FORMS}")
    cells: set[int] = set()
    for raw in text.split(","):
        tok = raw.strip().upper().replace("10", "T")
        bad = r.fail(where, f"value {raw.strip()!r} in {text!r} is not allowed; {_RANGE_FORMS}")
        one, span = _ONE.match(tok), _SPAN.match(tok)
        if one:
            x, y, kind, plus = one.groups()
            hi, lo = RANKS.index(x), RANKS.index(y)
            if hi == lo:
                if kind:
                    raise bad
                cells |= {_hand_index(k, k, False) for k in range(hi, 13 if plus else hi + 1)}
                continue
            if lo > hi:  # the higher rank is written first
                raise bad
            los = range(lo, hi) if plus else (lo,)
        elif span:
            x, y, kind, x2, z, kind2 = span.groups()
            hi, lo, hi2, lo2 = (RANKS.index(c) for c in (x, y, x2, z))
            if kind != kind2 or (hi == lo) != (hi2 == lo2):
                raise bad
            if hi == lo:
                if kind:
                    raise bad
                a, b = sorted((hi, hi2))
                cells |= {_hand_index(k, k, False) for k in range(a, b + 1)}
                continue
            lo, top = sorted((lo, lo2))
            if hi2 != hi or top > hi:
                raise bad
            los = range(lo, top + 1)
        else:
            raise bad
        suits = (True,) if kind == "S" else (False,) if kind == "O" else (True, False)
        cells |= {_hand_index(hi, k, s) for k in los for s in suits}
    return tuple(sorted(cells))


def _player_ranking(d: Description, n_hand: int) -> str:
    """The ranking a point's hand is read in: three-card where the point sees exactly the
    player's three cards and a hand of them ranks three-card, else poker."""
    own = tuple(range(d.player))
    three = any(h.ranking == "three_card" and h.columns[: d.player] == own for h in d.hands)
    return "three_card" if n_hand == 3 and three else "poker"


def _true(r: ConfigReader, value: Any, where: str) -> bool:
    if value is not True:
        raise r.fail(where, f"value {_show(value)} is not allowed; allowed: true")
    return True


def _needs_up_card(r: ConfigReader, d: Description, where: str) -> None:
    if d.dealer_up < 1:
        raise r.fail(where, "not allowed: the dealer has no face-up card (game.cards.dealer_up)")


def parse_condition(r: ConfigReader, d: Description, point: PointDef, cond: str, value: Any,
                    w: str) -> Any:
    """A rule's condition ``cond = value`` at ``point``, read and checked; the result is
    hashable (a :class:`Description` keys compiled programs)."""
    n_board = sum(d.streets[: point.street])
    n_seen = d.player + n_board  # the player's hand at the point
    if cond == "at_least":
        if not isinstance(value, str):
            raise r.fail(w, f"value {value!r} is not allowed; expected a hand such as 'pair'")
        ranking = _player_ranking(d, n_seen)
        spec = parse_hand_spec(value, ranking, w, r)
        if n_seen < 5 and ranking == "poker" and RANKINGS["poker"][spec[0]] not in FEW:
            raise r.fail(w, f"value {value!r} is not allowed with {n_seen} cards seen; allowed: "
                            "high cards, pairs, two pair, trips and quads")
        return (ranking, *spec)
    if cond == "up_card_at_least":
        _needs_up_card(r, d, w)
        return parse_rank(r, str(value), w)
    if cond == "suited":
        if type(value) is not int or not 2 <= value <= n_seen:
            raise r.fail(w, f"value {_show(value)} is not allowed; expected 2..{n_seen} "
                            "(cards seen)")
        return value
    if cond in ("hidden_pair", "up_card_paired", "own_card_paired"):
        _true(r, value, w)
        if cond == "up_card_paired":
            _needs_up_card(r, d, w)
        if cond == "hidden_pair" and d.player < 2:
            raise r.fail(w, f"not allowed: the game deals the player {d.player} card "
                            "(game.cards.player); a pair of his own cards needs two or more")
        return True
    if cond == "hand_in":
        if d.player != 2:
            raise r.fail(w, f"not allowed: a starting hand is two cards and the game deals "
                            f"{d.player} player cards (game.cards.player)")
        return parse_hand_range(r, value, w)
    if cond == "category_in":
        ranking = _player_ranking(d, n_seen)
        cats = RANKINGS[ranking] if ranking == "three_card" or n_seen >= 5 else FEW
        if n_seen > 7:
            raise r.fail(w, f"not allowed at point {point.name!r}: the player's hand is {n_seen} "
                            "cards; a category is read from at most 7")
        if not isinstance(value, list) or not value or not all(
                isinstance(v, str) and v in cats for v in value) or len(set(value)) < len(value):
            raise r.fail(w, f"value {_show(value)} is not allowed; expected an array of distinct "
                            f"categories of {n_seen} {ranking} cards: {', '.join(cats)}")
        return (ranking, tuple(sorted(RANKINGS[ranking].index(v) for v in value)))
    if cond == "beats_board":
        _true(r, value, w)
        if not 5 <= n_board <= 7 or n_seen > 7:
            raise r.fail(w, f"not allowed at point {point.name!r}: it sees {n_board} board cards "
                            f"and {n_seen} player cards; needs 5 to 7 board cards and at most 7 "
                            "in the player's hand")
        return True
    if cond == "suited_with_own":
        if not isinstance(value, dict) or set(value) - {"cards", "at_least"} or type(
                value.get("cards")) is not int or not 2 <= value["cards"] <= n_seen:
            raise r.fail(w, f"value {_show(value)} is not allowed; expected a table {{ cards = "
                            f"N, at_least = R }}: N 2..{n_seen} (cards seen), R a rank "
                            "(optional, default 2)")
        return value["cards"], parse_rank(r, str(value.get("at_least", "2")), f"{w}.at_least")
    if cond == "dealer_outs_below":
        if type(value) is not int or not 1 <= value <= 52:
            raise r.fail(w, f"value {_show(value)} is not allowed; expected a whole number 1..52")
        if not d.dealer:
            raise r.fail(w, "not allowed: the game deals no dealer cards (game.cards.dealer)")
        if not 4 <= n_board <= 6 or not 5 <= n_seen <= 7:
            raise r.fail(w, f"not allowed at point {point.name!r}: it sees {n_board} board cards "
                            f"and {n_seen} player cards; needs 4 to 6 board cards and 5 to 7 in "
                            "the player's hand")
        return value
    if cond == "run_with_own":
        top = min(5, n_seen)
        if type(value) is not int or not 2 <= value <= top:
            raise r.fail(w, f"value {_show(value)} is not allowed; expected a whole number "
                            f"2..{top} (consecutive ranks, at most 5 and the {n_seen} cards "
                            "seen)")
        return value
    if cond == "win_chance":
        from gpusim.games.described.equity import parse as parse_chance

        return parse_chance(r, d, point, value, w)
    if cond in ("own_rank_count", "paired_ranks", "suited_run_with_own"):
        from gpusim.games.described.rank_conditions import parse as parse_ranks

        return parse_ranks(r, d, point, cond, value, w)
    raise AssertionError(cond)


