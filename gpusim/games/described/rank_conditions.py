"""Rule-strategy conditions on the ranks and suits an own card shares with the hand (the own
cards and the board seen):

- ``own_rank_count = { cards = N, at_least = R }``: an own card ranking R or higher (default
  2) whose rank is in the hand N times or more (a pair of sixes or better made with a hole card:
  ``{ cards = 2, at_least = "6" }``; trips with a hole card: ``{ cards = 3 }``);
- ``paired_ranks = N``: N or more ranks are each in the hand twice or more (two pair, a full
  house: 2);
- ``suited_run_with_own = N``: N consecutive ranks of one suit in the hand (an ace high or
  low), an own card of that suit among them (four to a straight flush with a hole card: 4).

Reading (:func:`parse`) imports no JAX; :func:`evaluate` is the JAX side.
"""

from __future__ import annotations

from typing import Any

from gpusim.rules import ConfigReader

__all__ = ["RANK_CONDITIONS", "evaluate", "parse"]

RANK_CONDITIONS = ("own_rank_count", "paired_ranks", "suited_run_with_own")


def parse(r: ConfigReader, d, point, cond: str, value: Any, w: str) -> Any:
    from gpusim.games.described.description import _show, parse_rank

    n_seen = d.player + sum(d.streets[: point.street])
    if cond == "own_rank_count":
        if not isinstance(value, dict) or set(value) - {"cards", "at_least"} or type(
                value.get("cards")) is not int or not 2 <= value["cards"] <= min(4, n_seen):
            raise r.fail(w, f"value {_show(value)} is not allowed; expected a table {{ cards = "
                            f"N, at_least = R }}: N 2..{min(4, n_seen)} (cards of one rank), R "
                            "a rank (optional, default 2)")
        return value["cards"], parse_rank(r, str(value.get("at_least", "2")), f"{w}.at_least")
    if cond == "paired_ranks":
        top = n_seen // 2
        if type(value) is not int or not 1 <= value <= top:
            raise r.fail(w, f"value {_show(value)} is not allowed; expected a whole number "
                            f"1..{top} (ranks paired among the {n_seen} cards seen)")
        return value
    top = min(5, n_seen)
    if type(value) is not int or not 2 <= value <= top:
        raise r.fail(w, f"value {_show(value)} is not allowed; expected a whole number 2..{top} "
                        f"(consecutive ranks of one suit, at most 5 and the {n_seen} cards seen)")
    return value


def evaluate(hand: Any, n_own: int, cond: str, value: Any) -> Any:
    """(N,) bool of ``cond`` on each round's hand (N, k): the own cards first."""
    import jax
    import jax.numpy as jnp

    from gpusim.strategy.features import ace_low, hole_in_run_bits, rank_mask, runs

    ranks, suits = hand >> 2, hand & 3
    k = hand.shape[1]
    out = jnp.zeros(hand.shape[:1], bool)
    if cond == "own_rank_count":
        n, lowest = value
        for i in range(n_own):
            # summed card by card: a reduce keeps XLA's CPU loop from being vectorized (Texas
            # Hold'em Bonus's described ``basic``: its decisions took three times the
            # hand-written ones' time)
            count = sum((ranks[:, j] == ranks[:, i]).astype(jnp.int32) for j in range(k))
            out = out | ((count >= n) & (ranks[:, i] >= lowest))
        return out
    if cond == "paired_ranks":
        paired = jnp.zeros(hand.shape[:1], jnp.uint32)
        for i in range(k):
            for j in range(i + 1, k):
                bit = jnp.left_shift(jnp.uint32(1), ranks[:, i].astype(jnp.uint32))
                paired = paired | jnp.where(ranks[:, i] == ranks[:, j], bit, jnp.uint32(0))
        return jax.lax.population_count(paired) >= value
    for i in range(n_own):  # suited_run_with_own: the ranks of own card i's suit
        mine = jnp.where(suits == suits[:, i: i + 1], ranks, ranks[:, i: i + 1])
        own = ranks[:, i: i + 1]
        out = out | hole_in_run_bits(runs(ace_low(rank_mask(mine)), value),
                                     ace_low(rank_mask(own)), value, 15 - value)
    return out
