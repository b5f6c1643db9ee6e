// Pieces shared by the per-game strategies: hand features of the seen cards (the CUDA twin of
// gpusim/strategy/features.py, which the described rule strategies' conditions read) and the
// decision-table lookups of gpusim/strategy/table_strategy.py (colex board index, suit
// relabelling, packed bits).
//
// Plain C++ (GPUSIM_HD functions), so the test suite compiles it with g++ and compares every
// decision with the Python strategies. Keep the two in step.
#ifndef GPUSIM_STRATEGY_COMMON_CUH
#define GPUSIM_STRATEGY_COMMON_CUH

#include "evaluate.cuh"

// Strategy codes: GPUSIM_STRATEGY (a #define in the kernels) picks one at compile time.
#define GPUSIM_STRAT_ALWAYS 0
#define GPUSIM_STRAT_BASIC 1
#define GPUSIM_STRAT_SIDE_BET 2
#define GPUSIM_STRAT_TABLE 3

// Decision tables, device (or host) pointers; a strategy reads only the ones it needs, so the
// others may be null. Layouts are those of gpusim.strategy.table_strategy.TableStrategy (the
// call-once and street-bets shapes' tables, gpusim/games/holdem/*_tables.py):
//   call / turn / river: packed bits, bit i at byte i >> 3, bit 7 - (i & 7) (np.packbits);
//     row = board class * 1326 + hole index under the board's suit permutation.
//   preflop: 169 bytes (0/1) per starting-hand class; grid: 169 int32, 13x13 cell -> class.
//   raw3_* / raw4_*: per colex index of the raw 3- / 4-card board, its class and permutation.
//   new_suit: 24 x 4 int8, new_suit[perm * 4 + old suit].
struct GpusimTables {
  const uint8_t* call;
  const uint8_t* preflop;
  const int32_t* grid;
  const uint8_t* turn;
  const uint8_t* river;
  const int32_t* raw3_class;
  const int8_t* raw3_perm;
  const int32_t* raw4_class;
  const int8_t* raw4_perm;
  const int8_t* new_suit;
};

// --- rule-list features -------------------------------------------------------------------

// Shift a rank mask up one bit and copy the ace to bit 0, so runs see A-2-3-4-5.
GPUSIM_HD uint32_t gpusim_ace_low(uint32_t m) { return (m << 1) | (m >> 12); }

// Bit i set where ace-low mask e holds bits i .. i+length-1.
GPUSIM_HD uint32_t gpusim_runs(uint32_t e, int length) {
  uint32_t run = e;
  for (int k = 1; k < length; ++k) run &= e >> k;
  return run;
}

// True where a run of `length` starting at bit i < n_starts holds a bit of hole_e. The
// window test (hole_e >> i) & (2^length - 1) != 0 is, for every i at once, bit i of the OR
// of hole_e >> j over j < length.
GPUSIM_HD bool gpusim_hole_in_run(uint32_t run, uint32_t hole_e, int length, int n_starts) {
  uint32_t cover = 0u;
  for (int j = 0; j < length; ++j) cover |= hole_e >> j;
  return (run & cover & ((1u << n_starts) - 1u)) != 0u;
}

struct GpusimFeatures {
  bool hole_pair;           // a hole rank seen at least twice
  bool hole_trips;          // ... at least three times
  bool two_pair_with_hole;  // two ranks seen twice or more, and a hole rank is one of them
  bool flush4;              // four cards of a hole card's suit
  bool flush5;
  bool run4;                // four consecutive ranks (ace low too) including a hole rank
  bool straight;            // five consecutive ranks including a hole rank
  bool sf4;                 // four to a straight flush in a hole card's suit, with that card
  int hole_pair_rank;       // highest hole rank seen twice or more, else -1
  int hole_high;
};

