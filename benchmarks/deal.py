"""Side-by-side dealing benchmark: gpusim.deal (JAX) against common shuffling idioms.

Usage: python benchmarks/deal.py [--json] [--rounds N] [--repeats R] [--n-cards K]
                                 [--peer-rounds M] [--no-peers]

Every contender deals K distinct cards 0..51 per round (default 9, a Hold'em round).
gpusim deals N rounds per call; peers deal M rounds per call (the slow ones would take
minutes at N). Rates are medians over R timed calls after a warm-up (which also compiles),
in deals per second of wall-clock time; "per CPU-s" divides by the process's CPU time
instead, which is steadier on a shared machine. Ratios are gpusim / peer.

Peers: numpy ``Generator.permuted`` on a (M, 52) deck and ``argsort`` of (M, 52) uniforms;
JAX ``vmap(jax.random.permutation)`` over per-round keys and ``argsort`` of
``jax.random.uniform``. gpusim's numpy reference ``deal_numpy`` is listed too.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Callable

import jax
import jax.numpy as jnp
import numpy as np

from gpusim.dealing import deal
from gpusim.dealing_numpy import deal_numpy


def _time(fn: Callable[[], object], repeats: int) -> tuple[list[float], list[float]]:
    wall, cpu = [], []
    for _ in range(repeats):
        c0, t0 = time.process_time(), time.perf_counter()
        jax.block_until_ready(fn())
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return wall, cpu


def _peers(m: int, k: int, seed: int) -> dict[str, Callable[[], object]]:
    rng = np.random.default_rng(seed)
    deck = np.broadcast_to(np.arange(52, dtype=np.int8), (m, 52))

    @jax.jit
    def jax_permutation(key):
        keys = jax.random.split(key, m)
        return jax.vmap(lambda kk: jax.random.permutation(kk, 52)[:k])(keys)

    @jax.jit
    def jax_argsort(key):
        return jnp.argsort(jax.random.uniform(key, (m, 52)), axis=1)[:, :k]

    key = jax.random.key(seed)
    return {
        "numpy permuted": lambda: rng.permuted(deck, axis=1)[:, :k],
        "numpy argsort": lambda: np.argsort(rng.random((m, 52)), axis=1)[:, :k],
        "jax permutation": lambda: jax_permutation(key),
        "jax argsort": lambda: jax_argsort(key),
        "gpusim deal_numpy": lambda: deal_numpy(seed, 0, m, k),
    }


def bench_deal(
    n_rounds: int = 1 << 18,
    repeats: int = 9,
    n_cards: int = 9,
    seed: int = 0,
    *,
    peer_rounds: int = 1 << 15,
    peers: bool = True,
) -> dict:
    """Time ``deal`` on batches of ``n_rounds`` (fresh round offsets each call) and peers."""
    for name, value, low in (("n_rounds", n_rounds, 1), ("repeats", repeats, 1),
                             ("peer_rounds", peer_rounds, 1)):  # fmt: skip
        if value < low:
            raise ValueError(f"{name}: got {value}; expected an integer >= {low}")
    calls = iter(range(1, 1 << 30))
    deal(seed, 0, n_rounds, n_cards).block_until_ready()
    wall, cpu = _time(lambda: deal(seed, next(calls) * n_rounds, n_rounds, n_cards), repeats)
    rate = n_rounds / statistics.median(wall)
    result: dict = {
        "deals_per_s": rate,
        "deals_per_cpu_s": n_rounds / max(statistics.median(cpu), 1e-9),
        "best_deals_per_s": n_rounds / min(wall),
        "batch": n_rounds,
        "n_cards": n_cards,
        "repeats": repeats,
        "peer_rounds": peer_rounds,
        "backend": jax.default_backend(),
        "device": str(jax.devices()[0]),
        "cpu_count": os.cpu_count(),
        "seconds": wall,
        "peers": {},
        "peer_cpu": {},
        "ratios": {},
    }
    if not peers:
        return result
    for name, run in _peers(peer_rounds, n_cards, seed).items():
        jax.block_until_ready(run())
        p_wall, p_cpu = _time(run, max(1, min(repeats, 5)))
        result["peers"][name] = peer_rounds / statistics.median(p_wall)
        result["peer_cpu"][name] = peer_rounds / max(statistics.median(p_cpu), 1e-9)
        result["ratios"][name] = rate / result["peers"][name]
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--rounds", type=int, default=1 << 18, help="gpusim rounds per call")
    parser.add_argument("--repeats", type=int, default=9, help="timed calls per contender")
    parser.add_argument("--n-cards", type=int, default=9, help="cards per round (1..52)")
    parser.add_argument("--seed", type=int, default=0, help="run seed")
    parser.add_argument("--peer-rounds", type=int, default=1 << 15, help="rounds per peer call")
    parser.add_argument("--no-peers", action="store_true", help="time gpusim only")
    args = parser.parse_args(argv)
    try:
        res = bench_deal(args.rounds, args.repeats, args.n_cards, args.seed,
                         peer_rounds=args.peer_rounds, peers=not args.no_peers)  # fmt: skip
    except ValueError as exc:
        parser.error(str(exc))
    if args.json:
        print(json.dumps(res))
        return 0
    print(
        f"{res['n_cards']}-card deals, median of {res['repeats']} calls "
        f"({res['backend']}: {res['device']}, {res['cpu_count']} CPUs)"
    )
    print(f"  {'contender':18s} {'rounds/call':>11s} {'M deals/s':>10s} {'M per CPU-s':>12s}"
          f" {'gpusim is':>10s}")  # fmt: skip
    print(
        f"  {'gpusim deal':18s} {res['batch']:11,d} {res['deals_per_s'] / 1e6:10.2f}"
        f" {res['deals_per_cpu_s'] / 1e6:12.2f} {'':>10s}"
    )
    for name, rate in res["peers"].items():
        print(
            f"  {name:18s} {res['peer_rounds']:11,d} {rate / 1e6:10.2f}"
            f" {res['peer_cpu'][name] / 1e6:12.2f} {res['ratios'][name]:9.1f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
