"""Outcome distributions on the integer money lattice.

Two representations:

* :class:`NetDistribution` - exact integer counts of per-round net results of one bet, as a run
  folder stores them (net -> count). Means and variances come out as exact fractions.
* :class:`LatticePMF` - float probabilities on the lattice ``offset + step * k``, for derived
  distributions (sums over many rounds, products with stake sizes). It carries ``error``, a
  bound on the L1 distance to the true distribution (mass trimmed off the tails plus rounding),
  and ``resolution``, how far (in money units) a lattice point may sit from the true values it
  stands for when the lattice had to be coarsened (0 = exact).

:func:`convolve` adds two independent results. Small supports use direct summation (all terms
are non-negative, so every entry has a small relative error, tails included); large ones use an
FFT, whose absolute error per entry is bounded by the standard estimate
``delta = C * u * log2(n) * (|a|_2 |b|_1 + |b|_2 |a|_1 + |c|_2)`` (u = 2**-53, C =
``FFT_SAFETY``); entries below ``delta`` are noise and are set to zero, and
``sqrt(n) * delta`` plus the zeroed mass is added to ``error``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from numbers import Rational

import numpy as np

__all__ = [
    "FFT_SAFETY",
    "LatticePMF",
    "NetDistribution",
    "as_int_array",
    "as_pmf",
    "convolve",
    "to_fraction",
]

_U = float(np.finfo(np.float64).eps) / 2.0
# Measured worst ratio of the actual FFT error to the estimate (C = 1) is 0.13 over session
# powers of lumpy game distributions (docs/stats.md); 4 leaves a 30x margin.
FFT_SAFETY = 4.0
# Direct convolution below this much work, or when one side is this short: np.convolve sums
# non-negative terms, so its tails stay accurate to relative rounding.
_DIRECT_MIN = 64
_DIRECT_MAX_WORK = 1 << 24


def to_fraction(x, name: str) -> Fraction:
    """Exact value of a number given as int, Fraction, decimal string or float.

    Floats are read through their shortest repr (``1.1`` -> 11/10), which is what a person typed.
    """
    if isinstance(x, bool):
        raise ValueError(f"{name} must be a number, got {x!r}")
    if isinstance(x, Rational):
        return Fraction(x)
    if isinstance(x, (float, np.floating)):
        if not math.isfinite(float(x)):
            raise ValueError(f"{name} must be finite, got {x!r}")
        return Fraction(repr(float(x)))
    if isinstance(x, np.integer):
        return Fraction(int(x))
    if isinstance(x, str):
        try:
            return Fraction(x.strip())
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"{name} must be a number like 3, 2.5 or 3/2, got {x!r}") from None
    raise ValueError(f"{name} must be a number, got {x!r}")


def as_int_array(x, name: str) -> np.ndarray:
    """``x`` as a 1-D int64 array (a ValueError naming ``name`` otherwise)."""
    arr = np.asarray(x)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        if arr.dtype == object and all(isinstance(v, (int, np.integer)) for v in arr.tolist()):
            pass
        else:
            raise ValueError(f"{name} must hold integers (money and counts are integral), "
                             f"got dtype {arr.dtype}")
    return arr.astype(np.int64)


@dataclass(frozen=True, eq=False)
class NetDistribution:
    """Exact distribution of one bet's net result per round, as integer counts.

    values: (K,) int64, strictly increasing net results in money units (K >= 1).
    counts: (K,) int64, number of rounds with each net result, all > 0.
    Build it with :meth:`from_counts` when values may repeat or counts may be zero.
    """

    values: np.ndarray
    counts: np.ndarray

    def __post_init__(self):
        v = as_int_array(self.values, "values")
        c = as_int_array(self.counts, "counts")
        if v.shape != c.shape:
            raise ValueError(f"values and counts must have the same length, got {v.size} "
                             f"and {c.size}")
        if v.size == 0:
            raise ValueError("a distribution needs at least one outcome, got none")
        if np.any(np.diff(v) <= 0):
            raise ValueError("values must be strictly increasing; use NetDistribution.from_counts "
                             "to merge repeated values")
        if np.any(c <= 0):
            raise ValueError(f"counts must be > 0, got {int(c.min())}")
        v.setflags(write=False)
        c.setflags(write=False)
        object.__setattr__(self, "values", v)
        object.__setattr__(self, "counts", c)

    @classmethod
    def from_counts(cls, values, counts) -> NetDistribution:
        """Merge repeated values (summing their counts) and drop zero counts.

        values, counts: (M,) integers, e.g. all chunks' rows of one bet.
        """
        v = as_int_array(values, "values")
        c = as_int_array(counts, "counts")
        if v.shape != c.shape:
            raise ValueError(f"values and counts must have the same length, got {v.size} "
                             f"and {c.size}")
        if np.any(c < 0):
            raise ValueError(f"counts must be >= 0, got {int(c.min())}")
        uniq, inv = np.unique(v, return_inverse=True)
        acc = np.zeros(uniq.size, dtype=np.int64)
        np.add.at(acc, inv, c)  # int64 adds: exact, unlike bincount's float weights
        keep = acc > 0
        return cls(uniq[keep], acc[keep])

    @classmethod
    def from_mapping(cls, mapping: Mapping[int, int]) -> NetDistribution:
        """From ``{net: count}``."""
        return cls.from_counts(list(mapping.keys()), list(mapping.values()))

    @property
    def rounds(self) -> int:
        """Total number of rounds (exact)."""
        return sum(int(c) for c in self.counts)

    @property
    def total(self) -> int:
        """Sum of net results over all rounds (exact)."""
        return sum(int(v) * int(c) for v, c in zip(self.values, self.counts, strict=True))

    @property
    def sum_squares(self) -> int:
        """Sum of squared net results over all rounds (exact)."""
        return sum(int(v) * int(v) * int(c)
                   for v, c in zip(self.values, self.counts, strict=True))

    @property
    def mean(self) -> Fraction:
        """Expected net result per round (exact)."""
        return Fraction(self.total, self.rounds)

    @property
    def variance(self) -> Fraction:
        """Variance of the net result per round (exact; the distribution as population)."""
        n = self.rounds
        return Fraction(n * self.sum_squares - self.total ** 2, n * n)

    @property
    def sd(self) -> float:
        """Standard deviation per round."""
        return math.sqrt(self.variance)

    def probabilities(self) -> np.ndarray:
        """(K,) float64 probabilities of ``values``."""
        return self.counts / float(self.rounds)

    def negate(self) -> NetDistribution:
        """The other side's result (player <-> house)."""
        return NetDistribution(-self.values[::-1], self.counts[::-1])

    def to_pmf(self) -> LatticePMF:
        """Float probabilities on the coarsest lattice holding every value."""
        return LatticePMF.from_values(self.values, self.probabilities(), error=2 * _U)


