"""The street-bets hold'em shape, read off a description: :func:`street_tree_of` says in one
line why a description is not of the shape, and :func:`prices_of` reads a config's numbers
(:class:`gpusim.games.holdem.streets.StreetPrices`). Light (no counting code), so the builder
of described games can ask.

What the shape counts (anything else is refused, naming the key):

- cards: 2 to the player, 2 face down to the dealer, a board of 5 dealt as a flop of 3, a turn
  and a river; the showdown compares the player's 2 + board against the dealer's 2 + board,
  best five, and the dealer always plays (no qualifier);
- three decisions: pre-flop a fold or a bet of twice the base bet (the Ante); on the turn and
  on the river a check or a bet of one Ante; each bet 1:1, a push on a tie;
- the Ante: lost on a fold, a push on a tie; a win pays its paytable of the player's final
  hand, 1:1 from a category up and a push below it;
- side bets, each settled on a fold too: at most one on a paytable of the player's two cards
  (starting-hand lines, one of which may be AA against the dealer's AA), and at most one
  progressive meter's bet on a paytable of the hole cards and the flop (or all seven cards),
  its prizes "X for 1", the royal flush winning the meter.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from gpusim.cards import CATEGORY_KEYS
from gpusim.games.holdem.seats import holdem_seats, shape_refusal

__all__ = ["STRATEGIES", "StreetTree", "ante_pays_from", "design_entries", "forfeited_by_fold",
           "prices_of", "refusal", "roles", "side_bet_exact", "street_tree_of"]

_WIN, _PUSH, _LOSE = Fraction(2), Fraction(1), Fraction(0)
STRATEGIES = (
    ("optimal", "exact: Turn/River bet iff P(win) > P(lose); flop bet iff its EV beats folding"),
    ("win-over-half-ev", "the Swedish rules: Turn/River bet iff exact P(win) > 50 %; flop bet iff "
                         "the EV under that rule beats folding"),
)
"""The shape's table strategies (:data:`gpusim.games.holdem.streets.TABLE_RULES`) and their
descriptions."""
_AA = 168
"""The starting-hand grid cell of a pair of aces."""


@dataclass(frozen=True)
class StreetTree:
    """The shape's names: the decision points (flop, turn, river), the main bets (Ante, Flop,
    Turn, River), the starting-hand side bet ``bonus`` and the meter's bet ``jackpot`` (None:
    none in the game)."""

    points: tuple[str, str, str]
    bets: tuple[str, str, str, str]
    bonus: str | None
    jackpot: str | None


def refusal(d, key: str, what: str) -> ValueError:
    return shape_refusal(d, key, what, "street-bets", "Texas Hold'em Bonus")


def roles(d) -> StreetTree:
    """The shape's names of a description; ValueError (one line) for one not of the shape."""
    player, dealer = holdem_seats(d, (3, 1, 1), refusal)
    if d.showdown[2] is not None:
        raise refusal(d, "game.showdown", "expected a showdown without a qualifier")
    if [p.street for p in d.points] != [0, 1, 2]:
        raise refusal(d, "game.decisions", "expected three points: pre-flop, turn, river")
    bets = []
    for k, p in enumerate(d.points):
        first, second = (p.actions + (None, None))[:2]
        ok = len(p.actions) == 2 and first.fold == (k == 0) and not first.bet and \
            second.bet and not second.fold and second.times == (2 if k == 0 else 1) and \
            all(not a.pull and a.next in (None, "showdown") for a in p.actions)
        if not ok:
            raise refusal(d, f"point {p.name!r}", "expected a fold then a bet of 2 x the base "
                          "bet pre-flop, a check then a bet of 1 x on the turn and the river")
        c = d.bet(second.bet)
        if c.side or c.paytable or c.bonus or c.requires or dict(c.pays) != {
                "win": _WIN, "tie": _PUSH, "lose": _LOSE}:
            raise refusal(d, f"game.bets.{second.bet}", "expected 1:1, a push on a tie")
        bets.append(second.bet)
    ante = d.base_bet
    a = d.bet(ante)
    if a.placed != "deal" or a.side or a.fold != "lose" or not a.paytable or a.bonus or \
            a.requires or d.paytable(str(a.paytable)).hand != player or \
            dict(a.pays) != {"win": "paytable", "tie": _PUSH, "lose": _LOSE} or \
            d.paytable(str(a.paytable)).otherwise != "push" or \
            any(ln not in CATEGORY_KEYS for ln in d.paytable(str(a.paytable)).lines):
        raise refusal(d, f"game.bets.{ante}", f"expected the base bet placed at the deal, lost "
                      f"on a fold, a push on a tie, a win paid on hand categories of "
                      f"hands.{player}, a push below them")
    others = [b for b in d.bets if b.name not in (ante, *bets)]
    bonus = [b for b in others if b.paytable and d.hand(
        d.paytable(b.paytable).hand).ranking == "starting_hand"]
    jackpot = [b for b in others if d.meter is not None and b.name == d.meter[0]]
    if len(bonus) > 1 or len(others) != len(bonus) + len(jackpot):
        raise refusal(d, "game.bets", "expected at most a starting-hand side bet and a meter's "
                                      "side bet besides the Ante and the street bets")
    tree = StreetTree(points=tuple(p.name for p in d.points),
                      bets=(ante, *bets),
                      bonus=bonus[0].name if bonus else None,
                      jackpot=jackpot[0].name if jackpot else None)
    for b in bonus + jackpot:
        _side(d, b)
    return tree


