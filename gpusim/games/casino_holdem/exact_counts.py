"""The shape of Casino Hold'em's exact outcome counts, shared by the CPU solver
(:mod:`gpusim.games.casino_holdem.exact`) and the CUDA binding
(:mod:`gpusim.games.casino_holdem.exact_cupy`), so that neither imports the other."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["CH_OUTCOMES", "EVENT_COUNTS", "N_PAY_CLASSES", "ChCounts"]

N_PAY_CLASSES = 10
"""Pay classes: category 0..8 (high card .. straight flush), 9 = royal flush."""
EVENT_COUNTS = 2 * N_PAY_CLASSES + 2
CH_OUTCOMES = 1081 * 990
"""Outcomes per (hole, flop): C(47, 2) turn-river pairs x C(45, 2) dealer hands."""

@dataclass(frozen=True)
class ChCounts:
    """Counts for every canonical flop and every hole.

    flops: (1755, 3) int32 canonical flop of each class; weights: (1755,) raw flops per class.
    counts: (1755, 1326, 22) int32 outcome counts (zero rows where the hole meets the flop).
    valid: (1755, 1326) bool, the hole avoids the flop.
    bonus_rank: (1755, 1326) uint32 rank of the 5-card hand hole + flop (0 if invalid).
    qualifier: the qualifying 7-card rank used.
    """

    flops: np.ndarray
    weights: np.ndarray
    counts: np.ndarray
    valid: np.ndarray
    bonus_rank: np.ndarray
    qualifier: int
