// Ultimate Texas Hold'em fused chunk kernel: deal, decide, evaluate, settle and histogram in
// one pass (see casino_holdem.cu for the scheme). No Jackpot, so every round is counted in the
// histogram of joint outcome codes (settle_ultimate_holdem.cuh).
//
// Compile-time constants: GPUSIM_STRATEGY (always-check, basic or the tables), GPUSIM_BLOCK as
// in casino_holdem.cu.
#include "settle_ultimate_holdem.cuh"

#ifndef GPUSIM_STRATEGY
#define GPUSIM_STRATEGY GPUSIM_STRAT_ALWAYS
#endif
#ifndef GPUSIM_BLOCK
#define GPUSIM_BLOCK 256
#endif

// n_rounds < 2^31 per launch (the host splits), so the grid-stride index fits 32 bits.
// hist: GPUSIM_UTH_MAX_BINS zeroed counters. Table pointers are read only for the table
// strategy (others may pass any valid pointer). The tables' order is the KernelSpec's
// (gpusim/games/holdem/play_once_kernel.py).
extern "C" __global__ void __launch_bounds__(GPUSIM_BLOCK)
    gpusim_ultimate_holdem_chunk(unsigned int k0, unsigned int k1,
                                 unsigned long long first_round, unsigned int n_rounds,
                                 unsigned int qualifier,
                                 const unsigned char* __restrict__ preflop,
                                 const unsigned char* __restrict__ flop,
                                 const unsigned char* __restrict__ river,
                                 const int* __restrict__ raw3_class,
                                 const signed char* __restrict__ raw3_perm,
                                 const int* __restrict__ raw5_class,
                                 const signed char* __restrict__ raw5_perm,
                                 const signed char* __restrict__ new_suit,
                                 unsigned long long* __restrict__ hist) {
  __shared__ unsigned int bins[GPUSIM_UTH_MAX_BINS];
  for (int b = threadIdx.x; b < GPUSIM_UTH_MAX_BINS; b += GPUSIM_BLOCK) bins[b] = 0u;
  __syncthreads();

  GpusimUthTables t;
  t.preflop = preflop;
  t.flop = flop;
  t.river = river;
  t.raw3_class = raw3_class;
  t.raw3_perm = raw3_perm;
  t.raw5_class = raw5_class;
  t.raw5_perm = raw5_perm;
  t.new_suit = new_suit;
  const unsigned int stride = gridDim.x * GPUSIM_BLOCK;
  for (unsigned int i = blockIdx.x * GPUSIM_BLOCK + threadIdx.x; i < n_rounds; i += stride) {
    const int code =
        gpusim_uth_play_round(k0, k1, first_round + i, GPUSIM_STRATEGY, qualifier, t);
    atomicAdd(&bins[code], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < GPUSIM_UTH_MAX_BINS; b += GPUSIM_BLOCK) {
    if (bins[b] != 0u) atomicAdd(&hist[b], (unsigned long long)bins[b]);
  }
}
