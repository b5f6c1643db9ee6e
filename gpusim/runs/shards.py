"""Shards of one run, and the progressive Jackpot settled across them.

A run of R rounds splits into N shards; shard I plays rounds [floor(I R / N), floor((I+1) R / N)).
Round r's cards depend only on (seed, r), so every count of a shard is exactly what a single run
counts for the same rounds, except for one thing: the progressive Jackpot meter. The meter
carries over from round to round, so the first royal of shard I > 0 pays a meter that grew
during earlier shards.

Design: a shard I > 0 runs with a *provisional* starting meter (the reset value) and records it
(``jackpot_meter_provisional`` in its manifest). Every later royal in the same shard is already
exact: a royal resets the meter, so what follows depends on nothing before it. Merging settles
the shards in round order: with the true meter M at the shard's first round (shard 0 starts from
the reset value; a shard passes on its own end meter if it had a royal, else M plus its
contributions), the first royal at round r pays what the meter M advanced over the shard's rounds
up to and including r gives (:meth:`gpusim.rules.JackpotRules.advance`; the Jackpot stake is a
constant of the config). That round is replayed from (seed, r) to get
every bet's net, and its provisional row is swapped for the settled one in the outcome, wager,
moment and Jackpot tables; the chunks before it get their end meters shifted by the same
offset. The merged counts are then bit-identical to a single run's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from gpusim.compute.counts import ChunkCounts
from gpusim.games import spec_for

__all__ = ["ChunkResult", "JackpotSettler", "Segment", "ShardError", "parse_shard",
           "settle_segments", "shard_range"]


class ShardError(ValueError):
    """Bad shard input or shards that cannot be combined; the message is one line."""


def parse_shard(spec: str | tuple[int, int]) -> tuple[int, int]:
    """``"I/N"`` (or ``(I, N)``) with 0 <= I < N -> (I, N)."""
    if isinstance(spec, tuple):
        i, n = spec
        text = f"{i}/{n}"
    else:
        text = str(spec)
        m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
        if not m or len(text) > 40:
            raise ShardError(f"--shard: got {text!r}; expected I/N with whole numbers "
                             "0 <= I < N, e.g. 0/3")
        i, n = int(m.group(1)), int(m.group(2))
    if not (isinstance(i, int) and isinstance(n, int) and 0 <= i < n):
        raise ShardError(f"--shard: got {text!r}; expected I/N with 0 <= I < N, e.g. 0/3")
    return i, n


def shard_range(rounds: int, index: int, count: int) -> tuple[int, int]:
    """(first_round, stop_round) of shard ``index`` of ``count``; refuses an empty shard."""
    first, stop = rounds * index // count, rounds * (index + 1) // count
    if stop == first:
        raise ShardError(f"--shard: {index}/{count} has no rounds: {rounds:,} rounds give "
                         f"at most {rounds:,} non-empty shards")
    return first, stop


@dataclass
class ChunkResult:
    """One chunk's counts and the Jackpot meter after it (1/BP money units)."""

    first_round: int
    n_rounds: int
    counts: ChunkCounts
    meter_end: int
    elapsed_s: float = 0.0


@dataclass
class Segment:
    """Consecutive chunks run from one starting meter (one shard, or a whole run)."""

    first_round: int
    meter_start: int
    provisional: bool
    chunks: list[ChunkResult]


class JackpotSettler:
    """Settles segments handed over in round order (a Ray driver settles each shard as soon as
    the shards before it are in); :func:`settle_segments` does all at once."""

    def __init__(self, rules, strategy, seed: int):
        self.rules, self.strategy, self.seed = rules, strategy, seed
        spec = spec_for(rules)
        self.jp = spec.meter_rules(rules)
        self.active = spec.meter_active(rules)
        self.meter = spec.start_meter(rules) if self.active else 0
        """The true meter after every round settled so far (1/BP money units)."""

    def settle(self, seg: Segment) -> list[ChunkResult]:
        """The segment's chunks with true meters and the first royal's pay settled (mutated)."""
        if not self.active:
            return seg.chunks
        if not seg.provisional and seg.meter_start != self.meter:
            raise ShardError(
                f"merge: the shard starting at round {seg.first_round:,} ran from meter "
                f"{seg.meter_start} but the rounds before it leave {self.meter}"
            )
        start, offset = self.meter, self.meter - seg.meter_start
        stake = int(self.rules.stakes[spec_for(self.rules).meter_bet])

        def first_prize(meter: int, r: int) -> int:  # the royal at round r, the segment's first
            off = r - seg.first_round
            return self.jp.advance(meter, stake, off + 1, [off])[1][0]

        settled = offset == 0
        for c in seg.chunks:
            if not settled:
                if c.counts.jackpot_hits:
                    r, paid = c.counts.jackpot_hits[0]
                    if paid != first_prize(seg.meter_start, r):
                        raise ShardError(
                            f"merge: the Jackpot paid {paid} at round {r:,} does not follow "
                            f"from the shard's starting meter; the shard is not consistent"
                        )
                    _resettle_round(c.counts, self.rules, self.strategy, self.seed, r, paid,
                                    first_prize(start, r))
                    settled = True
                else:
                    c.meter_end += offset
            self.meter = c.meter_end
        return seg.chunks


