"""Reading and checking the sections of a game description after its ``cards``: hands, lines,
showdown, decisions, bets, paytables and rule strategies (see
:mod:`gpusim.games.described.description`). Each check raises one ConfigError line naming the
key path, the value and what is allowed."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from functools import cache

from gpusim.cards import RANKS
from gpusim.games.described.bets import bets, events, paytables, showdown
from gpusim.games.described.conditions import parse_condition, parse_rank
from gpusim.games.described.description import (
    CONDITIONS,
    RANKING_SIZES,
    RANKINGS,
    SHOWDOWN,
    ActionDef,
    Description,
    HandDef,
    LineDef,
    PointDef,
    RuleDef,
    _int,
    _name,
    _named_tables,
    _show,
    _str_list,
    lowest_rank,
)
from gpusim.games.described.meter import meter
from gpusim.games.described.options import apply, check, read_options
from gpusim.games.described.starting import parse_line as parse_starting_line
from gpusim.rules import ConfigReader

__all__ = ["complete", "parse_description", "parse_strategies", "with_options"]

_STRATEGY = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
_RESERVED = {"description": "a strategy's description",
             SHOWDOWN: f"next = {SHOWDOWN!r} ends the decisions"}


def _hands(r: ConfigReader, game: dict, d: Description) -> tuple[HandDef, ...]:
    table = r.table(game, "game", "hands", required=True) or {}
    cols = d.columns
    out = []
    for name, h, w in _named_tables(r, table, "hands", ("cards", "ranking")):
        ranking = r.string(h, w, "ranking", allowed=tuple(RANKINGS))
        columns: list[int] = []
        for src in _str_list(r, h, w, "cards"):
            seat, colon, k = src.partition(":")
            if seat not in ("player", "dealer", "board") or (colon and seat != "board") or (
                    colon and not k.isdigit()):
                raise r.fail(f"{w}.cards", f"{src!r} is not allowed; allowed: 'player', "
                                           "'dealer', 'board' or 'board:K' (the first K "
                                           "community cards)")
            have = cols.get(seat, ())
            if not have:
                raise r.fail(f"{w}.cards", f"{src!r} is not allowed: the game deals no "
                                           f"{seat} cards (game.cards)")
            if k and not 1 <= int(k) <= len(have):
                raise r.fail(f"{w}.cards", f"{src!r} is not allowed; the board has "
                                           f"{len(have)} cards: allowed 'board:1' to "
                                           f"'board:{len(have)}' or 'board'")
            cards = have[: int(k)] if k else have
            if set(cards) & set(columns):
                raise r.fail(f"{w}.cards", f"{src!r} is not allowed: its cards are already in "
                                           "the hand; a hand holds each card once")
            columns += cards
        if len(columns) not in RANKING_SIZES[ranking]:
            raise r.fail(w, f"a hand of {len(columns)} cards is not allowed for ranking "
                            f"{ranking!r}; it ranks hands of "
                            f"{' or '.join(map(str, RANKING_SIZES[ranking]))} cards")
        out.append(HandDef(name, tuple(columns), ranking))
    if not out:
        raise r.fail("game.hands", "missing; describe at least one hand")
    return tuple(out)


def _lines(r: ConfigReader, game: dict, d: Description) -> tuple[LineDef, ...]:
    table = r.table(game, "game", "lines", required=False) or {}
    rankings = {h.ranking for h in d.hands}
    cats = set().union(*(RANKINGS[k] for k in rankings))
    out = []
    starting = {k: v for k, v in table.items() if isinstance(v, dict) and "hands" in v}
    for name, spec in starting.items():  # starting-hand ranges (gpusim.games.described.starting)
        w = f"game.lines.{name}"
        r.keys(spec, w, ("hands", "dealer_hands"))
        out.append(LineDef(name, "", 0, 0, (), *parse_starting_line(r, spec, w, name, d)))
    table = {k: v for k, v in table.items() if k not in starting}
    for name, spec, w in _named_tables(r, table, "lines", ("category", "ranks", "categories",
                                                           "hands")):
        if "categories" in spec:
            out.append(_group_line(r, spec, w, name, rankings))
            continue
        cat = r.string(spec, w, "category", allowed=tuple(sorted(cats)))
        lo_hi = r.string(spec, w, "ranks")
        lo_t, sep, hi_t = lo_hi.partition("-")
        lo = parse_rank(r, lo_t, f"{w}.ranks")
        hi = parse_rank(r, hi_t if sep else lo_t, f"{w}.ranks")
        if lo > hi:
            raise r.fail(f"{w}.ranks", f"value {lo_hi!r} is not allowed; write low-high, "
                                       "e.g. '6-10'")
        if name in cats:
            raise r.fail(w, f"the name {name!r} is a category's; choose another")
        out.append(LineDef(name, cat, lo, hi))
    # the splits partition their category's ranks
    for cat in {ln.category for ln in out if not ln.group and not ln.hands}:
        covered = [0] * 13
        for ln in out:
            if ln.category == cat:
                for k in range(ln.lo, ln.hi + 1):
                    covered[k] += 1
        lows = lowest_rank(cat, rankings)
        bad = [RANKS[k] for k in range(lows, 13) if covered[k] != 1]
        if bad:
            kind = "overlap" if any(c > 1 for c in covered) else "leave a gap"
            raise r.fail("game.lines", f"the lines splitting {cat!r} {kind} at rank(s) "
                                       f"{', '.join(bad)}; they must cover {RANKS[lows]}-A once "
                                       "each")
    return tuple(out)


def _group_line(r: ConfigReader, spec: dict, w: str, name: str, rankings: set) -> LineDef:
    """A line of whole categories (``categories``): two or more distinct categories of one
    ranking a hand of the game uses, neither ``category`` nor ``ranks`` beside them."""
    for key in ("category", "ranks"):
        if key in spec:
            raise r.fail(f"{w}.{key}", "not allowed with 'categories' (a line either splits "
                                       "one category by rank or groups whole categories)")
    value = spec["categories"]
    fits = [k for k in sorted(rankings) if isinstance(value, list) and all(
        isinstance(v, str) and v in RANKINGS[k] for v in value)]
    if not fits or len(value) < 2 or len(set(value)) < len(value):
        allowed = "; ".join(f"{k}: {', '.join(RANKINGS[k])}" for k in sorted(rankings))
        raise r.fail(f"{w}.categories", f"value {_show(value)} is not allowed; expected an "
                                        "array of two or more distinct categories of one "
                                        f"ranking ({allowed})")
    if name in set().union(*(RANKINGS[k] for k in rankings)):
        raise r.fail(w, f"the name {name!r} is a category's; choose another")
    return LineDef(name, "", 0, 0, tuple(value))


def _points(r: ConfigReader, game: dict, d: Description) -> tuple[PointDef, ...]:
    raw = game.get("decisions", [])
    if not isinstance(raw, list) or not all(isinstance(p, dict) for p in raw):
        raise r.fail("game.decisions", "value is not allowed; expected [[game.decisions]] tables")
    names = [p.get("name") for p in raw]
    cols = d.columns
    out: list[PointDef] = []
    for i, p in enumerate(raw):
        w = f"game.decisions[{i}]"
        r.keys(p, w, ("name", "street", "actions"))
        name = _name(r, p.get("name"), f"{w}.name")
        if name in _RESERVED:  # a word with a meaning of its own at that place
            raise r.fail(f"{w}.name", f"value {name!r} is not allowed ({_RESERVED[name]}); "
                                      "choose another name")
        street = _int(r, p, w, "street", 0, len(d.streets), 0)
        if i and street < out[-1].street:
            raise r.fail(f"{w}.street", f"value {street} is not allowed; a point comes at or "
                                        f"after the street of the one before ({out[-1].street})")
        acts = p.get("actions")
        if not isinstance(acts, list) or len(acts) < 2 or not all(isinstance(a, dict)
                                                                  for a in acts):
            raise r.fail(f"{w}.actions", "value is not allowed; expected two or more action "
                                         "tables")
        actions = []
        for j, a in enumerate(acts):
            wa = f"{w}.actions[{j}]"
            r.keys(a, wa, ("name", "fold", "bet", "times", "pull", "next"))
            an = _name(r, a.get("name"), f"{wa}.name")
            fold = bool(r.boolean(a, wa, "fold")) if "fold" in a else False
            bet = _name(r, a["bet"], f"{wa}.bet") if "bet" in a else None
            times = _int(r, a, wa, "times", 1, 100, 1) if bet else 0
            if "times" in a and not bet:
                raise r.fail(f"{wa}.times", "not allowed without 'bet' (the bet it places)")
            pull = _name(r, a["pull"], f"{wa}.pull") if "pull" in a else None
            nxt = a.get("next")
            if nxt is not None and nxt != SHOWDOWN and nxt not in names[i + 1:]:
                later = ", ".join(repr(n) for n in names[i + 1:]) or "none"
                raise r.fail(f"{wa}.next", f"value {_show(nxt)} is not allowed; allowed: a later "
                                           f"point ({later}) or {SHOWDOWN!r} (no more "
                                           "decisions)")
            if fold and (bet or pull or nxt):
                raise r.fail(wa, "a fold places, pulls and leads to nothing; remove bet, pull "
                                 "and next")
            actions.append(ActionDef(an, fold, bet, times, pull, nxt))
        twice = [a.name for k, a in enumerate(actions)
                 if a.name in {b.name for b in actions[:k]}]
        if twice:
            raise r.fail(f"{w}.actions", f"action name {twice[0]!r} is used twice; action "
                                         "names must all differ")
        # actions that place, pull and fold nothing differ only by where they lead
        if not any(a.bet or a.pull or a.fold for a in actions) and not (all(
                a.next for a in actions) and len({a.next for a in actions}) > 1):
            raise r.fail(f"{w}.actions", f"the actions of point {name!r} "
                                         f"({', '.join(repr(a.name) for a in actions)}) change "
                                         "nothing; at least one must place, pull or fold "
                                         "(bet, pull, fold = true)")
        seen = cols["player"] + cols.get("dealer", ())[: d.dealer_up] + cols.get(
            "board", ())[: sum(d.streets[:street])]
        out.append(PointDef(name, street, tuple(actions), tuple(seen)))
    twice = [n for k, n in enumerate(names) if n in names[:k]]
    if twice:
        raise r.fail("game.decisions", f"point name {twice[0]!r} is used twice; point names "
                                       "must all differ")
    # a point after the first is reached by an action that leads to it, or by the point
    # before it continuing (an action without next and without fold goes on to the next point)
    for i, p in enumerate(out[1:], 1):
        led = any(a.next == p.name for q in out[:i] for a in q.actions)
        falls = any(not a.fold and a.next is None for a in out[i - 1].actions)
        if not (led or falls):
            raise r.fail(f"game.decisions[{i}]", f"point {p.name!r} is unreachable: no action "
                                                 f"leads to it; allowed: next = {p.name!r} on "
                                                 "an earlier point's action, or an action of "
                                                 "the point before that neither folds nor has "
                                                 "next")
    return tuple(out)


def parse_strategies(r: ConfigReader, game: dict, d: Description):
    """The rule strategies of ``game["strategies"]``, read against the description ``d``."""
    table = r.table(game, "game", "strategies", required=False) or {}
    points = {p.name: p for p in d.points}
    out = []
    for name, s in table.items():
        w = f"game.strategies.{name}"
        if not _STRATEGY.match(name):
            raise r.fail(w, f"the name {name!r} is not allowed; a strategy name is lowercase "
                            "letters, digits, '-' and '_'")
        if not isinstance(s, dict):
            raise r.fail(w, "value is not allowed; expected a table")
        if "table" in s or "optimal_for" in s:  # parse_table_names, parse_exact_strategies
            continue
        r.keys(s, w, ("description", *points))
        desc = r.string(s, w, "description", default="")
        per_point = []
        for pname, point in points.items():
            rules = s.get(pname)
            wp = f"{w}.{pname}"
            if not isinstance(rules, list) or not rules or not all(isinstance(x, dict)
                                                                  for x in rules):
                raise r.fail(wp, "missing or not allowed; expected an array of rules, e.g. "
                                 "[{ at_least = 'pair', action = 'raise' }, { action = 'fold' }]")
            parsed = []
            for k, rule in enumerate(rules):
                wr = f"{wp}[{k}]"
                r.keys(rule, wr, ("action", *CONDITIONS))
                action = r.string(rule, wr, "action", allowed=tuple(a.name for a in point.actions))
                conds = tuple((c, parse_condition(r, d, point, c, rule[c], f"{wr}.{c}"))
                              for c in CONDITIONS if c in rule)
                if k == len(rules) - 1 and conds:
                    raise r.fail(wr, "the last rule must have no condition (what is done "
                                     "otherwise)")
                if k < len(rules) - 1 and not conds:
                    raise r.fail(wr, "a rule without a condition must come last")
                parsed.append(RuleDef(action, conds))
            per_point.append((pname, tuple(parsed)))
        out.append((name, desc, tuple(per_point)))
    return tuple(out)


def parse_table_names(r: ConfigReader, game: dict) -> tuple[tuple[str, str, str], ...]:
    """The strategies of ``game["strategies"]`` that name a table strategy of the game's exact
    solver (``{ description = "...", table = "optimal" }``): (name, description, table). Which
    tables the solver has is checked when the game is built
    (:func:`gpusim.games.game_registry.register_description`)."""
    table = r.table(game, "game", "strategies", required=False) or {}
    out = []
    for name, s in table.items():
        if not isinstance(s, dict) or "table" not in s:
            continue
        w = f"game.strategies.{name}"
        r.keys(s, w, ("description", "table"))
        out.append((name, r.string(s, w, "description", default=""), r.string(s, w, "table")))
    return tuple(out)


EXACT_FOR = ("main",)
"""What an exact strategy besides ``optimal`` may weigh (``optimal_for``)."""


def parse_exact_strategies(r: ConfigReader, game: dict) -> tuple[tuple[str, str, str], ...]:
    """The strategies of ``game["strategies"]`` that the exact solver decides on some of the
    bets (``{ description = "...", optimal_for = "main" }``: the best action for the main game
    alone, the side bets left out of the weighing but still counted): (name, description,
    bets)."""
    table = r.table(game, "game", "strategies", required=False) or {}
    out = []
    for name, s in table.items():
        if not isinstance(s, dict) or "optimal_for" not in s:
            continue
        w = f"game.strategies.{name}"
        if name == "optimal":
            raise r.fail(w, "the name 'optimal' is not allowed: it is the exact strategy of "
                            "every bet; choose another name, e.g. 'optimal-main'")
        r.keys(s, w, ("description", "optimal_for"))
        out.append((name, r.string(s, w, "description", default=""),
                    r.string(s, w, "optimal_for", allowed=EXACT_FOR)))
    return tuple(out)


def _check_used(r: ConfigReader, d: Description) -> None:
    used = {b.paytable for b in d.bets} | {b.bonus for b in d.bets}
    for t in d.paytables:
        if t.name not in used:
            raise r.fail(f"game.paytables.{t.name}", "no bet settles on it (paytable or bonus)")
    for i, p in enumerate(d.points):
        if any(a.pull for a in p.actions) and any(a.fold for q in d.points[:i]
                                                  for a in q.actions):
            raise r.fail(f"game.decisions[{i}]", "a pull after a point that can fold is not "
                                                 "supported")


REPORT_KEYS = ("format", "game", "config", "strategy", "deals_counted", "main", "bets",
               "max_win", "decisions", "first_decision", "paytable_changes", "config_hash")
"""The exact report's own keys (a hand table may not take one)."""


