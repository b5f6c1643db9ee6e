"""Risk of ruin on the integer money lattice.

Definition: a player starts with bankroll b (money units, integer >= 1) and plays rounds with
i.i.d. net results X (the per-round distribution). The player is *ruined* at the first round
after which the bankroll is <= 0. (To call a player ruined when the bankroll drops below the
largest possible loss W of one round, ask for bankroll b - W + 1.)

Finite horizon (N rounds): the ruin probabilities r_t(b) of the absorbing Markov chain satisfy
r_0(b) = 0, r_{t+1}(b) = sum_x P(X = x) r_t(b + x) with r_t(b) = 1 for b <= 0. The backward
recursion gives every starting bankroll 1..U at once. States above U are not tracked: filling
them with 0 gives a lower bound and with r_t(U) an upper bound (r_t is non-increasing in b), so
``low <= exact <= high`` always holds; U grows until ``high - low <= tol``. When U >= N * (max
loss) the fill with 0 is exact.

Unlimited horizon: with E[X] <= 0 (and P(X < 0) > 0) ruin is certain. With E[X] > 0 (an
advantage player, or the house's side of a game), the probability psi(b) solves
(I - Q) psi = P(X <= -b) on 1..U with psi = 0 above U (a banded linear solve): that is the
probability of ruin before passing U, a lower bound. Cramer-Lundberg: with R > 0 the root of
E[exp(-R X)] = 1, exp(-R (b + L - 1)) <= psi(b) <= exp(-R b) (L = largest loss), so
psi <= lower + (1 - lower) exp(-R (U + 1)). U = b_max + ln(1 / tol) / R. The residual of the
solve, times the bound (U + G + L) / E[X] on the expected exit time (Wald), widens the bracket
by the linear algebra's rounding. A small positive mean with a large largest win G makes that
system too big (U ~ ln(1 / tol) / R states, band L + G); the curve is then the Cramer-Lundberg
bracket itself (``method = "lundberg"``), a true bracket of relative width below R (L - 1),
with R certified from both sides (the ends of its bisection, widened until the sign of
E[exp(-R X)] - 1 beats its rounding).

:func:`simulate_ruin` estimates the same probability from seeded bankroll paths, with a Wilson
confidence interval, as an independent cross-check.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from gpusim.stats.distribution import NetDistribution, as_pmf

__all__ = [
    "BankrollForRisk",
    "RuinCurve",
    "SimulatedRuin",
    "bankroll_for_risk",
    "lundberg_coefficient",
    "ruin_curve",
    "ruin_probability",
    "simulate_ruin",
    "wilson_interval",
]

_SPARSE_MAX = 64          # shift-and-add per support point up to this many points, else FFT
_MAX_WORK = 4e10          # element operations allowed for one finite-horizon computation
_MAX_BAND_BYTES = 2 << 30


def _steps(dist) -> tuple[np.ndarray, np.ndarray]:
    """Support points (int64) and probabilities (float64, normalised) of one round."""
    if isinstance(dist, NetDistribution):
        return dist.values.astype(np.int64), dist.probabilities()
    pmf = as_pmf(dist)
    xs, ps = pmf.nonzero()
    return xs.astype(np.int64), ps / ps.sum()


def _check_int(x, name: str, minimum: int) -> int:
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {x!r}")
    return int(x)


@dataclass(frozen=True, eq=False)
class RuinCurve:
    """Ruin probability for starting bankrolls 1..B.

    bankrolls: (B,) int64; low, high: (B,) float64 with low <= exact <= high.
    rounds: the horizon (None = unlimited). truncation: U, highest tracked bankroll (for the
    Lundberg bracket: max_bankroll, nothing is truncated).
    lundberg: R (unlimited horizon with positive drift), else None.
    method: "exact" (high - low <= tol, up to rounding) or "lundberg" (the Cramer-Lundberg
    bounds exp(-R (b + L - 1)) <= psi(b) <= exp(-R b): valid, but wider than tol).
    """

    bankrolls: np.ndarray
    low: np.ndarray
    high: np.ndarray
    rounds: int | None
    truncation: int
    lundberg: float | None = None
    method: str = "exact"

    @property
    def estimate(self) -> np.ndarray:
        """(B,) midpoint of the bracket."""
        return (self.low + self.high) / 2.0

    def at(self, bankroll: int) -> tuple[float, float]:
        """(low, high) for one starting bankroll."""
        b = _check_int(bankroll, "bankroll", 1)
        if b > self.bankrolls.size:
            raise ValueError(f"bankroll {b} is above this curve's maximum {self.bankrolls.size}")
        return float(self.low[b - 1]), float(self.high[b - 1])


def _apply(ext: np.ndarray, xs, ps, off: int, u: int, dense: np.ndarray | None,
           kern: tuple[int, np.ndarray] | None = None) -> np.ndarray:
    """out[..., b-1] = sum_x p(x) ext[..., off + b - 1 + x] for b = 1..u.

    kern: (nfft, rfft of the reversed dense step distribution), reused across rounds."""
    if dense is None:
        out = np.zeros(ext.shape[:-1] + (u,))
        for x, p in zip(xs.tolist(), ps.tolist(), strict=True):
            out += p * ext[..., off + x: off + x + u]
        return out
    # correlation with the dense step distribution over [-L, G] through the FFT
    n = ext.shape[-1]
    k = dense.size
    if kern is None:
        nfft = 1 << (n + k - 1 - 1).bit_length()
        kern = (nfft, np.fft.rfft(dense[::-1], nfft))
    nfft, kf = kern
    c = np.fft.irfft(np.fft.rfft(ext, nfft) * kf, nfft)
    return c[..., k - 1: k - 1 + u]


def _finite(xs, ps, rounds: int, u: int, exact: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) ruin within ``rounds`` for bankrolls 1..u: states above u filled with 0 and
    with r(u). exact: u is at least rounds x (largest loss), where the 0 fill is exact, so only
    that row is computed, and steps of u or more (which land above u from every bankroll, on a
    0) are dropped: a jackpot's huge wins then cost nothing."""
    if exact:
        keep = xs < u
        xs, ps = xs[keep], ps[keep]
    loss = max(0, -int(xs.min()))
    gain = max(0, int(xs.max()))
    rows = 1 if exact else 2
    dense = kern = None
    if xs.size > _SPARSE_MAX:
        dense = np.zeros(loss + gain + 1)
        np.add.at(dense, xs + loss, ps)
        nfft = 1 << (loss + u + gain + dense.size - 2).bit_length()
        kern = (nfft, np.fft.rfft(dense[::-1], nfft))
    ext = np.zeros((rows, loss + u + gain))
    ext[:, :loss] = 1.0
    r = np.zeros((rows, u))
    for _ in range(rounds):
        ext[:, loss:loss + u] = r
        ext[0, loss + u:] = 0.0
        if rows == 2:
            ext[1, loss + u:] = r[1, -1]
        r = _apply(ext, xs, ps, loss, u, dense, kern)
        if dense is not None:
            np.clip(r, 0.0, 1.0, out=r)
    return r[0], r[-1]


