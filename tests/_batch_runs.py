"""Runs shared by the batch-job tests (shards, merge, verify, Ray), computed once a session.

Seed 37, 600,000 rounds of holdem_bonus: Jackpot royals at rounds 62,216, 517,522 and 599,440,
i.e. in shards 0 and 2 of 3 (shard 1 has none, so the meter carries across it, and shard 2 has
two, the second already exact within its shard).
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from functools import cache
from pathlib import Path

import polars as pl

import gpusim

THB = {"config": "holdem_bonus", "rounds": 600_000, "seed": 37}
THB_ROYALS = [62_216, 517_522, 599_440]
CH = {"config": "casino_holdem", "rounds": 60_000, "seed": 5}

_ROOT = Path(tempfile.mkdtemp(prefix="gpusim-batch-"))
atexit.register(shutil.rmtree, _ROOT, ignore_errors=True)


def _compile_cache() -> Path:
    """The compile cache every other run of the suite uses (gpusim.compile_cache): shared with
    the other test modules and the other pytest workers, which run these same configs; a
    folder of this session's own only when the cache is turned off."""
    from gpusim.compile_cache import cache_dir

    return cache_dir() or _ROOT / "jax-cache"


JAX_CACHE = {
    "JAX_COMPILATION_CACHE_DIR": str(_compile_cache()),
    "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS": "0",
    "JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES": "-1",
}
"""Every run compiles the same few programs afresh (a new jit per run); the persistent compile
cache shares them across these runs, the Ray workers and the Slurm scripts' processes
(compiling, not counting, is most of these tests' time on a 2-core machine)."""


def use_jax_cache() -> None:
    import os

    import jax

    os.environ.update(JAX_CACHE)
    jax.config.update("jax_compilation_cache_dir", JAX_CACHE["JAX_COMPILATION_CACHE_DIR"])
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", -1)


def tmp(name: str) -> Path:
    return _ROOT / name


def _chunk(rounds: int) -> int:
    """One batch shape for every run and shard of a round count (each new shape compiles)."""
    return rounds // 6


@cache
def single(config: str, rounds: int, seed: int):
    """A single-process run."""
    use_jax_cache()
    return gpusim.simulate(config, rounds=rounds, seed=seed, out=_ROOT / f"single-{config}",
                           chunk=_chunk(rounds), backend="jax-cpu")


@cache
def shard(config: str, rounds: int, seed: int, index: int, count: int):
    use_jax_cache()
    return gpusim.simulate(config, rounds=rounds, seed=seed, chunk=_chunk(rounds),
                           backend="jax-cpu",
                           out=_ROOT / f"shard-{config}-{seed}-{index}-{count}",
                           shard=f"{index}/{count}")


def tables(run) -> dict:
    """Every table summed over chunks (chunk boundaries differ), plus the Jackpot rows."""
    out = {}
    for name, keys in {"outcomes": ["bet", "net"], "events": ["bet", "event"],
                       "decisions": ["point", "action"]}.items():
        df = getattr(run, name)().collect()
        out[name] = df.group_by(keys).agg(pl.col("count").sum()).sort(keys).rows()
    w = run.wagers().collect().group_by("bet").agg(pl.exclude("chunk").sum()).sort("bet")
    out["wagers"] = w.rows()
    m = run.moments().collect().group_by(["bet_a", "bet_b"]).agg(pl.col("sum_product").sum())
    out["moments"] = m.sort(["bet_a", "bet_b"]).rows()
    out["jackpot"] = run.jackpot().collect().select("round", "meter").sort("round").rows()
    done = sorted(run.manifest["chunks_done"], key=lambda r: r["first_round"])
    out["meter_end"] = done[-1]["jackpot_meter_end_bp"]
    # checkpoints every run has, whatever its chunks: batch ends (multiples of the CPU batch)
    # and the run's end
    from gpusim.compute.chunks import CPU_BATCH

    out["progress"] = [row for row in global_progress(run)
                       if row[0] % CPU_BATCH == 0 or row[0] == run.manifest["rounds"]]
    return out


def global_progress(run) -> list[tuple]:
    """The convergence checkpoints made cumulative over the whole run: (round_end, bet,
    wagered, returned), whatever the chunk boundaries."""
    p = run.progress().collect().sort("chunk", "round_end")
    rows, base = [], {}
    for _, chunk in p.group_by("chunk", maintain_order=True):
        last = {}
        for _, end, bet, w, r in chunk.iter_rows():
            bw, br = base.get(bet, (0, 0))
            rows.append((end, bet, bw + w, br + r))
            last[bet] = (bw + w, br + r)
        base.update(last)
    assert rows, "the run recorded no convergence checkpoints"
    return sorted(rows)
