"""High Card Duel's settlement (JAX) and joint outcome code."""

from __future__ import annotations

import jax.numpy as jnp

from gpusim.games.base import Settlement, in_bet_order, net_from_returns
from high_card_duel.events import bets, event_names, event_returns

__all__ = ["joint_code", "settle"]


def settle(cards, decisions, rules, *, jackpot_meter=None, payout=None) -> Settlement:
    """cards: (N, 2) int32 [player, dealer]; decisions: ``{"act": (N,) int}`` (0 fold, 1 raise
    1x, 2 raise 2x). Returns the Settlement over the offered bets."""
    del jackpot_meter, payout
    c = jnp.asarray(cards, jnp.int32)
    act = jnp.asarray(decisions["act"]).astype(jnp.int32)
    i32 = jnp.int32
    p, d = c[:, 0] >> 2, c[:, 1] >> 2
    outcome = jnp.where(p > d, i32(1), jnp.where(p == d, i32(2), i32(3)))
    main = jnp.where(act == 0, i32(0), outcome)
    ante = rules.stakes.ante
    stakes = {"ante": jnp.full(act.shape, ante, i32), "raise": (act * ante).astype(i32)}
    events = {"ante": main, "raise": main}
    if "suited" in bets(rules):
        stakes["suited"] = jnp.full(act.shape, rules.stakes["suited"], i32)
        events["suited"] = jnp.where((c[:, 0] & 3) == (c[:, 1] & 3), i32(0), i32(1))
    returns = event_returns(rules)
    nets = {b: net_from_returns(stakes[b], returns[b], events[b]) for b in stakes}
    zero = jnp.zeros(act.shape, i32)
    s = Settlement(stakes=stakes, nets=nets, events=events, player_category=zero,
                   dealer_category=zero, player_rank=p.astype(jnp.uint32),
                   dealer_rank=d.astype(jnp.uint32),
                   event_table=tuple(event_names(rules).items()))
    return in_bet_order(s, bets(rules))


def joint_code(settlement: Settlement, offered: tuple[str, ...]):
    """(N,) int32 ``(action * 4 + main event) * 2 + suited event`` (events.joint_decode)."""
    action = settlement.stakes["raise"] // jnp.maximum(settlement.stakes["ante"], 1)
    code = action * 4 + settlement.events["ante"]
    if "suited" in offered:
        code = code * 2 + settlement.events["suited"]
    return code.astype(jnp.int32)