def lundberg_coefficient(dist) -> float:
    """R > 0 with E[exp(-R X)] = 1, for a per-round result X with E[X] > 0 and P(X < 0) > 0."""
    return _lundberg_xs(*_steps(dist))


def _lundberg_xs(xs: np.ndarray, ps: np.ndarray) -> float:
    lo, hi = _lundberg_bounds(xs, ps)
    return (lo + hi) / 2


def _lundberg_bounds(xs: np.ndarray, ps: np.ndarray) -> tuple[float, float]:
    """(r_lo, r_hi) with r_lo <= R <= r_hi despite rounding: g(r) = E[exp(-r X)] - 1 is convex
    with g(0) = 0, so g(r) < 0 at r > 0 proves r < R and g(r) > 0 proves r > R."""
    mu = float(np.dot(xs, ps))
    if mu <= 0 or not np.any(xs < 0):
        raise ValueError(f"the Lundberg coefficient needs E[X] > 0 and P(X < 0) > 0, got "
                         f"E[X] = {mu:.6g}")
    xf = xs.astype(np.float64)

    def g(r: float) -> tuple[float, float]:
        # E[exp(-r X)] - 1 without cancellation near r = 0, and a bound on its rounding
        with np.errstate(over="ignore", invalid="ignore"):
            t = ps * np.expm1(-r * xf)
            err = 4 * (xs.size + 2) * np.finfo(float).eps * float(np.abs(t).sum())
            return float(t.sum()), err

    hi = 2 * mu / float(np.dot(ps, xf * xf))
    while g(hi)[0] <= 0:
        hi *= 2
    lo = 0.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid <= lo or mid >= hi:
            break
        if g(mid)[0] > 0:
            hi = mid
        else:
            lo = mid
    step = 1e-12
    for _ in range(60):  # move each end out until its sign is certain
        v, e = g(lo)
        if lo == 0.0 or v < -e:
            break
        lo, step = max(0.0, lo * (1 - step)), step * 4
    step = 1e-12
    for _ in range(60):
        v, e = g(hi)
        if v > e:
            break
        hi, step = hi * (1 + step), step * 4
    else:
        hi = math.inf
    return lo, hi


