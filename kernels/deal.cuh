// (seed, round index) -> the round's cards: the CUDA twin of gpusim/dealing.py.
//
// Exactly unbiased partial Fisher-Yates. Draw i picks j_i uniform in 0 .. 51-i, swaps
// deck positions i and i+j_i and deals position i. The j_i of consecutive draws come in
// blocks whose range product P stays <= 2^52, one 64-bit Threefry word x = y0 << 32 | y1
// per block: multiplying x by the ranges in turn yields the digits (x*n = j*2^64 + x'),
// and a word whose final remainder is below 2^64 mod P is rejected and redrawn (Lemire),
// which makes every ordered deal exactly equally likely. See gpusim/dealing.py for the
// argument and the counter layout:
//   key = (seed mod 2^32, seed >> 32), ctr0 = round mod 2^32,
//   ctr1 = (round >> 32) | block << 16 | attempt << 19,   round < 2^48.
//
// Plain C++, compiled by the test suite with g++ and checked bit for bit against the JAX
// dealer. The kernels call gpusim_deal_n<9>, whose block constants are folded at compile
// time, so that the loops unroll and the small arrays stay in registers.
#ifndef GPUSIM_DEAL_CUH
#define GPUSIM_DEAL_CUH

#include "rng.cuh"

#define GPUSIM_DEAL_MAX_ATTEMPTS 8192u
#define GPUSIM_DEAL_BLOCK_LIMIT (1ull << 52)
#define GPUSIM_DEAL_MAX_ROUND (1ull << 48)

// One past the last draw of the block that starts at draw `first`. constexpr so that
// gpusim_deal_n folds it (and the block's product and threshold) at compile time.
GPUSIM_HD constexpr int gpusim_deal_block_end(int first, int n_cards) {
  uint64_t product = 1;
  int end = first;
  while (end < n_cards && product * (uint64_t)(52 - end) <= GPUSIM_DEAL_BLOCK_LIMIT) {
    product *= (uint64_t)(52 - end);
    ++end;
  }
  return end;
}

// Product of the ranges 52-first .. 52-(end-1) of one block's draws (<= 2^52).
GPUSIM_HD constexpr uint64_t gpusim_deal_block_product(int first, int end) {
  uint64_t product = 1;
  for (int m = first; m < end; ++m) product *= (uint64_t)(52 - m);
  return product;
}

// 2^64 mod product: a word whose final remainder is below it is rejected (Lemire).
GPUSIM_HD constexpr uint64_t gpusim_deal_threshold(uint64_t product) {
  return (0ull - product) % product;
}

// The accepted word of block `block` of a round: the first attempt whose remainder
// x * product mod 2^64 (what the digit chain will leave) is at least `threshold`. The
// attempt cap bounds the loop; reaching it has probability below 2^-98000.
GPUSIM_HD uint64_t gpusim_deal_block_word(uint32_t k0, uint32_t k1, uint32_t lo, uint32_t hi,
                                          uint32_t block, uint64_t product,
                                          uint64_t threshold) {
  uint64_t x = 0;
  for (uint32_t attempt = 0;; ++attempt) {
    uint32_t y0, y1;
    gpusim_threefry2x32(k0, k1, lo, hi | (block << 16) | (attempt << 19), &y0, &y1);
    x = ((uint64_t)y0 << 32) | (uint64_t)y1;
    if (x * product >= threshold || attempt + 1u >= GPUSIM_DEAL_MAX_ATTEMPTS) break;
  }
  return x;
}

// Draw d: the next digit of x (x * n = j * 2^64 + x', in 32-bit halves; n <= 52, so
// nothing overflows) picks deck position d + j, which is dealt into cards[d].
// Sparse Fisher-Yates: after draw m, deck position pos[m] holds val[m] (later entries
// win); every other position p >= the current draw still holds card p.
GPUSIM_HD void gpusim_deal_draw(uint64_t& x, int d, int* pos, int* val, int* cards) {
  const uint64_t n = (uint64_t)(52 - d);
  const uint64_t low = (x & 0xFFFFFFFFull) * n;
  const uint64_t high = (x >> 32) * n + (low >> 32);
  x = (high << 32) | (low & 0xFFFFFFFFull);
  const int t = d + (int)(high >> 32);  // deck position dealt now
  int card = t;
  int moved = d;
  for (int m = 0; m < d; ++m) {
    if (pos[m] == t) card = val[m];
    if (pos[m] == d) moved = val[m];
  }
  cards[d] = card;
  pos[d] = t;
  val[d] = moved;
}

// Deal round `round` (< 2^48) for key (k0, k1): cards[0 .. n_cards) get distinct cards
// 0..51, n_cards in 1..52, any n_cards known at run time. The block bounds, products and
// thresholds are computed per round (64-bit remainders); the kernels use gpusim_deal_n.
GPUSIM_HD void gpusim_deal(uint32_t k0, uint32_t k1, uint64_t round, int n_cards,
                           int* cards) {
  const uint32_t lo = (uint32_t)round;
  const uint32_t hi = (uint32_t)(round >> 32);
  uint64_t x = 0;  // the current block's word; each draw multiplies it by its range
  int block_end = 0;
  uint32_t block = 0;
  int pos[52];
  int val[52];
GPUSIM_UNROLL
  for (int d = 0; d < n_cards; ++d) {
    if (d == block_end) {
      block_end = gpusim_deal_block_end(d, n_cards);
      const uint64_t product = gpusim_deal_block_product(d, block_end);
      x = gpusim_deal_block_word(k0, k1, lo, hi, block, product,
                                 gpusim_deal_threshold(product));
      ++block;
    }
    gpusim_deal_draw(x, d, pos, val, cards);
  }
}

// Blocks FIRST.. of an N-card deal, each block's end, product and threshold folded into
// constants (a 9-card deal is one block: no 64-bit division at run time).
template <int N, int FIRST>
GPUSIM_HD void gpusim_deal_blocks(uint32_t k0, uint32_t k1, uint32_t lo, uint32_t hi,
                                  uint32_t block, int* pos, int* val, int* cards) {
  if constexpr (FIRST < N) {
    constexpr int END = gpusim_deal_block_end(FIRST, N);
    constexpr uint64_t PRODUCT = gpusim_deal_block_product(FIRST, END);
    constexpr uint64_t THRESHOLD = gpusim_deal_threshold(PRODUCT);
    uint64_t x = gpusim_deal_block_word(k0, k1, lo, hi, block, PRODUCT, THRESHOLD);
GPUSIM_UNROLL
    for (int d = FIRST; d < END; ++d) gpusim_deal_draw(x, d, pos, val, cards);
    gpusim_deal_blocks<N, END>(k0, k1, lo, hi, block + 1u, pos, val, cards);
  }
}

// gpusim_deal for a compile-time N (1..52): the same cards, bit for bit.
template <int N>
GPUSIM_HD void gpusim_deal_n(uint32_t k0, uint32_t k1, uint64_t round, int* cards) {
  static_assert(N >= 1 && N <= 52, "a deal has 1..52 cards");
  int pos[N];
  int val[N];
  gpusim_deal_blocks<N, 0>(k0, k1, (uint32_t)round, (uint32_t)(round >> 32), 0u, pos, val,
                           cards);
}

#endif  // GPUSIM_DEAL_CUH
