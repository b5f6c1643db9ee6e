"""The exact kernels' device functions compiled for the host (g++), count for count against the
CPU solver.

A C++ harness includes ``kernels/exact_holdem_bonus.cuh`` and ``kernels/exact_casino_holdem.cuh``
(the headers the CUDA kernels are built from) and runs a kernel block's phases serially over
the board classes of a launch. A stand-in ``cupy`` module (numpy arrays, the harness as the
kernel) lets :func:`gpusim.games.holdem.streets_cupy.solve_river_cupy` and
``solve_counts_cupy`` run unchanged: launches, row slicing, totals across launches and the
assembly into the solvers' result types. Their results must equal
:func:`gpusim.games.holdem.streets_counts.solve_river` /
:func:`gpusim.games.holdem.call_once_counts.solve_counts` on a subset of board classes, every array
exactly.

The ``.cu`` files are also compile-checked with nvcc, and the inlined source the backend hands
to CuPy with NVRTC (each skipped when its compiler is absent).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gpusim.board_index import board_classes
from gpusim.exact import cupy_counts as xb
from gpusim.games.holdem import call_once_cupy as ch_cupy
from gpusim.games.holdem import streets_cupy as thb_cupy

KERNELS = Path(__file__).resolve().parents[1] / "kernels"

HARNESS = r"""
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include "exact_casino_holdem.cuh"
#include "exact_holdem_bonus.cuh"
#include "host_io.h"

// One block of the kernel, its phases run in order by one "thread" (tid 0 of 1).
static int thb(const std::string& d, int ante_from) {
  const auto boards = load<int32_t>(d + "/boards4.bin");
  const auto weights = load<long long>(d + "/weights.bin");
  const auto hole_class = load<int16_t>(d + "/hole_class.bin");
  const size_t n = weights.size();
  std::vector<uint16_t> W(n * 1326), L(n * 1326), WX(n * 1326);
  std::vector<unsigned long long> cw(1690), ch(1690), ct(169), cl(169);
  const GpusimThbRiverOut out = {W.data(), L.data(), WX.data(), cw.data(), ch.data(), ct.data(),
                                 cl.data()};
  static GpusimExactBoard s;
  static GpusimThbRiverAcc acc;
  gpusim_ex_init_pairs(&s, 0, 1);
  for (size_t row = 0; row < n; ++row) {
    const int32_t* b4 = &boards[4 * row];
    gpusim_thb_river_zero(&acc, 0, 1);
    for (int river = 0; river < 52; ++river) {
      if (river == b4[0] || river == b4[1] || river == b4[2] || river == b4[3]) continue;
      gpusim_thb_river_board(&s, b4, river);
      gpusim_ex_rank_hands(&s, 0u, 0, 1);
      gpusim_thb_river_count(&s, &acc, hole_class.data(), ante_from, 0, 1);
    }
    gpusim_thb_river_flush(&acc, weights[row], (int)row, out, 0, 1);
  }
  save(d + "/W.bin", W);
  save(d + "/L.bin", L);
  save(d + "/WX.bin", WX);
  save(d + "/class_wins.bin", cw);
  save(d + "/class_hands.bin", ch);
  save(d + "/class_ties.bin", ct);
  save(d + "/class_losses.bin", cl);
  return 0;
}

// One block of the Casino Hold'em kernel per flop class, serially.
static int ch(const std::string& d, uint32_t qualifier) {
  const auto flops = load<int32_t>(d + "/flops.bin");
  const size_t n = flops.size() / 3;
  std::vector<uint32_t> counts(n * 1326 * GPUSIM_CH_EVENTS);
  static GpusimExactBoard s;
  gpusim_ex_init_pairs(&s, 0, 1);
  for (size_t row = 0; row < n; ++row) {
    const int32_t* f = &flops[3 * row];
    uint32_t* c = &counts[row * 1326 * GPUSIM_CH_EVENTS];
    for (int turn = 0; turn < 52; ++turn) {
      if (turn == f[0] || turn == f[1] || turn == f[2]) continue;
      for (int river = turn + 1; river < 52; ++river) {
        if (river == f[0] || river == f[1] || river == f[2]) continue;
        gpusim_ch_flop_board(&s, f, turn, river);
        gpusim_ex_rank_hands(&s, qualifier, 0, 1);
        gpusim_ch_flop_count(&s, c, qualifier, 0, 1);
      }
    }
  }
  save(d + "/counts.bin", counts);
  return 0;
}

