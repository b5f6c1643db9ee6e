// Board-major exact count on the device: the CUDA twin of gpusim/exact/boards.py.
//
// One thread block owns one board at a time (5 known cards, 47 unseen, 1,081 two-card hands).
// A block runs the phases below with a barrier between them; the host test runs the very same
// functions serially (tid = 0, nt = 1), which is why each phase is a plain function of
// (state, tid, nt) rather than code inside a kernel:
//
//   gpusim_ex_init_pairs   once per block: the (i, j) local indices of every hand
//   gpusim_ex_set_board    one thread: the board, its unseen cards, clear n_low
//   gpusim_ex_rank_hands   every hand's 7-card rank (and how many rank below a qualifier)
//   gpusim_ex_showdown     per player hand: dealer hands it beats / ties (/ that fail to qualify)
//
// The showdown compares the player's rank with all 1,081 ranks (one shared-memory broadcast
// per step, so a warp does 32 comparisons per load) and removes the dealer hands that share a
// player card by inclusion-exclusion over the two 46-hand rows, exactly as boards.py does:
//   below = below_all - below_row_a - below_row_b
//   equal = equal_all - equal_row_a - equal_row_b + 1   (the player's own hand is in all three)
// A brute-force count costs 1.2 M comparisons per board, far less than a sort would save.
//
// Hand p = (i, j), i < j, is local pair index p of np.triu_indices(47, 1) (boards.PAIR_I/J).
#ifndef GPUSIM_EXACT_BOARDS_CUH
#define GPUSIM_EXACT_BOARDS_CUH

#include "evaluate.cuh"

#define GPUSIM_EX_UNSEEN 47
#define GPUSIM_EX_HANDS 1081
#define GPUSIM_EX_DEALER 990
#define GPUSIM_EX_HOLES 1326
#define GPUSIM_EX_PAY_CLASSES 10
#define GPUSIM_EX_HAND_CLASSES 169

// Block-shared counters: many threads add to one slot on the device, a plain add on the host.
#if defined(__CUDA_ARCH__)
#define GPUSIM_EX_ADD32(ptr, v) atomicAdd((ptr), (uint32_t)(v))
#define GPUSIM_EX_ADD64(ptr, v) atomicAdd((ptr), (unsigned long long)(v))
#else
#define GPUSIM_EX_ADD32(ptr, v) (*(ptr) += (uint32_t)(v))
#define GPUSIM_EX_ADD64(ptr, v) (*(ptr) += (unsigned long long)(v))
#endif

struct GpusimExactBoard {
  int32_t board[5];
  int32_t rem[GPUSIM_EX_UNSEEN];  // unseen cards, ascending
  uint32_t rank[GPUSIM_EX_HANDS];
  uint32_t n_low;  // hands ranked below the qualifier
  uint8_t pa[GPUSIM_EX_HANDS];
  uint8_t pb[GPUSIM_EX_HANDS];
};

struct GpusimShowdown {
  int below;          // dealer hands (of 990) the player beats
  int equal;          // ... ties with
  int not_qualified;  // ... ranked below the qualifier (0 without one)
};

// Local pair index of hand {i, j}, i < j (row-major upper triangle of 47 x 47).
GPUSIM_HD int gpusim_ex_pair(int i, int j) {
  return i * (2 * GPUSIM_EX_UNSEEN - i - 1) / 2 + (j - i - 1);
}

// Index 0..1325 of the hole {lo, hi}, lo < hi (gpusim.board_index.hole_index).
GPUSIM_HD int gpusim_ex_hole_index(int lo, int hi) { return hi * (hi - 1) / 2 + lo; }

// Pay class 0..9: the category, a royal flush as 9 (gpusim.exact.*.pay_class).
GPUSIM_HD int gpusim_ex_pay_class(uint32_t rank) {
  return rank == GPUSIM_ROYAL_FLUSH_RANK ? 9 : (int)(rank >> GPUSIM_CAT_SHIFT);
}

GPUSIM_HD void gpusim_ex_init_pairs(GpusimExactBoard* s, int tid, int nt) {
  for (int i = tid; i < GPUSIM_EX_UNSEEN - 1; i += nt) {
    const int base = gpusim_ex_pair(i, i + 1);
    for (int j = i + 1; j < GPUSIM_EX_UNSEEN; ++j) {
      s->pa[base + j - i - 1] = (uint8_t)i;
      s->pb[base + j - i - 1] = (uint8_t)j;
    }
  }
}

// cards: the 5 distinct board cards (any order).
GPUSIM_HD void gpusim_ex_set_board(GpusimExactBoard* s, const int32_t* cards) {
  uint64_t seen = 0;
  for (int k = 0; k < 5; ++k) {
    s->board[k] = cards[k];
    seen |= 1ull << cards[k];
  }
  int n = 0;
  for (int c = 0; c < 52; ++c) {
    if (!((seen >> c) & 1ull)) s->rem[n++] = c;
  }
  s->n_low = 0u;
}

// qualifier: lowest qualifying rank (0: no qualifier, n_low stays 0).
GPUSIM_HD void gpusim_ex_rank_hands(GpusimExactBoard* s, uint32_t qualifier, int tid, int nt) {
  const int32_t* b = s->board;
  uint32_t low = 0u;
  for (int p = tid; p < GPUSIM_EX_HANDS; p += nt) {
    const uint32_t r =
        gpusim_evaluate7(b[0], b[1], b[2], b[3], b[4], s->rem[s->pa[p]], s->rem[s->pb[p]]);
    s->rank[p] = r;
    low += r < qualifier ? 1u : 0u;
  }
  if (low != 0u) GPUSIM_EX_ADD32(&s->n_low, low);
}

GPUSIM_HD GpusimShowdown gpusim_ex_showdown(const GpusimExactBoard* s, int p, uint32_t qualifier) {
  const uint32_t rp = s->rank[p];
  int below = 0, atmost = 0;
  for (int q = 0; q < GPUSIM_EX_HANDS; ++q) {
    const uint32_t r = s->rank[q];
    below += r < rp ? 1 : 0;
    atmost += r <= rp ? 1 : 0;
  }
  const int a = s->pa[p], b = s->pb[p];
  int row_below = 0, row_atmost = 0, row_low = 0;
  for (int y = 0; y < GPUSIM_EX_UNSEEN; ++y) {
    if (y != a) {
      const uint32_t r = s->rank[y < a ? gpusim_ex_pair(y, a) : gpusim_ex_pair(a, y)];
      row_below += r < rp ? 1 : 0;
      row_atmost += r <= rp ? 1 : 0;
      row_low += r < qualifier ? 1 : 0;
    }
    if (y != b) {
      const uint32_t r = s->rank[y < b ? gpusim_ex_pair(y, b) : gpusim_ex_pair(b, y)];
      row_below += r < rp ? 1 : 0;
      row_atmost += r <= rp ? 1 : 0;
      row_low += r < qualifier ? 1 : 0;
    }
  }
  GpusimShowdown out;
  out.below = below - row_below;
  out.equal = (atmost - below) - (row_atmost - row_below) + 1;
  out.not_qualified = (int)s->n_low - row_low + (rp < qualifier ? 1 : 0);
  return out;
}

#endif  // GPUSIM_EXACT_BOARDS_CUH
