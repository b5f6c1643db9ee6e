"""Risk of ruin against closed forms, brute-force path enumeration and simulated paths."""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from gpusim.stats import (
    LatticePMF,
    NetDistribution,
    bankroll_for_risk,
    lundberg_coefficient,
    ruin_curve,
    ruin_probability,
    simulate_ruin,
    wilson_interval,
)


def brute_force_ruin(steps: dict[int, Fraction], bankroll: int, rounds: int) -> Fraction:
    """P(bankroll + partial sum <= 0 at some round <= N), by enumerating every path."""
    total = Fraction(0)
    items = list(steps.items())
    for path in itertools.product(items, repeat=rounds):
        b, p, ruined = bankroll, Fraction(1), False
        for x, px in path:
            p *= px
            b += x
            ruined = ruined or b <= 0
        if ruined:
            total += p
    return total


def hitting_time_ruin(steps: dict[int, Fraction], bankroll: int, rounds: int) -> Fraction:
    """Kemperman's hitting-time theorem for walks with steps >= -1:
    P(first hit of -B at time n) = (B / n) P(S_n = -B)."""
    assert min(steps) >= -1
    dist = {0: Fraction(1)}
    total = Fraction(0)
    for n in range(1, rounds + 1):
        nxt: dict[int, Fraction] = {}
        for s, p in dist.items():
            for x, px in steps.items():
                nxt[s + x] = nxt.get(s + x, Fraction(0)) + p * px
        dist = nxt
        total += Fraction(bankroll, n) * dist.get(-bankroll, Fraction(0))
    return total


def dist_of(steps: dict[int, int]) -> NetDistribution:
    return NetDistribution.from_mapping(steps)


PM1 = {-1: 11, 1: 9}                        # p(win) = 0.45
LAZY = {-1: 10, 0: 2, 1: 5, 2: 3}           # skip-free downward, drift +0.1
JUMPY = {-3: 2, -1: 3, 0: 1, 2: 3, 5: 1}    # several-unit losses: overshoot below 0


def fractions_of(steps: dict[int, int]) -> dict[int, Fraction]:
    t = sum(steps.values())
    return {x: Fraction(c, t) for x, c in steps.items()}


@pytest.mark.parametrize("steps", [PM1, JUMPY])
def test_finite_horizon_matches_path_enumeration(steps):
    n = 6 if len(steps) > 2 else 12
    curve = ruin_curve(dist_of(steps), 6, n)
    for b in range(1, 7):
        exact = float(brute_force_ruin(fractions_of(steps), b, n))
        lo, hi = curve.at(b)
        assert lo - 1e-13 <= exact <= hi + 1e-13
        assert abs(curve.estimate[b - 1] - exact) < 1e-12


@pytest.mark.parametrize("steps", [PM1, LAZY])
def test_finite_horizon_matches_hitting_time_theorem(steps):
    n = 80
    curve = ruin_curve(dist_of(steps), 12, n)
    for b in (1, 2, 5, 12):
        exact = float(hitting_time_ruin(fractions_of(steps), b, n))
        lo, hi = curve.at(b)
        assert lo - 1e-12 <= exact <= hi + 1e-12, (b, lo, exact, hi)


