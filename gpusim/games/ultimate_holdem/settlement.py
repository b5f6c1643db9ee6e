"""Ultimate Texas Hold'em: pure, vectorised settlement of the Ante, Blind, Play and Trips (JAX),
the joint outcome code of each settled round and the CUDA kernel's game arguments.

The bets, their events and what each event returns are described in
:mod:`gpusim.games.ultimate_holdem.events`; this module turns dealt cards and decisions into
those events, stakes and nets.
"""

from __future__ import annotations

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

from gpusim.evaluator import evaluate
from gpusim.games import payout as payout_of
from gpusim.games.base import (
    DEALER7,
    Settlement,
    category10,
    in_bet_order,
    net_from_returns,
    qualifier_threshold,
)
from gpusim.games.ultimate_holdem.events import (
    ANTE_OF_OUTCOME,
    BLIND_OF_OUTCOME,
    DECISIONS,
    N_CATEGORIES,
    N_OUTCOMES,
    PLAY_OF_OUTCOME,
    TREE,
    bets,
    event_names,
)
from gpusim.games.ultimate_holdem.rules import UltimateHoldemRules
from gpusim.strategy.tree import placed_multiples, visible

__all__ = ["joint_code", "kernel_head", "settle"]


def settle(
    cards, decisions, rules: UltimateHoldemRules, *, jackpot_meter=None, payout=None
) -> Settlement:
    """Settle N rounds of Ultimate Texas Hold'em.

    cards: (N, 9) int32 ``[player 0:2, dealer 2:4, flop 4:7, turn 7, river 8]``.
    decisions: ``{"preflop", "flop", "river"}`` -> (N,) int, the action index at each
    :data:`~gpusim.games.ultimate_holdem.events.TREE` point (preflop 2 Play 4x, 1 Play 3x,
    0 check; flop 1 Play 2x, 0 check; river 1 Play 1x, 0 fold). A point the round does not
    reach (the flop after a pre-flop Play) is ignored, whatever it holds.
    ``jackpot_meter`` is accepted for a uniform signature and ignored (no Jackpot here).
    payout: the pays and stakes (:func:`gpusim.games.payout`), default those of ``rules``;
    compiled once per ``rules.structure()``, they are arguments.
    Returns a :class:`~gpusim.games.base.Settlement` over :func:`bets` (rules).
    """
    del jackpot_meter
    if set(decisions) != set(DECISIONS):
        raise ValueError(f"decisions: keys {sorted(decisions)} are not allowed; ultimate_holdem "
                         "needs {'preflop', 'flop', 'river'}")
    actions = {p: jnp.asarray(a).astype(jnp.int32) for p, a in decisions.items()}
    play_multiple = placed_multiples(TREE, actions)["play"]
    pay = payout_of(rules) if payout is None else payout
    out = _settle(jnp.asarray(cards, jnp.int32), play_multiple, pay, rules.structure())
    return in_bet_order(out, bets(rules))


def _scaled_net(stake, numerators, scale, event):
    """stake * (returns[event] - 1) with returns = numerators / scale (a 3:2 Blind pay): exact,
    the config's stakes make every net whole."""
    table = jnp.asarray(numerators, dtype=jnp.int32)
    return stake * (jnp.take(table, event) - scale) // scale


def _nibble(table: tuple[int, ...], index):
    """``table[index]`` for a table of at most eight values 0..15, by shifting a constant word
    (no gather)."""
    word = sum(v << (4 * i) for i, v in enumerate(table))
    return (jnp.int32(word) >> (4 * index)) & 15


@partial(jax.jit, static_argnames=("rules",))
def _settle(cards, play_multiple, pay, rules: UltimateHoldemRules) -> Settlement:
    # rules: the structure only (blank pays and stakes); every number comes from ``pay``
    # the player's seven cards as the river decision reads them (the tree's static slices), so
    # XLA ranks the hand once for both
    pr = evaluate(visible(cards, TREE[-1].sees, gather=True))
    dr = evaluate(cards[:, list(DEALER7)])
    pcat, dcat = category10(pr), category10(dr)
    qualified = dr >= jnp.uint32(qualifier_threshold(rules.dealer_qualifier))
    i32 = jnp.int32
    # Integer arithmetic, not nested selects and table gathers: with the decisions varying
    # round by round (a table strategy), the compiled selects and bounds checks branch on them
    # and mispredict, which cost this settlement most of its rate.
    win, tie = (pr > dr).astype(i32), (pr == dr).astype(i32)
    not_q = (~qualified).astype(i32)
    showdown = 3 * tie + (1 - tie) * (1 + 3 * (1 - win) + not_q)  # outcomes 1..5
    outcome = jnp.minimum(play_multiple, 1).astype(i32) * showdown
    beats = (outcome + 1) // 2 == 1  # outcomes 1 and 2
    events = {"ante": _nibble(ANTE_OF_OUTCOME, outcome),
              "blind": jnp.where(beats, 1 + pcat, _nibble(
                  tuple(max(v, 0) for v in BLIND_OF_OUTCOME), outcome)),
              "play": _nibble(PLAY_OF_OUTCOME, outcome)}
    ante = pay["stakes"]["ante"]
    n = play_multiple.shape
    stakes = {"ante": jnp.full(n, ante, i32), "blind": jnp.full(n, pay["stakes"]["blind"], i32),
              "play": (play_multiple * ante).astype(i32)}
    returns = pay["returns"]
    if "trips" in returns:
        lost = ~beats if rules.trips_must_beat else False
        events["trips"] = pcat + jnp.where(lost, i32(N_CATEGORIES), i32(0))
        stakes["trips"] = jnp.full(n, pay["stakes"]["trips"], i32)
    nets = {bet: net_from_returns(stakes[bet], returns[bet], events[bet])
            for bet in stakes if bet != "blind"}
    nets["blind"] = _scaled_net(stakes["blind"], returns["blind"], pay["scale"]["blind"],
                                events["blind"])
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


# --- the joint outcome code (kernels/settle_ultimate_holdem.cuh) ----------------------------------


def joint_code(settlement, offered: tuple[str, ...]) -> jax.Array:
    """(N,) int32 ``(path * 6 + outcome) * 10 + category`` (see
    :data:`gpusim.games.ultimate_holdem.events.N_BINS`); the same with or without Trips.
    Reads the events, the stakes and the player's category (the spec's ``JointCode.reads``:
    no event of a fold, a tie or a loss names the player's hand)."""
    del offered
    i32 = jnp.int32
    ev, st = settlement.events, settlement.stakes
    path = 4 - st["play"] // st["ante"]
    # ante event 2 is a dealer who did not qualify: the Play's event says who won
    a = ev["ante"]
    outcome = a + (a == 2).astype(i32) * 3 * (ev["play"] != 1).astype(i32)
    code = (path * N_OUTCOMES + outcome) * N_CATEGORIES + settlement.player_category
    return code.astype(i32)


def kernel_head(rules: UltimateHoldemRules) -> tuple:
    """The CUDA kernel's game argument: the dealer's qualifying rank (the joint code has no
    Trips or paytable factor, so nothing else of the config reaches the kernel)."""
    return (np.uint32(qualifier_threshold(rules.dealer_qualifier)),)
