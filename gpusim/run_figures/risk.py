"""Sessions and risk of ruin of a run: the exact session result after N rounds (FFT
convolution of the per-round net), the risk of ruin over N rounds and unlimited, the bankroll
for a target risk, and a simulated-paths cross-check."""

from __future__ import annotations

import math

import numpy as np

from gpusim.run_figures.data import AnalysisError, RunData, bet_distribution
from gpusim.stats import (
    NetDistribution,
    bankroll_for_risk,
    lundberg_coefficient,
    ruin_curve,
    ruin_probability,
    session_distribution,
    session_summary,
    simulate_ruin,
)

__all__ = [
    "DEFAULT_TARGETS",
    "risk_figures",
    "risk_with_detail",
    "ruin_curve_points",
    "ruin_figures",
    "ruin_with_curve",
    "session_figures",
    "session_pmf",
    "session_with_pmf",
]

DEFAULT_TARGETS = (0.01, 0.05)
_MAX_CURVE = 1 << 23      # bankrolls held in one unlimited-horizon curve (three float arrays)


def _cap_gains(dist: NetDistribution, cap: int) -> NetDistribution:
    """Wins above ``cap`` set to ``cap``: exact for ruin from bankrolls b with b + cap beyond
    any loss the horizon allows (a jackpot meter would otherwise blow up the lattice)."""
    if int(dist.values[-1]) <= cap:
        return dist
    return NetDistribution.from_counts(np.minimum(dist.values, cap), dist.counts)


def session_with_pmf(data: RunData, rounds: int, bet: str = "total",
                     percentiles=(1, 5, 10, 25, 50, 75, 90, 95, 99)):
    """(figures, LatticePMF) of the session result after ``rounds`` rounds.

    A progressive meter can make single wins hundreds of thousands of units, which would
    stretch the convolution lattice to millions of points. Wins above a cap C are set to C:
    a session holding such a win is then still above T = C - (rounds - 1) L (L = the largest
    loss of one round), so the distribution below T, hence every percentile below T and
    P(ahead/even/behind), is unchanged. C grows until the highest percentile is below T.
    figures["exact_below"] is T (None when nothing was capped); mean and SD are always the
    uncapped ones (exact, from the per-round moments).
    """
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise AnalysisError(f"--rounds: got {rounds!r}; must be a whole number >= 1")
    dist = bet_distribution(data, bet)
    loss = max(0, -int(dist.values[0]))
    top = int(dist.values[-1])
    cap = 4 * (rounds * loss + 1)
    q_hi = max(percentiles) / 100.0
    while True:
        if cap >= top:
            pmf, exact_below = session_distribution(dist, rounds), None
            break
        pmf = session_distribution(_cap_gains(dist, cap), rounds)
        exact_below = cap - (rounds - 1) * loss
        if exact_below > 0 and int(pmf.quantile(q_hi)) < exact_below:
            break
        cap *= 4
    s = session_summary(dist, rounds, percentiles=percentiles, pmf=pmf)
    fig = {"bet": bet, "rounds": rounds, "mean": s.mean, "sd": s.sd,
           "percentiles": {str(k): v for k, v in s.percentiles.items()},
           "p_ahead": s.p_ahead, "p_even": s.p_even, "p_behind": s.p_behind,
           "error_bound": s.error, "resolution": s.resolution, "exact_below": exact_below}
    return fig, pmf


def session_figures(data: RunData, rounds: int, bet: str = "total",
                    percentiles=(1, 5, 10, 25, 50, 75, 90, 95, 99)) -> dict:
    """Exact session result after ``rounds`` rounds (FFT convolution of the per-round net);
    see :func:`session_with_pmf`."""
    return session_with_pmf(data, rounds, bet, percentiles)[0]


def session_pmf(data: RunData, rounds: int, bet: str = "total") -> tuple[np.ndarray, np.ndarray]:
    """(values, probabilities) of the session result after ``rounds`` rounds (for plots); wins
    above ``figures["exact_below"]`` of :func:`session_with_pmf` are capped there."""
    return session_with_pmf(data, rounds, bet)[1].nonzero()


