"""Backend choice without a GPU: why CuPy is unusable, ``auto``'s fallback, occupancy and
out-of-memory handling, and ``gpusim devices``.

Broken CUDA set-ups are simulated with the stand-in CuPy of ``tests/fakes/cupy`` (its failure
chosen by ``GPUSIM_FAKE_CUPY``); the launch-size and retry logic is host code, tested with fakes.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import types
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gpusim import cuda
from gpusim.cli import app
from gpusim.compute.backends import BackendError
from gpusim.compute.backends import cupy_rounds as cb
from gpusim.compute.backends.select import choose_backend
from gpusim.config import load_config
from gpusim.games.strategy_registry import get_strategy

FAKES = Path(__file__).parent / "fakes"
CH = load_config("casino_holdem")


@pytest.fixture
def fake_cupy(monkeypatch):
    """Install the stand-in CuPy; returns a function that sets its mode."""
    spec = importlib.util.spec_from_file_location("cupy", FAKES / "cupy" / "__init__.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    monkeypatch.setitem(sys.modules, "cupy", mod)
    monkeypatch.setattr(cuda, "_REASON", [])
    cb._module.cache_clear()
    monkeypatch.setattr("gpusim.cuda.cuda_headers", lambda: "/fake/cuda/include")
    monkeypatch.delenv("XLA_PYTHON_CLIENT_PREALLOCATE", raising=False)

    def mode(name: str) -> None:
        monkeypatch.setenv("GPUSIM_FAKE_CUPY", name)
        cuda._REASON.clear()
        cb._module.cache_clear()

    yield mode
    cb._module.cache_clear()


# --- why CuPy is unusable -----------------------------------------------------------------------


def test_reason_names_the_driver_error(fake_cupy):
    fake_cupy("nodevice")
    reason = cb.unavailable_reason()
    assert reason.startswith("CuPy 14.0.0-fake cannot use the CUDA driver: CUDARuntimeError:")
    assert "cudaErrorNoDevice" in reason and "\n" not in reason
    assert not cb.available()


def test_reason_names_missing_headers(fake_cupy, monkeypatch):
    fake_cupy("ok")
    monkeypatch.setattr("gpusim.cuda.cuda_headers", lambda: None)
    assert "no CUDA runtime headers" in cb.unavailable_reason()


def test_usable_fake_device(fake_cupy):
    fake_cupy("ok")
    assert cb.unavailable_reason() is None and cb.available()
    assert cb.device_name() == "Fake GPU"


def test_reason_without_cupy():
    """On this machine (no CuPy or no GPU) the reason is one line and the runner refuses."""
    reason = cb.unavailable_reason()
    if reason is None:
        pytest.skip("CuPy with a GPU is present")
    assert reason and "\n" not in reason
    with pytest.raises(BackendError, match="cupy backend: " + reason[:20]):
        cb.make_chunk_runner(CH, get_strategy("basic", CH))


# --- auto falls back, explicit cupy fails in one line -------------------------------------------


def test_auto_falls_back_when_the_kernel_does_not_compile(fake_cupy):
    fake_cupy("nocompile")
    choice = choose_backend("auto", CH, get_strategy("basic", CH))
    assert choice.backend == "jax-cpu"
    assert "casino_holdem kernel did not compile" in choice.note
    assert "CompileException" in choice.note and "using jax-cpu" in choice.note
    with pytest.raises(BackendError, match="got 'cupy' but the casino_holdem kernel did not"):
        choose_backend("cupy", CH, get_strategy("basic", CH))


def test_auto_falls_back_for_a_strategy_without_kernel_form(fake_cupy):
    fake_cupy("ok")
    custom = types.SimpleNamespace(name="my-rules", game="casino_holdem")  # a user's strategy
    choice = choose_backend("auto", CH, custom)
    assert choice.backend == "jax-cpu" and "'my-rules' is not supported" in choice.note
    assert "no kernel form" in choice.note


def test_choosing_cupy_stops_jax_preallocating(fake_cupy):
    import os

    fake_cupy("ok")
    choice = choose_backend("auto", CH, get_strategy("basic", CH))
    assert tuple(choice) == ("cupy", "Fake GPU", "auto: using cupy (CUDA kernels)")
    assert os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"] == "false"


def test_cli_auto_says_why_and_runs_on_jax(fake_cupy, tmp_path):
    fake_cupy("nocompile")
    out = tmp_path / "run"
    res = CliRunner().invoke(app, ["simulate", "casino_holdem", "--rounds", "2000", "--strategy",
                                   "basic", "--out", str(out)])  # fmt: skip
    assert res.exit_code == 0, res.output
    notes = [ln for ln in res.output.splitlines() if ln.startswith("auto:")]
    assert len(notes) == 1 and "did not compile" in notes[0] and "using jax-cpu" in notes[0]
    assert json.loads((out / "manifest.json").read_text())["backend"] == "jax-cpu"


def test_cli_explicit_cupy_fails_in_one_line(fake_cupy, tmp_path):
    fake_cupy("nocompile")
    out = tmp_path / "never"
    res = CliRunner().invoke(app, ["simulate", "casino_holdem", "--rounds", "2000", "--strategy",
                                   "basic", "--backend", "cupy", "--out", str(out)])  # fmt: skip
    assert res.exit_code == 2
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "did not compile" in lines[0], res.output
    assert not out.exists()


# --- gpusim devices -----------------------------------------------------------------------------


def test_devices_names_the_reason(fake_cupy):
    fake_cupy("nodevice")
    res = CliRunner().invoke(app, ["devices", "--no-compile"])
    assert res.exit_code == 0, res.output
    first = res.output.splitlines()[0]
    assert first.startswith("cupy     not usable: CuPy 14.0.0-fake cannot use the CUDA driver")
    assert "jax-cpu  usable" in res.output and "auto     -> " in res.output
    rep = json.loads(CliRunner().invoke(app, ["devices", "--json", "--no-compile"]).output)
    assert [b["name"] for b in rep["backends"]] == ["cupy", "jax-gpu", "jax-cpu"]
    assert "cudaErrorNoDevice" in rep["backends"][0]["reason"]


def test_devices_on_this_machine():
    res = CliRunner().invoke(app, ["devices", "--no-compile"])
    assert res.exit_code == 0, res.output
    if cb.unavailable_reason() is not None:
        assert f"cupy     not usable: {cb.unavailable_reason()}" in res.output


# --- occupancy and launch size ------------------------------------------------------------------


class _Driver:
    def __init__(self, blocks=6, fail=False):
        self.blocks, self.fail, self.calls = blocks, fail, []

    def occupancyMaxActiveBlocksPerMultiprocessor(self, ptr, block, smem):  # noqa: N802
        self.calls.append((ptr, block, smem))
        if self.fail:
            raise RuntimeError("CUDA_ERROR_NOT_SUPPORTED")
        return self.blocks

    def funcGetAttribute(self, attr, ptr):  # noqa: N802
        return {0: 256, 1: 43_680, 2: 0, 3: 0, 4: 46}[attr]


class _Fn:
    ptr = 1234


def test_occupancy_comes_from_the_driver():
    drv = _Driver(blocks=5)
    assert cb.resident_blocks(_Fn(), 256, 4, drv) == (
        5, "cuOccupancyMaxActiveBlocksPerMultiprocessor")  # fmt: skip
    assert drv.calls == [(1234, 256, 0)]


@pytest.mark.parametrize("drv", [_Driver(fail=True), _Driver(blocks=0)])
def test_occupancy_falls_back_and_says_so(drv):
    n, source = cb.resident_blocks(_Fn(), 256, 6, drv)
    assert n == 6 and source.startswith("fallback")


def test_kernel_resources():
    assert cb.kernel_resources(_Fn(), _Driver()) == {
        "max_threads_per_block": 256, "shared_bytes": 43_680, "const_bytes": 0,
        "local_bytes": 0, "registers": 46,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("n", "per_sm", "sms", "grid"),
    [(2**30, 6, 132, 792), (2**30, 5, 132, 660), (1000, 6, 132, 4), (1, 6, 132, 1),
     (256 * 792, 6, 132, 792)],
)  # fmt: skip
def test_launch_grid_is_one_wave(n, per_sm, sms, grid):
    assert cb.launch_grid(n, 256, per_sm, sms) == grid


# --- out of device memory -----------------------------------------------------------------------


class OutOfMemoryError(Exception):
    """Named like CuPy's."""


