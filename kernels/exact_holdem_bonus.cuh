// Texas Hold'em Bonus exact count, river level (stage 1 of the street-bets shape's count,
// gpusim/games/holdem/streets_counts.py), as device functions shared by
// kernels/exact_holdem_bonus.cu and the host test.
//
// A block takes one 4-card board class and its 48 river cards. Per hole (index 0..1325 of the
// class's canonical suits) it sums, over the rivers and the dealer's 990 hands, the wins W,
// losses L and wins on which the Ante pays WX; per starting-hand class x final pay class the
// wins and the (hole, river) pairs, per starting-hand class the ties and losses. The per-class
// sums are multiplied by the class's weight (raw 4-card boards in it) once, when the block
// flushes them to the 64-bit global totals.
//
// Bounds: W, L, WX <= 48 x 990 fit uint16 in the output and uint32 in shared memory; an
// unweighted class sum <= 48 rivers x 16 holes x 990 < 2^20.
#ifndef GPUSIM_EXACT_HOLDEM_BONUS_CUH
#define GPUSIM_EXACT_HOLDEM_BONUS_CUH

#include "exact_boards.cuh"

#define GPUSIM_THB_CW (GPUSIM_EX_HAND_CLASSES * GPUSIM_EX_PAY_CLASSES)

struct GpusimThbRiverAcc {
  uint32_t W[GPUSIM_EX_HOLES];
  uint32_t L[GPUSIM_EX_HOLES];
  uint32_t WX[GPUSIM_EX_HOLES];
  uint32_t class_wins[GPUSIM_THB_CW];   // [hand class * 10 + pay class]
  uint32_t class_hands[GPUSIM_THB_CW];  // (hole, river) pairs, no dealer
  uint32_t class_ties[GPUSIM_EX_HAND_CLASSES];
  uint32_t class_losses[GPUSIM_EX_HAND_CLASSES];
};

// Global outputs of a launch: W, L, WX (n_classes, 1326) and the weighted class totals.
struct GpusimThbRiverOut {
  uint16_t* W;
  uint16_t* L;
  uint16_t* WX;
  unsigned long long* class_wins;   // (1690,)
  unsigned long long* class_hands;  // (1690,)
  unsigned long long* class_ties;   // (169,)
  unsigned long long* class_losses; // (169,)
};

GPUSIM_HD void gpusim_thb_river_zero(GpusimThbRiverAcc* acc, int tid, int nt) {
  for (int h = tid; h < GPUSIM_EX_HOLES; h += nt) acc->W[h] = acc->L[h] = acc->WX[h] = 0u;
  for (int k = tid; k < GPUSIM_THB_CW; k += nt) acc->class_wins[k] = acc->class_hands[k] = 0u;
  for (int k = tid; k < GPUSIM_EX_HAND_CLASSES; k += nt) {
    acc->class_ties[k] = acc->class_losses[k] = 0u;
  }
}

// The 5-card board b4 + river, as a block would set it (one thread).
GPUSIM_HD void gpusim_thb_river_board(GpusimExactBoard* s, const int32_t* b4, int river) {
  const int32_t cards[5] = {b4[0], b4[1], b4[2], b4[3], river};
  gpusim_ex_set_board(s, cards);
}

// Counts of every player hand on the current board, added to acc. A hole occurs once per board,
// so its own slots need no atomics (boards are separated by a barrier); class slots do.
// hole_class: (1326,) starting-hand class of each hole index. ante_from: pay class 0..9.
GPUSIM_HD void gpusim_thb_river_count(const GpusimExactBoard* s, GpusimThbRiverAcc* acc,
                                      const int16_t* hole_class, int ante_from, int tid, int nt) {
  for (int p = tid; p < GPUSIM_EX_HANDS; p += nt) {
    const GpusimShowdown sd = gpusim_ex_showdown(s, p, 0u);
    const int h = gpusim_ex_hole_index(s->rem[s->pa[p]], s->rem[s->pb[p]]);
    const int win = sd.below, tie = sd.equal, loss = GPUSIM_EX_DEALER - win - tie;
    const int pc = gpusim_ex_pay_class(s->rank[p]);
    acc->W[h] += (uint32_t)win;
    acc->L[h] += (uint32_t)loss;
    if (pc >= ante_from) acc->WX[h] += (uint32_t)win;
    const int hc = hole_class[h];
    GPUSIM_EX_ADD32(&acc->class_wins[hc * GPUSIM_EX_PAY_CLASSES + pc], win);
    GPUSIM_EX_ADD32(&acc->class_hands[hc * GPUSIM_EX_PAY_CLASSES + pc], 1);
    GPUSIM_EX_ADD32(&acc->class_ties[hc], tie);
    GPUSIM_EX_ADD32(&acc->class_losses[hc], loss);
  }
}

// Write the block's class row (slot `row` of the launch) and add its weighted class totals.
GPUSIM_HD void gpusim_thb_river_flush(const GpusimThbRiverAcc* acc, long long weight, int row,
                                      const GpusimThbRiverOut& out, int tid, int nt) {
  const long long base = (long long)row * GPUSIM_EX_HOLES;
  for (int h = tid; h < GPUSIM_EX_HOLES; h += nt) {
    out.W[base + h] = (uint16_t)acc->W[h];
    out.L[base + h] = (uint16_t)acc->L[h];
    out.WX[base + h] = (uint16_t)acc->WX[h];
  }
  const unsigned long long w = (unsigned long long)weight;
  for (int k = tid; k < GPUSIM_THB_CW; k += nt) {
    if (acc->class_wins[k]) GPUSIM_EX_ADD64(&out.class_wins[k], w * acc->class_wins[k]);
    if (acc->class_hands[k]) GPUSIM_EX_ADD64(&out.class_hands[k], w * acc->class_hands[k]);
  }
  for (int k = tid; k < GPUSIM_EX_HAND_CLASSES; k += nt) {
    if (acc->class_ties[k]) GPUSIM_EX_ADD64(&out.class_ties[k], w * acc->class_ties[k]);
    if (acc->class_losses[k]) GPUSIM_EX_ADD64(&out.class_losses[k], w * acc->class_losses[k]);
  }
}

#endif  // GPUSIM_EXACT_HOLDEM_BONUS_CUH
