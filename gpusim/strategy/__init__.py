"""Player strategies and their registry.

A strategy maps dealt rounds to the player's actions, one small int per decision point of the
game's decision tree (:mod:`gpusim.games.tree`; the game's ``GameSpec.decisions``)::

    decide(cards: (N, 9) int32) -> dict[str, (N,) int]    # the index of the chosen action

Card layout: ``[player hole 0:2, dealer hole 2:4, flop 4:7, turn 7, river 8]``. The answer at a
point a round does not reach (the Turn after a fold) is ignored: the tree says which points a
round reached, and what each action stakes.

Information contract: each decision may depend only on the cards its point ``sees``. A rule
strategy holds it by construction: it is a :class:`PointRules`, one function per point, and
each function is handed only its point's columns, ``fn(visible (N, len(sees)) int32) -> (N,)
int`` (a bool array reads as 0/1). The table strategies read their tables the same way; tests
also change unseen cards and check that no action moves.

- Casino Hold'em, ``{"call"}`` (1 call, 0 fold): sees the hole cards and the flop.
- Texas Hold'em Bonus, ``{"flop", "turn", "river"}``: ``flop`` (1 bet the Flop bet, 0 fold)
  sees the hole cards; ``turn`` (1 bet, 0 check) also the flop; ``river`` also the turn card.

The dealer's cards are never seen. Strategies are looked up by game and name::

    get_strategy("basic", rules) -> Strategy
    register_strategy(game, name, factory)     # factory(rules) -> Strategy
    strategy_names(game) -> tuple[str, ...]

Each game's spec lists its strategies (``GameSpec.strategies``): rule lists, whose decide
functions live in :mod:`gpusim.strategy.basic`, and table strategies, read from the exact
decision tables by :mod:`gpusim.strategy.optimal`. The registry starts from the specs; a caller
may register more (or replace one) with :func:`register_strategy`. If a strategy's tables cannot
be had, :func:`get_strategy` says so in one line (and :func:`resolve_strategy` falls back to
``basic`` with a note).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol, runtime_checkable

from gpusim.games import SPECS, GameSpec, StrategyEntry, spec_for
from gpusim.games.spec import load
from gpusim.games.tree import decide_points

__all__ = [
    "DECISIONS",
    "PointRules",
    "RuleStrategy",
    "Strategy",
    "StrategyError",
    "get_strategy",
    "register_strategy",
    "resolve_strategy",
    "strategy_description",
    "strategy_names",
]

DECISIONS: dict[str, tuple[str, ...]] = {g: s.decision_points for g, s in SPECS.items()}
"""Decision keys each game's strategies return."""


class StrategyError(ValueError):
    """An unknown or unavailable strategy; the message is one line."""


@runtime_checkable
class Strategy(Protocol):
    """What the simulator and ``gpusim play`` need from a strategy (see the module docstring)."""

    name: str
    game: str

    def decide(self, cards) -> dict[str, Any]: ...


@dataclass(frozen=True, eq=False)
class PointRules:
    """A rule strategy's decision functions, one per point of ``game``'s decision tree:
    ``fns[point](visible (N, len(point.sees)) int32) -> (N,) int`` action index. Called with
    the dealt ``cards (N, 9)``, it hands each function only its point's columns
    (:func:`gpusim.games.tree.decide_points`) and returns ``{point: (N,) int8}``."""

    game: str
    fns: Mapping[str, Callable[[Any], Any]]

    def __call__(self, cards) -> dict[str, Any]:
        return decide_points(spec_for(self.game).decisions, self.fns, cards)


@dataclass(frozen=True)
class RuleStrategy:
    """A strategy given by a pure function ``fn(cards (N, 9)) -> dict[str, (N,) int]`` (a
    :class:`PointRules`, for every shipped rule strategy)."""

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


_REGISTRY: dict[str, dict[str, _Entry]] = {game: {} for game in SPECS}
_loaded = False


def _from_spec(spec: GameSpec, entry: StrategyEntry, rules) -> Strategy:
    if entry.table is not None:
        return load(spec.table_strategy_class).load(entry.table, rules)
    return RuleStrategy(entry.name, spec.name, load(entry.source), entry.description)


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for game, spec in SPECS.items():
        for entry in spec.strategies:
            _REGISTRY[game].setdefault(
                entry.name, _Entry(partial(_from_spec, spec, entry), entry.description)
            )


def register_strategy(
    game: str, name: str, factory: Callable[[Any], Strategy], description: str = ""
) -> None:
    """Register ``factory(rules) -> Strategy`` as strategy ``name`` of ``game`` (replaces)."""
    _load()
    if game not in _REGISTRY:
        raise StrategyError(f"game {game!r}: unknown; allowed: {', '.join(_REGISTRY)}")
    _REGISTRY[game][name] = _Entry(factory, description)


def strategy_names(game: str) -> tuple[str, ...]:
    """Names of the strategies of ``game``: its spec's and any registered since."""
    _load()
    if game not in _REGISTRY:
        raise StrategyError(f"game {game!r}: unknown; allowed: {', '.join(_REGISTRY)}")
    return tuple(sorted(_REGISTRY[game]))


def strategy_description(game: str, name: str) -> str:
    _load()
    entry = _REGISTRY.get(game, {}).get(name)
    return entry.description if entry else ""


def get_strategy(name: str, rules) -> Strategy:
    """The strategy ``name`` for ``rules.game``; :class:`StrategyError` if unknown/unavailable."""
    _load()
    spec = spec_for(rules)
    entries = _REGISTRY[spec.name]
    if name not in entries:
        if spec.strategy(name) is not None:
            raise StrategyError(
                f"strategy {name!r} for {spec.name} is not available (it is not registered); "
                f"available: {', '.join(sorted(entries))}"
            )
        raise StrategyError(
            f"strategy {name!r}: unknown for {spec.name}; allowed: {', '.join(sorted(entries))}"
        )
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
