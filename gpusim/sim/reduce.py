"""Chunk reduction on the device: settled rounds -> exact integer counts, inside one jit.

The host reduction in :func:`gpusim.sim.runner.reduce_host` is the reference; this one gives
the same :class:`~gpusim.sim.aggregate.ChunkCounts` (a test checks equality) without moving
per-round arrays to the host, which on a CPU was half of a chunk's time.

Counts and sums are int64: the reduction is traced and run with JAX's 64-bit mode enabled for
this function only (the rest of gpusim stays 32-bit). Net histograms use static bin ranges
derived from the paytables; a value outside its range (impossible for a valid config, but
cheap to check) or more Jackpot royals in one chunk than the gather buffer holds sends the
chunk to the host reduction instead, so the result is exact either way.

The Jackpot's royal flush pays the meter, which depends on every earlier round; the device
counts royal rounds with the settlement's placeholder net and returns their indices and rows,
and the host replaces the placeholder by the meter in round order (:meth:`DeviceReducer.finish`).
"""

from __future__ import annotations

import functools

import numpy as np

from gpusim.sim.aggregate import ChunkCounts

__all__ = ["MAX_ROYALS_PER_CHUNK", "DeviceReducer", "net_bounds"]

MAX_ROYALS_PER_CHUNK = 64
_DERIVED = {"call": 2, "flop": 2, "turn": 1, "river": 1}


def _stake(rules, bet: str) -> int:
    stakes = rules.stakes.as_dict()
    if bet in _DERIVED:
        return _DERIVED[bet] * stakes["ante"]
    return stakes[bet]


def net_bounds(rules, bets: list[str], main_bets: list[str]) -> dict[str, tuple[int, int]]:
    """Static [lo, hi] of every bet's net per round (0 = not placed included), plus main, total.

    The Jackpot royal (a meter prize) is bounded here by its placeholder, the reset value.
    """
    from gpusim.games import event_returns

    returns = event_returns(rules)
    out = {}
    for bet in bets:
        s = _stake(rules, bet)
        reset = rules.jackpot.reset if getattr(rules, "jackpot", None) else 0
        r = [reset if x is None else x for x in returns[bet]]
        out[bet] = (min(0, s * (min(r) - 1), -s), max(0, s * (max(r) - 1)))
    out["main"] = (sum(out[b][0] for b in main_bets), sum(out[b][1] for b in main_bets))
    out["total"] = (sum(out[b][0] for b in bets), sum(out[b][1] for b in bets))
    return out


