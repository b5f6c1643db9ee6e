"""Live-table exposure: the operator's result when many players bet on one dealt round.

Inputs: ``unit`` - the player's net result of one round per unit stake (e.g. the "total" bet of
a run made with ante 1); ``stakes`` - the stake of one seat, a distribution over positive integer
money amounts ({stake: weight}); ``seats`` - M players; ``rounds_per_day`` - D.

* Live play (all seats share the same cards and play the same strategy): every seat's net per
  unit is the same X, so the operator's result per round is -X * T with T = s_1 + ... + s_M.
* Independent rounds (M separate tables): the operator's result is the sum of M independent
  -X_j * s_j.

Both have the same mean; live play has the larger variance (E[T^2] Var X + Var T E[X]^2 against
M (E[s^2] Var X + Var s E[X]^2)). A day is the D-fold convolution of a round. All distributions
are exact on the money lattice while that lattice has at most ``max_points`` points; beyond, it is
coarsened and each result carries ``resolution`` (money: every reported value is within that of
the exact value) together with the usual mass ``error`` (see
:mod:`gpusim.stats.distribution`).
:func:`simulate_operator_days` is the Monte Carlo fallback and cross-check.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from gpusim.stats.distribution import LatticePMF, NetDistribution, as_pmf
from gpusim.stats.session import session_distribution

__all__ = [
    "ExposureSummary",
    "LiveExposure",
    "exposure_summary",
    "independent_round_distribution",
    "live_exposure",
    "live_round_distribution",
    "simulate_operator_days",
]

_DEFAULT_MAX_POINTS = 1 << 22


def _stake_pmf(stakes) -> LatticePMF:
    pmf = as_pmf(stakes)
    vals, _ = pmf.nonzero()
    if vals.min() <= 0:
        raise ValueError(f"stakes must be > 0, got {int(vals.min())}")
    return pmf


def _seats(seats) -> int:
    if isinstance(seats, bool) or not isinstance(seats, (int, np.integer)) or seats < 1:
        raise ValueError(f"seats must be an integer >= 1, got {seats!r}")
    return int(seats)


def _product(a: LatticePMF, b: LatticePMF, max_points: int) -> LatticePMF:
    """Distribution of A * B for independent A, B, coarsened to at most ``max_points`` points."""
    av, ap = a.nonzero()
    bv, bp = b.nonzero()
    vals = np.multiply.outer(av, bv).ravel()
    probs = np.multiply.outer(ap, bp).ravel()
    uniq, inv = np.unique(vals, return_inverse=True)
    p = np.bincount(inv, weights=probs)
    g = int(np.gcd.reduce(np.diff(uniq))) if uniq.size > 1 else 1
    width = (int(uniq[-1]) - int(uniq[0])) // g + 1
    # a value a*b with a off by ra and b off by rb is off by |a| rb + |b| ra + ra rb
    res = (a.resolution * float(np.abs(bv).max()) + b.resolution * float(np.abs(av).max())
           + a.resolution * b.resolution)
    err = a.error + b.error + a.error * b.error
    if width <= max_points:
        return LatticePMF.from_values(uniq, p, error=err, resolution=res)
    factor = math.ceil(width / max_points)
    h = g * factor
    j = np.floor_divide(uniq + h // 2, h)  # nearest multiple of h, 0 stays 0
    lo = int(j.min())
    dense = np.bincount(j - lo, weights=p)
    return LatticePMF(lo * h, h, dense, err, res + h / 2.0)


def live_round_distribution(unit, stakes, seats: int, *,
                            max_points: int = _DEFAULT_MAX_POINTS) -> LatticePMF:
    """Operator's result of one live round: -X * (s_1 + ... + s_M), one shared X.

    unit: player's net per unit stake (NetDistribution or LatticePMF); stakes: {stake: weight}
    (or a NetDistribution / LatticePMF of positive stakes); seats: M >= 1.
    """
    m = _seats(seats)
    total = session_distribution(_stake_pmf(stakes), m, tail_eps=0.0, max_points=max_points)
    return _product(as_pmf(unit).negate(), total, max_points)


def independent_round_distribution(unit, stakes, seats: int, *,
                                   max_points: int = _DEFAULT_MAX_POINTS) -> LatticePMF:
    """Operator's result of M independent rounds: sum of -X_j * s_j."""
    m = _seats(seats)
    seat = _product(as_pmf(unit).negate(), _stake_pmf(stakes), max_points)
    return session_distribution(seat, m, tail_eps=0.0, max_points=max_points)


