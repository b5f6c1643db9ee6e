"""Ultimate Texas Hold'em: its spec (:data:`SPEC`), rules (:mod:`.rules`), events and joint code
(:mod:`.events`), settlement (:mod:`.settlement`), rule strategies (:mod:`.strategies`) and the
Trips' exact probabilities (:mod:`.side_exact`).

Rules: the standard published rules, stated in :mod:`.events`; the config keys are in :mod:`.rules`.
"""

from __future__ import annotations

from gpusim.games.spec import (
    DesignEntry,
    GameSpec,
    JointCode,
    StrategyEntry,
    lazy_attributes,
)
from gpusim.games.ultimate_holdem.events import (
    BETS,
    DECISIONS,
    TREE,
    bets,
    event_names,
    event_returns,
    joint_decode,
)
from gpusim.games.ultimate_holdem.kernel import KERNEL
from gpusim.games.ultimate_holdem.rules import (
    BLIND_LINES,
    CONFIG_KEYS,
    TRIPS_LINES,
    UltimateHoldemRules,
    parse_rules,
    pay_text,
)
from gpusim.games.ultimate_holdem.side_exact import side_bet_exact

__all__ = [
    "BETS",
    "DECISIONS",
    "SPEC",
    "UltimateHoldemRules",
    "bets",
    "event_names",
    "event_returns",
    "settle",
]

_RULES = "gpusim.games.ultimate_holdem.strategies"
_DESIGN = "gpusim.games.holdem.play_once_design"


def paytable(rules: UltimateHoldemRules, bet: str) -> dict[str, int | str]:
    """{line: pay} of a bet's paytable as the config writes it (a ratio as ``"A:B"``)."""
    table = rules.blind_paytable if bet == "blind" else rules.trips_paytable
    return {line: pay_text(pay) for line, pay in table.lines}


SPEC = GameSpec(
    name="ultimate_holdem",
    title="Ultimate Texas Hold'em",
    rules_type=UltimateHoldemRules,
    bets=BETS,
    main_bets=("ante", "blind", "play"),
    side_bets=("trips",),
    fixed_multiples={"blind": 1},
    decisions=TREE,
    paytables={"blind": BLIND_LINES, "trips": TRIPS_LINES},
    strategies=(
        StrategyEntry(
            "always-check", f"{_RULES}:uth_always_check",
            "check pre-flop and on the flop; on the river play 1x or fold as basic does",
        ),
        StrategyEntry(
            "basic", f"{_RULES}:uth_basic",
            "4x on the published starting hands; 2x with two pair, a hidden pair (not 2-2) or "
            "four to a flush with a hidden ten+; 1x with a hidden pair or < 21 dealer outs",
        ),
        StrategyEntry(
            "optimal", "table:optimal",
            "exact: at every point the action with the highest expected return",
        ),
    ),
    table_strategies=("optimal",),
    table_strategy_class="gpusim.games.ultimate_holdem.tables:UltimateHoldemTables",
    exact_solver="gpusim.games.ultimate_holdem.exact:SOLVER",
    kernel=KERNEL,
    joint=JointCode(
        encoder="gpusim.games.ultimate_holdem.settlement:joint_code", decode=joint_decode,
        reads=("player_category",),
    ),
    offered_bets=bets,
    event_names=event_names,
    event_returns=event_returns,
    settle="gpusim.games.ultimate_holdem.settlement:settle",
    parse_rules=parse_rules,
    config_keys=CONFIG_KEYS,
    paytable=paytable,
    labels={"trips": "Trips"},
    forfeited_by_fold=lambda rules: ("trips",) if rules.trips_must_beat else (),
    side_bet_exact=side_bet_exact,
    designs={
        "blind": DesignEntry("main", f"{_DESIGN}:blind_main_model",
                             strategies={"optimal": True}),
        "trips": DesignEntry("side", f"{_DESIGN}:trips_hits",
                             forfeit_build=f"{_DESIGN}:trips_forfeit_model",
                             forfeit_strategies={"optimal": True}),
    },
)


# the JAX settlement loads on first use: reading the spec must not import JAX
__getattr__ = lazy_attributes(__name__, "settlement", ("settle", "joint_code"))
