"""kernels/rng.cuh and kernels/deal.cuh compiled for the host: bit-identical to gpusim.

A small C++ harness (written and built in a temporary folder; skipped without g++) prints
Threefry outputs and deals rounds; the tests compare them with the Random123 known-answer
vectors, the numpy Threefry and :func:`gpusim.dealing.deal`. The headers are also
compile-checked as CUDA with ``nvcc -x cu -c`` when nvcc is installed.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from gpusim.dealing import MAX_ROUND, deal
from gpusim.dealing_numpy import first_attempt_rejected as _first_attempt_rejected
from gpusim.rng import KAT_VECTORS, threefry2x32_numpy

KERNELS = Path(__file__).resolve().parents[1] / "kernels"

HARNESS = r"""
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include "deal.cuh"

// threefry: stdin lines "rounds k0 k1 c0 c1" (hex words) -> stdout "out0 out1" (hex).
// deal SEED FIRST N K: N rounds of K cards as raw int8 on stdout, row after row.
// deal9 SEED FIRST N: the same through gpusim_deal_n<9>, the kernels' compile-time path.
int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "threefry") == 0) {
    int rounds;
    unsigned k0, k1, c0, c1;
    while (std::scanf("%d %x %x %x %x", &rounds, &k0, &k1, &c0, &c1) == 5) {
      uint32_t y0, y1;
      gpusim_threefry2x32_rounds(rounds, k0, k1, c0, c1, &y0, &y1);
      std::printf("%08x %08x\n", (unsigned)y0, (unsigned)y1);
    }
    return 0;
  }
  const bool deal9 = argc == 5 && std::strcmp(argv[1], "deal9") == 0;
  if (deal9 || (argc == 6 && std::strcmp(argv[1], "deal") == 0)) {
    const unsigned long long seed = std::strtoull(argv[2], nullptr, 10);
    const unsigned long long first = std::strtoull(argv[3], nullptr, 10);
    const long n = std::atol(argv[4]);
    const int k = deal9 ? 9 : std::atoi(argv[5]);
    std::vector<signed char> out((size_t)n * (size_t)k);
    int cards[52];
    for (long r = 0; r < n; ++r) {
      const unsigned long long round = first + (unsigned long long)r;
      if (deal9) {
        gpusim_deal_n<9>((uint32_t)seed, (uint32_t)(seed >> 32), round, cards);
      } else {
        gpusim_deal((uint32_t)seed, (uint32_t)(seed >> 32), round, k, cards);
      }
      for (int i = 0; i < k; ++i) out[(size_t)r * k + i] = (signed char)cards[i];
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
  }
  std::fprintf(stderr, "usage: harness threefry | deal SEED FIRST N K | deal9 SEED FIRST N\n");
  return 2;
}
"""

CUDA_PROBE = r"""
#include "deal.cuh"