def _band_bytes(loss: int, gain: int, u: int) -> int:
    """LAPACK's storage of the banded system, with the fill-in band the narrow one."""
    return (2 * min(loss, gain) + max(loss, gain) + 1) * u * 8


def _unlimited_states(r_coef: float, b_max: int, tol: float) -> int:
    return b_max + int(math.ceil(math.log(1.0 / tol) / r_coef)) + 1


def _exp_bound(a, side: int):
    """exp(a) moved outward (side +1 up, -1 down) past the rounding of a = -r b (relative
    eps |a|) and of exp itself."""
    with np.errstate(invalid="ignore"):
        slack = 4 * np.finfo(float).eps * (2 + np.abs(a))
        return np.nan_to_num(np.exp(a) * (1 + side * slack), nan=0.0)


def _lundberg_curve(loss: int, b_max: int, r_lo: float, r_hi: float) -> RuinCurve:
    """The Cramer-Lundberg bracket exp(-R (b + L - 1)) <= psi(b) <= exp(-R b): exp(-R S) is a
    martingale and the bankroll at ruin S_T lies in [1 - L, 0]."""
    bank = np.arange(1, b_max + 1, dtype=np.int64)
    high = np.minimum(1.0, _exp_bound(-r_lo * bank.astype(np.float64), 1))
    low = _exp_bound(-r_hi * (bank + loss - 1).astype(np.float64), -1)
    r_mid = (r_lo + r_hi) / 2 if math.isfinite(r_hi) else r_lo
    return RuinCurve(bank, low, high, None, b_max, r_mid, "lundberg")


def _unlimited(xs, ps, b_max: int, tol: float) -> RuinCurve:
    try:
        from scipy.linalg import solve_banded
    except ImportError as exc:  # pragma: no cover - scipy is a dependency
        raise ImportError("unlimited-horizon ruin needs scipy (pip install scipy)") from exc
    mu = float(np.dot(xs, ps))
    bank = np.arange(1, b_max + 1, dtype=np.int64)
    if not np.any(xs < 0):
        z = np.zeros(b_max)
        return RuinCurve(bank, z, z.copy(), None, b_max)
    if mu <= 0:
        one = np.ones(b_max)
        return RuinCurve(bank, one, one.copy(), None, b_max)
    r_lo, r_hi = _lundberg_bounds(xs, ps)
    r_coef = (r_lo + r_hi) / 2
    loss = -int(xs.min())
    gain = max(0, int(xs.max()))
    u = _unlimited_states(r_coef, b_max, tol)
    if _band_bytes(loss, gain, u) > _MAX_BAND_BYTES:
        return _lundberg_curve(loss, b_max, r_lo, r_hi)
    lo_bw, up_bw = loss, gain
    reverse = loss > gain  # keep LAPACK's fill-in band (2 * lower) the narrow one
    if reverse:
        lo_bw, up_bw = gain, loss
    ab = np.zeros((lo_bw + up_bw + 1, u))
    cols = np.arange(u)
    for x, p in zip(xs.tolist(), ps.tolist(), strict=True):
        # A[i, i + x] = [x == 0] - p(x), stored at ab[up_bw + i - j, j]
        d = -x if reverse else x
        j = cols[(cols - d >= 0) & (cols - d < u)]
        ab[up_bw - d, j] -= p
    ab[up_bw, :] += 1.0
    # right-hand side: P(X <= -b) for b = 1..U
    rhs = np.array([ps[xs <= -b].sum() for b in range(1, min(u, loss) + 1)] +
                   [0.0] * max(0, u - loss))
    if reverse:
        rhs = rhs[::-1]
    psi = solve_banded((lo_bw, up_bw), ab, rhs, check_finite=False)
    if reverse:
        psi = psi[::-1]
    psi = np.clip(psi, 0.0, 1.0)
    # rounding: residual times the largest expected exit time (Wald) bounds the solve's error
    ext = np.concatenate([np.ones(loss), psi, np.zeros(gain)])
    resid = psi - _apply(ext, xs, ps, loss, u, None if xs.size <= _SPARSE_MAX else
                         _dense(xs, ps, loss, gain))
    num = float(np.abs(resid).max()) * (u + gain + loss) / mu
    low = np.clip(psi[:b_max] - num, 0.0, 1.0)
    high = np.clip(psi[:b_max] + (1 - psi[:b_max]) * math.exp(-r_lo * (u + 1)) + num, 0.0, 1.0)
    return RuinCurve(bank, low, high, None, u, r_coef)


