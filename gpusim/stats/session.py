"""Distribution of a session's result: the sum of N independent rounds.

The N-fold convolution is computed by exponentiation by squaring (about 2 log2 N convolutions)
on the integer lattice of the per-round distribution. After each convolution, tail points holding
at most ``tail_eps`` of mass are cut off, so supports stay near mean +- 8 SD instead of growing
as N * range. The returned :class:`~gpusim.stats.distribution.LatticePMF` carries
``error``, a bound on the L1 distance to the exact session distribution (trimmed mass plus
rounding, see :func:`~gpusim.stats.distribution.convolve`); every probability it yields
(P(ahead), a CDF value) is within ``error`` of the exact one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from gpusim.stats.distribution import LatticePMF, NetDistribution, as_pmf, convolve

__all__ = [
    "DEFAULT_PERCENTILES",
    "SessionSummary",
    "session_distribution",
    "session_summary",
]

DEFAULT_PERCENTILES = (1, 5, 10, 25, 50, 75, 90, 95, 99)


def _check_rounds(rounds) -> int:
    if isinstance(rounds, bool) or not isinstance(rounds, (int, np.integer)) or rounds < 0:
        raise ValueError(f"rounds must be an integer >= 0, got {rounds!r}")
    return int(rounds)


def session_distribution(dist, rounds: int, *, tail_eps: float = 1e-15,
                         max_points: int = 1 << 24) -> LatticePMF:
    """Distribution of the total net result of ``rounds`` independent rounds.

    dist: per-round NetDistribution or LatticePMF (money units).
    rounds: N >= 0 (N = 0 gives a point mass at 0).
    tail_eps: mass that each convolution may trim from the tails; the total trimmed is at most
        about ``2 * log2(N) * tail_eps`` and is included in the result's ``error``.
    max_points: cap on lattice points; past it the lattice is coarsened and ``resolution`` > 0.
    Returns a LatticePMF on the per-round lattice (step = gcd of the per-round differences).
    """
    n = _check_rounds(rounds)
    if tail_eps < 0 or tail_eps >= 1e-3:
        raise ValueError(f"tail_eps must be in [0, 1e-3), got {tail_eps}")
    base = as_pmf(dist).trim(0.0)
    if n == 0:
        return LatticePMF.point(0, base.step)
    result: LatticePMF | None = None
    while True:
        if n & 1:
            result = base if result is None else convolve(result, base, tail_eps=tail_eps,
                                                          max_points=max_points)
        n >>= 1
        if not n:
            break
        base = convolve(base, base, tail_eps=tail_eps, max_points=max_points)
    assert result is not None
    return result


@dataclass(frozen=True)
class SessionSummary:
    """Summary of a session distribution.

    mean, sd: of the session result (exact from the per-round moments when known, else from the
    computed distribution). percentiles: {p: smallest v with P(result <= v) >= p/100}.
    p_ahead, p_even, p_behind: P(result > 0), P(= 0), P(< 0); each within ``error`` of exact.
    resolution: > 0 only when the lattice was coarsened (then P(even) is approximate).
    """

    rounds: int
    mean: float
    sd: float
    percentiles: dict[float, int]
    p_ahead: float
    p_even: float
    p_behind: float
    error: float
    resolution: float


def session_summary(dist, rounds: int, *,
                    percentiles: Sequence[float] = DEFAULT_PERCENTILES,
                    tail_eps: float = 1e-15, max_points: int = 1 << 24,
                    pmf: LatticePMF | None = None) -> SessionSummary:
    """Session result after ``rounds`` rounds: mean, SD, percentiles and P(ahead/even/behind).

    dist: per-round NetDistribution (moments then exact) or LatticePMF.
    percentiles: levels in (0, 100).
    pmf: the session distribution when already computed (e.g. of ``dist`` with its rare huge
        wins capped, which leaves the figures below the cap unchanged); else computed here.
    """
    n = _check_rounds(rounds)
    for p in percentiles:
        if not 0 < p < 100:
            raise ValueError(f"percentiles must be in (0, 100), got {p}")
    if pmf is None:
        pmf = session_distribution(dist, n, tail_eps=tail_eps, max_points=max_points)
    if isinstance(dist, NetDistribution):
        mean = float(dist.mean * n)
        sd = float(np.sqrt(float(dist.variance * Fraction(n))))
    else:
        mean, sd = pmf.mean(), pmf.sd()
    qs = pmf.quantile(np.asarray(list(percentiles), dtype=np.float64) / 100.0)
    pct = {p: int(v) for p, v in zip(percentiles, np.atleast_1d(qs).tolist(), strict=True)}
    return SessionSummary(
        rounds=n, mean=mean, sd=sd, percentiles=pct,
        p_ahead=pmf.prob_gt(0), p_even=pmf.prob_eq(0), p_behind=pmf.prob_lt(0),
        error=pmf.error, resolution=pmf.resolution,
    )
