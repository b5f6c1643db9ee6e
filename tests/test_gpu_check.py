"""``benchmarks/gpu_check.sh`` without a GPU: it fails, and writes why into its results folder.

The unavailable device is simulated with the stand-in CuPy of ``tests/fakes`` on PYTHONPATH;
the verdict on the GPU test suite is checked on the junit report that pytest writes here, where
every GPU test skips.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FAKES = Path(__file__).parent / "fakes"


def _module():
    spec = importlib.util.spec_from_file_location("gpu_check", ROOT / "benchmarks/gpu_check.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["gpu_check"] = mod  # its dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


gpu_check = _module()


def _run_script(out: Path, mode: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(FAKES), "GPUSIM_FAKE_CUPY": mode,
           "PYTHON": sys.executable}  # fmt: skip
    return subprocess.run(["bash", str(ROOT / "benchmarks/gpu_check.sh"), str(out)], env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip


@pytest.mark.parametrize(
    ("mode", "step", "needle"),
    [("nodevice", "device", "cudaErrorNoDevice: no CUDA-capable device is detected"),
     ("nocompile", "trivial_kernel", "CompileException")],
)  # fmt: skip
def test_script_fails_and_writes_the_cause(tmp_path, mode, step, needle):
    out = tmp_path / "results"
    proc = _run_script(out, mode)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    result = json.loads((out / "result.json").read_text())
    assert not result["ok"] and result["first_cause"].startswith(f"{step}: ")
    assert needle in result["first_cause"]
    summary = (out / "summary.md").read_text()
    assert f"**FAIL**: {step}: " in summary and needle in summary
    assert needle in (out / f"{step}.log").read_text()
    assert "fake" in (out / "env.txt").read_text()  # CuPy's show_config() is recorded
    assert [s["name"] for s in result["steps"]][-1] == step  # nothing ran after it


def test_skipped_gpu_tests_are_a_failure(tmp_path):
    from gpusim.compute.backends import cupy_rounds as cb

    if cb.available():
        pytest.skip("a usable GPU: the suite runs instead of skipping")
    xml = tmp_path / "gpu.xml"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-m", "gpu", "-q", "-p", "no:cacheprovider",
         f"--junitxml={xml}", str(ROOT / "tests/test_cupy_rounds.py")],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )  # fmt: skip
    assert proc.returncode == 0  # pytest itself calls an all-skipped run a success
    cause = gpu_check.pytest_verdict(xml, proc.returncode)
    assert cause is not None and " GPU tests skipped, first test_" in cause
    assert cb.unavailable_reason() in cause


def _junit(path: Path, cases: str) -> Path:
    path.write_text(f'<testsuites><testsuite name="pytest">{cases}</testsuite></testsuites>')
    return path


def test_verdict_on_reports(tmp_path):
    ok = '<testcase classname="t" name="test_a"/>'
    skip = '<testcase classname="t" name="test_b"><skipped message="no GPU"/></testcase>'
    fail = '<testcase classname="t" name="test_c"><failure message="assert 1 == 2"/></testcase>'
    verdict = gpu_check.pytest_verdict
    assert verdict(_junit(tmp_path / "a.xml", ok + ok), 0) is None
    assert verdict(_junit(tmp_path / "b.xml", ok + skip), 0) == (
        "1 of 2 GPU tests skipped, first test_b: no GPU")
    assert verdict(_junit(tmp_path / "c.xml", ok + skip + fail), 1) == (
        "test_c: failure: assert 1 == 2")
    assert verdict(_junit(tmp_path / "d.xml", ""), 5) == "no GPU test ran (exit 5)"
    assert verdict(tmp_path / "missing.xml", 4) == "pytest wrote no report (exit 4)"


def test_exact_comparison():
    want = json.loads((ROOT / "gpusim/data/exact/holdem_bonus.optimal.json").read_text())
    assert gpu_check.compare_exact(json.loads(json.dumps(want)), want) is None
    got = json.loads(json.dumps(want))
    got["bets"]["bonus"]["rtp"] += 1e-6
    assert gpu_check.compare_exact(got, want).startswith("bets.bonus.rtp: GPU")
    got = json.loads(json.dumps(want))
    got["deals_counted"] -= 1
    assert gpu_check.compare_exact(got, want).startswith("deals_counted")