def _gcd_step(values: np.ndarray) -> int:
    if values.size <= 1:
        return 1
    g = int(np.gcd.reduce(np.diff(values)))
    return max(g, 1)


@dataclass(frozen=True, eq=False)
class LatticePMF:
    """Probabilities on the lattice ``offset + step * k``, k = 0..L-1.

    probs: (L,) float64 >= 0, total close to 1 (within ``error``).
    offset: int, value of ``probs[0]``; step: int >= 1.
    error: bound on the L1 distance from ``probs`` to the true distribution.
    resolution: a lattice point stands for true values within +-resolution (0 = exact).
    """

    offset: int
    step: int
    probs: np.ndarray
    error: float = 0.0
    resolution: float = 0.0

    def __post_init__(self):
        p = np.asarray(self.probs, dtype=np.float64)
        if p.ndim != 1 or p.size == 0:
            raise ValueError(f"probs must be a non-empty 1-D array, got shape {p.shape}")
        if int(self.step) < 1:
            raise ValueError(f"step must be >= 1, got {self.step}")
        if not np.all(np.isfinite(p)) or np.any(p < 0):
            raise ValueError("probs must be finite and >= 0")
        p.setflags(write=False)
        object.__setattr__(self, "probs", p)
        object.__setattr__(self, "offset", int(self.offset))
        object.__setattr__(self, "step", int(self.step))
        object.__setattr__(self, "error", float(self.error))
        object.__setattr__(self, "resolution", float(self.resolution))

    @classmethod
    def point(cls, value: int = 0, step: int = 1) -> LatticePMF:
        """All mass on one value."""
        return cls(int(value), step, np.ones(1))

    @classmethod
    def from_values(cls, values, probs, *, error: float = 0.0,
                    resolution: float = 0.0) -> LatticePMF:
        """From scattered integer values and their probabilities (repeats are summed).

        values: (M,) integers; probs: (M,) float >= 0.
        """
        v = as_int_array(values, "values")
        p = np.asarray(probs, dtype=np.float64)
        if p.shape != v.shape or v.size == 0:
            raise ValueError(f"values and probs must be non-empty and of equal length, got "
                             f"{v.size} and {p.size}")
        if not np.all(np.isfinite(p)) or np.any(p < 0):
            raise ValueError("probs must be finite and >= 0")
        lo = int(v.min())
        step = _gcd_step(np.unique(v))
        idx = (v - lo) // step
        dense = np.bincount(idx, weights=p, minlength=int(idx.max()) + 1)
        return cls(lo, step, dense, error=error, resolution=resolution)

    @property
    def size(self) -> int:
        return int(self.probs.size)

    def values(self) -> np.ndarray:
        """(L,) int64 lattice values."""
        return self.offset + self.step * np.arange(self.size, dtype=np.int64)

    def nonzero(self) -> tuple[np.ndarray, np.ndarray]:
        """(values, probs) of the points with positive mass."""
        nz = np.flatnonzero(self.probs)
        return self.values()[nz], self.probs[nz]

    @property
    def mass(self) -> float:
        return float(math.fsum(self.probs))

    def mean(self) -> float:
        """Mean of the normalised distribution."""
        k = np.arange(self.size, dtype=np.float64)
        return self.offset + self.step * float(np.dot(self.probs, k)) / self.mass

    def variance(self) -> float:
        """Variance of the normalised distribution (two-pass, no cancellation)."""
        k = np.arange(self.size, dtype=np.float64)
        m = float(np.dot(self.probs, k)) / self.mass
        return self.step ** 2 * float(np.dot(self.probs, (k - m) ** 2)) / self.mass

    def sd(self) -> float:
        return math.sqrt(self.variance())

    def _index_le(self, x) -> np.ndarray:
        """Number of lattice points <= x (vectorised)."""
        xa = np.asarray(x, dtype=np.float64)
        k = np.floor((xa - self.offset) / self.step) + 1
        return np.clip(k, 0, self.size).astype(np.int64)

    def cdf(self, x) -> np.ndarray | float:
        """P(result <= x), vectorised over x."""
        c = np.concatenate([[0.0], np.cumsum(self.probs)])
        out = c[self._index_le(x)]
        return float(out) if np.ndim(out) == 0 else out

    def prob_lt(self, x) -> float:
        """P(result < x)."""
        c = np.concatenate([[0.0], np.cumsum(self.probs)])
        xa = float(x)
        k = math.ceil((xa - self.offset) / self.step)
        return float(c[min(max(k, 0), self.size)])

    def prob_gt(self, x) -> float:
        """P(result > x)."""
        c = np.concatenate([[0.0], np.cumsum(self.probs[::-1])])
        k = self.size - int(self._index_le(x))
        return float(c[k])

    def prob_eq(self, x) -> float:
        """P(result == x)."""
        q, r = divmod(int(x) - self.offset, self.step)
        if r or q < 0 or q >= self.size:
            return 0.0
        return float(self.probs[q])

    def quantile(self, q) -> np.ndarray | int:
        """Smallest lattice value v with P(result <= v) >= q (q in [0, 1]), vectorised."""
        qa = np.asarray(q, dtype=np.float64)
        if np.any((qa < 0) | (qa > 1)):
            raise ValueError(f"quantile levels must be in [0, 1], got {q!r}")
        c = np.cumsum(self.probs) / self.mass
        k = np.minimum(np.searchsorted(c, qa, side="left"), self.size - 1)
        out = self.offset + self.step * k.astype(np.int64)
        return int(out) if np.ndim(out) == 0 else out

    def negate(self) -> LatticePMF:
        """Distribution of -result."""
        top = self.offset + self.step * (self.size - 1)
        return LatticePMF(-top, self.step, self.probs[::-1].copy(), self.error, self.resolution)

    def trim(self, tail_eps: float) -> LatticePMF:
        """Drop tail points holding at most ``tail_eps / 2`` of mass on each side.

        The dropped mass is added to ``error``. Zero-mass ends are always dropped.
        """
        p = self.probs
        half = tail_eps / 2.0
        left = int(np.searchsorted(np.cumsum(p), half, side="right"))
        right = int(np.searchsorted(np.cumsum(p[::-1]), half, side="right"))
        if left + right >= p.size:  # keep the heaviest point rather than nothing
            k = int(np.argmax(p))
            left, right = k, p.size - 1 - k
        if left == 0 and right == 0:
            return self
        dropped = math.fsum(p[:left]) + math.fsum(p[p.size - right:])
        return LatticePMF(self.offset + self.step * left, self.step,
                          p[left:p.size - right].copy(), self.error + dropped, self.resolution)

    def coarsen(self, factor: int) -> LatticePMF:
        """Move mass to the nearest multiple of ``step * factor`` (0 stays 0).

        Adds ``step * factor / 2`` to ``resolution``; mass is preserved exactly per point.
        """
        factor = int(factor)
        if factor < 1:
            raise ValueError(f"factor must be >= 1, got {factor}")
        if factor == 1:
            return self
        g = self.step * factor
        v = self.values()
        j = np.floor_divide(v + g // 2, g)
        lo = int(j.min())
        dense = np.bincount(j - lo, weights=self.probs)
        return LatticePMF(lo * g, g, dense, self.error, self.resolution + g / 2.0)

    def with_step(self, step: int) -> LatticePMF:
        """The same distribution on a finer lattice ``step`` that divides ``self.step``."""
        if self.step % step:
            raise ValueError(f"step {step} does not divide {self.step}")
        k = self.step // step
        if k == 1:
            return self
        dense = np.zeros((self.size - 1) * k + 1)
        dense[::k] = self.probs
        return LatticePMF(self.offset, step, dense, self.error, self.resolution)


def as_pmf(dist) -> LatticePMF:
    """A :class:`LatticePMF` from a NetDistribution, a LatticePMF or a ``{value: weight}`` map.

    Integer weights are counts; float weights are normalised to probabilities.
    """
    if isinstance(dist, LatticePMF):
        return dist
    if isinstance(dist, NetDistribution):
        return dist.to_pmf()
    if isinstance(dist, Mapping):
        weights = list(dist.values())
        if all(isinstance(w, (int, np.integer)) and not isinstance(w, bool) for w in weights):
            return NetDistribution.from_mapping(dist).to_pmf()
        w = np.asarray(weights, dtype=np.float64)
        if not np.all(np.isfinite(w)) or np.any(w < 0) or w.sum() <= 0:
            raise ValueError("weights must be finite, >= 0 and not all 0")
        return LatticePMF.from_values(list(dist.keys()), w / w.sum(),
                                      error=(math.log2(w.size) + 2) * _U)
    raise ValueError(f"dist must be a NetDistribution, LatticePMF or {{net: count}} mapping, got "
                     f"{type(dist).__name__}")


def _fast_len(n: int) -> int:
    """Smallest 2**a * 3**b * 5**c >= n (pocketfft is fastest on these)."""
    best = 1 << max(n - 1, 0).bit_length()
    p5 = 1
    while p5 < best:
        p35 = p5
        while p35 < best:
            p = p35
            while p < n:
                p *= 2
            best = min(best, p)
            p35 *= 3
        p5 *= 5
    return best


def _conv_arrays(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, float]:
    """Convolution of two non-negative arrays and a bound on its L1 error."""
    la, lb = a.size, b.size
    sa, sb = float(a.sum()), float(b.sum())
    if min(la, lb) <= _DIRECT_MIN or la * lb <= _DIRECT_MAX_WORK:
        c = np.convolve(a, b)
        # each entry sums at most m non-zero, non-negative products (zeros add exactly), so its
        # relative error is <= m * u; summed over entries that is m * u * |a|_1 * |b|_1
        m = min(int(np.count_nonzero(a)), int(np.count_nonzero(b)))
        return c, 1.01 * m * _U * sa * sb
    n = la + lb - 1
    nfft = _fast_len(n)
    c = np.fft.irfft(np.fft.rfft(a, nfft) * np.fft.rfft(b, nfft), nfft)[:n]
    delta = FFT_SAFETY * _U * math.log2(nfft) * (
        float(np.linalg.norm(a)) * sb + float(np.linalg.norm(b)) * sa
        + float(np.linalg.norm(c)))
    small = c < delta
    zeroed = float(c[small & (c > 0)].sum())
    c[small] = 0.0  # noise floor; negatives would only move further from the (>= 0) truth
    return c, math.sqrt(n) * delta + zeroed


def convolve(a, b, *, tail_eps: float = 0.0, max_points: int | None = None) -> LatticePMF:
    """Distribution of the sum of two independent results.

    a, b: LatticePMF (or NetDistribution). The lattices are merged on gcd(step_a, step_b).
    tail_eps: mass allowed to be trimmed off the tails of the result (added to ``error``).
    max_points: if the result would have more lattice points, both inputs are first coarsened
        (see :meth:`LatticePMF.coarsen`), which adds to ``resolution``.
    Error propagation: err(a*b) <= err(a) + err(b) + err(a) err(b) + rounding + trimmed mass.
    """
    a, b = as_pmf(a), as_pmf(b)
    g = math.gcd(a.step, b.step)
    a, b = a.with_step(g), b.with_step(g)
    if max_points is not None and a.size + b.size - 1 > max_points:
        factor = math.ceil((a.size + b.size - 1) / max(max_points // 2, 1))
        a, b = a.coarsen(factor), b.coarsen(factor)
        g2 = math.gcd(a.step, b.step)
        a, b = a.with_step(g2), b.with_step(g2)
    c, rounding = _conv_arrays(np.asarray(a.probs), np.asarray(b.probs))
    err = a.error + b.error + a.error * b.error + rounding
    out = LatticePMF(a.offset + b.offset, a.step, c, err, a.resolution + b.resolution)
    return out.trim(tail_eps)
