"""Volatility of a run: house edge, element of risk, SD, VI and N0 per bet, the covariance of
the bets in one round, the hold's confidence interval, and the RTP's convergence."""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from gpusim.run_figures.data import RunData, json_float
from gpusim.stats import ci_key, hold_table, volatility, z_of
from gpusim.stats.moments import DEFAULT_HOLD_ROUNDS, JointMoments, z_two_sided

__all__ = ["convergence", "volatility_figures"]


def _vol_dict(v, wagered: int | None = None) -> dict:
    f = json_float
    return {"stake": f(v.stake), "mean_net_per_round": f(v.mean), "house_edge": f(v.house_edge),
            "element_of_risk": f(v.element_of_risk), "rtp": f(v.rtp), "sd": f(v.sd),
            "vi90": f(v.vi90), "vi95": f(v.vi95), "n0": f(v.n0), "wagered": wagered}


def volatility_figures(data: RunData, hold_rounds=DEFAULT_HOLD_ROUNDS,
                       confidence: float | None = None) -> dict:
    """House edge, element of risk, SD, VI 90/95 %, N0 per bet and for main/total; the
    covariance of the bets in one round; the hold's confidence interval after N rounds at
    ``confidence`` (default: the level of ``data.summary``, 95 % unless asked otherwise), under
    ``hold_ci95`` at 95 % (``hold_ci99`` at 99 %: :func:`gpusim.stats.ci_key`).

    The volatility index keeps its fixed PAR-sheet levels (VI 90 %, VI 95 %): it is a width
    convention of the industry, not a confidence interval of this run's estimates."""
    level = data.confidence if confidence is None else confidence
    bets = {}
    for bet in [*data.bets, "main", "total"]:
        d = data.dists.get(bet)
        if d is None:
            continue
        stake = data.ante if bet in ("main", "total") else data.stakes[bet]
        wag = data.wagers.get(bet, {}).get("wagered")
        v = volatility(d, stake=stake, wagered=wag if wag else None, bet=bet)
        bets[bet] = _vol_dict(v, wag)
    names = [b for b in data.bets if b in data.dists]
    cov = None
    if not data.moments.is_empty():
        try:
            jm = JointMoments.from_tables(data.moments, data.outcomes, names=names)
            c, r = jm.covariance(), jm.correlation()
            cov = {"names": names, "covariance": [[json_float(x) for x in row] for row in c],
                   "correlation": [[json_float(x) for x in row] for row in r]}
        except ValueError:
            cov = None
    holds = {}
    for bet in ("main", "total"):
        if bet in data.dists:
            holds[bet] = [{"rounds": h.rounds, "hold": h.hold, "low": h.low, "high": h.high}
                          for h in hold_table(data.dists[bet], hold_rounds, level=level,
                                              stake=data.ante)]
    return {"bets": bets, "covariance": cov, "confidence": level, f"hold_{ci_key(level)}": holds,
            "z90": z_two_sided(0.90), "z95": z_two_sided(0.95)}


def convergence(data: RunData, bet: str = "main", exact_rtp: float | None = None) -> dict:
    """Cumulative RTP of ``bet`` at each checkpoint of the run (every compute batch, 2^18
    rounds on the CPU; each chunk's end for runs without a ``progress`` table), with what the
    confidence funnel around the centre needs (the exact RTP when given, else the final
    simulated RTP): the per-round SD and the level of ``data.summary`` (``confidence``)."""
    w = data.chunk_wagers.filter(pl.col("bet") == bet).sort("chunk")
    recs = {int(r["chunk"]): r for r in data.manifest.get("chunks_done", [])}
    chunks = w["chunk"].to_list()
    n = [int(recs[c]["n_rounds"]) if c in recs else 0 for c in chunks]
    cw = np.cumsum(w["wagered"].to_numpy()).tolist()
    cr = np.cumsum(w["returned"].to_numpy()).tolist()
    rounds, wag, ret = np.cumsum(n).tolist(), cw, cr
    pr = data.progress
    if pr is not None and not pr.is_empty():
        pr = pr.filter(pl.col("bet") == bet).sort(["chunk", "round_end"])
        before = dict(zip(chunks, [0, *cw[:-1]], strict=True))
        before_r = dict(zip(chunks, [0, *cr[:-1]], strict=True))
        if pr.height and set(pr["chunk"].to_list()) == set(chunks):
            rounds = pr["round_end"].to_list()
            wag = [before[c] + x for c, x in zip(pr["chunk"].to_list(), pr["wagered"].to_list(),
                                                 strict=True)]
            ret = [before_r[c] + x for c, x in zip(pr["chunk"].to_list(),
                                                   pr["returned"].to_list(), strict=True)]
    rtp = [r / x if x else None for r, x in zip(ret, wag, strict=True)]
    s = data.summary["bets"].get(bet, {})
    final = s.get("rtp")
    level = data.confidence
    lo, hi = (s.get(f"rtp_{ci_key(level)}") or [None, None])
    # per-round SD of the ratio estimator, back from the summary's delta-method interval
    sd1 = None if lo is None or not data.rounds else (hi - lo) / 2 / z_of(level) \
        * math.sqrt(data.rounds)
    centre = exact_rtp if exact_rtp is not None else final
    return {"bet": bet, "rounds": rounds, "rtp": rtp, "centre": centre,
            "centre_is_exact": exact_rtp is not None, "sd_per_sqrt_round": sd1, "final": final,
            "confidence": level}
