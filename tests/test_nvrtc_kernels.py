"""Every CUDA kernel compiles through the NVRTC library and CUDA header folder CuPy will use.

No GPU is needed. The headers are found by :func:`gpusim.cuda.cuda_headers`, which
asks ``cuda.pathfinder`` first, as CuPy 14 does; the dev extra installs NVRTC and the headers as
the ``cuda12`` / ``cuda13`` extras do. Each kernel is compiled to a cubin for sm_90 (H100 /
H200) with the options CuPy's RawModule uses plus ``-I`` the headers, preceded by the headers
CuPy's own device code includes, and ptxas' report must show no stack frame and no spills.
"""

from __future__ import annotations

import re
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from gpusim import cuda
from gpusim.compute.backends import cupy_rounds as cb

# Every (game, strategy code) a kernel is built for (strategy_*.cuh).
KERNELS = [("casino_holdem", c) for c in (cb.STRAT_ALWAYS, cb.STRAT_BASIC, cb.STRAT_SIDE_BET,
                                          cb.STRAT_TABLE)] + [
    ("holdem_bonus", c) for c in (cb.STRAT_ALWAYS, cb.STRAT_BASIC, cb.STRAT_TABLE)] + [
    ("ultimate_holdem", c) for c in (cb.STRAT_ALWAYS, cb.STRAT_BASIC, cb.STRAT_TABLE)]  # fmt: skip
CLEAN = "0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"


@pytest.fixture(scope="module")
def headers() -> str:
    if cuda.nvrtc_library() is None:
        if sys.platform.startswith("linux"):
            pytest.fail("NVRTC is missing: the dev extra installs it (cuda-toolkit[nvrtc])")
        pytest.skip("NVRTC wheels are for Linux")
    found = cuda.cuda_headers()
    assert found, "CUDA runtime headers missing: the dev extra installs them (cuda-toolkit[cudart])"
    return found


def test_headers_are_where_cupy_looks(headers):
    from cuda import pathfinder  # the dev extra installs it

    assert headers == pathfinder.find_nvidia_header_directory("cudart")


def _compile(game: str, code: int, block: int, headers: str) -> cuda.NvrtcResult:
    return cuda.nvrtc_compile(
        cuda.HEADER_PROBE + cb.kernel_source(game),
        ["-std=c++17", "-arch=sm_90", f"-I{headers}", f"-DGPUSIM_STRATEGY={code}",
         f"-DGPUSIM_BLOCK={block}", "-Xptxas=-v"],
    )  # fmt: skip


def _check(results) -> None:
    for (game, code, block), res in results:
        where = f"{game} strategy {code} block {block}"
        assert res.ok, f"{where}: {res.log}"
        assert res.binary_bytes > 0, where
        assert CLEAN in res.log, f"{where} spills or uses a stack frame:\n{res.log}"
        regs = int(re.search(r"Used (\d+) registers", res.log).group(1))
        # 64 registers per thread or fewer keeps 4 blocks of 256 threads per SM
        assert regs <= 64, f"{where}: {regs} registers"


def test_every_kernel_compiles_with_cupys_nvrtc_and_headers(headers):
    jobs = [(game, code, cb.BLOCK) for game, code in KERNELS]
    with ThreadPoolExecutor(2) as pool:  # NVRTC is thread-safe; ctypes releases the GIL
        results = list(pool.map(lambda j: (j, _compile(*j, headers)), jobs))
    _check(results)


@pytest.mark.slow
def test_every_block_size_compiles(headers):
    jobs = [(game, code, block) for game, code in KERNELS for block in (64, 128, 512, 1024)]
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda j: (j, _compile(*j, headers)), jobs))
    _check(results)


def test_the_deal_divides_nothing_at_run_time(headers):
    """The 9-card deal's block product and rejection threshold are compile-time constants: the
    kernels' PTX has no 64-bit division or remainder (software-emulated on the GPU)."""

    def ptx(game):
        opts = ["-std=c++17", "-arch=compute_90", f"-I{headers}", "-DGPUSIM_STRATEGY=1"]
        return cuda.nvrtc_compile(cb.kernel_source(game), opts)

    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(ptx, ["casino_holdem", "holdem_bonus", "ultimate_holdem"]))
    for res in results:
        assert res.ok and ".entry gpusim_" in res.ptx, res.log
        assert not re.findall(r"\b(?:rem|div)\.[us]64\b", res.ptx)


def test_a_compile_error_is_reported(headers):
    """The check can fail: a broken source gives ok=False and NVRTC's log."""
    res = cuda.nvrtc_compile("__global__ void k() { undefined_name(); }",
                                 ["-arch=compute_90", f"-I{headers}"])  # fmt: skip
    assert not res.ok and "undefined_name" in res.log
