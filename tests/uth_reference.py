"""Ultimate Texas Hold'em written by hand, the reference its description is checked against:
the rule strategies ``basic`` and ``always-check`` in JAX (against the description's rules,
configs/ultimate_holdem.toml ``[game.strategies]``, and the CUDA kernel's rule lists,
kernels/strategy_ultimate_holdem.cuh; they were the hand-written game's strategies until the
game became a description) and :func:`uth_terms`, a config's terms read from its TOML alone.

Each is a :class:`~gpusim.strategy.PointRules`: one function per decision point, handed only the
card columns its point sees (pre-flop the hole cards; flop + the flop; river + the turn and the
river), so no decision reads a card not yet dealt.

``basic``, the simple published player strategy, as the published basic strategy states it:

- pre-flop, raise 4x with any pair except 2-2, any suited ace or king, Q6s or better, J8s or
  better, any offsuit ace, K5o or better, Q8o or better, and JTo;
- flop, 2x with two pair or better, a hidden pair other than 2-2, or four to a flush holding
  a hidden card of ten or better;
- river, 1x with a hidden pair or better, or when fewer than 21 of the unseen cards (dealer
  outs) would give the dealer a better hand;
- otherwise check, or fold on the river.

How this module reads the words (the points the text leaves open):

- "Q6s or better": a queen with a suited six .. jack (Q6s-QJs); "J8s or better": J8s, J9s, JTs;
  "K5o or better": K5o-KQo; "Q8o or better": Q8o-QJo. Play 3x is never chosen.
- A *hidden pair* is a pair with a hole card in it: a pocket pair, or a hole card of the same
  rank as a board card. "2-2" is pocket deuces (a hole deuce paired on the flop is a hidden
  pair and plays).
- Flop "two pair or better": the five cards (hole + flop) make two pair or better *and a hole
  card takes part*: a hole card pairs (pocket pair or a match on the flop), or the five make a
  straight or a flush (both hole cards). Trips on the flop alone are the dealer's too: no bet.
- Flop "four to a flush holding a hidden card of ten or better": exactly four of the five cards
  share a suit and a hole card of that suit is a ten or higher.
- River "hidden pair or better": a hidden pair (as above, with the whole board; that covers
  two pair, trips, full houses and quads made with a hole card, pocket deuces included), or a
  straight, flush or straight flush of the seven cards that ranks above the board's own five
  (the hole cards play). A board pair, two pair or trips with hole-card kickers is not one.
- *Dealer outs*: the unseen cards are the 45 not in the player's hand or on the board; a card
  ``c`` is an out when the board plus ``c`` (the dealer's best five of those six) ranks
  strictly above the player's seven-card hand. A tie is not an out. Play 1x when outs < 21.

``always-check``: check pre-flop and on the flop, then play 1x or fold by ``basic``'s river
rule (a reference point: no early raise).
"""

from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import jax
import jax.numpy as jnp

from gpusim.cards import RANKS
from gpusim.evaluator import FLUSH, STRAIGHT, STRAIGHT_FLUSH, TWO_PAIR, evaluate, hand_category
from gpusim.strategy import PointRules
from gpusim.strategy.tree import Action, DecisionPoint

__all__ = ["DEALER_OUTS_LIMIT", "TREE", "dealer_outs", "uth_always_check", "uth_basic",
           "uth_terms"]

TREE = (
    DecisionPoint("preflop", (Action("check", next="flop"), Action("play_3x", {"play": 3}),
                              Action("play_4x", {"play": 4})), sees=(0, 1)),
    DecisionPoint("flop", (Action("check", next="river"), Action("play_2x", {"play": 2})),
                  sees=(0, 1, 4, 5, 6)),
    DecisionPoint("river", (Action("fold", folds=True), Action("play_1x", {"play": 1})),
                  sees=(0, 1, 4, 5, 6, 7, 8)),
)
"""The game's decision tree: pre-flop check (0), Play 3x (1) or 4x (2); flop check (0) or
Play 2x (1); river fold (0) or Play 1x (1)."""

DEALER_OUTS_LIMIT = 21
"""The river plays 1x with fewer dealer outs than this (module docstring)."""

_TEN = 8  # rank codes: 0 = deuce .. 8 = ten .. 12 = ace


def _ranks_suits(seen):
    seen = seen.astype(jnp.int32)
    return seen >> 2, seen & 3


@jax.jit
def _preflop(seen: jax.Array) -> jax.Array:
    """2 (Play 4x) on the module docstring's list, else 0 (check). seen: (N, 2) hole cards."""
    r, s = _ranks_suits(seen)
    hi, lo = jnp.max(r, axis=-1), jnp.min(r, axis=-1)
    pair = hi == lo
    suited = s[:, 0] == s[:, 1]
    # ranks: 12 ace, 11 king, 10 queen, 9 jack, 8 ten, 6 eight, 4 six, 3 five
    suited_ok = (hi >= 11) | ((hi == 10) & (lo >= 4)) | ((hi == 9) & (lo >= 6))
    offsuit_ok = (hi == 12) | ((hi == 11) & (lo >= 3)) | ((hi == 10) & (lo >= 6)) | (
        (hi == 9) & (lo == 8))
    play = jnp.where(pair, lo >= 1, jnp.where(suited, suited_ok, offsuit_ok))
    return jnp.where(play, 2, 0).astype(jnp.int32)


