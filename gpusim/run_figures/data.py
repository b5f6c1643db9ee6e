"""A run's counts, loaded once from its folder: :class:`RunData` and :func:`load_run_data`,
and the one error type of the analysis, :class:`AnalysisError`."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from gpusim.games import bets as offered
from gpusim.games import spec_for
from gpusim.runs import manifest as _manifest
from gpusim.stats import DEFAULT_CONFIDENCE, NetDistribution

__all__ = [
    "AnalysisError",
    "RunData",
    "bet_distribution",
    "json_float",
    "load_run_data",
    "not_placed_events",
    "rules_from_manifest",
]


class AnalysisError(ValueError):
    """A run or a request that cannot be analysed; the message is one line."""


def rules_from_manifest(manifest: dict):
    """The run's rules, rebuilt from the resolved config in its manifest (hash-checked); see
    :func:`gpusim.runs.manifest.rules_from_manifest`. Raises :class:`AnalysisError`."""
    try:
        return _manifest.rules_from_manifest(manifest)
    except _manifest.ManifestError as exc:
        raise AnalysisError(str(exc)) from None


@dataclass(frozen=True, eq=False)
class RunData:
    """A run's counts, summed over its completed chunks.

    dists: {bet: NetDistribution} per-round net (money), bets plus ``main`` and ``total``.
    events: {bet: {event: count}}; wagers: {bet: {placed, wagered, returned, ...}} (ints).
    meters: (H,) int64 meter paid at each Jackpot royal; chunk_wagers: per-chunk rows and
    progress: within-chunk checkpoints (round_end, bet, wagered, returned), for convergence.
    """

    path: str
    manifest: dict
    rules: object
    summary: dict
    rounds: int
    bets: tuple[str, ...]
    dists: dict[str, NetDistribution]
    events: dict[str, dict[str, int]]
    wagers: dict[str, dict[str, int]]
    moments: pl.DataFrame
    outcomes: pl.DataFrame
    chunk_wagers: pl.DataFrame
    meters: np.ndarray
    stakes: dict[str, int] = field(default_factory=dict)
    progress: pl.DataFrame | None = None

    @property
    def complete(self) -> bool:
        return self.rounds == self.manifest.get("rounds")

    @property
    def confidence(self) -> float:
        """The level of the summary's intervals (:func:`load_run_data`'s ``confidence``)."""
        return float(self.summary.get("confidence", DEFAULT_CONFIDENCE))

    @property
    def ante(self) -> int:
        """The base bet's stake (the unit of the main game's and the whole round's figures)."""
        return int(self.stakes[spec_for(self.rules).base_bet])


def load_run_data(run, confidence: float = DEFAULT_CONFIDENCE) -> RunData:
    """Collect a run's tables once (``run``: a :class:`gpusim.Run` or a run-folder path); the
    summary's intervals, and the figures built on them, are at ``confidence`` (0 < c < 1)."""
    from gpusim.runs.run_api import Run

    if not isinstance(run, Run):
        run = Run(run)
    if run.rounds_done == 0:
        raise AnalysisError(f"run: {str(run.path)!r} has no completed chunks yet; nothing to "
                            "analyse")
    manifest = run.manifest
    rules = rules_from_manifest(manifest)
    bets = tuple(offered(rules))
    outcomes = run.outcomes().collect()
    dists = _dists(outcomes)
    ev = run.events().collect().group_by(["bet", "event"]).agg(pl.col("count").sum())
    events: dict[str, dict[str, int]] = {}
    for b, e, c in ev.sort(["bet", "event"]).iter_rows():
        events.setdefault(b, {})[e] = int(c)
    _fill_not_placed(events, not_placed_events(rules), bets, run.rounds_done,
                     spec_for(rules).base_bet)
    w = run.wagers().collect()
    wagers = {row["bet"]: {k: int(v) for k, v in row.items() if k != "bet"}
              for row in w.group_by("bet").agg(pl.exclude("chunk").sum()).iter_rows(named=True)}
    chunk_wagers = w.sort("chunk")
    meters = run.jackpot().collect().sort("round")["meter"].to_numpy().astype(np.int64)
    spec = spec_for(rules)
    ante = int(manifest["config"]["stakes"][spec.base_bet])
    multiples = spec.stake_multiples
    stakes = {b: (ante * multiples[b] if b in multiples else
                  int(manifest["config"]["stakes"].get(b, ante))) for b in bets}
    stakes[spec.base_bet] = ante
    return RunData(
        path=str(run.path), manifest=manifest, rules=rules, summary=run.summary(confidence),
        rounds=run.rounds_done, bets=bets, dists=dists, events=events, wagers=wagers,
        moments=run.moments().collect(), outcomes=outcomes, chunk_wagers=chunk_wagers,
        meters=meters, stakes=stakes, progress=run.progress().collect())


