"""A whole ``gpusim simulate`` process beside the steady rate, phase by phase, in one run.

Usage::

    python benchmarks/whole_run.py [--rounds 1e8] [--repeats 5] [--config casino_holdem]
                                   [--strategy optimal] [--chunk ROUNDS] [--json]

Each repeat times, one after the other:

- **steady**: chunks of 2^20 rounds counted in this process by the runner ``gpusim simulate``
  uses, after a warm-up chunk, exactly as ``benchmarks/simulate.py`` measures its rate: the
  median of ``--steady-chunks`` chunks timed just before the whole process and as many just
  after it;
- **whole**: the real command line (``gpusim simulate CONFIG --rounds R --quiet``) in a fresh
  process whose compile caches are warm (a first, uncounted run fills a cache folder of its
  own), timed by this process until it has exited.

The ratio is the whole process's rounds/s over the steady rate, per repeat (so that the
machine's drift between repeats cancels); printed are the medians over the repeats of each
figure and of the ratio.

Inside the whole process, wrappers around a few library functions stamp the time since exec
(from ``/proc``, so interpreter start-up counts): the start-up phases, the first and the last
chunk computed, the writer drained, the summary written; and they add up what a run does per
chunk besides computing it: on the main thread the chunk's counts from its histograms, on the
writer thread the Parquet parts built and written (fsync and sha256 included) and the manifest
committed, as wall and as CPU time (the writer's CPU is taken from the cores computing the
next chunk). ``lost`` is the whole process's time beyond ``rounds / steady rate``. The
wrappers only time what they find, so the same file measures an older tree.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

_CHILD = r"""
import atexit, json, os, sys, threading, time

def _since_exec():
    with open("/proc/self/stat") as f:
        started = int(f.read().rsplit(")", 1)[1].split()[19]) / os.sysconf("SC_CLK_TCK")
    with open("/proc/uptime") as f:
        return float(f.read().split()[0]) - started

_t0, _base = time.perf_counter(), _since_exec()
now = lambda: time.perf_counter() - _t0 + _base
marks, sums, calls = {}, {}, {}

def wrap(obj, attr, first=None, last=None, total=None):
    fn = getattr(obj, attr, None)
    if fn is None:
        return
    def wrapper(*a, **k):
        t, c = time.perf_counter(), time.thread_time()
        out = fn(*a, **k)
        if first:
            marks.setdefault(first, now())
        if last:
            marks[last] = now()
        if total:
            for key, v in ((total, time.perf_counter() - t),
                           (total + " cpu", time.thread_time() - c)):
                sums[key] = sums.get(key, 0.0) + v
            calls[total] = calls.get(total, 0) + 1
        return out
    setattr(obj, attr, wrapper)

import gpusim.cli
marks["command line imported"] = now()
import importlib
mods = {}
for name in ("gpusim.compile_cache", "gpusim.runs.runner", "gpusim.runs.run_api",
             "gpusim.runs.runfolder", "gpusim.compute.bins", "gpusim.compute.chunks",
             "gpusim.games.strategy_registry", "gpusim.runs.writer"):
    try:
        mods[name] = importlib.import_module(name)
    except ImportError:
        pass
runner, api = mods["gpusim.runs.runner"], mods["gpusim.runs.run_api"]
run_sim = runner.run_simulation
def run_simulation(*a, **k):
    marks["arguments parsed, run modules imported"] = now()
    out = run_sim(*a, **k)
    marks["last parts written"] = now()
    return out
api.run_simulation = run_simulation
wrap(mods["gpusim.compile_cache"], "enable", first="JAX imported")
wrap(mods.get("gpusim.games.strategy_registry"), "get_strategy", first="strategy tables loaded")
wrap(runner, "resolve_backend", first="backend chosen")
wrap(runner, "_load_polars", first="Polars loaded")
chunks = mods["gpusim.compute.chunks"]
wrap(chunks.ChunkRunner, "program", first="batch programs ready")
wrap(chunks.ChunkRunner, "__call__", first="first chunk computed",
     last="last chunk computed", total="chunks computed")
