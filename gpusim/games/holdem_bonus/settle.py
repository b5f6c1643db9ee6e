"""Texas Hold'em Bonus Poker: pure, vectorised settlement of every bet.

Rules: RULES.md, "Texas Hold'em Bonus Poker" (seeds 000 and 001). Bets: Ante; Flop (2 x ante,
a False ``flop`` decision is a fold); Turn and River (1 x ante each, optional); the Bonus and
Jackpot side bets when offered. No dealer qualification.

Events (fixed tuples; ``c`` runs over ``CATEGORY_KEYS``, the player's final hand, low to high):

- ``ante``: ``fold``; ``win:c`` (pays 1:1 when ``c`` >= ``rules.ante_pays_from``, else
  pushes); ``tie`` (push); ``loss``.
- ``flop``: ``fold``; ``win`` (1:1); ``tie``; ``loss``.
- ``turn`` / ``river``: ``fold``; ``check`` (not placed); ``win``; ``tie``; ``loss``.
- ``bonus``: the hole cards as :data:`BONUS_HANDS`: ``AA_vs_AA`` (player AA and dealer AA),
  ``AA``, ``AKs``, ``AQs``, ``AJs``, ``AKo``, ``KK``, ``QQ``, ``JJ``, ``AQo``, ``AJo``, ``TT``
  .. ``22``, ``other``. Settled whatever happens in the main game, folds included.
  ``AA_vs_AA`` is recorded even without that paytable line (it then pays the AA line).
- ``jackpot``: the category of the Jackpot hand (``CATEGORY_KEYS``; ``royal_flush`` last, see
  :data:`JACKPOT_ROYAL`), hole cards + flop by default. Fixed prizes are "X for 1" (the prize
  replaces the stake); a royal flush returns the meter (``jackpot_meter``), whatever the
  stake; it is settled after a fold too.
"""

from __future__ import annotations

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

from gpusim.evaluate import evaluate
from gpusim.games.base import (
    FIRST5,
    Settlement,
    category10,
    in_bet_order,
    net_from_returns,
    seven_card_ranks,
)
from gpusim.games.holdem_bonus.rules import BONUS_LINE_CLASSES, HoldemBonusRules
from gpusim.rules import CATEGORY_KEYS

__all__ = [
    "BETS",
    "BONUS_HANDS",
    "DECISIONS",
    "JACKPOT_ROYAL",
    "bets",
    "event_names",
    "event_returns",
    "settle",
]

BETS = ("ante", "flop", "turn", "river", "bonus", "jackpot")
DECISIONS = ("flop", "turn", "river")

_PAIRS_TT_22 = ("TT", "99", "88", "77", "66", "55", "44", "33", "22")
BONUS_HANDS = (
    ("AA_vs_AA", "AA", "AKs", "AQs", "AJs", "AKo", "KK", "QQ", "JJ", "AQo", "AJo")
    + _PAIRS_TT_22
    + ("other",)
)
"""Bonus events: starting hands the paytable distinguishes, ``other`` for the rest."""

JACKPOT_ROYAL = CATEGORY_KEYS.index("royal_flush")
"""Index of the royal-flush event in ``event_names(rules)["jackpot"]`` (a meter hit)."""

_N_CAT = len(CATEGORY_KEYS)
_ANTE_EVENTS = ("fold",) + tuple(f"win:{c}" for c in CATEGORY_KEYS) + ("tie", "loss")
_FLOP_EVENTS = ("fold", "win", "tie", "loss")
_STREET_EVENTS = ("fold", "check", "win", "tie", "loss")


def bets(rules: HoldemBonusRules) -> tuple[str, ...]:
    """Bets offered by the config: the four main bets, plus bonus/jackpot when staked."""
    return tuple(b for b in BETS if b not in ("bonus", "jackpot") or rules.stakes[b] > 0)


def event_names(rules: HoldemBonusRules) -> dict[str, tuple[str, ...]]:
    names = {
        "ante": _ANTE_EVENTS,
        "flop": _FLOP_EVENTS,
        "turn": _STREET_EVENTS,
        "river": _STREET_EVENTS,
        "bonus": BONUS_HANDS,
        "jackpot": CATEGORY_KEYS,
    }
    return {bet: names[bet] for bet in bets(rules)}


