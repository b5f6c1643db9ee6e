"""An independent brute-force oracle for any described game on a reduced deck.

:func:`brute_force` deals every round of a described game (``rules.game_def``, a
:class:`~gpusim.games.described.description.Description`) from a small deck and counts each
round's joint code (:mod:`gpusim.games.described.layout`). It shares none of the exact
solver's counting (:mod:`gpusim.games.described.solver`, :mod:`gpusim.games.described.deals`,
:mod:`gpusim.exact`): no suit classes, no dealer-count tables, no inclusion-exclusion, no
stage rows; only what a joint code means (the layout's paths, events, stake multiples and
returns, which define the answer). Every card of every round is dealt explicitly, every round
is settled by the engine's own JAX code (:func:`gpusim.games.described.engine.joint_code`, as
the simulator settles), and the decisions are either

- ``"optimal"``: backward induction over the decision tree (:func:`~gpusim.games.described.
  layout.tree`), each information set the exact cards its point sees (its ``sees`` columns of
  the dealt round) at a node of the tree (the actions taken before); the action with the largest
  summed net over the set's deals, in exact integers, ties going to the first action in the
  point's order; or
- a rule strategy of the description
  (:func:`gpusim.games.described.engine.rule_strategy`), asked on the dealt cards.

**The deck convention.** ``deck`` is a tuple of card codes (:mod:`gpusim.cards`: rank * 4 +
suit). A deal is one choice of card *sets*, stage by stage, each set from the cards the earlier
stages left: the player's cards, the dealer's face-up cards (``dealer_up``), each street of
community cards in order, then the dealer's face-down cards. Order inside a stage does not
count, so a game with ``player = p``, ``dealer = q`` (``u`` up) and ``streets = [s1, s2, ...]``
on an ``n``-card deck has ``C(n, p) * C(n - p, u) * C(n - p - u, s1) * ... * C(rest, q - u)``
deals (:func:`deal_count`) -- a hold'em game with streets ``[3, 2]`` on 13 cards has
``C(13, 2) * C(11, 3) * C(8, 2) * C(6, 2) = 5,405,400``. This is what the exact solver counts on
a reduced deck (``solve(rules, strategy, deck=deck)``), so the two joint arrays must be equal.

**joint** (:class:`BruteForce`): ``(layout(d).n_codes,) int64``, the number of deals whose
round settles to each joint code ``(path * n_showdown + showdown) * prod(classes) + classes``
(the decision path taken, the showdown result with the dealer's qualifying, the paytable class
of every hand a paytable reads); the meaning of ``Solved.joint``. Every bet's event and stake
multiple is a function of the code (``layout(d).event_of`` / ``multiple_of``).

**The net** of a round that takes decision path ``path`` with outcome ``out`` (the code
modulo ``n_codes // n_paths``) is summed over the offered bets (every main bet, each side bet
with a stake above 0): ``multiple * unit * (return per unit - 1)``, ``unit`` the side bet's
own stake or the base bet's for a main bet, the return per unit from
:func:`gpusim.games.described.layout.event_returns` with the config's pays; in units of
``1 / scale`` money (``scale`` the least common denominator of the returns), so exact. A
progressive meter's event counts at its paytable return (as the solver prices it).

The hold'em games the tests use: :data:`HOLDEM_CONFIGS` (the shipped hold'em configs, which
the oracle runs directly: the deck is passed separately, see :func:`reduced`),
:func:`holdem_description` (compact descriptions built from TOML text, with cheap rule
strategies) and the 12-card decks :data:`HOLDEM_DECK` and :data:`BONUS_DECK`. A solver of such
games is checked as::

    from _brute_force import HOLDEM_DECK, brute_force, reduced
    rules = reduced("ultimate_holdem")
    want = brute_force(rules, "optimal", HOLDEM_DECK)     # 1,663,200 deals, about 3 s
    assert (my_solve(rules, "optimal", deck=HOLDEM_DECK).joint == want.joint).all()
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations

import jax
import jax.numpy as jnp
import numpy as np

from gpusim.config import load_config, parse_config
from gpusim.games.described.engine import joint_code, rule_strategy
from gpusim.games.described.layout import event_returns, layout, tree

__all__ = ["BONUS_DECK", "HOLDEM_CONFIGS", "HOLDEM_DECK", "HOLDEM_VARIANTS", "BruteForce",
           "brute_force", "deal_count", "deal_stages", "deals", "deck_of", "holdem_description",
           "nets", "optimal_decisions", "reduced"]

CHUNK = 1 << 19
"""Rounds settled per JAX call (the last chunk is padded to it: one compiled shape)."""


@dataclass(frozen=True)
class BruteForce:
    """What :func:`brute_force` counts: ``joint`` ``(n_codes,) int64`` deals per joint code
    (the meaning of ``Solved.joint``), ``deals`` their total, ``scale`` the net unit (1/scale
    money) and ``net`` the summed net of every deal in that unit (exact)."""

    joint: np.ndarray
    deals: int
    scale: int
    net: int


# --- decks and deals ----------------------------------------------------------------------------

FACES = "23456789TJQKA"


def deck_of(*suits: str) -> tuple[int, ...]:
    """The card codes of the faces given for each suit in turn (clubs, diamonds, hearts,
    spades): ``deck_of("9TJQKA", "9TJQKA", "A")``."""
    return tuple(sorted(FACES.index(f) * 4 + s for s, faces in enumerate(suits) for f in faces))


def deal_stages(d) -> list[tuple[str, tuple[int, ...]]]:
    """(stage, card columns) in dealing order: the player's cards, the dealer's face-up cards,
    each street, the dealer's face-down cards (empty stages left out)."""
    cols = d.columns
    dealer = cols.get("dealer", ())
    out = [("player", cols["player"])]
    if d.dealer_up:
        out.append(("up", dealer[: d.dealer_up]))
    at = d.player + d.dealer
    for i, m in enumerate(d.streets):
        out.append((f"street{i + 1}", tuple(range(at, at + m))))
        at += m
    if dealer[d.dealer_up:]:
        out.append(("hidden", dealer[d.dealer_up:]))
    return out


