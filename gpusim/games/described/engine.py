"""A described game's settlement and rule strategies, in JAX.

:func:`settle` ranks the hands the description names, computes each round's joint code
(:mod:`gpusim.games.described.layout`) and reads every bet's event and stake from it; the nets
come from the config's numbers (:func:`gpusim.games.payout`), so configs that differ only in
pays and stakes share one compiled program. :func:`rule_strategy` turns a described rule
strategy into a :class:`~gpusim.strategy.PointRules`.
"""

from __future__ import annotations

from functools import cache

import jax
import jax.numpy as jnp
import numpy as np

from gpusim.evaluator import evaluate, evaluate_three
from gpusim.games.base import Settlement
from gpusim.games.described.condition_eval import (
    any_true,
    evaluate_condition,
    lookup,
    made_rank,
    n_true,
)
from gpusim.games.described.description import Description
from gpusim.games.described.layout import layout, payout_numbers, threshold, tree
from gpusim.games.described.starting import starting_class
from gpusim.strategy import PointRules
from gpusim.strategy.tree import taken, visible

__all__ = ["joint_code", "rule_strategy", "settle", "threshold"]

_WRITTEN_OUT = ("win_chance", "dealer_outs_below")
"""Conditions whose rule strategies have their decisions written out (:func:`rule_strategy`)."""

_U = jnp.uint32


def _top_bit(x: jax.Array) -> jax.Array:
    """Index of the highest set bit of a non-zero uint32 (0 for 0)."""
    return jnp.maximum(31 - jax.lax.clz(x.astype(_U)).astype(jnp.int32), 0)


@cache
def _gathered_sizes(d: Description) -> frozenset[int]:
    """The sizes of the hands :func:`_rank` gathers: those of a hand some decision point sees
    whole (:func:`_rank` says why)."""
    seen = {tuple(p.sees) for p in tree(d)}
    return frozenset(len(h.columns) for h in d.hands if tuple(h.columns) in seen)


def _rank(cards: jax.Array, d: Description, hand: str) -> tuple[jax.Array, jax.Array]:
    """(rank uint32, category index in the hand's ranking int32) of each round's hand.

    How the hand's (N, k) cards are built decides what XLA's CPU backend writes to memory
    (:func:`gpusim.strategy.tree.visible`). A hand of the size of one that a decision point sees
    whole is gathered, like the strategies' views: the view and the hand are then one
    column-major array, written once. Every other hand is sliced from the dealt round, which
    XLA then writes column-major once for all of them, where a gather would write a copy per
    hand. Against every hand gathered (``python benchmarks/hand_columns.py``, docs/performance.md):
    Texas Hold'em Bonus's ``optimal`` about 1.55x, Mississippi Stud about 1.9x; slicing every
    hand instead cost Ultimate Texas Hold'em's ``optimal`` about 10 % and Three Card Poker half
    its rate.
    """
    h = d.hand(hand)
    gather = len(h.columns) in _gathered_sizes(d)
    cols = cards[:, list(h.columns)] if gather else visible(cards, tuple(h.columns))
    if h.ranking == "three_card":
        rank = evaluate_three(cols)
        return rank, (rank >> 27).astype(jnp.int32)
    rank = evaluate(cols)
    cat = (rank >> 27).astype(jnp.int32)
    royal = (cat == 8) & (((rank >> 13) & 0x1FFF) == (1 << 12))
    return rank, jnp.where(royal, 9, cat)


def _named(rank: jax.Array) -> jax.Array:
    """The rank that names a hand: the top of its primary ranks, else of its kickers."""
    primary = (rank >> 13) & 0x1FFF
    return _top_bit(jnp.where(primary > 0, primary, rank & 0x1FFF))


def _lookup(table, index: jax.Array) -> jax.Array:
    """``table[index]`` (int32), every index in range by construction: without a gather
    (:func:`~gpusim.games.described.condition_eval.lookup`)."""
    return lookup(table, index)


