"""Benchmarks shared by ``gpusim bench`` and the scripts in ``benchmarks/``.

:func:`bench_evaluator` times gpusim's 7-card evaluator and every installed peer
evaluator (eval7, treys, phevaluator, pokerkit) on the same pre-generated hands.
Peers are called once per hand from Python, as their users would; they run on the first
``peer_hands`` hands of the batch, since they are orders of magnitude slower.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import statistics
import time
from collections.abc import Callable

import jax
import numpy as np

from gpusim.evaluator import evaluate

__all__ = ["PEER_EVALUATORS", "bench_evaluator", "random_hands"]

PEER_EVALUATORS = ("eval7", "treys", "phevaluator", "pokerkit")
_RANKS, _SUITS = "23456789TJQKA", "cdhs"


def random_hands(n: int, k: int = 7, seed: int = 0) -> np.ndarray:
    """n uniform random hands of k distinct cards: (n, k) int32 card codes.

    Card i is uniform over the 52 - i cards not yet drawn (exact, no rejection).
    """
    if n < 1 or not 1 <= k <= 52:
        raise ValueError(f"random_hands: n={n}, k={k} is not allowed; need n >= 1, 1 <= k <= 52")
    rng = np.random.default_rng(seed)
    out = np.zeros((n, k), np.int32)
    for i in range(k):
        x = rng.integers(0, 52 - i, n, dtype=np.int32)
        # The x-th card not yet drawn: step over drawn cards in ascending order.
        for drawn in np.sort(out[:, :i], axis=1).T:
            x += x >= drawn
        out[:, i] = x
    return out


def _text(code: int) -> str:
    return _RANKS[code >> 2] + _SUITS[code & 3]


def _peer_runner(name: str, hands: np.ndarray) -> Callable[[], object]:
    """A no-argument function evaluating every hand with the peer; inputs prepared here."""
    rows = hands.tolist()
    if name == "eval7":
        eval7 = importlib.import_module("eval7")
        deck = [eval7.Card(_text(c)) for c in range(52)]
        prepared = [[deck[c] for c in row] for row in rows]
        ev = eval7.evaluate
        return lambda: [ev(h) for h in prepared]
    if name == "treys":
        treys = importlib.import_module("treys")
        deck = [treys.Card.new(_text(c)) for c in range(52)]
        prepared = [([deck[c] for c in row[:2]], [deck[c] for c in row[2:]]) for row in rows]
        ev = treys.Evaluator().evaluate
        return lambda: [ev(h, b) for h, b in prepared]
    if name == "phevaluator":
        ph = importlib.import_module("phevaluator")
        prepared = [[_text(c) for c in row] for row in rows]
        ev = ph.evaluate_cards
        return lambda: [ev(*h) for h in prepared]
    if name == "pokerkit":
        pk = importlib.import_module("pokerkit")
        prepared = [
            ("".join(_text(c) for c in row[:2]), "".join(_text(c) for c in row[2:])) for row in rows
        ]
        ev = pk.StandardHighHand.from_game
        return lambda: [ev(h, b) for h, b in prepared]
    raise ValueError(f"peer: {name!r} is not allowed; choose from {', '.join(PEER_EVALUATORS)}")


def _time(fn: Callable[[], object], repeats: int) -> tuple[list[float], list[float]]:
    """Wall-clock and process CPU seconds of each of `repeats` calls."""
    wall, cpu = [], []
    for _ in range(repeats):
        c0, t0 = time.process_time(), time.perf_counter()
        fn()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return wall, cpu


def _windows(fn: Callable[[], object], repeats: int, min_window: float
             ) -> tuple[list[float], list[float], list[int]]:
    """Per timed window (repeated calls until it lasts at least ``min_window`` seconds):
    wall seconds, process CPU seconds and the number of calls."""
    wall, cpu, calls = [], [], []
    for _ in range(repeats):
        c0, t0, n = time.process_time(), time.perf_counter(), 0
        while True:
            fn()
            n += 1
            if time.perf_counter() - t0 >= min_window:
                break
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        calls.append(n)
    return wall, cpu, calls


def bench_evaluator(
    n_hands: int = 1 << 20,
    repeats: int = 7,
    seed: int = 0,
    *,
    peer_hands: int = 100_000,
    peers: bool = True,
    min_window: float = 0.5,
) -> dict:
    """Time 7-card evaluation: gpusim (JAX, current default device) and installed peers.

    n_hands: hands per gpusim call (the batch); repeats: timed windows, after one warm-up
    call that also compiles; each window repeats the call until it has lasted at least
    ``min_window`` seconds (a window of one 5 ms call measured the scheduler, not the
    evaluator); peer_hands: the first that many hands are given to each peer.
    Returns ``{"evals_per_s": gpusim median over the windows, "evals_per_cpu_s",
    "rates": [evals/s of each window], "spread": (max - min) / median of the rates,
    "window_s", "peers": {name: evals/s}, "ratios": {name: gpusim / peer}, "batch",
    "repeats", "peer_hands", "seed", "backend", "device", "cpu_count",
    "seconds": [window wall seconds], "peer_errors": {name: msg}}``.
    Peers get min(repeats, 3) timed calls.
    """
    if n_hands < 1:
        raise ValueError(f"n_hands: {n_hands} is not allowed; use a positive number of hands")
    if repeats < 1:
        raise ValueError(f"repeats: {repeats} is not allowed; use 1 or more")
    if peer_hands < 1:
        raise ValueError(f"peer_hands: {peer_hands} is not allowed; use 1 or more")
    hands = random_hands(n_hands, 7, seed)
    on_device = jax.device_put(hands)
    evaluate(on_device).block_until_ready()
    wall, cpu, calls = _windows(lambda: evaluate(on_device).block_until_ready(), repeats,
                                min_window)
    rates = [n_hands * k / w for k, w in zip(calls, wall, strict=True)]
    median = statistics.median(rates)
    result: dict = {
        "evals_per_s": median,
        # Per CPU-second of this process, all threads: steadier than wall time on a
        # shared machine; times the core count it estimates an idle machine's rate.
        "evals_per_cpu_s": statistics.median(
            n_hands * k / max(c, 1e-9) for k, c in zip(calls, cpu, strict=True)),
        "rates": rates,
        "spread": (max(rates) - min(rates)) / median,
        "window_s": min_window,
        "peers": {},
        "ratios": {},
        "batch": n_hands,
        "repeats": repeats,
        "peer_hands": min(peer_hands, n_hands),
        "seed": seed,
        "backend": jax.default_backend(),
        "device": str(on_device.devices().pop()),
        "cpu_count": os.cpu_count(),
        "seconds": wall,
        "peer_errors": {},
    }
    if not peers:
        return result
    subset = hands[:peer_hands]
    for name in PEER_EVALUATORS:
        if importlib.util.find_spec(name) is None:
            continue
        try:
            run = _peer_runner(name, subset)
            run()  # warm-up: imports, lazy tables
            peer_wall, _ = _time(run, max(1, min(repeats, 3)))
        except Exception as exc:  # a broken peer must not stop the benchmark
            result["peer_errors"][name] = f"{type(exc).__name__}: {exc}"
            continue
        rate = len(subset) / statistics.median(peer_wall)
        result["peers"][name] = rate
        result["ratios"][name] = result["evals_per_s"] / rate
    return result
