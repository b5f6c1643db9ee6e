// The exact solver's CPU loops, compiled (gpusim/exact/_native.py loads them; each has a numpy
// form it must match count for count, tests/test_exact_native.py):
//   gpusim_exact_rank_keys      per board, every hand's rank as a sort key (the evaluator of
//                               kernels/evaluate.cuh); gpusim_exact_rank ranks whole hands
//   gpusim_exact_sorted_counts  per board, after numpy's sort: the tie runs and the per-card
//                               inclusion-exclusion rows (gpusim/exact/boards.py)
//   gpusim_exact_binned_sums    the second stage: boards' rows summed by bin (fives.binned_sums)
//   gpusim_exact_thb_cells      Texas Hold'em Bonus's 5-card cells and per-starting-hand sums
//                               (fives._write_rows)
//   gpusim_exact_community_cells  the community-card solver's 5-card cells: showdown counts,
//                               class, river decisions (games/described/community_cells.py)
//
// Why compiled at all: per board the numpy form of the first makes some thirty passes over
// 1,081 hands and 2,162 card entries, because a per-card row is only reachable through a stable
// argsort of every hand's cards. Here a card's hands are listed by appending each hand, in rank
// order, to its two cards' lists, so after the sort a board costs a few linear walks
// (benchmarks/exact_stage.py: about 3x for the whole per-board pass, 4.7x for the part replaced).
//
// Built on first use with the system C++ compiler into the user's cache and called through
// ctypes; without a compiler the numpy forms run, with the same counts.
//
// Hands: p = (pi[p], pj[p]), local indices (pi < pj) into a board's n unseen cards, in
// np.triu_indices(n, 1) order. For each board, sorted position s (hands ascending by rank, ties
// by p) of hand order[s]:
//   start[s] / stop[s]  hands ranked strictly below / at most it (its tie run's bounds)
//   below  = start - (hands holding one of its cards ranked strictly below it)
//   equal  = (stop - start) - (hands holding one of its cards, tied or below) + (same, below) + 1
//   not_q  = n_low - (hands holding one of its cards ranked below the qualifier) + (s < n_low)
// (the player's own hand is in both cards' lists of ties, hence the + 1).

#include <cstdint>

#include "evaluate.cuh"  // the evaluator the CUDA kernels and the JAX path share, bit for bit

