"""Fault battery: SIGKILL at random moments, a full disk, corrupted and truncated parts.

Every recovery must end with counts identical to an uninterrupted run of the same seed.
"""

from __future__ import annotations

import errno
import json
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

import gpusim
from gpusim.cli import app
from gpusim.runs.runfolder import PART_TABLES, RunFolder

CONFIG, STRATEGY, SEED = "holdem_bonus", "always-play", 77
ROUNDS, CHUNK = 24_000, 2_000  # 12 chunks
N_CHAINS, KILLS_PER_CHAIN = 3, 4  # 12 kills in all


def _chunk_counts(path: Path) -> dict[int, dict]:
    """Per completed chunk, every table's rows (sorted): what a resume must reproduce."""
    folder = RunFolder.open(path)
    out = {}
    for k, rec in folder.completed().items():
        out[k] = {t: sorted(pl.read_parquet(path / info["file"]).rows())
                  for t, info in sorted(rec["files"].items())}
    return out


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict[int, dict]:
    out = tmp_path_factory.mktemp("ref") / "run"
    gpusim.simulate(CONFIG, rounds=ROUNDS, seed=SEED, out=out, strategy=STRATEGY, chunk=CHUNK,
                    backend="jax-cpu")
    counts = _chunk_counts(out)
    assert len(counts) == ROUNDS // CHUNK
    return counts


def _argv(out: Path) -> list[str]:
    return [sys.executable, "-m", "gpusim", "simulate", CONFIG, "--rounds", str(ROUNDS),
            "--chunk", str(CHUNK), "--seed", str(SEED), "--strategy", STRATEGY, "--out",
            str(out), "--backend", "jax-cpu", "--quiet"]


def _chunks_done(out: Path) -> int:
    try:
        return len(json.loads((out / "manifest.json").read_text())["chunks_done"])
    except (OSError, ValueError, KeyError):
        return 0


def _chain(out: Path, env: dict, rng: random.Random, reference) -> list[str]:
    """Start, SIGKILL at a random moment, resume, ... until KILLS_PER_CHAIN kills landed mid-run
    (a run that finished first is a trial too; at most 3 x KILLS_PER_CHAIN), then finish."""
    log = []
    n_chunks = ROUNDS // CHUNK
    for trial in range(3 * KILLS_PER_CHAIN):
        if sum(e.startswith("killed") for e in log) == KILLS_PER_CHAIN:
            break
        argv = _argv(out) + (["--resume"] if out.exists() else [])
        # wait until a random number of chunks is done, then a random fraction of a chunk
        target = rng.randrange(n_chunks)
        delay = rng.uniform(0, 0.3)
        proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        t0 = time.monotonic()
        while proc.poll() is None and _chunks_done(out) < target and time.monotonic() - t0 < 240:
            time.sleep(0.005)
        time.sleep(delay)
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            log.append(f"killed after {_chunks_done(out)} chunks")
        else:
            assert proc.returncode == 0, proc.stderr.read().decode()[-2000:]
            log.append("finished before the kill")
        proc.stderr.close()
        # whatever survived is a consistent prefix of the uninterrupted run
        if (out / "manifest.json").is_file():
            folder = RunFolder.open(out)
            assert folder.verify() == [], trial
            for k, tables in _chunk_counts(out).items():
                assert tables == reference[k], (trial, k)
            if folder.manifest["status"] == "complete":
                shutil.rmtree(out)  # finished whole: the next trial starts a fresh run
    res = subprocess.run(_argv(out) + ["--resume"], env=env, capture_output=True, text=True,
                         timeout=600)
    assert res.returncode == 0, res.stderr[-2000:]
    assert _chunk_counts(out) == reference
    assert RunFolder.open(out).manifest["status"] == "complete"
    return log


