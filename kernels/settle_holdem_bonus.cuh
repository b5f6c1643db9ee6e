// Texas Hold'em Bonus per-round settlement: the CUDA twin of the street-bets shape's described
// settlement (gpusim/games/described/engine.py; the kernel's codes mapped by
// gpusim/games/holdem/streets_kernel.py).
//
// Event codes are those of the Python module (event_names): ante 0 fold, 1 + c win with
// category c 0..9, 11 tie, 12 loss; flop 0 fold, 1 win, 2 tie, 3 loss; turn / river 0 fold,
// 1 check, 2 win, 3 tie, 4 loss; bonus 0..20 (BONUS_HANDS); jackpot 0..9 the category of the
// Jackpot hand (9 = royal flush, which wins the meter).
//
// Joint outcome code (settle_common.cuh): main = ante * 4 + turn bet * 2 + river bet (the flop,
// turn and river events follow from it), then (main * NB + bonus) * NJ + jackpot, where NB is
// 21 with the Bonus offered, else 1 (and the bonus digit 0), NJ likewise 10 or 1.
//
// Plain C++, host-compiled by the test suite and compared round by round with gpusim.games.
#ifndef GPUSIM_SETTLE_HOLDEM_BONUS_CUH
#define GPUSIM_SETTLE_HOLDEM_BONUS_CUH

#include "settle_common.cuh"
#include "strategy_holdem_bonus.cuh"

#define GPUSIM_THB_ANTE_EVENTS 13
#define GPUSIM_THB_FLOP_EVENTS 4
#define GPUSIM_THB_STREET_EVENTS 5
#define GPUSIM_THB_MAIN_CODES (GPUSIM_THB_ANTE_EVENTS * 4)
#define GPUSIM_THB_BONUS_EVENTS 21
#define GPUSIM_THB_JACKPOT_EVENTS 10
#define GPUSIM_THB_JACKPOT_ROYAL 9
#define GPUSIM_THB_MAX_BINS \
  (GPUSIM_THB_MAIN_CODES * GPUSIM_THB_BONUS_EVENTS * GPUSIM_THB_JACKPOT_EVENTS)

struct GpusimThbEvents {
  int ante;
  int flop;
  int turn;
  int river;
  int bonus;
  int jackpot;
  bool turn_bet;   // the Turn bet was placed (false after a fold)
  bool river_bet;
  uint32_t player_rank;
  uint32_t dealer_rank;
};

// Bonus event of the hole cards (and the dealer's, for AA against AA): BONUS_HANDS order.
GPUSIM_HD int gpusim_thb_bonus_event(const int* cards) {
  const int r1 = cards[0] >> 2, r2 = cards[1] >> 2;
  const int hi = r1 > r2 ? r1 : r2, lo = r1 > r2 ? r2 : r1;
  const bool suited = (cards[0] & 3) == (cards[1] & 3);
  const bool pair = r1 == r2;
  const bool dealer_aa = (cards[2] >> 2) == 12 && (cards[3] >> 2) == 12;
  const bool ace_x = hi == 12 && !pair;
  // Ranks count 12 = ace, 11 = king, 10 = queen, 9 = jack, 8 = ten.
  if (pair && hi == 12) return dealer_aa ? 0 : 1;
  if (ace_x && suited && lo >= 9) return 2 + (11 - lo);  // AKs 2, AQs 3, AJs 4
  if (ace_x && lo == 11) return 5;
  if (pair && hi >= 9) return 6 + (11 - hi);  // KK 6, QQ 7, JJ 8
  if (ace_x && lo >= 9) return 9 + (10 - lo);  // AQo 9, AJo 10
  if (pair) return 11 + (8 - hi);  // TT 11 .. 22 19
  return 20;
}

// cards: [player 0:2, dealer 2:4, flop 4:7, turn 7, river 8]. A false flop decision is a
// fold, and then turn and river count as false. jackpot_all_seven: the Jackpot hand is the
// player's final seven cards instead of hole cards + flop.
GPUSIM_HD GpusimThbEvents gpusim_thb_events(const int* cards, GpusimThbDecision d,
                                            bool jackpot_all_seven) {
  GpusimThbEvents ev;
  const bool flop = d.flop, turn = d.turn && flop, river = d.river && flop;
  const uint32_t pr =
      gpusim_evaluate7(cards[0], cards[1], cards[4], cards[5], cards[6], cards[7], cards[8]);
  const uint32_t dr =
      gpusim_evaluate7(cards[2], cards[3], cards[4], cards[5], cards[6], cards[7], cards[8]);
  const int pcat = gpusim_category10(pr);
  const bool win = pr > dr, tie = pr == dr;
  const int showdown = win ? 2 : tie ? 3 : 4;
  ev.flop = flop ? showdown - 1 : 0;
  ev.turn = flop ? (turn ? showdown : 1) : 0;
  ev.river = flop ? (river ? showdown : 1) : 0;
  ev.ante = flop ? (win ? 1 + pcat : tie ? 11 : 12) : 0;
  ev.bonus = gpusim_thb_bonus_event(cards);
  ev.jackpot = jackpot_all_seven ? pcat
                                 : gpusim_category10(gpusim_evaluate5(cards[0], cards[1], cards[4],
                                                                      cards[5], cards[6]));
  ev.turn_bet = turn;
  ev.river_bet = river;
  ev.player_rank = pr;
  ev.dealer_rank = dr;
  return ev;
}

