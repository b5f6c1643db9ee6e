"""Game engines: pure rules and vectorised settlement, one module per game.

Dispatch by ``rules.game`` (``"casino_holdem"`` or ``"holdem_bonus"``)::

    settle(cards: (N, 9) int32, decisions: dict[str, (N,) bool], rules, *, jackpot_meter=None)
        -> Settlement
    bets(rules) -> tuple[str, ...]             # bets the config offers, in display order
    event_names(rules) -> {bet: tuple[str, ...]}
    event_returns(rules) -> {bet: tuple[int | None, ...]}   # returned per unit staked

``settle`` is jitted with the rules as a static argument (rules are frozen and hashable), so
it can sit in a simulation hot loop or inside a caller's own ``jax.jit``. Event meanings are
documented in :mod:`gpusim.games.casino_holdem` and :mod:`gpusim.games.holdem_bonus`.
"""

from __future__ import annotations

from gpusim.config import CATEGORY_KEYS, CasinoHoldemRules, HoldemBonusRules
from gpusim.games import casino_holdem, holdem_bonus
from gpusim.games.base import Settlement

__all__ = [
    "CATEGORY_KEYS",
    "GAME_MODULES",
    "Settlement",
    "bets",
    "decision_names",
    "event_names",
    "event_returns",
    "settle",
]

GAME_MODULES = {"casino_holdem": casino_holdem, "holdem_bonus": holdem_bonus}


def _module(rules):
    if not isinstance(rules, CasinoHoldemRules | HoldemBonusRules):
        raise TypeError(f"rules: expected rules from gpusim.config.load_config, got {rules!r}")
    return GAME_MODULES[rules.game]


def bets(rules) -> tuple[str, ...]:
    """Bets offered by a config (Casino Hold'em: ante, call, aa_bonus; Texas Hold'em Bonus:
    ante, flop, turn, river, bonus, jackpot); a side bet with stake 0 is not offered."""
    return _module(rules).bets(rules)


def decision_names(rules) -> tuple[str, ...]:
    """Decision keys a strategy returns for this game."""
    return _module(rules).DECISIONS


def event_names(rules) -> dict[str, tuple[str, ...]]:
    """Fixed event names per offered bet: the rows of its return table."""
    return _module(rules).event_names(rules)


def event_returns(rules) -> dict[str, tuple[int | None, ...]]:
    """Returned per unit staked, per event (``None``: the Jackpot royal returns the meter)."""
    return _module(rules).event_returns(rules)


def settle(cards, decisions, rules, *, jackpot_meter=None) -> Settlement:
    """Settle N rounds; see the game modules for shapes, events and the jackpot meter."""
    return _module(rules).settle(cards, decisions, rules, jackpot_meter=jackpot_meter)
