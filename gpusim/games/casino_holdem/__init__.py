"""Casino Hold'em: its spec (:data:`SPEC`), rules (:mod:`.rules`), events and joint code
(:mod:`.events`) and settlement (:mod:`.settlement`).

Rules: the Norwegian operator's Casino Hold'em rules and a Norwegian guide to the game; the events
module states them.
"""

from __future__ import annotations

from gpusim.games.casino_holdem.events import (
    AA_BONUS_HANDS,
    BETS,
    DECISIONS,
    TREE,
    bets,
    event_names,
    event_returns,
    joint_decode,
)
from gpusim.games.casino_holdem.rules import (
    AA_BONUS_LINES,
    ANTE_LINES,
    CONFIG_KEYS,
    CasinoHoldemRules,
    parse_rules,
)
from gpusim.games.spec import (
    DesignEntry,
    GameSpec,
    JointCode,
    KernelSpec,
    StrategyEntry,
    lazy_attributes,
)

__all__ = [
    "AA_BONUS_HANDS",
    "BETS",
    "DECISIONS",
    "SPEC",
    "CasinoHoldemRules",
    "bets",
    "event_names",
    "event_returns",
    "qualifier_threshold",
    "settle",
]

_RULES = "gpusim.games.casino_holdem.strategies"
_DESIGN = "gpusim.games.casino_holdem.design"


def paytable(rules: CasinoHoldemRules, bet: str) -> dict[str, int]:
    """{line: pay} of a bet's paytable."""
    return getattr(rules, f"{bet}_paytable").as_dict()


SPEC = GameSpec(
    name="casino_holdem",
    title="Casino Hold'em",
    rules_type=CasinoHoldemRules,
    bets=BETS,
    main_bets=("ante", "call"),
    side_bets=("aa_bonus",),
    decisions=TREE,
    paytables={"ante": ANTE_LINES, "aa_bonus": AA_BONUS_LINES},
    strategies=(
        StrategyEntry("always-play", f"{_RULES}:ch_always_play", "call every hand"),
        StrategyEntry(
            "basic",
            f"{_RULES}:ch_basic",
            "call with a pair using a hole card, 4-flush, 4-straight, or a ten or higher in the "
            "hole",
        ),
        StrategyEntry(
            "optimal",
            "table:optimal",
            "exact: call iff it beats folding, counting the AA Bonus win a fold forfeits",
        ),
        StrategyEntry(
            "optimal-main", "table:optimal-main",
            "exact: call iff it beats folding in the main game alone",
        ),
        StrategyEntry(
            "side-bet-optimal",
            f"{_RULES}:ch_side_bet_optimal",
            "call on every AA Bonus win (pair of aces or better after the flop), else basic",
        ),
    ),
    table_strategies=("optimal", "optimal-main"),
    table_strategy_class=f"{_RULES}:CasinoHoldemTables",
    exact_solver="gpusim.games.casino_holdem.exact:SOLVER",
    kernel=KernelSpec(
        source="casino_holdem",
        head="gpusim.games.casino_holdem.settlement:kernel_head",
        tables=("call", "raw3_class", "raw3_perm", "new_suit"),
        royal_buffer=False,
        fallback_blocks_per_sm=6,
        rule_strategies={f"{_RULES}:ch_always_play": 0, f"{_RULES}:ch_basic": 1,
                         f"{_RULES}:ch_side_bet_optimal": 2},
    ),
    joint=JointCode(
        encoder="gpusim.games.casino_holdem.settlement:joint_code", decode=joint_decode
    ),
    offered_bets=bets,
    event_names=event_names,
    event_returns=event_returns,
    settle="gpusim.games.casino_holdem.settlement:settle",
    parse_rules=parse_rules,
    config_keys=CONFIG_KEYS,
    paytable=paytable,
    labels={"aa_bonus": "AA Bonus"},
    forfeited_by_fold=lambda rules: ("aa_bonus",) if rules.fold_forfeits_bonus else (),
    designs={
        "aa_bonus": DesignEntry(
            "side", f"{_DESIGN}:aa_bonus_hits",
            forfeit_build=f"{_DESIGN}:aa_bonus_forfeit_model",
            forfeit_strategies={"optimal": True, "optimal-main": False}),
        "ante": DesignEntry("main", f"{_DESIGN}:ante_main_model",
                            strategies={"optimal": True, "optimal-main": False}),
    },
)


# the JAX settlement loads on first use: reading the spec must not import JAX
__getattr__ = lazy_attributes(
    __name__, "settlement", ("qualifier_threshold", "settle", "joint_code")
)