namespace {

constexpr int kMaxUnseen = 49;     // a 3-card board
constexpr int kMaxHands = 1176;    // C(49, 2)
constexpr int kHandBits = 11;      // a sort key is rank << 11 | hand index (< 2048)
constexpr uint64_t kHandMask = (1u << kHandBits) - 1;

void board(int n, int npairs, const uint64_t* key, const int32_t* pi, const int32_t* pj,
           const int32_t* rem, uint32_t qualifier, int has_qualifier, int64_t* order,
           uint32_t* srank, uint8_t* cards, int32_t* hole, int32_t* below, int32_t* equal,
           int32_t* not_q) {
  int32_t start[kMaxHands], stop[kMaxHands];
  int n_low = 0;
  for (int s = 0; s < npairs; ++s) {
    const int p = int(key[s] & kHandMask);
    order[s] = p;
    srank[s] = uint32_t(key[s] >> kHandBits);
    cards[2 * s] = uint8_t(pi[p]);
    cards[2 * s + 1] = uint8_t(pj[p]);
    const int lo = rem[pi[p]], hi = rem[pj[p]];  // rem ascends: lo < hi
    hole[s] = hi * (hi - 1) / 2 + lo;             // gpusim.board_index.hole_index
    if (has_qualifier && srank[s] < qualifier) ++n_low;
  }
  // Tie runs of the sorted ranks: each hand's run start forwards, its run end backwards.
  // (The run bound is carried in a register: read back from memory, each step would wait on
  // the store before it.)
  for (int s = 0, run = 0; s < npairs; ++s) {
    run = (s > 0 && srank[s] != srank[s - 1]) ? s : run;
    start[s] = run;
  }
  for (int s = npairs - 1, run = npairs; s >= 0; --s) {
    run = (s + 1 < npairs && srank[s] != srank[s + 1]) ? s + 1 : run;
    stop[s] = run;
  }

  // Each card's n - 1 hands in rank order (sorted positions), by appending in rank order.
  int16_t list[kMaxUnseen][kMaxUnseen];
  int fill[kMaxUnseen] = {0};
  for (int s = 0; s < npairs; ++s) {
    const int a = cards[2 * s], b = cards[2 * s + 1];
    list[a][fill[a]++] = int16_t(s);
    list[b][fill[b]++] = int16_t(s);
  }
  // Within a card's list, the tie runs of the hands' dense positions (start) give the hands
  // holding that card ranked strictly below / at most each one; the first `low` entries rank
  // below the qualifier.
  int32_t row_below[kMaxHands] = {0}, row_atmost[kMaxHands] = {0};
  int low[kMaxUnseen];
  const int m = n - 1;
  for (int x = 0; x < n; ++x) {
    const int16_t* l = list[x];
    int v[kMaxUnseen], lo[kMaxUnseen];
    int count = 0;
    for (int j = 0; j < m; ++j) {
      v[j] = start[l[j]];
      count += l[j] < n_low ? 1 : 0;
    }
    low[x] = count;
    for (int j = 0, run = 0; j < m; ++j) {
      run = (j > 0 && v[j] != v[j - 1]) ? j : run;
      lo[j] = run;
    }
    int hi = m;
    for (int j = m - 1; j >= 0; --j) {
      hi = (j + 1 < m && v[j] == v[j + 1]) ? hi : j + 1;
      row_below[l[j]] += lo[j];
      row_atmost[l[j]] += hi;
    }
  }
  for (int s = 0; s < npairs; ++s) {
    below[s] = start[s] - row_below[s];
    equal[s] = (stop[s] - start[s]) - row_atmost[s] + row_below[s] + 1;
    if (not_q != nullptr) {
      not_q[s] = n_low - low[cards[2 * s]] - low[cards[2 * s + 1]] + (s < n_low ? 1 : 0);
    }
  }
}

constexpr int kHoles = 1326;

// Sort keys rank << 11 | p of a board's hands: the board's suit-mask words (lo, hi) with each
// hand's two cards' bits OR-ed in, ranked as N-card hands.
template <int N>
void rank_pairs(int npairs, const int32_t* pi, const int32_t* pj, uint32_t lo, uint32_t hi,
                const uint32_t* card_lo, const uint32_t* card_hi, uint64_t* out) {
  for (int p = 0; p < npairs; ++p) {
    const uint32_t l = lo | card_lo[pi[p]] | card_lo[pj[p]];
    const uint32_t h = hi | card_hi[pi[p]] | card_hi[pj[p]];
    const uint32_t r = gpusim_rank_from_masks(l & GPUSIM_MASK13, l >> 16, h & GPUSIM_MASK13,
                                              h >> 16, N);
    out[p] = (uint64_t(r) << kHandBits) | uint64_t(p);
  }
}

// One board's cells into one or two accumulators: the value types are template parameters so
// that the inner loop has no branch (two tables share one key computation).
template <typename A, typename B, bool kTwo>
void add_board(const int32_t* key, const void* va, const void* vb, int64_t row, int64_t w,
               int64_t* acc_a, int64_t* acc_b) {
  const A* a = static_cast<const A*>(va) + row;
  const B* b = kTwo ? static_cast<const B*>(vb) + row : nullptr;
  if (w == 1) {
    for (int h = 0; h < kHoles; ++h) {
      acc_a[key[h]] += int64_t(a[h]);
      if (kTwo) acc_b[key[h]] += int64_t(b[h]);
    }
  } else {
    for (int h = 0; h < kHoles; ++h) {
      acc_a[key[h]] += int64_t(a[h]) * w;
      if (kTwo) acc_b[key[h]] += int64_t(b[h]) * w;
    }
  }
}

using AddFn = void (*)(const int32_t*, const void*, const void*, int64_t, int64_t, int64_t*,
                       int64_t*);

template <typename A>
AddFn pick_second(int vtype_b, bool two) {
  if (!two) return add_board<A, A, false>;
  switch (vtype_b) {
    case 0: return add_board<A, int16_t, true>;
    case 1: return add_board<A, int32_t, true>;
    case 2: return add_board<A, double, true>;
    default: return add_board<A, int64_t, true>;
  }
}

AddFn pick(int vtype_a, int vtype_b, bool two) {
  switch (vtype_a) {
    case 0: return pick_second<int16_t>(vtype_b, two);
    case 1: return pick_second<int32_t>(vtype_b, two);
    case 2: return pick_second<double>(vtype_b, two);
    default: return pick_second<int64_t>(vtype_b, two);
  }
}

}  // namespace

