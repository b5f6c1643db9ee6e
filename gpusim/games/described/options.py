"""Config options of a described game: ``[game.options.<name>]`` declares a key ``[rules]
<name>`` that a config of the game may set, and what each of its values writes into the
``[game]`` table before the description is read.

An option is a choice (``values``, a ``default`` among them, and ``sets``: for a key path of
``[game]``, the value written there for each option value; a value not listed leaves the key as
the description writes it) or a hand (``type = "hand"``: the config writes ``[rules.<name>]``
``hand`` and ``rank``, a category and the lowest rank that names it, and the hand is written at
``showdown.qualifier``). An option changes how the game settles only, never its cards, hands,
decisions, bets placed, paytable lines or strategies, so every config of the game shares one
spec; each value of each option is read and checked when the description is. The config's
``rules.to_dict()`` carries the values, so its hash tells configs apart.
"""

from __future__ import annotations

import copy
from typing import Any

from gpusim.cards import RANKS
from gpusim.games.described.description import (
    RANKINGS,
    Description,
    OptionDef,
    _name,
    _named_tables,
    _show,
    lowest_rank,
)
from gpusim.rules import ConfigError, ConfigReader

__all__ = ["apply", "check", "config_values", "read_options", "value_dict"]

_KINDS = ("choice", "hand")
_HAND_KEY = "showdown.qualifier"
_NAMED_BY_RANK = ("pair", "three_of_a_kind", "four_of_a_kind")
_CHANGES = ("how bets settle (showdown pays, requires, fold, fold_event, bonus_requires, a "
            "paytable's otherwise, unlisted and event_names) and the dealer's qualifier")


def _toml(value: Any) -> str:
    """A value as TOML writes it (an array of booleans as ``[false, true]``)."""
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return _show(value)


