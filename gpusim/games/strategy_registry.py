"""The strategies of every game, by name: the registry the layers above look strategies up in.

Each game's spec lists its strategies (``GameSpec.strategies``): rule lists (a
:class:`~gpusim.strategy.PointRules`: a described game's, built from its description by
:mod:`gpusim.games.described.engine`; a plugin's, in its package) and table strategies, read from
the exact decision tables by the spec's ``table_strategy_class``. A caller may register more (or
replace one) with :func:`register_strategy`::

    get_strategy("basic", rules) -> Strategy
    register_strategy(game, name, factory)     # factory(rules) -> Strategy
    strategy_names(game) -> tuple[str, ...]

If a strategy's tables cannot be had, :func:`get_strategy` says so in one line (and
:func:`resolve_strategy` falls back to ``basic`` with a note). Solving missing tables is not
done here (:func:`gpusim.runs.exact_on_demand.prepare_strategy` does it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from gpusim.games import SPECS, spec_for
from gpusim.games.spec import GameSpec, StrategyEntry, load
from gpusim.strategy import RuleStrategy, Strategy, StrategyError

__all__ = [
    "check_strategy_name",
    "get_strategy",
    "register_strategy",
    "resolve_strategy",
    "strategy_description",
    "strategy_names",
]


@dataclass(frozen=True)
class _Entry:
    factory: Callable[[Any], Strategy]
    description: str


_REGISTRY: dict[str, dict[str, _Entry]] = {}
_SOURCES: dict[str, GameSpec] = {}
"""The spec each game's entries were made from: a game registered again (another spec under
the name) gets its spec's entries again."""


def _from_spec(spec: GameSpec, entry: StrategyEntry, rules) -> Strategy:
    if entry.table is not None:
        return load(spec.table_strategy_class).load(entry.table, rules)
    if entry.source.startswith("rules:") and spec.rule_strategy is not None:
        fn = spec.rule_strategy(entry.source.removeprefix("rules:"))
    else:
        fn = load(entry.source)
    return RuleStrategy(entry.name, spec.name, fn, entry.description)


def _load(game: str) -> dict[str, _Entry]:
    """The strategies of ``game``, its spec's entries made on first use (each game apart: a run
    reads one game, and building every game's spec cost start-up time); StrategyError for a
    game no spec has."""
    spec = SPECS.get(game)
    if spec is None:
        raise StrategyError(f"game {game!r}: unknown; allowed: {', '.join(SPECS)}")
    entries = _REGISTRY.setdefault(game, {})
    if _SOURCES.get(game) is not spec:
        _SOURCES[game] = spec
        for entry in spec.strategies:
            entries.setdefault(entry.name,
                               _Entry(partial(_from_spec, spec, entry), entry.description))
    return entries


def register_strategy(
    game: str, name: str, factory: Callable[[Any], Strategy], description: str = ""
) -> None:
    """Register ``factory(rules) -> Strategy`` as strategy ``name`` of ``game`` (replaces)."""
    _load(game)[name] = _Entry(factory, description)


def strategy_names(game: str) -> tuple[str, ...]:
    """Names of the strategies of ``game``: its spec's and any registered since."""
    return tuple(sorted(_load(game)))


def strategy_description(game: str, name: str) -> str:
    entry = _load(game).get(name) if game in SPECS else None
    return entry.description if entry else ""


def check_strategy_name(name: str, rules) -> None:
    """:class:`StrategyError` unless ``name`` is a registered strategy of ``rules.game``; nothing
    is built (no JAX import)."""
    spec = spec_for(rules)
    entries = _load(spec.name)
    if name not in entries:
        if spec.strategy(name) is not None:
            raise StrategyError(
                f"strategy {name!r} for {spec.name} is not available (it is not registered); "
                f"available: {', '.join(sorted(entries))}"
            )
        raise StrategyError(
            f"strategy {name!r}: unknown for {spec.name}{spec.why_missing(name)}; allowed: "
            f"{', '.join(sorted(entries))}"
        )


def get_strategy(name: str, rules) -> Strategy:
    """The strategy ``name`` for ``rules.game``; :class:`StrategyError` if unknown/unavailable."""
    check_strategy_name(name, rules)
    spec = spec_for(rules)
    entries = _load(spec.name)
    try:
        strategy = entries[name].factory(rules)
    except (FileNotFoundError, ModuleNotFoundError, StrategyError) as exc:
        msg = " ".join(str(exc).split())
        raise StrategyError(f"strategy {name!r} for {spec.name} is not available: {msg}") from None
    return strategy


def resolve_strategy(name: str | None, rules) -> tuple[Strategy, str | None]:
    """``name`` or the config's default strategy, and a note when a fallback was used.

    An explicitly named strategy must exist (:class:`StrategyError` otherwise). When the config's
    default (usually ``optimal``) is unavailable, fall back to ``basic`` and say why.
    """
    if name is not None:
        return get_strategy(name, rules), None
    try:
        return get_strategy(rules.default_strategy, rules), None
    except StrategyError as exc:
        note = f"{exc}; using 'basic' instead"
        return get_strategy("basic", rules), note
