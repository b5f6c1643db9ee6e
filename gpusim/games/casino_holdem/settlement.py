"""Casino Hold'em: pure, vectorised settlement of the Ante, Call and AA Bonus (JAX), and the
joint outcome code of each settled round.

The bets, their events and what each event returns are described in
:mod:`gpusim.games.casino_holdem.events` (with the rules); this
module turns dealt cards and decisions into those events, stakes and nets.
"""

from __future__ import annotations

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

from gpusim.evaluator import evaluate
from gpusim.games import payout as payout_of
from gpusim.games.base import (
    Settlement,
    category10,
    first_five,
    in_bet_order,
    net_from_returns,
    qualifier_threshold,
    seven_card_ranks,
)
from gpusim.games.casino_holdem.events import (
    AA_RADIX,
    DECISIONS,
    N_AA_HANDS,
    N_CATEGORIES,
    TREE,
    bets,
    event_names,
)
from gpusim.games.casino_holdem.rules import CasinoHoldemRules
from gpusim.strategy.tree import placed_multiples

__all__ = ["joint_code", "qualifier_threshold", "settle"]

def settle(
    cards, decisions, rules: CasinoHoldemRules, *, jackpot_meter=None, payout=None
) -> Settlement:
    """Settle N rounds of Casino Hold'em.

    cards: (N, 9) int32 ``[player 0:2, dealer 2:4, flop 4:7, turn 7, river 8]``.
    decisions: ``{"call": (N,) int}``, the action index at the :data:`TREE` point (1 call,
    0 fold; a bool array reads the same).
    ``jackpot_meter`` is accepted for a uniform signature and ignored (no Jackpot here).
    payout: the pays and stakes (:func:`gpusim.games.payout`), default those of ``rules``;
    compiled once per ``rules.structure()``, they are arguments.
    Returns a :class:`~gpusim.games.base.Settlement` over :func:`bets` (rules).
    """
    del jackpot_meter
    if set(decisions) != set(DECISIONS):
        raise ValueError(
            f"decisions: keys {sorted(decisions)} are not allowed; casino_holdem needs {{'call'}}"
        )
    actions = {p: jnp.asarray(a).astype(jnp.int32) for p, a in decisions.items()}
    call_multiple = placed_multiples(TREE, actions)["call"]
    pay = payout_of(rules) if payout is None else payout
    out = _settle(jnp.asarray(cards, jnp.int32), call_multiple, pay, rules.structure())
    return in_bet_order(out, bets(rules))


@partial(jax.jit, static_argnames=("rules",))
def _settle(
    cards: jax.Array, call_multiple: jax.Array, pay, rules: CasinoHoldemRules
) -> Settlement:
    # rules: the structure only (blank pays and stakes); every number comes from ``pay``
    call = call_multiple > 0
    pr, dr = seven_card_ranks(cards)
    pcat, dcat = category10(pr), category10(dr)
    qualified = dr >= jnp.uint32(qualifier_threshold(rules.dealer_qualifier))
    win, tie = pr > dr, pr == dr
    i32 = jnp.int32

    ante_ev = jnp.where(
        ~call,
        i32(0),
        jnp.where(
            ~qualified,
            1 + pcat,
            jnp.where(
                win,
                1 + N_CATEGORIES + pcat,
                jnp.where(tie, i32(1 + 2 * N_CATEGORIES), i32(2 + 2 * N_CATEGORIES)),
            ),
        ),
    )
    call_ev = jnp.where(
        ~call, i32(0), jnp.where(~qualified, i32(1), jnp.where(win, 2, jnp.where(tie, 3, 4)))
    ).astype(i32)

    returns = pay["returns"]
    ante = pay["stakes"]["ante"]
    ante_stake = jnp.full(call.shape, ante, i32)
    call_stake = (call_multiple * ante).astype(i32)
    stakes = {"ante": ante_stake, "call": call_stake}
    events = {"ante": ante_ev.astype(i32), "call": call_ev}

    if "aa_bonus" in returns:
        five = first_five(cards)
        c5 = category10(evaluate(five))
        aces = jnp.sum((five >> 2) == 12, axis=-1)
        # AA_BONUS_HANDS splits "pair" at aces, shifting every higher category up by one.
        hand = jnp.where(c5 >= 2, c5 + 1, jnp.where(c5 == 1, jnp.where(aces >= 2, 2, 1), 0))
        events["aa_bonus"] = jnp.where(call, hand, N_AA_HANDS + hand).astype(i32)
        stakes["aa_bonus"] = jnp.full(call.shape, pay["stakes"]["aa_bonus"], i32)

    nets = {bet: net_from_returns(stakes[bet], returns[bet], events[bet]) for bet in stakes}
    return Settlement(
        stakes=stakes,
        nets=nets,
        events=events,
        player_category=pcat,
        dealer_category=dcat,
        player_rank=pr,
        dealer_rank=dr,
        event_table=tuple(event_names(rules).items()),
    )


# --- the joint outcome code (kernels/settle_casino_holdem.cuh) ------------------------------------


def joint_code(settlement: Settlement, offered: tuple[str, ...]) -> jax.Array:
    """(N,) int32: ``ante_event * 22 + aa_bonus_event`` (the Ante event alone without the
    side bet)."""
    ante = settlement.events["ante"].astype(jnp.int32)
    if "aa_bonus" in offered:
        return ante * AA_RADIX + settlement.events["aa_bonus"].astype(jnp.int32)
    return ante


def kernel_head(rules: CasinoHoldemRules) -> tuple:
    """The CUDA kernel's game arguments: the qualifying rank and whether the AA Bonus is on."""
    return (
        np.uint32(qualifier_threshold(rules.dealer_qualifier)),
        np.int32("aa_bonus" in bets(rules)),
    )