GPUSIM_HD int gpusim_thb_code(const GpusimThbEvents& ev, bool has_bonus, bool has_jackpot) {
  const int main = ev.ante * 4 + (ev.turn_bet ? 2 : 0) + (ev.river_bet ? 1 : 0);
  const int nb = has_bonus ? GPUSIM_THB_BONUS_EVENTS : 1;
  const int nj = has_jackpot ? GPUSIM_THB_JACKPOT_EVENTS : 1;
  return (main * nb + (has_bonus ? ev.bonus : 0)) * nj + (has_jackpot ? ev.jackpot : 0);
}

// Deal, decide and settle round `round` of the run keyed (k0, k1): its joint outcome code;
// *royal says the Jackpot (when offered) hit the royal flush, whose net the host settles.
GPUSIM_HD int gpusim_thb_play_round(uint32_t k0, uint32_t k1, uint64_t round, int strategy,
                                    bool has_bonus, bool has_jackpot, bool jackpot_all_seven,
                                    const GpusimTables& t, bool* royal) {
  int cards[9];
  gpusim_deal_n<9>(k0, k1, round, cards);
  const GpusimThbDecision d = gpusim_thb_decide(strategy, cards, t);
  const GpusimThbEvents ev = gpusim_thb_events(cards, d, jackpot_all_seven);
  *royal = has_jackpot && ev.jackpot == GPUSIM_THB_JACKPOT_ROYAL;
  return gpusim_thb_code(ev, has_bonus, has_jackpot);
}

// Full settlement (stakes and nets too), for the host harness; the kernel needs events only.
struct GpusimThbRules {
  int32_t ante;           // Flop = 2 x ante, Turn = River = 1 x ante
  int32_t bonus_stake;    // 0: not offered
  int32_t jackpot_stake;  // 0: not offered
  int32_t jackpot_all_seven;
  int32_t jackpot_meter;  // what a royal flush returns (money units)
  int32_t ante_returns[GPUSIM_THB_ANTE_EVENTS];
  int32_t bonus_returns[GPUSIM_THB_BONUS_EVENTS];
  int32_t jackpot_returns[GPUSIM_THB_JACKPOT_EVENTS];  // fixed prizes, "X for 1"
};

struct GpusimThbSettlement {
  GpusimThbEvents events;
  int32_t stake[6];  // ante, flop, turn, river, bonus, jackpot
  int32_t net[6];
};

GPUSIM_HD GpusimThbSettlement gpusim_thb_settle(const int* cards, GpusimThbDecision d,
                                                const GpusimThbRules& r) {
  GpusimThbSettlement s;
  s.events = gpusim_thb_events(cards, d, r.jackpot_all_seven != 0);
  const int32_t flop_returns[GPUSIM_THB_FLOP_EVENTS] = {0, 2, 1, 0};
  const int32_t street_returns[GPUSIM_THB_STREET_EVENTS] = {0, 0, 2, 1, 0};
  s.stake[0] = r.ante;
  s.stake[1] = d.flop ? 2 * r.ante : 0;
  s.stake[2] = s.events.turn_bet ? r.ante : 0;
  s.stake[3] = s.events.river_bet ? r.ante : 0;
  s.stake[4] = r.bonus_stake;
  s.stake[5] = r.jackpot_stake;
  s.net[0] = gpusim_net(s.stake[0], r.ante_returns, s.events.ante);
  s.net[1] = gpusim_net(s.stake[1], flop_returns, s.events.flop);
  s.net[2] = gpusim_net(s.stake[2], street_returns, s.events.turn);
  s.net[3] = gpusim_net(s.stake[3], street_returns, s.events.river);
  s.net[4] = gpusim_net(s.stake[4], r.bonus_returns, s.events.bonus);
  s.net[5] = s.events.jackpot == GPUSIM_THB_JACKPOT_ROYAL
                 ? r.jackpot_meter - s.stake[5]
                 : gpusim_net(s.stake[5], r.jackpot_returns, s.events.jackpot);
  return s;
}

#endif  // GPUSIM_SETTLE_HOLDEM_BONUS_CUH
