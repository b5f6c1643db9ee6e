"""Ten paytables, one compile: a paytable sweep reuses one compiled batch program.

Usage::

    python benchmarks/paytables.py [--sweeps thb-bonus,ch-ante] [--rounds 1048576]
                                   [--strategy basic] [--json]

A sweep simulates ``--rounds`` rounds (seed 1) of each of ten paytables of one bet, one after
the other in one process, as a what-if or design loop would: ``thb-bonus`` ten Bonus paytables
of ``holdem_bonus`` (the shipped one, docs/design.md's five designed ones and four others),
``ch-ante`` ten Ante paytables of ``casino_holdem``. Each paytable is a fresh config (a new
``config_hash``) run by a fresh :class:`~gpusim.compute.chunks.ChunkRunner`, exactly as
``gpusim simulate`` runs a chunk (Parquet writing excluded). The RTP column is the swept
bet's own (returned / wagered on it).

Compiles are counted twice, independently: by JAX (``jax.monitoring`` reports every XLA
backend compile of the process) and by the program cache's own counter
(:data:`gpusim.compute.program.BUILDS`). The program cache starts empty (a temporary folder).

The peer, side by side in the same process: the same ten paytables with a program built
afresh for each (``program_cache=False``: trace and compile), which is what every new paytable
cost while the cache key held the config hash and the pays were constants in the program. Its
counts are checked equal to the sweep's, paytable by paytable.

The strategy is built once from the first paytable's config (default ``basic``, a rule list;
``optimal`` would use the shipped config's decision tables for all ten, which is the optimum
for the Bonus, whose pays do not change a decision, but not for the Ante).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time

SWEEPS = {
    # (config, bet, paytable attribute, lines in order, ten paytables)
    "thb-bonus": (
        "holdem_bonus", "bonus", "bonus_paytable",
        ("AA_vs_dealer_AA", "AA", "AKs", "AQs_AJs", "AKo", "KK_QQ_JJ", "AQo_AJo", "TT_to_22"),
        [
            (1000, 30, 25, 20, 15, 10, 5, 3),  # shipped (the Icelandic rules)
            (1000, 25, 20, 17, 15, 12, 5, 5),  # docs/design.md candidates 1..5
            (1000, 25, 20, 20, 13, 12, 5, 5),
            (1000, 25, 21, 18, 14, 12, 5, 5),
            (1000, 25, 22, 16, 15, 12, 5, 5),
            (1000, 25, 22, 19, 13, 12, 5, 5),
            (500, 30, 25, 20, 15, 10, 5, 3),
            (1000, 40, 30, 20, 15, 10, 5, 3),
            (1000, 30, 25, 20, 15, 10, 4, 2),
            (1000, 30, 30, 25, 20, 10, 5, 3),
        ],
    ),
    "ch-ante": (
        "casino_holdem", "ante", "ante_paytable",
        ("royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush",
         "straight_or_less"),
        [
            (100, 20, 10, 3, 2, 1),  # shipped (the Norwegian rules)
            (100, 20, 11, 3, 2, 1),  # docs/design.md candidates 2..5
            (150, 20, 10, 3, 2, 1),
            (150, 20, 9, 3, 2, 1),
            (50, 20, 11, 3, 2, 1),
            (200, 50, 10, 3, 2, 1),
            (100, 20, 10, 4, 2, 1),
            (100, 20, 10, 3, 3, 1),
            (100, 25, 12, 3, 2, 1),
            (500, 50, 20, 3, 2, 1),
        ],
    ),
}  # fmt: skip
COMPILES = ("compiled", "unsaved", "jit")
XLA_COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"
"""What JAX reports once per XLA compile (``jax._src.dispatch.BACKEND_COMPILE_EVENT``)."""


def _configs(sweep: str) -> tuple[list, str]:
    from dataclasses import replace

    from gpusim.config import load_config
    from gpusim.rules import Paytable

    config, bet, attr, lines, tables = SWEEPS[sweep]
    base = load_config(config)
    out = []
    for i, pays in enumerate(tables):
        table = Paytable(tuple(zip(lines, pays, strict=True)))
        out.append(replace(base, name=f"{config}-{sweep}-{i}", **{attr: table}))
    return out, bet


class _XlaCompiles:
    """Counts the process's XLA backend compiles, as JAX reports them."""

    def __init__(self):
        import jax.monitoring

        self.n = 0

        def listen(event: str, duration: float, **kwargs) -> None:
            if event == XLA_COMPILE_EVENT:
                self.n += 1

        jax.monitoring.register_event_duration_secs_listener(listen)


def _one(rules, strategy, rounds: int, cache: bool, xla: _XlaCompiles) -> dict:
    """Build a runner for ``rules`` and count ``rounds`` rounds; times and compiles."""
    from gpusim.compute import program
    from gpusim.compute.chunks import ChunkRunner

    xla0, builds0 = xla.n, sum(program.BUILDS[o] for o in COMPILES)
    t0 = time.perf_counter()
    runner = ChunkRunner(rules, strategy, program_cache=cache)
    origin = runner.program(runner.batch).origin
    t1 = time.perf_counter()
    counts, _ = runner(1, 0, rounds, 0)
    t2 = time.perf_counter()
    return {
        "origin": origin,
        "xla_compiles": xla.n - xla0,
        "program_compiles": sum(program.BUILDS[o] for o in COMPILES) - builds0,
        "build_s": t1 - t0,
        "run_s": t2 - t1,
        "total_s": t2 - t0,
        "counts": counts,
    }