def test_symmetric_walk_reflection_principle():
    # p = q = 1/2: P(min_{k<=N} S_k <= -B) = 2 P(S_N <= -B) - P(S_N = -B)
    n, b = 60, 7
    def p_eq(k):  # P(S_N = k)
        if (n + k) % 2:
            return Fraction(0)
        return Fraction(math.comb(n, (n + k) // 2), 2 ** n)
    le = sum(p_eq(k) for k in range(-n, -b + 1))
    exact = float(2 * le - p_eq(-b))
    lo, hi = ruin_probability(dist_of({-1: 1, 1: 1}), b, n)
    assert lo - 1e-13 <= exact <= hi + 1e-13


def test_unlimited_horizon_plus_minus_one_closed_form():
    # p > q: psi(B) = (q/p)^B; the player here wins 11 of 20
    d = dist_of({-1: 9, 1: 11})
    curve = ruin_curve(d, 40, None)
    for b in (1, 2, 10, 40):
        exact = (9 / 11) ** b
        lo, hi = curve.at(b)
        assert lo - 1e-12 <= exact <= hi + 1e-12
        assert abs(curve.estimate[b - 1] - exact) < 1e-10
    # a push outcome does not change the closed form
    lazy = ruin_curve(dist_of({-1: 9, 0: 7, 1: 11}), 10, None)
    assert abs(lazy.estimate[9] - (9 / 11) ** 10) < 1e-10


def test_unlimited_horizon_skip_free_root():
    # steps -1 (0.5), 0 (0.2), +2 (0.3): psi(b) = rho^b, rho the root in (0, 1) of
    # 0.3 r^3 - 0.8 r + 0.5 = 0, i.e. 0.3 r^2 + 0.3 r - 0.5 = 0
    rho = (-0.3 + math.sqrt(0.09 + 0.6)) / 0.6
    d = dist_of({-1: 5, 0: 2, 2: 3})
    curve = ruin_curve(d, 30, None)
    for b in (1, 3, 30):
        assert abs(curve.estimate[b - 1] - rho ** b) < 1e-10
    assert abs(math.exp(-lundberg_coefficient(d)) - rho) < 1e-12


def test_unlimited_horizon_within_lundberg_bounds_and_finite_limit():
    d = dist_of({-3: 2, -1: 3, 0: 1, 2: 3, 5: 2})  # drift > 0, losses up to 3
    r = lundberg_coefficient(d)
    curve = ruin_curve(d, 20, None)
    for b in range(1, 21):
        lo, hi = curve.at(b)
        assert math.exp(-r * (b + 2)) - 1e-12 <= lo <= hi <= math.exp(-r * b) + 1e-12
    # finite-horizon ruin increases to the unlimited one
    long = ruin_curve(d, 20, 3000)
    assert np.all(long.high <= curve.high + 1e-12)
    assert np.max(curve.low - long.high) < 1e-9


def test_negative_or_zero_drift_is_certain_ruin():
    assert ruin_probability(dist_of({-1: 11, 1: 9}), 50) == (1.0, 1.0)
    assert ruin_probability(dist_of({-1: 1, 1: 1}), 5) == (1.0, 1.0)
    assert ruin_probability(dist_of({0: 3, 2: 1}), 5) == (0.0, 0.0)
    with pytest.raises(ValueError, match="ruin is certain"):
        bankroll_for_risk(dist_of({-1: 11, 1: 9}), 0.01)


def test_bankroll_for_risk_closed_form():
    # psi(B) = (9/11)^B <= 1 %  <=>  B >= ln(0.01) / ln(9/11) = 22.95
    res = bankroll_for_risk(dist_of({-1: 9, 1: 11}), 0.01)
    assert res.bankroll == math.ceil(math.log(0.01) / math.log(9 / 11))
    assert res.ruin_high <= 0.01 < (9 / 11) ** (res.bankroll - 1)
    # finite horizon: the found bankroll's ruin is <= target and one less is above it
    res = bankroll_for_risk(dist_of({-2: 6, 1: 4, 3: 1}), 0.05, rounds=40)
    lo, hi = ruin_probability(dist_of({-2: 6, 1: 4, 3: 1}), res.bankroll - 1, 40)
    assert res.ruin_high <= 0.05 < lo


def test_exact_ruin_agrees_with_simulated_paths():
    # toy game with a negative edge and multi-unit outcomes; 20 000 paths
    d = dist_of({-2: 15, -1: 40, 0: 10, 1: 25, 3: 9, 10: 1})
    exact_lo, exact_hi = ruin_probability(d, 12, 150)
    sim = simulate_ruin(d, 12, 150, paths=20_000, seed=20240611, level=0.9999)
    # Wilson 99.99 % interval: false failure rate 1e-4 per run (fixed seed: deterministic)
    assert sim.low <= (exact_lo + exact_hi) / 2 <= sim.high
    se = math.sqrt(exact_hi * (1 - exact_hi) / sim.paths)
    assert abs(sim.estimate - exact_hi) < 4.5 * se
    # the same seed gives the same answer
    assert simulate_ruin(d, 12, 150, paths=2_000, seed=7) == \
        simulate_ruin(d, 12, 150, paths=2_000, seed=7)


def test_lattice_pmf_input_and_wide_support_fft_path():
    # more than 64 support points switches the recursion to the FFT; compare with sparse path
    rng = np.random.default_rng(5)
    xs = np.arange(-40, 60)
    ps = rng.random(xs.size)
    ps /= ps.sum()
    pmf = LatticePMF.from_values(xs, ps)
    wide = ruin_curve(pmf, 50, 30)
    from gpusim.stats import ruin as ruin_mod
    old = ruin_mod._SPARSE_MAX
    try:
        ruin_mod._SPARSE_MAX = 10_000
        sparse = ruin_curve(pmf, 50, 30)
    finally:
        ruin_mod._SPARSE_MAX = old
    assert np.max(np.abs(wide.estimate - sparse.estimate)) < 1e-12


def test_wilson_interval_known_values():
    # Wilson 95 % for 0/10: [0, 0.2775]; for 5/10: [0.2366, 0.7634] (textbook values)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0 and abs(hi - 0.2775) < 1e-4
    lo, hi = wilson_interval(5, 10)
    assert abs(lo - 0.2366) < 1e-4 and abs(hi - 0.7634) < 1e-4


@pytest.mark.parametrize("kwargs, msg", [
    ({"bankroll": 0}, "bankroll must be an integer >= 1, got 0"),
    ({"bankroll": -5}, "bankroll must be an integer >= 1, got -5"),
    ({"rounds": -1}, "rounds must be an integer >= 0"),
])
def test_ruin_bad_input(kwargs, msg):
    args = {"bankroll": 3, "rounds": 5} | kwargs
    with pytest.raises(ValueError, match=msg):
        ruin_probability(dist_of(PM1), args["bankroll"], args["rounds"])


def test_truncated_bracket_contains_exact_value():
    # track only bankrolls 1..3 (U = 3): the 0-fill and r(U)-fill must still bracket the truth
    from gpusim.stats import ruin as ruin_mod
    steps = {-1: 9, 1: 11}
    d = dist_of(steps)
    for n in (5, 12):
        lo, hi = ruin_mod._finite(d.values, d.probabilities(), n, 3)
        for b in (1, 2, 3):
            exact = float(brute_force_ruin(fractions_of(steps), b, n))
            assert lo[b - 1] - 1e-15 <= exact <= hi[b - 1] + 1e-15
        if n == 12:
            assert hi[2] - lo[2] > 1e-4  # the bracket is genuinely open at this U
