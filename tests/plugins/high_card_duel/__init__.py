"""High Card Duel: a game that is not part of gpusim, added as a plugin (the ``gpusim.games``
entry-point group names this package). It proves that a game is one folder: nothing outside
this folder knows it.

One card each (player column 0, dealer column 1). The player sees his card and folds (the Ante
is lost) or raises 1x or 2x the Ante; the higher rank wins (a tie pushes). The optional Suited
side bet pays when both cards share a suit. No exact solver and no CUDA kernel: it has no
``optimal`` strategy, runs on JAX only, and its reports have no exact column.
"""

from __future__ import annotations

from pathlib import Path

from gpusim.games.spec import GameSpec, JointCode, StrategyEntry
from high_card_duel.events import BETS, TREE, bets, event_names, event_returns, joint_decode
from high_card_duel.events import paytable as _paytable
from high_card_duel.rules import SUITED_LINES, HighCardDuelRules, parse_rules

__all__ = ["SPEC"]

SPEC = GameSpec(
    name="high_card_duel",
    title="High Card Duel",
    rules_type=HighCardDuelRules,
    bets=BETS,
    main_bets=("ante", "raise"),
    side_bets=("suited",),
    decisions=TREE,
    paytables={"suited": SUITED_LINES},
    strategies=(
        StrategyEntry("basic", "high_card_duel.strategies:basic",
                      "fold below an eight, raise 1x with eight to jack, 2x with queen or better"),
        StrategyEntry("always-raise", "high_card_duel.strategies:always_raise",
                      "raise 2x every hand"),
    ),
    joint=JointCode(encoder="high_card_duel.settlement:joint_code", decode=joint_decode),
    offered_bets=bets,
    event_names=event_names,
    event_returns=event_returns,
    settle="high_card_duel.settlement:settle",
    parse_rules=parse_rules,
    paytable=_paytable,
    labels={"ante": "Ante", "raise": "Raise", "suited": "Suited"},
    card_layout={"player": (0,), "dealer": (1,)},
    config_dir=Path(__file__).resolve().parent / "configs",
)