def _child_env(tmp_path: Path) -> dict:
    """The environment of a `gpusim simulate` child: the compile cache that the reference run
    filled in this process, so that every child (and every restart) loads the compiled batch
    program instead of compiling it again."""
    from gpusim.compile_cache import cache_dir

    cache = cache_dir() or tmp_path / "compile-cache"
    return {**os.environ, "JAX_PLATFORMS": "cpu", "GPUSIM_COMPILE_CACHE": str(cache),
            "GPUSIM_CACHE_DIR": str(tmp_path / "cache")}


def test_sigkill_at_random_moments_then_resume_gives_identical_counts(tmp_path, reference):
    env = _child_env(tmp_path)
    rngs = [random.Random(1000 + i) for i in range(N_CHAINS)]
    with ThreadPoolExecutor(N_CHAINS) as pool:
        logs = list(pool.map(lambda i: _chain(tmp_path / f"run{i}", env, rngs[i], reference),
                             range(N_CHAINS)))
    kills = [e for log in logs for e in log if e.startswith("killed")]
    print(f"{len(kills)} kills mid-run in {sum(map(len, logs))} trials:", logs)
    assert len(kills) >= N_CHAINS * KILLS_PER_CHAIN - 1


# --- a full disk ------------------------------------------------------------------------------


def _cli_args(out: Path, *extra: str) -> list[str]:
    return ["simulate", CONFIG, "--rounds", str(ROUNDS), "--chunk", str(CHUNK), "--seed",
            str(SEED), "--strategy", STRATEGY, "--out", str(out), "--backend", "jax-cpu",
            "--quiet", *extra]


@pytest.mark.parametrize("where", ["part", "manifest"])
def test_enospc_is_one_line_keeps_finished_parts_and_resumes(tmp_path, reference, monkeypatch,
                                                             where):
    import gpusim.runs.runfolder as rf

    out = tmp_path / "run"
    calls = {"n": 0}
    if where == "part":
        real = pl.DataFrame.write_parquet
        fail_at = 3 * len(PART_TABLES) + 2  # the third table of chunk 3

        def write(self, file, *a, **kw):
            calls["n"] += 1
            if calls["n"] > fail_at:
                Path(file).write_bytes(b"PAR1 half")  # what a full disk leaves behind
                raise OSError(errno.ENOSPC, "No space left on device")
            return real(self, file, *a, **kw)

        monkeypatch.setattr(pl.DataFrame, "write_parquet", write)
    else:
        real_json = rf._write_json_atomic

        def write_json(path, obj):
            calls["n"] += 1
            # create, backend, then one per chunk: fail when chunk 3 is committed
            if calls["n"] == 2 + 4:
                raise OSError(errno.ENOSPC, "No space left on device")
            return real_json(path, obj)

        monkeypatch.setattr(rf, "_write_json_atomic", write_json)
    res = CliRunner().invoke(app, _cli_args(out))
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert res.exit_code == 2, res.output
    assert len(lines) == 1 and "No space left on device" in lines[0], res.output
    assert "chunk 3" in lines[0] and "--resume" in lines[0]
    monkeypatch.undo()
    folder = RunFolder.open(out)
    assert sorted(folder.completed()) == [0, 1, 2]
    assert folder.verify() == []
    leftovers = [p.name for p in out.rglob("*") if p.is_file() and
                 (p.name.endswith(".tmp") or "part-000003" in p.name)]
    assert where == "manifest" or leftovers == []
    for k, tables in _chunk_counts(out).items():
        assert tables == reference[k]
    res = CliRunner().invoke(app, _cli_args(out, "--resume"))
    assert res.exit_code == 0, res.output
    assert _chunk_counts(out) == reference


# --- corrupted and truncated parts ------------------------------------------------------------


