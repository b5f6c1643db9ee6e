"""A game described in TOML: the ``[game]`` table of a config, read into a frozen
:class:`Description` (docs/describe-a-game.md is the designer's guide; the JSON Schema that an
editor checks it with is ``gpusim/games/described/schema.json``).

The vocabulary is closed: every key below, nothing else. Every mistake is one
:class:`~gpusim.rules.ConfigError` line that names the file, the key path and what is allowed.

- ``cards``: ``player`` and ``dealer`` card counts, ``dealer_up`` (how many of the dealer's are
  dealt face up) and ``streets`` (community cards revealed per street, in order). A round's
  card columns are the player's, then the dealer's (face-up ones first), then the board.
- ``hands.<name>``: ``cards`` (``"player"``, ``"dealer"``, ``"board"`` or ``"board:K"``, the
  first K community cards; each card once) and ``ranking`` (``"poker"``: best five of 5, 6 or
  7 cards; ``"three_card"``).
- ``lines.<name>``: a line that splits a category by the rank that names the hand (a pair's
  rank, a straight's top card): ``category`` and ``ranks`` (``"J-A"``). The lines that split
  one category must cover its ranks once each, with no gap and no overlap. Or a line of whole
  categories (``categories``, two or more: ``straight_or_less``).
- ``showdown``: the ``player`` and ``dealer`` hands compared (the player's holds no dealer
  card, the dealer's no player card), the dealer's ``qualifier``, and ``unqualified_tie``:
  whether a tie against a dealer who does not qualify settles as ``no_qualify`` (default) or
  as ``tie``.
- ``decisions``: the points, in order: ``name``, ``street`` (revealed streets when it is
  decided), ``actions`` (``name``; ``fold = true``; ``bet`` and ``times`` to place a bet at a
  multiple of the base bet; ``pull`` to take back a bet placed before the deal, at one point
  only; ``next``: a later point, or :data:`SHOWDOWN` to end the decisions there); some action
  of a point places, pulls or folds, unless its actions lead to different places (next).
- ``bets.<name>``: ``placed`` (``"deal"`` or ``"action"``), ``side`` (a side bet), ``fold``
  (``"lose"`` or ``"settle"``), and how it settles: against the dealer (``showdown``: a pay for
  ``win``, ``tie`` and ``lose``, and for ``no_qualify`` unless the bet is compared whatever the
  dealer holds) or on a ``paytable`` of one ``hand`` (``requires``: ``"stay"`` or
  ``"beat_dealer"``: ``beat:<line>`` or ``no_beat:<line>``, a folded hand never beats), with an
  optional ``bonus`` paytable paid on top (``bonus_requires``); ``fold_event = "named"``: a
  fold's event is ``fold:<the event the bet would have had>``. A pay is ``"X:1"``,
  ``"push"``, ``"lose"`` or ``"paytable"``.
- ``paytables.<name>``: ``lines`` (categories of the hand's ranking, or ``lines`` above),
  ``otherwise`` (what a hand on none of them gets: ``"lose"`` or ``"push"``) and ``unlisted``
  (its event: ``"other"``, or ``"named"``: its category or rank line) and ``event_names``
  (``"line"``, or ``"hand"``: every event names the hand's category or rank line, not the line
  that pays it). The config's ``[paytables.<name>]`` gives each line's pay.
- ``events``: the outcome words (:data:`EVENT_WORDS`) renamed, ``lose = "loss"``.
- ``options.<name>``: a config option, ``[rules] <name>`` in a config of the game: its
  ``description``, its ``values`` (or ``type = "hand"``: ``[rules.<name>]`` ``hand`` and
  ``rank``), ``default``, and what it ``sets`` in the description
  (:mod:`gpusim.games.described.options`).
- ``strategies.<name>``: ``description`` and, per decision point, a list of rules, the first
  that holds decides: conditions (:data:`CONDITIONS`) and ``action``; the last rule has no
  condition.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from gpusim.cards import CATEGORY_KEYS, RANKS
from gpusim.rules import ConfigReader

__all__ = [
    "CONDITIONS",
    "EVENT_WORDS",
    "RANKINGS",
    "SHOWDOWN",
    "ActionDef",
    "BetDef",
    "Description",
    "HandDef",
    "LineDef",
    "OptionDef",
    "PaytableDef",
    "PointDef",
    "RuleDef",
    "lowest_rank",
    "parse_hand_spec",
    "parse_rank",
]

THREE_CARD_CATEGORIES = ("high_card", "pair", "flush", "straight", "three_of_a_kind",
                         "straight_flush")
RANKINGS = {"poker": CATEGORY_KEYS, "three_card": THREE_CARD_CATEGORIES, "starting_hand": ()}
"""Each ranking's categories, low to high (poker's royal flush is a category of its own); a
``"starting_hand"`` hand (two cards) has none: its paytable's lines are starting-hand ranges
(:mod:`gpusim.games.described.starting`)."""
RANKING_SIZES = {"poker": (5, 6, 7), "three_card": (3,), "starting_hand": (2,)}
CONDITIONS = ("at_least", "up_card_at_least", "suited", "hidden_pair", "up_card_paired",
              "hand_in", "category_in", "own_card_paired", "beats_board", "suited_with_own",
              "dealer_outs_below", "run_with_own", "win_chance", "own_rank_count",
              "paired_ranks", "suited_run_with_own")
"""What a rule strategy's rule may ask of the cards its point sees: the player's seen cards
rank ``at_least`` a hand (``"Q-6-4"``, ``"pair of 10s"``, ``"pair"``: with fewer than five
poker cards, only pairs, two pair, trips and quads count); the dealer's up card ranks
``up_card_at_least`` R; ``suited``: at least N seen player cards share a suit;
``hidden_pair``: the player's own cards hold a pair; ``up_card_paired``: the up card's rank is
among the player's cards; ``hand_in``: the two own cards are in a starting-hand range
(``"33+, A2s+, K5o+, JTo"``); ``category_in``: the seen cards' category is one of a list;
``own_card_paired``: an own card pairs (a pocket pair, or paired by the board);
``beats_board``: the seen cards rank above the board's own five; ``suited_with_own``: N seen
cards of one suit, an own card of it ranking at least R; ``dealer_outs_below``: fewer than N
unseen cards make, with the board, a hand above the player's; ``run_with_own``: N consecutive
ranks among the seen cards (an ace high or low), an own card's rank among them;
``win_chance``: over the unseen cards, the showdown is won more often than lost (``"above_lose"``)
or more than half the time (``"above_half"``; :mod:`gpusim.games.described.equity`);
``own_rank_count``, ``paired_ranks``, ``suited_run_with_own``: an own card's rank N times in the
hand, N ranks paired, N consecutive ranks of an own card's suit
(:mod:`gpusim.games.described.rank_conditions`)
(:mod:`gpusim.games.described.conditions` reads and evaluates them)."""
SHOWDOWN = "showdown"
"""``next = "showdown"``: the action ends the decisions (no later point is reached; the round
goes on to the showdown, or straight to its settlement in a game without a dealer). A word no
point may take as its name."""
EVENT_WORDS = ("fold", "win", "tie", "lose", "no_qualify", "beat", "no_beat", "other")
"""The words of event names a description may rename (``[game.events]``): a fold; a showdown's
outcomes (``win:<line>`` for a win paid on a paytable); a ``beat_dealer`` bet's ``beat:<line>``
and ``no_beat:<line>``; ``other``, a hand on none of a paytable's lines."""
PAY = re.compile(r"^(\d+)(?::(\d+))?$")
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class HandDef:
    name: str
    columns: tuple[int, ...]
    ranking: str


