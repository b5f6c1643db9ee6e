"""Chunk reduction on the device: settled rounds -> one histogram of joint outcome codes.

The host reduction :func:`gpusim.compute.chunks.reduce_host` is the reference; this one gives the
same :class:`~gpusim.compute.counts.ChunkCounts` (a test checks equality) while moving only a
histogram of a few thousand int32 counts to the host instead of per-round arrays. Every bet's
event, stake and net is a function of the round's joint code (:mod:`gpusim.compute.bins`), exactly
as in the CUDA kernels, so a single bincount per batch carries every statistic.

A Jackpot royal's net depends on the progressive meter, i.e. on every earlier round, so royal
rounds are left out of the histogram and returned as (offset, code) pairs; the host pays them in
round order. More royals in one batch than the gather buffer holds (about 1 in 10^180 for a
2^18-round batch) sends the batch to the host reduction instead, so the result is exact either way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from gpusim.compute.bins import bin_layout, counts_from_bins
from gpusim.games import event_names, spec_for

__all__ = ["MAX_ROYALS_PER_BATCH", "JointReducer", "SettledBets"]

MAX_ROYALS_PER_BATCH = 64


@dataclass(frozen=True)
class SettledBets:
    """The part of a :class:`~gpusim.games.base.Settlement` the joint code reads:
    ``events`` and ``stakes``, {bet: (N,) int32}, and the (N,) hand categories its
    :class:`~gpusim.games.spec.JointCode` ``reads`` (None otherwise)."""

    events: dict
    stakes: dict
    player_category: Any = None
    dealer_category: Any = None
    joint: Any = None


class JointReducer:
    """``device(decisions, settlement)`` on the device, then ``finish`` on the host."""

    def __init__(self, rules, bets: list[str]):
        self.rules = rules
        self.bets = list(bets)
        self.n_bins = bin_layout(rules).n_bins
        spec = spec_for(rules)
        self._meter = spec.meter_bet
        self.has_jackpot = self._meter in self.bets and spec.meter_rules(rules) is not None
        self._encode = spec.joint.encode
        self._royal_codes = None
        if self.has_jackpot:
            # the joint code decides the meter bet's event, so a royal is told from the code
            # alone: the settle program then returns only the code (a described game's events
            # and stakes are gathers it would otherwise compute for every bet, every round)
            lay = bin_layout(rules)
            royal = event_names(rules)[self._meter].index(spec.meter_event)
            self._royal_codes = (lay.events[self._meter] == royal) & (lay.stakes[self._meter] > 0)
        self._fn = None

    def _code(self, settlement):
        """(N,) int32 joint code, the mixed radix of kernels/settle_*.cuh."""
        return self._encode(settlement, tuple(self.bets))

    def reduce(self, settlement, n_valid) -> dict:
        """Traceable: the batch's code histogram and royal rounds (see :meth:`device`).

        ``settlement``: the batch's (N,) arrays; ``n_valid``: int32 scalar, rows at or past it
        pad a short batch to the compiled size and are counted in a spare bin, then dropped.
        """
        import jax.numpy as jnp

        n_bins = self.n_bins
        code = self._code(settlement)
        valid = jnp.arange(code.shape[0]) < n_valid
        if not self.has_jackpot:
            code = jnp.where(valid, code, n_bins)
            return {"bins": jnp.bincount(code, length=n_bins + 1)[:n_bins]}
        royal = jnp.asarray(self._royal_codes)[code] & valid
        skip = royal | ~valid
        bins = jnp.bincount(jnp.where(skip, n_bins, code), length=n_bins + 1)[:n_bins]
        (idx,) = jnp.nonzero(royal, size=MAX_ROYALS_PER_BATCH, fill_value=0)
        return {
            "bins": bins,
            "royal_count": jnp.sum(royal),
            "royal_idx": idx.astype(jnp.int32),
            "royal_code": code[idx],
        }

    def device(self, decisions, settlement, n_valid: int | None = None) -> dict:
        """Small host arrays: the code histogram and the royal rounds (decisions are in the
        codes: a fold is an Ante event, Turn and River bets are code bits). Only the first
        ``n_valid`` rounds count (default: all)."""
        import jax

        res = self.device_async(decisions, settlement, n_valid)
        return jax.tree_util.tree_map(np.asarray, res)

    def device_async(self, decisions, settlement, n_valid: int | None = None) -> dict:
        """:meth:`device` without waiting: the same dict as device arrays still being computed."""
        del decisions
        if self._fn is None:
            import jax

            self._fn = jax.jit(self.reduce)
        if n_valid is None:
            n_valid = self._code(settlement).shape[0]
        return self._fn(settlement, np.int32(n_valid))

    def fits(self, res) -> bool:
        return not self.has_jackpot or int(res["royal_count"]) <= MAX_ROYALS_PER_BATCH

    def finish(self, res, n_rounds: int, first_round: int, meter: int):
        """(ChunkCounts, meter after) of the batch."""
        hits = np.zeros((0, 2), np.int64)
        if self.has_jackpot:
            k = int(res["royal_count"])
            hits = np.stack([res["royal_idx"][:k], res["royal_code"][:k]], axis=1)
        return counts_from_bins(self.rules, res["bins"], hits, first_round, n_rounds, meter)
