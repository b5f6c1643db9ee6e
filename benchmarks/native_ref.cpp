// Native reference for benchmarks/native.py: the project's own CUDA device functions
// (kernels/*.cuh, the code the tests host-compile) built for the CPU with
// g++ -O3 -march=native and run on every core with std::thread.
//
// It plays exactly the rounds the simulator plays (same deal, decisions, settlement and joint
// outcome codes), so its histograms are compared with the JAX path's count for count before
// any rate is believed.
//
//   native_ref eval N THREADS REPEATS
//       7-card evaluations/s over N hands dealt by gpusim_deal (seed 1, rounds 0..N-1).
//   native_ref chunk ch|thb STRATEGY TABLEDIR SEED N ARG THREADS REPEATS OUT
//       steady state: REPEATS timed chunks of N rounds (rounds (k+1)N .. (k+2)N-1, after one
//       warm-up chunk at 0..N-1), median rounds/s; OUT gets the warm-up chunk's counts.
//   native_ref run ch|thb STRATEGY TABLEDIR SEED N ARG THREADS OUT
//       a whole run of rounds 0..N-1 (the caller times the process); OUT gets the counts.
//
// ARG: "qualifier,has_aa" (ch) or the flag word (thb), as the CUDA kernels take them.
// Counts file: max-bins uint64 counts, the royal count, then (offset << 16 | code) words in
// round order. Every line on stdout is one JSON object.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "deal.cuh"
#include "host_io.h"
#include "settle_casino_holdem.cuh"
#include "settle_holdem_bonus.cuh"


struct Counts {
  std::vector<unsigned long long> bins;
  std::vector<unsigned long long> royal;  // (offset << 16 | code), in round order
};

struct Game {
  bool ch;
  int strategy;
  uint32_t k0, k1;
  unsigned qualifier;
  bool has_aa;
  int flags;
  const GpusimTables* t;
};

// The strategy is a template parameter so that, as in the CUDA kernel (a #define), the
// compiler folds the decision to one branch.
template <int S>
static void play_ch(const Game& g, uint64_t first, uint64_t n, Counts* out) {
  unsigned long long* bins = out->bins.data();
  for (uint64_t i = 0; i < n; ++i) {
    bins[gpusim_ch_play_round(g.k0, g.k1, first + i, S, g.qualifier, g.has_aa, *g.t)]++;
  }
}

template <int S>
static void play_thb(const Game& g, uint64_t first, uint64_t n, uint64_t base, Counts* out) {
  unsigned long long* bins = out->bins.data();
  const bool has_bonus = g.flags & 1, has_jackpot = g.flags & 2, all_seven = g.flags & 4;
  for (uint64_t i = 0; i < n; ++i) {
    bool royal;
    const int code = gpusim_thb_play_round(g.k0, g.k1, first + i, S, has_bonus, has_jackpot,
                                           all_seven, *g.t, &royal);
    if (royal) {
      out->royal.push_back(((first + i - base) << 16) | (unsigned)code);
    } else {
      bins[code]++;
    }
  }
}

static void play_part(const Game& g, uint64_t first, uint64_t n, uint64_t base, Counts* out) {
  if (g.ch) {
    switch (g.strategy) {
      case GPUSIM_STRAT_BASIC: play_ch<GPUSIM_STRAT_BASIC>(g, first, n, out); break;
      case GPUSIM_STRAT_SIDE_BET: play_ch<GPUSIM_STRAT_SIDE_BET>(g, first, n, out); break;
      case GPUSIM_STRAT_TABLE: play_ch<GPUSIM_STRAT_TABLE>(g, first, n, out); break;
      default: play_ch<GPUSIM_STRAT_ALWAYS>(g, first, n, out);
    }
  } else {
    switch (g.strategy) {
      case GPUSIM_STRAT_BASIC: play_thb<GPUSIM_STRAT_BASIC>(g, first, n, base, out); break;
      case GPUSIM_STRAT_TABLE: play_thb<GPUSIM_STRAT_TABLE>(g, first, n, base, out); break;
      default: play_thb<GPUSIM_STRAT_ALWAYS>(g, first, n, base, out);
    }
  }
}

