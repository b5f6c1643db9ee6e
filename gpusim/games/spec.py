"""What a game is, as one frozen object: :class:`GameSpec`.

Every layer above ``games/`` asks a game's spec (``spec_for(rules)``) instead of branching on
the game's name: its bets, the bets that make up the main game and their stake multiples, the
decision points and their actions, the paytables a what-if may edit, the joint outcome code
the kernels and the device reduction count, the CUDA kernel, the strategies and the exact
solver. docs/architecture.md lists what a new game must provide.

The spec names its settlement, joint code, strategies, exact solver and kernel arguments by
import path (``"module:attribute"``), not by object, so that reading a spec imports neither JAX
nor the exact engine: :func:`load` resolves such a path on first use. For a described game
they are the engine's modules (:mod:`gpusim.games.described`, and a hold'em shape's
in :mod:`gpusim.games.holdem`); a plugin's, its own package's. :func:`import_path_problems`
checks every path of a spec without importing it, so that a typo fails when the game is
registered, not at first use.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gpusim.cards import CATEGORY_KEYS
from gpusim.strategy.tree import Action, DecisionPoint, check_tree, count_taken

__all__ = [
    "HOLDEM_LAYOUT",
    "METER_SECTION",
    "Action",
    "ConfigKey",
    "DecisionPoint",
    "DesignEntry",
    "DesignRefused",
    "GameSpec",
    "JointCode",
    "KernelSpec",
    "StrategyEntry",
    "import_path_problems",
    "lazy_attributes",
    "load",
]


HOLDEM_LAYOUT: Mapping[str, tuple[int, ...]] = {
    "player": (0, 1), "dealer": (2, 3), "board": (4, 5, 6, 7, 8)}
"""The card columns of a hold'em round: two hole cards each, then flop, turn and river."""

METER_SECTION = "jackpot"
"""The name every game's progressive meter goes by in the formats: the run folder's table of
meter hits (``gpusim-run/1``), the report's section and the exact report's key. It is a format
name, fixed whatever a game calls the bet that carries its meter (:attr:`GameSpec.meter_bet`)."""


def load(path: str) -> Any:
    """The object at ``"package.module:attribute"``."""
    module, _, attr = path.partition(":")
    return getattr(importlib.import_module(module), attr)


def _defined_names(origin: str) -> set[str] | None:
    """The names a module's source defines at its top level (None: it has a module
    ``__getattr__``, so any name may exist)."""
    tree = ast.parse(Path(origin).read_text(), origin)
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name == "__getattr__":
                return None
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                names |= {n.id for n in ast.walk(t) if isinstance(n, ast.Name)}
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return names


def missing_import(path: str) -> str | None:
    """Why ``"package.module:attribute"`` would not load, or None if it would: the module is
    found and its source defines the attribute. Nothing is imported but the module's parent
    packages (``importlib.util.find_spec`` runs them), so a spec's JAX settlement stays
    unloaded."""
    module, sep, attr = path.partition(":")
    if not sep or not module or not attr.isidentifier():
        return "expected 'package.module:attribute'"
    try:
        found = importlib.util.find_spec(module)
    except (ImportError, ValueError) as exc:  # a parent package that is missing or broken
        return f"module {module!r} not found ({' '.join(str(exc).split())})"
    if found is None:
        return f"module {module!r} not found"
    if found.origin is None or not found.origin.endswith(".py"):
        return None  # a namespace package or compiled module: resolved on first use
    names = _defined_names(found.origin)
    if names is not None and attr not in names:
        return f"module {module!r} defines no {attr!r}"
    return None


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
class ConfigKey:
    """One key of a game's config, as docs/config.md lists it (``gpusim.report.config_reference``
    writes that file from every spec's ``config_keys``).

    ``key``: its dotted TOML path (``"rules.dealer_qualifier.hand"``; a paytable is its table,
    ``"paytables.NAME"``); ``allowed``: the strings the parser accepts (the very tuple it
    validates with) or, for a number or a flag, a line of text; ``meaning``; ``required``:
    ``"required"``, ``"optional"`` or when it is required. A paytable also has its ``lines``
    (``optional_lines`` may be left out) and ``pays``, the pay forms a line takes: ``"X:1"``,
    ``"X for 1"``, ``"A:B"`` (docs/config.md explains them).
    """

    key: str
    allowed: tuple[str, ...] | str
    meaning: str
    required: str = "required"
    lines: tuple[str, ...] = ()
    optional_lines: tuple[str, ...] = ()
    pays: tuple[str, ...] = ()


