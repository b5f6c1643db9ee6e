"""Casino Hold'em by full enumeration: the call-once hold'em shape's counts
(:mod:`gpusim.games.holdem.call_once_counts`) priced with the config's paytables
(:mod:`gpusim.games.holdem.call_once`); this module reads the hand-written game's rules into
the shape's numbers (:func:`prices_of`) and is its :data:`SOLVER`.
"""

from __future__ import annotations

import numpy as np

from gpusim.cards import CATEGORY_KEYS
from gpusim.exact.cache import representative_rounds
from gpusim.exact.fives import pay_class
from gpusim.exact.solver import ExactSolver
from gpusim.games import spec_for
from gpusim.games.casino_holdem.events import AA_BONUS_HANDS
from gpusim.games.holdem import call_once
from gpusim.games.holdem import call_once_cache as _counts
from gpusim.games.holdem.call_once import CallPrices
from gpusim.games.holdem.call_once_counts import (
    CH_OUTCOMES,
    EVENT_COUNTS,
    N_PAY_CLASSES,
    TOTAL_DEALS,
    ChCounts,
    solve_counts,
)
from gpusim.strategy.tables import stored_tables

__all__ = [
    "AA_HANDS",
    "CH_OUTCOMES",
    "CLASS_NAMES",
    "EVENT_COUNTS",
    "N_PAY_CLASSES",
    "SOLVER",
    "TOTAL_DEALS",
    "ChCounts",
    "aa_bonus_class",
    "aa_bonus_pays",
    "analyse",
    "ante_pays",
    "call_margin",
    "optimal_decisions",
    "pay_class",
    "line_classes",
    "prices_of",
    "qualifier_rank",
    "solve_counts",
]

_ANTE_LINE_OF_CLASS = (
    "straight_or_less",
    "straight_or_less",
    "straight_or_less",
    "straight_or_less",
    "straight_or_less",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
)
# high card and a pair below aces pay nothing; a pair of aces is class 10
_AA_LINES_BY_CLASS = (None, None, *CATEGORY_KEYS[2:], "pair_of_aces")
AA_HANDS = AA_BONUS_HANDS
"""The AA Bonus hands, low to high (the game's event order)."""
CLASS_NAMES = CATEGORY_KEYS  # hand classes low to high, royal flush last


def qualifier_rank(rules) -> int:
    """Lowest 7-card rank that meets the dealer qualifier (the game engine's own threshold,
    so that the exact figures and settlement agree by construction)."""
    from gpusim.games.casino_holdem import qualifier_threshold

    return int(qualifier_threshold(rules.dealer_qualifier))


def ante_pays(rules) -> np.ndarray:
    """(10,) int64 Ante pay (X of X:1) by the player's pay class."""
    return np.array([rules.ante_paytable[line] for line in _ANTE_LINE_OF_CLASS], dtype=np.int64)


def aa_bonus_class(rank5: np.ndarray) -> np.ndarray:
    """AA Bonus class of 5-card ranks: pay class, with a pair of aces as class 10."""
    return call_once.side_class(rank5, 1 << 12)


def aa_bonus_pays(rules) -> np.ndarray:
    """(11,) int64 AA Bonus pay by AA Bonus class; -1 = the bet loses."""
    table = rules.aa_bonus_paytable
    out = np.full(11, -1, dtype=np.int64)
    if table is None:
        return out
    for c, line in enumerate(_AA_LINES_BY_CLASS):
        if line is not None:
            out[c] = table[line]
    return out


def prices_of(rules) -> CallPrices:
    """The config's numbers of the call-once shape."""
    return CallPrices(
        ante=rules.stakes.ante, call_times=2, ante_pays=tuple(int(x) for x in ante_pays(rules)),
        side="aa_bonus" if rules.aa_bonus_paytable is not None else None,
        side_stake=rules.stakes["aa_bonus"],
        side_pays=tuple(int(x) for x in aa_bonus_pays(rules)), side_pair_ranks=1 << 12,
        side_hands=AA_HANDS, fold_forfeits=bool(rules.fold_forfeits_bonus))


