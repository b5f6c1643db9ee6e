"""Time the exact solvers' count stage on the GPU (CuPy kernel) against the CPU solver, one
line per game, both run in this process on the same board classes (alternating, medians).

Usage: python benchmarks/exact_gpu.py [--game casino_holdem|holdem_bonus|both]
           [--classes N] [--repeat R] [--workers W] [--json FILE]

--classes N takes the first N board classes of each game (default: all, the full solve:
16,432 4-card classes for Texas Hold'em Bonus, 1,755 flops for Casino Hold'em). Every repeat
checks that the two count arrays are equal. For Texas Hold'em Bonus the line also gives the
full `gpusim exact holdem_bonus` solve with the GPU counts (river stage on the GPU, turn stage
and pricing on the CPU; target <= 60 s on one H200). Kernel compilation (NVRTC, once per
process) is timed apart. Without a usable GPU it says why and exits with code 0.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np


def _median(xs: list[float]) -> float:
    return round(statistics.median(xs), 3)


def bench_game(game: str, n_classes: int | None, repeat: int, workers: int) -> dict:
    from gpusim.board_index import board_classes
    from gpusim.config import load_config
    from gpusim.games.holdem import call_once_cupy as ch_cupy
    from gpusim.games.holdem import streets_cupy as thb_cupy

    if game == "holdem_bonus":
        from gpusim.games.holdem.streets_counts import solve_river

        total = board_classes(4).n_classes
        ids = np.arange(min(n_classes or total, total))

        def cpu():
            return solve_river(4, board_ids=ids, workers=workers)

        def gpu():
            return thb_cupy.solve_river_cupy(4, board_ids=ids)

        def same(a, b):
            return all(np.array_equal(getattr(a, k), getattr(b, k)) for k in
                       ("W", "L", "WX", "valid", "class_wins", "class_ties", "class_losses",
                        "class_hands"))

        warm = lambda: thb_cupy.solve_river_cupy(4, board_ids=ids[:1])  # noqa: E731
    else:
        from gpusim.games.holdem.call_once_counts import solve_counts
        from gpusim.games.holdem.call_once_shape import qualifier_rank

        q = qualifier_rank(load_config("casino_holdem").game_def)
        total = board_classes(3).n_classes
        ids = np.arange(min(n_classes or total, total))

        def cpu():
            return solve_counts(q, flop_ids=ids, workers=workers)

        def gpu():
            return ch_cupy.solve_counts_cupy(q, flop_ids=ids)

        def same(a, b):
            return all(np.array_equal(getattr(a, k), getattr(b, k)) for k in
                       ("counts", "valid", "bonus_rank"))

        warm = lambda: ch_cupy.solve_counts_cupy(q, flop_ids=ids[:1])  # noqa: E731

    t0 = time.perf_counter()
    warm()
    compile_s = time.perf_counter() - t0
    cpu_s, gpu_s, equal = [], [], True
    for _ in range(repeat):
        t0 = time.perf_counter()
        a = gpu()
        gpu_s.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        b = cpu()
        cpu_s.append(time.perf_counter() - t0)
        equal &= same(a, b)
    row = {
        "game": game,
        "classes": len(ids),
        "of": total,
        "repeat": repeat,
        "cpu_workers": workers,
        "cpu_count_s": _median(cpu_s),
        "cupy_count_s": _median(gpu_s),
        "cupy_compile_s": round(compile_s, 3),
        "speedup": round(statistics.median(cpu_s) / statistics.median(gpu_s), 1),
        "counts_equal": bool(equal),
    }
    if game == "holdem_bonus" and len(ids) == total:
        row["cupy_full_solve_s"] = round(_full_thb(a) + statistics.median(gpu_s), 3)
    return row


def _full_thb(river) -> float:
    """Seconds of the CPU stages after the GPU river counts: turn stage, preflop, report."""
    from gpusim.config import load_config
    from gpusim.games.holdem.streets import analyse
    from gpusim.games.holdem.streets_counts import preflop_ev, river_rule, turn_pass
    from gpusim.games.holdem.streets_shape import prices_of

    rules = load_config("holdem_bonus")
    t0 = time.perf_counter()
    rb = river_rule(river, "optimal")
    tp = turn_pass(river, rb, "optimal")
    num, den = preflop_ev(tp.joint)
    analyse(river, tp, num > -den, prices_of(rules), "optimal")
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="both", choices=["casino_holdem", "holdem_bonus", "both"])
    ap.add_argument("--classes", type=int, default=None, help="first N board classes (all)")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--workers", type=int, default=None,
                    help="CPU solver worker processes (default: the usable CPU cores)")
    ap.add_argument("--json", default=None, help="also write the rows to this file")
    args = ap.parse_args()
    from gpusim.exact._parallel import default_workers
    from gpusim.exact.cupy_counts import unavailable_reason

    why = unavailable_reason()
    if why is not None:
        print(f"exact_gpu: not run, no usable GPU: {why}")
        return
    from gpusim.compute.backends.cupy_rounds import device_name

    workers = args.workers or default_workers()
    games = ["holdem_bonus", "casino_holdem"] if args.game == "both" else [args.game]
    rows = []
    for g in games:
        row = {"device": device_name(), **bench_game(g, args.classes, args.repeat, workers)}
        rows.append(row)
        print(", ".join(f"{k}={v}" for k, v in row.items()), flush=True)
        if args.json:
            with open(args.json, "w") as f:
                json.dump(rows, f, indent=2)


if __name__ == "__main__":
    main()