def _side(d, b) -> None:
    table = d.paytable(str(b.paytable))
    key = f"game.bets.{b.name}"
    if not b.side or b.bonus or b.requires or b.fold != "settle" or \
            dict(b.pays) != {"settle": "paytable"} or table.otherwise != "lose":
        raise refusal(d, key, "expected a paytable settled whatever the player does, its "
                              "other hands lost")
    hand = d.hand(table.hand)
    cols = d.columns
    lines = {ln.name: ln for ln in d.lines}
    if hand.ranking == "starting_hand":
        vs = [n for n in table.lines if lines[n].dealer_hands]
        aces = [n for n in table.lines if _AA in lines[n].hands and not lines[n].dealer_hands]
        if sorted(hand.columns) != sorted(cols["player"]) or table.pays != "to_one" or \
                any(lines[n].hands != (_AA,) or lines[n].dealer_hands != (_AA,) for n in vs) \
                or len(vs) > 1 or (vs and (aces != [table.lines[1]] or vs[0] !=
                                           table.lines[0] or lines[aces[0]].hands != (_AA,))):
            raise refusal(d, f"game.paytables.{table.name}", "expected lines of the player's "
                          "two cards, X:1, at most one (the first) also needing the dealer's "
                          "AA with AA, then AA's own line")
        return
    board = cols["board"]
    if hand.ranking != "poker" or table.pays != "for_one" or \
            sorted(hand.columns) not in (sorted(cols["player"] + board[:3]),
                                         sorted(cols["player"] + board)) or \
            any(ln not in CATEGORY_KEYS[:-1] for ln in table.lines) or \
            d.meter[1] != CATEGORY_KEYS[-1]:
        raise refusal(d, f"game.paytables.{table.name}", "expected the meter's bet on hand "
                      "categories of the hole cards and the flop (or all seven cards), X for "
                      "1, the royal flush winning the meter")


def street_tree_of(d) -> StreetTree:
    """The shape's names of a description (:func:`roles`)."""
    return roles(d)


def _whole(d, key: str, pay) -> int:
    if Fraction(pay).denominator != 1:
        raise refusal(d, key, f"expected whole pays, got {pay}")
    return int(pay)


def ante_pays_from(rules) -> str:
    """The lowest category on which a win pays the Ante 1:1 (every higher one pays 1:1, every
    lower one pushes); ValueError for any other Ante paytable."""
    d = rules.game_def
    name = str(d.bet(d.base_bet).paytable)
    table = rules.pays()[name]
    pays = [_whole(d, f"paytables.{name}.{c}", table.get(c, 0)) for c in CATEGORY_KEYS]
    paid = [c for c, x in enumerate(pays) if x]
    if not paid or paid[0] == 0 or set(pays[paid[0]:]) != {1} or set(pays[:paid[0]]) - {0}:
        raise refusal(d, f"paytables.{name}", "expected 1 from a category up (above high "
                                              "card), 0 below it")
    return CATEGORY_KEYS[paid[0]]


