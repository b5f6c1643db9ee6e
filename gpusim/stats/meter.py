"""Progressive jackpot figures: hit frequency, the meter at a hit, break-even meter and RTP.

Model (per jackpot wager of ``stake`` money): fixed prizes return ``fixed_rtp`` per unit stake
(the prize replaces the stake, so a fixed prize of X for 1 contributes P(event) * X); the top
award (royal flush) hits with probability ``p_hit`` and pays the meter M. Each wager adds
``contribution_rate * stake`` to the meter; after a hit the meter resets to ``seed_meter``.

* RTP at meter M: fixed_rtp + p_hit * M / stake.
* Break-even meter (RTP = 1): (1 - fixed_rtp) * stake / p_hit.
* Long-run RTP: every contribution is paid out eventually, and each hit also pays the seed, so
  RTP = fixed_rtp + contribution_rate + p_hit * seed_meter / stake.
* Wagers from one hit to the next (the hitting one included) are geometric on {1, 2, ...} with
  mean 1 / p_hit, so the meter at a hit is seed_meter + contribution_rate * stake * K.

Figures are per wager. When two seats hit in one round they share the meter, which lowers the
realised return slightly; the simulation's recorded payouts include that, these formulas do not.
Meter values are money (integers in the smallest currency unit, or exact fractions).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from gpusim.stats.distribution import to_fraction
from gpusim.stats.ruin import wilson_interval

__all__ = [
    "HitFrequency",
    "MeterSummary",
    "break_even_meter",
    "contribution_for_rtp",
    "expected_meter_at_hit",
    "hit_frequency",
    "jackpot_rtp",
    "long_run_rtp",
    "meter_at_hit_quantiles",
    "meter_summary",
]


def _prob(p, name: str = "p_hit") -> Fraction:
    f = to_fraction(p, name)
    if not 0 < f <= 1:
        raise ValueError(f"{name} must be in (0, 1], got {p}")
    return f


def _positive(x, name: str) -> Fraction:
    f = to_fraction(x, name)
    if f <= 0:
        raise ValueError(f"{name} must be > 0, got {x}")
    return f


def _nonneg(x, name: str) -> Fraction:
    f = to_fraction(x, name)
    if f < 0:
        raise ValueError(f"{name} must be >= 0, got {x}")
    return f


def jackpot_rtp(fixed_rtp, p_hit, meter, stake=1):
    """RTP of one jackpot wager when the meter stands at ``meter``.

    meter: a number (exact Fraction result) or an array of meter values ((M,) float64 result).
    """
    f, p, s = _nonneg(fixed_rtp, "fixed_rtp"), _prob(p_hit), _positive(stake, "stake")
    if isinstance(meter, (np.ndarray, list, tuple)):
        m = np.asarray(meter, dtype=np.float64)
        if np.any(m < 0):
            raise ValueError("meter values must be >= 0")
        return float(f) + float(p) * m / float(s)
    return f + p * _nonneg(meter, "meter") / s


def break_even_meter(fixed_rtp, p_hit, stake=1) -> Fraction:
    """Meter at which a jackpot wager returns 100 % (exact)."""
    f, p, s = _nonneg(fixed_rtp, "fixed_rtp"), _prob(p_hit), _positive(stake, "stake")
    return (1 - f) * s / p


def long_run_rtp(fixed_rtp, p_hit, contribution_rate, seed_meter, stake=1) -> Fraction:
    """Long-run RTP: fixed_rtp + contribution_rate + p_hit * seed_meter / stake (exact)."""
    f, p, s = _nonneg(fixed_rtp, "fixed_rtp"), _prob(p_hit), _positive(stake, "stake")
    c = _nonneg(contribution_rate, "contribution_rate")
    return f + c + p * _nonneg(seed_meter, "seed_meter") / s


def contribution_for_rtp(target_rtp, fixed_rtp, p_hit, seed_meter, stake=1) -> Fraction:
    """Contribution rate giving a target long-run RTP (exact; may be negative = unreachable)."""
    t = _nonneg(target_rtp, "target_rtp")
    return t - long_run_rtp(fixed_rtp, p_hit, 0, seed_meter, stake)


def expected_meter_at_hit(p_hit, contribution_rate, seed_meter, stake=1, *,
                          hitting_wager_contributes: bool = True) -> Fraction:
    """Mean meter paid at a hit: seed + rate * stake * E[K], E[K] = 1 / p_hit (or minus 1)."""
    p, s = _prob(p_hit), _positive(stake, "stake")
    c, m0 = _nonneg(contribution_rate, "contribution_rate"), _nonneg(seed_meter, "seed_meter")
    k = 1 / p if hitting_wager_contributes else 1 / p - 1
    return m0 + c * s * k


def meter_at_hit_quantiles(p_hit, contribution_rate, seed_meter, stake=1,
                           levels: Sequence[float] = (0.1, 0.25, 0.5, 0.75, 0.9, 0.99), *,
                           hitting_wager_contributes: bool = True) -> dict[float, float]:
    """Quantiles of the meter at a hit under the geometric model (single bank of wagers).

    The q-quantile of K (wagers up to and including the hit) is ceil(log(1 - q) / log(1 - p)).
    """
    p, s = _prob(p_hit), _positive(stake, "stake")
    c, m0 = _nonneg(contribution_rate, "contribution_rate"), _nonneg(seed_meter, "seed_meter")
    out = {}
    for q in levels:
        if not 0 < q < 1:
            raise ValueError(f"levels must be in (0, 1), got {q}")
        k = 1 if p == 1 else max(1, math.ceil(math.log1p(-q) / math.log1p(-float(p))))
        if not hitting_wager_contributes:
            k -= 1
        out[q] = float(m0 + c * s * k)
    return out


@dataclass(frozen=True)
class HitFrequency:
    """Hits per wager: rate, one hit in ``one_in`` wagers, Wilson interval of the rate."""

    hits: int
    wagers: int
    rate: float
    one_in: float
    low: float
    high: float


def hit_frequency(hits: int, wagers: int, level: float = 0.95) -> HitFrequency:
    """Observed hit frequency of the top award with a confidence interval."""
    if isinstance(wagers, bool) or int(wagers) != wagers or wagers <= 0:
        raise ValueError(f"wagers must be an integer > 0, got {wagers!r}")
    if isinstance(hits, bool) or int(hits) != hits or not 0 <= hits <= wagers:
        raise ValueError(f"hits must be an integer in [0, {wagers}], got {hits!r}")
    lo, hi = wilson_interval(int(hits), int(wagers), level)
    rate = hits / wagers
    return HitFrequency(int(hits), int(wagers), rate, math.inf if hits == 0 else 1 / rate, lo, hi)


@dataclass(frozen=True)
class MeterSummary:
    """Distribution of recorded meter values at hits."""

    hits: int
    mean: float
    sd: float
    minimum: float
    maximum: float
    percentiles: dict[float, float]


def meter_summary(meter_values, percentiles: Sequence[float] = (10, 25, 50, 75, 90, 99)
                  ) -> MeterSummary:
    """Summary of the meter at each hit (meter_values: (H,) money amounts, H >= 1).

    Percentiles use the lower empirical quantile: the smallest recorded value with at least p %
    of the hits at or below it.
    """
    v = np.sort(np.asarray(meter_values, dtype=np.float64).ravel())
    if v.size == 0:
        raise ValueError("meter_values is empty: no hits recorded")
    pct = {}
    for p in percentiles:
        if not 0 < p <= 100:
            raise ValueError(f"percentiles must be in (0, 100], got {p}")
        k = max(1, math.ceil(to_fraction(p, "percentile") / 100 * v.size))
        pct[p] = float(v[k - 1])
    return MeterSummary(int(v.size), float(v.mean()), float(v.std()), float(v[0]),
                        float(v[-1]), pct)
