"""Each shipped config's exact solve, timed from an empty cache: the gallery's "solve (s)" column.

Usage::

    python benchmarks/gallery_times.py [--configs a,b,...] [--repeats 1] [--write]

Each solve is the real command line, ``gpusim exact CONFIG --recompute --json``, in a fresh process
whose exact-count cache (``GPUSIM_CACHE_DIR``) is a new empty folder, so the time includes the
enumeration, the strategy's solve and the report, as a designer's first run of a new game does
(the compiled-program cache of JAX stays warm: it is not the solver's). Printed: the median of
the repeats per config, in seconds. ``--write`` stores them in docs/gallery-times.json with the
machine's core count, for ``python -m gpusim.report.gallery --write``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def solve_seconds(config: str) -> float:
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "GPUSIM_CACHE_DIR": cache}
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "gpusim", "exact", config, "--recompute",
                        "--json"], env=env, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        return time.perf_counter() - t0


def main() -> int:
    from gpusim.config import shipped_configs
    from gpusim.report.gallery import TIMES

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--configs", default=",".join(shipped_configs()))
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    times: dict = {}
    load_before = os.getloadavg()[0]
    for config in args.configs.split(","):
        runs = [solve_seconds(config) for _ in range(args.repeats)]
        times[config] = round(statistics.median(runs), 1)
        print(f"{config:28s} {times[config]:8.1f} s  (runs: "
              f"{', '.join(f'{r:.1f}' for r in runs)})", flush=True)
    if args.write:
        load = f"load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after"
        times["_machine"] = (f"measured {date.today().isoformat()} on a {os.cpu_count()}-core "
                             f"{platform.machine()} machine ({load}), median of {args.repeats} "
                             "run(s).")
        TIMES.write_text(json.dumps(times, indent=1) + "\n")
        print(f"wrote {TIMES}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
