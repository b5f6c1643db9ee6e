"""Ultimate Texas Hold'em's CUDA kernel (``kernels/ultimate_holdem.cu``), as the spec names it:
:data:`KERNEL` (the spec's ``kernel=``) and :func:`kernel_head`, the kernel's game arguments.

The kernel deals, decides, settles and counts each round's joint outcome code (300 codes,
:mod:`gpusim.games.ultimate_holdem.events`); every pay, stake and the Trips flag are the host's
(``joint_decode``), so the only rule it takes is the dealer's qualifying rank. It plays
always-check and basic itself (``kernels/strategy_ultimate_holdem.cuh``) and the optimal
strategy from its tables (``TableStrategy.kernel_tables()``, in the order of ``tables``).
"""

from __future__ import annotations

import numpy as np

from gpusim.games.spec import KernelSpec

__all__ = ["KERNEL", "kernel_head"]

_RULES = "gpusim.games.ultimate_holdem.strategies"


def kernel_head(rules) -> tuple:
    """The kernel's game arguments: the evaluator rank of the weakest qualifying dealer hand."""
    from gpusim.games.ultimate_holdem.settlement import qualifier_threshold

    return (np.uint32(qualifier_threshold(rules.dealer_qualifier)),)


KERNEL = KernelSpec(
    source="ultimate_holdem",
    head="gpusim.games.ultimate_holdem.kernel:kernel_head",
    tables=("preflop", "flop", "river", "raw3_class", "raw3_perm", "raw5_class", "raw5_perm",
            "new_suit"),
    royal_buffer=False,
    # ptxas (sm_90, 256 threads): 48 registers for the rule lists, 39 for the tables
    fallback_blocks_per_sm=5,
    rule_strategies={f"{_RULES}:uth_always_check": 0, f"{_RULES}:uth_basic": 1},
)
