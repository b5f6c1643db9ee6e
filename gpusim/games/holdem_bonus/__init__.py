"""Texas Hold'em Bonus Poker: its spec (:data:`SPEC`), rules (:mod:`.rules`) and settlement
(:mod:`.settlement`).

Rules: the Swedish and Icelandic operators' Texas Hold'em Bonus Poker rules; the events module
states them.
"""

from __future__ import annotations

from gpusim.games.holdem_bonus.events import (
    BETS,
    BONUS_HANDS,
    DECISIONS,
    JACKPOT_ROYAL,
    TREE,
    bets,
    event_names,
    event_returns,
    joint_decode,
)
from gpusim.games.holdem_bonus.rules import (
    BONUS_LINES,
    CONFIG_KEYS,
    JACKPOT_LINES,
    HoldemBonusRules,
    parse_rules,
)
from gpusim.games.holdem_bonus.side_exact import side_bet_exact
from gpusim.games.spec import (
    DesignEntry,
    GameSpec,
    JointCode,
    KernelSpec,
    StrategyEntry,
    lazy_attributes,
)

__all__ = [
    "BETS",
    "BONUS_HANDS",
    "DECISIONS",
    "JACKPOT_ROYAL",
    "SPEC",
    "HoldemBonusRules",
    "bets",
    "event_names",
    "event_returns",
    "settle",
]

_RULES = "gpusim.games.holdem_bonus.strategies"


def paytable(rules: HoldemBonusRules, bet: str) -> dict[str, int]:
    """{line: pay} of a bet's paytable; the Jackpot's fixed prizes sit with the rest of its
    rules (meter, reset, contribution)."""
    if bet == "jackpot":
        return rules.jackpot.prizes.as_dict()
    return getattr(rules, f"{bet}_paytable").as_dict()


SPEC = GameSpec(
    name="holdem_bonus",
    title="Texas Hold'em Bonus Poker",
    rules_type=HoldemBonusRules,
    bets=BETS,
    main_bets=("ante", "flop", "turn", "river"),
    side_bets=("bonus", "jackpot"),
    decisions=TREE,
    paytables={"bonus": BONUS_LINES, "jackpot": JACKPOT_LINES},
    strategies=(
        StrategyEntry("always-play", f"{_RULES}:thb_always_play",
                      "bet the Flop, Turn and River every hand"),
        StrategyEntry(
            "basic",
            f"{_RULES}:thb_basic",
            "fold 23o-27o; Turn/River bets on made hands and draws that use a hole card",
        ),
        StrategyEntry(
            "optimal",
            "table:optimal",
            "exact: Turn/River bet iff P(win) > P(lose); flop bet iff its EV beats folding",
        ),
        # The Swedish rules' text at simulation scale: its exact tables give the same decisions as
        # the per-round counting rule list (.strategies.thb_win_over_half, which the
        # tests compare round by round), so the name serves the tables.
        StrategyEntry(
            "win-over-half",
            "table:win-over-half-ev",
            "the Swedish rules' text: fold 23o-27o; Turn/River bets when exact P(win) > 1/2 "
            "(exact tables)",
        ),
        StrategyEntry(
            "win-over-half-ev",
            "table:win-over-half-ev",
            "the Swedish rules: Turn/River bet iff exact P(win) > 50 %; flop bet iff the EV under "
            "that rule beats folding",
        ),
    ),
    table_strategies=("optimal", "win-over-half-ev"),
    table_strategy_class=f"{_RULES}:HoldemBonusTables",
    exact_solver="gpusim.games.holdem_bonus.exact:SOLVER",
    kernel=KernelSpec(
        source="holdem_bonus",
        head="gpusim.games.holdem_bonus.events:kernel_head",
        tables=("preflop", "grid", "turn", "river", "raw3_class", "raw3_perm", "raw4_class",
                "raw4_perm", "new_suit"),
        royal_buffer=True,
        fallback_blocks_per_sm=4,
        rule_strategies={f"{_RULES}:thb_always_play": 0, f"{_RULES}:thb_basic": 1},
    ),
    joint=JointCode(
        encoder="gpusim.games.holdem_bonus.settlement:joint_code", decode=joint_decode
    ),
    offered_bets=bets,
    event_names=event_names,
    event_returns=event_returns,
    settle="gpusim.games.holdem_bonus.settlement:settle",
    parse_rules=parse_rules,
    config_keys=CONFIG_KEYS,
    paytable=paytable,
    labels={"bonus": "Bonus", "jackpot": "Jackpot"},
    meter_bet="jackpot",
    meter_event="royal_flush",
    meter_rules=lambda rules: rules.jackpot,
    side_bet_exact=side_bet_exact,
    designs={"bonus": DesignEntry("side", "gpusim.games.holdem_bonus.design:bonus_hits"),
             "jackpot": DesignEntry("side", "gpusim.games.holdem_bonus.design:jackpot_model")},
)


# the JAX settlement loads on first use: reading the spec must not import JAX
__getattr__ = lazy_attributes(__name__, "settlement", ("settle", "joint_code"))
