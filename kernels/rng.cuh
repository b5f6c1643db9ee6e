// Threefry-2x32 (Random123), the CUDA twin of gpusim/rng.py.
//
// Maps a 64-bit key (k0, k1) and a 64-bit counter (c0, c1) to two uint32 words. The
// simulator uses 20 rounds; gpusim_threefry2x32_rounds takes 1..32 only so that the
// host test can also check the 13- and 32-round known-answer vectors.
//
// Plain C++: every function is __host__ __device__ under nvcc and plain inline under a
// host compiler, so the test suite compiles this header with g++ and checks it bit for
// bit against the JAX and numpy implementations. Keep the three in step.
#ifndef GPUSIM_RNG_CUH
#define GPUSIM_RNG_CUH

#include <stdint.h>

#ifndef GPUSIM_HD
#if defined(__CUDACC__)
#define GPUSIM_HD __host__ __device__ __forceinline__
#else
#define GPUSIM_HD inline
#endif
#endif

// Loop-unrolling hint for nvcc; host compilers unroll on their own judgement.
#ifndef GPUSIM_UNROLL
#if defined(__CUDACC__)
#define GPUSIM_UNROLL _Pragma("unroll")
#else
#define GPUSIM_UNROLL
#endif
#endif

// Key-schedule parity constant of Skein/Threefish for 32-bit words.
#define GPUSIM_SKEIN_PARITY32 0x1BD11BDAu

GPUSIM_HD uint32_t gpusim_rotl32(uint32_t x, int r) {
  return (x << r) | (x >> (32 - r));
}

// Rotation constants R_32x2 of Threefry-2x32, used in turn (round r uses entry r mod 8).
GPUSIM_HD int gpusim_threefry2x32_rotation(int r) {
  switch (r & 7) {
    case 0: return 13;
    case 1: return 15;
    case 2: return 26;
    case 3: return 6;
    case 4: return 17;
    case 5: return 29;
    case 6: return 16;
    default: return 24;
  }
}

// out = Threefry-2x32-<rounds>(key, counter). With a constant `rounds` the loop unrolls
// and every rotation and schedule index folds to a constant.
GPUSIM_HD void gpusim_threefry2x32_rounds(int rounds, uint32_t k0, uint32_t k1, uint32_t c0,
                                          uint32_t c1, uint32_t* out0, uint32_t* out1) {
  const uint32_t ks[3] = {k0, k1, k0 ^ k1 ^ GPUSIM_SKEIN_PARITY32};
  uint32_t x0 = c0 + ks[0];
  uint32_t x1 = c1 + ks[1];
GPUSIM_UNROLL
  for (int r = 0; r < 32; ++r) {
    if (r >= rounds) break;
    x0 += x1;
    x1 = gpusim_rotl32(x1, gpusim_threefry2x32_rotation(r));
    x1 ^= x0;
    if ((r & 3) == 3) {
      // Key injection s after every 4th round.
      const uint32_t s = (uint32_t)(r >> 2) + 1u;
      x0 += ks[s % 3u];
      x1 += ks[(s + 1u) % 3u] + s;
    }
  }
  *out0 = x0;
  *out1 = x1;
}

GPUSIM_HD void gpusim_threefry2x32(uint32_t k0, uint32_t k1, uint32_t c0, uint32_t c1,
                                   uint32_t* out0, uint32_t* out1) {
  gpusim_threefry2x32_rounds(20, k0, k1, c0, c1, out0, out1);
}

#endif  // GPUSIM_RNG_CUH