def settle_segments(rules, strategy, seed: int, segments: list[Segment]) -> list[ChunkResult]:
    """The chunks of contiguous segments (round order) with the Jackpot settled across them.

    ``strategy`` is the strategy object the shards played (its decisions are replayed for a
    settled royal round). Mutates and returns the chunks.
    """
    settler = JackpotSettler(rules, strategy, seed)
    return [c for seg in segments for c in settler.settle(seg)]


def _round_nets(rules, strategy, seed: int, r: int) -> tuple[dict, dict]:
    """Every offered bet's (net, stake) in round r, replayed from (seed, r)."""
    from gpusim.dealing import deal
    from gpusim.games import bets, event_names, settle

    cards = np.asarray(deal(seed, r, 1, spec_for(rules).cards_per_round))
    s = settle(cards, strategy.decide(cards), rules)
    offered = list(bets(rules))
    spec = spec_for(rules)
    royal = event_names(rules)[spec.meter_bet].index(spec.meter_event)
    if int(np.asarray(s.events[spec.meter_bet])[0]) != royal:
        raise ShardError(f"merge: round {r:,} of seed {seed} is not a Jackpot royal; the "
                         "shards do not belong to this config and seed")
    nets = {b: int(np.asarray(s.nets[b])[0]) for b in offered}
    stakes = {b: int(np.asarray(s.stakes[b])[0]) for b in offered}
    return nets, stakes


def _resettle_round(counts: ChunkCounts, rules, strategy, seed: int, r: int, old_prize: int,
                    new_prize: int) -> None:
    """Swap round r's provisional Jackpot pay for the settled one in every table."""
    i = [k for k, (rr, _) in enumerate(counts.jackpot_hits) if rr == r][0]
    counts.jackpot_hits[i] = (r, new_prize)
    if new_prize == old_prize:
        return
    nets, stakes = _round_nets(rules, strategy, seed, r)
    main = [b for b in spec_for(rules).main_bets if b in nets]
    rows = []
    for prize in (old_prize, new_prize):
        v = dict(nets)
        meter = spec_for(rules).meter_bet
        v[meter] = prize - stakes[meter]
        v["main"] = sum(v[b] for b in main)
        v["total"] = sum(v[b] for b in nets)
        rows.append(v)
    old, new = rows
    st = dict(stakes, main=sum(stakes[b] for b in main), total=sum(stakes.values()))
    for bet, dist in counts.outcomes.items():
        if old[bet] == new[bet]:
            continue
        if dist.get(old[bet], 0) <= 0:
            raise ShardError(f"merge: round {r:,}'s {bet} net {old[bet]} is not in its chunk's "
                             "outcome counts; the shard is not consistent")
        dist[old[bet]] -= 1
        if dist[old[bet]] == 0:
            del dist[old[bet]]
        dist[new[bet]] = dist.get(new[bet], 0) + 1
    for bet, w in list(counts.wagers.items()):
        d = new[bet] - old[bet]
        if d:
            placed, wagered, returned, ssq, ssn = w
            counts.wagers[bet] = (placed, wagered, returned + d, ssq, ssn + st[bet] * d)
    for (a, b), v in list(counts.moments.items()):
        counts.moments[(a, b)] = v + new[a] * new[b] - old[a] * old[b]
    # convergence checkpoints at or after round r include its pay
    for end, cum in counts.progress:
        if end > r:
            for bet, (w, ret) in list(cum.items()):
                cum[bet] = (w, ret + new[bet] - old[bet])
