"""The community-card solver at this tree against the same solver at an earlier revision, side
by side in one run on one machine, each solve from an empty count cache: the speed of a change
to the solver (the turn street's table in docs/performance.md).

Usage::

    python benchmarks/community_revisions.py --against REV [--configs a,b,...] [--repeats 1]

``REV`` is checked out into a temporary git worktree; each solve runs
:func:`gpusim.games.described.community.solve` and the described report in a fresh process
whose ``GPUSIM_CACHE_DIR`` is a new empty folder, the earlier one with that worktree first on
``PYTHONPATH``. Printed per config: the median wall seconds and the peak resident memory (MB)
of each, the ratio now / then, and whether the two reports are the same, key for key.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_SOLVE = """
import json, sys
from gpusim.config import load_config
from gpusim.games.described import community
from gpusim.games.described.exact_report import analyse
if __name__ == "__main__":
    rep = analyse(community.solve(load_config(sys.argv[1]), "optimal"))
    open(sys.argv[2], "w").write(json.dumps(rep))
"""


def _solve(config: str, tree: Path, out: Path) -> tuple[float, float]:
    """(wall seconds, peak RSS MB of the process tree) of one solve by the source in ``tree``
    (its own folder first on the path), in a fresh cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "GPUSIM_CACHE_DIR": cache, "PYTHONPATH": str(tree)}
        wrapper = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
                   "stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
                   "print(max(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, 0))")
        t0 = time.perf_counter()
        res = subprocess.run([sys.executable, "-c", wrapper, sys.executable, "-c", _SOLVE,
                              config, str(out)], env=env, check=True, capture_output=True,
                             text=True, cwd=tree)
        return time.perf_counter() - t0, int(res.stdout.strip() or 0) / 1024


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", required=True, help="a git revision of the earlier solver")
    ap.add_argument("--configs", default="casino_holdem_turn")
    ap.add_argument("--repeats", type=int, default=1)
    args = ap.parse_args()
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "then"
        subprocess.run(["git", "worktree", "add", "--detach", str(tree), args.against],
                       cwd=ROOT, check=True, capture_output=True)
        try:
            print(f"{'config':26s} {'then s':>8s} {'MB':>6s} {'now s':>8s} {'MB':>6s} "
                  f"{'ratio':>6s}  same report", flush=True)
            for config in args.configs.split(","):
                then = [_solve(config, tree, Path(tmp) / "then.json")
                        for _ in range(args.repeats)]
                now = [_solve(config, ROOT, Path(tmp) / "now.json") for _ in range(args.repeats)]
                same = json.loads((Path(tmp) / "then.json").read_text()) == json.loads(
                    (Path(tmp) / "now.json").read_text())
                t_wall, n_wall = (statistics.median(w for w, _ in x) for x in (then, now))
                print(f"{config:26s} {t_wall:8.1f} {max(m for _, m in then):6.0f} "
                      f"{n_wall:8.1f} {max(m for _, m in now):6.0f} {n_wall / t_wall:6.2f}  "
                      f"{same}", flush=True)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT,
                           check=False, capture_output=True)
    print(f"load average after {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
