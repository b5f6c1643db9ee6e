// Pieces shared by the per-game settlement headers (settle_casino_holdem.cuh,
// settle_holdem_bonus.cuh). Plain C++: host-compiled by the test suite.
//
// A round is reduced to one "joint outcome code": the events of all its bets in mixed radix.
// A chunk is then a histogram over these codes (plus a short list of Jackpot royal rounds,
// whose net depends on the meter), and the host derives every per-bet net distribution, the
// events, wagers, decisions and cross moments exactly from it
// (gpusim/compute/backends/cupy_rounds.py),
// so the kernels accumulate one counter per round and never a money amount.
#ifndef GPUSIM_SETTLE_COMMON_CUH
#define GPUSIM_SETTLE_COMMON_CUH

#include "deal.cuh"
#include "evaluate.cuh"

// Hand category 0..9 of an evaluator rank: 0..8 as the evaluator, 9 for a royal flush.
GPUSIM_HD int gpusim_category10(uint32_t rank) {
  return gpusim_is_royal(rank) ? 9 : gpusim_hand_category(rank);
}

// stake * (returns[event] - 1): a bet's net from its return per unit staked (0 = lost).
GPUSIM_HD int32_t gpusim_net(int32_t stake, const int32_t* returns, int event) {
  return stake * (returns[event] - 1);
}

#endif  // GPUSIM_SETTLE_COMMON_CUH
