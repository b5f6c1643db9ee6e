"""The JAX path beside a native reference, in one run: evaluator, steady state, whole process.

Usage::

    python benchmarks/native.py [--quick] [--whole-rounds 1e8] [--chunk-rounds 1048576]
                                [--repeats 3] [--threads N] [--configs casino_holdem,holdem_bonus]
                                [--strategies optimal,basic] [--json]

The native reference is the project's own CUDA device functions (``kernels/*.cuh``, the code the
tests host-compile) built for this CPU with ``g++ -O3 -march=native`` and run on every core with
std::thread (``benchmarks/native_ref.cpp``). Both sides play the same rounds, and their counts
are compared (chunk and whole run) before any rate is printed.

- **evaluator**: 7-card evaluations/s (native: every core over 2^22 dealt hands; JAX:
  ``gpusim.compute.bench.bench_evaluator``, batches of 2^20);
- **steady state**: rounds/s of one chunk after a warm-up chunk, exactly as
  ``benchmarks/simulate.py`` measures it (JAX: ``ChunkRunner``; native: the same loop as the CUDA
  kernel, per-thread histograms);
- **whole process**: wall time of a whole ``gpusim simulate`` process (start-up, compilation
  cache, Parquet parts, manifest, summary) against the whole native process (start, tables,
  rounds, counts file) for the same rounds. The first JAX run of each strategy fills a fresh
  compilation cache and is reported apart.

Every figure is the median over ``--repeats`` interleaved repeats, each timing a JAX chunk, a
native chunk, a whole JAX process and a whole native process in turn; the ratios are JAX /
native rates and, for the JAX path, whole process / steady state (the median of each repeat's
own ratio, so that the machine's drift between repeats cancels).
``--quick`` (a few minutes on 2 cores): the optimal strategy of each game, 2 x 10^7 rounds.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SEED = 1


def _fail(msg: str) -> None:
    print(f"native.py: {msg}", file=sys.stderr)
    raise SystemExit(2)


def build_native(work: Path) -> Path:
    """Compile benchmarks/native_ref.cpp against kernels/ with -O3 -march=native."""
    gxx = shutil.which("g++")
    if gxx is None:
        _fail("g++ is not installed; the native reference needs it")
    exe = work / "native_ref"
    cmd = [gxx, "-O3", "-march=native", "-std=c++17", "-pthread", f"-I{ROOT / 'kernels'}",
           str(ROOT / "benchmarks" / "native_ref.cpp"), "-o", str(exe)]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        _fail(f"g++ failed: {proc.stderr.strip().splitlines()[-1] if proc.stderr else '?'}")
    return exe


class Case:
    """One config and strategy on both sides."""

    def __init__(self, config: str, strategy: str, work: Path):
        from gpusim.compute.backends.cupy_rounds import strategy_spec
        from gpusim.config import load_config
        from gpusim.games import bets, spec_for
        from gpusim.games.strategy_registry import get_strategy

        self.config, self.strategy = config, strategy
        self.rules = load_config(config)
        self.strat = get_strategy(strategy, self.rules)
        self.spec = strategy_spec(self.rules, self.strat)  # StrategyError: no kernel form
        self.tables = work / f"tables-{config}-{strategy}"
        self.tables.mkdir(exist_ok=True)
        for key, arr in self.spec.tables.items():
            np.ascontiguousarray(arr).tofile(self.tables / f"{key}.bin")
        offered = bets(self.rules)
        self.kernel = spec_for(self.rules).kernel
        self.game = "ch" if self.kernel.source == "casino_holdem" else "thb"
        # the kernel's game arguments: ch "qualifier,has_aa", thb the flags
        self.arg = ",".join(str(int(x)) for x in self.kernel.head_args(self.rules))
        self.meter0 = spec_for(self.rules).start_meter(self.rules) if "jackpot" in offered else 0
        self.work = work

    def native_args(self, exe: Path, mode: str) -> list[str]:
        return [str(exe), mode, self.game, str(self.spec.code), str(self.tables), str(SEED)]

    def counts_file(self, path: Path, n_rounds: int):
        """(ChunkCounts, meter) of rounds 0..n_rounds-1 from a native counts file."""
        from gpusim.compute.bins import bin_layout, counts_from_bins, remap_codes
        from gpusim.games.spec import load

        n_max = 23 * 22 if self.game == "ch" else 52 * 21 * 10
        raw = np.fromfile(path, np.uint64)
        bins, k = raw[:n_max].astype(np.int64), int(raw[n_max])
        words = raw[n_max + 1 : n_max + 1 + k].astype(np.int64)
        hits = np.stack([words >> 16, words & 0xFFFF], axis=1)
        n_bins = bin_layout(self.rules).n_bins
        if self.kernel.code_map:  # a described game: the kernel's codes in its joint codes
            to_joint = load(self.kernel.code_map)(self.rules)
            if bins[len(to_joint):].any():
                raise RuntimeError("native reference counted codes outside the kernel's")
            bins, hits = remap_codes(to_joint, n_bins, bins[: len(to_joint)], hits)
        elif bins[n_bins:].any():
            raise RuntimeError("native reference counted codes outside the layout")
        return counts_from_bins(self.rules, bins[:n_bins], hits, 0, n_rounds, self.meter0)


def _median(xs: list[float]) -> float:
    return statistics.median(xs)


def bench_evaluator(exe: Path, threads: int, repeats: int) -> dict:
    from gpusim.compute.bench import bench_evaluator as jax_eval

    jax_eval(1 << 20, 1, 0, peers=False)  # warm-up: compile
    native, jx = [], []
    for _ in range(repeats):
        out = subprocess.run([str(exe), "eval", str(1 << 22), str(threads), "3"],
                             capture_output=True, text=True, check=True)  # fmt: skip
        native.append(json.loads(out.stdout)["evals_per_s"])
        jx.append(jax_eval(1 << 20, 3, 0, peers=False)["evals_per_s"])
    return {"native_evals_per_s": _median(native), "jax_evals_per_s": _median(jx),
            "jax_over_native": _median(jx) / _median(native)}  # fmt: skip


def bench_case(case: Case, exe: Path, chunk_rounds: int, whole_rounds: int, threads: int,
               repeats: int, cache: Path) -> dict:  # fmt: skip
    """Steady state and whole process, JAX and native, interleaved: each repeat times a JAX
    chunk, a native chunk, a whole JAX process and a whole native process, one after another,
    so that a change in the machine's speed touches both sides of every ratio alike; the
    whole/steady ratio is the median of the per-repeat ratios."""
    from gpusim.compute.chunks import ChunkRunner

    runner = ChunkRunner(case.rules, case.strat)
    want = runner(SEED, 0, chunk_rounds, case.meter0)  # warm-up (compiles), and the truth
    chunk_out = case.work / "chunk.bin"
    env = {**os.environ, "GPUSIM_COMPILE_CACHE": str(cache)}
    out = case.work / f"run-{case.config}-{case.strategy}"
    jax_cmd = [sys.executable, "-m", "gpusim", "simulate", case.config, "--rounds",
               str(whole_rounds), "--seed", str(SEED), "--strategy", case.strategy,
               "--backend", "jax-cpu", "--out", str(out), "--force", "--quiet"]  # fmt: skip
    native_out = case.work / "whole.bin"
    native_cmd = [*case.native_args(exe, "run"), str(whole_rounds), case.arg, str(threads),
                  str(native_out)]  # fmt: skip

    def timed(cmd, **kw) -> float:
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, **kw)
        return time.perf_counter() - t0

    first = timed(jax_cmd, env=env)  # fills the compilation cache
    r: dict[str, list[float]] = {k: [] for k in ("steady", "steady_native", "whole",
                                                 "whole_native")}  # fmt: skip
    for k in range(repeats):
        t0 = time.perf_counter()
        runner(SEED, (k + 1) * chunk_rounds, chunk_rounds, case.meter0)
        r["steady"].append(chunk_rounds / (time.perf_counter() - t0))
        res = subprocess.run(
            [*case.native_args(exe, "chunk"), str(chunk_rounds), case.arg, str(threads), "1",
             str(chunk_out)], capture_output=True, text=True, check=True,
        )  # fmt: skip
        r["steady_native"].append(json.loads(res.stdout)["rounds_per_s"])
        if k == 0 and case.counts_file(chunk_out, chunk_rounds) != want:
            raise RuntimeError(f"{case.config}/{case.strategy}: native chunk counts differ")
        r["whole"].append(whole_rounds / timed(jax_cmd, env=env))
        r["whole_native"].append(whole_rounds / timed(native_cmd))
        if k == 0:
            counts, _ = case.counts_file(native_out, whole_rounds)
            expect = {(b, n): c for b, d in counts.outcomes.items() for n, c in d.items()}
            if _run_totals(out) != expect:
                raise RuntimeError(f"{case.config}/{case.strategy}: whole-run counts differ")
    shutil.rmtree(out, ignore_errors=True)
    med = {k: _median(v) for k, v in r.items()}
    return {
        "steady": {"native_rounds_per_s": med["steady_native"], "jax_rounds_per_s": med["steady"],
                   "jax_over_native": med["steady"] / med["steady_native"]},
        "whole": {"rounds": whole_rounds, "jax_first_run_s": first,
                  "jax_s": whole_rounds / med["whole"],
                  "native_s": whole_rounds / med["whole_native"],
                  "jax_rounds_per_s": med["whole"], "native_rounds_per_s": med["whole_native"],
                  "jax_over_native": med["whole"] / med["whole_native"]},
        "jax_whole_over_steady": _median([w / s for w, s in zip(r["whole"], r["steady"],
                                                                strict=True)]),
        "runs": r,
    }  # fmt: skip


def _run_totals(path: Path) -> dict:
    import polars as pl

    import gpusim

    run = gpusim.open_run(path)
    o = run.outcomes().collect().group_by(["bet", "net"]).agg(pl.col("count").sum())
    return {(b, n): c for b, n, c in o.rows()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="optimal only, 2e7 rounds per run")
    ap.add_argument("--whole-rounds", default=None, help="rounds per whole run (default 1e8)")
    ap.add_argument("--chunk-rounds", type=int, default=1 << 20)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--configs", default="casino_holdem,holdem_bonus")
    ap.add_argument("--strategies", default=None, help="comma list (default: every strategy "
                    "with a kernel form; --quick: optimal)")  # fmt: skip
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    from gpusim.games.strategy_registry import strategy_names
    from gpusim.runs.runner import SimulationError, parse_rounds
    from gpusim.strategy import StrategyError

    try:
        whole = parse_rounds(args.whole_rounds or ("2e7" if args.quick else "1e8"),
                             "--whole-rounds")  # fmt: skip
    except SimulationError as exc:
        _fail(str(exc))
    if args.repeats < 1 or args.threads < 1 or args.chunk_rounds < 1:
        _fail("--repeats, --threads and --chunk-rounds must be at least 1")
    wanted = args.strategies or ("optimal" if args.quick else None)

    with tempfile.TemporaryDirectory(prefix="gpusim-native-") as tmp:
        work = Path(tmp)
        exe = build_native(work)
        report = {"threads": args.threads, "repeats": args.repeats,
                  "chunk_rounds": args.chunk_rounds, "whole_rounds": whole,
                  "evaluator": bench_evaluator(exe, args.threads, args.repeats),
                  "rows": []}  # fmt: skip
        if not args.json:
            e = report["evaluator"]
            print(f"native reference: g++ -O3 -march=native, {args.threads} threads; medians of "
                  f"{args.repeats} alternating runs")  # fmt: skip
            print(f"7-card evaluator: native {e['native_evals_per_s'] / 1e6:.1f} M/s, "
                  f"JAX {e['jax_evals_per_s'] / 1e6:.1f} M/s, JAX/native "
                  f"{e['jax_over_native']:.2f}")  # fmt: skip
            print(f"{'config':<15}{'strategy':<18}{'steady native':>14}{'JAX':>8}{'ratio':>7}"
                  f"{'whole native':>14}{'JAX':>8}{'ratio':>7}{'JAX whole/steady':>18}"
                  f"{'JAX 1st run':>12}")  # fmt: skip
        for config in args.configs.split(","):
            from gpusim.config import load_config

            names = wanted.split(",") if wanted else strategy_names(load_config(config).game)
            for strategy in names:
                try:
                    case = Case(config, strategy, work)
                except StrategyError as exc:
                    if wanted:
                        _fail(str(exc))
                    continue
                row = {"config": config, "strategy": strategy,
                       **bench_case(case, exe, args.chunk_rounds, whole, args.threads,
                                    args.repeats, work / "cache")}  # fmt: skip
                steady, run = row["steady"], row["whole"]
                report["rows"].append(row)
                if not args.json:
                    print(f"{config:<15}{strategy:<18}"
                          f"{steady['native_rounds_per_s'] / 1e6:>12.1f} M"
                          f"{steady['jax_rounds_per_s'] / 1e6:>6.1f} M"
                          f"{steady['jax_over_native']:>7.2f}"
                          f"{run['native_rounds_per_s'] / 1e6:>12.1f} M"
                          f"{run['jax_rounds_per_s'] / 1e6:>6.1f} M{run['jax_over_native']:>7.2f}"
                          f"{row['jax_whole_over_steady']:>18.2f}"
                          f"{run['jax_first_run_s']:>11.1f}s", flush=True)  # fmt: skip
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"whole process: {whole:,} rounds per run; rates in rounds/s; ratio = JAX / native")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