def deal_count(d, n: int) -> int:
    """The deals of the game on an ``n``-card deck: per stage, the sets of its size."""
    total = 1
    for _, cols in deal_stages(d):
        total *= math.comb(n, len(cols))
        n -= len(cols)
    return total


def _deal_all(d, deck: tuple[int, ...]) -> np.ndarray:
    """(deals, n_cards) int8: every deal, in the game's card columns; stage by stage, each
    stage's set in increasing card order, deals in lexicographic order of the stages."""
    codes = np.array(deck, np.int64)
    n = len(codes)
    pos = np.zeros((1, 0), np.int8)  # each deal's cards so far, as positions in the deck
    for _, cols in deal_stages(d):
        m = len(cols)
        used = np.zeros((len(pos), n), bool)
        used[np.arange(len(pos))[:, None], pos.astype(np.int64)] = True
        left = np.nonzero(~used)[1].reshape(len(pos), n - pos.shape[1])
        pick = np.array(list(combinations(range(left.shape[1]), m)), np.int64).reshape(-1, m)
        new = left[:, pick]  # (rows, sets, m)
        pos = np.concatenate([np.repeat(pos, len(pick), axis=0),
                              new.reshape(-1, m).astype(np.int8)], axis=1)
    out = np.zeros((len(pos), d.n_cards), np.int8)
    at = 0
    for _, cols in deal_stages(d):
        out[:, list(cols)] = codes[pos[:, at: at + len(cols)].astype(np.int64)]
        at += len(cols)
    return out


# --- the engine's settlement ----------------------------------------------------------------------


@cache
def _jitted(d):
    return jax.jit(lambda cards, decisions: joint_code(cards, decisions, d))


def _codes(d, cards: np.ndarray, decisions: dict[str, np.ndarray]) -> np.ndarray:
    """(deals,) int64 joint code of each deal under ``decisions`` {point: (deals,) action},
    by the engine's :func:`joint_code`, in chunks of one shape."""
    fn = _jitted(d)
    out = np.empty(len(cards), np.int64)
    for lo in range(0, len(cards), CHUNK):
        hi = min(lo + CHUNK, len(cards))
        pad = CHUNK - (hi - lo)
        c = np.concatenate([cards[lo:hi], np.repeat(cards[:1], pad, 0)]).astype(np.int32)
        dec = {k: jnp.asarray(np.concatenate([v[lo:hi], np.repeat(v[:1], pad)]).astype(np.int32))
               for k, v in decisions.items()}
        out[lo:hi] = np.asarray(fn(jnp.asarray(c), dec))[: hi - lo]
    return out


