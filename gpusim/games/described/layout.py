"""What a described game computes, as numpy tables built once per :class:`Description`.

A round's **joint code** is ``((path * n_showdown + showdown) * prod(classes)) + classes``:

- ``path``: the way the round took through the decision tree (one of
  :func:`gpusim.strategy.tree.action_paths`);
- ``showdown`` (6 values with a dealer, else 1): the dealer qualified or not, crossed with the
  player's hand beating, tying or losing to the dealer's;
- ``classes``: for each hand a paytable reads, its class: the ranking's category, or the rank
  line (``[game.lines]``) that splits it.

Every bet's event and stake multiple and every point's action taken are functions of the code
(:class:`Layout` tables), so the settlement (:mod:`gpusim.games.described.engine`) computes
the code and looks the rest up, and the device reduction counts codes exactly as for a
plugin game written in Python. Event names and their returns per unit come from the description; the
pays come from the config's paytables.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np

from gpusim.games.described.description import RANKINGS, Description
from gpusim.games.described.description import SHOWDOWN as SHOWDOWN_NEXT
from gpusim.games.described.starting import classes as starting_classes
from gpusim.rules import return_numerators
from gpusim.strategy.tree import Action, DecisionPoint, action_paths

__all__ = ["DEALT_HIDDEN_LIMIT", "SHOWDOWN", "GameShape", "Layout", "event_returns", "hidden_cost",
           "hidden_hands", "layout", "offered_bets", "payout_numbers", "shape_of", "suit_classes",
           "tree"]

SHOWDOWN = ("nq_win", "nq_tie", "nq_lose", "win", "tie", "lose")
"""The showdown codes: ``nq_*`` where the dealer did not qualify."""


@cache
def tree(d: Description) -> tuple[DecisionPoint, ...]:
    """The decision tree: an action without ``next`` that does not fold goes on to the next
    point; ``next = "showdown"``, a fold and an action of the last point end the decisions
    (``Action.next`` None); a pulled bet is one the point's other actions place (multiple 1)."""
    out = []
    for i, p in enumerate(d.points):
        following = d.points[i + 1].name if i + 1 < len(d.points) else None
        pulled = {a.pull for a in p.actions if a.pull}
        actions = []
        for a in p.actions:
            stakes = {a.bet: a.times} if a.bet else {}
            for bet in pulled:
                if a.pull != bet:
                    stakes[bet] = stakes.get(bet, 0) + 1
            nxt = None if a.fold or a.next == SHOWDOWN_NEXT else (a.next or following)
            actions.append(Action(a.name, stakes, nxt, a.fold))
        out.append(DecisionPoint(p.name, tuple(actions), p.sees))
    return tuple(out)


def _classes(d: Description, hand: str) -> tuple[tuple[str, str], ...]:
    """The classes of a hand a paytable reads: (name, category), low to high."""
    ranking = d.hand(hand).ranking
    if ranking == "starting_hand":  # by the lines' starting hands (.starting)
        return starting_classes(d, hand, d.word("other"))
    used = {line for p in d.paytables if p.hand == hand for line in p.lines}
    out = []
    for cat in RANKINGS[ranking]:
        splits = sorted((ln for ln in d.lines if ln.category == cat), key=lambda ln: ln.lo)
        if splits and any(ln.name in used for ln in splits):
            out += [(ln.name, cat) for ln in splits]
        else:
            out.append((cat, cat))
    return tuple(out)


