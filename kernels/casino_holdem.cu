// Casino Hold'em fused chunk kernel: deal, decide, evaluate, settle and histogram in one pass.
//
// Each thread plays rounds first_round + i (grid-stride over i < n_rounds), reduces each to its
// joint outcome code (settle_casino_holdem.cuh) and counts it in a per-block shared-memory
// histogram; each block adds its non-zero bins to the global 64-bit histogram once at the end.
// The host (gpusim/compute/backends/cupy_rounds.py) turns the histogram into exact ChunkCounts.
//
// Compile-time constants (#defines injected by the host):
//   GPUSIM_STRATEGY  strategy code (strategy_common.cuh), folds the decision to one branch.
//   GPUSIM_BLOCK     threads per block (the launch must use exactly this many).
#include "settle_casino_holdem.cuh"

#ifndef GPUSIM_STRATEGY
#define GPUSIM_STRATEGY GPUSIM_STRAT_ALWAYS
#endif
#ifndef GPUSIM_BLOCK
#define GPUSIM_BLOCK 256
#endif

// n_rounds < 2^31 per launch (the host splits), so the grid-stride index fits 32 bits.
// hist: GPUSIM_CH_MAX_BINS zeroed counters. Table pointers are read only for the table
// strategy (others may pass any valid pointer).
extern "C" __global__ void __launch_bounds__(GPUSIM_BLOCK)
    gpusim_casino_holdem_chunk(unsigned int k0, unsigned int k1, unsigned long long first_round,
                               unsigned int n_rounds, unsigned int qualifier, int has_aa,
                               const unsigned char* __restrict__ call_table,
                               const int* __restrict__ raw3_class,
                               const signed char* __restrict__ raw3_perm,
                               const signed char* __restrict__ new_suit,
                               unsigned long long* __restrict__ hist) {
  __shared__ unsigned int bins[GPUSIM_CH_MAX_BINS];
  for (int b = threadIdx.x; b < GPUSIM_CH_MAX_BINS; b += GPUSIM_BLOCK) bins[b] = 0u;
  __syncthreads();

  GpusimTables t = {};
  t.call = call_table;
  t.raw3_class = raw3_class;
  t.raw3_perm = raw3_perm;
  t.new_suit = new_suit;
  const unsigned int stride = gridDim.x * GPUSIM_BLOCK;
  for (unsigned int i = blockIdx.x * GPUSIM_BLOCK + threadIdx.x; i < n_rounds; i += stride) {
    const int code = gpusim_ch_play_round(k0, k1, first_round + i, GPUSIM_STRATEGY, qualifier,
                                          has_aa != 0, t);
    atomicAdd(&bins[code], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < GPUSIM_CH_MAX_BINS; b += GPUSIM_BLOCK) {
    if (bins[b] != 0u) atomicAdd(&hist[b], (unsigned long long)bins[b]);
  }
}