def _report(r: ConfigReader, game: dict, d: Description) -> Description:
    """``[game.report]``: ``hand_table``, the key under which the exact report also writes the
    first decision by two-card starting hand (``{"AKo": {"ev_<action>": ..., "action": ...}}``,
    the hands in the 13 x 13 chart's order); ``first_decision_order``, the order of the
    ``first_decision`` rows (``"strength"``, or ``"chart"``: that chart's order and names, for
    rows of two player cards without an up card); ``first_decision_note``, a line the report
    writes beside those rows."""
    table = r.table(game, "game", "report", required=False) or {}
    w = "game.report"
    r.keys(table, w, ("hand_table", "first_decision_order", "first_decision_note"))
    two_cards = d.player == 2 and not d.dealer_up and d.points[0].street == 0
    key = None
    if "hand_table" in table:
        key = _name(r, table["hand_table"], f"{w}.hand_table")
        if key in REPORT_KEYS:
            raise r.fail(f"{w}.hand_table", f"value {key!r} is not allowed: the report has that "
                                            f"key; choose another name")
        if not two_cards:
            raise r.fail(f"{w}.hand_table", "not allowed: the first decision does not see the "
                                            "player's two cards alone")
    order = r.string(table, w, "first_decision_order", allowed=("strength", "chart"),
                     default="strength")
    if order == "chart" and (d.player != 2 or d.dealer_up):
        raise r.fail(f"{w}.first_decision_order", "'chart' is not allowed: the first "
                                                  "decision's rows are not two-card hands "
                                                  "alone (two player cards, no up card)")
    note = r.string(table, w, "first_decision_note", default="")
    return replace(d, hand_table=key, first_decision_order=order, first_decision_note=note)