def joint_code(cards: jax.Array, decisions: dict, d: Description) -> jax.Array:
    """(N,) int32 joint code of each round (see :mod:`gpusim.games.described.layout`)."""
    lay = layout(d)
    points = tree(d)
    t = taken(points, {p.name: jnp.asarray(decisions[p.name]).astype(jnp.int32)
                       for p in points})
    raw = jnp.zeros(cards.shape[:1], jnp.int32)
    mult = 1
    for p, k in zip(points, lay.radices, strict=True):
        raw = raw + (t[p.name] + 1) * mult
        mult *= k
    code = _lookup(lay.raw_to_path, raw)
    sd = jnp.zeros_like(code)
    if d.showdown is not None:
        player, dealer, qual = d.showdown
        pr, _ = _rank(cards, d, player)
        dr, _ = _rank(cards, d, dealer)
        # 0 win, 1 tie, 2 loss, as arithmetic: selects on data that varies round by round
        # branch and mispredict on the CPU
        result = (pr == dr).astype(jnp.int32) + 2 * (pr < dr).astype(jnp.int32)
        qualified = jnp.ones_like(code, dtype=bool) if qual is None else \
            dr >= _U(threshold(qual, d.hand(dealer).ranking))
        sd = result + 3 * qualified.astype(jnp.int32)
    code = code * lay.n_showdown + sd
    for h in lay.class_hands:
        if d.hand(h).ranking == "starting_hand":
            code = code * len(lay.class_names[h]) + starting_class(cards, d, h)
            continue
        rank, cat = _rank(cards, d, h)
        table = lay.class_of[h]
        if (table == np.arange(len(table)) // 13).all():  # no rank line: the class is the category
            cls = cat
        else:
            cls = _lookup(table, cat * 13 + _named(rank))
        code = code * len(lay.class_names[h]) + cls
    return code.astype(jnp.int32)


def settle(cards, decisions, rules, *, jackpot_meter=None, payout=None) -> Settlement:
    """Settle N rounds of a described game. cards: (N, C) int32 in the description's columns
    (player, dealer, board); decisions: {point: (N,) action index}. ``payout``: the numbers
    (:func:`gpusim.games.payout`; default the rules'). Returns the Settlement of the offered
    bets, with the joint code in ``joint``."""
    d = rules.game_def
    points = sorted(p.name for p in d.points)
    if sorted(decisions) != points:
        raise ValueError(f"decisions: keys {sorted(decisions)} are not allowed; {d.name} needs "
                         f"{points}")
    pay = payout_numbers(rules) if payout is None else payout
    c = jnp.asarray(cards, jnp.int32)
    if c.ndim != 2 or c.shape[1] != d.n_cards:
        # a missing column would be read clamped (a gather) or not at all (a slice): no error
        raise ValueError(f"cards: shape {tuple(c.shape)} is not allowed; {d.name} deals "
                         f"(N, {d.n_cards}) cards a round")
    code = joint_code(c, decisions, d)
    lay = layout(d)
    base = d.base_bet
    # Every bet's stake, event and net is a function of the code: computed once per code here
    # (a few hundred values, from the config's numbers), then read per round in one row
    # gather, with no division per round (a gather and a division per bet and round cost
    # this settlement about half its rate; benchmarks/described_vs_package.py).
    offered = [b for b in d.bets if b.name in pay["returns"]]
    columns = []
    for b in offered:
        # a side bet has its own stake; a main bet is a multiple of the base bet's
        unit = pay["stakes"][b.name] if b.side else pay["stakes"][base]
        stake = jnp.asarray(lay.multiple_of[b.name], jnp.int32) * jnp.asarray(unit, jnp.int32)
        ev = jnp.asarray(lay.event_of[b.name], jnp.int32)
        ret = jnp.take(jnp.asarray(pay["returns"][b.name], jnp.int32), ev)
        scale = jnp.asarray(pay["scale"][b.name], jnp.int32)
        columns += [stake, ev, (stake * (ret - scale)) // scale]
    # every code is in range by construction: no bounds check, whose per-round branch the
    # varying codes mispredict
    got = [col.at[code].get(mode="promise_in_bounds") for col in columns]
    stakes, nets, events = {}, {}, {}
    for k, b in enumerate(offered):
        stakes[b.name], events[b.name], nets[b.name] = got[3 * k: 3 * k + 3]
    if d.meter is not None and d.meter[0] in nets:  # the meter's event returns the meter
        bet, event = d.meter
        meter = rules.meter.reset if jackpot_meter is None else jackpot_meter
        hit = events[bet] == lay.events[bet].index(event)
        nets[bet] = jnp.where(hit, jnp.broadcast_to(jnp.asarray(meter, jnp.int32), hit.shape)
                              - stakes[bet], nets[bet])
    pcat = dcat = jnp.zeros(code.shape, jnp.int32)
    prank = drank = jnp.zeros(code.shape, _U)
    if d.showdown is not None:
        prank, pcat = _rank(c, d, d.showdown[0])
        drank, dcat = _rank(c, d, d.showdown[1])
    elif d.category_hand is not None:
        prank, pcat = _rank(c, d, d.category_hand)
    elif lay.class_hands:  # starting hands only: two cards, a pair or a high card
        two = c[:, list(d.hand(lay.class_hands[0]).columns)] >> 2
        pcat = (two[:, 0] == two[:, 1]).astype(jnp.int32)
    names = tuple((b, lay.events[b]) for b in stakes)
    return Settlement(stakes=stakes, nets=nets, events=events, player_category=pcat,
                      dealer_category=dcat, player_rank=prank, dealer_rank=drank,
                      event_table=names, joint=code)


def encode(settlement: Settlement, offered: tuple[str, ...]) -> jax.Array:
    """The joint code the settlement computed (``JointCode.encoder``)."""
    del offered
    return settlement.joint


# --- rule strategies ----------------------------------------------------------------------------


def _condition(seen: jax.Array, d: Description, street: int, cond: str, value):
    n_own = d.player
    own = seen[:, :n_own]
    up = seen[:, n_own: n_own + d.dealer_up]
    hand = jnp.concatenate([own, seen[:, n_own + d.dealer_up:]], axis=1)
    if cond == "at_least":
        ranking, *spec = value
        if ranking == "three_card":
            rank = evaluate_three(hand)
        elif hand.shape[1] >= 5:
            rank = evaluate(hand)
        else:
            rank = made_rank(hand)
        return rank >= _U(threshold(tuple(spec), ranking))
    if cond == "up_card_at_least":
        return (up[:, 0] >> 2) >= value
    # written out card by card: a reduce in an XLA CPU loop fusion keeps the whole loop from
    # being vectorized (condition_eval's own conditions say more)
    if cond == "suited":
        suit = hand & 3
        return any_true([n_true([suit[:, j] == s for j in range(suit.shape[1])]) >= value
                         for s in range(4)])
    if cond == "hidden_pair":
        r = own >> 2
        return any_true([r[:, i] == r[:, j] for i in range(n_own) for j in range(i + 1, n_own)])
    if cond == "up_card_paired":
        return any_true([(own[:, i] >> 2) == (up[:, 0] >> 2) for i in range(n_own)])
    return evaluate_condition(seen, d, cond, value)


@cache
def rule_strategy(d: Description, name: str) -> PointRules:
    """The described rule strategy ``name`` as a PointRules (one function per point, handed
    only the columns its point sees)."""
    desc = next(s for s in d.strategies if s[0] == name)
    points = tree(d)
    fns = {}
    for (pname, rules), p, pd in zip(desc[2], points, d.points, strict=True):
        index = {a.name: i for i, a in enumerate(p.actions)}

        def fn(seen, rules=rules, index=index, street=pd.street):
            act = jnp.full(seen.shape[:1], index[rules[-1].action], jnp.int32)
            for rule in reversed(rules[:-1]):
                ok = jnp.ones(seen.shape[:1], bool)
                for cond, value in rule.conditions:
                    ok = ok & _condition(seen, d, street, cond, value)
                act = jnp.where(ok, index[rule.action], act)
            return act

        fns[pname] = fn
    # conditions that look up large tables or count the unseen cards: the decisions are written
    # out before the settlement reads them (gpusim.compute.program)
    heavy = any(cond in _WRITTEN_OUT for _, rules in desc[2] for rule in rules
                for cond, _ in rule.conditions)
    return PointRules(points, fns, gather=True, write_out=heavy, key=f"described:{d.name}:{name}")
