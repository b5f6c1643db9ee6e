"""Batch programs saved on disk (gpusim.compute.program): loaded, checked, never trusted blindly."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys

import jax
import numpy as np
import pytest

from gpusim import compile_cache
from gpusim.compute import program
from gpusim.compute.chunks import ChunkRunner
from gpusim.compute.program import BatchProgram, strategy_fingerprint
from gpusim.config import load_config
from gpusim.games.strategy_registry import get_strategy
from gpusim.strategy import RuleStrategy

BATCH = 4096
ARGS = (np.uint32(7), np.uint32(0), np.uint32(123_456), np.uint32(0), np.int32(4000))


def _reduction(prog) -> dict:
    return {k: np.asarray(v) for k, v in jax.device_get(prog(*ARGS)).items()}


def _same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


@pytest.fixture(scope="module")
def setup():
    rules = load_config("holdem_bonus")  # the Jackpot game: every output of the reduction
    strat = get_strategy("optimal", rules)
    reducer = ChunkRunner(rules, strat).reducer
    reference = BatchProgram.build(rules, strat, reducer, BATCH, use_cache=False)
    assert reference.origin == "jit"
    return rules, strat, reducer, _reduction(reference)


def _build(setup, folder):
    """A build as a fresh process would do it: what this process holds in memory is dropped,
    so the disk is read (these tests are about the disk)."""
    rules, strat, reducer, _ = setup
    program._memory.clear()
    return BatchProgram.build(rules, strat, reducer, BATCH, cache_dir=folder)


@pytest.fixture(scope="module")
def saved(setup, tmp_path_factory):
    """A cache folder with the program's two files as a build saved them, and that build's
    reduction (the tests below use copies: each damage case damages its own)."""
    folder = tmp_path_factory.mktemp("saved")
    first = _build(setup, folder)
    assert first.origin == "compiled"
    return folder, _reduction(first)


def test_a_saved_program_loads_and_counts_the_same(setup, saved, tmp_path):
    folder, first = saved
    assert sorted(p.name.rsplit("-", 1)[1] for p in folder.iterdir()) == [
        "reduce.xla", "settle.xla"]  # fmt: skip
    shutil.copytree(folder, tmp_path, dirs_exist_ok=True)
    second = _build(setup, tmp_path)
    assert second.origin == "disk"
    assert _same(first, setup[3])
    assert _same(_reduction(second), setup[3])


@pytest.mark.parametrize("damage", ["flip a payload byte", "truncate", "garbage header"])
def test_a_damaged_file_is_compiled_again_and_replaced(setup, saved, tmp_path, damage):
    shutil.copytree(saved[0], tmp_path, dirs_exist_ok=True)
    assert _build(setup, tmp_path).origin == "disk"  # the copy is a valid cache
    victim = next(tmp_path.glob("*-settle.xla"))
    data = bytearray(victim.read_bytes())
    if damage == "flip a payload byte":
        data[-100] ^= 0x01
    elif damage == "truncate":
        data = data[: len(data) // 2]
    else:
        data[:10] = b"not json!!"
    victim.write_bytes(bytes(data))
    again = _build(setup, tmp_path)
    assert again.origin == "compiled"
    assert _same(_reduction(again), setup[3])
    assert _build(setup, tmp_path).origin == "disk"  # the file was rewritten whole


def test_a_copy_that_loads_but_does_not_run_is_never_used_or_saved(setup, saved, tmp_path,
                                                                   monkeypatch):
    def broken(data):
        def fail(*args):
            raise RuntimeError("Function fusion not found")

        return None if data is None else fail

    shutil.copytree(saved[0], tmp_path, dirs_exist_ok=True)
    monkeypatch.setattr(program, "_deserialize", broken)
    for f in tmp_path.iterdir():
        f.unlink()
    got = _build(setup, tmp_path)
    assert got.origin == "unsaved"
    assert list(tmp_path.iterdir()) == []
    assert _same(_reduction(got), setup[3])


def test_the_key_changes_with_everything_the_program_is_made_of(setup):
    rules, strat, _, _ = setup
    key = program._cache_key(rules, strat, BATCH)
    assert program._cache_key(rules, strat, BATCH) == key
    assert program._cache_key(rules, strat, 2 * BATCH) != key
    other_rules = load_config("holdem_bonus_classic")
    assert program._cache_key(other_rules, strat, BATCH) != key
    # one decision bit of one table
    river = strat.tables["river"].copy()
    river[0] ^= 1
    flipped = dataclasses.replace(strat, tables={**strat.tables, "river": river})
    assert strategy_fingerprint(flipped) != strategy_fingerprint(strat)
    assert program._cache_key(rules, flipped, BATCH) != key
    basic = get_strategy("basic", rules)
    assert strategy_fingerprint(basic).startswith("rule:flop=gpusim.")
    # a PointRules with a caller's own function at one point is never cached either
    from gpusim.strategy import PointRules

    mixed = PointRules(basic.fn.points, {**basic.fn.fns, "river": lambda seen: seen[:, 0] > 0})
    assert strategy_fingerprint(RuleStrategy("mixed", rules.game, mixed)) is None
    assert program._cache_key(rules, basic, BATCH) not in (None, key)
    # a described game's rule strategies share their functions' import paths: each is told
    # apart by its name (the description itself is in the rules' structure hash)
    always = get_strategy("always-play", rules)
    assert strategy_fingerprint(always) not in (None, strategy_fingerprint(basic))
    assert program._cache_key(rules, always, BATCH) not in (None, key,
                                                            program._cache_key(rules, basic, BATCH))


def test_a_callers_own_function_is_never_cached(setup, tmp_path):
    rules, strat, reducer, expected = setup
    own = RuleStrategy("mine", "holdem_bonus", lambda cards: strat.decide(cards))
    assert strategy_fingerprint(own) is None
    # The same program as ``optimal``'s: kept out of JAX's persistent cache (enabled in this
    # process by earlier CLI tests), where a later run's "compiled" build would find it and
    # then could not save it (an executable JAX loaded serializes incomplete).
    with program._outside_jax_cache(True):
        got = BatchProgram.build(rules, own, reducer, BATCH, cache_dir=tmp_path)
    assert got.origin == "jit" and list(tmp_path.iterdir()) == []
    assert _same(_reduction(got), expected)


def _simulate(out, cache) -> dict:
    env = {**os.environ, compile_cache.ENV: str(cache)}
    cmd = [sys.executable, "-m", "gpusim", "simulate", "casino_holdem", "--rounds", "20000",
           "--seed", "5", "--out", str(out), "--force", "--quiet"]  # fmt: skip
    proc = subprocess.run(cmd, env=env, timeout=600, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads((out / "summary.json").read_text())
    summary.pop("rounds_per_s")
    return summary


def test_fresh_processes_save_load_and_agree(tmp_path):
    """Process 1 compiles and saves; 2 loads; with the programs deleted, but JAX's own cache
    warm, 3 must still save copies that run (an executable JAX loaded from its cache
    serializes incomplete), and 4 loads them. All four count the same."""
    cache = tmp_path / "cache"
    programs = cache / "programs"
    first = _simulate(tmp_path / "a", cache)
    saved = {p.name: p.stat().st_mtime_ns for p in programs.iterdir()}
    assert len(saved) == 2
    assert _simulate(tmp_path / "b", cache) == first
    assert {p.name: p.stat().st_mtime_ns for p in programs.iterdir()} == saved  # loaded
    for p in programs.iterdir():
        p.unlink()
    assert _simulate(tmp_path / "c", cache) == first
    assert sorted(p.name for p in programs.iterdir()) == sorted(saved)
    assert _simulate(tmp_path / "d", cache) == first
