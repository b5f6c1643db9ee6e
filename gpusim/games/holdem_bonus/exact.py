"""Texas Hold'em Bonus, priced by the street-bets hold'em shape (:mod:`gpusim.games.holdem.streets`)
from the enumeration counts of :mod:`gpusim.games.holdem.streets_counts`: the config's numbers
(:func:`prices_of`) and the game's exact solver (:data:`SOLVER`: cached counts, decision
tables, reports)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from gpusim.exact.report import BetTable
from gpusim.exact.solver import ExactSolver
from gpusim.games import spec_for
from gpusim.games.holdem import streets, streets_cache
from gpusim.games.holdem.streets import StreetPrices, five_card_class_counts
from gpusim.games.holdem.streets_cache import CACHE_LEVEL
from gpusim.games.holdem.streets_counts import RiverCounts, TurnPass
from gpusim.games.holdem_bonus.rules import BONUS_LINE_CLASSES, BONUS_LINES, JACKPOT_LINES
from gpusim.strategy.tables import stored_tables

__all__ = [
    "CACHE_LEVEL",
    "SOLVER",
    "analyse",
    "bonus_table",
    "cached_counts",
    "five_card_class_counts",
    "jackpot_table",
    "prices_of",
    "strategy_tables",
]


def prices_of(rules) -> StreetPrices:
    """The config's numbers of the street-bets shape."""
    extra: dict = {}
    bonus = rules.bonus_paytable
    if bonus is not None:
        extra.update(
            bonus="bonus", bonus_unit=Fraction(rules.stakes["bonus"], rules.stakes.ante),
            bonus_lines=tuple((ln, bonus[ln], BONUS_LINE_CLASSES[ln]) for ln in BONUS_LINES
                              if ln in BONUS_LINE_CLASSES),
            bonus_vs_aces=("AA_vs_dealer_AA", bonus["AA_vs_dealer_AA"])
            if "AA_vs_dealer_AA" in bonus else None)
    jp = rules.jackpot
    if jp is not None:
        stake = rules.stakes["jackpot"]
        extra.update(jackpot="jackpot", jackpot_prizes=tuple((ln, jp.prizes[ln])
                                                             for ln in JACKPOT_LINES),
                     jackpot_contribution=jp.contribution_rate, jackpot_reset=jp.reset,
                     jackpot_stake=stake, jackpot_unit=Fraction(stake, rules.stakes.ante),
                     jackpot_cards=jp.cards)
    return StreetPrices(game="holdem_bonus", config=rules.name,
                        ante_pays_from=rules.ante_pays_from, **extra)


def analyse(river: RiverCounts, tp: TurnPass, preflop_bet: np.ndarray, rules,
            strategy: str) -> dict:
    """The exact report (:func:`gpusim.games.holdem.streets.analyse`) of a config."""
    return streets.analyse(river, tp, preflop_bet, prices_of(rules), strategy)


def bonus_table(rules) -> BetTable:
    """Bonus side bet: every (player hole, dealer hole) pair, C(52,2) x C(50,2) deals."""
    return streets.bonus_table(prices_of(rules))


def jackpot_table(rules, river: RiverCounts | None) -> tuple[BetTable, dict]:
    """Jackpot side bet return table and its meter dependence
    (:func:`gpusim.games.holdem.streets.jackpot_table`)."""
    return streets.jackpot_table(prices_of(rules), river)


# --- the solver: cached counts, decision tables, reports ------------------------------------------


def stored_or_solved(rules, backend: str) -> dict[str, np.ndarray]:
    """The config's stored decision tables, else solved now from its counts."""
    return stored_tables(rules) or solve_tables(rules, False, backend)


def cached_counts(rules, *, progress: bool = True, backend: str = "cpu"):
    """Texas Hold'em Bonus stage-1 counts for the config's ``ante_pays_from`` (cached)."""
    return streets_cache.cached_counts(rules.ante_pays_from, progress=progress, backend=backend)


def counts_file(rules) -> str:
    """The cache file of the config's river counts (they depend on ``ante_pays_from`` alone)."""
    return streets_cache.counts_file(rules.ante_pays_from)


def solve_tables(rules, progress: bool, backend: str = "cpu") -> dict[str, np.ndarray]:
    """Every table strategy's decision tables (unpacked bool arrays)."""
    return streets.solve_tables(cached_counts(rules, progress=progress, backend=backend))


def strategy_tables(rules, strategy: str, river, *, backend: str = "cpu"):
    """(preflop (169,), turn (1755, 1326), river (16432, 1326)) bool tables of a strategy:
    a table strategy's, or a rule strategy's decisions on one representative per class
    (:func:`gpusim.games.holdem.streets.rule_tables`)."""
    from gpusim.games.strategy_registry import get_strategy

    if strategy in spec_for(rules).table_strategies:
        t = stored_or_solved(rules, backend)
        return t[f"preflop/{strategy}"], t[f"turn/{strategy}"], t[f"river/{strategy}"]
    strat = get_strategy(strategy, rules)
    if strategy == "win-over-half":
        # the game engine's seed-000 rule counts P(win) per round (too slow to apply to every
        # class); its Turn/River rule is exactly the over-half tables, its flop rule its own
        from gpusim.cards import HAND_CLASSES, class_members
        from gpusim.exact.cache import representative_rounds

        reps = np.array([class_members(c)[0] for c in HAND_CLASSES], dtype=np.int32)
        filler = representative_rounds(reps, np.zeros((169, 0), dtype=np.int32), n_board=0)
        pre = np.asarray(strat.decide(filler)["flop"], dtype=bool)
        t = stored_or_solved(rules, backend)
        return pre, t["turn/win-over-half-ev"], t["river/win-over-half-ev"]
    return streets.rule_tables(strat, spec_for(rules).decisions, ("flop", "turn", "river"),
                               river)


def report(rules, strategy: str, *, progress: bool, backend: str) -> dict:
    """The exact report of a config under a strategy (docs/exact.md)."""
    river = cached_counts(rules, progress=progress, backend=backend)
    tables = strategy_tables(rules, strategy, river, backend=backend)
    return streets.report(river, tables, prices_of(rules), strategy)


SOLVER = ExactSolver(
    counts=cached_counts,
    counts_file=counts_file,
    solve_tables=solve_tables,
    report=report,
    rule_strategies_are_slow=True,
)
