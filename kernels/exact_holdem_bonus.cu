// Texas Hold'em Bonus exact count, river level: one block per 4-card board class, its 48
// rivers in turn (see exact_holdem_bonus.cuh for what is counted). 16,432 blocks cover the
// game; a launch may take any slice of the classes (row r of the outputs = boards4 row r).
//
// Shared memory: 37.5 KB per block (the board's ranks and the class's counters), so several
// blocks share an SM; the 1,081 x 1,081 comparisons per board dominate the time.
//
// Compile-time constant: GPUSIM_BLOCK (threads per block, default 256).
#include "exact_holdem_bonus.cuh"

#ifndef GPUSIM_BLOCK
#define GPUSIM_BLOCK 256
#endif

// boards4: (n, 4) canonical 4-card boards; weights: (n,) raw boards per class; hole_class:
// (1326,). Outputs: W, L, WX (n, 1326) uint16 (fully written); class totals added to (the
// caller zeroes them once per solve).
extern "C" __global__ void __launch_bounds__(GPUSIM_BLOCK)
    gpusim_exact_thb_river(const int* __restrict__ boards4, const long long* __restrict__ weights,
                           int n, int ante_from, const short* __restrict__ hole_class,
                           unsigned short* __restrict__ W, unsigned short* __restrict__ L,
                           unsigned short* __restrict__ WX, unsigned long long* class_wins,
                           unsigned long long* class_hands, unsigned long long* class_ties,
                           unsigned long long* class_losses) {
  __shared__ GpusimExactBoard s;
  __shared__ GpusimThbRiverAcc acc;
  const int tid = threadIdx.x;
  gpusim_ex_init_pairs(&s, tid, GPUSIM_BLOCK);
  const GpusimThbRiverOut out = {W, L, WX, class_wins, class_hands, class_ties, class_losses};
  for (int row = blockIdx.x; row < n; row += gridDim.x) {
    const int32_t* b4 = boards4 + 4 * row;
    gpusim_thb_river_zero(&acc, tid, GPUSIM_BLOCK);
    const uint64_t seen = (1ull << b4[0]) | (1ull << b4[1]) | (1ull << b4[2]) | (1ull << b4[3]);
    for (int river = 0; river < 52; ++river) {
      if ((seen >> river) & 1ull) continue;
      __syncthreads();  // the previous board's counts are done with s
      if (tid == 0) gpusim_thb_river_board(&s, b4, river);
      __syncthreads();
      gpusim_ex_rank_hands(&s, 0u, tid, GPUSIM_BLOCK);
      __syncthreads();
      gpusim_thb_river_count(&s, &acc, hole_class, ante_from, tid, GPUSIM_BLOCK);
    }
    __syncthreads();
    gpusim_thb_river_flush(&acc, weights[row], row, out, tid, GPUSIM_BLOCK);
    __syncthreads();  // acc is zeroed for the next row only after every thread flushed
  }
}
