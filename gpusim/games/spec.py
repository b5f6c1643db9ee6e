"""What a game is, as one frozen object: :class:`GameSpec`.

Every layer above ``games/`` asks a game's spec (``spec_for(rules)``) instead of branching on
the game's name: its bets, the bets that make up the main game and their stake multiples, the
decision points and their actions, the paytables a what-if may edit, the joint outcome code
the kernels and the device reduction count, the CUDA kernel, the strategies and the exact
solver. docs/architecture.md lists what a new game must provide.

The spec names its strategies and its exact solver by import path (``"module:attribute"``), not
by object: they live in higher layers (``strategy/``, ``exact/``), and the games layer imports
nothing above itself. :func:`load` resolves such a path on first use.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "Decision",
    "GameSpec",
    "JointCode",
    "KernelSpec",
    "StrategyEntry",
    "lazy_attributes",
    "load",
]


def load(path: str) -> Any:
    """The object at ``"package.module:attribute"``."""
    module, _, attr = path.partition(":")
    return getattr(importlib.import_module(module), attr)


def lazy_attributes(package: str, module: str, names: tuple[str, ...]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package`` that imports ``package.module`` the first time
    one of ``names`` is asked for (a game's JAX settlement, which reading its spec must not
    import) and returns that attribute."""

    def __getattr__(name: str):
        if name in names:
            return getattr(importlib.import_module(f"{package}.{module}"), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__


@dataclass(frozen=True)
class Decision:
    """One decision point of a round.

    ``point``: the key a strategy returns (a (N,) bool array, True = ``yes``); ``bet``: the bet
    whose stake is placed exactly when the answer was ``yes``; ``after``: the earlier point that
    must have been ``yes`` for this one to be reached (None: every round reaches it). Counts of
    a run's ``decisions`` table are ``{point: {yes: n, no: reached - n}}``.
    """

    point: str
    yes: str
    no: str
    bet: str
    after: str | None = None


@dataclass(frozen=True)
class StrategyEntry:
    """A named strategy of a game.

    ``source`` is either ``"module:function"``, a rule strategy whose ``function(cards (N, 9)
    int32) -> {point: (N,) bool}`` decides, or ``"table:NAME"``, the exact decision tables
    ``NAME`` (one of the spec's ``table_strategies``) read by the spec's ``table_strategy_class``.
    """

    name: str
    source: str
    description: str

    @property
    def table(self) -> str | None:
        """The decision tables' name for a table strategy, else None."""
        return self.source.removeprefix("table:") if self.source.startswith("table:") else None


@dataclass(frozen=True)
class JointCode:
    """The mixed-radix joint outcome code of one round (kernels/settle_<game>.cuh).

    ``encode(settlement, bets) -> (N,) int32`` (jax, found at the import path ``encoder``)
    gives each round's code; ``decode(rules) -> (n_bins, {bet: (n_bins,) int64 event}, {bet:
    (n_bins,) int64 stake})`` (numpy) gives, per code, every offered bet's event and stake. The
    two are inverse on every code a round can produce.
    """

    encoder: str
    decode: Callable[[Any], tuple[int, dict, dict]]

    def encode(self, settlement, offered: tuple[str, ...]):
        return load(self.encoder)(settlement, offered)


@dataclass(frozen=True)
class KernelSpec:
    """The game's CUDA chunk kernel ``gpusim_<source>_chunk`` in ``kernels/<source>.cu``.

    Its arguments are ``(key0, key1, first_round, n_rounds, *head(rules), *tables, hist)``,
    then, with ``royal_buffer``, ``(buffer, count, capacity)`` for the Jackpot royal rounds.
    ``head``: import path of ``head(rules) -> tuple`` of numpy scalars (the game's flags);
    ``tables``: the names of the strategy tables it takes, in order (kernels/strategy_common.cuh).
    ``fallback_blocks_per_sm``: resident blocks per SM when the driver's occupancy query is
    unavailable (from ptxas' register count at 256 threads on a 64K-register SM).
    """

    source: str
    head: str
    tables: tuple[str, ...]
    royal_buffer: bool
    fallback_blocks_per_sm: int

    def head_args(self, rules) -> tuple:
        return tuple(load(self.head)(rules))


@dataclass(frozen=True)
class GameSpec:
    """Everything game-specific, in one place (see the module docstring).

    Data: ``name`` (the config's ``game``), ``title``, ``rules_type`` (the frozen rules
    class), ``bets`` (every bet, display order), ``main_bets`` and their ``stake_multiples``
    (per ante), ``side_bets``, ``decisions`` (in the order they are taken), ``paytables`` ({bet:
    the lines a what-if may edit}), ``strategies``, ``table_strategies`` (the names of the
    decision-table sets the exact solver writes), ``table_strategy_class`` (import path of the
    :class:`~gpusim.strategy.optimal.TableStrategy` subclass that reads them),
    ``exact_solver`` (import path of the game's ``ExactSolver``), ``kernel`` and ``joint``.

    Behaviour is given as pure functions of the game's rules (frozen dataclasses):

    - ``offered_bets(rules) -> tuple[str, ...]``: the bets a config offers, in display order;
    - ``event_names(rules) -> {bet: tuple[str, ...]}`` and ``event_returns(rules) -> {bet:
      tuple[int | None, ...]}``: the return tables;
    - ``settle``: the import path of ``settle(cards (N, 9) int32, decisions, rules, *,
      jackpot_meter=None, payout=None) -> Settlement`` (JAX; loaded on first use, so that
      reading a spec or a config never imports JAX), compiled on ``rules.structure()`` with
      the numbers of :func:`gpusim.games.payout` as arguments;
    - ``parse_rules(reader, doc, default_name) -> rules``: the game's part of a TOML config.
    """

    name: str
    title: str
    rules_type: type
    bets: tuple[str, ...]
    main_bets: tuple[str, ...]
    stake_multiples: Mapping[str, int]
    side_bets: tuple[str, ...]
    decisions: tuple[Decision, ...]
    paytables: Mapping[str, tuple[str, ...]]
    strategies: tuple[StrategyEntry, ...]
    table_strategies: tuple[str, ...]
    table_strategy_class: str
    exact_solver: str
    kernel: KernelSpec
    joint: JointCode
    offered_bets: Callable[[Any], tuple[str, ...]]
    event_names: Callable[[Any], dict]
    event_returns: Callable[[Any], dict]
    settle: str
    parse_rules: Callable[..., Any]

    @property
    def decision_points(self) -> tuple[str, ...]:
        """The keys a strategy of this game returns."""
        return tuple(d.point for d in self.decisions)

    @property
    def strategy_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.strategies)

    def settle_rounds(self, cards, decisions, rules, *, jackpot_meter=None, payout=None):
        """Settle N rounds with the game's ``settle`` (see the class docstring)."""
        return load(self.settle)(cards, decisions, rules, jackpot_meter=jackpot_meter,
                                 payout=payout)

    def strategy(self, name: str) -> StrategyEntry | None:
        return next((s for s in self.strategies if s.name == name), None)

    def solver(self) -> Any:
        """The exact solver (:class:`gpusim.exact.tables.ExactSolver`), imported on first use."""
        return load(self.exact_solver)

    def decision_counts(self, yes: Callable[[Decision], int], n_rounds: int) -> dict:
        """``{point: {yes_action: n, no_action: reached - n}}`` from ``yes(decision)``: the
        number of rounds that reached the decision and answered yes."""
        out: dict[str, dict[str, int]] = {}
        said_yes: dict[str, int] = {}
        for d in self.decisions:
            n_yes = yes(d)
            reached = n_rounds if d.after is None else said_yes[d.after]
            said_yes[d.point] = n_yes
            out[d.point] = {d.yes: n_yes, d.no: reached - n_yes}
        return out