def test_resume_recomputes_only_the_corrupted_chunks(tmp_path, reference):
    out = tmp_path / "run"
    gpusim.simulate(CONFIG, rounds=ROUNDS, seed=SEED, out=out, strategy=STRATEGY, chunk=CHUNK,
                    backend="jax-cpu")
    before = {p: p.stat().st_mtime_ns for p in out.rglob("part-*.parquet")}
    flipped = out / "events" / "part-000004.parquet"
    b = bytearray(flipped.read_bytes())
    b[len(b) // 2] ^= 0x01
    flipped.write_bytes(bytes(b))
    truncated = out / "outcomes" / "part-000009.parquet"
    truncated.write_bytes(truncated.read_bytes()[:-7])
    assert sorted(RunFolder.open(out).verify()) == ["events/part-000004.parquet",
                                                    "outcomes/part-000009.parquet"]
    notes = []
    from gpusim.runs.runner import Progress

    gpusim.simulate(CONFIG, rounds=ROUNDS, seed=SEED, out=out, strategy=STRATEGY, chunk=CHUNK,
                    backend="jax-cpu", resume=True, progress=Progress(note=notes.append))
    assert any("4, 9" in n for n in notes), notes
    rewritten = {p for p, t in before.items() if p.stat().st_mtime_ns != t}
    assert {p.name for p in rewritten} == {"part-000004.parquet", "part-000009.parquet"}
    assert len(rewritten) == 2 * len(PART_TABLES)  # every table of the two chunks, nothing else
    assert RunFolder.open(out).verify() == []
    assert _chunk_counts(out) == reference


def test_resume_recomputes_a_chunk_whose_part_is_missing(tmp_path, reference):
    out = tmp_path / "run"
    gpusim.simulate(CONFIG, rounds=ROUNDS, seed=SEED, out=out, strategy=STRATEGY, chunk=CHUNK,
                    backend="jax-cpu")
    (out / "wagers" / "part-000000.parquet").unlink()
    res = CliRunner().invoke(app, _cli_args(out, "--resume"))
    assert res.exit_code == 0, res.output
    assert _chunk_counts(out) == reference


# --- SIGTERM, as Slurm sends it at a time limit or on preemption ------------------------------


def test_sigterm_keeps_finished_chunks_prints_the_resume_command_and_exits_143(tmp_path,
                                                                               reference):
    env = _child_env(tmp_path)
    out = tmp_path / "run"
    # without --quiet and with stderr a pipe, as in a batch job: progress lines, not a bar
    argv = [a for a in _argv(out) if a != "--quiet"] + ["--log-every", "0.05"]
    for _ in range(5):  # a run that finishes before the signal lands is tried again
        proc = subprocess.Popen(argv + (["--force"] if out.exists() else []), env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        t0 = time.monotonic()
        while proc.poll() is None and _chunks_done(out) < 1 and time.monotonic() - t0 < 240:
            time.sleep(0.002)
        proc.send_signal(signal.SIGTERM)
        err = proc.communicate(timeout=120)[1]
        if proc.returncode != 0:
            break
    assert proc.returncode == 143, err[-2000:]
    stopped = [ln for ln in err.splitlines() if ln.startswith("gpusim: stopped by SIGTERM")]
    assert len(stopped) == 1, err[-2000:]
    kept = RunFolder.open(out)
    assert kept.manifest["status"] == "interrupted"
    n_kept = len(kept.completed())
    assert f"kept {n_kept} of 12 chunks ({n_kept * CHUNK:,} of {ROUNDS:,} rounds)" in stopped[0]
    assert kept.verify() == []
    for k, tables in _chunk_counts(out).items():
        assert tables == reference[k], k
    # progress lines with rate and ETA, as a log shows them
    assert re.search(r"gpusim: simulate: [\d,]+ of 24,000 rounds \([\d.]+ %\), [\d.]+ ?[kMG]? "
                     r"rounds/s, ETA [\d:-]+", err), err[-2000:]
    # the printed command continues the run, to the uninterrupted counts
    resume = shlex.split(stopped[0].split("resume with: ", 1)[1])
    assert resume[:2] == ["gpusim", "simulate"] and resume[-1] == "--resume"
    res = subprocess.run([sys.executable, "-m", "gpusim", *resume[1:]], env=env,
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-2000:]
    assert _chunk_counts(out) == reference
    assert RunFolder.open(out).manifest["status"] == "complete"
