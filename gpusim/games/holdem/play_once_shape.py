"""The play-once hold'em shape, read off a description: :class:`PlayTree` (where and at what
multiple the Play goes down) and :func:`play_tree_of`, which says in one line why a description
is not of the shape. Light (no counting code), so the builder of described games can ask.

What the shape counts (anything else is refused, naming the key):

- cards: 2 to the player, 2 face down to the dealer, a board of 5 dealt as a flop of 3 and then
  2; the showdown compares the player's 2 + board against the dealer's 2 + board, best five;
- decisions: pre-flop a check or a Play at one or more multiples; on the flop a check or one
  Play; on the river a fold or one Play; a Play before the river ends the decisions
  (``next = "showdown"``);
- bets: the base bet (the Ante: 1:1 on a win, a push on a tie); the Play (1:1, push on a
  tie); a main bet placed at the deal (the Blind: a paytable of the player's hand on a win, a
  push below it and on a tie); side bets on a paytable of the player's hand, settled whatever
  the player does, or lost unless he beats the dealer (a fold loses them);
- the dealer's qualifier, if any, at the bottom of a hand category (such as a pair): the Ante
  pushes when he does not qualify; the Play and the Blind are compared whatever he holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from gpusim.cards import CATEGORY_KEYS
from gpusim.games.holdem.seats import holdem_seats, shape_refusal
from gpusim.games.spec import DesignEntry

__all__ = ["PlayTree", "design_entries", "forfeited_by_fold", "play_tree_of", "refusal", "roles",
           "side_bet_exact"]

@dataclass(frozen=True)
class PlayTree:
    """Where and at what multiple of the Ante the Play can go down, by action index.

    preflop: ((action index, multiple), ...) the pre-flop Plays, the check being
    ``preflop_check``; flop: (action index, multiple) of the flop's Play, its check
    ``flop_check``; river: (action index, multiple) of the river's Play, its fold
    ``river_fold``. Ultimate Texas Hold'em: ``PlayTree(((1, 3), (2, 4)), (1, 2), (1, 1))``.
    """

    preflop: tuple[tuple[int, int], ...]
    flop: tuple[int, int]
    river: tuple[int, int]
    preflop_check: int = 0
    flop_check: int = 0
    river_fold: int = 0

    @property
    def n_preflop(self) -> int:
        return 1 + len(self.preflop)

    def paths(self) -> tuple[tuple[int, dict[str, int]], ...]:
        """(multiple, {"preflop", "flop", "river": action index or -1}) of every way the Play
        goes down: the pre-flop Plays by multiple high to low, the flop's, the river's."""
        out = [(m, {"preflop": a, "flop": -1, "river": -1})
               for a, m in sorted(self.preflop, key=lambda am: -am[1])]
        out.append((self.flop[1], {"preflop": self.preflop_check, "flop": self.flop[0],
                                   "river": -1}))
        out.append((self.river[1], {"preflop": self.preflop_check, "flop": self.flop_check,
                                    "river": self.river[0]}))
        return tuple(out)

    def fold_path(self) -> dict[str, int]:
        return {"preflop": self.preflop_check, "flop": self.flop_check, "river": self.river_fold}


_SHOWDOWN_END = "showdown"
_WIN, _PUSH, _LOSE = Fraction(2), Fraction(1), Fraction(0)


def refusal(d, key: str, what: str) -> ValueError:
    return shape_refusal(d, key, what, "play-once", "Ultimate Texas Hold'em")


def roles(d) -> tuple[str, str, str, tuple[str, ...]]:
    """(ante, play, blind, side bets) of a description of the shape."""
    player, dealer = holdem_seats(d, (3, 2), refusal)
    qualifier = d.showdown[2]
    plays = {a.bet for p in d.points for a in p.actions if a.bet}
    if len(plays) != 1:
        raise refusal(d, "game.decisions", "expected every Play to place one and the same bet")
    play = plays.pop()
    ante = d.base_bet
    others = [b for b in d.bets if b.name not in (ante, play)]
    blind = [b.name for b in others if not b.side]
    if len(blind) != 1:
        raise refusal(d, "game.bets", "expected one main bet placed at the deal besides the "
                                      f"Ante and the Play (the Blind), got {len(blind)}")
    even = {"win": _WIN, "tie": _PUSH, "lose": _LOSE}
    # with a qualifier the Ante pushes when the dealer does not qualify; the Play is compared
    # whatever the dealer holds
    for name, want, what in (
            (ante, {**even, "no_qualify": _PUSH} if qualifier is not None else even,
             "win = '1:1', tie = 'push', lose = 'lose'" + (", no_qualify = 'push'"
                                                          if qualifier is not None else "")),
            (play, even, "win = '1:1', tie = 'push', lose = 'lose' (and no no_qualify: "
                         "compared whatever the dealer holds)")):
        if dict(d.bet(name).pays) != want:
            raise refusal(d, f"game.bets.{name}.showdown", f"expected {what}")
    for b in others:
        hand = d.paytable(str(b.paytable)).hand if b.paytable else None
        if b.bonus or hand != player:
            raise refusal(d, f"game.bets.{b.name}", f"expected a paytable of hands.{player} and "
                                                    "no bonus")
        if not b.side:
            ok = dict(b.pays) == {"win": "paytable", "tie": _PUSH, "lose": _LOSE} and \
                d.paytable(str(b.paytable)).otherwise == "push"
            what = "expected showdown win = 'paytable', tie = 'push', lose = 'lose' and its " \
                   "paytable's otherwise = 'push'"
        else:
            must = b.requires == "beat_dealer"
            # a must-beat bet is lost on a fold either way: a folded hand never beats the dealer
            ok = b.requires in (None, "beat_dealer") and (must or b.fold == "settle")
            what = "expected fold = 'settle', or requires = 'beat_dealer'"
        if not ok:
            raise refusal(d, f"game.bets.{b.name}", what)
        lines = d.paytable(str(b.paytable)).lines
        if not set(lines) <= set(CATEGORY_KEYS):
            raise refusal(d, f"game.paytables.{b.paytable}.lines", "expected hand categories "
                                                                    "(no rank lines)")
    return ante, play, blind[0], tuple(b.name for b in others if b.side)


def play_tree_of(d) -> PlayTree:
    """The shape's tree of a description; ValueError (one line) for one not of the shape."""
    roles(d)
    if [p.street for p in d.points] != [0, 1, 2]:
        raise refusal(d, "game.decisions", "expected three points: pre-flop, flop, river")
    pre, flop, river = d.points

    def checks(p) -> list[int]:
        return [i for i, a in enumerate(p.actions) if not (a.bet or a.fold or a.pull or a.next)]

    def raises(p, end: bool) -> list[tuple[int, int]]:
        out = [(i, a.times) for i, a in enumerate(p.actions) if a.bet]
        if any(a.pull or (end and a.bet and a.next != _SHOWDOWN_END) for a in p.actions):
            raise refusal(d, f"point {p.name!r}", "a Play before the river must end the "
                                                  "decisions (next = 'showdown')")
        return out

    pre_play, flop_play, river_play = raises(pre, True), raises(flop, True), raises(river, False)
    folds = [i for i, a in enumerate(river.actions) if a.fold]
    if len(checks(pre)) != 1 or len(pre_play) + 1 != len(pre.actions) or not pre_play:
        raise refusal(d, f"point {pre.name!r}", "expected a check and one or more Plays")
    if len(checks(flop)) != 1 or len(flop_play) != 1 or len(flop.actions) != 2:
        raise refusal(d, f"point {flop.name!r}", "expected a check and one Play")
    if len(folds) != 1 or len(river_play) != 1 or len(river.actions) != 2:
        raise refusal(d, f"point {river.name!r}", "expected a fold and one Play")
    return PlayTree(preflop=tuple(pre_play), flop=flop_play[0], river=river_play[0],
                    preflop_check=checks(pre)[0], flop_check=checks(flop)[0],
                    river_fold=folds[0])