@dataclass(frozen=True)
class LineDef:
    name: str
    category: str
    lo: int
    hi: int
    group: tuple[str, ...] = ()  # a line of whole categories (category "" then): straight_or_less
    hands: tuple[int, ...] = ()  # a line of starting hands (category "" then): grid cells
    dealer_hands: tuple[int, ...] = ()  # ... that also needs the dealer's two cards in these


@dataclass(frozen=True)
class ActionDef:
    name: str
    fold: bool = False
    bet: str | None = None
    times: int = 0
    pull: str | None = None
    next: str | None = None


@dataclass(frozen=True)
class PointDef:
    name: str
    street: int
    actions: tuple[ActionDef, ...]
    sees: tuple[int, ...]


@dataclass(frozen=True)
class PaytableDef:
    name: str
    hand: str
    lines: tuple[str, ...]
    otherwise: str
    unlisted: str = "other"  # a hand on no line is the event "other", or "named" by its class
    event_names: str = "line"  # events name the line that pays the hand, or its class ("hand")
    pays: str = "to_one"  # a line's X is "X:1", or "for_one": X for 1 (the prize replaces the bet)


@dataclass(frozen=True)
class BetDef:
    """``pays``: ((outcome, pay), ...) with outcomes ``no_qualify``, ``win``, ``tie``, ``lose``
    for a showdown bet, ``settle`` for a paytable bet; a pay is a Fraction (returned per unit,
    1 = push, 0 = lose) or ``"paytable"``."""

    name: str
    placed: str
    side: bool
    fold: str
    pays: tuple[tuple[str, Any], ...]
    paytable: str | None
    requires: str | None
    bonus: str | None
    bonus_requires: str | None
    fold_event: str = "fold"  # a fold's event: "fold", or "named": fold:<the event it would have>
    # the order the exact report lists the bet's events in: names, "prefix:*" patterns and "*" (the
    # rest); empty: the layout's order
    report_order: tuple[str, ...] = ()
    # the report also lists the bet as if a fold never forfeited it (<name>_always_settled:
    # each fold:<event> merged into its event, paid as it)
    report_always_settled: bool = False
    # the exact report counts each fold:<event> with its event (report_folds = "merged": a
    # side bet settled after a fold, its folded hands paid as any other)
    report_folds_merged: bool = False