// Features of the k seen cards, hole cards first (the rest: flop, then turn).
GPUSIM_HD GpusimFeatures gpusim_features(const int* seen, int k) {
  GpusimFeatures f;
  int count[2] = {0, 0};
  int suit_count[2] = {0, 0};
  uint32_t suit_mask[2] = {0u, 0u};
  uint32_t mask = 0u;
  uint32_t pair_mask = 0u;
  const int r0 = seen[0] >> 2, r1 = seen[1] >> 2;
  const int s0 = seen[0] & 3, s1 = seen[1] & 3;
  for (int i = 0; i < k; ++i) {
    const int r = seen[i] >> 2, s = seen[i] & 3;
    const uint32_t bit = 1u << r;
    count[0] += (r == r0);
    count[1] += (r == r1);
    suit_count[0] += (s == s0);
    suit_count[1] += (s == s1);
    suit_mask[0] |= (s == s0) ? bit : 0u;
    suit_mask[1] |= (s == s1) ? bit : 0u;
    for (int j = 0; j < i; ++j) pair_mask |= ((seen[j] >> 2) == r) ? bit : 0u;
    mask |= bit;
  }
  const uint32_t e = gpusim_ace_low(mask);
  const uint32_t hole_e = gpusim_ace_low((1u << r0) | (1u << r1));
  f.hole_pair = count[0] >= 2 || count[1] >= 2;
  f.hole_trips = count[0] >= 3 || count[1] >= 3;
  f.two_pair_with_hole = gpusim_popc(pair_mask) >= 2 && f.hole_pair;
  f.flush4 = suit_count[0] >= 4 || suit_count[1] >= 4;
  f.flush5 = suit_count[0] >= 5 || suit_count[1] >= 5;
  f.run4 = gpusim_hole_in_run(gpusim_runs(e, 4), hole_e, 4, 11);
  f.straight = gpusim_hole_in_run(gpusim_runs(e, 5), hole_e, 5, 10);
  const int p0 = count[0] >= 2 ? r0 : -1, p1 = count[1] >= 2 ? r1 : -1;
  f.hole_pair_rank = p0 > p1 ? p0 : p1;
  f.hole_high = r0 > r1 ? r0 : r1;
  const uint32_t own0 = gpusim_ace_low(1u << r0), own1 = gpusim_ace_low(1u << r1);
  f.sf4 = gpusim_hole_in_run(gpusim_runs(gpusim_ace_low(suit_mask[0]), 4), own0, 4, 11) ||
          gpusim_hole_in_run(gpusim_runs(gpusim_ace_low(suit_mask[1]), 4), own1, 4, 11);
  return f;
}

// --- table lookups -----------------------------------------------------------------------

// C(n, k) for k = 1..4 (n < 52), exact in int32.
GPUSIM_HD int32_t gpusim_binom(int32_t n, int k) {
  switch (k) {
    case 1: return n;
    case 2: return n * (n - 1) / 2;
    case 3: return n * (n - 1) * (n - 2) / 6;
    default: return n * (n - 1) * (n - 2) / 6 * (n - 3) / 4;
  }
}

GPUSIM_HD void gpusim_cswap(int* a, int* b) {
  const int lo = *a < *b ? *a : *b, hi = *a < *b ? *b : *a;
  *a = lo;
  *b = hi;
}

// Colex index of a set of 3 or 4 distinct cards: sum of C(c_i, i + 1) over the sorted cards.
GPUSIM_HD int32_t gpusim_colex3(int a, int b, int c) {
  gpusim_cswap(&a, &b);
  gpusim_cswap(&b, &c);
  gpusim_cswap(&a, &b);
  return gpusim_binom(a, 1) + gpusim_binom(b, 2) + gpusim_binom(c, 3);
}

GPUSIM_HD int32_t gpusim_colex4(int a, int b, int c, int d) {
  gpusim_cswap(&a, &b);
  gpusim_cswap(&c, &d);
  gpusim_cswap(&a, &c);
  gpusim_cswap(&b, &d);
  gpusim_cswap(&b, &c);
  return gpusim_binom(a, 1) + gpusim_binom(b, 2) + gpusim_binom(c, 3) + gpusim_binom(d, 4);
}

// Hole index 0..1325 of the two hole cards after relabelling suits by permutation perm.
GPUSIM_HD int32_t gpusim_hole_in_class(int h0, int h1, int perm, const int8_t* new_suit) {
  const int a = ((h0 >> 2) << 2) | new_suit[perm * 4 + (h0 & 3)];
  const int b = ((h1 >> 2) << 2) | new_suit[perm * 4 + (h1 & 3)];
  const int hi = a > b ? a : b, lo = a > b ? b : a;
  return hi * (hi - 1) / 2 + lo;
}

GPUSIM_HD bool gpusim_table_bit(const uint8_t* packed, int32_t idx) {
  return ((packed[idx >> 3] >> (7 - (idx & 7))) & 1) != 0;
}

// Class index 0..168 of two hole cards through the 13x13 grid (gpusim.cards.hand_class_index).
GPUSIM_HD int32_t gpusim_hand_class(int h0, int h1, const int32_t* grid) {
  const int r0 = h0 >> 2, r1 = h1 >> 2;
  const int hi = r0 > r1 ? r0 : r1, lo = r0 > r1 ? r1 : r0;
  const bool suited = (h0 & 3) == (h1 & 3);
  const int row = suited ? 12 - hi : 12 - lo;
  const int col = suited ? 12 - lo : 12 - hi;
  return grid[row * 13 + col];
}

#endif  // GPUSIM_STRATEGY_COMMON_CUH
