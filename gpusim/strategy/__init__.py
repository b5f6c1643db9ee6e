"""Player strategies and their registry.

A strategy maps dealt rounds to the player's decisions::

    decide(cards: (N, 9) int32) -> dict[str, (N,) bool]

Card layout: ``[player hole 0:2, dealer hole 2:4, flop 4:7, turn 7, river 8]``.

Information contract (tests enforce it by changing unseen cards): each decision may depend only
on the cards the player has seen when it is taken.

- Casino Hold'em, ``{"call"}``: sees the hole cards and the flop, ``cards[:, [0, 1, 4, 5, 6]]``.
- Texas Hold'em Bonus, ``{"flop", "turn", "river"}``:
  ``flop`` (bet the Flop bet, else fold) sees the hole cards ``cards[:, 0:2]``;
  ``turn`` sees the hole cards and the flop; ``river`` also sees the turn ``cards[:, 7]``.
  A False ``flop`` is a fold, and then ``turn`` and ``river`` are False too.

The dealer's cards are never seen. Strategies are looked up by game and name::

    get_strategy("basic", rules) -> Strategy
    register_strategy(game, name, factory)     # factory(rules) -> Strategy
    strategy_names(game) -> tuple[str, ...]

Rule-list strategies (``always-play``, ``basic``, ``side-bet-optimal``, ``win-over-half``) live
in :mod:`gpusim.strategy.basic`. Table-driven strategies (``optimal``, ``optimal-main``) live in
``gpusim.strategy.optimal`` and register themselves when that module is imported, after the rule
lists, so a table version of a name (``win-over-half``) replaces the per-round one; the latter
stays available as :func:`gpusim.strategy.basic.thb_win_over_half`. The registry imports the
optional module lazily; if it is missing or its tables cannot be had, :func:`get_strategy` says
so in one line (and :func:`resolve_strategy` falls back to ``basic`` with a note).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

__all__ = [
    "DECISIONS",
    "RuleStrategy",
    "Strategy",
    "StrategyError",
    "get_strategy",
    "known_strategy_names",
    "register_strategy",
    "resolve_strategy",
    "strategy_description",
    "strategy_names",
]

DECISIONS: dict[str, tuple[str, ...]] = {
    "casino_holdem": ("call",),
    "holdem_bonus": ("flop", "turn", "river"),
}
"""Decision keys each game's strategies return."""

TABLE_STRATEGIES = ("optimal", "optimal-main")
"""Names provided by the optional exact-analysis module (not necessarily available)."""

_OPTIONAL_MODULES = ("gpusim.strategy.optimal",)


class StrategyError(ValueError):
    """An unknown or unavailable strategy; the message is one line."""


@runtime_checkable
class Strategy(Protocol):
    """What the simulator and ``gpusim play`` need from a strategy (see the module docstring)."""

    name: str
    game: str

    def decide(self, cards) -> dict[str, Any]: ...


@dataclass(frozen=True)
class RuleStrategy:
    """A strategy given by a pure function ``fn(cards (N, 9)) -> dict[str, (N,) bool]``."""

    name: str
    game: str
    fn: Callable[[Any], dict[str, Any]] = field(repr=False)
    description: str = ""

    def decide(self, cards) -> dict[str, Any]:
        return self.fn(cards)


@dataclass(frozen=True)
class _Entry:
    factory: Callable[[Any], Strategy]
    description: str


_REGISTRY: dict[str, dict[str, _Entry]] = {game: {} for game in DECISIONS}
_import_errors: dict[str, str] = {}
_loaded = False


def register_strategy(
    game: str, name: str, factory: Callable[[Any], Strategy], description: str = ""
) -> None:
    """Register ``factory(rules) -> Strategy`` as strategy ``name`` of ``game`` (replaces)."""
    if game not in _REGISTRY:
        raise StrategyError(f"game {game!r}: unknown; allowed: {', '.join(_REGISTRY)}")
    _REGISTRY[game][name] = _Entry(factory, description)


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    importlib.import_module("gpusim.strategy.basic")
    for module in _OPTIONAL_MODULES:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            # Only the optional module itself being absent is expected; anything else is a bug.
            if exc.name != module:
                raise
            _import_errors[module] = f"{module} is not installed"


def strategy_names(game: str) -> tuple[str, ...]:
    """Names of the strategies registered for ``game`` (after the optional imports)."""
    _load()
    if game not in _REGISTRY:
        raise StrategyError(f"game {game!r}: unknown; allowed: {', '.join(_REGISTRY)}")
    return tuple(sorted(_REGISTRY[game]))


def known_strategy_names(game: str) -> tuple[str, ...]:
    """Registered names plus the table-driven names that may be provided later."""
    return tuple(sorted(set(strategy_names(game)) | set(TABLE_STRATEGIES)))


def strategy_description(game: str, name: str) -> str:
    _load()
    entry = _REGISTRY.get(game, {}).get(name)
    return entry.description if entry else ""


def get_strategy(name: str, rules) -> Strategy:
    """The strategy ``name`` for ``rules.game``; :class:`StrategyError` if unknown/unavailable."""
    _load()
    game = rules.game
    entries = _REGISTRY[game]
    if name not in entries:
        if name in TABLE_STRATEGIES:
            why = "; ".join(_import_errors.values()) or "it is not registered"
            raise StrategyError(
                f"strategy {name!r} for {game} is not available ({why}); "
                f"available: {', '.join(sorted(entries))}"
            )
        raise StrategyError(
            f"strategy {name!r}: unknown for {game}; allowed: {', '.join(sorted(entries))}"
        )
    try:
        strategy = entries[name].factory(rules)
    except (FileNotFoundError, ModuleNotFoundError, StrategyError) as exc:
        msg = " ".join(str(exc).split())
        raise StrategyError(f"strategy {name!r} for {game} is not available: {msg}") from None
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
