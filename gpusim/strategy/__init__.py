"""What a player strategy is, whatever the game (a described game's rule strategies are written
in its description's ``[game.strategies]`` and run by :mod:`gpusim.games.described.engine`, a
plugin's in its own package; the registry by name is :mod:`gpusim.games.strategy_registry`).

A strategy maps dealt rounds to the player's actions, one small int per decision point of the
game's decision tree (:mod:`gpusim.strategy.tree`; the game's ``GameSpec.decisions``)::

    decide(cards: (N, C) int32) -> dict[str, (N,) int]    # the index of the chosen action

``C`` is the game's cards per round (a hold'em game: ``[player hole 0:2, dealer hole 2:4, flop
4:7, turn 7, river 8]``). The answer at a point a round does not reach (the Turn after a fold)
is ignored: the tree says which points a round reached, and what each action stakes.

Information contract: each decision may depend only on the cards its point ``sees``. A rule
strategy holds it by construction: it is a :class:`PointRules`, one function per point, and
each function is handed only its point's columns, ``fn(visible (N, len(sees)) int32) -> (N,)
int`` (a bool array reads as 0/1). The table strategies (:mod:`gpusim.strategy.table_strategy`)
read their tables the same way; tests also change unseen cards and check that no action moves.

Modules: :mod:`~gpusim.strategy.tree` (decision trees), :mod:`~gpusim.strategy.features`
(poker hand features for rule lists), :mod:`~gpusim.strategy.table_strategy` and
:mod:`~gpusim.strategy.tables` (exact decision tables: lookups and file IO),
:mod:`~gpusim.strategy.equity` (exact win counting).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from gpusim.strategy.tree import DecisionPoint, decide_points

__all__ = ["PointRules", "RuleStrategy", "Strategy", "StrategyError"]


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
    """A rule strategy's decision functions, one per point of a game's decision tree ``points``:
    ``fns[point](visible (N, len(point.sees)) int32) -> (N,) int`` action index. Called with
    the dealt ``cards (N, 9)``, it hands each function only its point's columns
    (:func:`gpusim.strategy.tree.decide_points`) and returns ``{point: (N,) int8}``.
    ``gather``: how those columns are built for XLA (:func:`gpusim.strategy.tree.visible`; the
    values are the same), True where the functions read a whole hand (the evaluator, reductions
    over the cards). ``write_out``: the batch program writes the decisions out instead of
    leaving them to be fused into the settlement's loop, as it does a table strategy's
    (:mod:`gpusim.compute.program`): for functions that look up large tables or count many
    cards. ``key``: what names the functions where their import paths cannot (a described
    game's rule strategy, built per description: its strategy's name; the game's description is
    in the rules' ``structure_hash``), so that its compiled programs are cached
    (:func:`gpusim.compute.program.strategy_fingerprint`)."""

    points: tuple[DecisionPoint, ...]
    fns: Mapping[str, Callable[[Any], Any]]
    gather: bool = False
    write_out: bool = False
    key: str | None = None

    def __call__(self, cards) -> dict[str, Any]:
        return decide_points(self.points, self.fns, cards, gather=self.gather)


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
