"""The call-once hold'em shape, read off a description: :func:`call_tree_of` says in one line
why a description is not of the shape, and :func:`prices_of` reads a config's numbers
(:class:`gpusim.games.holdem.call_once.CallPrices`). Light (no counting code), so the builder of
described games can ask.

What the shape counts (anything else is refused, naming the key):

- cards: 2 to the player, 2 face down to the dealer, a board of 5 dealt as a flop of 3 and then
  2; the showdown compares the player's 2 + board against the dealer's 2 + board, best five;
- one decision, on the flop: a fold or a call of the base bet (the Ante) at a multiple;
- bets: the Ante, on a paytable of the player's final hand (every category on one line) when
  the dealer does not qualify or the player wins, a push on a tie; the call, 1:1 on a win, a
  push when the dealer does not qualify and on a tie; at most one side bet on a paytable of
  the first five cards (the hole and the flop), its lines hand categories and at most one pair
  of chosen ranks, anything else lost; a fold loses it or has it settled;
- the dealer's qualifier, if any.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from gpusim.cards import CATEGORY_KEYS
from gpusim.games.holdem.seats import holdem_seats, shape_refusal

__all__ = ["CallTree", "call_tree_of", "design_entries", "forfeited_by_fold", "line_classes",
           "prices_of", "qualifier_rank", "refusal", "roles"]

_WIN, _PUSH, _LOSE = Fraction(2), Fraction(1), Fraction(0)


@dataclass(frozen=True)
class CallTree:
    """The shape's names: the decision ``point``, its ``fold`` and ``call`` actions (with their
    indices), the call's multiple ``times``, the bets ``ante``, ``call`` and ``side`` (None: no
    side bet), and the side bet's split pair line (``pair_line``: its name and rank mask) and
    the name of the other pairs (``pair_rest``)."""

    point: str
    fold: str
    call: str
    fold_index: int
    call_index: int
    times: int
    ante: str
    call_bet: str
    side: str | None
    pair_line: tuple[str, int] | None = None
    pair_rest: str = "pair"


def refusal(d, key: str, what: str) -> ValueError:
    return shape_refusal(d, key, what, "call-once", "Casino Hold'em")


def _lines_of(d, table) -> dict[str, tuple[int, ...]]:
    """{line: the pay classes it covers} of a paytable's lines (a line with ranks: none)."""
    lines = {ln.name: ln for ln in d.lines}
    out: dict[str, tuple[int, ...]] = {}
    for name in table.lines:
        if name in CATEGORY_KEYS:
            out[name] = (CATEGORY_KEYS.index(name),)
        elif name in lines and lines[name].group and set(lines[name].group) <= set(CATEGORY_KEYS):
            out[name] = tuple(CATEGORY_KEYS.index(c) for c in lines[name].group)
        else:
            out[name] = ()
    return out