// usage: harness thb DIR ANTE_FROM | harness ch DIR QUALIFIER
int main(int argc, char** argv) {
  if (argc != 4) return 2;
  const std::string game = argv[1];
  if (game == "thb") return thb(argv[2], std::atoi(argv[3]));
  if (game == "ch") return ch(argv[2], (uint32_t)std::strtoul(argv[3], nullptr, 10));
  return 2;
}
"""


@pytest.fixture(scope="module")
def harness(tmp_path_factory) -> Path:
    gxx = shutil.which("g++")
    if gxx is None:
        pytest.skip("g++ not found")
    work = tmp_path_factory.mktemp("exacthost")
    src = work / "harness.cpp"
    src.write_text(HARNESS)
    exe = work / "harness"
    cmd = [gxx, "-O3", "-std=c++17", "-Wall", "-Wextra", "-Werror", f"-I{KERNELS}", str(src),
           "-o", str(exe)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return exe


def _thb_ids() -> np.ndarray:
    """Board classes with every kind of board: the first and last classes (quads, trips,
    four-flushes), plus a fixed random sample."""
    n = board_classes(4).n_classes
    rng = np.random.default_rng(2026)
    return np.unique(np.concatenate([[0, 1, n - 2, n - 1], rng.choice(n, 20, replace=False)]))


def _host_thb(exe: Path, work: Path, ids: np.ndarray, ante_from: int):
    from gpusim.games.holdem.streets_counts import HOLE_CLASS

    b4 = board_classes(4)
    work.mkdir(parents=True, exist_ok=True)
    np.ascontiguousarray(b4.reps[ids], np.int32).tofile(work / "boards4.bin")
    np.ascontiguousarray(b4.weights[ids], np.int64).tofile(work / "weights.bin")
    HOLE_CLASS.astype(np.int16).tofile(work / "hole_class.bin")
    subprocess.run([str(exe), "thb", str(work), str(ante_from)], check=True)
    m = len(ids)
    rows = {k: np.fromfile(work / f"{k}.bin", np.uint16).reshape(m, 1326) for k in ("W", "L", "WX")}
    for k in ("class_wins", "class_hands", "class_ties", "class_losses"):
        rows[k] = np.fromfile(work / f"{k}.bin", np.uint64)
    return thb_cupy.river_counts_from_rows(ids, rows, ante_from)


def test_thb_comparison_can_fail(harness, tmp_path):
    """A different Ante threshold changes the host counts (so the comparison sees the rule),
    and they still equal the CPU solver's."""
    from gpusim.games.holdem.streets_counts import solve_river

    ids = _thb_ids()[:3]
    a = _host_thb(harness, tmp_path / "a", ids, 4)
    b = _host_thb(harness, tmp_path / "b", ids, 8)
    assert np.array_equal(a.W, b.W) and not np.array_equal(a.WX, b.WX)
    assert np.array_equal(b.WX, solve_river(8, board_ids=ids).WX)


def _ch_ids() -> np.ndarray:
    """Trips (class 0), a monotone A-K-Q (royal flushes, flushes) and one fixed random class: a
    flop class is 1,176 boards (about 1 s of CPU on each side), so the sample is small."""
    b3 = board_classes(3)
    monotone, _ = b3.lookup(np.array([[40, 44, 48]]))
    rng = np.random.default_rng(2027)
    return np.unique(np.concatenate([[0], monotone, rng.choice(b3.n_classes, 1, replace=False)]))


