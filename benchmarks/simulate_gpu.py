"""GPU simulation throughput: the CuPy fused kernels beside gpusim's JAX path on the same GPU.

Usage::

    python benchmarks/simulate_gpu.py [--rounds 2**30] [--chunk 2**27] [--jax-rounds 2**22]
                                      [--check] [--json OUT.json]

For each game and strategy the CuPy backend plays ``--rounds`` rounds in chunks of ``--chunk``
exactly as ``gpusim simulate --backend cupy`` would (deal, decide, settle, count; Parquet writing
excluded) after a warm-up chunk that pays for the NVRTC compile, and reports rounds/s over the
whole timed span (each chunk ends with its counts on the host, so the time is complete). The JAX
runner (``gpusim.runs.runner``) is timed the same way on ``--jax-rounds`` rounds for the
side-by-side, on whatever device JAX uses (the GPU where jax[cuda] is installed). Each row first
prints the kernel's occupancy: registers, shared and local bytes, and the resident blocks per SM
(driver occupancy query) times SMs that make the grid.

``--check`` first plays a few chunks both ways and requires identical counts (a quick version of
``tests/test_cupy_rounds.py`` for machines without pytest); a mismatch exits with status 1.

Needs CuPy, JAX and numpy; polars is not needed (stubbed: only the run-folder writer uses it).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

PAIRS = [
    ("casino_holdem", "always-play"),
    ("casino_holdem", "basic"),
    ("casino_holdem", "optimal"),
    ("holdem_bonus", "always-play"),
    ("holdem_bonus", "basic"),
    ("holdem_bonus", "optimal"),
    ("ultimate_holdem", "always-check"),
    ("ultimate_holdem", "basic"),
    ("ultimate_holdem", "optimal"),
]
CHECKS = [
    ("casino_holdem", "optimal", 1, 2**33, 1_000_003),
    ("casino_holdem_evolution", "side-bet-optimal", 2, 0, 500_000),
    ("holdem_bonus", "optimal", 3, 0, 1_000_003),
    ("holdem_bonus_classic", "basic", 4, 123, 500_000),
    ("ultimate_holdem", "optimal", 5, 2**32 - 7, 1_000_003),
    ("ultimate_holdem", "basic", 6, 0, 500_000),
    # Casino Hold'em's rule strategies through the call-once kernel's code map too
    ("casino_holdem", "basic", 7, 0, 500_000),
    ("casino_holdem_evolution", "side-bet-optimal", 8, 2**33, 500_000),
]


def _count(text: str) -> int:
    """A positive round count: ``1048576``, ``1_000_000``, ``1e9`` or ``2**30``."""
    t = text.replace("_", "").strip()
    if "**" in t:
        base, exp = t.split("**")
        value = int(base) ** int(exp)
    else:
        value = int(float(t)) if ("e" in t.lower() or "." in t) else int(t)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"got {text!r}; expected a positive round count")
    return value


def _jax_runner(rules, strat):
    from gpusim.compute.chunks import ChunkRunner

    return ChunkRunner(rules, strat)


def _rate(run, rounds: int, chunk: int) -> tuple[float, float]:
    """(rounds/s, seconds) over ``rounds`` rounds in chunks, after one warm-up chunk."""
    meter = 0
    run(1, 0, min(chunk, rounds), meter)
    t0 = time.perf_counter()
    done = 0
    while done < rounds:
        n = min(chunk, rounds - done)
        _, meter = run(1, chunk + done, n, meter)
        done += n
    dt = time.perf_counter() - t0
    return rounds / dt, dt


def check(out: dict) -> bool:
    from gpusim.compute.backends import cupy_rounds as cb
    from gpusim.config import load_config
    from gpusim.games.strategy_registry import get_strategy
    from gpusim.strategy import StrategyError

    ok = True
    for config, strategy, seed, first, n in CHECKS:
        rules = load_config(config)
        try:
            strat = get_strategy(strategy, rules)
        except StrategyError as exc:  # e.g. decision tables not solved on this machine
            print(f"check skipped, {config} {strategy}: {exc}")
            continue
        got = cb.make_chunk_runner(rules, strat)(seed, first, n, 777)
        want = _jax_runner(rules, strat)(seed, first, n, 777)
        same = got == want
        ok &= same
        out["checks"].append(
            {"config": config, "strategy": strategy, "seed": seed, "first_round": first,
             "rounds": n, "equal": same}
        )  # fmt: skip
        print(f"check {config:24s} {strategy:18s} {n:>9d} rounds: {'equal' if same else 'DIFF'}")
    return ok


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=_count, default=2**30)
    p.add_argument("--chunk", type=_count, default=2**27)
    p.add_argument("--jax-rounds", type=_count, default=2**22)
    p.add_argument("--check", action="store_true")
    p.add_argument("--json", type=Path)
    args = p.parse_args(argv)

    from gpusim.compute.backends import cupy_rounds as cb
    from gpusim.config import load_config
    from gpusim.games.strategy_registry import get_strategy
    from gpusim.strategy import StrategyError

    if not cb.available():
        print(f"cupy backend unusable: {cb.unavailable_reason()}", file=sys.stderr)
        return 2
    import jax

    out = {
        "device": cb.device_name(),
        "jax_devices": [str(d) for d in jax.devices()],
        "rounds": args.rounds,
        "chunk": args.chunk,
        "jax_rounds": args.jax_rounds,
        "checks": [],
        "results": [],
    }
    print(f"device: {out['device']}; jax: {out['jax_devices']}")
    ok = check(out) if args.check else True
    for config, strategy in PAIRS:
        rules = load_config(config)
        try:
            strat = get_strategy(strategy, rules)
        except StrategyError as exc:
            print(f"skip {config} {strategy}: {exc}")
            continue
        t0 = time.perf_counter()
        run = cb.make_chunk_runner(rules, strat)
        run(1, 0, 1, 0)
        compile_s = time.perf_counter() - t0
        res = cb.kernel_resources(run.kernel)
        occupancy = {
            "registers": res["registers"], "shared_bytes": res["shared_bytes"],
            "local_bytes": res["local_bytes"], "blocks_per_sm": run.blocks_per_sm,
            "occupancy_source": run.occupancy_source, "multiprocessors": run.n_sm,
            "grid": cb.launch_grid(args.chunk, run.block, run.blocks_per_sm, run.n_sm),
        }  # fmt: skip
        print(f"{config:15s} {strategy:12s} occupancy: {res['registers']} registers, "
              f"{res['shared_bytes']} B shared, {res['local_bytes']} B local, "
              f"{run.blocks_per_sm} blocks of {run.block} per SM x {run.n_sm} SMs "
              f"= grid {occupancy['grid']} ({run.occupancy_source})")  # fmt: skip
        cupy_rate, cupy_s = _rate(run, args.rounds, args.chunk)
        jax_rate, jax_s = _rate(_jax_runner(rules, strat), args.jax_rounds,
                                min(args.jax_rounds, 1 << 22))  # fmt: skip
        row = {
            "config": config, "strategy": strategy, "cupy_rounds_per_s": cupy_rate,
            "cupy_seconds": cupy_s, "cupy_compile_s": compile_s, "jax_rounds_per_s": jax_rate,
            "jax_seconds": jax_s, "speedup": cupy_rate / jax_rate, "occupancy": occupancy,
        }  # fmt: skip
        out["results"].append(row)
        print(
            f"{config:15s} {strategy:12s} cupy {cupy_rate / 1e9:7.3f} G rounds/s "
            f"(compile {compile_s:5.1f} s)   jax {jax_rate / 1e6:9.1f} M rounds/s   "
            f"x{cupy_rate / jax_rate:6.1f}"
        )
        if args.json:
            args.json.write_text(json.dumps(out, indent=2))
    out["ok"] = ok
    if args.json:
        args.json.write_text(json.dumps(out, indent=2))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
