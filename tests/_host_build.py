"""Shared by the host-compiled kernel tests (``tests/test_kernels_*_host.py``): building a C++
harness that includes the kernels' headers with g++ (the test skips without it), and the random
rounds such a harness plays."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

KERNELS = Path(__file__).resolve().parents[1] / "kernels"


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