def test_out_of_memory_shrinks_the_launch_and_keeps_every_round():
    calls, released = [], []

    def launch(start, m):
        calls.append((start, m))
        if m > 1000:
            raise OutOfMemoryError(f"Out of memory allocating {m * 8:,} bytes")
        return [(start, m)]

    parts, size = cb.run_launches(launch, 10_000, 4096, release=lambda: released.append(1),
                                  min_rounds=256)  # fmt: skip
    assert size == 512 and len(released) == 3  # 4096 -> 2048 -> 1024 -> 512
    covered = [r for s, m in parts for r in range(s, s + m)]
    assert covered == list(range(10_000))


def test_out_of_memory_at_the_smallest_launch_fails_in_one_line():
    calls = []

    def launch(start, m):
        calls.append(m)
        raise RuntimeError("cudaErrorMemoryAllocation: out of memory")

    with pytest.raises(BackendError, match="out of GPU memory even at 256 rounds") as err:
        cb.run_launches(launch, 10_000, 4096, min_rounds=256)
    assert calls == [4096, 2048, 1024, 512, 256] and "\n" not in str(err.value)


def test_other_launch_errors_are_not_retried():
    def launch(start, m):
        raise RuntimeError("cudaErrorIllegalAddress")

    with pytest.raises(RuntimeError, match="IllegalAddress"):
        cb.run_launches(launch, 100, 64, min_rounds=1)


def test_an_allocation_is_retried_once_after_freeing_the_pool():
    tries, released = [], []

    def make(fail_times):
        def f():
            tries.append(1)
            if len(tries) <= fail_times:
                raise OutOfMemoryError("Out of memory allocating 87,360 bytes")
            return "buffer"
        return f

    assert cb._allocate(make(1), lambda: released.append(1), "the histogram") == "buffer"
    assert len(tries) == 2 and released == [1]
    tries.clear()
    with pytest.raises(BackendError, match="out of GPU memory for the histogram"):
        cb._allocate(make(2), lambda: None, "the histogram")