// Rounds first .. first+n-1 split into one contiguous slice per thread; per-thread counts are
// summed afterwards (no shared counters in the loop).
static Counts play(const Game& g, uint64_t first, uint64_t n, int threads) {
  const size_t n_bins = g.ch ? GPUSIM_CH_MAX_BINS : GPUSIM_THB_MAX_BINS;
  std::vector<Counts> parts(threads);
  std::vector<std::thread> pool;
  for (int k = 0; k < threads; ++k) {
    parts[k].bins.assign(n_bins, 0ull);
    const uint64_t a = first + n * k / threads, b = first + n * (k + 1) / threads;
    pool.emplace_back(play_part, std::cref(g), a, b - a, first, &parts[k]);
  }
  for (auto& th : pool) th.join();
  Counts out;
  out.bins.assign(n_bins, 0ull);
  for (const Counts& p : parts) {
    for (size_t i = 0; i < n_bins; ++i) out.bins[i] += p.bins[i];
    out.royal.insert(out.royal.end(), p.royal.begin(), p.royal.end());
  }
  return out;
}

static void save(const std::string& path, const Counts& c) {
  std::vector<unsigned long long> words(c.bins);
  words.push_back(c.royal.size());
  words.insert(words.end(), c.royal.begin(), c.royal.end());
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) std::exit(3);
  std::fwrite(words.data(), sizeof(unsigned long long), words.size(), f);
  std::fclose(f);
}

static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

static int run_eval(uint64_t n, int threads, int repeats) {
  std::vector<int32_t> hands(7 * n);
  for (uint64_t i = 0; i < n; ++i) gpusim_deal(1u, 0u, i, 7, &hands[7 * i]);
  std::vector<uint32_t> acc(threads);
  std::vector<double> times;
  for (int rep = 0; rep < repeats + 1; ++rep) {
    const double t0 = now();
    std::vector<std::thread> pool;
    for (int k = 0; k < threads; ++k) {
      pool.emplace_back([&, k] {
        uint32_t x = 0;
        for (uint64_t i = n * k / threads; i < n * (k + 1) / threads; ++i) {
          x += gpusim_evaluate(&hands[7 * i], 7);
        }
        acc[k] = x;
      });
    }
    for (auto& th : pool) th.join();
    if (rep > 0) times.push_back(now() - t0);  // the first pass warms caches and threads
  }
  uint32_t check = 0;
  for (uint32_t x : acc) check += x;
  std::printf("{\"mode\": \"eval\", \"hands\": %llu, \"threads\": %d, \"evals_per_s\": %.1f, "
              "\"checksum\": %u}\n",
              (unsigned long long)n, threads, n / median(times), check);
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const std::string mode = argv[1];
  if (mode == "eval" && argc == 5) {
    return run_eval(std::strtoull(argv[2], nullptr, 10), std::atoi(argv[3]), std::atoi(argv[4]));
  }
  const bool chunk = mode == "chunk" && argc == 11;
  if (!chunk && !(mode == "run" && argc == 10)) {
    std::fprintf(stderr, "bad arguments\n");
    return 2;
  }
  Game g;
  g.ch = std::strcmp(argv[2], "ch") == 0;
  g.strategy = std::atoi(argv[3]);
  TableFiles tf(argv[4]);
  g.t = &tf.t;
  const unsigned long long seed = std::strtoull(argv[5], nullptr, 10);
  g.k0 = (uint32_t)seed;
  g.k1 = (uint32_t)(seed >> 32);
  const uint64_t n = std::strtoull(argv[6], nullptr, 10);
  g.qualifier = 0;
  g.has_aa = false;
  g.flags = 0;
  if (g.ch) {
    int has_aa;
    if (std::sscanf(argv[7], "%u,%d", &g.qualifier, &has_aa) != 2) return 2;
    g.has_aa = has_aa != 0;
  } else {
    g.flags = std::atoi(argv[7]);
  }
  const int threads = std::atoi(argv[8]);
  if (!chunk) {
    save(argv[9], play(g, 0, n, threads));
    return 0;
  }
  const int repeats = std::atoi(argv[9]);
  save(argv[10], play(g, 0, n, threads));
  std::vector<double> times;
  for (int k = 0; k < repeats; ++k) {
    const double t0 = now();
    play(g, (k + 1) * n, n, threads);
    times.push_back(now() - t0);
  }
  std::printf("{\"mode\": \"chunk\", \"rounds\": %llu, \"threads\": %d, \"rounds_per_s\": %.1f}\n",
              (unsigned long long)n, threads, n / median(times));
  return 0;
}
