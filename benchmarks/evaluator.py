"""Side-by-side 7-card evaluator benchmark: gpusim (JAX) against installed peers.

Usage: python benchmarks/evaluator.py [--json] [--n-hands N] [--repeats R] [--seed S]
                                      [--window SECONDS] [--peer-hands M] [--no-peers]

All evaluators get the same pre-generated hands (peers the first M of them). gpusim's rate
is the median over R timed windows of at least --window seconds each (0.5 by default), with
the spread (max - min) / median; peers' rates are medians over their calls; in 7-card
evaluations per second; ratios are gpusim / peer.
The same measurement backs the ``gpusim bench evaluator`` command.
"""

from __future__ import annotations

import argparse
import json

from gpusim.compute.bench import bench_evaluator


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--n-hands", type=int, default=1 << 20, help="gpusim batch size")
    parser.add_argument("--repeats", type=int, default=7, help="timed windows per evaluator")
    parser.add_argument("--window", type=float, default=0.5,
                        help="seconds each gpusim timed window lasts at least")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random hands")
    parser.add_argument("--peer-hands", type=int, default=100_000, help="hands given to peers")
    parser.add_argument("--no-peers", action="store_true", help="time gpusim only")
    args = parser.parse_args(argv)
    try:
        res = bench_evaluator(
            args.n_hands,
            args.repeats,
            args.seed,
            peer_hands=args.peer_hands,
            peers=not args.no_peers,
            min_window=args.window,
        )
    except ValueError as exc:
        parser.error(str(exc))
    if args.json:
        print(json.dumps(res))
        return 0
    print(
        f"7-card evaluation, {res['batch']:,} hands per gpusim call, median of "
        f"{res['repeats']} windows of >= {res['window_s']:g} s ({res['backend']}: "
        f"{res['device']}); spread (max - min) / median {100 * res['spread']:.1f} %"
    )
    print(
        f"  {'gpusim':12s} {res['evals_per_s'] / 1e6:10.2f} M evals/s   "
        f"({res['evals_per_cpu_s'] / 1e6:.2f} M per CPU-second, {res['cpu_count']} CPUs)"
    )
    for name, rate in res["peers"].items():
        print(
            f"  {name:12s} {rate / 1e6:10.2f} M evals/s   gpusim is {res['ratios'][name]:,.0f}x "
            f"({res['peer_hands']:,} hands)"
        )
    for name, msg in res["peer_errors"].items():
        print(f"  {name:12s} failed: {msg}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
