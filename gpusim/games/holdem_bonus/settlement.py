"""Texas Hold'em Bonus Poker: pure, vectorised settlement of every bet (JAX), and the joint
outcome code of each settled round.

The bets, their events and what each event returns are described in
:mod:`gpusim.games.holdem_bonus.events` (with the rules);
this module turns dealt cards and decisions into those events, stakes and nets.
"""

from __future__ import annotations

from functools import partial

import jax
import jax.numpy as jnp

from gpusim.evaluator import evaluate
from gpusim.games import payout as payout_of
from gpusim.games.base import (
    Settlement,
    category10,
    first_five,
    in_bet_order,
    net_from_returns,
    seven_card_ranks,
)
from gpusim.games.holdem_bonus.events import (
    BONUS_HANDS,
    BONUS_RADIX,
    DECISIONS,
    JACKPOT_RADIX,
    JACKPOT_ROYAL,
    N_CATEGORIES,
    TREE,
    bets,
    event_names,
)
from gpusim.games.holdem_bonus.rules import HoldemBonusRules
from gpusim.strategy.tree import placed_multiples

__all__ = ["joint_code", "settle"]

def settle(
    cards, decisions, rules: HoldemBonusRules, *, jackpot_meter=None, payout=None
) -> Settlement:
    """Settle N rounds of Texas Hold'em Bonus Poker.

    cards: (N, 9) int32 ``[player 0:2, dealer 2:4, flop 4:7, turn 7, river 8]``.
    decisions: ``{"flop", "turn", "river"}`` -> (N,) int, the action index at each :data:`TREE`
    point (1 bet; 0 fold at ``flop``, check at ``turn`` and ``river``; bool arrays read the
    same). After a fold, ``turn`` and ``river`` are not reached, whatever they hold.
    jackpot_meter: the meter (integer money units; scalar or (N,)) a royal flush wins; default
    ``rules.jackpot.reset``. The caller evolves the meter between rounds (contributions and
    resets): a royal hit is ``events["jackpot"] == JACKPOT_ROYAL``.
    payout: the pays and stakes (:func:`gpusim.games.payout`), default those of ``rules``;
    compiled once per ``rules.structure()``, they are arguments.
    """
    if set(decisions) != set(DECISIONS):
        raise ValueError(
            f"decisions: keys {sorted(decisions)} are not allowed; "
            "holdem_bonus needs {'flop', 'turn', 'river'}"
        )
    if jackpot_meter is None:
        jackpot_meter = rules.jackpot.reset if rules.jackpot is not None else 0
    actions = {p: jnp.asarray(a).astype(jnp.int32) for p, a in decisions.items()}
    multiples = placed_multiples(TREE, actions)
    dec = tuple(multiples[k] for k in DECISIONS)  # each point places its own bet
    pay = payout_of(rules) if payout is None else payout
    out = _settle(jnp.asarray(cards, jnp.int32), dec, jnp.asarray(jackpot_meter, jnp.int32), pay,
                  rules.structure())  # fmt: skip
    return in_bet_order(out, bets(rules))


def _bonus_event(cards: jax.Array) -> jax.Array:
    r1, r2 = cards[:, 0] >> 2, cards[:, 1] >> 2
    hi, lo = jnp.maximum(r1, r2), jnp.minimum(r1, r2)
    suited = (cards[:, 0] & 3) == (cards[:, 1] & 3)
    pair = r1 == r2
    dealer_aa = ((cards[:, 2] >> 2) == 12) & ((cards[:, 3] >> 2) == 12)
    ace_x = (hi == 12) & ~pair
    i32 = jnp.int32
    # Earlier entries win; ranks count 12 = ace, 11 = king, 10 = queen, 9 = jack, 8 = ten.
    cases = (
        (pair & (hi == 12) & dealer_aa, 0),
        (pair & (hi == 12), 1),
        (ace_x & (lo == 11) & suited, 2),
        (ace_x & (lo == 10) & suited, 3),
        (ace_x & (lo == 9) & suited, 4),
        (ace_x & (lo == 11), 5),
        (pair & (hi == 11), 6),
        (pair & (hi == 10), 7),
        (pair & (hi == 9), 8),
        (ace_x & (lo == 10), 9),
        (ace_x & (lo == 9), 10),
    )
    # TT (rank 8) .. 22 (rank 0) are events 11 .. 19.
    out = jnp.where(pair & (hi <= 8), 11 + (8 - hi), i32(len(BONUS_HANDS) - 1))
    for cond, idx in reversed(cases):
        out = jnp.where(cond, i32(idx), out)
    return out.astype(i32)