def _dense(xs, ps, loss, gain) -> np.ndarray:
    dense = np.zeros(loss + gain + 1)
    np.add.at(dense, xs + loss, ps)
    return dense


def ruin_curve(dist, max_bankroll: int, rounds: int | None = None, *,
               tol: float = 1e-10) -> RuinCurve:
    """Ruin probability for every starting bankroll 1..max_bankroll.

    dist: per-round net result (NetDistribution or LatticePMF, money units).
    rounds: horizon N (ruin at any point within N rounds); None = unlimited horizon.
    tol: target width of the bracket [low, high] (the bracket is always valid).
    """
    b_max = _check_int(max_bankroll, "max_bankroll", 1)
    if not 0 < tol < 1:
        raise ValueError(f"tol must be in (0, 1), got {tol}")
    xs, ps = _steps(dist)
    if rounds is None:
        return _unlimited(xs, ps, b_max, tol)
    n = _check_int(rounds, "rounds", 0)
    bank = np.arange(1, b_max + 1, dtype=np.int64)
    loss = max(0, -int(xs.min()))
    if n == 0 or loss == 0:
        z = np.zeros(b_max)
        return RuinCurve(bank, z, z.copy(), n, b_max)
    exact_u = n * loss  # r_t(b) = 0 for b > t * loss: beyond it the 0 fill is exact
    mu = float(np.dot(xs, ps))
    sd = math.sqrt(float(np.dot(ps, (xs - mu) ** 2)))
    u = b_max + loss + int(math.ceil(n * max(0.0, -mu) + 10 * sd * math.sqrt(n)))
    while True:
        u = max(b_max, min(u, exact_u))
        work = float(n) * (u + xs.max() - xs.min()) * min(xs.size, 4 * math.log2(u + 2))
        if work > _MAX_WORK:
            raise ValueError(f"finite-horizon ruin over {n} rounds needs about {work:.2g} "
                             f"operations (U = {u}); use fewer rounds, rounds=None, or "
                             f"simulate_ruin")
        lo, hi = _finite(xs, ps, n, u, exact=u >= exact_u)
        if u >= exact_u or float(np.max(hi[:b_max] - lo[:b_max])) <= tol:
            return RuinCurve(bank, lo[:b_max].copy(), hi[:b_max].copy(), n, u)
        u *= 2


def ruin_probability(dist, bankroll: int, rounds: int | None = None, *,
                     tol: float = 1e-10) -> tuple[float, float]:
    """(low, high) bracket of the ruin probability from ``bankroll`` (see :func:`ruin_curve`)."""
    b = _check_int(bankroll, "bankroll", 1)
    return ruin_curve(dist, b, rounds, tol=tol).at(b)


@dataclass(frozen=True)
class BankrollForRisk:
    """Smallest bankroll whose ruin probability is at most ``target``.

    bankroll: guaranteed (its upper bracket <= target); ruin_low, ruin_high: its bracket.
    bankroll_optimistic: smallest with lower bracket <= target (equal unless the bracket is
    wider than the gap to the target); the exact answer lies in [bankroll_optimistic, bankroll].
    method: "exact" or "lundberg" (from the Cramer-Lundberg bounds, see :class:`RuinCurve`).
    """

    target: float
    rounds: int | None
    bankroll: int
    bankroll_optimistic: int
    ruin_low: float
    ruin_high: float
    method: str = "exact"


