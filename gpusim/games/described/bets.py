"""Reading and checking how a described game settles: ``[game.showdown]``,
``[game.paytables]``, ``[game.bets]`` and ``[game.events]`` (see
:mod:`gpusim.games.described.description`). Each check raises one ConfigError line naming the
key path, the value and what is allowed."""

from __future__ import annotations

import re
from dataclasses import replace

from gpusim.games.described.description import (
    EVENT_WORDS,
    RANKINGS,
    BetDef,
    Description,
    PaytableDef,
    _name,
    _named_tables,
    _pay,
    _str_list,
    parse_hand_spec,
)
from gpusim.games.described.starting import check_paytable as check_starting
from gpusim.rules import ConfigReader

__all__ = ["bets", "events", "paytables", "showdown"]

_OUTCOMES = ("no_qualify", "win", "tie", "lose")
_TIE = ("no_qualify", "tie")


def showdown(r: ConfigReader, game: dict, d: Description) -> Description:
    """``[game.showdown]``: the hands compared, the qualifier and ``unqualified_tie``."""
    table = r.table(game, "game", "showdown", required=False)
    if table is None:
        return d
    w = "game.showdown"
    if not d.dealer:
        raise r.fail(w, "a showdown is not allowed: the game deals no dealer cards "
                        "(game.cards.dealer)")
    r.keys(table, w, ("player", "dealer", "qualifier", "unqualified_tie"))
    names = tuple(h.name for h in d.hands)
    p = r.string(table, w, "player", allowed=names)
    q = r.string(table, w, "dealer", allowed=names)
    if q == p:
        raise r.fail(f"{w}.dealer", f"value {q!r} is not allowed: the dealer's hand must differ "
                                    f"from the player's; allowed: "
                                    f"{', '.join(repr(n) for n in names if n != p) or 'none'}")
    cols = d.columns
    for key, hand, seat in (("dealer", q, "player"), ("player", p, "dealer")):
        if set(d.hand(hand).columns) & set(cols.get(seat, ())):
            raise r.fail(f"{w}.{key}", f"value {hand!r} is not allowed: that hand holds the "
                                       f"{seat}'s cards; the {key}'s hand holds the {key}'s "
                                       "cards and the board only")
    if d.hand(p).ranking != d.hand(q).ranking:
        raise r.fail(w, f"hands {p!r} and {q!r} rank differently; a showdown compares hands "
                        "of one ranking")
    qual = None
    if "qualifier" in table:
        text = r.string(table, w, "qualifier")
        qual = parse_hand_spec(text, d.hand(q).ranking, f"{w}.qualifier", r)
    tie = r.string(table, w, "unqualified_tie", allowed=_TIE, default="no_qualify")
    if "unqualified_tie" in table and qual is None:
        raise r.fail(f"{w}.unqualified_tie", "not allowed: the dealer has no qualifier "
                                             "(game.showdown.qualifier), so he always qualifies")
    return replace(d, showdown=(p, q, qual), unqualified_tie=tie)


def paytables(r: ConfigReader, game: dict, d: Description) -> tuple[PaytableDef, ...]:
    table = r.table(game, "game", "paytables", required=False) or {}
    out: list[PaytableDef] = []
    for name, p, w in _named_tables(r, table, "paytables", ("hand", "lines", "otherwise",
                                                            "unlisted", "event_names",
                                                            "pays")):
        hand = r.string(p, w, "hand", allowed=tuple(h.name for h in d.hands))
        ranking = d.hand(hand).ranking
        allowed = (*RANKINGS[ranking], *(ln.name for ln in d.lines
                                        if ln.category in RANKINGS[ranking] or (
                                            ln.group and set(ln.group) <= set(
                                                RANKINGS[ranking])) or (
                                            ln.hands and ranking == "starting_hand")))
        lines = _str_list(r, p, w, "lines")
        if ranking == "starting_hand":
            check_starting(r, replace(d, paytables=tuple(out)), w, hand, lines)
        for line in lines:
            if line not in allowed:
                raise r.fail(f"{w}.lines", f"line {line!r} is not allowed for a {ranking} hand; "
                                           f"allowed: {', '.join(allowed)}")
        twice = [x for k, x in enumerate(lines) if x in lines[:k]]
        if twice:
            raise r.fail(f"{w}.lines", f"line {twice[0]!r} is listed twice; lines must all "
                                       "differ")
        split = {ln.category for ln in d.lines if ln.name in lines and not ln.group}
        both = [c for c in split if c in lines]
        if both:
            raise r.fail(f"{w}.lines", f"{both[0]!r} is listed whole and split by rank; list "
                                       "one or the other")
        _check_groups(r, d, w, lines)
        otherwise = r.string(p, w, "otherwise", allowed=("lose", "push"), default="lose")
        unlisted = r.string(p, w, "unlisted", allowed=("other", "named"), default="other")
        named = r.string(p, w, "event_names", allowed=("line", "hand"), default="line")
        if named == "hand" and "unlisted" in p:
            raise r.fail(f"{w}.unlisted", "not allowed with event_names = 'hand' (every hand "
                                          "is named by its category or rank line)")
        pays = r.string(p, w, "pays", allowed=("to_one", "for_one"), default="to_one")
        out.append(PaytableDef(name, hand, tuple(lines), otherwise, unlisted, named, pays))
    return tuple(out)