@cache
def _jitted_rules(d, strategy: str):
    decide = rule_strategy(d, strategy)
    return jax.jit(lambda c: decide(c))


def _rule_decisions(d, strategy: str, cards: np.ndarray) -> dict[str, np.ndarray]:
    """{point: (deals,) int64 action} the rule strategy takes on the dealt cards (every point,
    reached or not: the settlement reads only those reached)."""
    fn = _jitted_rules(d, strategy)
    out = {p.name: np.empty(len(cards), np.int64) for p in tree(d)}
    for lo in range(0, len(cards), CHUNK):
        hi = min(lo + CHUNK, len(cards))
        c = np.concatenate([cards[lo:hi], np.repeat(cards[:1], CHUNK - (hi - lo), 0)])
        got = fn(jnp.asarray(c.astype(np.int32)))
        for k in out:
            out[k][lo:hi] = np.asarray(got[k])[: hi - lo]
    return out


# --- nets --------------------------------------------------------------------------------------


def nets(rules) -> tuple[int, np.ndarray]:
    """(scale, net (n_paths, n_out) int64): the round's net, summed over the offered bets, of
    each decision path and outcome, in 1/scale money units (see the module docstring)."""
    d = rules.game_def
    lay = layout(d)
    amounts = rules.stakes.as_dict()
    offered = [b for b in d.bets if not b.side or amounts.get(b.name, 0) > 0]
    rets = event_returns(d, rules.pays())
    scale = 1
    for b in offered:
        for r in rets[b.name]:
            scale = math.lcm(scale, Fraction(r).denominator)
    total = np.zeros(lay.n_codes, np.int64)
    for b in offered:
        unit = amounts[b.name] if b.side else amounts[d.base_bet]
        per_event = [(Fraction(r) - 1) * scale * unit for r in rets[b.name]]
        assert all(v.denominator == 1 for v in per_event)
        value = np.array([int(v) for v in per_event], np.int64)
        total += lay.multiple_of[b.name] * value[lay.event_of[b.name]]
    return scale, total.reshape(len(lay.paths), -1)


# --- optimal play ----------------------------------------------------------------------------


def _info_sets(cards: np.ndarray, sees: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray,
                                                                   np.ndarray]:
    """Group the deals by the exact cards in the columns ``sees``: (order, starts, group of
    each deal): ``order`` sorts the deals by group, each group's deals start at ``starts``."""
    assert len(sees) <= 10  # 6 bits a card in an int64
    key = np.zeros(len(cards), np.int64)
    for c in sees:
        key = (key << 6) | cards[:, c].astype(np.int64)
    order = np.argsort(key, kind="stable")
    sk = key[order]
    del key
    new = np.r_[True, sk[1:] != sk[:-1]]
    starts = np.flatnonzero(new)
    group = np.empty(len(cards), np.int32)
    group[order] = np.cumsum(new, dtype=np.int32) - 1
    return order.astype(np.int32), starts, group