def _hidden_pair(r):
    """(N,) bool: a hole card's rank appears twice or more among the seen ranks ``r`` (N, k),
    hole cards first: a pocket pair or a hole card paired on the board."""
    return jnp.any(jnp.sum(r[:, None, :] == r[:, :2, None], axis=-1) >= 2, axis=-1)


@jax.jit
def _flop(seen: jax.Array) -> jax.Array:
    """True (Play 2x) per the module docstring. seen: (N, 5) hole cards + flop."""
    r, s = _ranks_suits(seen)
    cat = hand_category(evaluate(seen))
    hidden = _hidden_pair(r)
    pocket_deuces = (r[:, 0] == 0) & (r[:, 1] == 0)
    straight_or_flush = (cat == STRAIGHT) | (cat == FLUSH) | (cat == STRAIGHT_FLUSH)
    two_pair_up = (cat >= TWO_PAIR) & (hidden | straight_or_flush)
    # four of a suit with a hole card of it at ten or higher
    n_suit = jnp.sum(s[:, None, :] == s[:, :2, None], axis=-1)  # (N, 2): per hole card's suit
    flush4 = jnp.any((n_suit == 4) & (r[:, :2] >= _TEN), axis=-1)
    return two_pair_up | (hidden & ~pocket_deuces) | flush4


def dealer_outs(seen: jax.Array) -> jax.Array:
    """(N,) int32: the unseen cards that, with the board, rank strictly above the player's
    seven cards. seen: (N, 7) hole cards + the five board cards."""
    seen = seen.astype(jnp.int32)
    n = seen.shape[0]
    player = evaluate(seen)
    deck = jnp.arange(52, dtype=jnp.int32)
    board6 = jnp.concatenate(
        [jnp.broadcast_to(seen[:, None, 2:], (n, 52, 5)),
         jnp.broadcast_to(deck[None, :, None], (n, 52, 1))], axis=-1)
    unseen = jnp.all(deck[None, :, None] != seen[:, None, :], axis=-1)  # (N, 52)
    # a seen card evaluates as a repeated card: masked out, whatever it gives
    better = evaluate(board6) > player[:, None]
    return jnp.sum(better & unseen, axis=-1).astype(jnp.int32)


@jax.jit
def _river(seen: jax.Array) -> jax.Array:
    """True (Play 1x) per the module docstring. seen: (N, 7) hole cards + board."""
    r, _ = _ranks_suits(seen)
    player = evaluate(seen)
    cat = hand_category(player)
    made = (cat == STRAIGHT) | (cat == FLUSH) | (cat == STRAIGHT_FLUSH)
    hole_plays = made & (player > evaluate(seen[:, 2:]))
    return _hidden_pair(r) | hole_plays | (dealer_outs(seen) < DEALER_OUTS_LIMIT)


def _never(seen) -> jax.Array:
    return jnp.zeros(seen.shape[0], jnp.int32)


uth_basic = PointRules(TREE, {"preflop": _preflop, "flop": _flop, "river": _river})
"""Ultimate Texas Hold'em basic strategy (module docstring)."""
uth_always_check = PointRules(TREE, {"preflop": _never, "flop": _never, "river": _river})
"""Check to the river, then ``basic``'s river rule (module docstring)."""


class _Stakes(dict):
    @property
    def ante(self) -> int:
        return self["ante"]


def uth_terms(rules) -> SimpleNamespace:
    """What ``ref_ultimate_holdem`` reads of the rules, straight from the config's TOML (the
    game's own parser is what is under test): stakes, the Blind and Trips paytables (``"A:B"``
    as a Fraction), ``trips_must_beat`` and the dealer's qualifier (hand, rank index)."""
    doc = tomllib.loads(Path(rules.source).read_text(encoding="utf-8"))

    def pays(table: dict) -> dict:
        return {k: Fraction(*map(int, v.split(":"))) if isinstance(v, str) else v
                for k, v in table.items()}

    q = doc["rules"].get("dealer_qualifier", {"hand": "pair", "rank": "2"})
    return SimpleNamespace(
        stakes=_Stakes({"ante": doc["stakes"]["ante"], "trips": doc["stakes"].get("trips", 0)}),
        blind_paytable=pays(doc["paytables"]["blind"]),
        trips_paytable=pays(doc["paytables"]["trips"]),
        trips_must_beat=doc["rules"].get("trips_must_beat", False),
        dealer_qualifier=SimpleNamespace(hand=q["hand"], rank=RANKS.index(q["rank"])),
    )