def _check_groups(r: ConfigReader, d: Description, w: str, lines: list) -> None:
    """Each category of a line of whole categories is on no other line of the paytable."""
    of = {ln.name: ln for ln in d.lines}
    for line in lines:
        if line not in of or not of[line].group:
            continue
        for other in lines:
            o = of.get(other)
            cats = (other,) if o is None else o.group or (o.category,)
            common = [c for c in cats if c in of[line].group]
            if other != line and common:
                raise r.fail(f"{w}.lines", f"line {line!r} holds {common[0]!r}, which line "
                                           f"{other!r} pays too; a category is on one line")


def bets(r: ConfigReader, game: dict, d: Description) -> tuple[BetDef, ...]:
    table = r.table(game, "game", "bets", required=True) or {}
    tables = {p.name for p in d.paytables}
    out = []
    for name, b, w in _named_tables(r, table, "bets", (
            "placed", "side", "fold", "showdown", "paytable", "requires", "bonus",
            "bonus_requires", "fold_event", "report_order", "report_always_settled",
            "report_folds")):
        placed = r.string(b, w, "placed", allowed=("deal", "action"))
        side = bool(r.boolean(b, w, "side")) if "side" in b else False
        fold = r.string(b, w, "fold", allowed=("lose", "settle"), default="lose")
        paytable = r.string(b, w, "paytable", allowed=tuple(sorted(tables))) \
            if "paytable" in b else None
        requires = r.string(b, w, "requires", allowed=("stay", "beat_dealer")) \
            if "requires" in b else None
        if "showdown" in b:
            if d.showdown is None:
                raise r.fail(f"{w}.showdown", "not allowed: the game has no [game.showdown]")
            sd = r.table(b, w, "showdown", required=True) or {}
            r.keys(sd, f"{w}.showdown", _OUTCOMES)
            pays = []
            for o in _OUTCOMES:
                # without a no_qualify pay the bet is compared whatever the dealer holds
                if o == "no_qualify" and (d.showdown[2] is None or o not in sd):
                    if o in sd:
                        raise r.fail(f"{w}.showdown.no_qualify", "not allowed: the dealer has "
                                                                 "no qualifier")
                    continue
                if o not in sd:
                    raise r.fail(f"{w}.showdown.{o}", "missing; allowed: 'X:1', 'push', "
                                                      "'lose', 'paytable'")
                pays.append((o, _pay(r, sd[o], f"{w}.showdown.{o}", ("paytable",))))
            if any(p == "paytable" for _, p in pays) and paytable is None:
                raise r.fail(f"{w}.paytable", "missing: a showdown pay says 'paytable'")
            if requires is not None:
                raise r.fail(f"{w}.requires", "not allowed on a showdown bet")
        else:
            if paytable is None:
                raise r.fail(w, "says neither how it settles against the dealer (showdown) nor "
                                "its paytable (paytable)")
            pays = [("settle", "paytable")]
            if requires == "beat_dealer" and d.showdown is None:
                raise r.fail(f"{w}.requires", "'beat_dealer' is not allowed: the game has no "
                                              "[game.showdown]")
        bonus = r.string(b, w, "bonus", allowed=tuple(sorted(tables))) if "bonus" in b else None
        bonus_requires = r.string(b, w, "bonus_requires", allowed=("stay",)) \
            if "bonus_requires" in b else None
        if bonus_requires and not bonus:
            raise r.fail(f"{w}.bonus_requires", "not allowed without 'bonus'")
        if side and placed != "deal":
            raise r.fail(f"{w}.placed", "a side bet is placed before the deal: 'deal'")
        fold_event = r.string(b, w, "fold_event", allowed=("fold", "named"), default="fold")
        if fold_event == "named" and (placed != "deal" or "showdown" in b or requires):
            raise r.fail(f"{w}.fold_event", "'named' is not allowed here; allowed on a bet "
                                            "placed at the deal that settles on its paytable "
                                            "alone (no showdown, no requires)")
        always = bool(r.boolean(b, w, "report_always_settled")) \
            if "report_always_settled" in b else False
        if always and fold_event != "named" and not (side and fold == "settle"):
            raise r.fail(f"{w}.report_always_settled", "true is not allowed here; it needs "
                                                       "fold_event = 'named' (the report merges "
                                                       "each fold:<event> into its event) or a "
                                                       "side bet settled after a fold")
        folds = r.string(b, w, "report_folds", allowed=("apart", "merged"), default="apart")
        if folds == "merged" and (fold_event != "named" or not side or fold != "settle"):
            raise r.fail(f"{w}.report_folds", "'merged' is not allowed here; it needs a side "
                                              "bet with fold_event = 'named' and fold = "
                                              "'settle' (a folded hand paid as any other)")
        out.append(BetDef(name, placed, side, fold, tuple(pays), paytable, requires, bonus,
                          bonus_requires, fold_event, _report_order(r, b, w), always,
                          folds == "merged"))
    if not any(b.placed == "deal" and not b.side for b in out):
        raise r.fail("game.bets", "no main bet is placed before the deal; one is the base bet "
                                  "(placed = 'deal')")
    names = [b.name for b in out]
    for b in out:
        if b.report_always_settled and f"{b.name}_always_settled" in names:
            raise r.fail(f"game.bets.{b.name}.report_always_settled",
                         f"true is not allowed: the report's key {b.name}_always_settled is "
                         "another bet's name")
    pullable = [b.name for b in out if b.placed == "deal" and not b.side
                and b.name != _base(out)]
    placed_by = {a.bet for p in d.points for a in p.actions if a.bet}
    pulled_at: dict[str, str] = {}
    for i, p in enumerate(d.points):
        for j, a in enumerate(p.actions):
            if a.pull is not None and pulled_at.setdefault(a.pull, p.name) != p.name:
                raise r.fail(f"game.decisions[{i}].actions[{j}].pull",
                             f"value {a.pull!r} is not allowed: point {pulled_at[a.pull]!r} "
                             "already pulls it; a bet is pulled back at one point only")
            if a.bet is not None and a.bet not in names:
                raise r.fail(f"game.decisions[{i}].actions[{j}].bet",
                             f"value {a.bet!r} is not allowed; allowed: {', '.join(names)}")
            if a.pull is not None and a.pull not in pullable:
                why = ("the base bet always stays" if a.pull == _base(out) else
                       "not a bet of the game" if a.pull not in names else
                       "only a main bet placed before the deal may be pulled back")
                raise r.fail(f"game.decisions[{i}].actions[{j}].pull",
                             f"value {a.pull!r} is not allowed ({why}); allowed: "
                             f"{', '.join(repr(n) for n in pullable) or 'none'} (main bets "
                             "placed before the deal, other than the base bet)")
    for b in out:
        if b.placed == "action" and b.name not in placed_by:
            raise r.fail(f"game.bets.{b.name}", f"a bet nobody places: no action has bet = "
                                                f"{b.name!r}; place it by an action or make "
                                                "it placed = 'deal'")
        if b.placed == "deal" and b.name in placed_by:
            raise r.fail(f"game.bets.{b.name}.placed", "'deal' is not allowed: an action places "
                                                       "it; use 'action'")
    return tuple(out)