def roles(d) -> CallTree:
    """The shape's names of a description; ValueError (one line) for one not of the shape."""
    player, dealer = holdem_seats(d, (3, 2), refusal)
    qualifier = d.showdown[2]
    if [p.street for p in d.points] != [1]:
        raise refusal(d, "game.decisions", "expected one point, on the flop (street = 1)")
    p = d.points[0]
    folds = [i for i, a in enumerate(p.actions) if a.fold]
    calls = [i for i, a in enumerate(p.actions) if a.bet]
    if len(p.actions) != 2 or len(folds) != 1 or len(calls) != 1 or \
            any(a.pull or a.next not in (None, "showdown") for a in p.actions):
        raise refusal(d, f"point {p.name!r}", "expected a fold and one call")
    call = p.actions[calls[0]]
    ante = d.base_bet
    a = d.bet(ante)
    if a.placed != "deal" or a.side or a.fold != "lose" or not a.paytable or a.bonus or \
            d.paytable(str(a.paytable)).hand != player:
        raise refusal(d, f"game.bets.{ante}", f"expected the base bet placed at the deal, lost "
                                              f"on a fold, on a paytable of hands.{player}")
    pays = dict(a.pays)
    want = {"win": "paytable", "tie": _PUSH, "lose": _LOSE}
    if qualifier is not None:
        want["no_qualify"] = "paytable"
    if pays != want:
        raise refusal(d, f"game.bets.{ante}.showdown", "expected win = 'paytable', tie = "
                      "'push', lose = 'lose'" + (", no_qualify = 'paytable'" if qualifier
                                                 is not None else ""))
    covered = sorted(c for cs in _lines_of(d, d.paytable(str(a.paytable))).values() for c in cs)
    if covered != list(range(len(CATEGORY_KEYS))):
        raise refusal(d, f"game.paytables.{a.paytable}.lines", "expected every hand category "
                                                                "on exactly one line")
    c = d.bet(call.bet)
    want = {"win": _WIN, "tie": _PUSH, "lose": _LOSE}
    if qualifier is not None:
        want["no_qualify"] = _PUSH
    if c.side or c.paytable or c.bonus or c.requires or dict(c.pays) != want:
        raise refusal(d, f"game.bets.{call.bet}", "expected the call 1:1, a push on a tie and "
                                                  "when the dealer does not qualify")
    others = [b for b in d.bets if b.name not in (ante, call.bet)]
    if len(others) > 1 or any(not b.side for b in others):
        raise refusal(d, "game.bets", "expected at most one side bet besides the Ante and the "
                                      "call")
    tree = CallTree(point=p.name, fold=p.actions[folds[0]].name, call=call.name,
                    fold_index=folds[0], call_index=calls[0], times=int(call.times), ante=ante,
                    call_bet=call.bet, side=others[0].name if others else None)
    if others:
        tree = _side(d, others[0], tree)
    return tree


def _side(d, b, tree: CallTree) -> CallTree:
    table = d.paytable(str(b.paytable)) if b.paytable else None
    key = f"game.bets.{b.name}"
    if table is None or b.bonus or b.requires or b.fold not in ("lose", "settle") or \
            dict(b.pays) != {"settle": "paytable"} or table.otherwise != "lose":
        raise refusal(d, key, "expected a paytable settled whatever the showdown, its other "
                              "hands lost, and fold = 'lose' or 'settle'")
    hand = d.hand(table.hand)
    cols = d.columns
    if hand.ranking != "poker" or sorted(hand.columns) != sorted(cols["player"] +
                                                                 cols["board"][:3]):
        raise refusal(d, f"game.hands.{table.hand}", "expected the player's two cards and the "
                                                     "flop, ranked as poker")
    lines = {ln.name: ln for ln in d.lines}
    covers = _lines_of(d, table)
    split = [n for n, cs in covers.items() if not cs]
    ok = len(split) <= 1 and all(
        lines.get(n) is not None and lines[n].category == "pair" and not lines[n].group
        for n in split) and len({c for cs in covers.values() for c in cs}) == \
        sum(len(cs) for cs in covers.values())
    if not ok:
        raise refusal(d, f"game.paytables.{table.name}.lines", "expected hand categories and "
                                                               "at most one pair of chosen ranks")
    if not split:
        return tree
    ln = lines[split[0]]
    mask = sum(1 << r for r in range(ln.lo, ln.hi + 1))
    if 1 in {c for cs in covers.values() for c in cs}:
        raise refusal(d, f"game.paytables.{table.name}.lines", "expected no pair line beside "
                                                               "the pair of chosen ranks")
    # the other pairs' name: the line of pairs of the other ranks, if the game names one
    rest = [n for n, x in lines.items() if x.category == "pair" and not x.group and n != ln.name
            and sum(1 << r for r in range(x.lo, x.hi + 1)) == 0x1FFF & ~mask]
    return CallTree(**{**tree.__dict__, "pair_line": (ln.name, mask),
                       "pair_rest": rest[0] if rest else "pair"})


def call_tree_of(d) -> CallTree:
    """The shape's names of a description (:func:`roles`)."""
    return roles(d)


