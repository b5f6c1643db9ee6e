"""High Card Duel's rule strategies: each decides from the player's own card alone."""

from __future__ import annotations

import jax.numpy as jnp

from gpusim.strategy import PointRules
from high_card_duel.events import TREE

__all__ = ["always_raise", "basic"]


def _basic(seen):
    """Fold below an eight, raise 1x with eight to jack, 2x with a queen or better."""
    rank = seen[:, 0] >> 2
    return jnp.where(rank >= 10, 2, jnp.where(rank >= 6, 1, 0))


def _always_2x(seen):
    return jnp.full(seen.shape[:1], 2, jnp.int32)


basic = PointRules(TREE, {"act": _basic})
always_raise = PointRules(TREE, {"act": _always_2x})
