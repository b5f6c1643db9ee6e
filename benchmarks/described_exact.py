"""Time the exact solves of the described games from an empty cache, beside Casino Hold'em's.

Usage::

    python benchmarks/described_exact.py [--games GAME ...] [--repeat N] [--cores C] [--json]

Each solve is what ``gpusim exact CONFIG --recompute --json`` does for the shipped config under
``optimal`` when nothing is cached, run in its own fresh process with ``GPUSIM_CACHE_DIR`` (and
``GPUSIM_COMPILE_CACHE``) pointed at a new, empty temporary folder: a described game counts
every deal and solves its strategy (``gpusim.games.described.exact_report.cached_solve``, which
also writes the counts to the cache), then builds the report; Casino Hold'em counts every deal
(``cached_counts``, with the usable cores as workers), derives its optimal call table from the
counts (``optimal_decisions``, as ``benchmarks/exact.py`` does, instead of reading the shipped
table) and builds the report. The games' shipped decision tables and reports are not read, and
each child checks afterwards (outside its timings) that its report matches the shipped one.

Printed per game: the deals counted, the median wall time of the whole child process (start,
imports, solve, report; min and max with ``--repeat`` > 1), the solve alone within it, the peak
resident memory (the largest of the child's processes: ``ru_maxrss`` of itself and of its own
workers, reported by the child at its end), the target of the described games' exact solver
(for a 2-core machine) and each game's wall time as a multiple of Casino Hold'em's, measured in
the same run. ``--cores 2`` pins every child (and its workers) to two CPUs with
``os.sched_setaffinity`` (Linux), to emulate the 2-core CI machine on a larger one. The games take
turns within each repeat, so a change in the machine's load touches them alike; the load average
is printed before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DESCRIBED = ("three_card_poker", "mississippi_stud", "let_it_ride", "caribbean_stud")
PEER = "casino_holdem"
GAMES = (*DESCRIBED, PEER)
# the targets of the described games' exact solves, on a 2-core machine (seconds; Caribbean
# Stud's goal is 60 s); every solve's peak memory <= 4 GB. Casino Hold'em's own target
# (docs/performance.md, "Exact analysis") is <= 60 s.
TARGET_S = {"three_card_poker": 5, "mississippi_stud": 30, "let_it_ride": 30,
            "caribbean_stud": 300, PEER: 60}
GOAL_S = {"caribbean_stud": 60}
TARGET_GB = 4.0


def _solve(game: str) -> dict:
    """One solve in this (fresh) process, from the empty cache folder it was given."""
    t_start = time.perf_counter()
    from gpusim.config import load_config
    from gpusim.exact.report import versioned

    rules = load_config(game)
    t0 = time.perf_counter()
    if game == PEER:
        from gpusim.exact._parallel import default_workers
        from gpusim.games.holdem import call_once
        from gpusim.games.holdem.call_once_described import cached_counts, counts_file
        from gpusim.games.holdem.call_once_shape import prices_of

        counts = cached_counts(rules, progress=False)
        table = call_once.optimal_decisions(counts, prices_of(rules), with_side_bet=True)
        t1 = time.perf_counter()
        report = call_once.analyse(counts, prices_of(rules), table, "optimal", game=rules.game,
                                   config=rules.name)
        workers = default_workers()
    else:
        from gpusim.games.described.exact_report import analyse, cached_solve, counts_file

        solved = cached_solve(rules, "optimal", progress=False)
        t1 = time.perf_counter()
        report = analyse(solved)
        workers = 1
    text = json.dumps(versioned(report))  # what --json prints
    t2 = time.perf_counter()
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    from gpusim.exact.cache import cache_dir
    from gpusim.exact.shipped import shipped_report

    shipped = shipped_report(rules, "optimal")
    ours = json.loads(text)
    return {
        "game": game, "deals": ours["deals_counted"], "workers": workers,
        "cpus": sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "solve_s": t1 - t0, "report_s": t2 - t1, "in_process_s": t2 - t_start,
        "peak_rss_gb": max(own, kids) * 1024 / 1e9,  # ru_maxrss is in KiB on Linux
        "counted": (cache_dir() / counts_file(rules)).is_file(),
        "matches_shipped": None if shipped is None else (
            shipped["deals_counted"] == ours["deals_counted"]
            and abs(shipped["main"]["total_bet_rtp"] - ours["main"]["total_bet_rtp"]) < 1e-12),
    }


def _pin(cores: int | None):
    if not cores:
        return None
    if not hasattr(os, "sched_setaffinity"):
        sys.exit("--cores needs os.sched_setaffinity (Linux)")
    cpus = sorted(os.sched_getaffinity(0))
    if cores > len(cpus):
        sys.exit(f"--cores {cores}: only {len(cpus)} CPUs are usable here")
    chosen = set(cpus[:cores])
    return lambda: os.sched_setaffinity(0, chosen)


def _fresh(game: str, cores: int | None) -> dict:
    """One solve in a fresh child process with a new, empty cache folder; its wall time."""
    with tempfile.TemporaryDirectory(prefix="gpusim-described-exact-") as d:
        env = dict(os.environ, GPUSIM_CACHE_DIR=d,
                   GPUSIM_COMPILE_CACHE=str(Path(d) / "compile"))
        env.pop("GPUSIM_EXACT_WORKERS", None)  # the workers follow the usable cores
        t0 = time.perf_counter()
        out = subprocess.run([sys.executable, __file__, "--child", game], env=env,
                             preexec_fn=_pin(cores), capture_output=True, text=True)
        wall = time.perf_counter() - t0
    if out.returncode != 0:
        sys.exit(f"{game}: the solve failed (exit {out.returncode}):\n{out.stderr[-4000:]}")
    run = json.loads(out.stdout.strip().splitlines()[-1])
    if not run["counted"]:
        sys.exit(f"{game}: no counts were written to the empty cache; the solve did not count")
    return {**run, "wall_s": wall}


def _machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    return f"{usable} usable CPUs (os.cpu_count() {os.cpu_count()}), {model}"


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="+", choices=GAMES, default=list(GAMES),
                    help="games to solve (default: all four and Casino Hold'em, the peer)")
    ap.add_argument("--repeat", type=int, default=1, help="solves per game; the median")
    ap.add_argument("--cores", type=int, default=None,
                    help="pin each solve to this many CPUs (e.g. 2, the CI machine)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--child", choices=GAMES, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(_solve(args.child)))
        return
    games = [g for g in GAMES if g in args.games]
    load_before = _load()
    runs: dict[str, list[dict]] = {g: [] for g in games}
    for _ in range(args.repeat):
        for game in games:
            runs[game].append(_fresh(game, args.cores))
    results = {}
    for game, rs in runs.items():
        walls = [r["wall_s"] for r in rs]
        results[game] = {
            "deals": rs[0]["deals"], "wall_s": statistics.median(walls), "wall_runs_s": walls,
            "solve_s": statistics.median(r["solve_s"] for r in rs),
            "peak_rss_gb": max(r["peak_rss_gb"] for r in rs),
            "workers": rs[0]["workers"], "cpus": rs[0]["cpus"],
            "target_s": TARGET_S[game], "goal_s": GOAL_S.get(game),
            "meets_target": max(walls) <= TARGET_S[game]
            and max(r["peak_rss_gb"] for r in rs) <= TARGET_GB,
            "matches_shipped": all(r["matches_shipped"] for r in rs)
            if rs[0]["matches_shipped"] is not None else None,
        }
    if PEER in results:
        for r in results.values():
            r["x_casino_holdem"] = r["wall_s"] / results[PEER]["wall_s"]
    out = {"machine": _machine(), "cores": args.cores, "repeat": args.repeat,
           "load_before": load_before, "load_after": _load(), "results": results}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    pinned = f"each solve pinned to {args.cores} CPUs" if args.cores else "unpinned"
    print(f"machine: {out['machine']}; {pinned}; the targets are for a 2-core machine")
    print(f"load average before {load_before}, after {out['load_after']}")
    many = args.repeat > 1
    head = "wall s (median, min-max)" if many else "wall s"
    print(f"{'game':<18} {'deals counted':>22} {head:>24} {'solve s':>8} {'peak GB':>8} "
          f"{'target':>16} {'x CH':>6}  shipped")
    for game, r in results.items():
        wall = f"{r['wall_s']:.1f}"
        if many:
            wall += f" ({min(r['wall_runs_s']):.1f}-{max(r['wall_runs_s']):.1f})"
        target = f"<= {r['target_s']} s" + (f" (goal {r['goal_s']})" if r["goal_s"] else "")
        target += "" if r["meets_target"] else " MISSED"
        ratio = f"{r['x_casino_holdem']:.2f}" if "x_casino_holdem" in r else "-"
        same = {True: "same", False: "DIFFERS", None: "-"}[r["matches_shipped"]]
        print(f"{game:<18} {r['deals']:>22,} {wall:>24} {r['solve_s']:>8.1f} "
              f"{r['peak_rss_gb']:>8.2f} {target:>16} {ratio:>6}  {same}")
    print(f"wall s: the whole child process (start, imports, solve, report); solve s: the solve "
          f"alone; peak GB: 10^9 bytes, the target <= {TARGET_GB:g} GB; x CH: the wall time as a "
          f"multiple of Casino Hold'em's ({PEER}, optimal) in this run")


if __name__ == "__main__":
    main()