def _sweep(name: str, strategy_name: str, rounds: int, xla: _XlaCompiles) -> dict:
    from gpusim.games.strategy_registry import get_strategy

    configs, bet = _configs(name)
    strategy = get_strategy(strategy_name, configs[0])
    ours = [_one(r, strategy, rounds, True, xla) for r in configs]
    peer = [_one(r, strategy, rounds, False, xla) for r in configs]
    rows = []
    for i, (a, b) in enumerate(zip(ours, peer, strict=True)):
        same = a["counts"].wagers == b["counts"].wagers and a["counts"].events == b["counts"].events
        _, wagered, returned, _, _ = a["counts"].wagers[bet]
        rows.append({
            "paytable": i, "rtp": returned / wagered, "same_counts": same,
            **{f"{k}": a[k] for k in ("origin", "xla_compiles", "program_compiles", "build_s",
                                      "run_s", "total_s")},
            **{f"peer_{k}": b[k] for k in ("xla_compiles", "program_compiles", "build_s",
                                           "run_s", "total_s")},
        })  # fmt: skip
    rest = rows[1:]
    return {
        "sweep": name, "config": configs[0].game, "bet": bet, "strategy": strategy_name,
        "rounds": rounds, "rows": rows,
        "xla_compiles": sum(r["xla_compiles"] for r in rows),
        "peer_xla_compiles": sum(r["peer_xla_compiles"] for r in rows),
        "program_compiles": sum(r["program_compiles"] for r in rows),
        "peer_program_compiles": sum(r["peer_program_compiles"] for r in rows),
        "first_total_s": rows[0]["total_s"],
        "rest_median_total_s": statistics.median(r["total_s"] for r in rest),
        "peer_median_total_s": statistics.median(r["peer_total_s"] for r in rows),
        "median_run_s": statistics.median(r["run_s"] for r in rows),
        "peer_median_run_s": statistics.median(r["peer_run_s"] for r in rows),
    }  # fmt: skip


def _print(res: dict) -> None:
    print(f"\n{res['sweep']}: {res['config']} {res['bet']}, strategy {res['strategy']}, "
          f"{res['rounds']:,} rounds per paytable")  # fmt: skip
    print(f"{'#':>2} {res['bet'] + ' RTP':>11} {'program':>8} {'XLA':>4} {'build s':>8} "
          f"{'run s':>7} {'total s':>8} | {'peer XLA':>8} {'build s':>8} {'run s':>7} "
          f"{'total s':>8} same")
    for r in res["rows"]:
        print(f"{r['paytable']:>2} {100 * r['rtp']:>10.3f}% {r['origin']:>8} "
              f"{r['xla_compiles']:>4} {r['build_s']:>8.2f} {r['run_s']:>7.2f} "
              f"{r['total_s']:>8.2f} | {r['peer_xla_compiles']:>8} {r['peer_build_s']:>8.2f} "
              f"{r['peer_run_s']:>7.2f} {r['peer_total_s']:>8.2f} "
              f"{'yes' if r['same_counts'] else 'NO'}")  # fmt: skip
    print(f"ten paytables: {res['program_compiles']} batch program compiled, "
          f"{res['xla_compiles']} XLA compiles in all; peer (a program per paytable): "
          f"{res['peer_program_compiles']} and {res['peer_xla_compiles']}")
    print(f"per paytable: first {res['first_total_s']:.2f} s, the other nine median "
          f"{res['rest_median_total_s']:.2f} s; peer median {res['peer_median_total_s']:.2f} s "
          f"({res['peer_median_total_s'] / res['rest_median_total_s']:.1f}x); counting alone "
          f"median {res['median_run_s']:.3f} s vs peer {res['peer_median_run_s']:.3f} s")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sweeps", default="thb-bonus,ch-ante", help=", ".join(SWEEPS))
    ap.add_argument("--rounds", type=int, default=1 << 20, help="rounds per paytable")
    ap.add_argument("--strategy", default="basic")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    for name in args.sweeps.split(","):
        if name not in SWEEPS:
            print(f"--sweeps: {name!r} is not allowed; allowed: {', '.join(SWEEPS)}",
                  file=sys.stderr)
            return 2
    with tempfile.TemporaryDirectory(prefix="gpusim-paytables-") as cache:
        from gpusim import compile_cache

        os.environ[compile_cache.ENV] = cache  # an empty program cache: the first compile counts
        xla = _XlaCompiles()
        results = [_sweep(n, args.strategy, args.rounds, xla) for n in args.sweeps.split(",")]
    load = os.getloadavg()
    if args.json:
        print(json.dumps({"load_average": load, "sweeps": results}, indent=2))
        return 0
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (a shared machine: times "
          "are noisy; compile counts are not)")
    for res in results:
        _print(res)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
