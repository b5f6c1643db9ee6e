"""Game engines: one package per game, each described by one frozen :class:`GameSpec`.

:data:`SPECS` maps a game's name to its spec; :func:`spec_for` finds the spec of rules (or of
a name). The functions below ask the spec, so a caller never branches on the game::

    settle(cards: (N, 9) int32, decisions: dict[str, (N,) bool], rules, *, jackpot_meter=None)
        -> Settlement
    bets(rules) -> tuple[str, ...]             # bets the config offers, in display order
    event_names(rules) -> {bet: tuple[str, ...]}
    event_returns(rules) -> {bet: tuple[int | None, ...]}   # returned per unit staked

``settle`` is jitted with the rules' structure (``rules.structure()``: which bets, the
qualifier, the flags; frozen and hashable) as a static argument and the rules' numbers
(:func:`payout`: every pay and stake) as array arguments, so configs that differ only in their
paytables or stakes share one compiled program, and it can sit in a simulation hot loop or
inside a caller's own ``jax.jit`` (pass ``payout=`` to make the numbers traced there too).
Event meanings are documented in :mod:`gpusim.games.casino_holdem.settlement` and
:mod:`gpusim.games.holdem_bonus.settlement`; what a new game must provide is in
docs/architecture.md.
"""

from __future__ import annotations

import numpy as np

from gpusim.games import casino_holdem, holdem_bonus
from gpusim.games.spec import Decision, GameSpec, StrategyEntry
from gpusim.rules import CATEGORY_KEYS

__all__ = [
    "CATEGORY_KEYS",
    "SPECS",
    "Decision",
    "GameSpec",
    "Settlement",
    "StrategyEntry",
    "bets",
    "decision_names",
    "event_names",
    "event_returns",
    "payout",
    "settle",
    "spec_for",
]

SPECS: dict[str, GameSpec] = {s.name: s for s in (casino_holdem.SPEC, holdem_bonus.SPEC)}
"""Every game, by name, in display order."""


def __getattr__(name: str):
    # Settlement is a JAX pytree: importing it here would import JAX with every config
    if name == "Settlement":
        from gpusim.games.base import Settlement

        return Settlement
    raise AttributeError(f"module 'gpusim.games' has no attribute {name!r}")


def spec_for(rules_or_game) -> GameSpec:
    """The spec of a game's rules (from :func:`gpusim.config.load_config`) or of its name."""
    if isinstance(rules_or_game, str):
        if rules_or_game not in SPECS:
            raise ValueError(f"game {rules_or_game!r}: unknown; allowed: {', '.join(SPECS)}")
        return SPECS[rules_or_game]
    spec = SPECS.get(getattr(rules_or_game, "game", None))
    if spec is None or not isinstance(rules_or_game, spec.rules_type):
        raise TypeError(
            f"rules: expected rules from gpusim.config.load_config, got {rules_or_game!r}"
        )
    return spec


def bets(rules) -> tuple[str, ...]:
    """Bets offered by a config (Casino Hold'em: ante, call, aa_bonus; Texas Hold'em Bonus:
    ante, flop, turn, river, bonus, jackpot); a side bet with stake 0 is not offered."""
    return spec_for(rules).offered_bets(rules)


def decision_names(rules) -> tuple[str, ...]:
    """Decision keys a strategy returns for this game."""
    return spec_for(rules).decision_points


def event_names(rules) -> dict[str, tuple[str, ...]]:
    """Fixed event names per offered bet: the rows of its return table."""
    return spec_for(rules).event_names(rules)


def event_returns(rules) -> dict[str, tuple[int | None, ...]]:
    """Returned per unit staked, per event (``None``: the Jackpot royal returns the meter)."""
    return spec_for(rules).event_returns(rules)


def payout(rules) -> dict[str, dict[str, np.ndarray]]:
    """The numbers of a config that a compiled settlement takes as arguments.

    ``{"returns": {bet: (E,) int32}, "stakes": {bet: () int32}}``: every offered bet's return
    per unit staked by event (:func:`event_returns`, the Jackpot royal's meter entry as 0), and
    the stake of every offered bet placed before the deal (the others are fixed multiples of the
    Ante, part of the structure). The tree's shape depends only on ``rules.structure()``.
    """
    offered = bets(rules)
    placed = rules.stakes.as_dict()
    returns = event_returns(rules)
    return {
        "returns": {b: np.array([r or 0 for r in returns[b]], np.int32) for b in offered},
        "stakes": {b: np.array(placed[b], np.int32) for b in offered if b in placed},
    }


def settle(cards, decisions, rules, *, jackpot_meter=None, payout=None):
    """Settle N rounds; see the game modules for shapes, events and the jackpot meter.

    ``payout``: the numbers to settle with (:func:`payout`'s tree, arrays or tracers); default
    ``payout(rules)``. With it, ``rules`` gives only its structure.
    """
    return spec_for(rules).settle_rounds(
        cards, decisions, rules, jackpot_meter=jackpot_meter, payout=payout
    )
