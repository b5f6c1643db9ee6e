"""Time the full exact solves from nothing cached, against the evaluator bound.

Usage: python benchmarks/exact.py [--game casino_holdem|holdem_bonus|ultimate_holdem|both|all]
                                  [--workers N] [--repeats R] [--profile] [--json]
                                  [--pass auto|numpy|compiled|both]

``both`` is Casino Hold'em and Texas Hold'em Bonus; ``all`` adds Ultimate Texas Hold'em, and
``ultimate_holdem`` alone still solves Casino Hold'em beside it, its peer in the same run.

Each solve runs R times, each time right after a measurement of the 7-card evaluator's rate
(``gpusim.compute.bench.bench_evaluator``: 5 windows of at least 0.5 s, median and spread) and in
a fresh process (nothing cached, not even the suit-class index): the enumeration counts, the optimal
strategy and the report, and writing the counts as the cache would (then, outside the solve's
time, reading them back, as every later report does). Printed per game: the
median wall time, the evaluator bound (the 7-card evaluations a board-by-board enumeration
needs / the measured rate; Casino Hold'em and Ultimate Texas Hold'em 1,755 x 1,176 x 1,081,
Texas Hold'em Bonus 16,432 x 48 x 1,081), the time as a multiple of the bound (each run
against its own measurement, then the median), the evaluations actually done,
and the solve's peak resident memory (the largest of its processes; the 5-card tables are
shared memory, counted in every process that maps them).

``--pass`` picks the form of the loops that have a compiled form (the ranking, the per-board tie
runs and inclusion-exclusion, Texas Hold'em Bonus's cells, the second stage's binned sums;
``GPUSIM_EXACT_NATIVE``, :mod:`gpusim.exact._native`; the other form ranks with JAX): ``auto``
(the default) is what a user gets, ``both`` runs every solve with the numpy forms and then with
the compiled ones, side by side in one run (printed as "per-board pass"). The compiled library's
one-off build (once per machine and compiler, then cached) is timed separately, in an empty cache
folder.

``--profile`` runs each solve once with one worker, every stage timed in CPU seconds
(``gpusim.exact._profile``), and prints where the time goes.

The load average is printed before and after: on a shared machine the wall times move with
it, the ratio to the bound (measured in the same run) less so.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EVALS_NEEDED = {"casino_holdem": 1755 * 1176 * 1081, "holdem_bonus": 16432 * 48 * 1081,
                "ultimate_holdem": 1755 * 1176 * 1081}
GAMES = {"both": ["casino_holdem", "holdem_bonus"],
         "all": ["casino_holdem", "holdem_bonus", "ultimate_holdem"],
         "ultimate_holdem": ["casino_holdem", "ultimate_holdem"]}
EVALS_DONE = 134_459 * 1081  # every 5-card board class once


def _solve(game: str, workers: int) -> dict:
    """One solve in this process; timings in seconds."""
    from gpusim.config import load_config
    from gpusim.exact.cache import atomic_savez

    rules = load_config(game)
    level = 1  # the deflate level of the game's count cache (its solver's choice)
    t0 = time.perf_counter()
    if game == "casino_holdem":
        from gpusim.games.holdem import call_once
        from gpusim.games.holdem.call_once_counts import solve_counts
        from gpusim.games.holdem.call_once_shape import prices_of, qualifier_rank

        c = solve_counts(qualifier_rank(rules.game_def), workers=workers)
        t1 = time.perf_counter()
        p = prices_of(rules)
        rep = call_once.analyse(c, p, call_once.optimal_decisions(c, p, with_side_bet=False),
                                "optimal-main", game=rules.game, config=rules.name)
        arrays = {"flops": c.flops, "weights": c.weights, "counts": c.counts, "valid": c.valid,
                  "bonus_rank": c.bonus_rank}
    elif game == "ultimate_holdem":
        import numpy as np

        from gpusim.games.holdem.play_once import decide
        from gpusim.games.holdem.play_once_counts import solve_counts
        from gpusim.games.holdem.play_once_described import (
            analyse_solution,
            prices_of,
            qualifier_rank,
        )
        from gpusim.games.holdem.play_once_shape import play_tree_of

        c = solve_counts(qualifier_rank(rules.game_def), prices_of(rules), workers=workers)
        t1 = time.perf_counter()
        sol = decide(c, prices_of(rules), play_tree_of(rules.game_def))
        rep = analyse_solution(sol, rules, "optimal")
        # what the solver's cache holds (gpusim.games.holdem.play_once.solve)
        arrays = {"preflop": sol.preflop, "flop": sol.flop, "river": np.packbits(sol.river),
                  "values": sol.values, "values_main": sol.values_main, "paths": sol.paths,
                  "fold": sol.fold}
    else:
        from gpusim.games.holdem.streets import analyse
        from gpusim.games.holdem.streets_cache import CACHE_LEVEL as level
        from gpusim.games.holdem.streets_counts import (
            preflop_ev,
            river_rule,
            solve_river,
            turn_pass,
        )
        from gpusim.games.holdem.streets_shape import prices_of

        river = solve_river(4, workers=workers)
        t1 = time.perf_counter()
        tp = turn_pass(river, river_rule(river, "optimal"), "optimal")
        num, den = preflop_ev(tp.joint)
        rep = analyse(river, tp, num > -den, prices_of(rules), "optimal")
        arrays = {k: getattr(river, k) for k in ("boards", "weights", "W", "L", "WX", "valid")}
    t2 = time.perf_counter()
    with tempfile.TemporaryDirectory() as d:
        atomic_savez(Path(d) / "counts.npz", level=level, **arrays)
        t3 = time.perf_counter()
        import numpy as np

        with np.load(Path(d) / "counts.npz") as z:  # what every later report reads
            {k: z[k] for k in z.files}
        read_s = time.perf_counter() - t3
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    from gpusim.exact._native import status
    from gpusim.exact._profile import totals

    return {"game": game, "workers": workers, "pass": status(), "count_s": t1 - t0,
            "price_s": t2 - t1, "cache_write_s": t3 - t2, "total_s": t3 - t0,
            "cache_level": level, "cache_read_s": read_s,
            "peak_rss_mb": max(own, kids) / 1024, "total_bet_rtp": rep["main"]["total_bet_rtp"],
            "stages_cpu_s": totals()}


PASS_ENV = {"auto": "auto", "numpy": "0", "compiled": "1"}


def _fresh(game: str, workers: int, profile: bool, form: str = "auto") -> dict:
    env = dict(os.environ, GPUSIM_EXACT_PROFILE="1" if profile else "0",
               GPUSIM_EXACT_NATIVE=PASS_ENV[form])
    out = subprocess.run([sys.executable, __file__, "--child", game, "--workers", str(workers)],
                         env=env, check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _build_time() -> str:
    """The compiled pass's first build, in an empty cache folder (what a new machine pays once)."""
    with tempfile.TemporaryDirectory() as d:
        code = ("import time; t = time.perf_counter(); from gpusim.exact import _native; "
                "s = _native.status(); print(f'{time.perf_counter() - t:.1f} s: {s}')")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=dict(os.environ, GPUSIM_CACHE_DIR=d, GPUSIM_EXACT_NATIVE="auto"))
        return out.stdout.strip() or out.stderr.strip().splitlines()[-1]