@dataclass(frozen=True)
class Layout:
    """The numpy side of a described game (see the module docstring)."""

    paths: tuple[tuple[dict, dict], ...]
    radices: tuple[int, ...]
    raw_to_path: np.ndarray
    n_showdown: int
    class_hands: tuple[str, ...]
    class_names: dict
    class_of: dict  # hand: (n_categories * 13,) int32 class of (category, named rank)
    n_codes: int
    events: dict  # bet: tuple of event names
    returns: dict  # bet: tuple of (base, bonus) per event (see _event)
    event_of: dict  # bet: (n_codes,) int64
    multiple_of: dict  # bet: (n_codes,) int64
    action_of: dict  # point: (n_codes,) int64

    def decode(self, code: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
        """(path, showdown, [class per class hand]) of codes."""
        rest = np.asarray(code, np.int64)
        classes = []
        for h in reversed(self.class_hands):
            n = len(self.class_names[h])
            classes.append(rest % n)
            rest = rest // n
        return rest // self.n_showdown, rest % self.n_showdown, classes[::-1]


def _line_of_class(d: Description, paytable: str, names) -> list[int]:
    """Per class of the paytable's hand: the index of its line, -1 when none pays it (a
    category's line: the category, its rank line, or a line of whole categories holding it)."""
    lines = d.paytable(paytable).lines
    group = {c: k for k, ln in enumerate(lines) for x in d.lines if x.name == ln
             for c in x.group}
    return [lines.index(n) if n in lines else lines.index(c) if c in lines else group.get(c, -1)
            for n, c in names]


@cache
def layout(d: Description) -> Layout:
    points = tree(d)
    paths = tuple(action_paths(points))
    radices = tuple(len(p.actions) + 1 for p in points)
    raw = np.full(int(np.prod(radices)), -1, np.int64)
    for i, (took, _) in enumerate(paths):
        code, mult = 0, 1
        for p, k in zip(points, radices, strict=True):
            code += (took[p.name] + 1) * mult
            mult *= k
        raw[code] = i
    n_sd = len(SHOWDOWN) if d.showdown else 1
    class_hands = tuple(dict.fromkeys(p.hand for p in d.paytables))
    class_names = {h: _classes(d, h) for h in class_hands}
    class_of = {}
    for h in class_hands:
        cats = RANKINGS[d.hand(h).ranking]
        if not cats:  # a starting hand: its class is computed from its cards (.starting)
            class_of[h] = np.zeros(0, np.int32)
            continue
        t = np.zeros(len(cats) * 13, np.int32)
        for ci, cat in enumerate(cats):
            for rank in range(13):
                idx = [i for i, (n, c) in enumerate(class_names[h]) if c == cat and (
                    n == cat or _in_line(d, n, rank))]
                t[ci * 13 + rank] = idx[0] if idx else 0
        class_of[h] = t
    n_cls = [len(class_names[h]) for h in class_hands]
    n_codes = len(paths) * n_sd * int(np.prod(n_cls))
    codes = np.arange(n_codes, dtype=np.int64)
    lay = Layout(paths, radices, raw, n_sd, class_hands, class_names, class_of, n_codes, {}, {},
                 {}, {}, {})
    path, sd, classes = lay.decode(codes)
    cls = dict(zip(class_hands, classes, strict=True))
    for p in points:
        lay.action_of[p.name] = np.array([paths[i][0][p.name] for i in path], np.int64)
    folded = np.array([any(points[j].actions[t].folds for j, t in enumerate(
        paths[i][0][q.name] for q in points) if t >= 0) for i in range(len(paths))])[path]
    for b in d.bets:
        names: list[str] = []
        rets: list[Any] = []
        ev = np.zeros(n_codes, np.int64)
        placed = np.array([paths[i][1].get(b.name, 0) for i in range(len(paths))], np.int64)
        in_tree = any(b.name in a.stakes for q in points for a in q.actions)
        multiple = placed[path] if in_tree else np.ones(n_codes, np.int64)
        # a bet's event depends on the path, the showdown and the classes of the hands its
        # paytables read: each distinct such key is named once, at its first code (so the
        # names come in code order)
        key = path * n_sd + sd
        for h in class_hands:
            if h in {d.paytable(t).hand for t in (b.paytable, b.bonus) if t}:
                key = key * len(class_names[h]) + cls[h]
        _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        index = np.zeros(len(first), np.int64)
        for u in np.argsort(first, kind="stable"):
            c = int(first[u])
            if multiple[c] == 0:  # not on the table: named as run_figures.not_placed_events does
                name, ret = _not_placed(d, points, paths[path[c]][0], b.name, bool(folded[c]))
            else:
                name, ret = _event(d, b, bool(folded[c]), int(sd[c]),
                                   {h: int(cls[h][c]) for h in class_hands}, class_names)
            if name not in names:
                names.append(name)
                rets.append(ret)
            # one name is one return: the names a description may choose are checked when it
            # is read, so two outcomes never meet under one name with different pays
            assert rets[names.index(name)] == ret, (b.name, name)
            index[u] = names.index(name)
        ev[:] = index[inverse.reshape(-1)]
        lay.events[b.name], lay.returns[b.name] = tuple(names), tuple(rets)
        lay.event_of[b.name], lay.multiple_of[b.name] = ev, multiple
    return lay


def _not_placed(d: Description, points, took: dict, bet: str, folded: bool):
    """The event of a bet a round did not place: ``fold``, or the action taken instead at the
    point that offers it (a ``pull``, a ``check``)."""
    if folded:
        return d.word("fold"), (Fraction(0), None)
    for p in points:
        if took[p.name] >= 0 and any(bet in a.stakes for a in p.actions):
            return p.actions[took[p.name]].name, (Fraction(0), None)
    return "not_placed", (Fraction(0), None)


def _in_line(d: Description, name: str, rank: int) -> bool:
    ln = next((x for x in d.lines if x.name == name), None)
    return ln is not None and ln.lo <= rank <= ln.hi


def _event(d: Description, b, folded: bool, sd: int, cls: dict, class_names: dict):
    """(event name, (base, bonus)) of bet ``b`` at one code. ``base``: a Fraction returned
    per unit, or (paytable, line index or -1, otherwise) read from the config; ``bonus``:
    (paytable, line index) or None. Outcome words are named as the game renames them
    (``d.word``)."""
    lost = folded and not (b.side and b.fold == "settle")
    if lost and b.fold_event != "named":
        return d.word("fold"), (Fraction(0), None)
    outcome, pay = b.pays[0]
    result = SHOWDOWN[sd].removeprefix("nq_")
    base: Any
    if outcome != "settle":
        assert d.showdown is not None  # a showdown bet needs one (checked when read)
        pays = dict(b.pays)
        qualified = sd >= 3 or d.showdown[2] is None
        # a bet without a no_qualify pay is compared whatever the dealer holds; a tie may
        # outrank the qualifier (unqualified_tie)
        compared = qualified or "no_qualify" not in pays or (
            result == "tie" and d.unqualified_tie == "tie")
        outcome = result if compared else "no_qualify"
        pay = pays[outcome]
    # a folded hand is not shown down: it never beats the dealer
    beats = None if b.requires != "beat_dealer" else (not folded and result == "win")
    if pay == "paytable":
        pt = d.paytable(str(b.paytable))
        hand = pt.hand
        k = _line_of_class(d, pt.name, class_names[hand])[cls[hand]]
        line = class_names[hand][cls[hand]][0] if pt.event_names == "hand" or (
            k < 0 and pt.unlisted == "named") else pt.lines[k] if k >= 0 else d.word("other")
        base = (pt.name, k, Fraction(1) if pt.otherwise == "push" else Fraction(0))
        if beats is not None:
            name = f"{d.word('beat' if beats else 'no_beat')}:{line}"
            base = base if beats else Fraction(0)
        else:
            name = line if outcome == "settle" else f"{d.word(outcome)}:{line}"
    else:
        name, base = d.word(outcome), pay
    bonus = None
    if b.bonus and not (b.bonus_requires == "stay" and folded):
        pt = d.paytable(b.bonus)
        k = _line_of_class(d, pt.name, class_names[pt.hand])[cls[pt.hand]]
        if k >= 0:
            name, bonus = f"{name}+{pt.lines[k]}", (pt.name, k)
    if folded and b.fold_event == "named":  # fold:<the event it would have had>
        name = f"{d.word('fold')}:{name}"
        if lost:
            base, bonus = Fraction(0), None
    return name, (base, bonus)


def event_returns(d: Description, paytables: dict) -> dict:
    """{bet: returns per unit per event}: ``paytables`` {name: {line: pay per unit (X for
    "X:1")}} from the config."""
    lay = layout(d)
    out = {}
    for b in d.bets:
        rets = []
        for base, bonus in lay.returns[b.name]:
            if isinstance(base, tuple):
                name, k, otherwise = base
                # "X for 1" returns X; "X:1" the stake and X
                to_one = d.paytable(name).pays != "for_one"
                value = to_one + Fraction(paytables[name][d.paytable(name).lines[k]]) \
                    if k >= 0 else otherwise
            else:
                value = base
            if bonus is not None:
                value += Fraction(paytables[bonus[0]][d.paytable(bonus[0]).lines[bonus[1]]])
            rets.append(int(value) if value.denominator == 1 else value)
        out[b.name] = tuple(rets)
    return out


def payout_numbers(rules) -> dict:
    """What :func:`gpusim.games.payout` gives for a described game's rules, computed here so
    that the settlement needs nothing above this package: returns per unit as int32 numerators
    over each bet's int32 ``scale``, and the stakes placed before the deal."""
    d = rules.game_def
    amounts = rules.stakes.as_dict()
    offered = [b.name for b in d.bets if not b.side or amounts.get(b.name, 0) > 0]
    returns = {b: return_numerators(r) for b, r in event_returns(d, rules.pays()).items()
               if b in offered}
    return {
        "returns": {b: returns[b][0].astype(np.int32) for b in offered},
        "scale": {b: np.array(returns[b][1], np.int32) for b in offered},
        "stakes": {b: np.array(amounts[b], np.int32) for b in offered if b in amounts},
    }


@dataclass(frozen=True)
class GameShape:
    """What the solver needs of a description, in card columns.

    ``stages``: (name, cards, columns) dealt in order: ``player``, ``up`` (the dealer's face-up
    cards, when any), ``street1``...; ``seen[k]``: how many stages point k sees; ``hidden``:
    the dealer's face-down columns (counted, never dealt).
    """

    stages: tuple[tuple[str, int, tuple[int, ...]], ...]
    seen: tuple[int, ...]
    hidden: tuple[int, ...]
    n_columns: int

    @property
    def deepest(self) -> int:
        return max(self.seen)


DEALT_HIDDEN_LIMIT = 1_000_000_000
"""The most (player suit class, face-up cards, dealer's hidden cards) deals the exact solver
deals out one by one when a paytable reads the dealer's hidden cards
(:func:`hidden_cost`): about two minutes on two cores."""


def hidden_hands(d: Description, hidden: tuple[int, ...]) -> tuple[str, ...]:
    """The hands some paytable reads whose class needs a dealer card in ``hidden`` (the
    dealer's face-down columns): a hand holding one, or a starting hand on a line with
    ``dealer_hands``."""
    if not hidden:
        return ()
    out = []
    for h in layout(d).class_hands:
        listed = {ln for p in d.paytables if p.hand == h for ln in p.lines}
        if set(d.hand(h).columns) & set(hidden) or any(
                ln.dealer_hands and ln.name in listed for ln in d.lines):
            out.append(h)
    return tuple(out)


def suit_classes(k: int) -> int:
    """The k-card sets up to a relabelling of the suits (Burnside: the sets each of the 24 suit
    permutations leaves in place, averaged): 13, 169, 1,755, 16,432, 134,459 for k = 1..5, as
    :func:`gpusim.board_index.board_classes` finds them."""
    from itertools import permutations

    total = 0
    for perm in permutations(range(4)):
        poly = [1]
        seen: set[int] = set()
        for s in range(4):
            n = 0
            while s not in seen:
                seen.add(s)
                s, n = perm[s], n + 1
            for _ in range(13 if n else 0):  # each rank's n cards of the cycle: all or none
                poly = [a + (poly[i - n] if i >= n else 0)
                        for i, a in enumerate(poly + [0] * n)]
        total += poly[k] if k < len(poly) else 0
    return total // 24


def hidden_cost(player: int, dealer_up: int, hidden: int) -> int:
    """The deals the exact solver deals out one by one when a paytable reads the dealer's
    ``hidden`` face-down cards (a game without streets): each suit class of the player's cards,
    with every set of face-up dealer cards, times the hidden sets from the cards left."""
    return (suit_classes(player) * math.comb(52 - player, dealer_up)
            * math.comb(52 - player - dealer_up, hidden))


@cache
def shape_of(d: Description) -> GameShape:
    """The stages of a described game; ValueError (one line) for what the solver cannot count:
    a player's showdown hand with a hidden dealer card, a dealer's showdown hand that is not
    exactly the dealer's cards, and, in a game with streets, a paytable hand with a hidden
    dealer card. A paytable that reads the dealer's hidden cards in a game without streets is
    counted by dealing the hidden cards out (:func:`gpusim.games.described.deals.outcome_counts`),
    up to :data:`DEALT_HIDDEN_LIMIT` deals."""
    cols = d.columns
    dealer = cols.get("dealer", ())
    stages = [("player", d.player, cols["player"])]
    if d.dealer_up:
        stages.append(("up", d.dealer_up, dealer[: d.dealer_up]))
    start = d.player + d.dealer
    for i, m in enumerate(d.streets):
        stages.append((f"street{i + 1}", m, tuple(range(start, start + m))))
        start += m
    base = 1 + (1 if d.dealer_up else 0)
    seen = tuple(base + p.street for p in d.points)
    hidden = dealer[d.dealer_up:]
    for h in hidden_hands(d, hidden) if d.streets else ():
        dealer_lines = [ln.name for ln in d.lines if ln.dealer_hands and ln.name in next(
            p.lines for p in d.paytables if p.hand == h)]
        if dealer_lines:
            raise ValueError(f"game {d.name!r}: lines.{dealer_lines[0]} reads the dealer's "
                             "hidden cards (dealer_hands); the exact solver counts paytables "
                             "on the cards in view only in a game with streets")
        raise ValueError(f"game {d.name!r}: hands.{h} reads the dealer's hidden cards; the "
                         "exact solver counts paytables on the cards in view only in a game "
                         "with streets")
    read = hidden_hands(d, hidden)
    cost = hidden_cost(d.player, d.dealer_up, len(hidden)) if read else 0
    if cost > DEALT_HIDDEN_LIMIT:
        raise ValueError(f"game {d.name!r}: hands.{read[0]} reads the dealer's hidden cards; "
                         f"the exact solver would deal out {cost:,} deals one by one "
                         f"(at most {DEALT_HIDDEN_LIMIT:,})")
    if d.showdown is not None:
        player, dealer_hand, _ = d.showdown
        if set(d.hand(player).columns) & set(hidden):
            raise ValueError(f"game {d.name!r}: hands.{player} holds a dealer card; the exact "
                             "solver needs the player's showdown hand in view")
        dh = d.hand(dealer_hand)
        if sorted(dh.columns) != sorted(dealer) or len(dealer) not in (3, 5):
            raise ValueError(f"game {d.name!r}: hands.{dealer_hand} must be exactly the "
                             "dealer's 3 or 5 cards for the exact solver")
    return GameShape(tuple(stages), seen, hidden, d.n_cards)


def offered_bets(rules) -> tuple[str, ...]:
    """The bets a config of a described game offers: every main bet, and each side bet whose
    stake is above 0."""
    amounts = rules.stakes.as_dict()
    return tuple(b.name for b in rules.game_def.bets if not b.side or amounts.get(b.name, 0) > 0)


def threshold(spec: tuple[int, int, int], ranking: str) -> int:
    """The packed rank of the weakest hand a spec (:func:`parse_hand_spec`) admits."""
    cat, named, kickers = spec
    if ranking == "poker" and cat == 9:  # a royal flush: the ace-high straight flush
        return (8 << 27) | ((1 << 12) << 13)
    if cat == 0:
        return kickers
    if RANKINGS[ranking][cat] in ("pair", "three_of_a_kind", "four_of_a_kind") and named:
        return (cat << 27) | ((1 << named) << 13)
    return cat << 27


@dataclass(frozen=True)
class _Node:
    point: int
    took: tuple[tuple[str, int], ...]
    children: tuple[tuple[str, int], ...] = ()  # per action: ("path" | "node", index)


@cache
def nodes(d: Description) -> tuple[_Node, ...]:
    """Every node in depth-first order (a node before its children)."""
    points = tree(d)
    index = {p.name: i for i, p in enumerate(points)}
    path_of = {tuple(sorted(took.items())): i for i, (took, _) in enumerate(layout(d).paths)}
    out: list[_Node] = []

    def walk(k: int, took: dict) -> int:
        me = len(out)
        out.append(_Node(k, tuple(sorted(took.items()))))
        kids = []
        for a, act in enumerate(points[k].actions):
            now = {**took, points[k].name: a}
            if act.next is None:
                full = {p.name: now.get(p.name, -1) for p in points}
                kids.append(("path", path_of[tuple(sorted(full.items()))]))
            else:
                kids.append(("node", walk(index[act.next], now)))
        out[me] = _Node(k, out[me].took, tuple(kids))
        return me

    walk(0, {})
    return tuple(out)