@dataclass(frozen=True)
class OptionDef:
    """A config option, ``[rules] <name>``. ``kind``: ``"choice"`` (one of ``values``) or
    ``"hand"`` (a (category, rank index) pair); ``sets``: ((key path in ``[game]``, ((value,
    what is written), ...)), ...); a hand option writes its hand at each path (no pairs)."""

    name: str
    description: str
    kind: str
    values: tuple[Any, ...]
    default: Any
    sets: tuple[tuple[str, tuple[tuple[Any, Any], ...]], ...]


@dataclass(frozen=True)
class RuleDef:
    action: str
    conditions: tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class Description:
    """A described game, frozen and hashable (it keys compiled programs)."""

    name: str
    title: str
    player: int
    dealer: int
    dealer_up: int
    streets: tuple[int, ...]
    hands: tuple[HandDef, ...]
    lines: tuple[LineDef, ...]
    showdown: tuple[str, str, Any] | None  # (player hand, dealer hand, qualifier spec or None)
    points: tuple[PointDef, ...]
    bets: tuple[BetDef, ...]
    paytables: tuple[PaytableDef, ...]
    strategies: tuple[tuple[str, str, tuple[tuple[str, tuple[RuleDef, ...]], ...]], ...]
    raw: str = ""  # the canonical JSON of the [game] table (the manifest carries it)
    unqualified_tie: str = "no_qualify"  # a tie with a dealer who does not qualify settles so
    events: tuple[tuple[str, str], ...] = ()  # (outcome word, its name in events)
    options: tuple[OptionDef, ...] = ()
    chosen: tuple[tuple[str, Any], ...] = ()  # (option, value) applied to raw to make this game
    meter: tuple[str, str] | None = None  # (bet, event): the event that wins a progressive meter
    # (name, description, table strategy): a strategy that is one of the shape's table
    # strategies under another name
    table_names: tuple[tuple[str, str, str], ...] = ()
    # (name, description, bets): an exact strategy besides ``optimal`` whose decisions weigh
    # only some of the bets (``optimal_for = "main"``: the main game's, side bets left out)
    exact_strategies: tuple[tuple[str, str, str], ...] = ()
    # [game.report] hand_table: the key under which the exact report also writes the first
    # decision as a table by two-card starting hand (None: no such table)
    hand_table: str | None = None
    # [game.report] first_decision_order ("strength", or "chart": two-card hands in the 13 x 13
    # chart's order and names) and first_decision_note (a line beside the rows; "": none)
    first_decision_order: str = "strength"
    first_decision_note: str = ""

    def decides_for(self, strategy: str) -> str | None:
        """What an exact strategy's decisions weigh: ``"all"`` (``optimal``: every offered bet)
        or ``"main"`` (the main bets alone); None for a rule strategy."""
        if strategy == "optimal":
            return "all"
        return next((bets for name, _, bets in self.exact_strategies if name == strategy), None)

    def word(self, word: str) -> str:
        """An outcome word (:data:`EVENT_WORDS`) as this game's events name it."""
        return dict(self.events).get(word, word)

    @property
    def n_cards(self) -> int:
        return self.player + self.dealer + sum(self.streets)

    def hand(self, name: str) -> HandDef:
        return next(h for h in self.hands if h.name == name)

    def bet(self, name: str) -> BetDef:
        return next(b for b in self.bets if b.name == name)

    def paytable(self, name: str) -> PaytableDef:
        return next(p for p in self.paytables if p.name == name)

    @property
    def category_hand(self) -> str | None:
        """The hand a round's ``player_category`` names in a game without a showdown: the
        first paytable's hand that ranks in categories (a ``"starting_hand"`` hand has none);
        None when every paytable reads a starting hand (the category is then its two cards'
        pair or high card)."""
        return next((p.hand for p in self.paytables
                     if self.hand(p.hand).ranking != "starting_hand"), None)

    @property
    def base_bet(self) -> str:
        return next(b.name for b in self.bets if b.placed == "deal" and not b.side)

    @property
    def columns(self) -> dict[str, tuple[int, ...]]:
        """{seat: card columns}: ``player``, ``dealer`` and ``board`` (absent when empty)."""
        p, d = self.player, self.dealer
        out = {"player": tuple(range(p))}
        if d:
            out["dealer"] = tuple(range(p, p + d))
        if self.streets:
            out["board"] = tuple(range(p + d, self.n_cards))
        return out


