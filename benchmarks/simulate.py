"""Simulation throughput: gpusim's JAX CPU path beside a plain Python peer, in one run.

Usage::

    python benchmarks/simulate.py [--rounds 1048576] [--repeats 5] [--peer-rounds 20000]
                                  [--configs casino_holdem,holdem_bonus,ultimate_holdem] [--json]

With ``ultimate_holdem`` beside ``casino_holdem`` it also prints each Ultimate Texas Hold'em
strategy's rate as a multiple of Casino Hold'em ``optimal``'s, measured in the same run.

For each game and strategy gpusim plays whole chunks exactly as ``gpusim simulate`` does (deal,
decide, settle, count into the integer tables; Parquet writing excluded) and reports the median
rounds/s over the repeats after a warm-up chunk (the warm-up pays for jit compilation); the
strategies of a game take turns within each repeat.

The peer is what a careful analyst would write without gpusim: plain Python dealing with
``random.Random.sample`` and ranking each hand with eval7 (a C extension), always playing every
bet, settling the same paytables. It is timed on the same machine in the same process.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time


def _gpusim_rates(config: str, strategies: list[str], rounds: int, repeats: int) -> dict:
    """Median rounds/s of each strategy; the strategies take turns within each repeat, so a
    change in the machine's speed touches them alike."""
    from gpusim.compute.chunks import ChunkRunner
    from gpusim.config import load_config
    from gpusim.games import spec_for
    from gpusim.games.strategy_registry import get_strategy

    rules = load_config(config)
    meter = spec_for(rules).start_meter(rules)
    runners = {}
    for name in strategies:
        try:
            runner = ChunkRunner(rules, get_strategy(name, rules))
            if runner.program(runner.batch) is None:
                raise RuntimeError("counts on the host per round (not a simulation-scale strategy)")
        except Exception as exc:  # a strategy whose tables are not available here
            print(f"skip {config}/{name}: {exc}", file=sys.stderr)
            continue
        runner(1, 0, rounds, meter)  # warm-up
        runners[name] = runner
    times: dict[str, list[float]] = {name: [] for name in runners}
    for k in range(repeats):
        for name, runner in runners.items():
            t0 = time.perf_counter()
            runner(1, (k + 1) * rounds, rounds, meter)
            times[name].append(time.perf_counter() - t0)
    return {name: rounds / statistics.median(t) for name, t in times.items()}


# ---------------------------------------------------------------------------------------------
# the plain Python peer


def _peer_setup():
    import eval7

    deck = [eval7.Card(r + s) for r in "23456789TJQKA" for s in "cdhs"]
    ev = eval7.evaluate
    kinds = {
        "High Card": 0, "Pair": 1, "Two Pair": 2, "Trips": 3, "Straight": 4, "Flush": 5,
        "Full House": 6, "Quads": 7, "Straight Flush": 8,
    }

    def category(value: int) -> int:
        return kinds[eval7.handtype(value)]

    return deck, ev, category, eval7


def peer_casino_holdem(rounds: int, seed: int) -> int:
    """Always call; Ante 100/20/10/3/2/1, Call 1:1, AA Bonus 25 (flush+) / 7 (AA..straight)."""
    deck, ev, category, eval7 = _peer_setup()
    rng = random.Random(seed)
    qual = ev([eval7.Card(c) for c in ("4c", "4d", "2h", "3s", "6c")])
    aces = ev([eval7.Card(c) for c in ("Ac", "Ad", "2h", "3s", "4c")])
    ante_pay = [1, 1, 1, 1, 1, 2, 3, 10, 20]
    total = 0
    for _ in range(rounds):
        c = rng.sample(deck, 9)
        board = c[4:9]
        p = ev(c[0:2] + board)
        d = ev(c[2:4] + board)
        pc = category(p)
        ante = ante_pay[pc] if pc < 8 else (100 if p == ev([eval7.Card(x) for x in
                                                              ("As", "Ks", "Qs", "Js", "Ts")])
                                           else 20)
        if d < qual:
            net = ante
        elif p > d:
            net = ante + 2
        elif p == d:
            net = 0
        else:
            net = -3
        five = ev(c[0:2] + c[4:7])
        bonus = 25 if category(five) >= 5 else (7 if five >= aces else -1)
        total += net + bonus
    return total