def _bonus_returns(rules: HoldemBonusRules) -> tuple[int, ...]:
    pt = rules.bonus_paytable
    line_of = {cls: line for line, classes in BONUS_LINE_CLASSES.items() for cls in classes}
    out = []
    for hand in BONUS_HANDS:
        if hand == "AA_vs_AA":
            pay = pt.get("AA_vs_dealer_AA", pt["AA"])
        elif hand == "other":
            pay = None
        else:
            pay = pt[line_of[hand]]
        out.append(0 if pay is None else 1 + pay)
    return tuple(out)


def event_returns(rules: HoldemBonusRules) -> dict[str, tuple[int | None, ...]]:
    """Amount returned per unit staked for every event of every offered bet (0 = lost).

    ``net = stake * (returns[bet][event] - 1)`` for a placed bet, except the Jackpot royal flush,
    whose entry is ``None``: it returns the meter (``net = meter - stake``).
    """
    pays_from = CATEGORY_KEYS.index(rules.ante_pays_from)
    out: dict[str, tuple[int | None, ...]] = {
        "ante": (0,) + tuple(2 if c >= pays_from else 1 for c in range(_N_CAT)) + (1, 0),
        "flop": (0, 2, 1, 0),
        "turn": (0, 0, 2, 1, 0),
        "river": (0, 0, 2, 1, 0),
    }
    offered = bets(rules)
    if "bonus" in offered:
        out["bonus"] = _bonus_returns(rules)
    if "jackpot" in offered:
        prizes = rules.jackpot.prizes
        out["jackpot"] = tuple(
            None if c == "royal_flush" else prizes.get(c, 0) for c in CATEGORY_KEYS
        )
    return out


