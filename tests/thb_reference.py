"""Texas Hold'em Bonus written by hand, the reference its description is checked against: the
rule strategies ``basic``, ``always-play`` and the Swedish rules' text ``win-over-half`` (counted
round by round) in JAX, against the description's rules and tables (configs/holdem_bonus.toml
``[game.strategies]``) and the CUDA kernel's rule lists (kernels/strategy_holdem_bonus.cuh);
they were the hand-written game's strategies until the game became a description.

Each is a :class:`~gpusim.strategy.PointRules`: one function per decision point, handed only the
card columns its point sees. "With a hole card" below means the hole card is one of the cards
that make the feature (its rank is in the pair or the run, its suit is the flush suit); the
features are :mod:`gpusim.strategy.features`.

``basic``:

- Flop bet (seeing the hole cards): bet everything except 2-3 to 2-7 offsuit.
- Turn bet (seeing hole cards + flop): bet with a pair or better made with a hole card, four
  to a flush with a hole card, or four consecutive ranks (or a straight) with a hole card.
- River bet (seeing hole cards + flop + turn): bet with a pair of sixes or better made with a
  hole card, two pair or better made with a hole card, trips or better of a hole card's rank,
  four to a straight flush with a hole card, or a straight or flush with a hole card.

``win-over-half`` (the Swedish rules' rule text, taken literally): the Flop bet as ``basic``; Turn
and River bets when the exact probability of winning, given the cards seen, is greater than 1/2
(ties count as not winning; :mod:`gpusim.strategy.equity` counts every completion per round, so
it is for tests, not for billions of rounds).

:func:`thb_terms` reads a config's terms from its TOML alone (the game's own parser is what the
references check); :data:`BONUS_LINE_CLASSES` names the starting hands each Bonus line pays.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from types import SimpleNamespace

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from gpusim.cards import CATEGORY_KEYS
from gpusim.strategy import PointRules
from gpusim.strategy.features import (
    ace_low,
    always,
    hole_in_run_bits,
    ranks_suits,
    runs,
    street,
)
from gpusim.strategy.tree import Action, DecisionPoint

__all__ = ["ALL_SEVEN_GAME", "BONUS_LINE_CLASSES", "TREE", "forget_all_seven", "thb_all_seven",
           "thb_always_play", "thb_basic", "thb_preflop_play", "thb_terms", "thb_win_over_half"]

TREE = (
    DecisionPoint(
        "flop",
        actions=(Action("fold", folds=True), Action("bet", {"flop": 2}, "turn")),
        sees=(0, 1),  # the hole cards
    ),
    DecisionPoint(
        "turn",
        actions=(Action("check", next="river"), Action("bet", {"turn": 1}, "river")),
        sees=(0, 1, 4, 5, 6),  # + the flop
    ),
    DecisionPoint(
        "river",
        actions=(Action("check"), Action("bet", {"river": 1})),
        sees=(0, 1, 4, 5, 6, 7),  # + the turn card
    ),
)
"""The decision tree: the Flop bet (1) or a fold (0) on the hole cards; after a Flop bet, the
Turn bet or a check, then the River bet or a check."""

BONUS_LINE_CLASSES: dict[str, tuple[str, ...]] = {
    "AA": ("AA",),
    "AKs": ("AKs",),
    "AQs_AJs": ("AQs", "AJs"),
    "AKo": ("AKo",),
    "KK_QQ_JJ": ("KK", "QQ", "JJ"),
    "AQo_AJo": ("AQo", "AJo"),
    "TT_to_22": ("TT", "99", "88", "77", "66", "55", "44", "33", "22"),
}
"""Starting-hand classes each Bonus line pays (``AA_vs_dealer_AA`` is AA plus a dealer AA)."""

_U = jnp.uint32


@jax.jit
def thb_preflop_play(seen: jax.Array) -> jax.Array:
    """Flop-bet decision from the hole cards ``seen[:, :2]``: fold 2-3 .. 2-7 offsuit, play the
    rest."""
    r, s = ranks_suits(seen[:, :2])
    hi, lo = jnp.max(r, axis=-1), jnp.min(r, axis=-1)
    fold = (lo == 0) & (hi >= 1) & (hi <= 5) & (s[:, 0] != s[:, 1])
    return ~fold


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


thb_basic = PointRules(TREE, {"flop": thb_preflop_play, "turn": _thb_turn, "river": _thb_river})
"""Texas Hold'em Bonus basic strategy (module docstring)."""
thb_always_play = PointRules(TREE, {"flop": always, "turn": always, "river": always})


def _over_half(seen) -> np.ndarray:
    """(N,) bool: exact P(win) > 1/2 given the seen cards (hole, then the board so far), for
    the rounds whose hole cards bet the Flop (the rest are folded before this point)."""
    from gpusim.strategy.equity import showdown_counts

    c = np.asarray(seen, dtype=np.int32)
    flop = np.asarray(thb_preflop_play(jnp.asarray(c[:, :2])))
    # each distinct seen situation counted once (padded batches repeat rows)
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


class _Stakes(dict):
    @property
    def ante(self) -> int:
        return self["ante"]


def thb_terms(rules) -> SimpleNamespace:
    """What a Texas Hold'em Bonus reference reads of the rules, straight from the config's TOML:
    stakes, ``ante_pays_from`` (the lowest category the Ante pays 1:1 on; every line the config
    writes pays 1 or 0), the Bonus paytable and the Jackpot's (``cards``, ``prizes``) when
    offered."""
    doc = tomllib.loads(Path(rules.source).read_text(encoding="utf-8"))
    stakes = _Stakes({"ante": doc["stakes"]["ante"], "bonus": doc["stakes"].get("bonus", 0),
                      "jackpot": doc["stakes"].get("jackpot", 0)})
    ante = doc["paytables"]["ante"]
    assert set(ante.values()) <= {0, 1}, ante  # the reference pays the Ante 1:1 or pushes
    paid = [c for c in CATEGORY_KEYS if ante.get(c, 0)]
    return SimpleNamespace(
        stakes=stakes,
        ante_pays_from=paid[0],
        bonus_paytable=dict(doc["paytables"]["bonus"]) if stakes["bonus"] else None,
        jackpot=SimpleNamespace(cards="hole_and_flop", prizes=dict(doc["paytables"]["jackpot"]))
        if stakes["jackpot"] else None,
    )


ALL_SEVEN_GAME = "holdem_bonus_jackpot_all_seven"


def thb_all_seven():
    """Texas Hold'em Bonus with the Jackpot hand of the player's seven cards (the shipped one:
    the hole cards and the flop): the Jackpot paytable reads the player's hand, a game of its
    own name (the registry keeps ``holdem_bonus`` for the shipped description). A test module
    that makes it takes :func:`forget_all_seven` as its fixture."""
    from _variants import variant

    return variant("holdem_bonus", {"name": ALL_SEVEN_GAME, "game.name": ALL_SEVEN_GAME,
                                    "game.paytables.jackpot.hand": "player"})


@pytest.fixture(scope="module", autouse=True)
def forget_all_seven():
    """A module fixture (``_forget_all_seven = thb_reference.forget_all_seven``): the game of
    :func:`thb_all_seven` is registered in the process when made; the registry lists the shipped
    games only once the module is done (a test listing the games may run next)."""
    yield
    from gpusim.games import SPECS

    SPECS._all().pop(ALL_SEVEN_GAME, None)  # type: ignore[attr-defined]
