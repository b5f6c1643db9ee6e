"""A described game as a :class:`~gpusim.games.spec.GameSpec`, and its rules.

:func:`spec_of` builds the spec of a :class:`Description` (once per description); the layers
above then treat the game as any other. A config either carries the description (a ``[game]``
table, which also registers the game) or names a registered described game (``game =
"three_card_poker"``) and gives its numbers: ``[stakes]`` (the base bet and each side bet) and
``[paytables.<name>]`` (a pay per line, "X:1" written X, or a string ``"A:B"``: A for every B
staked, kept as a Fraction; the stakes must then make every pay whole money).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache, partial
from typing import Any

import numpy as np

from gpusim.cards import CATEGORY_KEYS, RANKS
from gpusim.games.described.description import RANKINGS, Description
from gpusim.games.described.layout import event_returns, layout, offered_bets, shape_of, tree
from gpusim.games.described.meter import blank as blank_meter
from gpusim.games.described.meter import meter_rules
from gpusim.games.described.options import config_values, value_dict
from gpusim.games.described.sections import with_options
from gpusim.games.spec import METER_SECTION, ConfigKey, GameSpec, JointCode, StrategyEntry
from gpusim.rules import (
    BP,
    INT32_MAX,
    MAX_PAY,
    ConfigReader,
    HashedRules,
    JackpotRules,
    Paytable,
    Stakes,
    blank_paytable,
    check_int32,
    common_dict,
    common_fields,
    ratio_pay_text,
    read_ratio_paytable,
    read_stakes,
)

__all__ = ["DescribedRules", "spec_of"]


@dataclass(frozen=True)
class DescribedRules(HashedRules):
    """A config of a described game: its description and its numbers."""

    name: str
    game_def: Description = field(repr=False)
    stakes: Stakes
    paytables: tuple[tuple[str, Paytable], ...]
    default_strategy: str
    description: str = field(default="", compare=False)
    source: str = field(default="", compare=False)
    meter: JackpotRules | None = None  # the [jackpot] meter of a game with [game.meter]

    @property
    def game(self) -> str:
        return self.game_def.name

    def pays(self) -> dict[str, dict[str, int]]:
        """{paytable: {line: pay}}: an int X for X:1, a Fraction for "A:B"."""
        return {n: p.as_dict() for n, p in self.paytables}

    def to_dict(self) -> dict[str, Any]:
        # a ratio is written as the config writes it, so whole pays hash as they always have
        out: dict[str, Any] = {**common_dict(self), "paytables": {
            n: {k: ratio_pay_text(v) for k, v in t.items()} for n, t in self.pays().items()}}
        out["game"] = json.loads(self.game_def.raw)  # the manifest carries the whole game
        if self.game_def.options:  # the options' values: they change the settlement
            out["rules"] = value_dict(self.game_def)
        if self.meter is not None:
            out[METER_SECTION] = {"contribution_bp": self.meter.contribution_bp,
                                  "reset": self.meter.reset}
        return out

    def structure(self) -> DescribedRules:
        """Pays and stakes blanked (a bet stays offered or not): configs of one game that
        differ only in their numbers share one compiled program."""
        return replace(self, name="", description="", source="", default_strategy="",
                       stakes=Stakes(tuple((b, int(a > 0)) for b, a in self.stakes.amounts)),
                       paytables=tuple((n, blank_paytable(tuple(p.as_dict())))
                                       for n, p in self.paytables),
                       meter=blank_meter(self.meter))


def parse_rules(d: Description, r: ConfigReader, doc: dict, default_name: str) -> DescribedRules:
    """A config of the described game ``d``: ``game`` (its ``[game]`` table, or its name),
    the common keys, ``[stakes]``, ``[paytables]`` and, when the game declares options,
    ``[rules]`` (the game then is ``d`` with the config's option values)."""
    r.keys(doc, "", ("game", "name", "description", "default_strategy", "stakes", "paytables",
                     *(("rules",) if d.options else ()), *((METER_SECTION,) if d.meter else ())))
    spec = spec_of(d)  # the defaults' spec: options leave the stake multiples as they are
    if d.options:
        d = with_options(d, config_values(r, doc, d))
    common = common_fields(r, doc, default_name)
    side = tuple(b.name for b in d.bets if b.side)
    stakes = read_stakes(r, doc, d.base_bet, side)
    pays = r.table(doc, "", "paytables", required=bool(d.paytables)) or {}
    r.keys(pays, "paytables", tuple(p.name for p in d.paytables))
    tables = tuple((p.name, read_ratio_paytable(r, pays, p.name, p.lines)) for p in d.paytables)
    rules = DescribedRules(name=common["name"], game_def=d, stakes=stakes, paytables=tables,
                           default_strategy=common["default_strategy"],
                           description=common["description"], source=r.source,
                           meter=meter_rules(r, doc, d, stakes, tables))
    multiples = spec.stake_multiples
    lay = layout(d)
    for bet, returns in event_returns(d, rules.pays()).items():
        own = bet in stakes.as_dict()
        owner = bet if own else d.base_bet
        key = f"stakes.{owner}"
        if own or d.bet(bet).side:
            units = {stakes[bet]}
        else:
            units = {stakes[d.base_bet] * int(m) for m in set(lay.multiple_of[bet]) if m > 0}
        for e, ret in enumerate(returns):
            bad = [u for u in sorted(units) if (u * Fraction(ret)).denominator != 1]
            if bad:
                raise r.fail(key, f"value {stakes[owner]} is not allowed: bet "
                                  f"{bet!r} pays {ratio_pay_text(Fraction(ret) - 1)} "
                                  f"({lay.events[bet][e]}), so its stake must be a multiple of "
                                  f"{Fraction(ret).denominator} (money is whole units)")
        # the settlement multiplies a stake by a return's numerator over the returns' scale
        scale = math.lcm(*(Fraction(x).denominator for x in returns)) if returns else 1
        unit = stakes[bet] if own else stakes[d.base_bet] * multiples.get(bet, 1)
        check_int32(r, key, unit, math.ceil(max(returns, default=1) * scale) + scale)
    return rules


def _decode(rules: DescribedRules) -> tuple[int, dict, dict, dict]:
    d = rules.game_def
    lay = layout(d)
    base = d.base_bet
    offered = _offered(rules)
    amounts = rules.stakes.as_dict()
    events = {b: lay.event_of[b] for b in offered}
    stakes = {b: lay.multiple_of[b] * np.int64(amounts[b] if b in amounts else amounts[base])
              for b in offered}
    return lay.n_codes, events, stakes, dict(lay.action_of)


def _offered(rules: DescribedRules) -> tuple[str, ...]:
    return offered_bets(rules)


def _paytable(rules: DescribedRules, bet: str) -> dict:
    """{line: pay} of a bet's paytable as the config writes it (a ratio as ``"A:B"``)."""
    b = rules.game_def.bet(bet)
    name = b.paytable or b.bonus
    return {k: ratio_pay_text(v) for k, v in rules.pays().get(name, {}).items()} if name else {}


@cache
def spec_of(d: Description) -> GameSpec:
    """The GameSpec of a described game."""
    from gpusim.games.described.design import design_entries
    from gpusim.games.holdem import play_once_kernel, play_once_shape

    designs, design_refusals = design_entries(d)
    base = d.base_bet
    main = (base, *(b.name for b in d.bets if not b.side and b.name != base))
    side = tuple(b.name for b in d.bets if b.side)
    ranking = d.hand(d.showdown[0]).ranking if d.showdown else (
        d.hand(d.category_hand).ranking if d.category_hand else "poker")
    face_up = d.columns.get("dealer", ())[: d.dealer_up]
    solver, tables = ("gpusim.games.described.exact_report:SOLVER",
                      "gpusim.games.described.tables:DescribedTables")
    extra: dict[str, Any] = {}  # what a shape's own engine adds to the spec
    unsolved = None  # the described solver's refusal, said where `optimal` is asked for
    try:
        shape_of(d)
        solved = True
    except ValueError as exc:
        unsolved = str(exc)
        try:  # the play-once hold'em shape: counted by the community-card solver, designed
            # on the shape's own counts
            play_once_shape.play_tree_of(d)
            # (its table strategy stays the shape's: the CUDA kernel reads it; the community
            # solver writes the same tables)
            solver, tables = ("gpusim.games.described.exact_report:SOLVER",
                              "gpusim.games.holdem.play_once_described:DescribedPlayOnceTables")
            designs, design_refusals = play_once_shape.design_entries(d), {}
            extra = {"forfeited_by_fold": play_once_shape.forfeited_by_fold,
                     "side_bet_exact": play_once_shape.side_bet_exact,
                     "kernel": play_once_kernel.kernel_of(d)}
            solved = True
        except ValueError:
            try:  # the call-once hold'em shape (Casino Hold'em's): counted by the
                # community-card solver, designed on the shape's own counts, its tables read by
                # the shape's class (the CUDA kernel reads it)
                from gpusim.games.holdem import call_once_kernel, call_once_shape

                call_once_shape.call_tree_of(d)
                solver, tables = (
                    "gpusim.games.described.exact_report:SOLVER",
                    "gpusim.games.holdem.call_once_described:DescribedCallOnceTables")
                designs, design_refusals = call_once_shape.design_entries(d), {}
                extra = {"forfeited_by_fold": call_once_shape.forfeited_by_fold,
                         "kernel": call_once_kernel.kernel_of(d)}
                solved = True
            except ValueError:
                solved = False
    if not solved:
        try:  # the street-bets hold'em shape (Texas Hold'em Bonus's)
            from gpusim.games.holdem import streets_kernel, streets_shape

            streets_shape.street_tree_of(d)
            solver, tables = ("gpusim.games.holdem.streets_described:SOLVER",
                              "gpusim.games.holdem.streets_described:DescribedStreetsTables")
            designs, design_refusals = streets_shape.design_entries(d)
            extra = {"forfeited_by_fold": streets_shape.forfeited_by_fold,
                     "side_bet_exact": streets_shape.side_bet_exact,
                     "kernel": streets_kernel.kernel_of(d)}
            solved = True
        except ValueError:
            pass
    if not solved:
        try:  # any other community-card game: the community-card solver
            from gpusim.games.described.community_program import community_shape

            community_shape(d)
            solver, tables = ("gpusim.games.described.exact_report:SOLVER",
                              "gpusim.games.described.community_tables:CommunityTables")
            solved = True
        except ValueError as exc:  # a description no exact solver counts: simulated only
            board = set(d.columns.get("board", ()))
            if d.showdown is not None and board & set(d.hand(d.showdown[1]).columns):
                # the dealer's hand takes the board: the community-card solver's refusal says
                # why, the other solver's would only say that it does not count boards
                unsolved = str(exc)
    optimal: tuple[StrategyEntry, ...] = (StrategyEntry(
        "optimal", "table:optimal", "exact: the best action at every point, given the cards "
        "seen and the bets placed"),) if solved else ()
    if solved:  # the description's other exact strategies (optimal_for)
        optimal += tuple(StrategyEntry(name, f"table:{name}", desc or f"exact, for the {bets} "
                                       "bets") for name, desc, bets in d.exact_strategies)
    table_strategies = tuple(e.name for e in optimal)
    if solver.startswith("gpusim.games.holdem.streets"):
        optimal = tuple(StrategyEntry(n, f"table:{n}", t) for n, t in streets_shape.STRATEGIES)
        table_strategies = tuple(n for n, _ in streets_shape.STRATEGIES)
    return GameSpec(
        name=d.name,
        title=d.title,
        rules_type=DescribedRules,
        bets=tuple(b.name for b in d.bets),
        main_bets=main,
        side_bets=side,
        decisions=tree(d),
        # a main bet placed before the deal that no action places or pulls stays at 1x
        fixed_multiples={b: 1 for b in main[1:] if not any(
            b in a.stakes for p in tree(d) for a in p.actions)},
        paytables={b.name: d.paytable(str(b.paytable or b.bonus)).lines
                   for b in d.bets if b.paytable or b.bonus},
        strategies=optimal + tuple(StrategyEntry(name, f"rules:{name}", desc or name)
                                   for name, desc, _ in d.strategies)
        + tuple(StrategyEntry(name, f"table:{table}", desc or f"the {table} tables")
                for name, desc, table in d.table_names),
        table_strategies=table_strategies,
        table_strategy_class=tables if solved else None,
        exact_solver=solver if solved else None,
        unsolved=None if solved else unsolved,
        joint=JointCode(encoder="gpusim.games.described.engine:encode", decode=_decode,
                        reads=("joint",)),
        offered_bets=_offered,
        event_names=lambda rules: {b: layout(rules.game_def).events[b] for b in _offered(rules)},
        event_returns=partial(_event_returns, d),
        settle="gpusim.games.described.engine:settle",
        parse_rules=partial(parse_rules, d),
        paytable=_paytable,
        card_layout=d.columns,
        category_names=RANKINGS[ranking] if ranking != "poker" else CATEGORY_KEYS,
        dealer=bool(d.showdown),
        face_up=face_up,
        rule_strategy=lambda name: _rule_strategy(d, name),
        game_def=d,
        designs=designs,
        design_refusals=design_refusals,
        **extra,
        config_keys=_config_keys(d),
        paytable_tables={b.name: str(b.paytable or b.bonus) for b in d.bets
                         if (b.paytable or b.bonus) != b.name and (b.paytable or b.bonus)},
        meter_bet=d.meter[0] if d.meter else None,
        meter_event=d.meter[1] if d.meter else None,
        meter_rules=lambda rules: rules.meter,
    )


def _event_returns(d: Description, rules: DescribedRules) -> dict:
    """{bet: returns per unit} of the offered bets; the meter's event returns the meter
    (None, as :func:`gpusim.games.event_returns` documents)."""
    offered = _offered(rules)
    out = {b: r for b, r in event_returns(rules.game_def, rules.pays()).items() if b in offered}
    if d.meter is not None and d.meter[0] in out:
        bet, event = d.meter
        hit = layout(rules.game_def).events[bet].index(event)
        out[bet] = tuple(None if k == hit else x for k, x in enumerate(out[bet]))
    return out


def _config_keys(d: Description) -> tuple[ConfigKey, ...]:
    """The keys of a described game's config, as docs/config.md lists them."""
    out = [ConfigKey("game", "a [game] table (docs/describe-a-game.md), or this game's name",
                     "the game's description: a config that carries it registers the game"),
           ConfigKey(f"stakes.{d.base_bet}", f"a whole number, 1 to {INT32_MAX}",
                     "the base bet, in money units; the bets placed by actions are multiples "
                     "of it")]
    out += [ConfigKey(f"stakes.{b.name}", f"a whole number, 0 to {INT32_MAX}",
                      "a side bet, in money units", "optional; 0 or absent: not offered")
            for b in d.bets if b.side]
    for o in d.options:
        if o.kind == "hand":
            ranking = d.hand(d.showdown[1]).ranking if d.showdown else "poker"
            out += [ConfigKey(f"rules.{o.name}.hand", RANKINGS[ranking], o.description,
                              f"optional; default {o.default[0]!r}"),
                    ConfigKey(f"rules.{o.name}.rank", tuple(RANKS), "the lowest rank that "
                              "names that hand", f"optional; default {o.default[1]!r}")]
        else:
            bools = all(isinstance(v, bool) for v in o.values)
            allowed = "true or false" if bools else tuple(o.values)
            out.append(ConfigKey(f"rules.{o.name}", allowed, o.description,
                                 f"optional; default {_option_text(o.default)}"))
    if d.meter is not None:
        bet, event = d.meter
        when = f"when stakes.{bet} > 0"
        out += [ConfigKey(f"{METER_SECTION}.contribution_bp", f"a whole number, 0 to {BP}",
                          f"basis points (1/10000) of each {bet} wager added to the meter",
                          when),
                ConfigKey(f"{METER_SECTION}.reset", f"a whole number, 0 to {INT32_MAX}",
                          f"the meter after a {event} wins it (money units)", when)]
    for p in d.paytables:
        won = f"; a {d.meter[1]} wins the meter" if d.meter and d.meter[0] in {
            b.name for b in d.bets if b.paytable == p.name} else ""
        if p.pays == "for_one":
            out.append(ConfigKey(f"paytables.{p.name}", f"every line a whole number 0 to {MAX_PAY}",
                                 f"pays on the {p.hand} hand, X for 1 (the prize replaces the "
                                 f"stake; a hand on no line: {p.otherwise}){won}",
                                 lines=p.lines, pays=("X for 1",)))
            continue
        out.append(ConfigKey(f"paytables.{p.name}", f"every line a whole number 0 to {MAX_PAY}, "
                             "or a string \"A:B\"",
                             f"pays on the {p.hand} hand (0 pushes; a hand on no line: "
                             f"{p.otherwise}){won}; a ratio pay needs stakes that make it whole",
                             lines=p.lines, pays=("X:1", "A:B")))
    return tuple(out)


def _option_text(value: Any) -> str:
    """An option value as TOML writes it."""
    return ("true" if value else "false") if isinstance(value, bool) else repr(value)


def _rule_strategy(d: Description, name: str):
    from gpusim.games.described.engine import rule_strategy

    return rule_strategy(d, name)