@dataclass(frozen=True)
class StrategyEntry:
    """A named strategy of a game.

    ``source`` is ``"rules:NAME"`` (a rule strategy the spec's ``rule_strategy`` builds), or
    ``"module:attribute"``, a rule strategy (a ``PointRules``: per point,
    ``fn(visible (N, len(point.sees)) int32) -> (N,) int`` action index, handed only the columns
    its point may see), or ``"table:NAME"``, the exact decision tables
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
    (n_bins,) int64 stake}, {point: (n_bins,) int64 action taken, -1 = not reached})`` (numpy)
    gives, per code, every offered bet's event and stake and the action taken at every decision
    point (the stakes of the tree's bets follow from those actions, so a bet placed at several
    multiples has one code per multiple). The two are inverse on every code a round can
    produce.

    The encoder is handed the settlement's ``events`` and ``stakes`` (the device reduction
    keeps nothing else of a compiled batch), plus the hand categories it names in ``reads``
    (``"player_category"``, ``"dealer_category"``): Ultimate Texas Hold'em's code holds the
    player's final hand on every round, which no event of a fold or a loss names.
    """

    encoder: str
    decode: Callable[[Any], tuple[int, dict, dict, dict]]
    reads: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        extra = set(self.reads) - {"player_category", "dealer_category", "joint"}
        if extra:
            raise ValueError(f"joint code: reads {sorted(extra)}; allowed: player_category, "
                             "dealer_category, joint")

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
    ``rule_strategies``: {import path of a rule strategy's ``PointRules``: the kernel's
    strategy code for it} (``STRAT_*`` of :mod:`gpusim.compute.backends.cupy_rounds`), the rule
    lists the kernel computes itself; ``rule_code``: import path of ``rule_code(rules,
    strategy) -> int | None``, the same for strategies known by their rules (a description's).
    ``code_map``: import path of ``code_map(rules) -> (n_kernel_codes,) int64``, the game's
    joint code of every code the kernel counts, where the two differ (a shape's kernel serving
    descriptions); None: the kernel counts the game's own joint codes.
    """

    source: str
    head: str
    tables: tuple[str, ...]
    royal_buffer: bool
    fallback_blocks_per_sm: int
    rule_strategies: Mapping[str, int] = field(default_factory=dict)
    rule_code: str | None = None
    code_map: str | None = None

    def head_args(self, rules) -> tuple:
        return tuple(load(self.head)(rules))


class DesignRefused(ValueError):
    """A game's design model refuses a search (one line naming the option, the value and why);
    ``gpusim design`` reports it as its own bad-input error."""


@dataclass(frozen=True)
class DesignEntry:
    """How ``gpusim design`` searches one bet's paytable.

    ``kind``: ``"side"`` (integer hit counts per line, strategy-free) or ``"main"`` (the
    per-situation counts of the exact enumeration, priced under the optimal strategy
    re-optimised per candidate); ``build``: import path of ``build(rules, bet) -> ({line:
    hits}, total)`` (side: the paytable's lines in order, integer counts; or a model of
    :mod:`gpusim.designer.sidebet` itself) or ``build(rules, bet, strategy, counts, progress,
    with_side_bet, space=space)`` (main: a main-game model); ``strategies``: for a main
    search, {strategy: whether it counts the side bet a fold forfeits}; ``note``: a line the
    design report prints.

    A side bet that a fold forfeits under some rules (``GameSpec.forfeited_by_fold``) is
    priced, under those rules, by ``forfeit_build``: import path of ``build(rules, bet,
    strategy, counts, progress, reoptimised, space=space)`` -> the bet as it plays under
    ``strategy``: a model (:class:`gpusim.designer.sidebet.SeparableModel`, or whole
    candidates priced: :class:`gpusim.designer.priced.PricedModel`) or ``({line: hits},
    total, {"strategy": ..., "strategy_text": ...})``; ``forfeit_strategies``: {strategy:
    whether it is re-optimised for each candidate}. Without ``forfeit_build`` such a bet is
    refused there, with ``forfeit_refusal`` as the reason. A build refuses a search by raising
    :class:`DesignRefused`.
    """

    kind: str
    build: str
    strategies: Mapping[str, bool] | None = None
    note: str | None = None
    forfeit_build: str | None = None
    forfeit_strategies: Mapping[str, bool] | None = None
    forfeit_refusal: str | None = None


@dataclass(frozen=True)
class GameSpec:
    """Everything game-specific, in one place (see the module docstring).

    Data: ``name`` (the config's ``game``), ``title``, ``rules_type`` (the frozen rules
    class), ``bets`` (every bet, display order), ``main_bets`` and their ``stake_multiples``
    (per ante), ``side_bets``, ``decisions`` (the tree, root first), ``paytables`` ({bet:
    the lines a what-if may edit}), ``strategies``, ``table_strategies`` (the names of the
    decision-table sets the exact solver writes), ``table_strategy_class`` (import path of the
    :class:`~gpusim.strategy.table_strategy.TableStrategy` subclass that reads them),
    ``exact_solver`` (import path of the game's ``ExactSolver``), ``kernel`` and ``joint``.

    Behaviour is given as pure functions of the game's rules (frozen dataclasses):

    - ``offered_bets(rules) -> tuple[str, ...]``: the bets a config offers, in display order;
    - ``event_names(rules) -> {bet: tuple[str, ...]}`` and ``event_returns(rules) -> {bet:
      tuple[int | Fraction | None, ...]}``: the return tables (a return per unit staked may be
      a Fraction, a 3:2 pay; ``parse_rules`` must then refuse stakes that make a net a
      fraction of a money unit);
    - ``settle``: the import path of ``settle(cards (N, 9) int32, decisions, rules, *,
      jackpot_meter=None, payout=None) -> Settlement`` (JAX; loaded on first use, so that
      reading a spec or a config never imports JAX), compiled on ``rules.structure()`` with
      the numbers of :func:`gpusim.games.payout` as arguments (returns as numerators over
      each bet's ``scale``);
    - ``parse_rules(reader, doc, default_name) -> rules``: the game's part of a TOML config,
      whose keys ``config_keys`` describes (:class:`ConfigKey`; docs/config.md is made of them).

    What the layers above ask instead of naming a bet:

    - ``labels``: {bet: display label} (a bet not listed shows its name);
    - ``meter_bet``: the bet whose event ``meter_event`` pays a progressive meter, or None;
      ``meter_rules(rules)``: the config's meter (:class:`~gpusim.rules.JackpotRules`) or None,
      set even where the bet is not staked (a config may keep its meter's table);
    - ``paytable(rules, bet) -> {line: pay}``: a bet's paytable as the config writes it;
    - ``forfeited_by_fold(rules) -> tuple[str, ...]``: side bets a fold forfeits under these
      rules (a what-if on them is not strategy-free);
    - ``side_bet_exact(rules) -> {bet: {event: Fraction}}``: exact event probabilities of the
      offered side bets that no decision touches (combinatorics, no enumeration);
    - ``designs``: {bet: :class:`DesignEntry`}, the paytables ``gpusim design`` searches;
      ``design_refusals``: {bet: why the designer does not search it};
    - ``fixed_multiples``: {main bet: its multiple of the base bet}, for main bets other than
      the base bet placed before the deal whatever the decisions (Ultimate Texas Hold'em's
      Blind, 1 x Ante); their stakes are in ``rules.stakes``, like the base bet's.

    Capabilities the layers above read instead of guessing from a game's name or a missing
    attribute: ``category_names`` (the hand categories of the settlement's
    ``player_category``/``dealer_category``, low to high), ``dealer`` (a dealer hand is dealt
    and compared), ``face_up`` (the dealer's card columns dealt face up), ``rule_strategy``
    (``rule_strategy(name) -> PointRules`` for the strategies whose source is ``"rules:NAME"``)
    ``game_def`` (the game's description, for a described game; None otherwise) and
    ``paytable_tables`` ({bet: the config's ``[paytables.<table>]`` its pays are in}, where
    that is not the bet's own name).
    """

    name: str
    title: str
    rules_type: type
    bets: tuple[str, ...]
    main_bets: tuple[str, ...]
    side_bets: tuple[str, ...]
    decisions: tuple[DecisionPoint, ...]
    paytables: Mapping[str, tuple[str, ...]]
    strategies: tuple[StrategyEntry, ...]
    joint: JointCode
    offered_bets: Callable[[Any], tuple[str, ...]]
    event_names: Callable[[Any], dict]
    event_returns: Callable[[Any], dict]
    settle: str
    parse_rules: Callable[..., Any]
    paytable: Callable[[Any, str], dict]
    table_strategies: tuple[str, ...] = ()
    table_strategy_class: str | None = None
    exact_solver: str | None = None
    unsolved: str | None = None
    kernel: KernelSpec | None = None
    card_layout: Mapping[str, tuple[int, ...]] = field(default_factory=lambda: HOLDEM_LAYOUT)
    config_dir: Path | None = None
    labels: Mapping[str, str] = field(default_factory=dict)
    meter_bet: str | None = None
    meter_event: str | None = None
    meter_rules: Callable[[Any], Any] = lambda rules: None
    forfeited_by_fold: Callable[[Any], tuple[str, ...]] = lambda rules: ()
    side_bet_exact: Callable[[Any], dict] = lambda rules: {}
    designs: Mapping[str, DesignEntry] = field(default_factory=dict)
    design_refusals: Mapping[str, str] = field(default_factory=dict)
    fixed_multiples: Mapping[str, int] = field(default_factory=dict)
    category_names: tuple[str, ...] = CATEGORY_KEYS
    dealer: bool = True
    face_up: tuple[int, ...] = ()
    rule_strategy: Callable[[str], Any] | None = None
    game_def: Any = None
    paytable_tables: Mapping[str, str] = field(default_factory=dict)
    config_keys: tuple[ConfigKey, ...] = ()

    @property
    def cards_per_round(self) -> int:
        """Cards dealt per round: the columns of ``(N, C)`` card arrays (``card_layout``)."""
        return 1 + max(c for cols in self.card_layout.values() for c in cols)

    @property
    def stake_multiples(self) -> dict[str, int]:
        """{main bet: the largest multiple of the base bet's stake it can carry} (the base bet
        1, the bets placed with it at their ``fixed_multiples``; the others from the decision
        tree's actions)."""
        out = {self.base_bet: 1, **self.fixed_multiples}
        for point in self.decisions:
            for action in point.actions:
                for bet, k in action.stakes.items():
                    out[bet] = max(out.get(bet, 0), k)
        return out

    @property
    def base_bet(self) -> str:
        """The bet whose stake is the unit (multiple 1): per-unit figures of the main game and
        the whole round are per this bet's stake."""
        return self.main_bets[0]

    def meter_active(self, rules) -> bool:
        """Whether the config offers the meter bet and has a meter: rounds then pay and feed
        it."""
        return (self.meter_bet is not None and self.meter_bet in self.offered_bets(rules)
                and self.meter_rules(rules) is not None)

    def start_meter(self, rules) -> int:
        """The meter before a run's first round (1/BP money units; 0 without a meter)."""
        jp = self.meter_rules(rules)
        return jp.reset_meter if jp is not None else 0

    def label(self, bet: str) -> str:
        return self.labels.get(bet, bet)

    def __post_init__(self) -> None:
        check_tree(self.decisions, self.cards_per_round)

    @property
    def decision_points(self) -> tuple[str, ...]:
        """The keys a strategy of this game returns."""
        return tuple(d.name for d in self.decisions)

    def point(self, name: str) -> DecisionPoint:
        return next(p for p in self.decisions if p.name == name)

    @property
    def strategy_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.strategies)

    def settle_rounds(self, cards, decisions, rules, *, jackpot_meter=None, payout=None):
        """Settle N rounds with the game's ``settle`` (see the class docstring)."""
        return load(self.settle)(cards, decisions, rules, jackpot_meter=jackpot_meter,
                                 payout=payout)

    def strategy(self, name: str) -> StrategyEntry | None:
        return next((s for s in self.strategies if s.name == name), None)

    def table_of(self, name: str) -> str | None:
        """The table strategy whose decision tables strategy ``name`` reads: itself, or the one
        its entry names (``table:<table strategy>``, another name of it); None for a rule
        strategy."""
        if name in self.table_strategies:
            return name
        entry = self.strategy(name) if isinstance(name, str) else None
        if entry is not None and entry.source.startswith("table:"):
            return entry.source.removeprefix("table:")
        return None

    def why_missing(self, name: str | None = None) -> str:
        """Why the game has no exact solve, for a refusal's one line: `` (no exact solve:
        <the solver's refusal>)`` where the solver refused the game and ``name`` (a strategy
        asked for) is None or would be its table (``optimal``); else empty."""
        if self.unsolved and (name is None or (name.startswith("optimal")
                                               and self.strategy(name) is None)):
            return f" (no exact solve: {self.unsolved})"
        return ""

    def solver(self) -> Any:
        """The exact solver (:class:`gpusim.exact.solver.ExactSolver`), imported on first use;
        None for a game without one."""
        return None if self.exact_solver is None else load(self.exact_solver)

    def decision_counts(self, taken: Mapping[str, Any], weight=None) -> dict:
        """``{point: {action: count}}`` from ``taken`` ({point: (n,) int action index, -1 where
        not reached}) and an optional per-row ``weight`` (see
        :func:`gpusim.strategy.tree.count_taken`)."""
        return count_taken(self.decisions, taken, weight)


def import_path_problems(spec: GameSpec) -> list[str]:
    """Every import path of ``spec`` that would not load, as ``"field: 'path': why"`` (see
    :func:`missing_import`); empty when all would."""
    paths = [("settle", spec.settle), ("joint.encoder", spec.joint.encoder)]
    paths += [(f"strategies[{s.name!r}]", s.source) for s in spec.strategies
              if s.table is None and not s.source.startswith("rules:")]
    for name in ("table_strategy_class", "exact_solver"):
        if getattr(spec, name) is not None:
            paths.append((name, getattr(spec, name)))
    if spec.kernel is not None:
        paths.append(("kernel.head", spec.kernel.head))
        paths += [("kernel.rule_strategies", p) for p in spec.kernel.rule_strategies]
        paths += [(f"kernel.{k}", p) for k in ("rule_code", "code_map")
                  if (p := getattr(spec.kernel, k))]
    paths += [(f"designs[{bet!r}].build", d.build) for bet, d in spec.designs.items()]
    paths += [(f"designs[{bet!r}].forfeit_build", d.forfeit_build)
              for bet, d in spec.designs.items() if d.forfeit_build]
    out = []
    for where, path in paths:
        why = missing_import(path)
        if why is not None:
            out.append(f"{where}: {path!r}: {why}")
    return out

