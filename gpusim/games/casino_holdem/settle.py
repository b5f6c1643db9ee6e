"""Casino Hold'em: pure, vectorised settlement of the Ante, Call and AA Bonus bets.

Rules: RULES.md, "Casino Hold'em" (seeds 002 and 004). The player sees the hole cards and the
flop, then folds (the Ante is lost) or calls (Call = 2 x Ante). The dealer qualifies with
``rules.dealer_qualifier`` or better (default a pair of fours).

Events (fixed tuples, the rows of the return tables; ``c`` runs over ``CATEGORY_KEYS``, the
player's final seven-card hand, low to high, royal flush last):

- ``ante``: ``fold``; ``dealer_not_qualified:c`` (paid per the Ante paytable whoever holds the
  better hand); ``win:c`` (paid per the Ante paytable); ``tie`` (push); ``loss``.
- ``call``: ``fold`` (not placed); ``dealer_not_qualified`` (push); ``win`` (1:1); ``tie``;
  ``loss``.
- ``aa_bonus`` (only when offered): the five-card hand of hole cards + flop, ``b`` in
  :data:`AA_BONUS_HANDS`: ``b`` when the player called, ``fold:b`` when he folded. With
  ``fold_forfeits_bonus`` every ``fold:b`` loses; otherwise it pays like ``b``.
"""

from __future__ import annotations

import itertools
from functools import lru_cache, partial

import jax
import jax.numpy as jnp
import numpy as np

from gpusim.evaluate import CATEGORY_NAMES, evaluate, evaluate_np
from gpusim.games.base import (
    FIRST5,
    Settlement,
    category10,
    in_bet_order,
    net_from_returns,
    seven_card_ranks,
)
from gpusim.games.casino_holdem.rules import CasinoHoldemRules
from gpusim.rules import CATEGORY_KEYS, Qualifier

__all__ = [
    "AA_BONUS_HANDS",
    "BETS",
    "DECISIONS",
    "bets",
    "event_names",
    "event_returns",
    "qualifier_threshold",
    "settle",
]

BETS = ("ante", "call", "aa_bonus")
DECISIONS = ("call",)

AA_BONUS_HANDS = (
    "high_card",
    "pair_below_aces",
    "pair_of_aces",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
)
"""Five-card AA Bonus hands, low to high (pairs split at aces, as the paytable does)."""

_ANTE_EVENTS = (
    ("fold",)
    + tuple(f"dealer_not_qualified:{c}" for c in CATEGORY_KEYS)
    + tuple(f"win:{c}" for c in CATEGORY_KEYS)
    + ("tie", "loss")
)
_CALL_EVENTS = ("fold", "dealer_not_qualified", "win", "tie", "loss")
_AA_EVENTS = AA_BONUS_HANDS + tuple(f"fold:{b}" for b in AA_BONUS_HANDS)
_N_CAT = len(CATEGORY_KEYS)
_N_AA = len(AA_BONUS_HANDS)


def bets(rules: CasinoHoldemRules) -> tuple[str, ...]:
    """Bets offered by the config: ante, call, and aa_bonus when its stake is > 0."""
    return BETS if rules.stakes["aa_bonus"] > 0 else BETS[:2]


def event_names(rules: CasinoHoldemRules) -> dict[str, tuple[str, ...]]:
    names = {"ante": _ANTE_EVENTS, "call": _CALL_EVENTS, "aa_bonus": _AA_EVENTS}
    return {bet: names[bet] for bet in bets(rules)}


def _ante_pay(rules: CasinoHoldemRules, cat: int) -> int:
    key = CATEGORY_KEYS[cat]
    if key in rules.ante_paytable:
        return rules.ante_paytable[key]
    return rules.ante_paytable["straight_or_less"]


def _aa_pay(rules: CasinoHoldemRules, hand: str) -> int | None:
    pt = rules.aa_bonus_paytable
    return pt[hand] if pt is not None and hand in pt else None


def event_returns(rules: CasinoHoldemRules) -> dict[str, tuple[int, ...]]:
    """Amount returned per unit staked, for every event of every offered bet (0 = lost).

    ``net = stake * (returns[bet][event] - 1)`` for a placed bet. These are the return-table
    multipliers: counts of events times these give any paytable's return.
    """
    ante = [0]
    ante += [1 + _ante_pay(rules, c) for c in range(_N_CAT)]  # dealer not qualified
    ante += [1 + _ante_pay(rules, c) for c in range(_N_CAT)]  # player wins
    ante += [1, 0]
    out = {"ante": tuple(ante), "call": (0, 1, 2, 1, 0)}
    if "aa_bonus" in bets(rules):
        called = [0 if _aa_pay(rules, b) is None else 1 + _aa_pay(rules, b) for b in AA_BONUS_HANDS]
        folded = [0] * _N_AA if rules.fold_forfeits_bonus else called
        out["aa_bonus"] = tuple(called + folded)
    return out


