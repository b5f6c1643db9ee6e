"""The persistent compilation cache: a second run of the same job compiles nothing new."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gpusim import compile_cache

MISS = "PERSISTENT COMPILATION CACHE MISS"


def _simulate(out: Path, cache: str) -> str:
    """Run a small simulation in a fresh process; its stderr, where JAX names every program
    it had to compile because the persistent cache did not have it."""
    env = {**os.environ, compile_cache.ENV: cache, "JAX_EXPLAIN_CACHE_MISSES": "1"}
    cmd = [sys.executable, "-m", "gpusim", "simulate", "casino_holdem", "--rounds", "3000",
           "--seed", "2", "--strategy", "always-play", "--out", str(out), "--force", "--quiet"]
    proc = subprocess.run(cmd, env=env, timeout=600, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return proc.stderr


def test_second_run_loads_every_program_from_the_cache(tmp_path):
    cache = tmp_path / "cache"
    first = _simulate(tmp_path / "a", str(cache))
    assert MISS in first and any(cache.iterdir())  # the first run compiled and stored
    second = _simulate(tmp_path / "b", str(cache))
    missed = [line for line in second.splitlines() if MISS in line]
    assert missed == []


@pytest.mark.parametrize("value", ["off", "0", "No"])
def test_cache_can_be_turned_off(monkeypatch, value):
    monkeypatch.setenv(compile_cache.ENV, value)
    assert compile_cache.cache_dir() is None
    assert compile_cache.enable() is None


def test_cache_folder_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv(compile_cache.ENV, str(tmp_path / "x"))
    assert compile_cache.cache_dir() == tmp_path / "x"


def test_unusable_folder_means_no_cache(monkeypatch, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv(compile_cache.ENV, str(blocker / "sub"))
    assert compile_cache.enable() is None