def ruin_with_curve(data: RunData, bankroll: int, rounds: int, *, bet: str = "total",
                    targets=DEFAULT_TARGETS, paths: int = 20_000, seed: int = 1,
                    level: float = 0.99):
    """(figures, curve) of the risk of ruin over ``rounds`` rounds; curve is the
    :class:`~gpusim.stats.ruin.RuinCurve` for bankrolls 1..B, B covering ``bankroll`` and
    every target's bankroll: one backward recursion gives them all."""
    if isinstance(bankroll, bool) or not isinstance(bankroll, int) or bankroll <= 0:
        raise AnalysisError(f"--bankroll: got {bankroll!r}; must be a whole number of money "
                            "units >= 1")
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise AnalysisError(f"--rounds: got {rounds!r}; must be a whole number >= 1")
    for t in targets:
        if not 0 < t < 1:
            raise AnalysisError(f"--target-ror: got {t}; must be a probability in (0, 1)")
    dist = bet_distribution(data, bet)
    loss = max(0, -int(dist.values[0]))
    mu, sd = float(dist.mean), float(dist.sd)
    # the bankroll a target needs is below mean drift + 3 SD over the horizon (else doubled)
    b_max = max(bankroll, 10, min(rounds * loss + 1, int(rounds * max(0.0, -mu)
                                                          + 3 * sd * math.sqrt(rounds))
                                  + loss + 1))
    while True:
        capped = _cap_gains(dist, max(b_max, rounds * loss + 1) + rounds * loss)
        curve = ruin_curve(capped, b_max, rounds)
        if all(np.any(curve.high <= t) for t in targets) or not loss:
            break
        b_max *= 2
    lo, hi = curve.at(bankroll)
    need = []
    for t in targets:
        ok = np.flatnonzero(curve.high <= t)
        b = int(ok[0]) + 1 if ok.size else 1
        rl, rh = curve.at(b)
        need.append({"target": t, "bankroll": b, "ruin_low": rl, "ruin_high": rh})
    unlimited, unl = _unlimited_figures(dist, capped, bankroll, targets)
    sim = simulate_ruin(dist, bankroll, rounds, paths=paths, seed=seed, level=level)
    est = (lo + hi) / 2
    fig = {
        "bet": bet, "bankroll": bankroll, "rounds": rounds, "largest_loss": loss,
        "finite": {"low": lo, "high": hi, "estimate": est},
        "unlimited": unlimited,
        "bankroll_for_risk": need, "bankroll_for_risk_unlimited": unl,
        "simulated": {"paths": sim.paths, "ruined": sim.ruined, "estimate": sim.estimate,
                      "low": sim.low, "high": sim.high, "level": sim.level, "seed": seed},
        "simulation_agrees": bool(sim.low <= hi and lo <= sim.high),
    }
    return fig, curve


