// Casino Hold'em exact count: one block per flop class, its 1,176 turn-river boards in turn
// (see exact_casino_holdem.cuh for what is counted). 1,755 blocks cover the game; a launch may
// take any slice of the classes (row r of counts = flops row r).
//
// The per-hole counters (1326 x 22 x 4 bytes) do not fit shared memory, so each block updates
// its own row of counts in global memory (L2-resident); only that block touches the row, and
// the barrier between boards orders the updates.
//
// Compile-time constant: GPUSIM_BLOCK (threads per block, default 256).
#include "exact_casino_holdem.cuh"

#ifndef GPUSIM_BLOCK
#define GPUSIM_BLOCK 256
#endif

// flops: (n, 3) canonical flops; counts: (n, 1326, 22) uint32, zeroed by the caller.
extern "C" __global__ void __launch_bounds__(GPUSIM_BLOCK)
    gpusim_exact_ch_flop(const int* __restrict__ flops, int n, unsigned int qualifier,
                         unsigned int* counts) {
  __shared__ GpusimExactBoard s;
  const int tid = threadIdx.x;
  gpusim_ex_init_pairs(&s, tid, GPUSIM_BLOCK);
  for (int row = blockIdx.x; row < n; row += gridDim.x) {
    const int32_t* f = flops + 3 * row;
    const uint64_t seen = (1ull << f[0]) | (1ull << f[1]) | (1ull << f[2]);
    uint32_t* c = counts + (long long)row * GPUSIM_EX_HOLES * GPUSIM_CH_EVENTS;
    for (int turn = 0; turn < 52; ++turn) {
      if ((seen >> turn) & 1ull) continue;
      for (int river = turn + 1; river < 52; ++river) {
        if ((seen >> river) & 1ull) continue;
        __syncthreads();  // the previous board's counts are done with s and with c
        if (tid == 0) gpusim_ch_flop_board(&s, f, turn, river);
        __syncthreads();
        gpusim_ex_rank_hands(&s, qualifier, tid, GPUSIM_BLOCK);
        __syncthreads();
        gpusim_ch_flop_count(&s, c, qualifier, tid, GPUSIM_BLOCK);
      }
    }
  }
}