def prices_of(rules, *, merged: bool = True):
    """The config's numbers of the shape. ``merged``: a Bonus line of AA against the dealer's AA
    that pays as AA does is counted as AA's (as configs/holdem_bonus_classic.toml writes it)."""
    from gpusim.games.described.starting import cell_name
    from gpusim.games.holdem.streets import StreetPrices

    d = rules.game_def
    t = roles(d)
    stakes = rules.stakes.as_dict()
    ante = stakes[t.bets[0]]
    pays = rules.pays()
    lines = {ln.name: ln for ln in d.lines}
    extra: dict = {}
    if t.bonus is not None and stakes.get(t.bonus, 0) > 0:
        name = str(d.bet(t.bonus).paytable)
        table = {ln: _whole(d, f"paytables.{name}.{ln}", x) for ln, x in pays[name].items()}
        order = d.paytable(name).lines
        vs = [n for n in order if lines[n].dealer_hands]
        if vs and merged and table[vs[0]] == table[order[1]]:
            vs = []
        extra.update(bonus=t.bonus, bonus_unit=Fraction(stakes[t.bonus], ante),
                     bonus_vs_aces=(vs[0], table[vs[0]]) if vs else None,
                     bonus_lines=tuple((n, table[n], tuple(cell_name(c) for c in
                                                           sorted(lines[n].hands)))
                                       for n in order if not lines[n].dealer_hands))
    if t.jackpot is not None and stakes.get(t.jackpot, 0) > 0 and rules.meter is not None:
        name = str(d.bet(t.jackpot).paytable)
        jp, stake = rules.meter, stakes[t.jackpot]
        seven = len(d.hand(d.paytable(name).hand).columns) == 7
        extra.update(jackpot=t.jackpot, jackpot_contribution=jp.contribution_rate,
                     jackpot_prizes=tuple((ln, _whole(d, f"paytables.{name}.{ln}",
                                                      pays[name][ln]))
                                          for ln in d.paytable(name).lines),
                     jackpot_reset=jp.reset, jackpot_stake=stake,
                     jackpot_unit=Fraction(stake, ante),
                     jackpot_cards="all_seven" if seven else "hole_and_flop")
    return StreetPrices(game=rules.game, config=rules.name, ante_pays_from=ante_pays_from(rules),
                        bets=t.bets, points=t.points, **extra)


def forfeited_by_fold(rules) -> tuple[str, ...]:
    """No side bet of the shape is lost by a fold: both are settled whatever the player does."""
    roles(rules.game_def)
    return ()


def side_bet_exact(rules) -> dict[str, dict[str, Fraction]]:
    """{bet: {event: probability}} of the offered side bets (no decision touches either), by
    combinatorics: the Bonus over (player hole, dealer hole), the Jackpot over its five or
    seven cards."""
    from gpusim.cards import class_combos
    from gpusim.games.described.layout import layout
    from gpusim.games.holdem.streets import FIVE_CARD, SEVEN_CARD

    p = prices_of(rules, merged=False)
    events = layout(rules.game_def).events
    out: dict[str, dict[str, Fraction]] = {}
    if p.bonus is not None:
        probs = {}
        for e in events[p.bonus]:
            if e.endswith("_vs_AA"):  # the one pair of the two aces left
                probs[e] = Fraction(6, 1326 * 1225)
            elif e == "AA" and p.bonus_vs_aces is not None:
                probs[e] = Fraction(6 * 1224, 1326 * 1225)
            elif e != "other":
                probs[e] = Fraction(class_combos(e), 1326)
        if "other" in events[p.bonus]:
            probs["other"] = 1 - sum(probs.values(), Fraction(0))
        out[p.bonus] = probs
    if p.jackpot is not None:
        table = FIVE_CARD if p.jackpot_cards == "hole_and_flop" else SEVEN_CARD
        tot = sum(table.values())
        out[p.jackpot] = {k: Fraction(table[k], tot) for k in events[p.jackpot]}
    return out


_DESIGN = "gpusim.games.holdem.streets_design"


def design_entries(d) -> tuple[dict, dict]:
    """The designer's entries of a description of the shape: its side bets' paytables (no
    decision touches either), as the hand-written game's; and its refusal of the Ante's
    paytable, which the shape pays 1:1 from a category up (a threshold, no pay to search)."""
    from gpusim.games.spec import DesignEntry

    t = roles(d)
    out = {}
    if t.bonus is not None:
        out[t.bonus] = DesignEntry("side", f"{_DESIGN}:bonus_hits")
    if t.jackpot is not None:
        out[t.jackpot] = DesignEntry("side", f"{_DESIGN}:jackpot_model")
    base = d.base_bet
    refusals = {}
    if d.bet(base).paytable is not None:
        lowest = d.paytable(str(d.bet(base).paytable)).lines[-1]
        refusals[base] = (f"the street-bets solver pays the {base} 1:1 from a hand category up, "
                          "a threshold with no pay to search; price another threshold with "
                          f"gpusim exact CONFIG --set {base}.{lowest}=0")
    return out, refusals
