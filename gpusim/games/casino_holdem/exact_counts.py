"""The shape of Casino Hold'em's exact outcome counts: the call-once hold'em shape's
(:mod:`gpusim.games.holdem.call_once_counts`)."""

from __future__ import annotations

from gpusim.games.holdem.call_once_counts import (
    CH_OUTCOMES,
    EVENT_COUNTS,
    N_PAY_CLASSES,
    ChCounts,
)

__all__ = ["CH_OUTCOMES", "EVENT_COUNTS", "N_PAY_CLASSES", "ChCounts"]
