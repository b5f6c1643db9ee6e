"""Where a `gpusim simulate` process spends its time, phase by phase, from exec to exit.

Usage::

    python benchmarks/startup.py [--config casino_holdem] [--strategy optimal]
                                 [--rounds 4194304] [--repeats 5] [--with-teardown]

Each repeat runs the real command line (``gpusim simulate CONFIG --rounds R --quiet``) in a
fresh Python process whose compile caches are warm (a first, uncounted run fills a cache folder
of its own), as for a user's second run. Wrappers around a few library functions stamp the
time since the process started (from ``/proc``, so interpreter start-up counts), and the parent
times the whole process until it has exited. Printed: the median of each phase's duration, in
seconds, and the median whole process. The default of 2^22 rounds shows the fixed cost beside
a short compute (``benchmarks/whole_run.py`` sets a whole 10^8-round run, phase by phase, beside
the steady rate). ``--with-teardown`` lets the process exit the ordinary way (the
interpreter frees every module) to show what skipping that saves.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

_CHILD = r"""
import atexit, json, os, sys, time

def _since_exec():
    with open("/proc/self/stat") as f:
        started = int(f.read().rsplit(")", 1)[1].split()[19]) / os.sysconf("SC_CLK_TCK")
    with open("/proc/uptime") as f:
        return float(f.read().split()[0]) - started

_t0, _base = time.perf_counter(), _since_exec()
marks = {}
def mark(name):
    marks.setdefault(name, time.perf_counter() - _t0 + _base)

def after(obj, attr, name):
    fn = getattr(obj, attr)
    def wrapper(*a, **k):
        out = fn(*a, **k)
        mark(name)
        return out
    setattr(obj, attr, wrapper)

import gpusim.cli
mark("command line imported")
import gpusim.compile_cache, gpusim.runs.runner, gpusim.runs.run_api
import gpusim.games.strategy_registry
from gpusim.compute.chunks import ChunkRunner
run_sim = gpusim.runs.runner.run_simulation
def run_simulation(*a, **k):
    mark("arguments parsed, run modules imported")
    return run_sim(*a, **k)
gpusim.runs.run_api.run_simulation = run_simulation
after(gpusim.compile_cache, "enable", "JAX imported")
after(gpusim.games.strategy_registry, "get_strategy", "strategy tables loaded")
after(ChunkRunner, "program", "batch programs ready")
after(ChunkRunner, "__call__", "first chunk computed")
after(gpusim.runs.run_api.Run, "write_summary", "all chunks written, summary written")
atexit.register(lambda: print(json.dumps(marks), file=sys.stderr, flush=True))
if sys.argv[1] == "--with-teardown":  # the ordinary interpreter exit, for comparison
    gpusim.cli._exit_without_teardown = lambda: None
    del sys.argv[1]
sys.argv = ["gpusim", *sys.argv[1:]]
gpusim.cli.main()
"""

PHASES = ("command line imported", "arguments parsed, run modules imported", "JAX imported",
          "strategy tables loaded", "batch programs ready", "first chunk computed",
          "all chunks written, summary written")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", default="casino_holdem")
    ap.add_argument("--strategy", default="optimal")
    ap.add_argument("--rounds", default=str(1 << 22))
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--with-teardown", action="store_true",
                    help="let the interpreter tear its modules down at exit, as before")
    args = ap.parse_args()
    runs, walls = [], []
    with tempfile.TemporaryDirectory(prefix="gpusim-startup-") as tmp:
        env = {**os.environ, "GPUSIM_COMPILE_CACHE": os.path.join(tmp, "cache")}
        flag = ["--with-teardown"] if args.with_teardown else []
        cmd = [sys.executable, "-c", _CHILD, *flag, "simulate", args.config, "--strategy",
               args.strategy, "--rounds", args.rounds, "--seed", "1", "--force", "--quiet",
               "--out", os.path.join(tmp, "run")]  # fmt: skip
        for k in range(args.repeats + 1):  # the first fills the compile caches: not counted
            t0 = time.perf_counter()
            proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
            wall = time.perf_counter() - t0
            if k:
                runs.append(json.loads(proc.stderr.strip().splitlines()[-1]))
                walls.append(wall)
    print(f"{args.config} / {args.strategy}, {int(float(args.rounds)):,} rounds: medians of "
          f"{args.repeats} fresh processes (warm compile caches), seconds")  # fmt: skip
    before = [0.0] * len(runs)
    for name in PHASES:
        steps = [r[name] - b for r, b in zip(runs, before, strict=True)]
        before = [r[name] for r in runs]
        print(f"  {name:<40} {statistics.median(steps):7.3f}")
    ends = [w - b for w, b in zip(walls, before, strict=True)]
    print(f"  {'process exit':<40} {statistics.median(ends):7.3f}")
    print(f"  {'whole process':<40} {statistics.median(walls):7.3f}")


if __name__ == "__main__":
    main()
