// Best-five-card poker hand rank as one uint32: the CUDA twin of gpusim/evaluator.py.
//
// rank = category << 27 | primary << 13 | kickers, where category is 0 (high card) ..
// 8 (straight flush) and primary / kickers are 13-bit rank masks (bit r = rank r,
// 0 = deuce .. 12 = ace). One unsigned compare orders two hands; equal ranks tie.
// Card code c: rank = c >> 2, suit = c & 3. Cards within a hand must be distinct.
//
// Plain C++: every function is __host__ __device__ under nvcc and plain inline under
// a host compiler, so the test suite compiles this header with g++ and checks it bit for
// bit against the JAX evaluator. Keep the two implementations in step.
#ifndef GPUSIM_EVALUATE_CUH
#define GPUSIM_EVALUATE_CUH

#include <stdint.h>

#if defined(__CUDACC__)
#define GPUSIM_HD __host__ __device__ __forceinline__
#else
#define GPUSIM_HD inline
#endif

#define GPUSIM_CAT_SHIFT 27
#define GPUSIM_PRI_SHIFT 13
#define GPUSIM_MASK13 0x1FFFu

enum {
  GPUSIM_HIGH_CARD = 0,
  GPUSIM_PAIR = 1,
  GPUSIM_TWO_PAIR = 2,
  GPUSIM_THREE_OF_A_KIND = 3,
  GPUSIM_STRAIGHT = 4,
  GPUSIM_FLUSH = 5,
  GPUSIM_FULL_HOUSE = 6,
  GPUSIM_FOUR_OF_A_KIND = 7,
  GPUSIM_STRAIGHT_FLUSH = 8
};

// Rank of every royal flush: straight flush whose top card is the ace.
#define GPUSIM_ROYAL_FLUSH_RANK ((8u << GPUSIM_CAT_SHIFT) | ((1u << 12) << GPUSIM_PRI_SHIFT))