def _optimal(d, cards: np.ndarray, out: np.ndarray, net: np.ndarray,
             tie_break=None) -> dict[str, np.ndarray]:
    """{point: (deals,) action} of the optimal play (backward induction, see the module
    docstring); ``tie_break(values (sets, actions)) -> action per set``, default the first
    best (a test replaces it to show a wrong tie-break is caught)."""
    points = tree(d)
    index = {p.name: i for i, p in enumerate(points)}
    path_of = {tuple(took[p.name] for p in points): i for i, (took, _) in
               enumerate(layout(d).paths)}
    # the nodes: (point, actions taken so far), a node before its children
    nodes: list[tuple[int, dict]] = []
    kids: list[list[tuple[str, int]]] = []

    def walk(k: int, took: dict) -> int:
        me = len(nodes)
        nodes.append((k, took))
        kids.append([])
        for a, act in enumerate(points[k].actions):
            now = {**took, points[k].name: a}
            if act.next is None:
                kids[me].append(("path", path_of[tuple(now.get(p.name, -1) for p in points)]))
            else:
                kids[me].append(("node", walk(index[act.next], now)))
        return me

    walk(0, {})
    groups = {}
    value: dict[int, np.ndarray] = {}
    choice: dict[int, np.ndarray] = {}
    for i in range(len(nodes) - 1, -1, -1):
        k, _ = nodes[i]
        if k not in groups:
            groups[k] = _info_sets(cards, points[k].sees)
        order, starts, group = groups[k]
        child = np.stack([net[j, out] if kind == "path" else value[j]
                          for kind, j in kids[i]], axis=1)  # (deals, actions)
        sums = np.add.reduceat(child[order], starts, axis=0)  # exact int64 per set
        best = np.argmax(sums, axis=1) if tie_break is None else tie_break(sums)
        choice[i] = best[group]
        value[i] = child[np.arange(len(child)), choice[i]]
        for kind, j in kids[i]:  # a child node's values are read only here
            if kind == "node":
                value.pop(j)
    decisions = {p.name: np.zeros(len(cards), np.int64) for p in points}
    reach = {0: np.ones(len(cards), bool)}
    for i, (k, _) in enumerate(nodes):
        rows = reach.pop(i, None)
        if rows is None:
            continue
        decisions[points[k].name][rows] = choice[i][rows]
        for a, (kind, j) in enumerate(kids[i]):
            if kind == "node":
                reach[j] = reach.get(j, np.zeros(len(cards), bool)) | (rows & (choice[i] == a))
    return decisions


# --- the oracle ------------------------------------------------------------------------------


def deals(rules, deck: tuple[int, ...]) -> np.ndarray:
    """(deals, n_cards) int8: every deal of the game from ``deck``, in the game's card columns
    (player, dealer, board), in the oracle's order: stage by stage (see the module docstring),
    each stage's set in increasing card order, the deals in lexicographic order of the stages.
    A strategy given to :func:`brute_force` as a function is handed this array."""
    d = rules.game_def
    deck = tuple(sorted(int(c) for c in deck))
    assert len(set(deck)) == len(deck) and all(0 <= c < 52 for c in deck), deck
    cards = _deal_all(d, deck)
    assert len(cards) == deal_count(d, len(deck))
    return cards