# --- the CuPy glue, with the host build standing in for the GPU ----------------------------------


class _HostKernel:
    """Called as a CuPy RawKernel is, ``(grid, block, args)``; runs the harness on the launch's
    rows and writes its outputs into the (numpy) argument arrays as the kernel would."""

    def __init__(self, exe: Path, work: Path, name: str):
        self.exe, self.work, self.name, self.launches = exe, work, name, 0

    def __call__(self, grid, block, args):
        from gpusim.games.holdem.streets_counts import HOLE_CLASS

        d = self.work / f"launch{self.launches}"
        d.mkdir()
        self.launches += 1
        if self.name == "gpusim_exact_thb_river":
            boards, weights, n, ante_from, hole_class, *outs = args
            assert grid == (int(n),) and np.array_equal(hole_class, HOLE_CLASS)
            boards.tofile(d / "boards4.bin")
            weights.tofile(d / "weights.bin")
            hole_class.tofile(d / "hole_class.bin")
            subprocess.run([str(self.exe), "thb", str(d), str(int(ante_from))], check=True)
            for arr, k in zip(outs[:3], ("W", "L", "WX"), strict=True):
                arr[...] = np.fromfile(d / f"{k}.bin", np.uint16).reshape(arr.shape)
            for arr, k in zip(outs[3:], ("class_wins", "class_hands", "class_ties",
                                         "class_losses"), strict=True):
                arr += np.fromfile(d / f"{k}.bin", np.uint64)
        else:
            flops, n, qualifier, counts = args
            assert grid == (int(n),)
            flops.tofile(d / "flops.bin")
            subprocess.run([str(self.exe), "ch", str(d), str(int(qualifier))], check=True)
            counts[...] = np.fromfile(d / "counts.bin", np.uint32).reshape(counts.shape)


@pytest.fixture()
def host_cupy(harness, tmp_path, monkeypatch):
    """A stand-in ``cupy`` module backed by numpy, whose kernels run the host build."""
    import sys
    import types

    kernels = []

    class RawModule:
        def __init__(self, code, options):
            assert "gpusim_exact_" in code and f"-DGPUSIM_BLOCK={xb.BLOCK}" in options

        def compile(self):
            pass

        def get_function(self, name):
            kernels.append(_HostKernel(harness, tmp_path, name))
            return kernels[-1]

    fake = types.ModuleType("cupy")
    fake.asarray, fake.zeros, fake.asnumpy = np.asarray, np.zeros, np.asarray
    fake.uint16, fake.uint32, fake.uint64 = np.uint16, np.uint32, np.uint64
    fake.RawModule = RawModule
    fake.cuda = types.SimpleNamespace(
        Device=lambda: types.SimpleNamespace(id=0),
        runtime=types.SimpleNamespace(getDeviceCount=lambda: 1),
    )
    monkeypatch.setitem(sys.modules, "cupy", fake)
    # the backend's availability probe is cached per process (and wants CUDA headers); the stand-in
    # is usable by construction
    monkeypatch.setattr(xb, "unavailable_reason", lambda: None)
    xb.kernel.cache_clear()
    yield kernels
    xb.kernel.cache_clear()


def test_thb_river_counts_equal_cpu_solver(host_cupy, monkeypatch):
    """solve_river_cupy with the host build as its kernel equals the CPU solver, every array;
    the classes go over three launches, whose class totals add up."""
    from gpusim.games.holdem.streets_counts import solve_river

    monkeypatch.setattr(thb_cupy, "_LAUNCHES", 3)
    ids = _thb_ids()
    seen = []
    got = thb_cupy.solve_river_cupy(4, board_ids=ids, progress=lambda d, t: seen.append((d, t)))
    want = solve_river(4, board_ids=ids)
    assert host_cupy[0].launches == 3 and seen[-1] == (len(ids), len(ids))
    for name in ("W", "L", "WX", "valid", "class_wins", "class_ties", "class_losses",
                 "class_hands", "boards", "weights"):
        a, b = getattr(got, name), getattr(want, name)
        assert a.dtype == b.dtype and a.shape == b.shape, name
        assert np.array_equal(a, b), name
    assert got.ante_from == want.ante_from == 4  # a straight, as in every shipped config
    # Not vacuous: the sample holds wins, ties, Ante-paying wins and royal flushes.
    assert got.W[ids].any() and got.WX[ids].any() and got.class_ties.any()
    assert got.class_hands[:, 9].any()
    assert not np.array_equal(got.WX, got.W)


