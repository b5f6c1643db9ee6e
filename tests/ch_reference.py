"""Casino Hold'em written by hand, the reference its description is checked against: the rule
strategies ``basic``, ``side-bet-optimal`` and ``always-play`` in JAX (against the description's
rules, configs/casino_holdem.toml ``[game.strategies]``, and the CUDA kernel's rule lists,
kernels/strategy_casino_holdem.cuh; they were the hand-written game's strategies until the game
became a description).

Each is a :class:`~gpusim.strategy.PointRules` on the one decision point ``call``, handed only
the hole cards and the flop. "With a hole card" means the hole card is one of the cards that
make the feature (its rank is in the pair or the run, its suit is the flush suit); the features
are :mod:`gpusim.strategy.features`.

``basic`` (call or fold, seeing hole cards + flop). Call with any of:

1. a pair or better made with a hole card (a pocket pair, or a hole card paired on the flop);
2. four or more cards to a flush, with a hole card;
3. four consecutive ranks with a hole card (A-2-3-4 and J-Q-K-A count), or a made straight;
4. a ten or higher in the hole;
5. otherwise fold (both hole cards 9 or lower, no pair with them, no four-card draw).

``side-bet-optimal`` (the Norwegian rules): call on every AA Bonus win (a pair of aces or better
in hole cards + flop), else play ``basic``. ``always-play`` calls every hand.

:func:`ch_terms` reads a config's terms from its TOML alone (the game's own parser is what the
references check).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from types import SimpleNamespace

import jax
import jax.numpy as jnp

from gpusim.cards import RANKS
from gpusim.strategy import PointRules
from gpusim.strategy.features import always, features
from gpusim.strategy.tree import Action, DecisionPoint

__all__ = ["TREE", "ch_always_play", "ch_basic", "ch_side_bet_optimal", "ch_terms"]

TREE = (
    DecisionPoint(
        "call",
        actions=(Action("fold", folds=True), Action("call", {"call": 2})),
        sees=(0, 1, 4, 5, 6),  # hole cards and the flop
    ),
)
"""The decision tree: call (index 1) or fold (index 0), seeing the hole cards and the flop."""


@jax.jit
def _basic(seen: jax.Array) -> jax.Array:
    f = features(seen)
    # Rank 8 is the ten.
    return f["hole_pair"] | f["flush4"] | f["run4"] | f["straight"] | (f["hole_high"] >= 8)


@jax.jit
def _aa_bonus_win(seen: jax.Array) -> jax.Array:
    """Pair of aces or better in hole cards + flop (every AA Bonus line of the Norwegian rules
    and guide)."""
    from gpusim.evaluator import PAIR, evaluate, hand_category

    seen = seen.astype(jnp.int32)
    cat = hand_category(evaluate(seen))
    aces = jnp.sum((seen >> 2) == 12, axis=-1)
    return (cat > PAIR) | ((cat == PAIR) & (aces >= 2))


def _side_bet_optimal(seen) -> jax.Array:
    return _aa_bonus_win(seen) | _basic(seen)


ch_basic = PointRules(TREE, {"call": _basic}, gather=True)
"""Casino Hold'em basic strategy (module docstring)."""
ch_side_bet_optimal = PointRules(TREE, {"call": _side_bet_optimal}, gather=True)
"""Call on every AA Bonus win, else basic."""
ch_always_play = PointRules(TREE, {"call": always}, gather=True)


class _Stakes(dict):
    @property
    def ante(self) -> int:
        return self["ante"]


def ch_terms(rules) -> SimpleNamespace:
    """What a Casino Hold'em reference reads of the rules, straight from the config's TOML
    (its own file, or the file of the game it names for what it leaves out): stakes, the Ante
    and AA Bonus paytables, ``fold_forfeits_bonus`` and the dealer's qualifier (hand, rank
    index)."""
    doc = tomllib.loads(Path(rules.source).read_text(encoding="utf-8"))
    rules_ = doc.get("rules", {})
    q = rules_.get("dealer_qualifier", {"hand": "pair", "rank": "4"})
    aa = doc["stakes"].get("aa_bonus", 0)
    return SimpleNamespace(
        stakes=_Stakes({"ante": doc["stakes"]["ante"], "aa_bonus": aa}),
        ante_paytable=dict(doc["paytables"]["ante"]),
        aa_bonus_paytable=dict(doc["paytables"]["aa_bonus"]) if aa else None,
        fold_forfeits_bonus=rules_.get("fold_forfeits_bonus", True),
        dealer_qualifier=SimpleNamespace(hand=q["hand"], rank=RANKS.index(q["rank"])),
    )
