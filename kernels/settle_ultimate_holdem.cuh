// Ultimate Texas Hold'em per-round settlement (the play-once hold'em shape's kernel,
// gpusim/games/holdem/play_once_kernel.py).
//
// A round's joint outcome code is (path * 6 + outcome) * 10 + category (300 codes):
//   path: 0 play 4x pre-flop, 1 play 3x pre-flop, 2 play 2x on the flop, 3 play 1x on the
//     river, 4 fold on the river (strategy_ultimate_holdem.cuh);
//   outcome: 0 fold, 1 player wins and the dealer qualifies, 2 player wins and the dealer does
//     not qualify, 3 tie, 4 dealer wins and qualifies, 5 dealer wins and does not qualify;
//   category: the player's seven-card hand, 0 high card .. 8 straight flush, 9 royal flush.
// Every bet's event and stake follow from it on the host (play_once_kernel.code_map sends each
// code to the description's joint code): the paytables and the Trips "must beat the dealer"
// flag are the host's, so the kernel needs only the dealer's qualifying rank.
//
// Plain C++, host-compiled by the test suite and compared round by round with gpusim.games.
#ifndef GPUSIM_SETTLE_ULTIMATE_HOLDEM_CUH
#define GPUSIM_SETTLE_ULTIMATE_HOLDEM_CUH

#include "settle_common.cuh"
#include "strategy_ultimate_holdem.cuh"

#define GPUSIM_UTH_OUTCOMES 6
#define GPUSIM_UTH_CATEGORIES 10
#define GPUSIM_UTH_MAX_BINS (5 * GPUSIM_UTH_OUTCOMES * GPUSIM_UTH_CATEGORIES)

// cards: [player 0:2, dealer 2:4, flop 4:7, turn 7, river 8]; player: the player's
// seven-card rank; qualifier: the evaluator rank of the weakest qualifying dealer hand.
GPUSIM_HD int gpusim_uth_code(const int* cards, int path, uint32_t player, uint32_t qualifier) {
  const uint32_t dealer =
      gpusim_evaluate7(cards[2], cards[3], cards[4], cards[5], cards[6], cards[7], cards[8]);
  const bool qualified = dealer >= qualifier;
  const int outcome = path == GPUSIM_UTH_FOLD ? 0
                      : player > dealer       ? (qualified ? 1 : 2)
                      : player == dealer      ? 3
                      : qualified             ? 4
                                              : 5;
  return (path * GPUSIM_UTH_OUTCOMES + outcome) * GPUSIM_UTH_CATEGORIES +
         gpusim_category10(player);
}

GPUSIM_HD uint32_t gpusim_uth_player_rank(const int* cards) {
  return gpusim_evaluate7(cards[0], cards[1], cards[4], cards[5], cards[6], cards[7], cards[8]);
}

// Deal, decide and settle round `round` of the run keyed (k0, k1); its joint outcome code.
GPUSIM_HD int gpusim_uth_play_round(uint32_t k0, uint32_t k1, uint64_t round, int strategy,
                                    uint32_t qualifier, const GpusimUthTables& t) {
  int cards[9];
  gpusim_deal_n<9>(k0, k1, round, cards);
  const uint32_t player = gpusim_uth_player_rank(cards);
  const int path = gpusim_uth_decide(strategy, cards, player, t);
  return gpusim_uth_code(cards, path, player, qualifier);
}

#endif  // GPUSIM_SETTLE_ULTIMATE_HOLDEM_CUH