def test_ch_counts_equal_cpu_solver(host_cupy):
    """solve_counts_cupy with the host build as its kernel equals the CPU solver (two
    launches)."""
    from _call_once import qualifier_rank, solve_counts

    from gpusim.config import load_config

    q = qualifier_rank(load_config("casino_holdem"))
    ids = _ch_ids()
    got = ch_cupy.solve_counts_cupy(q, flop_ids=ids)
    want = solve_counts(q, flop_ids=ids)
    assert host_cupy[0].launches == 2
    for name in ("counts", "valid", "bonus_rank", "flops", "weights"):
        a, b = getattr(got, name), getattr(want, name)
        assert a.dtype == b.dtype and a.shape == b.shape, name
        assert np.array_equal(a, b), name
    assert got.qualifier == want.qualifier
    c = got.counts[ids]
    # Not vacuous: every kind of outcome occurs in the sample, royal flushes included.
    assert c[..., :10].any() and c[..., 10:20].any() and c[..., 20].any() and c[..., 21].any()
    assert c[..., 9].any() and c[..., 19].any()


# --- compile checks -----------------------------------------------------------------------------

_GAMES = ["exact_holdem_bonus", "exact_casino_holdem"]


def test_exact_kernels_compile_with_nvcc(tmp_path):
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        pytest.skip("nvcc is not installed")
    # One invocation for both (nvcc's start-up dominates); objects land in cwd.
    proc = subprocess.run(
        [nvcc, "-x", "cu", "-std=c++17", f"-I{KERNELS}", "-c",
         *(str(KERNELS / f"{name}.cu") for name in _GAMES)],
        capture_output=True, text=True, timeout=600, cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "warning" not in proc.stderr.lower(), proc.stderr


def _nvrtc():
    """libnvrtc through ctypes ($GPUSIM_NVRTC_LIB, the system library or the pip wheel)."""
    import ctypes
    import ctypes.util
    import os
    import site

    candidates = [os.environ.get("GPUSIM_NVRTC_LIB", ""), ctypes.util.find_library("nvrtc") or ""]
    for d in site.getsitepackages():
        candidates += sorted(str(p) for p in Path(d).glob("nvidia/*/lib/libnvrtc.so*"))
    for path in filter(None, candidates):
        try:
            return ctypes.CDLL(path)
        except OSError:
            continue
    if not sys.platform.startswith("linux"):
        pytest.skip("NVRTC wheels are for Linux")
    pytest.fail("NVRTC is missing: the dev extra installs it (cuda-toolkit[nvrtc])")


@pytest.mark.parametrize("name", _GAMES)
def test_exact_kernel_compiles_with_nvrtc(name):
    """What CuPy's RawModule does on a GPU machine, minus the GPU: the inlined source to PTX."""
    import ctypes

    from gpusim.compute.backends.cupy_rounds import kernel_source

    src = kernel_source(name)
    assert '#include "' not in src
    lib = _nvrtc()
    prog = ctypes.c_void_p()
    assert lib.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), b"k.cu", 0, None, None) == 0
    opts = [b"-std=c++17", b"-arch=compute_90", f"-DGPUSIM_BLOCK={xb.BLOCK}".encode()]
    rc = lib.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts))
    size = ctypes.c_size_t()
    lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    lib.nvrtcGetProgramLog(prog, log)
    lib.nvrtcDestroyProgram(ctypes.byref(prog))
    assert rc == 0, log.value.decode()