def parse_hand_spec(text: str, ranking: str, where: str, r: ConfigReader) -> tuple[int, int, int]:
    """A hand as a designer writes it, as (category index in the ranking, named rank, kickers
    bits of the weakest such hand): ``"Q"`` or ``"A-K"`` or ``"Q-6-4"`` (high card with these
    top ranks or better), ``"pair of 4s"``, ``"pair of 10s"``, or a category name (its weakest
    hand). Ranks are ``23456789TJQKA`` (``10`` is read as ``T``)."""
    cats = RANKINGS[ranking]
    t = text.strip().lower().replace("10", "t")
    m = re.fullmatch(r"(pair|three_of_a_kind|four_of_a_kind) of ([2-9tjqka])s?", t)
    if m:
        return cats.index(m.group(1)), RANKS.index(m.group(2).upper()), 0
    if t in cats:
        return cats.index(t), 0, 0
    parts = t.split("-")
    if parts and all(len(p) == 1 and p.upper() in RANKS for p in parts):
        ranks = [RANKS.index(p.upper()) for p in parts]
        if ranks == sorted(ranks, reverse=True) and len(set(ranks)) == len(ranks):
            return 0, ranks[0], sum(1 << x for x in ranks)
    raise r.fail(where, f"value {text!r} is not allowed; expected a hand such as 'Q-6-4', 'A-K', "
                        f"'pair of 4s' or a category of the {ranking} ranking: {', '.join(cats)}")


