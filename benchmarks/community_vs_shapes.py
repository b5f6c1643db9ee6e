"""The hold'em games' exact solves, today's shape solver against the community-card solver, in
one run on one machine, each from an empty count cache: the table in docs/performance.md.

Usage::

    python benchmarks/community_vs_shapes.py [--configs a,b,...] [--repeats 1]

Each solve runs in a fresh process whose exact-count cache (``GPUSIM_CACHE_DIR``) is a new
empty folder: ``shape`` is what ``gpusim exact CONFIG --recompute`` runs today (the play-once,
call-once or street-bets solver and its report), ``community`` is
:func:`gpusim.games.described.community.solve` with the described report on its counts. Printed
per config and solver: the median wall seconds, the peak resident memory of the process and its
children (MB), and the ratio community / shape; a game the community solver refuses says why.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_COMMUNITY = """
import sys
from gpusim.config import load_config
from gpusim.games.described import community
from gpusim.games.described.exact_report import analyse
if __name__ == "__main__":
    analyse(community.solve(load_config(sys.argv[1]), "optimal"))
"""


def _run(argv: list[str]) -> tuple[float, float]:
    """(wall seconds, peak RSS MB of the process tree) of one solve in a fresh cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "GPUSIM_CACHE_DIR": cache}
        t0 = time.perf_counter()
        # a wrapper process per solve, so that the children's peak is this solve's alone
        wrapper = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
                   "stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
                   "print(max(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, 0))")
        out = subprocess.run([sys.executable, "-c", wrapper, *argv], env=env, check=True,
                             capture_output=True, text=True, cwd=ROOT)
        wall = time.perf_counter() - t0
        return wall, int(out.stdout.strip() or 0) / 1024


def main() -> int:
    from gpusim.config import load_config
    from gpusim.games.described.community import community_shape

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--configs", default="casino_holdem,holdem_bonus,ultimate_holdem,"
                                         "ultimate_holdem_3x_open")
    ap.add_argument("--repeats", type=int, default=1)
    args = ap.parse_args()
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}", flush=True)
    print(f"{'config':26s} {'shape s':>8s} {'MB':>6s} {'community s':>12s} {'MB':>6s} "
          f"{'ratio':>6s}", flush=True)
    for config in args.configs.split(","):
        shape = [_run([sys.executable, "-m", "gpusim", "exact", config, "--recompute",
                       "--json"]) for _ in range(args.repeats)]
        s_wall = statistics.median(w for w, _ in shape)
        s_mb = max(m for _, m in shape)
        try:
            community_shape(load_config(config).game_def)
        except ValueError as exc:
            print(f"{config:26s} {s_wall:8.1f} {s_mb:6.0f}   community: {exc}", flush=True)
            continue
        comm = [_run([sys.executable, "-c", _COMMUNITY, config]) for _ in range(args.repeats)]
        c_wall = statistics.median(w for w, _ in comm)
        c_mb = max(m for _, m in comm)
        print(f"{config:26s} {s_wall:8.1f} {s_mb:6.0f} {c_wall:12.1f} {c_mb:6.0f} "
              f"{c_wall / s_wall:6.2f}", flush=True)
    print(f"load average after {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
