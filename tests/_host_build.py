"""Shared by the host-compiled kernel tests (``tests/test_kernels_*_host.py``): building a C++
harness that includes the kernels' headers with g++ (the test skips without it), the random
rounds such a harness plays, and the harness of the Casino Hold'em and street-bets (Texas Hold'em
Bonus) kernels (:data:`HARNESS`, tests/test_kernels_settle_host.py and
tests/test_streets_kernel_host.py)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

KERNELS = Path(__file__).resolve().parents[1] / "kernels"

HARNESS = r"""
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include "host_io.h"
#include "settle_casino_holdem.cuh"
#include "settle_holdem_bonus.cuh"


// settle ch|thb RULES CARDS DECISIONS OUT: rules as int32 words (struct order); cards n x 9
//   int32; decisions n x 3 uint8 (ch: call first). OUT per round int32: events, stakes, nets
//   (3 or 6 bets each), then player rank, dealer rank.
// decide ch|thb STRATEGY TABLEDIR CARDS OUT: n x 3 uint8 decisions.
// chunk ch|thb STRATEGY TABLEDIR SEED FIRST N ARG OUT: the kernel's loop on the host; ARG is
//   "qualifier,has_aa" (ch) or the flags (thb). OUT: max-bins uint64 counts, then the royal
//   count and its (offset << 16 | code) words.
int main(int argc, char** argv) {
  if (argc < 3) return 2;
  const std::string mode = argv[1];
  const bool ch = std::strcmp(argv[2], "ch") == 0;
  if (mode == "settle" && argc == 7) {
    const std::vector<int32_t> words = load<int32_t>(argv[3]);
    const std::vector<int32_t> cards = load<int32_t>(argv[4]);
    const std::vector<uint8_t> dec = load<uint8_t>(argv[5]);
    const size_t n = cards.size() / 9;
    std::vector<int32_t> out;
    if (ch) {
      GpusimChRules r;
      if (words.size() * 4 != sizeof(r)) return 4;
      std::memcpy(&r, words.data(), sizeof(r));
      for (size_t i = 0; i < n; ++i) {
        const GpusimChSettlement s = gpusim_ch_settle(&cards[9 * i], dec[3 * i] != 0, r);
        const int32_t row[11] = {s.events.ante, s.events.call, s.events.aa_bonus, s.stake[0],
                                 s.stake[1], s.stake[2], s.net[0], s.net[1], s.net[2],
                                 (int32_t)s.events.player_rank, (int32_t)s.events.dealer_rank};
        out.insert(out.end(), row, row + 11);
      }
    } else {
      GpusimThbRules r;
      if (words.size() * 4 != sizeof(r)) return 4;
      std::memcpy(&r, words.data(), sizeof(r));
      for (size_t i = 0; i < n; ++i) {
        GpusimThbDecision d;
        d.flop = dec[3 * i] != 0;
        d.turn = dec[3 * i + 1] != 0;
        d.river = dec[3 * i + 2] != 0;
        const GpusimThbSettlement s = gpusim_thb_settle(&cards[9 * i], d, r);
        const GpusimThbEvents& e = s.events;
        const int32_t ev[6] = {e.ante, e.flop, e.turn, e.river, e.bonus, e.jackpot};
        out.insert(out.end(), ev, ev + 6);
        out.insert(out.end(), s.stake, s.stake + 6);
        out.insert(out.end(), s.net, s.net + 6);
        out.push_back((int32_t)e.player_rank);
        out.push_back((int32_t)e.dealer_rank);
      }
    }
    save(argv[6], out);
    return 0;
  }
  if (mode == "decide" && argc == 7) {
    const int strategy = std::atoi(argv[3]);
    TableFiles tf(argv[4]);
    const std::vector<int32_t> cards = load<int32_t>(argv[5]);
    const size_t n = cards.size() / 9;
    std::vector<uint8_t> out(3 * n, 0);
    for (size_t i = 0; i < n; ++i) {
      if (ch) {
        out[3 * i] = gpusim_ch_decide(strategy, &cards[9 * i], tf.t);
      } else {
        const GpusimThbDecision d = gpusim_thb_decide(strategy, &cards[9 * i], tf.t);
        out[3 * i] = d.flop;
        out[3 * i + 1] = d.turn;
        out[3 * i + 2] = d.river;
      }
    }
    save(argv[6], out);
    return 0;
  }
  if (mode == "chunk" && argc == 10) {
    const int strategy = std::atoi(argv[3]);
    TableFiles tf(argv[4]);
    const unsigned long long seed = std::strtoull(argv[5], nullptr, 10);
    const unsigned long long first = std::strtoull(argv[6], nullptr, 10);
    const unsigned long long n = std::strtoull(argv[7], nullptr, 10);
    const uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
    std::vector<unsigned long long> bins(ch ? GPUSIM_CH_MAX_BINS : GPUSIM_THB_MAX_BINS, 0ull);
    std::vector<unsigned long long> royal;
    if (ch) {
      unsigned qualifier;
      int has_aa;
      if (std::sscanf(argv[8], "%u,%d", &qualifier, &has_aa) != 2) return 2;
      for (unsigned long long i = 0; i < n; ++i) {
        bins[gpusim_ch_play_round(k0, k1, first + i, strategy, qualifier, has_aa != 0, tf.t)]++;
      }
    } else {
      const int flags = std::atoi(argv[8]);
      for (unsigned long long i = 0; i < n; ++i) {
        bool is_royal;
        const int code = gpusim_thb_play_round(k0, k1, first + i, strategy, flags & 1, flags & 2,
                                               flags & 4, tf.t, &is_royal);
        if (is_royal) {
          royal.push_back((i << 16) | (unsigned)code);
        } else {
          bins[code]++;
        }
      }
    }
    bins.push_back(royal.size());
    bins.insert(bins.end(), royal.begin(), royal.end());
    save(argv[9], bins);
    return 0;
  }
  std::fprintf(stderr, "bad arguments\n");
  return 2;
}
"""
"""The C++ harness of ``kernels/casino_holdem.cu``'s and ``kernels/holdem_bonus.cu``'s headers
(its modes: its comment)."""


def build_harness(tmp_path_factory, name: str, source: str) -> Path:
    """The harness ``source`` compiled (warnings are errors) in a fresh temporary folder
    ``name``; its executable, beside which the tests write their input and output files."""
    gxx = shutil.which("g++")
    if gxx is None:
        pytest.skip("g++ is not installed")
    work = tmp_path_factory.mktemp(name)
    src = work / "harness.cpp"
    src.write_text(source)
    exe = work / "harness"
    cmd = [gxx, "-O2", "-std=c++17", "-Wall", "-Wextra", "-Werror", f"-I{KERNELS}"]
    proc = subprocess.run([*cmd, str(src), "-o", str(exe)], capture_output=True, text=True,
                          timeout=300)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return exe


def random_rounds(n: int, seed: int) -> np.ndarray:
    """(n, 9) int32 distinct cards per round, by an independent generator (numpy)."""
    keys = np.random.default_rng(seed).random((n, 52))
    return np.argsort(keys, axis=1)[:, :9].astype(np.int32)


def table_dir(exe: Path, spec) -> Path:
    """A folder beside the harness with a kernel strategy's tables (``spec.tables``: {name:
    array}), one raw ``<name>.bin`` each, as the harness's TableFiles reads them."""
    d = exe.parent / f"tables_{spec.name}_{len(spec.tables)}_{id(spec)}"
    d.mkdir(exist_ok=True)
    for key, arr in spec.tables.items():
        np.ascontiguousarray(arr).tofile(d / f"{key}.bin")
    return d


def host_decide(exe: Path, game: str, spec, cards: np.ndarray) -> np.ndarray:
    """(N, 3) bool: the harness's ``decide`` for ``game`` (``ch`` or ``thb``): the kernel's
    decisions on ``cards`` (a bet placed at each point, in the game's point order)."""
    import subprocess

    work = exe.parent
    np.ascontiguousarray(cards, np.int32).tofile(work / "dcards.bin")
    subprocess.run([str(exe), "decide", game, str(spec.code), str(table_dir(exe, spec)),
                    str(work / "dcards.bin"), str(work / "dout.bin")], check=True, timeout=300)
    return np.fromfile(work / "dout.bin", np.uint8).reshape(len(cards), 3).astype(bool)