def _pay(r: ConfigReader, value: Any, where: str, allowed: tuple[str, ...]) -> Any:
    if isinstance(value, str):
        if value == "push":
            return Fraction(1)
        if value == "lose":
            return Fraction(0)
        if value == "paytable" and "paytable" in allowed:
            return "paytable"
        m = PAY.match(value)
        if m and m.group(2) is not None and int(m.group(2)) > 0:
            return 1 + Fraction(int(m.group(1)), int(m.group(2)))
    raise r.fail(where, f"value {_show(value)} is not allowed; allowed: 'X:1' (or 'A:B'), "
                        f"'push', 'lose'{', ' + repr('paytable') if 'paytable' in allowed else ''}")


def _show(value: Any) -> str:
    """A value as the TOML that wrote it (``true``, not ``True``)."""
    return ("true" if value else "false") if isinstance(value, bool) else repr(value)


def _name(r: ConfigReader, value: Any, where: str) -> str:
    if not isinstance(value, str) or not _NAME.match(value):
        what = "missing" if value is None else f"value {_show(value)} is not allowed"
        raise r.fail(where, f"{what}; expected a name of lowercase letters, digits and '_', "
                            "starting with a letter")
    return value


def _int(r: ConfigReader, table: dict, where: str, key: str, lo: int, hi: int, default=None):
    if key not in table:
        if default is None:
            raise r.fail(f"{where}.{key}", f"missing; expected a whole number {lo}..{hi}")
        return default
    return r.integer(table, where, key, lo, hi, f"expected a whole number {lo}..{hi}")


def _str_list(r: ConfigReader, table: dict, where: str, key: str) -> list:
    value = table.get(key)
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise r.fail(f"{where}.{key}", f"value {value!r} is not allowed; expected a non-empty "
                                       "array of strings")
    return value


def _named_tables(r: ConfigReader, table: dict, section: str, keys: tuple[str, ...]):
    """(name, table, key path) of each ``[game.<section>.<name>]``: the name a valid one, the
    value a table holding only ``keys``."""
    for name, value in table.items():
        w = f"game.{section}.{name}"
        _name(r, name, w)
        if not isinstance(value, dict):
            raise r.fail(w, f"value is not allowed; expected a table with {', '.join(keys)}")
        r.keys(value, w, keys)
        yield name, value, w


_LOWEST = {
    "poker": {"two_pair": 1, "straight": 3, "straight_flush": 3, "high_card": 5, "flush": 5,
              "royal_flush": 12},
    "three_card": {"straight": 1, "straight_flush": 1, "high_card": 3, "flush": 3},
}
"""The lowest rank that can name a hand of a category, by ranking (default a deuce): a poker
straight's top card is a 5 at least, a high card's or a flush's a 7 (7-5-4-3-2); a three-card
straight's a 3 (A-2-3), a three-card high card's a 5 (5-3-2)."""


def lowest_rank(category: str, rankings: set[str]) -> int:
    """The lowest rank that names a hand of ``category`` in any of ``rankings``."""
    return min(_LOWEST[k].get(category, 0) for k in rankings if category in RANKINGS[k])


def parse_rank(r, text: str, where: str) -> int:
    """A rank written as a config writes it (``"T"`` or ``"10"``, any case): its index, 0 for
    a deuce .. 12 for an ace; a ConfigError naming ``where`` otherwise."""
    t = text.strip().upper().replace("10", "T")
    if len(t) != 1 or t not in RANKS:
        raise r.fail(where, f"rank {text!r} is not allowed; allowed: {', '.join(RANKS)}")
    return RANKS.index(t)