GPUSIM_HD uint32_t gpusim_popc(uint32_t x) {
#if defined(__CUDA_ARCH__)
  return (uint32_t)__popc(x);
#elif defined(__GNUC__) || defined(__clang__)
  return (uint32_t)__builtin_popcount(x);
#else
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  return (((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
#endif
}

// Rank mask of the top card of the best straight in rank mask m, or 0. Bit i of `run`
// says ranks i-1 .. i+3 are present (rank -1 is the ace played low); the runs of a hand
// of at most 9 cards are contiguous, so run & ~(run >> 1) is the top one.
GPUSIM_HD uint32_t gpusim_straight_top(uint32_t m) {
  uint32_t e = (m << 1) | (m >> 12);
  uint32_t run = e & (e >> 1) & (e >> 2) & (e >> 3) & (e >> 4);
  return (run & ~(run >> 1)) << 3;
}

GPUSIM_HD uint32_t gpusim_pack(uint32_t cat, uint32_t primary, uint32_t kickers) {
  return (cat << GPUSIM_CAT_SHIFT) | (primary << GPUSIM_PRI_SHIFT) | kickers;
}

// Rank from the four 13-bit suit masks of a hand of n_cards (5..7) distinct cards.
GPUSIM_HD uint32_t gpusim_rank_from_masks(uint32_t m0, uint32_t m1, uint32_t m2, uint32_t m3,
                                          int n_cards) {
  const uint32_t anyr = m0 | m1 | m2 | m3;
  // Per-rank card count as bit planes: count = ones + 2 * (b + d + c1), that sum <= 2.
  const uint32_t a = m0 ^ m1, b = m0 & m1;
  const uint32_t c = m2 ^ m3, d = m2 & m3;
  const uint32_t ones = a ^ c, c1 = a & c;
  const uint32_t twos = b ^ d ^ c1;
  const uint32_t fours = (b & d) | (c1 & (b | d));
  const uint32_t trips = ones & twos;
  const uint32_t pairs = twos & ~ones;
  const uint32_t singles = ones & ~twos;

  // At most one suit can hold five of at most nine cards.
  const uint32_t fm = (gpusim_popc(m0) >= 5 ? m0 : 0u) | (gpusim_popc(m1) >= 5 ? m1 : 0u) |
                      (gpusim_popc(m2) >= 5 ? m2 : 0u) | (gpusim_popc(m3) >= 5 ? m3 : 0u);
  const uint32_t sf_top = gpusim_straight_top(fm);
  const uint32_t st_top = gpusim_straight_top(anyr);
  const uint32_t top_trip = gpusim_popc(trips) > 1 ? (trips & (trips - 1u)) : trips;
  const uint32_t fh_pair = (trips ^ top_trip) | pairs;
  const uint32_t top_pairs = gpusim_popc(pairs) > 2 ? (pairs & (pairs - 1u)) : pairs;

  // Lowest category first, each later line overriding where its category is present.
  // Kicker masks are untrimmed here: they hold at most n_cards - 5 surplus bits.
  uint32_t w = pairs != 0u ? gpusim_pack(GPUSIM_PAIR, pairs, singles) : anyr;
  w = gpusim_popc(pairs) >= 2 ? gpusim_pack(GPUSIM_TWO_PAIR, top_pairs, anyr & ~top_pairs) : w;
  w = trips != 0u ? gpusim_pack(GPUSIM_THREE_OF_A_KIND, trips, singles) : w;
  w = st_top != 0u ? gpusim_pack(GPUSIM_STRAIGHT, st_top, 0u) : w;
  w = fm != 0u ? gpusim_pack(GPUSIM_FLUSH, 0u, fm) : w;
  w = (trips != 0u && fh_pair != 0u) ? gpusim_pack(GPUSIM_FULL_HOUSE, top_trip, fh_pair) : w;
  w = fours != 0u ? gpusim_pack(GPUSIM_FOUR_OF_A_KIND, fours, anyr & ~fours) : w;
  w = sf_top != 0u ? gpusim_pack(GPUSIM_STRAIGHT_FLUSH, sf_top, 0u) : w;

  // Kickers kept per category, 3 bits each from category 0: 5,3,1,2,5,5,1,1,5.
  const uint32_t keep_table = 5u | 3u << 3 | 1u << 6 | 2u << 9 | 5u << 12 | 5u << 15 |
                              1u << 18 | 1u << 21 | 5u << 24;
  const uint32_t keep = (keep_table >> ((w >> GPUSIM_CAT_SHIFT) * 3u)) & 7u;
  // Clearing the lowest set bit of w only touches the kicker field when it is non-empty.
  for (int i = 0; i < n_cards - 5; ++i) {
    w = gpusim_popc(w & GPUSIM_MASK13) > keep ? (w & (w - 1u)) : w;
  }
  return w;
}

// Rank of the best five of n_cards (5..7) distinct card codes.
GPUSIM_HD uint32_t gpusim_evaluate(const int32_t* cards, int n_cards) {
  // Two suits share a word (bits 0-12 and 16-28), as in the JAX path.
  uint32_t lo = 0u, hi = 0u;
  for (int j = 0; j < n_cards; ++j) {
    const uint32_t cj = (uint32_t)cards[j];
    const uint32_t bit = 1u << ((cj >> 2) + ((cj & 1u) << 4));
    if (cj & 2u) {
      hi |= bit;
    } else {
      lo |= bit;
    }
  }
  return gpusim_rank_from_masks(lo & GPUSIM_MASK13, lo >> 16, hi & GPUSIM_MASK13, hi >> 16,
                                n_cards);
}

GPUSIM_HD uint32_t gpusim_evaluate7(int32_t c0, int32_t c1, int32_t c2, int32_t c3, int32_t c4,
                                    int32_t c5, int32_t c6) {
  const int32_t cards[7] = {c0, c1, c2, c3, c4, c5, c6};
  return gpusim_evaluate(cards, 7);
}

GPUSIM_HD uint32_t gpusim_evaluate5(int32_t c0, int32_t c1, int32_t c2, int32_t c3, int32_t c4) {
  const int32_t cards[5] = {c0, c1, c2, c3, c4};
  return gpusim_evaluate(cards, 5);
}

GPUSIM_HD int gpusim_hand_category(uint32_t rank) { return (int)(rank >> GPUSIM_CAT_SHIFT); }

GPUSIM_HD bool gpusim_is_royal(uint32_t rank) { return rank == GPUSIM_ROYAL_FLUSH_RANK; }

// Three-card hands (Three Card Poker): gpusim.evaluator.evaluate_three, bit for bit. The same
// packing, with categories 0 (high card) .. 5 (straight flush) as below: high card and flush
// keep the three rank bits as kickers; a pair has the pair rank as primary and the odd card as
// kicker; a straight or straight flush has its top card as primary (the three for A-2-3); three
// of a kind has its rank as primary.
enum {
  GPUSIM_THREE_CARD_HIGH_CARD = 0,
  GPUSIM_THREE_CARD_PAIR = 1,
  GPUSIM_THREE_CARD_FLUSH = 2,
  GPUSIM_THREE_CARD_STRAIGHT = 3,
  GPUSIM_THREE_CARD_THREE_OF_A_KIND = 4,
  GPUSIM_THREE_CARD_STRAIGHT_FLUSH = 5
};

// Three-card rank from the four 13-bit suit masks of three distinct cards.
GPUSIM_HD uint32_t gpusim_rank3_from_masks(uint32_t m0, uint32_t m1, uint32_t m2, uint32_t m3) {
  const uint32_t anyr = m0 | m1 | m2 | m3;
  // Per-rank card count = ones + 2 * twos (a count is at most 3).
  const uint32_t a = m0 ^ m1, c = m2 ^ m3;
  const uint32_t ones = a ^ c, twos = (m0 & m1) ^ (m2 & m3) ^ (a & c);
  const uint32_t trips = ones & twos, pairs = twos & ~ones;
  const bool flush = gpusim_popc(m0) == 3u || gpusim_popc(m1) == 3u || gpusim_popc(m2) == 3u ||
                     gpusim_popc(m3) == 3u;
  // Ace-low layout (bit j = rank j - 1): bit i of the run says ranks i-1 .. i+1 are present;
  // three distinct ranks make at most one run, whose top card is rank i + 1.
  const uint32_t e = (anyr << 1) | (anyr >> 12);
  const uint32_t top = (e & (e >> 1) & (e >> 2)) << 1;

  uint32_t w = pairs != 0u ? gpusim_pack(GPUSIM_THREE_CARD_PAIR, pairs, ones & ~twos) : anyr;
  w = flush ? gpusim_pack(GPUSIM_THREE_CARD_FLUSH, 0u, anyr) : w;
  w = top != 0u ? gpusim_pack(GPUSIM_THREE_CARD_STRAIGHT, top, 0u) : w;
  w = trips != 0u ? gpusim_pack(GPUSIM_THREE_CARD_THREE_OF_A_KIND, trips, 0u) : w;
  return (flush && top != 0u) ? gpusim_pack(GPUSIM_THREE_CARD_STRAIGHT_FLUSH, top, 0u) : w;
}

// Three Card Poker rank of three distinct card codes; one unsigned compare orders two hands.
GPUSIM_HD uint32_t gpusim_evaluate3(int32_t c0, int32_t c1, int32_t c2) {
  const int32_t cards[3] = {c0, c1, c2};
  // Two suits share a word (bits 0-12 and 16-28), as in gpusim_evaluate.
  uint32_t lo = 0u, hi = 0u;
  for (int j = 0; j < 3; ++j) {
    const uint32_t cj = (uint32_t)cards[j];
    const uint32_t bit = 1u << ((cj >> 2) + ((cj & 1u) << 4));
    if (cj & 2u) {
      hi |= bit;
    } else {
      lo |= bit;
    }
  }
  return gpusim_rank3_from_masks(lo & GPUSIM_MASK13, lo >> 16, hi & GPUSIM_MASK13, hi >> 16);
}

#endif  // GPUSIM_EVALUATE_CUH