def _level(r: dict) -> str:
    return "stored" if r["cache_level"] == 0 else f"deflate level {r['cache_level']}"


def _load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="both",
                    choices=["casino_holdem", "holdem_bonus", "ultimate_holdem", "both", "all"])
    ap.add_argument("--workers", type=int, default=None,
                    help="worker processes (default: the usable CPU cores)")
    ap.add_argument("--repeats", type=int, default=1, help="solves per game; the median")
    ap.add_argument("--profile", action="store_true", help="one single-worker solve, by stage")
    ap.add_argument("--pass", dest="form", default="auto",
                    choices=["auto", "numpy", "compiled", "both"],
                    help="per-board pass: what a user gets, numpy, compiled, or both side by side")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    from gpusim.exact._parallel import default_workers

    workers = args.workers or default_workers()
    if args.child:
        print(json.dumps(_solve(args.child, workers)))
        return
    from gpusim.compute.bench import bench_evaluator

    games = GAMES.get(args.game, [args.game])
    forms = ["numpy", "compiled"] if args.form == "both" else [args.form]
    build = _build_time()
    load_before = _load()
    rates, spreads, results = [], [], []
    for game in games:
        runs = {form: [] for form in forms}
        for _ in range(1 if args.profile else args.repeats):
            for form in forms:
                # the evaluator's rate right before each solve: the load moves between them
                ev = bench_evaluator(1 << 20, 5, peers=False, min_window=0.5)
                rates.append(ev["evals_per_s"])
                spreads.append(ev["spread"])
                run = _fresh(game, 1 if args.profile else workers, args.profile, form)
                run["bound_s"] = EVALS_NEEDED[game] / ev["evals_per_s"]
                run["x_bound"] = run["total_s"] / run["bound_s"]
                runs[form].append(run)
        for form in forms:
            rs = runs[form]
            results.append({**rs[0], "total_s": statistics.median(r["total_s"] for r in rs),
                             "runs_s": [r["total_s"] for r in rs],
                             "bound_s": statistics.median(r["bound_s"] for r in rs),
                             "x_bound": statistics.median(r["x_bound"] for r in rs),
                             "x_bound_runs": [r["x_bound"] for r in rs],
                             "evals_needed": EVALS_NEEDED[game], "evals_done": EVALS_DONE,
                             "peak_rss_mb": max(r["peak_rss_mb"] for r in rs)})
    rate = statistics.median(rates)
    ev = {"spread": max(spreads)}
    out = {"evaluator_evals_per_s": rate, "evaluator_spread": ev["spread"],
           "compiled_pass_build": build,
           "load_before": load_before, "load_after": _load(), "results": results}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"evaluator: {rate / 1e6:.1f} M evals/s (median over the solves; before each, 5 "
          f"windows of >= 0.5 s, spread up to {100 * ev['spread']:.1f} %); {load_before}, "
          f"after: {out['load_after']}")
    print(f"compiled pass, first build in an empty cache: {build}")
    for r in results:
        runs = ", ".join(f"{t:.1f}" for t in r["runs_s"])
        ratios = ", ".join(f"{x:.2f}" for x in r["x_bound_runs"])
        print(f"{r['game']}: {r['total_s']:.1f} s (median of {len(r['runs_s'])}: {runs}; counts "
              f"{r['count_s']:.1f}, strategy and report {r['price_s']:.1f}, cache write "
              f"{r['cache_write_s']:.1f}, {_level(r)}; read back {r['cache_read_s']:.1f}), "
              f"{r['workers']} workers; evaluator bound "
              f"{r['bound_s']:.1f} s ({r['evals_needed'] / 1e9:.2f} G evaluations) -> "
              f"{r['x_bound']:.2f}x the bound (median of {ratios}); evaluations done "
              f"{r['evals_done'] / 1e9:.3f} G; peak RSS {r['peak_rss_mb']:.0f} MB; "
              f"per-board pass: {r['pass']}")
        if r["stages_cpu_s"]:
            cpu = sum(r["stages_cpu_s"].values())
            for name, s in sorted(r["stages_cpu_s"].items(), key=lambda kv: -kv[1]):
                print(f"    {name:<48} {s:7.1f} CPU s  {100 * s / r['count_s']:5.1f} %")
            print(f"    {'(counting, not in a stage)':<48} {r['count_s'] - cpu:7.1f} s")
            print(f"    {'strategy, report':<48} {r['price_s']:7.1f} s")
            label = f"writing the cache (npz, {_level(r)})"
            print(f"    {label:<48} {r['cache_write_s']:7.1f} s")


if __name__ == "__main__":
    main()
