// Casino Hold'em decisions (call or fold, seeing the hole cards and the flop): the CUDA twin
// of the rule lists of gpusim/games/holdem/call_once_kernel.py (always-play, basic,
// side-bet-optimal; as rules in configs/casino_holdem.toml) and of the table lookup of
// gpusim/games/holdem/call_once_tables.py (optimal, optimal-main). Plain C++, host-compiled and
// checked decision by decision against the described strategies by the test suite.
#ifndef GPUSIM_STRATEGY_CASINO_HOLDEM_CUH
#define GPUSIM_STRATEGY_CASINO_HOLDEM_CUH

#include "strategy_common.cuh"

// Basic: a pair with a hole card, four to a flush or four in a row with a hole card, a
// straight, or a ten or higher in the hole.
GPUSIM_HD bool gpusim_ch_basic(const int* cards) {
  const int seen[5] = {cards[0], cards[1], cards[4], cards[5], cards[6]};
  const GpusimFeatures f = gpusim_features(seen, 5);
  return f.hole_pair || f.flush4 || f.run4 || f.straight || f.hole_high >= 8;
}

// A pair of aces or better in hole cards + flop (every AA Bonus win).
GPUSIM_HD bool gpusim_ch_aa_bonus_win(const int* cards) {
  const int cat = gpusim_hand_category(
      gpusim_evaluate5(cards[0], cards[1], cards[4], cards[5], cards[6]));
  const int aces = ((cards[0] >> 2) == 12) + ((cards[1] >> 2) == 12) + ((cards[4] >> 2) == 12) +
                   ((cards[5] >> 2) == 12) + ((cards[6] >> 2) == 12);
  return cat > GPUSIM_PAIR || (cat == GPUSIM_PAIR && aces >= 2);
}

GPUSIM_HD bool gpusim_ch_table(const int* cards, const GpusimTables& t) {
  const int32_t fid = gpusim_colex3(cards[4], cards[5], cards[6]);
  const int32_t fh = gpusim_hole_in_class(cards[0], cards[1], t.raw3_perm[fid], t.new_suit);
  return gpusim_table_bit(t.call, t.raw3_class[fid] * 1326 + fh);
}

// cards: the round's 9 cards (the dealer's and the turn/river are not read).
GPUSIM_HD bool gpusim_ch_decide(int strategy, const int* cards, const GpusimTables& t) {
  switch (strategy) {
    case GPUSIM_STRAT_BASIC: return gpusim_ch_basic(cards);
    case GPUSIM_STRAT_SIDE_BET: return gpusim_ch_aa_bonus_win(cards) || gpusim_ch_basic(cards);
    case GPUSIM_STRAT_TABLE: return gpusim_ch_table(cards, t);
    default: return true;
  }
}

#endif  // GPUSIM_STRATEGY_CASINO_HOLDEM_CUH