_ORDER_ENTRY = re.compile(r"^(\*|[A-Za-z0-9_]+(:[A-Za-z0-9_]+)*(:\*)?)$")


def _report_order(r: ConfigReader, b: dict, w: str) -> tuple[str, ...]:
    """``report_order``: the order the exact report lists the bet's events in (each event at
    the first entry naming it, a name or a ``prefix:*`` pattern; ``*``: every event no entry
    names; the events no entry takes come last, each group in the layout's order)."""
    if "report_order" not in b:
        return ()
    v = b["report_order"]
    if not isinstance(v, list) or not v or not all(
            isinstance(x, str) and _ORDER_ENTRY.match(x) for x in v) or len(set(v)) != len(v):
        raise r.fail(f"{w}.report_order", f"value {v!r} is not allowed; expected a list of "
                                          "distinct event names, 'name:*' patterns and at most "
                                          "one '*' (every other event)")
    return tuple(v)


def _base(bets) -> str:
    return next(b.name for b in bets if b.placed == "deal" and not b.side)


def events(r: ConfigReader, game: dict, d: Description) -> Description:
    """``[game.events]``: outcome words renamed. A new name may not be another word's (as
    renamed), a category, a line or an action, so no two outcomes share a name."""
    table = r.table(game, "game", "events", required=False) or {}
    w = "game.events"
    r.keys(table, w, EVENT_WORDS)
    renamed = {k: _name(r, v, f"{w}.{k}") for k, v in table.items()}
    final = {k: renamed.get(k, k) for k in EVENT_WORDS}
    taken = {c for h in d.hands for c in RANKINGS[h.ranking]} | {ln.name for ln in d.lines} | {
        a.name for p in d.points for a in p.actions}
    for k, v in renamed.items():
        other = next((o for o in EVENT_WORDS if o != k and final[o] == v), None)
        if other is not None or v in taken:
            what = f"the event name of {other!r}" if other else \
                "a category's, a line's or an action's name"
            raise r.fail(f"{w}.{k}", f"value {v!r} is not allowed: it is {what}; choose a "
                                     "name no other event has")
    return replace(d, events=tuple(sorted(renamed.items())))
