// Ultimate Texas Hold'em decisions (pre-flop 4x / 3x / check, flop 2x / check, river 1x /
// fold): the CUDA twin of the rule lists of gpusim/games/holdem/play_once_kernel.py
// (always-check, basic; as rules in configs/ultimate_holdem.toml) and of the optimal table
// lookup (gpusim/games/holdem/play_once_tables.py). Plain C++, host-compiled and checked
// decision by decision against the described strategies by the test suite.
//
// A round's decisions reduce to its *path* (the kernel code's leading digit,
// settle_ultimate_holdem.cuh): 0 play 4x pre-flop, 1 play 3x pre-flop, 2 play 2x on
// the flop, 3 play 1x on the river, 4 fold on the river.
#ifndef GPUSIM_STRATEGY_ULTIMATE_HOLDEM_CUH
#define GPUSIM_STRATEGY_ULTIMATE_HOLDEM_CUH

#include "strategy_common.cuh"

#define GPUSIM_UTH_PLAY_4X 0
#define GPUSIM_UTH_PLAY_3X 1
#define GPUSIM_UTH_PLAY_2X 2
#define GPUSIM_UTH_PLAY_1X 3
#define GPUSIM_UTH_FOLD 4

// The optimal strategy's tables (TableStrategy.kernel_tables(); device or host pointers):
//   preflop: 169 bytes, the action index (0 check, 1 play 3x, 2 play 4x) per starting-hand
//     class (gpusim.cards.HAND_CLASSES order);
//   flop / river: packed bits (np.packbits), row = board class * 1326 + hole index under the
//     board's suit permutation: play 2x / play 1x;
//   raw3_* / raw5_*: per colex index of the raw 3- / 5-card board (gpusim.board_index.board_classes),
//     its class and suit permutation; new_suit: 24 x 4, new_suit[perm * 4 + old suit].
struct GpusimUthTables {
  const uint8_t* preflop;
  const uint8_t* flop;
  const uint8_t* river;
  const int32_t* raw3_class;
  const int8_t* raw3_perm;
  const int32_t* raw5_class;
  const int8_t* raw5_perm;
  const int8_t* new_suit;
};

// --- basic (the published basic strategy, as configs/ultimate_holdem.toml writes its rules) -----

// A straight, flush or straight flush.
GPUSIM_HD bool gpusim_uth_made(int cat) {
  return cat == GPUSIM_STRAIGHT || cat == GPUSIM_FLUSH || cat == GPUSIM_STRAIGHT_FLUSH;
}

// Pre-flop 4x: any pair but 2-2, any suited ace or king, Q6s+, J8s+, any offsuit ace, K5o+,
// Q8o+, JTo (ranks: 0 = deuce .. 12 = ace).
GPUSIM_HD bool gpusim_uth_basic_preflop(int h0, int h1) {
  const int r0 = h0 >> 2, r1 = h1 >> 2;
  const int hi = r0 > r1 ? r0 : r1, lo = r0 > r1 ? r1 : r0;
  if (hi == lo) return hi >= 1;
  if ((h0 & 3) == (h1 & 3)) return hi >= 11 || (hi == 10 && lo >= 4) || (hi == 9 && lo >= 6);
  return hi == 12 || (hi == 11 && lo >= 3) || (hi == 10 && lo >= 6) || (hi == 9 && lo >= 8);
}

// Flop 2x: two pair or better with a hole card in it (a hidden pair, or a straight or flush
// of the five), a hidden pair (a hole rank seen twice) but pocket deuces, or exactly four to a
// flush with a hole card of that suit ranked ten or better. Board trips alone: no bet.
GPUSIM_HD bool gpusim_uth_basic_flop(const int* cards) {
  const int seen[5] = {cards[0], cards[1], cards[4], cards[5], cards[6]};
  const GpusimFeatures f = gpusim_features(seen, 5);
  const int cat = gpusim_hand_category(gpusim_evaluate(seen, 5));
  const bool pocket_deuces = (cards[0] >> 2) == 0 && (cards[1] >> 2) == 0;
  bool flush_draw = false;
  for (int h = 0; h < 2; ++h) {
    int same = 0;
    for (int j = 0; j < 5; ++j) same += (seen[j] & 3) == (seen[h] & 3);
    flush_draw = flush_draw || (same == 4 && (seen[h] >> 2) >= 8);
  }
  const bool two_pair_up = cat >= GPUSIM_TWO_PAIR && (f.hole_pair || gpusim_uth_made(cat));
  return two_pair_up || (f.hole_pair && !pocket_deuces) || flush_draw;
}

