// Host-only helpers for the programs that run the kernels' device functions on the CPU (the
// test harnesses in tests/test_kernels_*_host.py and benchmarks/native_ref.cpp): raw binary
// files in and out, and the strategy tables of kernels/strategy_common.cuh read from the
// folder where the Python side wrote them (one <name>.bin per table).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "strategy_common.cuh"  // GpusimTables

template <class T>
static std::vector<T> load(const std::string& path) {
  std::vector<T> out;
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return out;
  T buf[4096];
  size_t got;
  while ((got = std::fread(buf, sizeof(T), 4096, f)) > 0) out.insert(out.end(), buf, buf + got);
  std::fclose(f);
  return out;
}

template <class T>
static void save(const std::string& path, const std::vector<T>& v) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) std::exit(3);
  std::fwrite(v.data(), sizeof(T), v.size(), f);
  std::fclose(f);
}

struct TableFiles {
  std::vector<uint8_t> call, preflop, turn, river;
  std::vector<int32_t> grid, raw3_class, raw4_class;
  std::vector<int8_t> raw3_perm, raw4_perm, new_suit;
  GpusimTables t;
  explicit TableFiles(const std::string& d) {
    call = load<uint8_t>(d + "/call.bin");
    preflop = load<uint8_t>(d + "/preflop.bin");
    turn = load<uint8_t>(d + "/turn.bin");
    river = load<uint8_t>(d + "/river.bin");
    grid = load<int32_t>(d + "/grid.bin");
    raw3_class = load<int32_t>(d + "/raw3_class.bin");
    raw4_class = load<int32_t>(d + "/raw4_class.bin");
    raw3_perm = load<int8_t>(d + "/raw3_perm.bin");
    raw4_perm = load<int8_t>(d + "/raw4_perm.bin");
    new_suit = load<int8_t>(d + "/new_suit.bin");
    t.call = call.data();
    t.preflop = preflop.data();
    t.grid = grid.data();
    t.turn = turn.data();
    t.river = river.data();
    t.raw3_class = raw3_class.data();
    t.raw3_perm = raw3_perm.data();
    t.raw4_class = raw4_class.data();
    t.raw4_perm = raw4_perm.data();
    t.new_suit = new_suit.data();
  }
};
