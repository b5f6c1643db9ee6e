// Casino Hold'em exact count (the call-once shape's, gpusim/games/holdem/call_once_counts.py,
// solve_counts) as device functions shared by kernels/exact_casino_holdem.cu and the host test.
//
// A block takes one flop class and its 1,176 turn-river pairs. Per hole (index 0..1325 of the
// class's canonical suits) it sums, over those boards and the dealer's 990 hands, 22 counts:
// [pc] dealer does not qualify, [10 + pc] dealer qualifies and the player wins (pc = the
// player's final pay class), [20] a tie with a qualifying dealer, [21] a loss. They sum to at
// most 1,176 x 990 per hole, so uint32 suffices.
#ifndef GPUSIM_EXACT_CASINO_HOLDEM_CUH
#define GPUSIM_EXACT_CASINO_HOLDEM_CUH

#include "exact_boards.cuh"

#define GPUSIM_CH_EVENTS 22

// The 5-card board flop + turn + river, as a block would set it (one thread).
GPUSIM_HD void gpusim_ch_flop_board(GpusimExactBoard* s, const int32_t* flop, int turn,
                                    int river) {
  const int32_t cards[5] = {flop[0], flop[1], flop[2], turn, river};
  gpusim_ex_set_board(s, cards);
}

// Counts of every player hand on the current board, added to counts ((1326, 22), this flop
// class's row). A hole occurs once per board and boards are separated by a barrier, so the
// read-modify-write needs no atomics. qualifier: lowest qualifying 7-card rank.
GPUSIM_HD void gpusim_ch_flop_count(const GpusimExactBoard* s, uint32_t* counts,
                                    uint32_t qualifier, int tid, int nt) {
  for (int p = tid; p < GPUSIM_EX_HANDS; p += nt) {
    const GpusimShowdown sd = gpusim_ex_showdown(s, p, qualifier);
    const int h = gpusim_ex_hole_index(s->rem[s->pa[p]], s->rem[s->pb[p]]);
    const uint32_t rp = s->rank[p];
    const int pc = gpusim_ex_pay_class(rp);
    const int qw = sd.below > sd.not_qualified ? sd.below - sd.not_qualified : 0;
    const int tie = rp >= qualifier ? sd.equal : 0;
    const int beaten = sd.below + sd.equal;
    const int loss = GPUSIM_EX_DEALER - (sd.not_qualified > beaten ? sd.not_qualified : beaten);
    uint32_t* c = counts + h * GPUSIM_CH_EVENTS;
    c[pc] += (uint32_t)sd.not_qualified;
    c[GPUSIM_EX_PAY_CLASSES + pc] += (uint32_t)qw;
    c[2 * GPUSIM_EX_PAY_CLASSES] += (uint32_t)tie;
    c[2 * GPUSIM_EX_PAY_CLASSES + 1] += (uint32_t)loss;
  }
}

#endif  // GPUSIM_EXACT_CASINO_HOLDEM_CUH