def optimal_decisions(rules, deck: tuple[int, ...], *, tie_break=None,
                      cards: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """{point: (deals,) action index} of the optimal play of every deal of :func:`deals`
    (0 at a point the deal does not reach). ``tie_break(sums (sets, actions)) -> action per
    set`` replaces the first best (for a test that shows a wrong tie-break is caught);
    ``cards``: :func:`deals` of the deck when already dealt."""
    d = rules.game_def
    cards = deals(rules, deck) if cards is None else cards
    _, net = nets(rules)
    # each deal's outcome (showdown x classes) by the engine: the code modulo n_out under any
    # decisions (the first action everywhere)
    first = {p.name: np.zeros(len(cards), np.int64) for p in tree(d)}
    out = _codes(d, cards, first) % net.shape[1]
    return _optimal(d, cards, out, net, tie_break)


def brute_force(rules, strategy, deck: tuple[int, ...], *, tie_break=None) -> BruteForce:
    """Count every deal of ``rules``'s described game (``rules.game_def``) from ``deck`` (card
    codes, any order) under ``strategy``: ``"optimal"``, one of the description's rule
    strategies, or a function ``(cards (deals, n_cards) int8 of :func:`deals`) -> {point:
    (deals,) action index}``. See the module docstring for the deck convention, the decisions
    and what ``joint`` means: ``Solved.joint`` of ``solve(rules, strategy, deck=deck)``.
    ``tie_break``: see :func:`optimal_decisions`."""
    d = rules.game_def
    lay = layout(d)
    cards = deals(rules, deck)
    scale, net = nets(rules)
    if callable(strategy):
        decisions = {k: np.asarray(v, np.int64) for k, v in strategy(cards).items()}
    elif strategy == "optimal":
        decisions = optimal_decisions(rules, deck, tie_break=tie_break, cards=cards)
    else:
        names = [s[0] for s in d.strategies]
        if strategy not in names:
            raise ValueError(f"strategy {strategy!r}: {d.name} has rule strategies {names}")
        decisions = _rule_decisions(d, strategy, cards)
    code = _codes(d, cards, decisions)
    joint = np.bincount(code, minlength=lay.n_codes).astype(np.int64)
    assert len(joint) == lay.n_codes
    return BruteForce(joint=joint, deals=int(joint.sum()), scale=scale,
                      net=int(net.ravel()[code].sum()))


# --- hold'em games -----------------------------------------------------------------------------

HOLDEM_DECK = deck_of("23TJQKA", "23A", "AK")
"""12 hold'em cards: the player's 7 reach pairs to royal flushes (flushes, straights, trips, full
houses), and a dealer fails a pair-of-4s qualifier (2s and 3s), which a pair never does on so
few ranks."""
BONUS_DECK = deck_of("TJQKA", "TJQKA", "A", "A")
"""12 cards with four aces: Texas Hold'em Bonus's AA against the dealer's AA (6,720 of its
3,326,400 deals), quads."""

HOLDEM_CONFIGS = ("ultimate_holdem", "casino_holdem", "holdem_bonus")
"""The shipped hold'em configs: ``brute_force(reduced(name), strategy, deck)`` runs each on a
reduced deck, its ``optimal`` and every rule strategy of its description (a table strategy,
such as Texas Hold'em Bonus's ``win-over-half``, is not one): a few seconds on 13 cards
(5.4 M deals with streets [3, 2], 10.8 M with [3, 1, 1]; about 2 GB of memory at the most)."""


def reduced(name_or_rules):
    """The rules of a game to run on a reduced deck: the shipped config's own rules (the deck
    is passed to :func:`brute_force` separately; nothing in the rules changes)."""
    return load_config(name_or_rules)


_COMMON = """
[game.hands.player]
cards = ["player", "board"]
ranking = "poker"

[game.hands.dealer]
cards = ["dealer", "board"]
ranking = "poker"
"""

_VARIANTS = {
    # Ultimate Texas Hold'em's tree: pre-flop check/3x/4x, flop check/2x, river fold/1x; Ante
    # (pushes when the dealer does not qualify), Blind (a paytable on a win), Play, Trips; the
    # dealer qualifies with a pair of 4s (reachable on a small deck, where a pair is not)
    "uth": """
name = "bf_uth"
description = "Ultimate Texas Hold'em's tree (brute-force oracle)"
default_strategy = "optimal"

[stakes]
ante = 2
trips = 1

[paytables.blind]
royal_flush = 500
straight_flush = 50
four_of_a_kind = 10
full_house = 3
flush = "3:2"
straight = 1

[paytables.trips]
royal_flush = 50
straight_flush = 40
four_of_a_kind = 30
full_house = 8
flush = 7
straight = 4
three_of_a_kind = 3

[game]
name = "bf_uth"
title = "UTH-like"

[game.cards]
player = 2
dealer = 2
streets = [3, 2]
""" + _COMMON + """
[game.showdown]
player = "player"
dealer = "dealer"
qualifier = "pair of 4s"  # the shipped game's is a pair: 7 cards of a small deck always hold one
unqualified_tie = "tie"

[[game.decisions]]
name = "preflop"
actions = [
    { name = "check" },
    { name = "play_3x", bet = "play", times = 3, next = "showdown" },
    { name = "play_4x", bet = "play", times = 4, next = "showdown" },
]

[[game.decisions]]
name = "flop"
street = 1
actions = [
    { name = "check" },
    { name = "play_2x", bet = "play", times = 2, next = "showdown" },
]

[[game.decisions]]
name = "river"
street = 2
actions = [
    { name = "fold", fold = true },
    { name = "play_1x", bet = "play", times = 1 },
]

[game.bets.ante]
placed = "deal"
showdown = { no_qualify = "push", win = "1:1", tie = "push", lose = "lose" }

[game.bets.blind]
placed = "deal"
paytable = "blind"
showdown = { win = "paytable", tie = "push", lose = "lose" }

[game.bets.play]
placed = "action"
showdown = { win = "1:1", tie = "push", lose = "lose" }

[game.bets.trips]
placed = "deal"
side = true
fold = "settle"
paytable = "trips"

[game.paytables.blind]
hand = "player"
lines = ["royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight"]
otherwise = "push"
unlisted = "named"

[game.paytables.trips]
hand = "player"
lines = ["royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
         "three_of_a_kind"]
unlisted = "named"

[game.strategies.simple]
description = "4x on a pocket pair or an ace, 2x on a hole card paired, 1x with a pair"
preflop = [{ hand_in = "22+, A2+", action = "play_4x" }, { action = "check" }]
flop = [{ own_card_paired = true, action = "play_2x" }, { action = "check" }]
river = [{ at_least = "pair", action = "play_1x" }, { action = "fold" }]
""",
    # Casino Hold'em's tree: one decision after the flop, fold or call 2x; the AA Bonus side
    # bet on the hole cards and the flop (board:3); the dealer qualifies with a pair of 4s
    "casino": """
name = "bf_casino"
description = "Casino Hold'em's tree (brute-force oracle)"
default_strategy = "optimal"

[stakes]
ante = 1
aa_bonus = 1

[paytables.ante]
royal_flush = 100
straight_flush = 20
four_of_a_kind = 10
full_house = 3
flush = 2
straight_or_less = 1

[paytables.aa_bonus]
royal_flush = 25
straight_flush = 25
four_of_a_kind = 25
full_house = 25
flush = 25
straight = 7
three_of_a_kind = 7
two_pair = 7
pair_of_aces = 7

[game]
name = "bf_casino"
title = "Casino-Hold'em-like"

[game.cards]
player = 2
dealer = 2
streets = [3, 2]
""" + _COMMON + """
[game.hands.first_five]
cards = ["player", "board:3"]
ranking = "poker"

[game.showdown]
player = "player"
dealer = "dealer"
qualifier = "pair of 4s"

[[game.decisions]]
name = "call"
street = 1
actions = [
    { name = "fold", fold = true },
    { name = "call", bet = "call", times = 2 },
]

[game.bets.ante]
placed = "deal"
paytable = "ante"
showdown = { no_qualify = "paytable", win = "paytable", tie = "push", lose = "lose" }

[game.bets.call]
placed = "action"
showdown = { no_qualify = "push", win = "1:1", tie = "push", lose = "lose" }

[game.bets.aa_bonus]
placed = "deal"
side = true
paytable = "aa_bonus"
fold = "lose"
fold_event = "named"

[game.lines]
straight_or_less = { categories = ["high_card", "pair", "two_pair", "three_of_a_kind", "straight"] }
pair_of_aces = { category = "pair", ranks = "A" }
pair_below_aces = { category = "pair", ranks = "2-K" }

[game.paytables.ante]
hand = "player"
lines = ["royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush",
         "straight_or_less"]
event_names = "hand"

[game.paytables.aa_bonus]
hand = "first_five"
lines = ["royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
         "three_of_a_kind", "two_pair", "pair_of_aces"]
unlisted = "named"

[game.strategies.pair-or-draw]
description = "call with a hole card paired, four to a flush, or a ten or higher in the hole"
call = [
    { own_card_paired = true, action = "call" },
    { suited_with_own = { cards = 4 }, action = "call" },
    { hand_in = "TT+, A2+, K2+, Q2+, J2+, T2+", action = "call" },
    { action = "fold" },
]
""",
    # Texas Hold'em Bonus's tree: streets [3, 1, 1], pre-flop fold or bet 2x, then the turn and
    # the river bet 1x or check; no qualifier; the Bonus side bet on the hole cards, its top
    # line also reading the dealer's two hidden cards (dealer_hands)
    "bonus": """
name = "bf_bonus"
description = "Texas Hold'em Bonus's tree (brute-force oracle)"
default_strategy = "optimal"

[stakes]
ante = 1
bonus = 1

[paytables.ante]
royal_flush = 1
straight_flush = 1
four_of_a_kind = 1
full_house = 1
flush = 1
straight = 1

[paytables.bonus]
AA_vs_dealer_AA = 1000
AA = 30
AKs = 25
AKo = 15
KK_QQ_JJ = 10
TT_to_22 = 3

[game]
name = "bf_bonus"
title = "Hold'em-Bonus-like"

[game.cards]
player = 2
dealer = 2
streets = [3, 1, 1]
""" + _COMMON + """
[game.hands.hole]
cards = ["player"]
ranking = "starting_hand"

[game.showdown]
player = "player"
dealer = "dealer"

[[game.decisions]]
name = "flop"
actions = [
    { name = "fold", fold = true },
    { name = "bet", bet = "flop", times = 2 },
]

[[game.decisions]]
name = "turn"
street = 1
actions = [
    { name = "check" },
    { name = "bet", bet = "turn", times = 1 },
]

[[game.decisions]]
name = "river"
street = 2
actions = [
    { name = "check" },
    { name = "bet", bet = "river", times = 1 },
]

[game.bets.ante]
placed = "deal"
paytable = "ante"
showdown = { win = "paytable", tie = "push", lose = "lose" }

[game.bets.flop]
placed = "action"
showdown = { win = "1:1", tie = "push", lose = "lose" }

[game.bets.turn]
placed = "action"
showdown = { win = "1:1", tie = "push", lose = "lose" }

[game.bets.river]
placed = "action"
showdown = { win = "1:1", tie = "push", lose = "lose" }

[game.bets.bonus]
placed = "deal"
side = true
fold = "settle"
paytable = "bonus"

[game.lines]
AA_vs_dealer_AA = { hands = "AA", dealer_hands = "AA" }
AA = { hands = "AA" }
AKs = { hands = "AKs" }
AKo = { hands = "AKo" }
KK_QQ_JJ = { hands = "JJ-KK" }
TT_to_22 = { hands = "22-TT" }

[game.paytables.ante]
hand = "player"
lines = ["royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight"]
otherwise = "push"
unlisted = "named"

[game.paytables.bonus]
hand = "hole"
lines = ["AA_vs_dealer_AA", "AA", "AKs", "AKo", "KK_QQ_JJ", "TT_to_22"]
event_names = "hand"

[game.strategies.made-hands]
description = "fold 2-7 offsuit or worse; turn and river bets with a hole card paired"
flop = [{ hand_in = "32o, 42o, 52o, 62o, 72o", action = "fold" }, { action = "bet" }]
turn = [{ own_card_paired = true, action = "bet" }, { action = "check" }]
river = [{ own_card_paired = true, action = "bet" }, { action = "check" }]
""",
    # the smallest: three points on three streets (pre-flop, the turn, the river of [3, 1, 1]),
    # a dealer who qualifies with a pair of 4s, two main bets
    "mini": """
name = "bf_mini"
description = "a small hold'em tree on three streets (brute-force oracle)"
default_strategy = "pairs"

[stakes]
ante = 1

[game]
name = "bf_mini"
title = "Mini hold'em"

[game.cards]
player = 2
dealer = 2
streets = [3, 1, 1]
""" + _COMMON + """
[game.showdown]
player = "player"
dealer = "dealer"
qualifier = "pair of 4s"

[[game.decisions]]
name = "start"
actions = [
    { name = "check" },
    { name = "raise_3x", bet = "play", times = 3, next = "showdown" },
]

[[game.decisions]]
name = "turn"
street = 2
actions = [
    { name = "check" },
    { name = "raise_2x", bet = "play", times = 2, next = "showdown" },
]

[[game.decisions]]
name = "river"
street = 3
actions = [
    { name = "fold", fold = true },
    { name = "call", bet = "play", times = 1 },
]

[game.bets.ante]
placed = "deal"
showdown = { no_qualify = "push", win = "1:1", tie = "push", lose = "lose" }

[game.bets.play]
placed = "action"
showdown = { win = "1:1", tie = "push", lose = "lose" }

[game.strategies.pairs]
description = "3x on a pocket pair, 2x on the turn with a pair, call the river with any pair"
start = [{ hidden_pair = true, action = "raise_3x" }, { action = "check" }]
turn = [{ own_card_paired = true, action = "raise_2x" }, { action = "check" }]
river = [{ at_least = "pair", action = "call" }, { action = "fold" }]
""",
}

HOLDEM_VARIANTS = tuple(_VARIANTS)
"""The names :func:`holdem_description` builds: ``uth``, ``casino``, ``bonus``, ``mini``."""


@cache
def holdem_description(variant: str):
    """The rules (a ``DescribedRules``; ``.game_def`` its Description) of a small hold'em game
    from :data:`HOLDEM_VARIANTS`, written as TOML here: the shipped configs' trees (Ultimate
    Texas Hold'em, Casino Hold'em, Texas Hold'em Bonus) with fewer lines and options, and
    one rule strategy each of cheap conditions (no ``win_chance`` / ``dealer_outs_below``)."""
    return parse_config(tomllib.loads(_VARIANTS[variant]), source=f"<{variant}>",
                        default_name=f"bf_{variant}")