def peer_holdem_bonus(rounds: int, seed: int) -> int:
    """Bet every street; Ante pays on a straight or better; Bonus on the hole cards."""
    deck, ev, category, _ = _peer_setup()
    rng = random.Random(seed)
    total = 0
    for _ in range(rounds):
        c = rng.sample(deck, 9)
        board = c[4:9]
        p = ev(c[0:2] + board)
        d = ev(c[2:4] + board)
        if p > d:
            net = 4 + (1 if category(p) >= 4 else 0)
        elif p == d:
            net = 0
        else:
            net = -5
        r1, r2 = sorted((c[0].rank, c[1].rank), reverse=True)
        suited = c[0].suit == c[1].suit
        if r1 == r2 == 12:
            bonus = 1000 if c[2].rank == c[3].rank == 12 else 30
        elif r1 == 12 and r2 == 11:
            bonus = 25 if suited else 15
        elif r1 == 12 and r2 in (10, 9):
            bonus = 20 if suited else 5
        elif r1 == r2 and r1 >= 9:
            bonus = 10
        elif r1 == r2:
            bonus = 3
        else:
            bonus = -1
        total += net + bonus
    return total


def peer_ultimate_holdem(rounds: int, seed: int) -> int:
    """Play 4x pre-flop every hand; Blind 500/50/10/3/3:2/1 (in half units: the Ante is 2),
    Trips 50/40/30/8/7/4/3; the dealer qualifies with a pair."""
    deck, ev, category, eval7 = _peer_setup()
    rng = random.Random(seed)
    royal = ev([eval7.Card(x) for x in ("As", "Ks", "Qs", "Js", "Ts")])
    blind2 = [0, 0, 0, 0, 2, 3, 6, 20, 100]  # Blind pay x 2 by category (royal apart)
    trips = [-1, -1, -1, 3, 4, 7, 8, 30, 40]
    total = 0
    for _ in range(rounds):
        c = rng.sample(deck, 9)
        board = c[4:9]
        p = ev(c[0:2] + board)
        d = ev(c[2:4] + board)
        pc = category(p)
        q = category(d) >= 1
        if p > d:
            net = 2 * 4 + (2 if q else 0) + (1000 if p == royal else blind2[pc])
        elif p == d:
            net = 0
        else:
            net = -2 * 4 - 2 - (2 if q else 0)
        total += net + 2 * (50 if p == royal else trips[pc])
    return total


PEERS = {"casino_holdem": peer_casino_holdem, "holdem_bonus": peer_holdem_bonus,
         "ultimate_holdem": peer_ultimate_holdem}


def _peer_rate(game: str, rounds: int, repeats: int) -> float:
    fn = PEERS[game]
    times = []
    for k in range(repeats):
        t0 = time.perf_counter()
        fn(rounds, k)
        times.append(time.perf_counter() - t0)
    return rounds / statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=1 << 20, help="rounds per gpusim chunk")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--peer-rounds", type=int, default=20_000)
    ap.add_argument("--peer-repeats", type=int, default=3)
    ap.add_argument("--configs", default="casino_holdem,holdem_bonus")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    from gpusim.config import load_config
    from gpusim.games.strategy_registry import strategy_names

    rows = []
    for config in args.configs.split(","):
        game = load_config(config).game
        peer = _peer_rate(game, args.peer_rounds, args.peer_repeats)
        rates = _gpusim_rates(config, list(strategy_names(game)), args.rounds, args.repeats)
        for strategy, rate in rates.items():
            rows.append(
                {"config": config, "strategy": strategy, "gpusim_rounds_per_s": rate,
                 "peer_rounds_per_s": peer, "ratio": rate / peer}
            )
    if args.json:
        print(json.dumps({"rounds": args.rounds, "repeats": args.repeats, "rows": rows}, indent=2))
        return 0
    print(f"gpusim: {args.rounds:,} rounds per chunk, median of {args.repeats} (strategies "
          f"taking turns); "
          f"peer (Python + eval7, always play): {args.peer_rounds:,} rounds, "
          f"median of {args.peer_repeats}")
    print(f"{'config':<24}{'strategy':<18}{'gpusim rounds/s':>18}{'peer rounds/s':>16}{'ratio':>9}")
    for r in rows:
        print(f"{r['config']:<24}{r['strategy']:<18}{r['gpusim_rounds_per_s']:>18,.0f}"
              f"{r['peer_rounds_per_s']:>16,.0f}{r['ratio']:>8.0f}x")
    rate = {(r["config"], r["strategy"]): r["gpusim_rounds_per_s"] for r in rows}
    ch = rate.get(("casino_holdem", "optimal"))
    for (config, strategy), r in rate.items():
        if ch and config.startswith("ultimate_holdem"):
            print(f"{config} {strategy} / casino_holdem optimal, same run: {r / ch:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