def not_placed_events(rules) -> dict[str, tuple[str, ...]]:
    """{bet: events in which the bet is not on the table}, for every bet a decision places:
    from the game's decision tree, ``fold`` on a way through it that folds without placing the
    bet, else the name of the action taken instead at the point that offers it (Hold'em Bonus:
    the Turn bet after a ``check``, or after a flop ``fold``)."""
    from gpusim.strategy.tree import action_paths

    points = spec_for(rules).decisions
    placeable = dict.fromkeys(b for p in points for a in p.actions for b in a.stakes)
    offers = {bet: [p for p in points if any(bet in a.stakes for a in p.actions)]
              for bet in placeable}
    out: dict[str, tuple[str, ...]] = {}
    for took, placed in action_paths(points):
        folded = any(p.actions[took[p.name]].folds for p in points if took[p.name] >= 0)
        for bet, at in offers.items():
            if placed.get(bet):
                continue
            kinds = ["fold"] if folded else [p.actions[took[p.name]].name for p in at
                                             if took[p.name] >= 0][:1]
            out[bet] = tuple(dict.fromkeys((*out.get(bet, ()), *kinds)))
    return out


def _fill_not_placed(events: dict[str, dict[str, int]], not_placed, bets, rounds: int,
                     base: str) -> None:
    """Add the rounds in which an optional bet was not placed (the run records placed bets'
    events only): ``fold`` after a fold (the ``fold`` count of ``base``, the base bet),
    ``check`` otherwise, so a return table's probabilities are per round, as in the exact
    analysis."""
    folds = events.get(base, {}).get("fold", 0)
    for bet, kinds in not_placed.items():
        if bet not in bets:
            continue
        ev = events.setdefault(bet, {})
        missing = rounds - sum(ev.values())
        if missing <= 0 or any(ev.get(k) for k in kinds):
            continue
        fold = min(folds, missing)
        if fold:
            ev["fold"] = fold
        if missing - fold and "check" in kinds:
            ev["check"] = missing - fold


def _dists(outcomes: pl.DataFrame) -> dict[str, NetDistribution]:
    agg = outcomes.group_by(["bet", "net"]).agg(pl.col("count").sum())
    out = {}
    for bet in sorted(set(agg["bet"].to_list())):
        sub = agg.filter(pl.col("bet") == bet)
        out[bet] = NetDistribution.from_counts(sub["net"].to_numpy(), sub["count"].to_numpy())
    return out


def bet_distribution(data: RunData, bet: str) -> NetDistribution:
    """The per-round net of ``bet`` (a bet, ``main`` or ``total``); an unknown bet is an
    :class:`AnalysisError` naming the allowed ones (the CLI's ``--bet``)."""
    if bet not in data.dists:
        raise AnalysisError(f"--bet: got {bet!r}; allowed: "
                            + ", ".join(b for b in [*data.bets, "main", "total"]
                                        if b in data.dists))
    return data.dists[bet]


def json_float(x) -> float | None:
    """A JSON-safe float (None for None, NaN or infinity)."""
    if x is None:
        return None
    v = float(x)
    return v if math.isfinite(v) else None