@partial(jax.jit, static_argnames=("rules",))
def _settle(cards, dec, meter, pay, rules: HoldemBonusRules) -> Settlement:
    # rules: the structure only (blank pays and stakes); every number comes from ``pay``
    flop_m, turn_m, river_m = dec
    flop_d, turn_d, river_d = flop_m > 0, turn_m > 0, river_m > 0
    pr, dr = seven_card_ranks(cards)
    pcat, dcat = category10(pr), category10(dr)
    win, tie = pr > dr, pr == dr
    i32 = jnp.int32

    def street(placed, offset):
        shown = jnp.where(win, offset, jnp.where(tie, offset + 1, offset + 2)).astype(i32)
        return shown, jnp.where(placed, shown, i32(0))

    ante = pay["stakes"]["ante"]
    n = flop_d.shape
    _, flop_ev = street(flop_d, 1)
    showdown, _ = street(flop_d, 2)
    turn_ev = jnp.where(flop_d, jnp.where(turn_d, showdown, 1), 0).astype(i32)
    river_ev = jnp.where(flop_d, jnp.where(river_d, showdown, 1), 0).astype(i32)
    ante_ev = jnp.where(
        flop_d, jnp.where(win, 1 + pcat, jnp.where(tie, 1 + N_CATEGORIES, 2 + N_CATEGORIES)), 0
    ).astype(i32)

    stakes = {
        "ante": jnp.full(n, ante, i32),
        "flop": (flop_m * ante).astype(i32),
        "turn": (turn_m * ante).astype(i32),
        "river": (river_m * ante).astype(i32),
    }
    events = {"ante": ante_ev, "flop": flop_ev, "turn": turn_ev, "river": river_ev}
    returns = pay["returns"]
    offered = bets(rules)
    if "bonus" in offered:
        stakes["bonus"] = jnp.full(n, pay["stakes"]["bonus"], i32)
        events["bonus"] = _bonus_event(cards)
    nets = {bet: net_from_returns(stakes[bet], returns[bet], events[bet]) for bet in stakes}

    if "jackpot" in offered:
        if rules.jackpot.cards == "hole_and_flop":
            jp_cat = category10(evaluate(first_five(cards)))
        else:
            jp_cat = pcat
        stake = jnp.full(n, pay["stakes"]["jackpot"], i32)
        nets["jackpot"] = jnp.where(
            jp_cat == JACKPOT_ROYAL,
            jnp.broadcast_to(meter, n) - stake,
            net_from_returns(stake, returns["jackpot"], jp_cat),  # the royal's 0 is not used
        )
        stakes["jackpot"] = stake
        events["jackpot"] = jp_cat

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


# --- the joint outcome code (kernels/settle_holdem_bonus.cuh) -------------------------------------


def joint_code(settlement: Settlement, offered: tuple[str, ...]) -> jax.Array:
    """(N,) int32: ``((ante_event * 4 + turn_bet * 2 + river_bet) * 21 + bonus_event) * 10 +
    jackpot_event``, a side bet's factor left out when it is not offered."""
    ev, st = settlement.events, settlement.stakes
    code = ev["ante"].astype(jnp.int32) * 4 + (st["turn"] > 0) * 2 + (st["river"] > 0)
    if "bonus" in offered:
        code = code * BONUS_RADIX + ev["bonus"].astype(jnp.int32)
    if "jackpot" in offered:
        code = code * JACKPOT_RADIX + ev["jackpot"].astype(jnp.int32)
    return code.astype(jnp.int32)
