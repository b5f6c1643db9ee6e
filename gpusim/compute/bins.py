"""Joint outcome codes: one integer per round that determines every bet's event, stake and net.

A round's events (Ante, Call/Flop/Turn/River, side bets) and the player's decisions are all
functions of one mixed-radix code (a few hundred codes for Casino Hold'em, 10,920 for Texas
Hold'em Bonus; the radices match ``kernels/settle_*.cuh``). So one histogram of codes per chunk
carries the chunk's every statistic: per-bet and joint (``main``, ``total``) net distributions,
events, decisions, wagers and all cross moments, computed once per code on the host in int64.
Both the CUDA kernels and the JAX runner count codes; :func:`counts_from_bins` turns the counts
into :class:`~gpusim.compute.counts.ChunkCounts` through :func:`counts_from_rows`, the one reduction
(the host reference :func:`gpusim.compute.chunks.reduce_host` feeds it per-round rows). A Jackpot
royal's net depends on the meter, so royal rounds are listed apart (round offset, code) and paid
in round order by :meth:`gpusim.rules.JackpotRules.advance`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from gpusim.compute.counts import ChunkCounts
from gpusim.games import event_names, return_numerators, spec_for

__all__ = ["BinLayout", "batch_progress", "bin_layout", "counts_from_bins", "counts_from_rows",
           "remap_codes"]


@dataclass(frozen=True)
class BinLayout:
    """Per joint outcome code (``n_bins`` of them): each offered bet's event and stake, and the
    action taken at each decision point.

    events / stakes: {bet: (n_bins,) int64}, bets in :func:`gpusim.games.bets` order; actions:
    {point: (n_bins,) int64 action index, -1 = not reached}. Codes no round can produce (a
    fold with a Turn bet) decode to something harmless; they count 0.
    """

    n_bins: int
    events: dict
    stakes: dict
    returns: dict
    names: dict
    actions: dict

    def nets(self) -> dict:
        """{bet: (n_bins,) int64 net}; the Jackpot royal returns nothing here (see hits).

        Exact for rational returns (a 3:2 pay): ValueError if a code's stake times its return
        is not a whole number of money units (the game's config must refuse such stakes).
        Computed once per layout (read every chunk and every batch: a described game has tens
        of thousands of codes); callers must not write into the arrays."""
        return self._nets

    @cached_property
    def _nets(self) -> dict:
        out = {}
        for bet, ev in self.events.items():
            num, scale = return_numerators(self.returns[bet])
            net = self.stakes[bet] * (num[ev] - scale)
            if scale != 1:
                if np.any(net % scale):
                    raise ValueError(f"{bet}: a stake times its return is not a whole number of "
                                     f"money units (returns in 1/{scale} units)")
                net = net // scale
            out[bet] = net
        return out


@lru_cache(maxsize=32)
def bin_layout(rules) -> BinLayout:
    """Decode every joint outcome code of ``rules.game`` (kernels/settle_*.cuh)."""
    from gpusim.games import bets, event_names, event_returns, spec_for

    offered = bets(rules)
    n_bins, events, stakes, actions = spec_for(rules).joint.decode(rules)
    i64 = np.int64
    events = {bet: events[bet].astype(i64) for bet in offered}
    stakes = {bet: stakes[bet].astype(i64) for bet in offered}
    actions = {p: a.astype(i64) for p, a in actions.items()}
    return BinLayout(n_bins, events, stakes, event_returns(rules), event_names(rules), actions)


def counts_from_rows(
    rules, nets: dict, stakes: dict, events: dict, taken: dict, weight, n_rounds: int,
    jackpot_hits: list[tuple[int, int]],
) -> ChunkCounts:
    """The one reduction into :class:`ChunkCounts`: weighted rows, each standing for
    ``weight`` identical rounds.

    nets / stakes / events: {bet: (R,) int64}, the offered bets in :func:`gpusim.games.bets`
    order, Jackpot royals already paid (nets final). taken: {point: (R,) int64} the action
    taken at each decision point, -1 where the row did not reach it. weight: (R,) int64, summing to
    ``n_rounds``. A row is a round (:func:`gpusim.compute.chunks.reduce_host`, weight 1) or a joint
    outcome code (:func:`counts_from_bins`, weight its count). jackpot_hits: [(round, prize)],
    stored as given. Outcomes, wagers, events, decisions and moments are all computed here, so
    every path gives the same counts for the same rounds.
    """
    weight = np.asarray(weight, np.int64)
    nets, stakes = dict(nets), dict(stakes)
    out = ChunkCounts(rounds=n_rounds, jackpot_hits=list(jackpot_hits))
    main_bets = [b for b in spec_for(rules).main_bets if b in nets]
    bets = list(nets)
    nets["main"] = sum(nets[b] for b in main_bets)
    nets["total"] = sum(nets[b] for b in bets)
    stakes["main"] = sum(stakes[b] for b in main_bets)
    stakes["total"] = sum(stakes[b] for b in bets)
    for bet, v in nets.items():
        vals, inverse = np.unique(v, return_inverse=True)
        counts = np.zeros(len(vals), np.int64)
        np.add.at(counts, inverse.reshape(-1), weight)
        keep = counts != 0
        out.outcomes[bet] = dict(zip(vals[keep].tolist(), counts[keep].tolist(), strict=True))
        st = stakes[bet]
        wagered = int(np.sum(weight * st))
        out.wagers[bet] = (
            int(np.sum(weight * (st > 0))), wagered, wagered + int(np.sum(weight * v)),
            int(np.sum(weight * st * st)), int(np.sum(weight * st * v)),
        )  # fmt: skip
    names = event_names(rules)
    for bet, codes in events.items():
        # events of rounds where the bet was not placed are not return-table rows
        c = np.zeros(len(names[bet]), np.int64)
        placed = stakes[bet] > 0
        np.add.at(c, codes[placed], weight[placed])
        out.events[bet] = {names[bet][i]: int(c[i]) for i in np.flatnonzero(c)}
    out.decisions = spec_for(rules).decision_counts(taken, weight)
    keys = list(nets)
    for i, a in enumerate(keys):
        for b in keys[i:]:
            out.moments[(a, b)] = int(np.sum(weight * nets[a] * nets[b]))
    return out


def remap_codes(code_map, n_bins: int, bins, royal_hits):
    """A kernel's histogram and royal hits in the game's joint codes: ``code_map`` (K,) int64
    sends each of the kernel's K codes to the game's (``KernelSpec.code_map``); None leaves
    them as they are. Returns ((n_bins,) int64 counts, (k, 2) int64 hits)."""
    if code_map is None:
        return bins, royal_hits
    bins = np.asarray(bins, np.int64).reshape(-1)
    if bins.size != len(code_map):
        raise ValueError(f"bins: got {bins.size} counts; the kernel counts {len(code_map)} codes")
    out = np.zeros(n_bins, np.int64)
    np.add.at(out, np.asarray(code_map, np.int64), bins)
    hits = np.asarray(royal_hits, np.int64).reshape(-1, 2).copy()
    hits[:, 1] = np.asarray(code_map, np.int64)[hits[:, 1]]
    return out, hits


def counts_from_bins(
    rules, bins, royal_hits, first_round: int, n_rounds: int, meter: int
) -> tuple[ChunkCounts, int]:
    """Exact ChunkCounts of a chunk from its joint-outcome histogram and its Jackpot royals.

    bins: (n_bins,) integer counts of the rounds that did not hit the Jackpot royal.
    royal_hits: (k, 2) int (round offset within the chunk, joint code) of the rounds that did.
    meter: the Jackpot meter before the chunk, in 1/BP money units. Returns (counts, meter
    after), equal to the JAX runner's for the same rounds.
    """
    lay = bin_layout(rules)
    bins = np.asarray(bins, np.int64).reshape(-1)
    if bins.size != lay.n_bins:
        raise ValueError(f"bins: got {bins.size} counts; {rules.game} needs {lay.n_bins}")
    hits = np.asarray(royal_hits, np.int64).reshape(-1, 2)
    hits = hits[np.argsort(hits[:, 0], kind="stable")]
    if int(bins.sum()) + len(hits) != n_rounds:
        raise ValueError(
            f"bins: {int(bins.sum())} rounds counted plus {len(hits)} royal hits, "
            f"but the chunk has {n_rounds} rounds"
        )
    # One row per non-empty code, then one per royal hit (weight 1, its own Jackpot net).
    codes = np.concatenate([np.flatnonzero(bins), hits[:, 1]])
    weight = np.concatenate([bins[bins != 0], np.ones(len(hits), np.int64)])
    nets = {bet: v[codes] for bet, v in lay.nets().items()}
    stakes = {bet: v[codes] for bet, v in lay.stakes.items()}
    events = {bet: v[codes] for bet, v in lay.events.items()}
    taken = {point: a[codes] for point, a in lay.actions.items()}
    paid: list[tuple[int, int]] = []
    spec = spec_for(rules)
    if spec.meter_active(rules):
        # the meter bet's stake is a constant of the config: every round contributes it
        bet = spec.meter_bet
        stake = int(rules.stakes[bet])
        meter, prizes = spec.meter_rules(rules).advance(meter, stake, n_rounds,
                                                        hits[:, 0].tolist())
        base = len(codes) - len(hits)
        for k, (off, prize) in enumerate(zip(hits[:, 0].tolist(), prizes, strict=True)):
            nets[bet][base + k] = prize - stake
            paid.append((first_round + off, prize))
    return counts_from_rows(rules, nets, stakes, events, taken, weight, n_rounds, paid), meter


def batch_progress(rules, batches, counts: ChunkCounts) -> list[tuple[int, dict]]:
    """Cumulative (wagered, returned) per bet at the end of each batch of a chunk.

    batches: [(start, n, res)] in round order, ``res`` a device reduction (``bins`` (n_bins,),
    and for a Jackpot game ``royal_count``, ``royal_idx``, ``royal_code``). counts: the chunk's
    :func:`counts_from_bins` result, whose paid Jackpot prizes price the royals. Linear in the
    histograms, so it costs a few dot products per batch; the last checkpoint must equal the
    chunk's wagers, which is checked.
    """
    lay = bin_layout(rules)
    nets = lay.nets()
    prizes = dict(counts.jackpot_hits)
    main_bets = [b for b in spec_for(rules).main_bets if b in nets]
    meter_bet = spec_for(rules).meter_bet
    out: list[tuple[int, dict]] = []
    cum: dict[str, tuple[int, int]] = {}
    for start, n, res in batches:
        b = np.asarray(res["bins"], np.int64)
        # only the codes the batch produced: a described game has tens of thousands of codes,
        # a batch a few thousand of them
        seen = np.flatnonzero(b)
        b = b[seen]
        codes = np.zeros(0, np.int64)
        rounds = np.zeros(0, np.int64)
        if "royal_count" in res:
            k = int(res["royal_count"])
            codes = np.asarray(res["royal_code"][:k], np.int64)
            rounds = np.asarray(res["royal_idx"][:k], np.int64) + start
        step: dict[str, tuple[int, int]] = {}
        for bet, net in nets.items():
            st = lay.stakes[bet]
            wagered = int(b @ st[seen]) + int(st[codes].sum())
            if bet == meter_bet:
                won = sum(prizes[r] - int(st[c]) for r, c in zip(rounds.tolist(), codes.tolist(),
                                                                    strict=True))
            else:
                won = int(net[codes].sum())
            step[bet] = (wagered, int(b @ net[seen]) + won)
        step["main"] = tuple(sum(step[x][i] for x in main_bets) for i in (0, 1))
        step["total"] = tuple(sum(step[x][i] for x in nets) for i in (0, 1))
        for bet, (w, net) in step.items():
            a, r = cum.get(bet, (0, 0))
            cum[bet] = (a + w, r + w + net)
        out.append((start + n, dict(cum)))
    final = {bet: (w[1], w[2]) for bet, w in counts.wagers.items()}
    if out and out[-1][1] != final:
        raise AssertionError(f"batch progress {out[-1][1]} != chunk wagers {final}")
    return out