def settle(cards, decisions, rules: HoldemBonusRules, *, jackpot_meter=None) -> Settlement:
    """Settle N rounds of Texas Hold'em Bonus Poker.

    cards: (N, 9) int32 ``[player 0:2, dealer 2:4, flop 4:7, turn 7, river 8]``.
    decisions: ``{"flop", "turn", "river"}`` -> (N,) bool. ``flop`` False is a fold, and then
    ``turn`` and ``river`` are treated as False whatever they hold.
    jackpot_meter: the meter (integer money units; scalar or (N,)) a royal flush wins; default
    ``rules.jackpot.reset``. The caller evolves the meter between rounds (contributions and
    resets): a royal hit is ``events["jackpot"] == JACKPOT_ROYAL``.
    """
    if set(decisions) != set(DECISIONS):
        raise ValueError(
            f"decisions: keys {sorted(decisions)} are not allowed; "
            "holdem_bonus needs {'flop', 'turn', 'river'}"
        )
    if jackpot_meter is None:
        jackpot_meter = rules.jackpot.reset if rules.jackpot is not None else 0
    dec = tuple(jnp.asarray(decisions[k], bool) for k in DECISIONS)
    out = _settle(jnp.asarray(cards, jnp.int32), dec, jnp.asarray(jackpot_meter, jnp.int32), rules)
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
def _settle(cards, dec, meter, rules: HoldemBonusRules) -> Settlement:
    flop_d, turn_d, river_d = dec
    turn_d, river_d = turn_d & flop_d, river_d & flop_d
    pr, dr = seven_card_ranks(cards)
    pcat, dcat = category10(pr), category10(dr)
    win, tie = pr > dr, pr == dr
    i32 = jnp.int32

    def street(placed, offset):
        shown = jnp.where(win, offset, jnp.where(tie, offset + 1, offset + 2)).astype(i32)
        return shown, jnp.where(placed, shown, i32(0))

    ante = rules.stakes.ante
    n = flop_d.shape
    _, flop_ev = street(flop_d, 1)
    showdown, _ = street(flop_d, 2)
    turn_ev = jnp.where(flop_d, jnp.where(turn_d, showdown, 1), 0).astype(i32)
    river_ev = jnp.where(flop_d, jnp.where(river_d, showdown, 1), 0).astype(i32)
    ante_ev = jnp.where(
        flop_d, jnp.where(win, 1 + pcat, jnp.where(tie, 1 + _N_CAT, 2 + _N_CAT)), 0
    ).astype(i32)

    stakes = {
        "ante": jnp.full(n, ante, i32),
        "flop": jnp.where(flop_d, i32(ante * rules.FLOP_MULTIPLE), i32(0)),
        "turn": jnp.where(turn_d, i32(ante * rules.TURN_MULTIPLE), i32(0)),
        "river": jnp.where(river_d, i32(ante * rules.RIVER_MULTIPLE), i32(0)),
    }
    events = {"ante": ante_ev, "flop": flop_ev, "turn": turn_ev, "river": river_ev}
    returns = event_returns(rules)
    offered = bets(rules)
    if "bonus" in offered:
        stakes["bonus"] = jnp.full(n, rules.stakes["bonus"], i32)
        events["bonus"] = _bonus_event(cards)
    nets = {bet: net_from_returns(stakes[bet], returns[bet], events[bet]) for bet in stakes}

    if "jackpot" in offered:
        if rules.jackpot.cards == "hole_and_flop":
            jp_cat = category10(evaluate(cards[:, list(FIRST5)]))
        else:
            jp_cat = pcat
        stake = jnp.full(n, rules.stakes["jackpot"], i32)
        fixed = tuple(0 if r is None else r for r in returns["jackpot"])
        nets["jackpot"] = jnp.where(
            jp_cat == JACKPOT_ROYAL,
            jnp.broadcast_to(meter, n) - stake,
            net_from_returns(stake, fixed, jp_cat),
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

_MAIN_CODES = len(_ANTE_EVENTS) * 4
"""Ante event x (Turn bet, River bet): the main game's part of the code."""
_BONUS_RADIX = len(BONUS_HANDS)
_JACKPOT_RADIX = len(CATEGORY_KEYS)


def joint_code(settlement: Settlement, offered: tuple[str, ...]) -> jax.Array:
    """(N,) int32: ``((ante_event * 4 + turn_bet * 2 + river_bet) * 21 + bonus_event) * 10 +
    jackpot_event``, a side bet's factor left out when it is not offered."""
    ev, st = settlement.events, settlement.stakes
    code = ev["ante"].astype(jnp.int32) * 4 + (st["turn"] > 0) * 2 + (st["river"] > 0)
    if "bonus" in offered:
        code = code * _BONUS_RADIX + ev["bonus"].astype(jnp.int32)
    if "jackpot" in offered:
        code = code * _JACKPOT_RADIX + ev["jackpot"].astype(jnp.int32)
    return code.astype(jnp.int32)


def joint_decode(rules: HoldemBonusRules) -> tuple[int, dict, dict]:
    """(n_bins, {bet: (n_bins,) int64 event}, {bet: (n_bins,) int64 stake}) of every code.
    Codes no round can produce (a fold with a Turn bet) decode to something harmless."""
    offered = bets(rules)
    ante = rules.stakes.ante
    i64 = np.int64
    nb = _BONUS_RADIX if "bonus" in offered else 1
    nj = _JACKPOT_RADIX if "jackpot" in offered else 1
    codes = np.arange(_MAIN_CODES * nb * nj, dtype=i64)
    main = codes // (nb * nj)
    ante_ev = main // 4
    played = ante_ev != 0
    turn_bet = played & ((main >> 1) & 1).astype(bool)
    river_bet = played & (main & 1).astype(bool)
    # 0 win (ante events 1..10), 1 tie (11), 2 loss (12)
    result = np.where(ante_ev <= _N_CAT, 0, ante_ev - _N_CAT)
    showdown = 2 + result
    events = {
        "ante": ante_ev,
        "flop": np.where(played, 1 + result, 0),
        "turn": np.where(played, np.where(turn_bet, showdown, 1), 0),
        "river": np.where(played, np.where(river_bet, showdown, 1), 0),
    }
    stakes = {
        "ante": np.full(codes.size, ante, i64),
        "flop": played * i64(ante * rules.FLOP_MULTIPLE),
        "turn": turn_bet * i64(ante * rules.TURN_MULTIPLE),
        "river": river_bet * i64(ante * rules.RIVER_MULTIPLE),
    }
    if "bonus" in offered:
        events["bonus"] = (codes // nj) % nb
        stakes["bonus"] = np.full(codes.size, rules.stakes["bonus"], i64)
    if "jackpot" in offered:
        events["jackpot"] = codes % nj
        stakes["jackpot"] = np.full(codes.size, rules.stakes["jackpot"], i64)
    return int(codes.size), events, stakes
