"""Texas Hold'em Bonus's strategies: its rule lists and its table strategy (``optimal``,
``win-over-half-ev``: the Swedish rules' rule text read literally, Turn/River bets iff exact P(win)
> 1/2 and the flop bet iff its EV under those rules beats folding).

Each rule strategy is a :class:`~gpusim.strategy.PointRules`: one function per decision point,
handed only the card columns its point sees, so every decision reads only the cards seen at
that point (the information contract of :mod:`gpusim.strategy`). "With a hole card" below means
the hole card is one of the cards that make the feature (its rank is in the pair or the run,
its suit is the flush suit); the features are :mod:`gpusim.strategy.features`.

Texas Hold'em Bonus ``basic``:

- Flop bet (seeing the hole cards): bet everything except 2-3 to 2-7 offsuit.
- Turn bet (seeing hole cards + flop): bet with a pair or better made with a hole card, four
  to a flush with a hole card, or four consecutive ranks (or a straight) with a hole card.
- River bet (seeing hole cards + flop + turn): bet with a pair of sixes or better made with a
  hole card, two pair or better made with a hole card, four to a straight flush with a hole
  card, or a straight or flush with a hole card.

Texas Hold'em Bonus ``win-over-half`` (the Swedish rules' rule text, taken literally): Flop bet as
``basic`` (the fold list 2-3 .. 2-7 offsuit; the Swedish rules' "EV higher than folding" rule is
left to the exact-analysis ``optimal`` strategy); Turn and River bets when the exact probability of
winning, given the cards seen, is greater than 1/2 (ties count as not winning). See
:mod:`gpusim.strategy.equity`; this counts every completion per round, so it is meant for
``gpusim play`` and tests, not for billions of rounds.

``always-play`` calls / bets every street (a reference point, not a good strategy).
"""

from __future__ import annotations

from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np

from gpusim.games.holdem.streets_tables import StreetsTables
from gpusim.games.holdem_bonus.events import TREE
from gpusim.strategy import PointRules
from gpusim.strategy.features import (
    ace_low,
    always,
    hole_in_run_bits,
    ranks_suits,
    runs,
    street,
)

__all__ = [
    "HoldemBonusTables",
    "thb_always_play",
    "thb_basic",
    "thb_preflop_play",
    "thb_win_over_half",
]

_U = jnp.uint32

# --- Texas Hold'em Bonus: flop sees the hole cards (2 columns), turn + the flop (5), river + the
# turn card (6) ----------------------------------------------------------------------------------


@jax.jit
def thb_preflop_play(seen: jax.Array) -> jax.Array:
    """Flop-bet decision from the hole cards ``seen[:, :2]``: fold 2-3 .. 2-7 offsuit, play the
    rest."""
    r, s = ranks_suits(seen[:, :2])
    hi, lo = jnp.max(r, axis=-1), jnp.min(r, axis=-1)
    fold = (lo == 0) & (hi >= 1) & (hi <= 5) & (s[:, 0] != s[:, 1])
    return ~fold


# The rule list of the module docstring on rank and suit bit masks, one function per street:
# the same decisions as features (a test compares them round by round) with elementwise
# integer work only, no (N, k) intermediates.


@jax.jit
def _thb_turn(seen: jax.Array) -> jax.Array:
    _, _, count, _, suit_count, e, hole_e = street(seen)
    return (
        (count[0] >= 2) | (count[1] >= 2)
        | (suit_count[0] >= 4) | (suit_count[1] >= 4)
        | hole_in_run_bits(runs(e, 4), hole_e, 4, 11)
    )  # fmt: skip


@jax.jit
def _thb_river(seen: jax.Array) -> jax.Array:
    r, bit, count, suited, suit_count, e, hole_e = street(seen)
    pair_mask = _U(0)
    for i in range(1, 6):
        for j in range(i):
            pair_mask = pair_mask | jnp.where(r[i] == r[j], bit[i], _U(0))
    hole_pair = (count[0] >= 2) | (count[1] >= 2)
    sf4 = jnp.zeros_like(hole_pair)
    for h in (0, 1):
        suit_mask = _U(0)
        for j in range(6):
            suit_mask = suit_mask | jnp.where(suited[h][j], bit[j], _U(0))
        sf4 = sf4 | hole_in_run_bits(runs(ace_low(suit_mask), 4), ace_low(bit[h]), 4, 11)
    return (
        ((count[0] >= 2) & (r[0] >= 4)) | ((count[1] >= 2) & (r[1] >= 4))  # sixes or better
        | ((jax.lax.population_count(pair_mask) >= 2) & hole_pair)  # two pair with a hole card
        | (count[0] >= 3) | (count[1] >= 3)
        | sf4
        | hole_in_run_bits(runs(e, 5), hole_e, 5, 10)
        | (suit_count[0] >= 5) | (suit_count[1] >= 5)
    )  # fmt: skip


thb_basic = PointRules(
    TREE,
    {"flop": thb_preflop_play, "turn": _thb_turn, "river": _thb_river},
)
"""Texas Hold'em Bonus basic strategy (module docstring)."""
thb_always_play = PointRules(TREE, {"flop": always, "turn": always, "river": always})


def _over_half(seen) -> np.ndarray:
    """(N,) bool: exact P(win) > 1/2 given the seen cards (hole, then the board so far), for
    the rounds whose hole cards bet the Flop (the rest are folded before this point)."""
    from gpusim.strategy.equity import showdown_counts

    c = np.asarray(seen, dtype=np.int32)
    flop = np.asarray(thb_preflop_play(jnp.asarray(c[:, :2])))
    # Count each distinct seen situation once (padded batches repeat rows).
    uniq, inverse = np.unique(c, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    played = np.zeros(len(uniq), bool)
    played[inverse[flop]] = True
    out = np.zeros(len(uniq), bool)
    for i in np.flatnonzero(played):
        win, _tie, _loss, total = showdown_counts(uniq[i, 0:2], uniq[i, 2:])
        out[i] = 2 * win > total
    return out[inverse]


thb_win_over_half = PointRules(
    TREE, {"flop": thb_preflop_play, "turn": _over_half, "river": _over_half}
)
"""The Swedish rules' rule text: Turn/River bets when exact P(win) > 1/2 (module docstring)."""


# --- the table strategy ---------------------------------------------------------------------------


@dataclass(frozen=True)
class HoldemBonusTables(StreetsTables):
    """Texas Hold'em Bonus: the street-bets shape's table strategy
    (:class:`gpusim.games.holdem.streets_tables.StreetsTables`) on the game's tree."""

    tree: tuple = TREE