@cache
def _reached_ranks():
    """The sorted evaluator ranks of every five-card hand (one per rank pattern and flush)."""
    import itertools

    import numpy as np

    from gpusim.evaluator import evaluate_np

    hands = []
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in set(ranks)) > 4:
            continue
        hands.append([4 * r + (i % 4) for i, r in enumerate(ranks)])
        if len(set(ranks)) == 5:
            hands.append([4 * r for r in ranks])
    return np.unique(evaluate_np(np.asarray(hands, np.int32), check=False).astype(np.int64))


def qualifier_rank(d) -> int:
    """The lowest hand rank that qualifies the dealer (0 where he always does): the weakest
    hand the qualifier admits, as the counts' cache names it."""
    import numpy as np

    from gpusim.games.described.engine import threshold

    qual = d.showdown[2]
    if qual is None:
        return 0
    t = int(threshold(qual, "poker"))
    ranks = _reached_ranks()
    return int(ranks[np.searchsorted(ranks, t)])


def _whole(d, key: str, pay) -> int:
    if Fraction(pay).denominator != 1:
        raise refusal(d, key, f"expected whole pays (X:1), got {pay}")
    return int(pay)


def prices_of(rules):
    """The config's numbers of the shape."""
    from gpusim.games.holdem.call_once import CallPrices

    d = rules.game_def
    t = roles(d)
    pays = rules.pays()
    stakes = rules.stakes.as_dict()
    a = d.bet(t.ante)
    table = pays[str(a.paytable)]
    ante = [0] * len(CATEGORY_KEYS)
    for line, cs in _lines_of(d, d.paytable(str(a.paytable))).items():
        for c in cs:
            ante[c] = _whole(d, f"paytables.{a.paytable}.{line}", table[line])
    extra: dict = {}
    if t.side is not None:
        b = d.bet(t.side)
        name = str(b.paytable)
        table = pays[name]
        side = [-1] * 11
        for line, cs in _lines_of(d, d.paytable(name)).items():
            for c in cs or (10,):
                side[c] = _whole(d, f"paytables.{name}.{line}", table[line])
        split, mask = t.pair_line if t.pair_line else ("pair_split", 0)
        extra = {"side": t.side, "side_stake": stakes.get(t.side, 0), "side_pays": tuple(side),
                 "side_pair_ranks": mask,
                 "side_hands": ("high_card", t.pair_rest, split, *CATEGORY_KEYS[2:]),
                 "fold_forfeits": b.fold == "lose"}
    return CallPrices(ante=stakes[t.ante], call_times=t.times, ante_pays=tuple(ante),
                      point=t.point, fold=t.fold, call=t.call, bets=(t.ante, t.call_bet),
                      **extra)


def line_classes(rules, bet: str, lines: tuple[str, ...]) -> list[tuple[int, ...]]:
    """The pay classes each of the bet's lines pays (the side bet's pair of chosen ranks: class
    10)."""
    d = rules.game_def
    covers = _lines_of(d, d.paytable(str(d.bet(bet).paytable)))
    return [covers[ln] or (10,) for ln in lines]


def forfeited_by_fold(rules) -> tuple[str, ...]:
    """The offered side bet, where a fold forfeits it."""
    t = roles(rules.game_def)
    stakes = rules.stakes.as_dict()
    return tuple(s for s in (t.side,) if s is not None and stakes.get(s, 0) > 0
                 and rules.game_def.bet(s).fold == "lose")


_DESIGN = "gpusim.games.holdem.call_once_design"


def design_entries(d) -> dict:
    """The designer's entries of a description of the shape: the Ante's paytable as a main
    search (under ``optimal``, which counts the side bet a fold forfeits, or ``optimal-main``),
    the side bet's as a side search (priced under the strategy where a fold forfeits it)."""
    from gpusim.games.spec import DesignEntry

    t = roles(d)
    out = {t.ante: DesignEntry("main", f"{_DESIGN}:ante_main_model",
                               strategies={"optimal": True, "optimal-main": False})}
    if t.side is not None:
        out[t.side] = DesignEntry("side", f"{_DESIGN}:side_hits",
                                  forfeit_build=f"{_DESIGN}:side_forfeit_model",
                                  forfeit_strategies={"optimal": True, "optimal-main": False})
    return out