__global__ void probe(uint32_t k0, uint32_t k1, unsigned long long first, int* out) {
  const unsigned long long r = first + blockIdx.x * blockDim.x + threadIdx.x;
  int cards[9];
  gpusim_deal(k0, k1, r, 9, cards);
  uint32_t y0, y1;
  gpusim_threefry2x32(k0, k1, (uint32_t)r, 0u, &y0, &y1);
  int acc = (int)(y0 ^ y1);
  for (int i = 0; i < 9; ++i) acc = acc * 53 + cards[i];
  out[r - first] = acc;
}
"""


@pytest.fixture(scope="module")
def harness(tmp_path_factory) -> Path:
    gxx = shutil.which("g++")
    if gxx is None:
        pytest.skip("g++ is not installed")
    work = tmp_path_factory.mktemp("rng_host")
    src = work / "harness.cpp"
    src.write_text(HARNESS)
    exe = work / "harness"
    cmd = [gxx, "-O2", "-std=c++17", "-Wall", "-Wextra", "-Werror", f"-I{KERNELS}"]
    proc = subprocess.run(
        [*cmd, str(src), "-o", str(exe)], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    return exe


def _host_deal(exe: Path, seed: int, first: int, n: int, k: int, mode: str = "deal") -> np.ndarray:
    """Rounds first.. of seed, (n, k); mode "deal9" (k = 9) uses the compile-time path."""
    args = [str(exe), mode, str(seed), str(first), str(n)] + ([str(k)] if mode == "deal" else [])
    out = subprocess.run(
        args,
        check=True,
        capture_output=True,
        timeout=120,
    ).stdout
    return np.frombuffer(out, dtype=np.int8).reshape(n, k).astype(np.int32)


def _host_threefry(exe: Path, rows) -> list[tuple[int, int]]:
    text = "".join(f"{r} {k0:x} {k1:x} {c0:x} {c1:x}\n" for r, k0, k1, c0, c1 in rows)
    out = subprocess.run(
        [str(exe), "threefry"], input=text, check=True, capture_output=True, text=True
    ).stdout
    return [tuple(int(w, 16) for w in line.split()) for line in out.splitlines()]


def test_host_threefry_known_answers(harness):
    rows = [(r, key[0], key[1], ctr[0], ctr[1]) for r, ctr, key, _ in KAT_VECTORS]
    assert _host_threefry(harness, rows) == [out for *_, out in KAT_VECTORS]


def test_host_threefry_matches_numpy(harness):
    words = np.random.default_rng(11).integers(0, 2**32, size=(2000, 4), dtype=np.uint64)
    rows = [(20, *map(int, w)) for w in words]
    y0, y1 = threefry2x32_numpy(words[:, 0], words[:, 1], words[:, 2], words[:, 3])
    assert _host_threefry(harness, rows) == list(zip(y0.tolist(), y1.tolist(), strict=True))


@pytest.mark.parametrize(
    ("seed", "first", "n", "k"),
    [
        (0, 0, 4096, 9),
        (2**64 - 1, 2**35, 1024, 9),
        (20240601, 2**32 - 500, 1024, 5),  # round index crosses into the high word
        (987654321, 123456, 256, 52),  # five blocks
        (5, MAX_ROUND - 1024, 1024, 13),
        (77, 10, 1024, 1),
    ],
)
def test_host_deal_matches_jax(harness, seed, first, n, k):
    expect = np.asarray(deal(seed, first, n, k))
    np.testing.assert_array_equal(_host_deal(harness, seed, first, n, k), expect)


@pytest.mark.parametrize(
    ("seed", "first", "n"),
    [(0, 0, 4096), (2**64 - 1, 2**35, 1024), (20240601, 2**32 - 500, 1024),
     (5, MAX_ROUND - 1024, 1024)],
)  # fmt: skip
def test_host_deal9_constant_path_matches_jax(harness, seed, first, n):
    """gpusim_deal_n<9> (block product and threshold folded at compile time), which the kernels
    use, deals the same cards as gpusim.dealing."""
    expect = np.asarray(deal(seed, first, n, 9))
    np.testing.assert_array_equal(_host_deal(harness, seed, first, n, 9, "deal9"), expect)


@pytest.mark.parametrize("mode", ["deal", "deal9"])
def test_host_deal_matches_jax_on_rejected_rounds(harness, mode):
    """Rounds whose first Threefry word is rejected (about 1 in 100,000 for 9 cards)."""
    seed, n = 7, 10**6
    rejected = np.flatnonzero(_first_attempt_rejected(seed, 0, n, 9).any(axis=1))
    assert rejected.size >= 3
    for r in rejected[:5].tolist():
        first = max(0, r - 100)
        expect = np.asarray(deal(seed, first, 256, 9))
        np.testing.assert_array_equal(_host_deal(harness, seed, first, 256, 9, mode), expect)


def test_headers_compile_as_cuda(tmp_path):
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        pytest.skip("nvcc is not installed")
    src = tmp_path / "probe.cu"
    src.write_text(CUDA_PROBE)
    proc = subprocess.run(
        [nvcc, "-x", "cu", "-std=c++17", f"-I{KERNELS}", "-c", str(src), "-o",
         str(tmp_path / "probe.o")],
        capture_output=True,
        text=True,
        timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
