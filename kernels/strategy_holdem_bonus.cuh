// Texas Hold'em Bonus decisions: Flop bet (sees the hole cards), Turn bet (hole cards + flop),
// River bet (+ the turn). The CUDA twin of the rule lists of
// gpusim/games/holdem/streets_kernel.py (always-play, basic; as rules in
// configs/holdem_bonus.toml) and of the table lookup of gpusim/games/holdem/streets_tables.py
// (optimal, win-over-half-ev). Plain C++, host-compiled and checked decision by decision
// against the described strategies.
#ifndef GPUSIM_STRATEGY_HOLDEM_BONUS_CUH
#define GPUSIM_STRATEGY_HOLDEM_BONUS_CUH

#include "strategy_common.cuh"

struct GpusimThbDecision {
  bool flop;   // false: fold (then turn and river are false too)
  bool turn;
  bool river;
};

// Fold 2-3 .. 2-7 offsuit, play the rest.
GPUSIM_HD bool gpusim_thb_preflop_play(const int* cards) {
  const int r0 = cards[0] >> 2, r1 = cards[1] >> 2;
  const int hi = r0 > r1 ? r0 : r1, lo = r0 > r1 ? r1 : r0;
  return !(lo == 0 && hi >= 1 && hi <= 5 && (cards[0] & 3) != (cards[1] & 3));
}

GPUSIM_HD GpusimThbDecision gpusim_thb_basic(const int* cards) {
  GpusimThbDecision d;
  d.flop = gpusim_thb_preflop_play(cards);
  const int seen[6] = {cards[0], cards[1], cards[4], cards[5], cards[6], cards[7]};
  const GpusimFeatures f4 = gpusim_features(seen, 5);
  const GpusimFeatures f5 = gpusim_features(seen, 6);
  // Rank 4 is the six: a pair of sixes or better made with a hole card.
  const bool river = f5.hole_pair_rank >= 4 || f5.two_pair_with_hole || f5.hole_trips ||
                     f5.sf4 || f5.straight || f5.flush5;
  d.turn = d.flop && (f4.hole_pair || f4.flush4 || f4.run4);
  d.river = d.flop && river;
  return d;
}

GPUSIM_HD GpusimThbDecision gpusim_thb_table(const int* cards, const GpusimTables& t) {
  GpusimThbDecision d;
  d.flop = t.preflop[gpusim_hand_class(cards[0], cards[1], t.grid)] != 0;
  const int32_t fid = gpusim_colex3(cards[4], cards[5], cards[6]);
  const int32_t fh = gpusim_hole_in_class(cards[0], cards[1], t.raw3_perm[fid], t.new_suit);
  const int32_t tid = gpusim_colex4(cards[4], cards[5], cards[6], cards[7]);
  const int32_t th = gpusim_hole_in_class(cards[0], cards[1], t.raw4_perm[tid], t.new_suit);
  d.turn = d.flop && gpusim_table_bit(t.turn, t.raw3_class[fid] * 1326 + fh);
  d.river = d.flop && gpusim_table_bit(t.river, t.raw4_class[tid] * 1326 + th);
  return d;
}

// cards: the round's 9 cards (the dealer's and the river are not read).
GPUSIM_HD GpusimThbDecision gpusim_thb_decide(int strategy, const int* cards,
                                              const GpusimTables& t) {
  switch (strategy) {
    case GPUSIM_STRAT_BASIC: return gpusim_thb_basic(cards);
    case GPUSIM_STRAT_TABLE: return gpusim_thb_table(cards, t);
    default: {
      GpusimThbDecision d;
      d.flop = d.turn = d.river = true;
      return d;
    }
  }
}

#endif  // GPUSIM_STRATEGY_HOLDEM_BONUS_CUH