@dataclass(frozen=True)
class ExposureSummary:
    """Operator's result (money): mean, SD, value at risk and loss probabilities.

    var: {level: loss amount L such that P(operator result < -L) <= 1 - level}, i.e. minus the
    (1 - level) quantile. loss_prob: {X: P(operator loses more than X)}.
    """

    mean: float
    sd: float
    var: dict[float, float]
    loss_prob: dict[float, float]
    error: float
    resolution: float


def exposure_summary(pmf: LatticePMF, *, levels: Sequence[float] = (0.95, 0.99),
                     loss_thresholds: Sequence[float] = ()) -> ExposureSummary:
    """:class:`ExposureSummary` of an operator result distribution."""
    var = {}
    for lv in levels:
        if not 0 < lv < 1:
            raise ValueError(f"levels must be in (0, 1), got {lv}")
        var[lv] = float(-pmf.quantile(1 - lv))
    loss = {}
    for x in loss_thresholds:
        if x < 0:
            raise ValueError(f"loss thresholds must be >= 0, got {x}")
        loss[x] = pmf.prob_lt(-x)
    return ExposureSummary(pmf.mean(), pmf.sd(), var, loss, pmf.error, pmf.resolution)


@dataclass(frozen=True)
class LiveExposure:
    """Live versus independent play, per round and per day (operator's view)."""

    seats: int
    rounds_per_day: int
    live_round: ExposureSummary
    independent_round: ExposureSummary
    live_day: ExposureSummary
    independent_day: ExposureSummary

    @property
    def daily_sd_ratio(self) -> float:
        """SD of a live day over SD of an independent day (>= 1 when E[X] and stakes vary)."""
        return self.live_day.sd / self.independent_day.sd


def live_exposure(unit, stakes, seats: int, rounds_per_day: int, *,
                  levels: Sequence[float] = (0.95, 0.99),
                  loss_thresholds: Sequence[float] = (),
                  tail_eps: float = 1e-15,
                  max_points: int = _DEFAULT_MAX_POINTS) -> LiveExposure:
    """Compare the operator's daily risk under live play and under independent rounds.

    rounds_per_day: D >= 1. loss_thresholds: daily (and per-round) losses X for P(loss > X).
    """
    if isinstance(rounds_per_day, bool) or not isinstance(rounds_per_day, (int, np.integer)) \
            or rounds_per_day < 1:
        raise ValueError(f"rounds_per_day must be an integer >= 1, got {rounds_per_day!r}")
    live = live_round_distribution(unit, stakes, seats, max_points=max_points)
    ind = independent_round_distribution(unit, stakes, seats, max_points=max_points)
    live_d = session_distribution(live, int(rounds_per_day), tail_eps=tail_eps,
                                  max_points=max_points)
    ind_d = session_distribution(ind, int(rounds_per_day), tail_eps=tail_eps,
                                 max_points=max_points)
    kw = {"levels": levels, "loss_thresholds": loss_thresholds}
    return LiveExposure(_seats(seats), int(rounds_per_day), exposure_summary(live, **kw),
                        exposure_summary(ind, **kw), exposure_summary(live_d, **kw),
                        exposure_summary(ind_d, **kw))


def _sampler(dist, rng: np.random.Generator):
    if isinstance(dist, NetDistribution):
        xs, cum = dist.values, np.cumsum(dist.counts)
        return lambda shape: xs[np.searchsorted(cum, rng.integers(0, cum[-1], size=shape),
                                                side="right")]
    if isinstance(dist, Mapping) and all(isinstance(w, (int, np.integer))
                                         for w in dist.values()):
        return _sampler(NetDistribution.from_mapping(dist), rng)
    xs, ps = as_pmf(dist).nonzero()
    cum = np.cumsum(ps)
    cum /= cum[-1]
    return lambda shape: xs[np.minimum(np.searchsorted(cum, rng.random(shape), side="right"),
                                       xs.size - 1)]


def simulate_operator_days(unit, stakes, seats: int, rounds_per_day: int, days: int, *,
                           seed: int, live: bool = True) -> np.ndarray:
    """Simulated daily operator results: (days,) int64 money.

    Randomness: numpy.random.Generator(PCG64(seed)). live=True shares one X per round across
    seats; live=False draws an independent X per seat.
    """
    m = _seats(seats)
    for name, v in (("rounds_per_day", rounds_per_day), ("days", days)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {v!r}")
    _stake_pmf(stakes)
    rng = np.random.Generator(np.random.PCG64(seed))
    draw_x, draw_s = _sampler(unit, rng), _sampler(stakes, rng)
    out = np.zeros(int(days), dtype=np.int64)
    for _ in range(int(rounds_per_day)):
        s = draw_s((int(days), m)).astype(np.int64)
        if live:
            out -= draw_x(int(days)).astype(np.int64) * s.sum(axis=1)
        else:
            out -= (draw_x((int(days), m)).astype(np.int64) * s).sum(axis=1)
    return out
