// Casino Hold'em per-round settlement: the CUDA twin of the call-once shape's described
// settlement (gpusim/games/described/engine.py; the kernel's codes mapped by
// gpusim/games/holdem/call_once_kernel.py).
//
// Event codes are those of the Python module (event_names): ante 0 fold, 1 + c dealer not
// qualified, 11 + c win (c = the player's category 0..9), 21 tie, 22 loss; call 0 fold,
// 1 dealer not qualified, 2 win, 3 tie, 4 loss; aa_bonus 0..10 the AA Bonus hand when the
// player called, 11 + hand when he folded.
//
// Joint outcome code (settle_common.cuh): ante * 22 + aa_bonus with the AA Bonus offered,
// else the ante event alone; the call event follows from the ante event.
//
// Plain C++, host-compiled by the test suite and compared round by round with gpusim.games.
#ifndef GPUSIM_SETTLE_CASINO_HOLDEM_CUH
#define GPUSIM_SETTLE_CASINO_HOLDEM_CUH

#include "settle_common.cuh"
#include "strategy_casino_holdem.cuh"

#define GPUSIM_CH_ANTE_EVENTS 23
#define GPUSIM_CH_CALL_EVENTS 5
#define GPUSIM_CH_AA_EVENTS 22
#define GPUSIM_CH_MAX_BINS (GPUSIM_CH_ANTE_EVENTS * GPUSIM_CH_AA_EVENTS)

struct GpusimChEvents {
  int ante;
  int call;
  int aa_bonus;
  uint32_t player_rank;
  uint32_t dealer_rank;
};

// cards: [player 0:2, dealer 2:4, flop 4:7, turn 7, river 8]. qualifier: the evaluator rank
// of the weakest qualifying dealer hand (gpusim.games.holdem.call_once_shape.qualifier_rank).
GPUSIM_HD GpusimChEvents gpusim_ch_events(const int* cards, bool call, uint32_t qualifier) {
  GpusimChEvents ev;
  const uint32_t pr =
      gpusim_evaluate7(cards[0], cards[1], cards[4], cards[5], cards[6], cards[7], cards[8]);
  const uint32_t dr =
      gpusim_evaluate7(cards[2], cards[3], cards[4], cards[5], cards[6], cards[7], cards[8]);
  const int pcat = gpusim_category10(pr);
  const bool qualified = dr >= qualifier;
  const bool win = pr > dr, tie = pr == dr;
  ev.ante = !call ? 0 : !qualified ? 1 + pcat : win ? 11 + pcat : tie ? 21 : 22;
  ev.call = !call ? 0 : !qualified ? 1 : win ? 2 : tie ? 3 : 4;
  const int c5 = gpusim_category10(
      gpusim_evaluate5(cards[0], cards[1], cards[4], cards[5], cards[6]));
  const int aces = ((cards[0] >> 2) == 12) + ((cards[1] >> 2) == 12) + ((cards[4] >> 2) == 12) +
                   ((cards[5] >> 2) == 12) + ((cards[6] >> 2) == 12);
  // The AA Bonus hands split "pair" at aces, shifting every higher category up by one.
  const int hand = c5 >= 2 ? c5 + 1 : c5 == 1 ? (aces >= 2 ? 2 : 1) : 0;
  ev.aa_bonus = call ? hand : 11 + hand;
  ev.player_rank = pr;
  ev.dealer_rank = dr;
  return ev;
}

GPUSIM_HD int gpusim_ch_code(const GpusimChEvents& ev, bool has_aa) {
  return has_aa ? ev.ante * GPUSIM_CH_AA_EVENTS + ev.aa_bonus : ev.ante;
}

// Deal, decide and settle round `round` of the run keyed (k0, k1); its joint outcome code.
GPUSIM_HD int gpusim_ch_play_round(uint32_t k0, uint32_t k1, uint64_t round, int strategy,
                                   uint32_t qualifier, bool has_aa, const GpusimTables& t) {
  int cards[9];
  gpusim_deal_n<9>(k0, k1, round, cards);
  const bool call = gpusim_ch_decide(strategy, cards, t);
  return gpusim_ch_code(gpusim_ch_events(cards, call, qualifier), has_aa);
}

// Full settlement (stakes and nets too), for the host harness; the kernel needs events only.
struct GpusimChRules {
  uint32_t qualifier;
  int32_t ante;      // ante stake; the call is 2 x ante
  int32_t aa_stake;  // 0: the AA Bonus is not offered
  int32_t ante_returns[GPUSIM_CH_ANTE_EVENTS];
  int32_t aa_returns[GPUSIM_CH_AA_EVENTS];
};

struct GpusimChSettlement {
  GpusimChEvents events;
  int32_t stake[3];  // ante, call, aa_bonus
  int32_t net[3];
};

GPUSIM_HD GpusimChSettlement gpusim_ch_settle(const int* cards, bool call,
                                              const GpusimChRules& r) {
  GpusimChSettlement s;
  s.events = gpusim_ch_events(cards, call, r.qualifier);
  const int32_t call_returns[GPUSIM_CH_CALL_EVENTS] = {0, 1, 2, 1, 0};
  s.stake[0] = r.ante;
  s.stake[1] = call ? 2 * r.ante : 0;
  s.stake[2] = r.aa_stake;
  s.net[0] = gpusim_net(s.stake[0], r.ante_returns, s.events.ante);
  s.net[1] = gpusim_net(s.stake[1], call_returns, s.events.call);
  s.net[2] = gpusim_net(s.stake[2], r.aa_returns, s.events.aa_bonus);
  return s;
}

#endif  // GPUSIM_SETTLE_CASINO_HOLDEM_CUH
