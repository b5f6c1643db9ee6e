"""Ultimate Texas Hold'em's CUDA kernel (``kernels/ultimate_holdem.cu``): :data:`KERNEL`, the
spec's ``kernel=``.

The kernel deals, decides, settles and counts each round's joint outcome code (300 codes,
:mod:`gpusim.games.ultimate_holdem.events`); every pay, stake and the Trips flag stay on the
host (``joint_decode``), so its only game argument is the dealer's qualifying rank
(``settlement.kernel_head``). It plays always-check and basic itself
(``kernels/strategy_ultimate_holdem.cuh``) and the optimal strategy from its tables
(``TableStrategy.kernel_tables()``, passed in the order of ``tables``).
"""

from __future__ import annotations

from gpusim.games.spec import KernelSpec

__all__ = ["KERNEL"]

_RULES = "gpusim.games.ultimate_holdem.strategies"

KERNEL = KernelSpec(
    source="ultimate_holdem",
    head="gpusim.games.ultimate_holdem.settlement:kernel_head",
    tables=("preflop", "flop", "river", "raw3_class", "raw3_perm", "raw5_class", "raw5_perm",
            "new_suit"),
    royal_buffer=False,
    # ptxas (sm_90, 256 threads): 57 registers for the rule lists (4 blocks of 256 per SM), 39
    # for the tables (6)
    fallback_blocks_per_sm=4,
    rule_strategies={f"{_RULES}:uth_always_check": 0, f"{_RULES}:uth_basic": 1},
)