@lru_cache(maxsize=64)
def qualifier_threshold(qualifier: Qualifier) -> int:
    """The evaluator rank of the weakest hand that qualifies: ranks >= it qualify.

    Found by evaluating one five-card hand per rank pattern (and every rank set as a flush),
    so it follows the evaluator's ordering without knowing its bit layout.
    """
    hands = []
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in set(ranks)) > 4:
            continue
        # Suits by position cycle 0,1,2,3,0: a rank's copies sit together, so they differ,
        # and all four suits appear, so this is never a flush.
        hands.append([4 * r + (i % 4) for i, r in enumerate(ranks)])
        if len(set(ranks)) == 5:
            hands.append([4 * r for r in ranks])
    cards = np.asarray(hands, dtype=np.int32)
    # Concrete even when first called while a caller's jax.jit is tracing.
    with jax.ensure_compile_time_eval():
        rank = evaluate_np(cards).astype(np.int64)
    cat = rank >> 27
    # The rank that names a hand (pair rank, top of a straight, top card of a flush...).
    named = np.array([max(c >> 2 for c in h) for h in hands])
    for i, h in enumerate(hands):
        rs = [c >> 2 for c in h]
        counts = {r: rs.count(r) for r in rs}
        top = max(counts.values())
        if top >= 2:
            named[i] = max(r for r, k in counts.items() if k == top)
    straight_like = (cat == 4) | (cat == 8)
    is_wheel = np.array([sorted({c >> 2 for c in h}) == [0, 1, 2, 3, 12] for h in hands])
    named = np.where(straight_like & is_wheel, 3, named)
    want = CATEGORY_NAMES.index(qualifier.hand)
    ok = (cat == want) & (named >= qualifier.rank)
    if not ok.any():
        raise ValueError(f"dealer qualifier {qualifier.describe()}: no such hand exists")
    return int(rank[ok].min())


def settle(cards, decisions, rules: CasinoHoldemRules, *, jackpot_meter=None) -> Settlement:
    """Settle N rounds of Casino Hold'em.

    cards: (N, 9) int32 ``[player 0:2, dealer 2:4, flop 4:7, turn 7, river 8]``.
    decisions: ``{"call": (N,) bool}``; False is a fold.
    ``jackpot_meter`` is accepted for a uniform signature and ignored (no Jackpot here).
    Returns a :class:`~gpusim.games.base.Settlement` over :func:`bets` (rules).
    """
    del jackpot_meter
    if set(decisions) != set(DECISIONS):
        raise ValueError(
            f"decisions: keys {sorted(decisions)} are not allowed; casino_holdem needs {{'call'}}"
        )
    out = _settle(jnp.asarray(cards, jnp.int32), jnp.asarray(decisions["call"], bool), rules)
    return in_bet_order(out, bets(rules))


@partial(jax.jit, static_argnames=("rules",))
def _settle(cards: jax.Array, call: jax.Array, rules: CasinoHoldemRules) -> Settlement:
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
                win, 1 + _N_CAT + pcat, jnp.where(tie, i32(1 + 2 * _N_CAT), i32(2 + 2 * _N_CAT))
            ),
        ),
    )
    call_ev = jnp.where(
        ~call, i32(0), jnp.where(~qualified, i32(1), jnp.where(win, 2, jnp.where(tie, 3, 4)))
    ).astype(i32)

    returns = event_returns(rules)
    ante_stake = jnp.full(call.shape, rules.stakes.ante, i32)
    call_stake = jnp.where(call, i32(rules.stakes.ante * rules.CALL_MULTIPLE), i32(0))
    stakes = {"ante": ante_stake, "call": call_stake}
    events = {"ante": ante_ev.astype(i32), "call": call_ev}

    if "aa_bonus" in returns:
        five = cards[:, list(FIRST5)]
        c5 = category10(evaluate(five))
        aces = jnp.sum((five >> 2) == 12, axis=-1)
        # AA_BONUS_HANDS splits "pair" at aces, shifting every higher category up by one.
        hand = jnp.where(c5 >= 2, c5 + 1, jnp.where(c5 == 1, jnp.where(aces >= 2, 2, 1), 0))
        events["aa_bonus"] = jnp.where(call, hand, _N_AA + hand).astype(i32)
        stakes["aa_bonus"] = jnp.full(call.shape, rules.stakes["aa_bonus"], i32)

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

_AA_RADIX = len(_AA_EVENTS)
_CALL_OF_ANTE = (0,) + (1,) * _N_CAT + (2,) * _N_CAT + (3, 4)
"""The Call event of each Ante event: fold, dealer not qualified, win, tie, loss."""


def joint_code(settlement: Settlement, offered: tuple[str, ...]) -> jax.Array:
    """(N,) int32: ``ante_event * 22 + aa_bonus_event`` (the Ante event alone without the
    side bet)."""
    ante = settlement.events["ante"].astype(jnp.int32)
    if "aa_bonus" in offered:
        return ante * _AA_RADIX + settlement.events["aa_bonus"].astype(jnp.int32)
    return ante


def joint_decode(rules: CasinoHoldemRules) -> tuple[int, dict, dict]:
    """(n_bins, {bet: (n_bins,) int64 event}, {bet: (n_bins,) int64 stake}) of every code."""
    offered = bets(rules)
    ante = rules.stakes.ante
    i64 = np.int64
    n_aa = _AA_RADIX if "aa_bonus" in offered else 1
    codes = np.arange(len(_ANTE_EVENTS) * n_aa, dtype=i64)
    ante_ev = codes // n_aa
    events = {"ante": ante_ev, "call": np.array(_CALL_OF_ANTE, i64)[ante_ev]}
    stakes = {"ante": np.full(codes.size, ante, i64),
              "call": (ante_ev != 0) * i64(CasinoHoldemRules.CALL_MULTIPLE * ante)}
    if "aa_bonus" in offered:
        events["aa_bonus"] = codes % n_aa
        stakes["aa_bonus"] = np.full(codes.size, rules.stakes["aa_bonus"], i64)
    return int(codes.size), events, stakes
