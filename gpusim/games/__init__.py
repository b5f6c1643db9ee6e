"""Games: each one frozen :class:`GameSpec`, built from a config's TOML description by the
described-games engine (:mod:`gpusim.games.described`; the hold'em shapes' solvers and kernels
in :mod:`gpusim.games.holdem`) or brought by a plugin.

:data:`SPECS` (the game registry, :mod:`gpusim.games.game_registry`) maps a game's name to its
spec; :func:`spec_for` finds the spec of rules (or of a name). The functions below ask the spec,
so a caller never branches on the game::

    settle(cards: (N, C) int32, actions: dict[str, (N,) int], rules, *, jackpot_meter=None)
        -> Settlement                          # C: the game's cards per round
    bets(rules) -> tuple[str, ...]             # bets the config offers, in display order
    event_names(rules) -> {bet: tuple[str, ...]}
    event_returns(rules) -> {bet: tuple[int | Fraction | None, ...]}   # returned per unit staked

``settle`` is jitted with the rules' structure (``rules.structure()``: which bets, the qualifier,
the flags; frozen and hashable) as a static argument and the rules' numbers (:func:`payout`: every
pay and stake) as array arguments, so configs that differ only in their paytables or stakes share
one compiled program, and it can sit in a simulation hot loop or inside a caller's own ``jax.jit``
(pass ``payout=`` to make the numbers traced there too). A described game's events are named by its
description (:mod:`gpusim.games.described.layout` derives them); what a new game must provide is in
docs/architecture.md. A game may also come from another installed distribution, through the
``gpusim.games`` entry-point group (:data:`ENTRY_POINT_GROUP`).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from gpusim.games.game_registry import ENTRY_POINT_GROUP, SPECS, spec_for
from gpusim.games.spec import Action, DecisionPoint, GameSpec, StrategyEntry
from gpusim.rules import return_numerators

__all__ = [
    "DEFAULT_CONFIG",
    "ENTRY_POINT_GROUP",
    "SPECS",
    "Action",
    "DecisionPoint",
    "GameSpec",
    "Settlement",
    "StrategyEntry",
    "bets",
    "decision_names",
    "event_names",
    "event_returns",
    "payout",
    "return_numerators",
    "settle",
    "spec_for",
]

DEFAULT_CONFIG = "casino_holdem"
"""The shipped config ``simulate`` plays when none is given (the first game's own config)."""


def __getattr__(name: str):
    # Settlement is a JAX pytree: importing it here would import JAX with every config
    if name == "Settlement":
        from gpusim.games.base import Settlement

        return Settlement
    raise AttributeError(f"module 'gpusim.games' has no attribute {name!r}")


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


def event_returns(rules) -> dict[str, tuple[int | Fraction | None, ...]]:
    """Returned per unit staked, per event (``None``: the Jackpot royal returns the meter).

    A return may be a :class:`~fractions.Fraction` (a 3:2 pay returns 5/2 per unit): the game's
    config then refuses stakes that would make a net a fraction of a money unit, and every
    consumer counts it exactly (:func:`return_numerators`)."""
    return spec_for(rules).event_returns(rules)


def payout(rules) -> dict[str, dict[str, np.ndarray]]:
    """The numbers of a config that a compiled settlement takes as arguments.

    ``{"returns": {bet: (E,) int32}, "scale": {bet: () int32}, "stakes": {bet: () int32}}``:
    every offered bet's return per unit staked by event (:func:`event_returns`, the Jackpot
    royal's meter entry as 0) as integer numerators over the bet's ``scale``
    (:func:`return_numerators`; 1 where every return is whole), and the stake of every offered
    bet placed before the deal (the others are fixed multiples of the Ante, part of the
    structure). The tree's shape depends only on ``rules.structure()``.
    """
    offered = bets(rules)
    placed = rules.stakes.as_dict()
    returns = {b: return_numerators(r) for b, r in event_returns(rules).items() if b in offered}
    return {
        "returns": {b: returns[b][0].astype(np.int32) for b in offered},
        "scale": {b: np.array(returns[b][1], np.int32) for b in offered},
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