extern "C" {

// Version of this entry point's contract; the loader refuses a library that differs.
int gpusim_exact_cpu_abi(void) { return 7; }

// The sort keys of every hand on nb boards of k cards (3..5), n = 52 - k unseen cards each
// (rem, ascending), npairs = C(n, 2) hands (pi, pj: local card indices):
//   keys[i * npairs + p] = rank << 11 | p,
// rank = gpusim_rank_from_masks of board i's cards with rem[i * n + pi[p]] and
// rem[i * n + pj[p]] (gpusim/evaluator.py's evaluate_board_pairs, bit for bit). The board's
// suit masks are built once; each hand ORs in its two cards' bits.
// Returns 0, or -1 for k, n or npairs out of range or a card outside 0..51 (nothing written for
// that board or after it).
int gpusim_exact_rank_keys(int64_t nb, int32_t k, const int32_t* boards, int32_t n,
                           const int32_t* rem, int32_t npairs, const int32_t* pi,
                           const int32_t* pj, uint64_t* keys) {
  if (k < 3 || k > 5 || n != 52 - k || npairs != n * (n - 1) / 2) return -1;
  for (int64_t i = 0; i < nb; ++i) {
    // two suits share a word (bits 0-12 and 16-28), as in gpusim_evaluate
    uint32_t lo = 0u, hi = 0u, bad = 0u;
    for (int j = 0; j < k; ++j) {
      const uint32_t c = uint32_t(boards[i * k + j]);
      bad |= c > 51u ? 1u : 0u;
      const uint32_t bit = 1u << (((c & 63u) >> 2) + ((c & 1u) << 4));
      lo |= (c & 2u) ? 0u : bit;
      hi |= (c & 2u) ? bit : 0u;
    }
    uint32_t card_lo[kMaxUnseen], card_hi[kMaxUnseen];
    for (int x = 0; x < n; ++x) {
      const uint32_t c = uint32_t(rem[i * n + x]);
      bad |= c > 51u ? 1u : 0u;
      const uint32_t bit = 1u << (((c & 63u) >> 2) + ((c & 1u) << 4));
      card_lo[x] = (c & 2u) ? 0u : bit;
      card_hi[x] = (c & 2u) ? bit : 0u;
    }
    if (bad) return -1;
    uint64_t* out = keys + i * npairs;
    switch (k) {  // the hand size as a constant: the evaluator's kicker loop unrolls
      case 3: rank_pairs<5>(npairs, pi, pj, lo, hi, card_lo, card_hi, out); break;
      case 4: rank_pairs<6>(npairs, pi, pj, lo, hi, card_lo, card_hi, out); break;
      default: rank_pairs<7>(npairs, pi, pj, lo, hi, card_lo, card_hi, out); break;
    }
  }
  return 0;
}

// Ranks of m hands of k (5..7) distinct cards each: out[i] = gpusim_evaluate(cards + i * k, k).
// Returns 0, or -1 for k out of range or a card outside 0..51 (nothing written from that hand).
int gpusim_exact_rank(int64_t m, int32_t k, const int32_t* cards, uint32_t* out) {
  if (k < 5 || k > 7) return -1;
  for (int64_t i = 0; i < m; ++i) {
    uint32_t bad = 0u;
    for (int j = 0; j < k; ++j) bad |= uint32_t(cards[i * k + j]) > 51u ? 1u : 0u;
    if (bad) return -1;
    out[i] = gpusim_evaluate(cards + i * k, k);
  }
  return 0;
}

// nb boards, each with n unseen cards (2..49) and npairs = C(n, 2) hands; keys: (nb, npairs)
// rank << 11 | hand index, sorted ascending along each board (the sort stays in numpy: its
// vectorised sort beat a byte-wise radix sort written here). Outputs, (nb, npairs) each, in
// each board's sorted order: order (hand index), srank, cards (nb, npairs, 2), hole (the hand's
// index 0..1325 from its cards, rem: (nb, n) each board's unseen cards, ascending), below, equal
// and, when has_qualifier, not_q (else may be null).
// Returns 0, or -1 when n or npairs is out of range (nothing written).
int gpusim_exact_sorted_counts(int64_t nb, int32_t n, int32_t npairs, const uint64_t* keys,
                               const int32_t* pi, const int32_t* pj, const int32_t* rem,
                               uint32_t qualifier, int32_t has_qualifier, int64_t* order,
                               uint32_t* srank, uint8_t* cards, int32_t* hole, int32_t* below,
                               int32_t* equal, int32_t* not_q) {
  if (n < 2 || n > kMaxUnseen || npairs != n * (n - 1) / 2) return -1;
  for (int64_t i = 0; i < nb; ++i) {
    const int64_t o = i * npairs;
    board(n, npairs, keys + o, pi, pj, rem + i * n, qualifier, has_qualifier, order + o,
          srank + o, cards + 2 * o, hole + o, below + o, equal + o,
          has_qualifier ? not_q + o : nullptr);
  }
  return 0;
}

// Texas Hold'em Bonus's 5-card cells, written into their table, and its per-starting-hand sums:
// the numpy form is gpusim/exact/fives.py's _write_rows, kind "thb".
//
// nb boards of P hands each, in each board's sorted order (sorted_counts' srank, hole, below,
// equal). Hand s of board i has pay class pc = 9 for the royal-flush rank `royal`, else
// srank >> 27 (its category); its cell
//   cells[ids[i] * 1326 + hole] = below | equal << 21 | (pc >= ante_from ? below : 0) << 42
// and, key = hole_class[hole] * 10 + pc, w = weight[i] (the raw boards its class stands for):
//   acc[key] += below * w (wins), acc[1690 + key] += equal * w (ties), acc[3380 + key] += w.
// Returns 0, or -1 for a row outside 0..n_rows-1, a hole outside 0..1325 or a category above 9
// (nothing written for that board or after it; the caller discards the batch).
int gpusim_exact_thb_cells(int64_t nb, int32_t P, const int64_t* ids, const uint32_t* srank,
                           const int32_t* hole, const int32_t* below, const int32_t* equal,
                           uint32_t royal, int32_t ante_from, const int32_t* hole_class,
                           const int64_t* weight, int64_t n_rows, int64_t* cells, int64_t* acc) {
  constexpr int kKeys = 1690;  // 169 starting-hand classes x 10 pay classes
  for (int64_t i = 0; i < nb; ++i) {
    const int64_t o = i * P;
    uint32_t bad = uint64_t(ids[i]) >= uint64_t(n_rows) ? 1u : 0u;
    for (int s = 0; s < P; ++s) {
      bad |= uint32_t(hole[o + s]) >= uint32_t(kHoles);
      bad |= (srank[o + s] >> 27) > 9u ? 1u : 0u;
    }
    if (bad) return -1;
    int64_t* row = cells + ids[i] * kHoles;
    const int64_t w = weight[i];
    for (int s = 0; s < P; ++s) {
      const uint32_t r = srank[o + s];
      const int pc = r == royal ? 9 : int(r >> 27);
      const int64_t b = below[o + s], e = equal[o + s];
      const int h = hole[o + s];
      row[h] = b | (e << 21) | ((pc >= ante_from ? b : 0) << 42);
      const int key = hole_class[h] * 10 + pc;
      acc[key] += b * w;
      acc[kKeys + key] += e * w;
      acc[2 * kKeys + key] += w;
    }
  }
  return 0;
}

// Binned sums of a 5-card table's rows, each row read through its board's suit permutation
// (the second stage: Casino Hold'em's and Ultimate Texas Hold'em's flops, Texas Hold'em Bonus's
// 4-card boards).
//
// m boards: row cls[i] of the tables (rows of 1326 cells), suit permutation perm[i] (0..23),
// weight weight[i] (its orbit's size), bin offset offset[i] (its group's first bin; null: 0).
// Cell h of a row goes to bin
//   key = offset[i] + base[perm[i] * 1326 + h] + (code ? code[cls[i] * 1326 + h] * stride : 0)
// and each of the nv (1 or 2) value tables adds value * weight there: acc[v * n_bins + key].
// Values are exact integers (vtype: 0 int16, 1 int32, 2 float64 holding an integer, 3 int64),
// summed in int64. (The callers lay the bins out code-major, stride = 1326: a board's cells
// then land in a few planes of 1,326 bins, which stay in the L1 cache; hole-major bins sent
// each cell to a different cache line of a 200 KB block.) Returns 0, or -1 for nv or a vtype out of range or a key outside
// 0..n_bins-1 (acc then holds partial sums: the caller discards it).
int gpusim_exact_binned_sums(int64_t m, const int64_t* cls, const int64_t* perm,
                             const int64_t* weight, const int64_t* offset, const int32_t* base,
                             const uint8_t* code, int32_t stride, int32_t nv,
                             const void* const* values, const int32_t* vtype, int64_t n_bins,
                             int64_t* acc) {
  if (nv < 1 || nv > 2 || n_bins >= (int64_t(1) << 31) || stride < 0 ||
      int64_t(stride) * 255 >= (int64_t(1) << 31)) {
    return -1;
  }
  for (int v = 0; v < nv; ++v) {
    if (vtype[v] < 0 || vtype[v] > 3) return -1;
  }
  const AddFn add = pick(vtype[0], nv == 2 ? vtype[1] : 0, nv == 2);
  int32_t key[kHoles];
  for (int64_t i = 0; i < m; ++i) {
    const int64_t row = cls[i] * kHoles;
    const int32_t* b = base + perm[i] * kHoles;
    const int32_t off = offset != nullptr ? int32_t(offset[i]) : 0;
    // one unsigned compare per key, OR-ed: no branch in the loop, a negative key fails too
    uint32_t bad = 0;
    if (code != nullptr) {
      const uint8_t* c = code + row;
      for (int h = 0; h < kHoles; ++h) {
        key[h] = off + b[h] + int32_t(c[h]) * stride;
        bad |= uint32_t(key[h]) >= uint32_t(n_bins);
      }
    } else {
      for (int h = 0; h < kHoles; ++h) {
        key[h] = off + b[h];
        bad |= uint32_t(key[h]) >= uint32_t(n_bins);
      }
    }
    if (bad) return -1;
    add(key, values[0], nv == 2 ? values[1] : nullptr, row, weight[i], acc, acc + n_bins);
  }
  return 0;
}

// The community-card solver's 5-card cells, written into their tables: the numpy form is
// gpusim/games/described/community_cells.py's cell_arrays (the packing) and river_decisions.
//
// nb boards of P hands each, in each board's sorted order (sorted_counts' srank, hole, below,
// equal, not_q); the board's row ids[i] of tables (n_rows, 1326). Hand s's showdown counts
// against the `total` dealer hands, q = srank >= qualifier (the player's hand qualifies):
//   sd = [q ? nq : below, q ? 0 : equal, q ? 0 : nq - below - equal, q ? below - nq : 0,
//         q ? equal : 0, total - the others]
// Its high class: high[o + s] when high is given, else the mixed radix over n_hc hands ranked
// as the player's hand, hand k's class class_of[k * 130 + cat * 13 + named] of n_class[k]
// (cat = srank >> 27, 9 for the royal flush: cat 8 whose primary ranks are exactly the ace;
// named = the highest bit of the primary ranks, else of the kickers).
// Its river signature: sig[o + s] when sig is given, else the optimal actions of n_river nodes
// (the program's order) taken child after parent: node r (processed in order proc[0..n_river))
// has children cs[r]..cs[r+1]-1, child c a path (kind 0: value sum_k nets[(ref * 6 + k) *
// n_high + high] * sd[k]) or a river node (kind 1: that node's value, ref its index); the
// first best child is taken. sig = sum over nodes of action x radix weights (mixed radix,
// radix[r] children, the first node most significant).
//   f[cell] = sd[0] | (q ? sd[4] : sd[1]) << 21 | (q ? sd[3] : sd[2]) << 42, n[cell] = 1,
//   rc[cell] = (sig * n_high + high) * 2 + q.
// Returns 0, or -1 for a row outside 0..n_rows-1, a hole outside 0..1325, a class or code out
// of range or a node program out of range (nothing written for that board or after it).
int gpusim_exact_community_cells(int64_t nb, int32_t P, const int64_t* ids, int64_t n_rows,
                                 const uint32_t* srank, const int32_t* hole,
                                 const int32_t* below, const int32_t* equal,
                                 const int32_t* not_q, uint32_t qualifier, int64_t total,
                                 const int64_t* high, int32_t n_hc, const int32_t* n_class,
                                 const int16_t* class_of, int32_t n_high, const int64_t* sig,
                                 int32_t n_river, const int32_t* proc, const int32_t* cs,
                                 const int32_t* kind, const int32_t* ref, const int32_t* radix,
                                 const int64_t* nets, int32_t n_paths, int64_t* f, int16_t* n,
                                 uint8_t* rc) {
  constexpr int kMaxRiver = 16;
  constexpr int kMaxHc = 8;
  if (n_river < 0 || n_river > kMaxRiver || n_hc < 0 || n_hc > kMaxHc || n_high < 1) return -1;
  if (sig == nullptr) {
    for (int r = 0; r < n_river; ++r) {
      if (proc[r] < 0 || proc[r] >= n_river || cs[r] < 0 || cs[r + 1] < cs[r]) return -1;
    }
    for (int c = 0; c < (n_river ? cs[n_river] : 0); ++c) {
      if (kind[c] == 0 ? (ref[c] < 0 || ref[c] >= n_paths)
                       : (kind[c] != 1 || ref[c] < 0 || ref[c] >= n_river)) return -1;
    }
  }
  for (int64_t i = 0; i < nb; ++i) {
    const int64_t o = i * P;
    uint32_t bad = uint64_t(ids[i]) >= uint64_t(n_rows) ? 1u : 0u;
    for (int s = 0; s < P; ++s) bad |= uint32_t(hole[o + s]) >= uint32_t(kHoles);
    if (bad) return -1;
    const int64_t row = ids[i] * kHoles;
    for (int s = 0; s < P; ++s) {
      const uint32_t r = srank[o + s];
      const int q = r >= qualifier ? 1 : 0;
      const int64_t b = below[o + s], e = equal[o + s], nq = not_q[o + s];
      int64_t sd[6];
      sd[0] = q ? nq : b;
      sd[1] = q ? 0 : e;
      sd[2] = q ? 0 : nq - b - e;
      sd[3] = q ? b - nq : 0;
      sd[4] = q ? e : 0;
      sd[5] = total - sd[0] - sd[1] - sd[2] - sd[3] - sd[4];
      int64_t hi = 0;
      if (high != nullptr) {
        hi = high[o + s];
      } else {
        uint32_t cat = r >> 27;
        const uint32_t primary = (r >> 13) & 0x1FFFu;
        if (cat == 8u && primary == (1u << 12)) cat = 9u;
        const uint32_t bits = primary ? primary : (r & 0x1FFFu);
        const int named = bits ? 31 - __builtin_clz(bits) : 0;
        for (int k = 0; k < n_hc; ++k) {
          hi = hi * n_class[k] + class_of[k * 130 + (cat > 9u ? 9 : cat) * 13 + named];
        }
      }
      if (hi < 0 || hi >= n_high) return -1;
      int64_t g = 0;
      if (sig != nullptr) {
        g = sig[o + s];
      } else if (n_river > 0) {
        int64_t value[kMaxRiver];
        int act[kMaxRiver];
        for (int t = 0; t < n_river; ++t) {
          const int node = proc[t];
          int64_t best = 0;
          int arg = 0;
          for (int c = cs[node]; c < cs[node + 1]; ++c) {
            int64_t v;
            if (kind[c] == 0) {
              const int64_t* net = nets + int64_t(ref[c]) * 6 * n_high + hi;
              v = 0;
              for (int k = 0; k < 6; ++k) v += net[k * n_high] * sd[k];
            } else {
              v = value[ref[c]];
            }
            if (c == cs[node] || v > best) {
              best = v;
              arg = c - cs[node];
            }
          }
          value[node] = best;
          act[node] = arg;
        }
        for (int t = 0; t < n_river; ++t) g = g * radix[t] + act[t];
      }
      const int64_t code = (g * n_high + hi) * 2 + q;
      if (code < 0 || code > 255) return -1;
      const int64_t cell = row + hole[o + s];
      f[cell] = sd[0] | ((q ? sd[4] : sd[1]) << 21) | ((q ? sd[3] : sd[2]) << 42);
      n[cell] = 1;
      rc[cell] = uint8_t(code);
    }
  }
  return 0;
}

}  // extern "C"