def bankroll_for_risk(dist, target: float, rounds: int | None = None, *,
                      tol: float = 1e-10) -> BankrollForRisk:
    """Bankroll needed so that the probability of ruin is at most ``target`` (e.g. 0.01).

    rounds: horizon N, or None for an unlimited horizon (needs E[X] > 0).
    """
    if not 0 < target < 1:
        raise ValueError(f"target must be in (0, 1), got {target}")
    xs, ps = _steps(dist)
    mu = float(np.dot(xs, ps))
    loss = max(0, -int(xs.min()))
    if rounds is None:
        if loss and mu <= 0:
            raise ValueError("no finite bankroll: with E[net] <= 0 ruin is certain over an "
                             "unlimited horizon; give rounds=N")
        if not loss:
            b_max = 1
        else:
            r_lo, r_hi = _lundberg_bounds(xs, ps)
            if r_lo <= 0:
                raise ValueError("no finite bankroll: the Lundberg coefficient is not resolved")
            b_max = int(math.ceil(math.log(1 / target) / r_lo)) + loss + 1
            u = _unlimited_states((r_lo + r_hi) / 2, b_max, tol)
            if _band_bytes(loss, max(0, int(xs.max())), u) > _MAX_BAND_BYTES:
                return _lundberg_bankroll(target, loss, r_lo, r_hi)
    else:
        n = _check_int(rounds, "rounds", 0)
        sd = math.sqrt(float(np.dot(ps, (xs - mu) ** 2)))
        b_max = max(1, min(n * loss + 1,
                           int(n * max(0.0, -mu) + 3 * sd * math.sqrt(max(n, 1))) + loss + 1))
    while True:
        curve = ruin_curve(dist, b_max, rounds, tol=tol)
        ok = np.flatnonzero(curve.high <= target)
        if ok.size:
            b = int(ok[0]) + 1
            b_opt = int(np.flatnonzero(curve.low <= target)[0]) + 1
            lo, hi = curve.at(b)
            return BankrollForRisk(target, rounds, b, b_opt, lo, hi, curve.method)
        b_max *= 2


def _lundberg_bankroll(target: float, loss: int, r_lo: float, r_hi: float) -> BankrollForRisk:
    """Closed form on the Lundberg bracket (no array: with a tiny R the bankroll can be huge)."""
    def high(b: int) -> float:
        return min(1.0, float(_exp_bound(-r_lo * b, 1)))

    def low(b: int) -> float:
        return float(_exp_bound(-r_hi * (b + loss - 1), -1))

    b = max(1, int(math.ceil(math.log(1 / target) / r_lo)) - 1)
    while high(b) > target:
        b += 1
    while b > 1 and high(b - 1) <= target:
        b -= 1
    b_opt = max(1, int(math.log(1 / target) / r_hi) - loss) if math.isfinite(r_hi) else 1
    while b_opt < b and low(b_opt) > target:
        b_opt += 1
    while b_opt > 1 and low(b_opt - 1) <= target:
        b_opt -= 1
    return BankrollForRisk(target, None, b, b_opt, low(b), high(b), "lundberg")


def wilson_interval(successes: int, trials: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion."""
    if trials <= 0:
        raise ValueError(f"trials must be > 0, got {trials}")
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be in [0, {trials}], got {successes}")
    z = NormalDist().inv_cdf(0.5 + level / 2)
    p = successes / trials
    den = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / den
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / den
    # the exact ends: no successes cannot exclude 0, all successes cannot exclude 1
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == trials else min(1.0, centre + half)
    return lo, hi


@dataclass(frozen=True)
class SimulatedRuin:
    """Monte Carlo ruin estimate: ``ruined`` of ``paths`` paths, with a Wilson interval."""

    paths: int
    ruined: int
    estimate: float
    low: float
    high: float
    level: float


def simulate_ruin(dist, bankroll: int, rounds: int, *, paths: int, seed: int,
                  level: float = 0.95) -> SimulatedRuin:
    """Simulate ``paths`` bankroll paths of ``rounds`` rounds and count the ruined ones.

    dist: NetDistribution (sampled exactly from its integer counts) or LatticePMF.
    Randomness: numpy.random.Generator(PCG64(seed)); same seed, same answer.
    """
    b = _check_int(bankroll, "bankroll", 1)
    n = _check_int(rounds, "rounds", 0)
    m = _check_int(paths, "paths", 1)
    rng = np.random.Generator(np.random.PCG64(seed))
    if isinstance(dist, NetDistribution):
        xs = dist.values
        cum = np.cumsum(dist.counts)

        def draw(k):
            return xs[np.searchsorted(cum, rng.integers(0, cum[-1], size=k), side="right")]
    else:
        xs, ps = _steps(dist)
        cum_f = np.cumsum(ps)
        cum_f /= cum_f[-1]

        def draw(k):
            idx = np.searchsorted(cum_f, rng.random(k), side="right")
            return xs[np.minimum(idx, xs.size - 1)]
    bank = np.full(m, b, dtype=np.int64)
    alive = np.ones(m, dtype=bool)
    for _ in range(n):
        idx = np.flatnonzero(alive)
        if idx.size == 0:
            break
        bank[idx] += draw(idx.size)
        alive[idx[bank[idx] <= 0]] = False
    ruined = int(m - alive.sum())
    lo, hi = wilson_interval(ruined, m, level)
    return SimulatedRuin(m, ruined, ruined / m, lo, hi, level)
