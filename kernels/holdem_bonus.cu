// Texas Hold'em Bonus fused chunk kernel: deal, decide, evaluate, settle and histogram in one
// pass (see casino_holdem.cu for the scheme).
//
// A round whose Jackpot hits the royal flush is not counted: its net depends on the meter,
// which the host advances in round order. Its (round offset << 16 | joint code) goes to
// royal_buf instead, at slot atomicAdd(royal_count, 1) when below royal_cap; the host reruns
// the chunk with a larger buffer when *royal_count exceeds royal_cap (rare: about 1.5e-6
// hits per round with hole cards + flop).
//
// Compile-time constants: GPUSIM_STRATEGY, GPUSIM_BLOCK as in casino_holdem.cu.
#include "settle_holdem_bonus.cuh"

#ifndef GPUSIM_STRATEGY
#define GPUSIM_STRATEGY GPUSIM_STRAT_ALWAYS
#endif
#ifndef GPUSIM_BLOCK
#define GPUSIM_BLOCK 256
#endif

// n_rounds < 2^31 per launch. hist: GPUSIM_THB_MAX_BINS zeroed counters (43,680 bytes of
// shared memory per block). flags: bit 0 Bonus offered, bit 1 Jackpot offered, bit 2 the
// Jackpot hand is all seven cards.
extern "C" __global__ void __launch_bounds__(GPUSIM_BLOCK)
    gpusim_holdem_bonus_chunk(unsigned int k0, unsigned int k1, unsigned long long first_round,
                              unsigned int n_rounds, int flags,
                              const unsigned char* __restrict__ preflop,
                              const int* __restrict__ grid,
                              const unsigned char* __restrict__ turn_table,
                              const unsigned char* __restrict__ river_table,
                              const int* __restrict__ raw3_class,
                              const signed char* __restrict__ raw3_perm,
                              const int* __restrict__ raw4_class,
                              const signed char* __restrict__ raw4_perm,
                              const signed char* __restrict__ new_suit,
                              unsigned long long* __restrict__ hist,
                              unsigned long long* __restrict__ royal_buf,
                              unsigned int* __restrict__ royal_count, unsigned int royal_cap) {
  __shared__ unsigned int bins[GPUSIM_THB_MAX_BINS];
  for (int b = threadIdx.x; b < GPUSIM_THB_MAX_BINS; b += GPUSIM_BLOCK) bins[b] = 0u;
  __syncthreads();

  GpusimTables t = {};
  t.preflop = preflop;
  t.grid = grid;
  t.turn = turn_table;
  t.river = river_table;
  t.raw3_class = raw3_class;
  t.raw3_perm = raw3_perm;
  t.raw4_class = raw4_class;
  t.raw4_perm = raw4_perm;
  t.new_suit = new_suit;
  const bool has_bonus = (flags & 1) != 0;
  const bool has_jackpot = (flags & 2) != 0;
  const bool all_seven = (flags & 4) != 0;
  const unsigned int stride = gridDim.x * GPUSIM_BLOCK;
  for (unsigned int i = blockIdx.x * GPUSIM_BLOCK + threadIdx.x; i < n_rounds; i += stride) {
    bool royal;
    const int code = gpusim_thb_play_round(k0, k1, first_round + i, GPUSIM_STRATEGY, has_bonus,
                                           has_jackpot, all_seven, t, &royal);
    if (royal) {
      const unsigned int slot = atomicAdd(royal_count, 1u);
      if (slot < royal_cap) royal_buf[slot] = ((unsigned long long)i << 16) | (unsigned)code;
    } else {
      atomicAdd(&bins[code], 1u);
    }
  }
  __syncthreads();
  for (int b = threadIdx.x; b < GPUSIM_THB_MAX_BINS; b += GPUSIM_BLOCK) {
    if (bins[b] != 0u) atomicAdd(&hist[b], (unsigned long long)bins[b]);
  }
}