bins = mods["gpusim.compute.bins"]
wrap(bins, "counts_from_bins", total="host: counts from histograms")
wrap(bins, "batch_progress", total="host: progress checkpoints")
wrap(runner, "chunk_tables", total="writer: tables built")
folder = mods["gpusim.runs.runfolder"].RunFolder
wrap(folder, "write_parts", total="writer: parts written")
wrap(folder, "commit_chunk", total="writer: manifest committed")
wrap(api.Run, "write_summary", first="summary written")
def report():
    print(json.dumps({"marks": marks, "sums": sums, "calls": calls}), file=sys.stderr, flush=True)
atexit.register(report)
sys.argv = ["gpusim", *sys.argv[1:]]
gpusim.cli.main()
"""

PHASES = (
    ("command line imported", "Python, the command line"),
    ("arguments parsed, run modules imported", "arguments parsed, run modules imported"),
    ("JAX imported", "import JAX"),
    ("strategy tables loaded", "strategy tables loaded"),
    ("backend chosen", "backend chosen"),
    ("Polars loaded", "run folder made, Polars loaded"),
    ("batch programs ready", "batch programs loaded"),
    ("first chunk computed", "first chunk computed"),
    ("last chunk computed", "the other chunks computed"),
    ("last parts written", "last parts written, writer drained"),
    ("summary written", "summary written"),
)


def _steady(config: str, strategy: str, rounds: int, chunks: int):
    """A callable timing ``chunks`` chunks of ``rounds`` rounds: their rounds/s."""
    from gpusim.compile_cache import enable
    from gpusim.compute.chunks import ChunkRunner
    from gpusim.config import load_config
    from gpusim.games import spec_for
    from gpusim.games.strategy_registry import get_strategy

    enable()
    rules = load_config(config)
    meter = spec_for(rules).start_meter(rules)
    runner = ChunkRunner(rules, get_strategy(strategy, rules))
    runner(1, 0, rounds, meter)  # warm-up: loads or compiles the programs
    first = [rounds]

    def measure() -> list[float]:
        rates = []
        for _ in range(chunks):
            t0 = time.perf_counter()
            runner(1, first[0], rounds, meter)
            rates.append(rounds / (time.perf_counter() - t0))
            first[0] += rounds
        return rates

    return measure


def _child_cpu() -> float:
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", default="casino_holdem")
    ap.add_argument("--strategy", default="optimal")
    ap.add_argument("--rounds", default="1e8")
    ap.add_argument("--chunk", default=None, help="--chunk of the whole process (default: its own)")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--steady-rounds", type=int, default=1 << 20)
    ap.add_argument("--steady-chunks", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rounds = int(float(args.rounds))
    load = [os.getloadavg()]
    with tempfile.TemporaryDirectory(prefix="gpusim-whole-") as tmp:
        env = {**os.environ, "GPUSIM_COMPILE_CACHE": os.path.join(tmp, "cache")}
        os.environ["GPUSIM_COMPILE_CACHE"] = env["GPUSIM_COMPILE_CACHE"]
        # each process writes a new run folder, as a user's run does (no --force clearing)
        cmd = [sys.executable, "-c", _CHILD, "simulate", args.config, "--strategy",
               args.strategy, "--rounds", str(rounds), "--seed", "1", "--quiet",
               *(["--chunk", args.chunk] if args.chunk else []), "--out"]  # fmt: skip
        # the first fills the compile caches: not counted
        subprocess.run([*cmd, os.path.join(tmp, "run-warm")], env=env, capture_output=True,
                       text=True, check=True)
        steady = _steady(args.config, args.strategy, args.steady_rounds, args.steady_chunks)
        rows = []
        for k in range(args.repeats):
            rates = steady()
            run_dir = os.path.join(tmp, f"run-{k}")
            c0, t0 = _child_cpu(), time.perf_counter()
            proc = subprocess.run([*cmd, run_dir], env=env, capture_output=True, text=True)
            wall = time.perf_counter() - t0
            # timed on both sides of the process, so that a change in the machine's load
            # while it ran touches the steady rate it is compared with
            rate = statistics.median(rates + steady())
            if proc.returncode:
                raise SystemExit(f"whole_run.py: the run failed:\n{proc.stderr}")
            stamps = json.loads(proc.stderr.strip().splitlines()[-1])
            rows.append({"steady": rate, "wall": wall, "cpu": _child_cpu() - c0, **stamps})
            shutil.rmtree(run_dir)
    load.append(os.getloadavg())
    out = summarize(rows, rounds)
    out.update(config=args.config, strategy=args.strategy, rounds=rounds, repeats=args.repeats,
               chunk=args.chunk, load_before=load[0], load_after=load[1])
    if args.json:
        print(json.dumps(out, indent=2))
        return
    report(out)


def _med(xs) -> float:
    return statistics.median(xs)


def summarize(rows: list[dict], rounds: int) -> dict:
    """Medians over the repeats: phases (seconds each), per-chunk sums, rates and the ratio."""
    phases = {}
    before = [0.0] * len(rows)
    for key, label in PHASES:
        if not all(key in r["marks"] for r in rows):
            continue
        phases[label] = _med([r["marks"][key] - b for r, b in zip(rows, before, strict=True)])
        before = [r["marks"][key] for r in rows]
    phases["process exit"] = _med([r["wall"] - b for r, b in zip(rows, before, strict=True)])
    sums = {k: _med([r["sums"].get(k, 0.0) for r in rows]) for k in rows[0]["sums"]}
    calls = {k: _med([r["calls"].get(k, 0) for r in rows]) for k in rows[0]["calls"]}
    ratio = [rounds / r["wall"] / r["steady"] for r in rows]
    lost = [r["wall"] - rounds / r["steady"] for r in rows]
    loop = []
    for r in rows:
        m = r["marks"]
        n_chunks = r["calls"].get("chunks computed", 0)
        if n_chunks > 1 and "first chunk computed" in m:
            # the chunks after the first, as one stretch of the run: their rate inside it
            span = m["last chunk computed"] - m["first chunk computed"]
            loop.append(rounds * (n_chunks - 1) / n_chunks / span / r["steady"] if span else 0)
    return {
        "steady_rounds_per_s": _med([r["steady"] for r in rows]),
        "whole_s": _med([r["wall"] for r in rows]),
        "whole_cpu_s": _med([r["cpu"] for r in rows]),
        "whole_rounds_per_s": _med([rounds / r["wall"] for r in rows]),
        "ratio": _med(ratio),
        "ratios": ratio,
        "lost_s": _med(lost),
        "chunk_loop_over_steady": _med(loop) if loop else None,
        "phases": phases,
        "sums": sums,
        "calls": calls,
    }


def report(out: dict) -> None:
    print(f"{out['config']} / {out['strategy']}, {out['rounds']:,} rounds"
          f"{', --chunk ' + out['chunk'] if out['chunk'] else ''}: medians of {out['repeats']} "
          "repeats (steady chunks, then a fresh whole process, warm compile caches)")
    print(f"  load average {' '.join(f'{x:.2f}' for x in out['load_before'])} before, "
          f"{' '.join(f'{x:.2f}' for x in out['load_after'])} after")
    steady = out["steady_rounds_per_s"] / 1e6
    print(f"  steady rate (chunks of 2^20 in this process) {steady:.2f} M rounds/s")
    print(f"  whole process {out['whole_s']:.3f} s ({out['whole_cpu_s']:.2f} s CPU), "
          f"{out['whole_rounds_per_s'] / 1e6:.2f} M rounds/s")
    print(f"  whole / steady {out['ratio']:.3f} (repeats: "
          f"{', '.join(f'{x:.3f}' for x in out['ratios'])}); lost beyond the steady rate "
          f"{out['lost_s']:.3f} s")
    if out["chunk_loop_over_steady"] is not None:
        loop = out["chunk_loop_over_steady"]
        print(f"  the chunks after the first, inside the run / steady {loop:.3f}")
    print("  phase (from exec)                                  seconds")
    for label, s in out["phases"].items():
        print(f"    {label:<48} {s:7.3f}")
    print(f"    {'whole process':<48} {out['whole_s']:7.3f}")
    print("  per chunk, summed over the run                    wall s    CPU s   calls")
    for key, s in out["sums"].items():
        if key.endswith(" cpu"):
            continue
        print(f"    {key:<46} {s:7.3f}  {out['sums'].get(key + ' cpu', 0.0):7.3f}  "
              f"{out['calls'].get(key, 0):6.0f}")


if __name__ == "__main__":
    main()