class DeviceReducer:
    """Reduce (decisions, settlement) on the device; ``finish`` completes it on the host."""

    def __init__(self, rules, bets: list[str], main_bets: list[str], event_names, decision_keys):
        self.rules = rules
        self.bets = list(bets)
        self.main_bets = list(main_bets)
        self.all_bets = [*self.bets, "main", "total"]
        self.bounds = net_bounds(rules, self.bets, self.main_bets)
        self.event_names = dict(event_names)
        self.decision_keys = tuple(decision_keys)
        self.has_jackpot = "jackpot" in self.bets and getattr(rules, "jackpot", None) is not None
        self._royal_code = (
            self.event_names["jackpot"].index("royal_flush") if self.has_jackpot else -1
        )
        self._fn = None

    # -- device part ------------------------------------------------------------------------

    def _build(self):
        import jax
        import jax.numpy as jnp

        bets, all_bets, bounds = self.bets, self.all_bets, self.bounds
        n_events = {b: len(self.event_names[b]) for b in bets}
        main_bets = self.main_bets
        royal_code = self._royal_code
        has_jackpot = self.has_jackpot
        k_max = MAX_ROYALS_PER_CHUNK

        def reduce(nets_in, stakes_in, events_in, decisions):
            i64 = jnp.int64
            nets = {b: nets_in[b].astype(i64) for b in bets}
            stakes = {b: stakes_in[b].astype(i64) for b in bets}
            nets["main"] = functools.reduce(jnp.add, [nets[b] for b in main_bets])
            nets["total"] = functools.reduce(jnp.add, [nets[b] for b in bets])
            stakes["main"] = functools.reduce(jnp.add, [stakes[b] for b in main_bets])
            stakes["total"] = functools.reduce(jnp.add, [stakes[b] for b in bets])
            out = {"hist": {}, "outside": {}, "events": {}, "wagers": {}}
            for b in all_bets:
                lo, hi = bounds[b]
                v = nets[b]
                out["hist"][b] = jnp.bincount(jnp.clip(v - lo, 0, hi - lo), length=hi - lo + 1)
                out["outside"][b] = jnp.sum((v < lo) | (v > hi))
                st = stakes[b]
                out["wagers"][b] = jnp.stack(
                    [jnp.sum(st > 0), jnp.sum(st), jnp.sum(v), jnp.sum(st * st), jnp.sum(st * v)]
                )
            for b in bets:
                n = n_events[b]
                code = jnp.where(stakes[b] > 0, events_in[b].astype(jnp.int32), n)
                out["events"][b] = jnp.bincount(code, length=n + 1)[:n]
            x = jnp.stack([nets[b] for b in all_bets], axis=1)  # (N, B) int64
            out["moments"] = x.T @ x
            out["decisions"] = {k: jnp.sum(decisions[k].astype(i64)) for k in decisions}
            if "flop" in decisions:
                flop = decisions["flop"]
                out["decisions"]["turn_played"] = jnp.sum((decisions["turn"] & flop).astype(i64))
                out["decisions"]["river_played"] = jnp.sum(
                    (decisions["river"] & flop).astype(i64)
                )
            if has_jackpot:
                royal = (events_in["jackpot"] == royal_code) & (stakes["jackpot"] > 0)
                (idx,) = jnp.nonzero(royal, size=k_max, fill_value=0)
                cum = jnp.cumsum(stakes["jackpot"])
                out["royal_count"] = jnp.sum(royal)
                out["royal_idx"] = idx
                out["royal_rows"] = x[idx]
                out["royal_stakes"] = jnp.stack([stakes[b] for b in all_bets], axis=1)[idx]
                out["royal_cum_stake"] = cum[idx]
                out["jackpot_stake_total"] = cum[-1]
            return out

        return jax.jit(reduce)

    def device(self, decisions, settlement):
        """Run the device reduction; returns a pytree of small arrays (host numpy)."""
        import jax

        with jax.enable_x64(True):
            if self._fn is None:
                self._fn = self._build()
            res = self._fn(
                dict(settlement.nets), dict(settlement.stakes), dict(settlement.events),
                dict(decisions),
            )
            return jax.tree_util.tree_map(np.asarray, res)

    # -- host completion --------------------------------------------------------------------

    def fits(self, res) -> bool:
        """False when the chunk must be reduced on the host instead (see the module doc)."""
        if any(int(v) for v in res["outside"].values()):
            return False
        return not (self.has_jackpot and int(res["royal_count"]) > MAX_ROYALS_PER_CHUNK)

    def finish(self, res, n_rounds: int, first_round: int, meter: int):
        """ChunkCounts and the meter after the chunk, from the device result."""
        from gpusim.sim.runner import BP

        bets, all_bets = self.bets, self.all_bets
        pos = {b: i for i, b in enumerate(all_bets)}
        outcomes = {}
        for b in all_bets:
            lo, _ = self.bounds[b]
            h = res["hist"][b]
            nz = np.flatnonzero(h)
            outcomes[b] = {int(i) + lo: int(h[i]) for i in nz}
        wagers = {b: [int(x) for x in res["wagers"][b]] for b in all_bets}
        moments = res["moments"].astype(object)  # exact Python ints for the corrections
        hits: list[tuple[int, int]] = []
        if self.has_jackpot:
            jp = self.rules.jackpot
            k = int(res["royal_count"])
            prev_cum = 0
            for j in range(k):
                i = int(res["royal_idx"][j])
                cum = int(res["royal_cum_stake"][j])
                meter += (cum - prev_cum) * jp.contribution_bp
                prev_cum = cum
                prize = meter // BP
                meter = jp.reset * BP
                hits.append((first_round + i, prize))
                row = [int(v) for v in res["royal_rows"][j]]
                stake_row = [int(v) for v in res["royal_stakes"][j]]
                delta = prize - stake_row[pos["jackpot"]] - row[pos["jackpot"]]
                if delta == 0:
                    continue
                new = list(row)
                for b in ("jackpot", "total"):
                    new[pos[b]] += delta
                    _move(outcomes[b], row[pos[b]], new[pos[b]])
                    w = wagers[b]
                    w[2] += delta  # sum of nets
                    w[4] += stake_row[pos[b]] * delta
                for a in range(len(all_bets)):
                    for c in range(len(all_bets)):
                        moments[a, c] += new[a] * new[c] - row[a] * row[c]
            meter += (int(res["jackpot_stake_total"]) - prev_cum) * jp.contribution_bp
        out = ChunkCounts(rounds=n_rounds, jackpot_hits=hits)
        out.outcomes = outcomes
        for b in all_bets:
            placed, wagered, sum_net, ss, sn = wagers[b]
            out.wagers[b] = (placed, wagered, wagered + sum_net, ss, sn)
        for b in bets:
            c = res["events"][b]
            names = self.event_names[b]
            out.events[b] = {names[i]: int(c[i]) for i in np.flatnonzero(c)}
        d = {k: int(v) for k, v in res["decisions"].items()}
        if "call" in d:
            out.decisions = {"call": {"call": d["call"], "fold": n_rounds - d["call"]}}
        else:
            played = d["flop"]
            out.decisions = {
                "flop": {"bet": played, "fold": n_rounds - played},
                "turn": {"bet": d["turn_played"], "check": played - d["turn_played"]},
                "river": {"bet": d["river_played"], "check": played - d["river_played"]},
            }
        for a_i, a in enumerate(all_bets):
            for b in all_bets[a_i:]:
                out.moments[(a, b)] = int(moments[a_i, pos[b]])
        return out, meter


def _move(dist: dict[int, int], old: int, new: int) -> None:
    dist[old] -= 1
    if dist[old] == 0:
        del dist[old]
    dist[new] = dist.get(new, 0) + 1