_DESIGN = "gpusim.games.holdem.play_once_design"


def design_entries(d) -> dict[str, DesignEntry]:
    """The designer's entries of a description of the shape: the Blind's paytable as a main
    search under the optimal strategy, each side bet's as a side search (priced under the
    strategy where a fold forfeits it)."""
    _, _, blind, sides = roles(d)
    out = {blind: DesignEntry("main", f"{_DESIGN}:blind_main_model",
                              strategies={"optimal": True})}
    for s in sides:
        out[s] = DesignEntry("side", f"{_DESIGN}:trips_hits",
                             forfeit_build=f"{_DESIGN}:trips_forfeit_model",
                             forfeit_strategies={"optimal": True})
    return out


def side_bet_exact(rules) -> dict:
    """{side bet: {event: probability}} of the offered side bets settled on the player's final
    hand whatever he does (no dealer to beat, a fold settles them): every seven-card hand is
    dealt equally often, so each event's probability is its categories' share of the
    C(52, 7) hands (:func:`gpusim.exact.seven_cards.seven_card_counts`)."""
    from math import comb

    from gpusim.exact.seven_cards import seven_card_counts
    from gpusim.games.described.layout import layout

    d = rules.game_def
    _, _, _, sides = roles(d)
    stakes = rules.stakes.as_dict()
    lay = layout(d)
    counts = seven_card_counts()
    out: dict = {}
    for s in sides:
        b = d.bet(s)
        if stakes.get(s, 0) <= 0 or b.requires or b.fold != "settle" or not lay.class_hands:
            continue
        # a class's event is the same on every path and showdown: read it at the first code
        ev = lay.event_of[s]
        probs: dict[str, Fraction] = {}
        for c, (_, category) in enumerate(lay.class_names[lay.class_hands[0]]):
            name = lay.events[s][ev[c]]
            probs[name] = probs.get(name, Fraction(0)) + Fraction(counts[category],
                                                                  comb(52, 7))
        out[s] = probs
    return out


def forfeited_by_fold(rules) -> tuple[str, ...]:
    """The offered side bets a fold forfeits: lost on a fold, or lost unless the player beats
    the dealer (a folded hand never does)."""
    d = rules.game_def
    stakes = rules.stakes.as_dict()
    return tuple(b.name for b in d.bets if b.side and stakes.get(b.name, 0) > 0
                 and (b.fold == "lose" or b.requires == "beat_dealer"))
