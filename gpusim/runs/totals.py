"""Summaries of a run, recomputed from its Parquet parts (never from summary.json).

Per bet: rounds placed, wagered, returned, RTP with a confidence interval at the asked level
(default 95 %; the keys name the level, ``rtp_ci95``, ``rtp_ci99`` (:func:`gpusim.stats.ci_key`),
and ``confidence`` gives it). The interval is the delta-method interval of the ratio (sum of
returns / sum of wagers) over independent rounds: with per-round net y and stake x,
r = mean(y) / mean(x) and Var(r) ~ (Var(y) - 2 r Cov(x, y) + r^2 Var(x)) / (N mean(x)^2); every
moment it needs is stored as an exact integer sum.

Main game (``main`` = the sum of the main-game bets): house edge per ante, element of risk,
total-bet RTP, SD per round in antes, and ``ante_rtp`` = 1 - house edge per ante (what the Icelandic
rules publish as "Ante RTP"; the Ante bet's own RTP is under ``bets``), as ``gpusim exact``
reports.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # polars loads on first use: a run's start-up does not wait for it
    import polars as pl

from gpusim.games import spec_for
from gpusim.runs.manifest import rules_from_manifest
from gpusim.stats import DEFAULT_CONFIDENCE, ci_key, z_of

__all__ = ["compute_summary"]


def _ratio_ci(n: int, sy: int, syy: int, sx: int, sxx: int, sxy: int,
              z: float) -> tuple[float, float, float]:
    """(r, lo, hi) for r = sy / sx with the delta-method interval r -+ z * SE(r)."""
    if sx == 0 or n == 0:
        return math.nan, math.nan, math.nan
    r = sy / sx
    my, mx = sy / n, sx / n
    var_y = syy / n - my * my
    var_x = sxx / n - mx * mx
    cov = sxy / n - mx * my
    var_r = max(0.0, (var_y - 2 * r * cov + r * r * var_x) / (n * mx * mx))
    half = z * math.sqrt(var_r)
    return r, r - half, r + half


def compute_summary(
    manifest: dict,
    outcomes: pl.DataFrame,
    events: pl.DataFrame,
    decisions: pl.DataFrame,
    wagers: pl.DataFrame,
    confidence: float = DEFAULT_CONFIDENCE,
) -> dict:
    """The summary dict of ``summary.json`` and ``gpusim summary --json`` from the parts, its
    intervals at ``confidence`` (0 < c < 1; ValueError otherwise)."""
    import polars as pl

    z = z_of(confidence)
    ci = ci_key(confidence)

    chunks = {r["chunk"]: r for r in manifest.get("chunks_done", [])}
    rounds = sum(r["n_rounds"] for r in chunks.values())
    # the game from the run's own config, not by its name: a game described in a user's file is
    # known to this process only through the manifest that carries it
    ante = int(manifest["config"]["stakes"][spec_for(rules_from_manifest(manifest)).base_bet])

    dist = outcomes.group_by(["bet", "net"]).agg(pl.col("count").sum()).sort(["bet", "net"])
    # exact Python integers: squared nets times counts can pass 2^63 on long runs
    sums: dict[str, list[int]] = {}
    for bet, net, count in dist.iter_rows():
        acc = sums.setdefault(bet, [0, 0])
        acc[0] += net * count
        acc[1] += net * net * count
    w = wagers.group_by("bet").agg(pl.exclude("chunk").sum()).sort("bet")

    bets: dict[str, dict] = {}
    for row in w.iter_rows(named=True):
        n = rounds
        sum_net, sum_net_sq = sums.get(row["bet"], [0, 0])
        r, lo, hi = _ratio_ci(
            n, sum_net, sum_net_sq, row["wagered"], row["sum_stake_sq"], row["sum_stake_net"], z
        )
        mean = sum_net / n if n else math.nan
        var = sum_net_sq / n - mean * mean if n else math.nan
        bets[row["bet"]] = {
            "placed": row["placed"],
            "wagered": row["wagered"],
            "returned": row["returned"],
            "net": row["returned"] - row["wagered"],
            "rtp": 1 + r,
            f"rtp_{ci}": [1 + lo, 1 + hi],
            "mean_net_per_round": mean,
            "sd_per_round": math.sqrt(max(var, 0.0)),
        }
    order = [b for b in manifest.get("bets", []) if b in bets]
    order += sorted(b for b in bets if b not in order and b not in ("main", "total"))
    order += [b for b in ("main", "total") if b in bets]
    bets = {b: bets[b] for b in order}

    main = bets.get("main")
    main_summary = {}
    if main and rounds:
        eor = -main["net"] / main["wagered"] if main["wagered"] else math.nan
        main_summary = {
            "house_edge_per_ante": -main["mean_net_per_round"] / ante,
            f"house_edge_per_ante_{ci}": [
                -(main["mean_net_per_round"] + z * main["sd_per_round"] / math.sqrt(rounds))
                / ante,
                -(main["mean_net_per_round"] - z * main["sd_per_round"] / math.sqrt(rounds))
                / ante,
            ],
            "avg_total_wager": main["wagered"] / rounds / ante,
            "element_of_risk": eor,
            "total_bet_rtp": 1 - eor,
            f"total_bet_rtp_{ci}": main[f"rtp_{ci}"],
            "sd_per_round": main["sd_per_round"] / ante,
            # the published sense of "Ante RTP" (the Icelandic rules): 1 - house edge per ante; the
            # Ante bet's own RTP is bets["ante"]["rtp"]
            "ante_rtp": 1 + main["mean_net_per_round"] / ante,
        }

    dec = decisions.group_by(["point", "action"]).agg(pl.col("count").sum())
    dec_out: dict[str, dict[str, float]] = {}
    for point in dec["point"].unique().sort().to_list():
        sub = dec.filter(pl.col("point") == point).sort("action")
        total = int(sub["count"].sum())
        dec_out[point] = {
            a: (c / total if total else math.nan)
            for a, c in zip(sub["action"].to_list(), sub["count"].to_list(), strict=True)
        }

    ev = events.group_by(["bet", "event"]).agg(pl.col("count").sum()).sort(["bet", "event"])
    ev_out: dict[str, dict[str, int]] = {}
    for row in ev.iter_rows(named=True):
        ev_out.setdefault(row["bet"], {})[row["event"]] = row["count"]

    rate = manifest.get("rounds_per_s")
    return {
        "config": manifest.get("config_name"),
        "game": manifest.get("game"),
        "strategy": manifest.get("strategy"),
        "seed": manifest.get("seed"),
        "rounds": rounds,
        "rounds_planned": manifest.get("rounds"),
        "complete": rounds == manifest.get("rounds"),
        "confidence": confidence,
        "bets": bets,
        "main": main_summary,
        "decisions": dec_out,
        "events": ev_out,
        "backend": manifest.get("backend"),
        "device": manifest.get("device"),
        "rounds_per_s": rate,
    }