def _unlimited_figures(dist: NetDistribution, capped: NetDistribution, bankroll: int,
                       targets) -> tuple[dict, list[dict]]:
    """The unlimited-horizon ruin from ``bankroll`` and the bankroll for each target.

    method: "exact" (bracket within 1e-10), "certain" (E[net] <= 0), "lundberg" (the banded
    solve does not fit: Cramer-Lundberg bounds, a true but wider bracket), or None with a
    reason in ``note`` when nothing could be computed."""
    loss = max(0, -int(dist.values[0]))
    if not loss or dist.mean <= 0:
        # certain ruin or none; the capped distribution has the same answer and a small band
        ulo, uhi = ruin_probability(capped, bankroll, None)
        note = "certain ruin: the expected result per round is <= 0" if loss else None
        return {"low": ulo, "high": uhi, "method": "certain" if loss else "exact",
                "lundberg": None, "note": note}, []
    try:
        r_coef = lundberg_coefficient(dist)
        top = max(bankroll, max(int(math.ceil(math.log(1 / t) / r_coef)) for t in targets)
                  + loss + 1)
        # one curve serves the bankroll and every target while it is small enough to hold
        curve = ruin_curve(dist, top, None) if top <= _MAX_CURVE else None
        at = curve if curve is not None else ruin_curve(dist, bankroll, None)
        ulo, uhi = at.at(bankroll)
        rows = []
        for t in targets:
            ok = np.flatnonzero(curve.high <= t) if curve is not None else np.zeros(0)
            if curve is not None and ok.size:
                b = int(ok[0]) + 1
                rl, rh = curve.at(b)
                b_low, method = int(np.flatnonzero(curve.low <= t)[0]) + 1, curve.method
            else:
                f = bankroll_for_risk(dist, t, None)
                b, b_low, rl, rh, method = (f.bankroll, f.bankroll_optimistic, f.ruin_low,
                                            f.ruin_high, f.method)
            rows.append({"target": t, "bankroll": b, "bankroll_low": b_low, "ruin_low": rl,
                         "ruin_high": rh, "method": method})
    except (ValueError, MemoryError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return {"low": None, "high": None, "method": None, "lundberg": None,
                "note": f"not computed: {reason}"}, []
    note = None
    if "lundberg" in [at.method] + [r["method"] for r in rows]:
        note = (f"Cramer-Lundberg bounds exp(-R (B + {loss - 1})) <= P(ruin from bankroll B) <= "
                f"exp(-R B), R = {r_coef:.6g}: the exact banded solve would exceed its memory "
                f"cap (largest win {int(dist.values[-1]):,} units, small positive edge)")
    return {"low": ulo, "high": uhi, "method": at.method, "lundberg": r_coef,
            "note": note}, rows


def ruin_figures(data: RunData, bankroll: int, rounds: int, *, bet: str = "total",
                 targets=DEFAULT_TARGETS, paths: int = 20_000, seed: int = 1,
                 level: float = 0.99) -> dict:
    """Risk of ruin from ``bankroll`` over ``rounds`` rounds and unlimited, the bankroll for each
    target risk (exact, integer lattice), and the simulated-paths cross-check."""
    return ruin_with_curve(data, bankroll, rounds, bet=bet, targets=targets, paths=paths,
                           seed=seed, level=level)[0]


def ruin_curve_points(data: RunData, rounds: int, max_bankroll: int, *,
                      bet: str = "total") -> dict:
    """Ruin probability over ``rounds`` rounds for bankrolls 1..max_bankroll (for plots)."""
    dist = bet_distribution(data, bet)
    loss = max(0, -int(dist.values[0]))
    capped = _cap_gains(dist, max(max_bankroll, rounds * loss + 1) + rounds * loss)
    c = ruin_curve(capped, max_bankroll, rounds)
    return {"bankrolls": c.bankrolls.tolist(), "ruin": c.estimate.tolist()}


def risk_figures(data: RunData, bankroll: int, rounds: int, *, bet: str = "total",
                 targets=DEFAULT_TARGETS, paths: int = 20_000, seed: int = 1) -> dict:
    """What ``gpusim risk`` prints: the session after N rounds and the risk of ruin."""
    return risk_with_detail(data, bankroll, rounds, bet=bet, targets=targets, paths=paths,
                            seed=seed)[0]


def risk_with_detail(data: RunData, bankroll: int, rounds: int, *, bet: str = "total",
                     targets=DEFAULT_TARGETS, paths: int = 20_000, seed: int = 1,
                     level: float = 0.99):
    """(risk figures, session LatticePMF, RuinCurve): the figures of :func:`risk_figures` and
    the full distributions behind them (the report plots them and writes them with --data).
    level: of the simulated-paths interval."""
    sess, pmf = session_with_pmf(data, rounds, bet)
    ruin, curve = ruin_with_curve(data, bankroll, rounds, bet=bet, targets=targets,
                                  paths=paths, seed=seed, level=level)
    fig = {"run": data.path, "rounds_in_run": data.rounds, "complete": data.complete,
           "bet": bet, "session": sess, "ruin": ruin}
    return fig, pmf, curve