def complete(r: ConfigReader, game: dict, d: Description) -> Description:
    d = replace(d, hands=_hands(r, game, d))
    d = replace(d, lines=_lines(r, game, d))
    d = showdown(r, game, d)
    d = replace(d, points=_points(r, game, d))
    if not d.points:
        raise r.fail("game.decisions", "missing; describe at least one decision point")
    d = replace(d, paytables=paytables(r, game, d))
    d = replace(d, bets=bets(r, game, d))
    d = events(r, game, d)
    _check_used(r, d)
    d = meter(r, game, d)
    d = replace(d, strategies=parse_strategies(r, game, d),
                table_names=parse_table_names(r, game),
                exact_strategies=parse_exact_strategies(r, game))
    d = _report(r, game, d)
    if not any(a.bet or a.pull or a.fold for p in d.points for a in p.actions):
        raise r.fail("game.decisions", "no action places, pulls or folds anything; at least "
                                       "one must (bet, pull, fold = true)")
    # in file order: the order of bets, hands and paytables is part of the game (the base bet
    # is the first main bet placed before the deal), and a run's manifest keeps it
    return replace(d, raw=json.dumps(game, separators=(",", ":")))


def parse_description(r: ConfigReader, game: dict) -> Description:
    """The ``[game]`` table (parsed TOML) as a :class:`Description`, its options
    (``[game.options]``) at their defaults; ConfigError otherwise."""
    r.keys(game, "game", ("name", "title", "cards", "hands", "lines", "showdown", "decisions",
                          "bets", "paytables", "events", "options", "strategies", "meter",
                          "report"))
    options = read_options(r, game)
    chosen = tuple((o.name, o.default) for o in options)
    d = replace(_read(r, apply(game, options, dict(chosen))), options=options, chosen=chosen,
                raw=json.dumps(game, separators=(",", ":")))
    check(r, game, d, _read)
    return d