def _key(value: Any) -> str:
    """An option value as a TOML key of ``sets`` writes it (``true``, ``false``, the string)."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _table_at(game: dict, path: str) -> tuple[dict | None, str]:
    """(the table holding the path's last key, that key); None when a table on the way is
    missing."""
    *parents, last = path.split(".")
    table: Any = game
    for p in parents:
        table = table.get(p) if isinstance(table, dict) else None
    return (table if isinstance(table, dict) else None), last


def read_options(r: ConfigReader, game: dict) -> tuple[OptionDef, ...]:
    """``[game.options]`` as OptionDefs (what each value writes is checked by :func:`check`)."""
    table = r.table(game, "game", "options", required=False) or {}
    out = []
    for name, o, w in _named_tables(r, table, "options",
                                    ("description", "type", "values", "default", "sets")):
        desc = r.string(o, w, "description")
        kind = r.string(o, w, "type", allowed=_KINDS, default="choice")
        sets_raw = o.get("sets")
        if kind == "hand":
            if "values" in o:
                raise r.fail(f"{w}.values", "not allowed with type = 'hand' (the config writes "
                                            "a hand and a rank)")
            if sets_raw != [_HAND_KEY]:
                raise r.fail(f"{w}.sets", f"value {_toml(sets_raw)} is not allowed; allowed: "
                                          f"[{_HAND_KEY!r}] (the key that takes a hand)")
            if _table_at(game, _HAND_KEY)[0] is None:
                raise r.fail(f"{w}.sets", "not allowed: the game has no [game.showdown]")
            default = _hand(r, o.get("default"), f"{w}.default", None)
            out.append(OptionDef(name, desc, kind, (), default, ((_HAND_KEY, ()),)))
            continue
        values = o.get("values")
        if not isinstance(values, list) or len(values) < 2 or len(
                {_key(v) for v in values}) != len(values) or not (
                all(isinstance(v, bool) for v in values)
                or all(isinstance(v, str) for v in values)):
            raise r.fail(f"{w}.values", f"value {_toml(values)} is not allowed; expected an "
                                        "array of two or more distinct values, all true/false "
                                        "or all strings")
        allowed = ", ".join(_show(v) for v in values)
        if "default" not in o:
            raise r.fail(f"{w}.default", f"missing; allowed: {allowed}")
        default = o["default"]
        if not any(default == v and type(default) is type(v) for v in values):
            raise r.fail(f"{w}.default", f"value {_show(default)} is not allowed; allowed: "
                                         f"{allowed}")
        if not isinstance(sets_raw, dict) or not sets_raw:
            raise r.fail(f"{w}.sets", "missing or not allowed; expected a table of key paths "
                                      "in [game], each a table of option value = what is "
                                      "written there, e.g. { \"bets.trips.requires\" = "
                                      "{ true = \"beat_dealer\" } }")
        keys = {_key(v): v for v in values}
        sets = []
        for path, mapping in sets_raw.items():
            wp = f"{w}.sets.{path!r}"
            parts = path.split(".")
            for part in parts:
                _name(r, part, wp)
            if len(parts) < 2 or parts[0] in ("name", "title", "options"):
                raise r.fail(wp, "the key path is not allowed; expected a key inside a table of "
                                 "[game], e.g. 'showdown.qualifier' or 'bets.trips.requires'")
            if _table_at(game, path)[0] is None:
                raise r.fail(wp, f"the key path names no table of [game] "
                                 f"('{path.rpartition('.')[0]}' is not one)")
            if not isinstance(mapping, dict) or not mapping:
                raise r.fail(wp, "value is not allowed; expected a table of option value = what "
                                 "is written, e.g. { true = \"beat_dealer\" }")
            for k in mapping:
                if k not in keys:
                    raise r.fail(f"{wp}.{k}", f"not a value of the option; allowed: {allowed}")
            sets.append((path, tuple((keys[k], v) for k, v in mapping.items())))
        out.append(OptionDef(name, desc, kind, tuple(values), default, tuple(sets)))
    return tuple(out)


def _hand(r: ConfigReader, value: Any, where: str, ranking: str | None) -> tuple[str, str]:
    """(category, rank) of a hand option's value ``{ hand = ..., rank = ... }``; with a
    ranking, the category must be one of it and the rank must name a hand of it (for a
    category not named by rank, a rank that every such hand reaches: it means any)."""
    if not isinstance(value, dict):
        raise r.fail(where, f"value {_show(value)} is not allowed; expected a table "
                            "{ hand = 'pair', rank = '2' }")
    r.keys(value, where, ("hand", "rank"))
    cats = RANKINGS[ranking] if ranking else tuple(dict.fromkeys(
        c for k in RANKINGS.values() for c in k))
    hand = r.string(value, where, "hand", allowed=cats)
    rank = r.string(value, where, "rank", allowed=tuple(RANKS))
    if ranking and hand not in ("high_card", *_NAMED_BY_RANK):
        low = lowest_rank(hand, {ranking})
        if RANKS.index(rank) > low:
            raise r.fail(f"{where}.rank", f"value {rank!r} is not allowed with hand {hand!r}; "
                                          f"allowed: {', '.join(RANKS[: low + 1])} (any "
                                          f"{hand})")
    return hand, rank


def _hand_text(value: tuple[str, str]) -> str:
    """A hand option's value as the description writes a hand (``"pair of 2s"``, ``"Q"``)."""
    hand, rank = value
    if hand in _NAMED_BY_RANK:
        return f"{hand} of {rank}s"
    return rank if hand == "high_card" else hand


def apply(game: dict, options: tuple[OptionDef, ...], values: dict) -> dict:
    """A copy of ``game`` with each option's value (``values``: {option: value}) written."""
    out = copy.deepcopy(game)
    out.pop("options", None)
    for o in options:
        v = values[o.name]
        for path, pairs in o.sets:
            table, key = _table_at(out, path)
            assert table is not None  # checked when the option was read
            if o.kind == "hand":
                table[key] = _hand_text(v)
            for value, written in pairs:
                if _key(value) == _key(v):
                    table[key] = copy.deepcopy(written)
    return out


def _frame(d: Description) -> tuple:
    """What no option may change (see the module docstring)."""
    return (d.name, d.title, d.player, d.dealer, d.dealer_up, d.streets, d.hands, d.lines,
            d.points, d.strategies, d.events, (d.showdown or (None, None))[:2],
            tuple((b.name, b.placed, b.side, b.paytable, b.bonus) for b in d.bets),
            tuple((p.name, p.hand, p.lines) for p in d.paytables))


def check(r: ConfigReader, game: dict, d: Description, read) -> None:
    """Each option's every value, the others at their defaults, makes a valid description of
    the same frame as ``d`` (the defaults'); ``read(r, game)`` reads a ``[game]`` table."""
    defaults = dict(d.chosen)
    for o in d.options:
        w = f"game.options.{o.name}"
        if o.kind == "hand":
            assert d.showdown is not None  # its table is there (read_options)
            _hand(r, _value_dict(o, o.default), f"{w}.default", d.hand(d.showdown[1]).ranking)
            continue
        for v in o.values:
            if _key(v) == _key(o.default):
                continue
            try:
                other = read(r, apply(game, d.options, {**defaults, o.name: v}))
            except ConfigError as exc:
                problem = str(exc).removeprefix(f"{r.source}: ")
                raise r.fail(f"{w}.sets", f"with {o.name} = {_show(v)} the description is not "
                                          f"valid: {problem}") from None
            if _frame(other) != _frame(d):
                raise r.fail(f"{w}.sets", f"with {o.name} = {_show(v)} the game changes beyond "
                                          f"what an option may change: {_CHANGES}")


def _value_dict(o: OptionDef, value: Any) -> Any:
    return {"hand": value[0], "rank": value[1]} if o.kind == "hand" else value


def value_dict(d: Description) -> dict:
    """{option: value as a config writes it} of ``d`` (a hand as ``{hand, rank}``)."""
    return {o.name: _value_dict(o, v) for o, (_, v) in zip(d.options, d.chosen, strict=True)}


def config_values(r: ConfigReader, doc: dict, d: Description) -> tuple[tuple[str, Any], ...]:
    """((option, value), ...) a config sets in ``[rules]``, the defaults for those it leaves
    out, in the order the options are declared."""
    table = r.table(doc, "", "rules", required=False) or {}
    r.keys(table, "rules", tuple(o.name for o in d.options))
    out = []
    for o in d.options:
        w = f"rules.{o.name}"
        if o.name not in table:
            out.append((o.name, o.default))
        elif o.kind == "hand":
            assert d.showdown is not None  # a hand option sets its qualifier (checked)
            out.append((o.name, _hand(r, table[o.name], w, d.hand(d.showdown[1]).ranking)))
        else:
            v = table[o.name]
            if not any(v == x and type(v) is type(x) for x in o.values):
                raise r.fail(w, f"value {_show(v)} is not allowed; allowed: "
                                f"{', '.join(_show(x) for x in o.values)}")
            out.append((o.name, v))
    return tuple(out)
