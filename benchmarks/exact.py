"""Time the full exact solves: Casino Hold'em counts and Texas Hold'em Bonus (both stages).

Usage: python benchmarks/exact.py [--game casino_holdem|holdem_bonus|both] [--workers N] [--json]

Targets on a 2-core machine: Casino Hold'em <= 10 minutes, Texas Hold'em Bonus <= 30 minutes.
Nothing is read from or written to the cache: every count is recomputed.
"""

from __future__ import annotations

import argparse
import json
import time


def bench_casino_holdem(workers: int) -> dict:
    from gpusim.config import load_config
    from gpusim.exact.casino_holdem import analyse, optimal_decisions, qualifier_rank, solve_counts

    rules = load_config("casino_holdem")
    t0 = time.perf_counter()
    counts = solve_counts(qualifier_rank(rules), workers=workers)
    t1 = time.perf_counter()
    dec = optimal_decisions(counts, rules, with_side_bet=False)
    rep = analyse(counts, rules, dec, "optimal-main")
    t2 = time.perf_counter()
    return {
        "game": "casino_holdem",
        "workers": workers,
        "count_s": round(t1 - t0, 1),
        "solve_and_report_s": round(t2 - t1, 1),
        "total_s": round(t2 - t0, 1),
        "total_bet_rtp": rep["main"]["total_bet_rtp"],
    }


def bench_holdem_bonus(workers: int) -> dict:
    from gpusim.config import load_config
    from gpusim.exact.holdem_bonus import preflop_ev, river_rule, solve_river, turn_pass
    from gpusim.exact.holdem_bonus_pricing import analyse

    rules = load_config("holdem_bonus")
    t0 = time.perf_counter()
    river = solve_river(4, workers=workers)
    t1 = time.perf_counter()
    rb = river_rule(river, "optimal")
    tp = turn_pass(river, rb, "optimal")
    num, den = preflop_ev(tp.joint)
    rep = analyse(river, tp, num > -den, rules, "optimal")
    t2 = time.perf_counter()
    return {
        "game": "holdem_bonus",
        "workers": workers,
        "river_stage_s": round(t1 - t0, 1),
        "turn_stage_and_report_s": round(t2 - t1, 1),
        "total_s": round(t2 - t0, 1),
        "ante_rtp": rep["main"]["ante_rtp"],
        "total_bet_rtp": rep["main"]["total_bet_rtp"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="both", choices=["casino_holdem", "holdem_bonus", "both"])
    ap.add_argument("--workers", type=int, default=None,
                    help="worker processes (default: the usable CPU cores)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    from gpusim.exact._parallel import default_workers

    workers = args.workers or default_workers()
    results = []
    if args.game in ("casino_holdem", "both"):
        results.append(bench_casino_holdem(workers))
    if args.game in ("holdem_bonus", "both"):
        results.append(bench_holdem_bonus(workers))
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for r in results:
            print(", ".join(f"{k}={v}" for k, v in r.items()))


if __name__ == "__main__":
    main()