@cache
def with_options(d: Description, chosen: tuple) -> Description:
    """The game ``d`` with its options at ``chosen`` ((option, value), ... as
    :func:`gpusim.games.described.options.config_values` reads them)."""
    if chosen == d.chosen:
        return d
    game = json.loads(d.raw)
    applied = _read(ConfigReader(f"game {d.name}"), apply(game, d.options, dict(chosen)))
    return replace(applied, options=d.options, chosen=chosen, raw=d.raw)


def _read(r: ConfigReader, game: dict) -> Description:
    """A ``[game]`` table with its options written (no ``options`` key) as a Description."""
    w = "game"
    name = _name(r, game.get("name"), f"{w}.name")
    title = r.string(game, w, "title", default=name)
    cards = r.table(game, w, "cards", required=True) or {}
    r.keys(cards, f"{w}.cards", ("player", "dealer", "dealer_up", "streets"))
    player = _int(r, cards, f"{w}.cards", "player", 1, 7)
    dealer = _int(r, cards, f"{w}.cards", "dealer", 0, 7, 0)
    dealer_up = _int(r, cards, f"{w}.cards", "dealer_up", 0, dealer, 0)
    streets_raw = cards.get("streets", [])
    if not isinstance(streets_raw, list) or not all(
            type(s) is int and 1 <= s <= 5 for s in streets_raw):
        raise r.fail(f"{w}.cards.streets", f"value {streets_raw!r} is not allowed; expected an "
                                           "array of card counts 1..5, one per street")
    streets = tuple(streets_raw)
    if player + dealer + sum(streets) > 15:
        raise r.fail(f"{w}.cards", f"{player + dealer + sum(streets)} cards a round is not "
                                   "allowed; at most 15")
    d = Description(name=name, title=title, player=player, dealer=dealer, dealer_up=dealer_up,
                    streets=streets, hands=(), lines=(), showdown=None, points=(), bets=(),
                    paytables=(), strategies=())
    return complete(r, game, d)