// Dealer outs: the unseen cards (45) that, with the five board cards, make a hand that beats
// the player's seven-card rank `player`. A card's suit matters only in a suit the board holds
// four or five of (a flush): per rank, one evaluation stands for that rank's unseen cards of
// the other suits and one more, where the board has such a suit, for its card of that suit
// (13 to 26 evaluations instead of 45).
GPUSIM_HD int gpusim_uth_dealer_outs(const int* cards, uint32_t player) {
  uint32_t m[4] = {0u, 0u, 0u, 0u};
  uint64_t seen = 0ull;  // bit rank * 4 + suit = the card code
  const int idx[7] = {0, 1, 4, 5, 6, 7, 8};
  for (int j = 0; j < 7; ++j) {
    const int c = cards[idx[j]];
    seen |= 1ull << c;
    if (j >= 2) m[c & 3] |= 1u << (c >> 2);
  }
  int flush_suit = -1;  // at most one suit holds four of five board cards
  for (int s = 0; s < 4; ++s) flush_suit = gpusim_popc(m[s]) >= 4 ? s : flush_suit;
  const uint32_t special = flush_suit >= 0 ? 1u << flush_suit : 0u;
  int outs = 0;
  for (int r = 0; r < 13; ++r) {
    const uint32_t unseen = ~(uint32_t)(seen >> (4 * r)) & 0xFu;  // suits of rank r unseen
    const uint32_t plain = unseen & ~special;
    if (plain != 0u) {
      // any unseen plain suit: the board holds no card of it at this rank
      const int s = (plain & 1u) ? 0 : (plain & 2u) ? 1 : (plain & 4u) ? 2 : 3;
      uint32_t a[4] = {m[0], m[1], m[2], m[3]};
      a[s] |= 1u << r;
      if (gpusim_rank_from_masks(a[0], a[1], a[2], a[3], 6) > player) {
        outs += (int)gpusim_popc(plain);
      }
    }
    if (unseen & special) {
      uint32_t a[4] = {m[0], m[1], m[2], m[3]};
      a[flush_suit] |= 1u << r;
      outs += gpusim_rank_from_masks(a[0], a[1], a[2], a[3], 6) > player;
    }
  }
  return outs;
}

// River 1x: a hidden pair or better (a hole rank seen twice, or a straight, flush or straight
// flush that ranks above the board's own five), or fewer than 21 dealer outs.
GPUSIM_HD bool gpusim_uth_basic_river(const int* cards, uint32_t player) {
  const int seen[7] = {cards[0], cards[1], cards[4], cards[5], cards[6], cards[7], cards[8]};
  const GpusimFeatures f = gpusim_features(seen, 7);
  const bool hole_plays =
      gpusim_uth_made(gpusim_hand_category(player)) &&
      player > gpusim_evaluate5(cards[4], cards[5], cards[6], cards[7], cards[8]);
  return f.hole_pair || hole_plays || gpusim_uth_dealer_outs(cards, player) < 21;
}

// --- the optimal tables --------------------------------------------------------------------

GPUSIM_HD int32_t gpusim_uth_colex5(int a, int b, int c, int d, int e) {
  // sorting network for five (as gpusim.strategy.table_strategy._sorted)
  gpusim_cswap(&a, &b);
  gpusim_cswap(&d, &e);
  gpusim_cswap(&c, &e);
  gpusim_cswap(&c, &d);
  gpusim_cswap(&a, &d);
  gpusim_cswap(&a, &c);
  gpusim_cswap(&b, &e);
  gpusim_cswap(&b, &d);
  gpusim_cswap(&b, &c);
  // C(e, 5) < C(52, 5) < 2^31; the product of five factors is below 2^29
  const int32_t e5 = e * (e - 1) * (e - 2) * (e - 3) * (e - 4) / 120;
  return gpusim_binom(a, 1) + gpusim_binom(b, 2) + gpusim_binom(c, 3) + gpusim_binom(d, 4) + e5;
}

// Starting-hand class 0..168: gpusim.cards.CLASS_GRID is row * 13 + col itself.
GPUSIM_HD int32_t gpusim_uth_hand_class(int h0, int h1) {
  const int r0 = h0 >> 2, r1 = h1 >> 2;
  const int hi = r0 > r1 ? r0 : r1, lo = r0 > r1 ? r1 : r0;
  const bool suited = (h0 & 3) == (h1 & 3);
  return suited ? (12 - hi) * 13 + (12 - lo) : (12 - lo) * 13 + (12 - hi);
}

GPUSIM_HD int gpusim_uth_table_path(const int* cards, const GpusimUthTables& t) {
  const int pre = t.preflop[gpusim_uth_hand_class(cards[0], cards[1])];
  if (pre == 2) return GPUSIM_UTH_PLAY_4X;
  if (pre == 1) return GPUSIM_UTH_PLAY_3X;
  const int32_t fid = gpusim_colex3(cards[4], cards[5], cards[6]);
  const int32_t fh = gpusim_hole_in_class(cards[0], cards[1], t.raw3_perm[fid], t.new_suit);
  if (gpusim_table_bit(t.flop, t.raw3_class[fid] * 1326 + fh)) return GPUSIM_UTH_PLAY_2X;
  const int32_t bid = gpusim_uth_colex5(cards[4], cards[5], cards[6], cards[7], cards[8]);
  const int32_t rh = gpusim_hole_in_class(cards[0], cards[1], t.raw5_perm[bid], t.new_suit);
  return gpusim_table_bit(t.river, t.raw5_class[bid] * 1326 + rh) ? GPUSIM_UTH_PLAY_1X
                                                                   : GPUSIM_UTH_FOLD;
}

// The round's path under `strategy` (GPUSIM_STRAT_ALWAYS: always-check, GPUSIM_STRAT_BASIC,
// GPUSIM_STRAT_TABLE). cards: the round's 9 cards (the dealer's are not read); player: the
// player's seven-card rank (the river rules read it).
GPUSIM_HD int gpusim_uth_decide(int strategy, const int* cards, uint32_t player,
                                const GpusimUthTables& t) {
  if (strategy == GPUSIM_STRAT_TABLE) return gpusim_uth_table_path(cards, t);
  if (strategy == GPUSIM_STRAT_BASIC) {
    if (gpusim_uth_basic_preflop(cards[0], cards[1])) return GPUSIM_UTH_PLAY_4X;
    if (gpusim_uth_basic_flop(cards)) return GPUSIM_UTH_PLAY_2X;
  }
  return gpusim_uth_basic_river(cards, player) ? GPUSIM_UTH_PLAY_1X : GPUSIM_UTH_FOLD;
}

#endif  // GPUSIM_STRATEGY_ULTIMATE_HOLDEM_CUH