def line_classes(rules, bet: str, lines: tuple[str, ...]) -> list[tuple[int, ...]]:
    """The pay classes each line of the Ante (``straight_or_less``: every class up to a
    straight) or of the AA Bonus (``pair_of_aces``: class 10) pays."""
    out = []
    for ln in lines:
        if ln == "straight_or_less":
            out.append(tuple(range(CATEGORY_KEYS.index("straight") + 1)))
        elif ln == "pair_of_aces":
            out.append((call_once.PAIR_CLASS,))
        else:
            out.append((CATEGORY_KEYS.index(ln),))
    return out


def call_margin(counts: ChCounts, rules, *, with_side_bet: bool) -> np.ndarray:
    """(1755, 1326) int64: (EV(call) - EV(fold)) x CH_OUTCOMES in money units
    (:func:`gpusim.games.holdem.call_once.call_margin`)."""
    return call_once.call_margin(counts, prices_of(rules), with_side_bet=with_side_bet)


def optimal_decisions(counts: ChCounts, rules, *, with_side_bet: bool) -> np.ndarray:
    """(1755, 1326) bool: call where it is strictly better than folding."""
    return call_once.optimal_decisions(counts, prices_of(rules), with_side_bet=with_side_bet)


def analyse(counts: ChCounts, rules, decisions: np.ndarray, strategy: str) -> dict:
    """The exact report (JSON-able dict, see docs/exact.md) for a call/fold table
    (:func:`gpusim.games.holdem.call_once.analyse`)."""
    return call_once.analyse(counts, prices_of(rules), decisions, strategy,
                             game="casino_holdem", config=rules.name)


# --- the solver: cached counts, decision tables, reports ------------------------------------------


def stored_or_solved(rules, backend: str) -> dict[str, np.ndarray]:
    """The config's stored decision tables, else solved now from its counts."""
    return stored_tables(rules) or solve_tables(rules, False, backend)


def cached_counts(rules, *, progress: bool = True, backend: str = "cpu"):
    """Casino Hold'em counts for the config's dealer qualifier (cached)."""
    return _counts.cached_counts(qualifier_rank(rules), backend=backend,
                                 progress="Casino Hold'em: flop classes" if progress else None)


def counts_file(rules) -> str:
    """The cache file of the config's counts (they depend on the dealer qualifier alone)."""
    return _counts.counts_file(qualifier_rank(rules))


def solve_tables(rules, progress: bool, backend: str = "cpu") -> dict[str, np.ndarray]:
    """Every table strategy's decision tables (unpacked bool arrays)."""
    counts = cached_counts(rules, progress=progress, backend=backend)
    return {
        "call/optimal": optimal_decisions(counts, rules, with_side_bet=True),
        "call/optimal-main": optimal_decisions(counts, rules, with_side_bet=False),
    }


def strategy_table(rules, strategy: str, counts, *, backend: str = "cpu") -> np.ndarray:
    """(1755, 1326) call table of any Casino Hold'em strategy: a table strategy, or any
    registered strategy's decide() applied to every (flop class, hole) representative."""
    if strategy in spec_for(rules).table_strategies:
        return stored_or_solved(rules, backend)[f"call/{strategy}"]
    from gpusim.games.strategy_registry import get_strategy

    strat = get_strategy(strategy, rules)
    flops = counts.flops
    rows, holes = np.nonzero(counts.valid)
    from gpusim.board_index import subsets

    hc = subsets(2).astype(np.int32)[holes]
    cards = representative_rounds(hc, flops[rows], n_board=3)
    call = np.asarray(strat.decide(cards)["call"], dtype=bool)
    out = np.zeros(counts.valid.shape, dtype=bool)
    out[rows, holes] = call
    return out


def report(rules, strategy: str, *, progress: bool, backend: str) -> dict:
    """The exact report of a config under a strategy (docs/exact.md)."""
    counts = cached_counts(rules, progress=progress, backend=backend)
    decisions = strategy_table(rules, strategy, counts, backend=backend)
    return analyse(counts, rules, decisions, strategy)


SOLVER = ExactSolver(
    counts=cached_counts,
    counts_file=counts_file,
    solve_tables=solve_tables,
    report=report,
    rule_strategies_are_slow=False,
)
