"""Outcome distributions, convolution and session distributions against brute force."""

import itertools
import math
from fractions import Fraction

import numpy as np
import polars as pl
import pytest

from gpusim.stats import (
    LatticePMF,
    NetDistribution,
    convolve,
    distributions_from_rows,
    event_counts_from_rows,
    session_distribution,
    session_summary,
)
from gpusim.stats import distribution as dist_mod


def brute_sum(steps: dict[int, int], n: int) -> dict[int, Fraction]:
    """Distribution of the sum of n rounds by enumerating all outcome sequences."""
    t = sum(steps.values())
    out: dict[int, Fraction] = {}
    for seq in itertools.product(steps.items(), repeat=n):
        s = sum(x for x, _ in seq)
        out[s] = out.get(s, Fraction(0)) + math.prod(Fraction(c, t) for _, c in seq)
    return out


def l1_to(pmf: LatticePMF, exact: dict[int, Fraction]) -> float:
    got = dict(zip(pmf.values().tolist(), pmf.probs.tolist(), strict=True))
    keys = set(got) | set(exact)
    return sum(abs(got.get(k, 0.0) - float(exact.get(k, 0))) for k in keys)


def test_net_distribution_exact_moments():
    # hand-worked: values -1 (3), 0 (1), 2 (1): mean = -1/5, E[X^2] = 7/5, var = 7/5 - 1/25
    d = NetDistribution.from_counts([2, -1, 0, -1], [1, 2, 1, 1])
    assert d.values.tolist() == [-1, 0, 2] and d.counts.tolist() == [3, 1, 1]
    assert d.rounds == 5 and d.total == -1 and d.sum_squares == 7
    assert d.mean == Fraction(-1, 5)
    assert d.variance == Fraction(34, 25)
    assert d.negate().values.tolist() == [-2, 0, 1]


def test_net_distribution_big_counts_stay_exact():
    # 2**62 rounds at +3 and 2**62 at -3: sums overflow int64 but must stay exact
    d = NetDistribution([-3, 3], [2 ** 62, 2 ** 62])
    assert d.rounds == 2 ** 63 and d.total == 0 and d.sum_squares == 9 * 2 ** 63
    assert d.variance == 9


@pytest.mark.parametrize("values, counts, msg", [
    ([1, 1], [1, 1], "strictly increasing"),
    ([1, 2], [1, 0], "counts must be > 0, got 0"),
    ([1.5, 2], [1, 1], "values must hold integers"),
    ([], [], "at least one outcome"),
])
def test_net_distribution_bad_input(values, counts, msg):
    with pytest.raises(ValueError, match=msg):
        NetDistribution(values, counts)


def test_rows_from_polars_and_dict():
    rows = pl.DataFrame({
        "chunk": [0, 0, 0, 1, 1, 1],
        "bet": ["ante", "ante", "bonus", "ante", "bonus", "bonus"],
        "net": [-1, 1, -1, 1, -1, 30],
        "count": [5, 3, 9, 2, 1, 1],
    })
    dists = distributions_from_rows(rows)
    assert list(dists) == ["ante", "bonus"]
    assert dists["ante"].values.tolist() == [-1, 1] and dists["ante"].counts.tolist() == [5, 5]
    assert dists["bonus"].counts.tolist() == [10, 1]
    same = distributions_from_rows(rows.to_dict(as_series=False))
    assert same["bonus"].total == dists["bonus"].total == 20
    ev = pl.DataFrame({"chunk": [0, 1, 1], "bet": ["bonus"] * 3,
                       "event": ["AA", "AA", "lose"], "count": [2, 3, 40]})
    assert event_counts_from_rows(ev, "bonus") == {"AA": 5, "lose": 40}
    with pytest.raises(ValueError, match="bet 'ante' has no event rows"):
        event_counts_from_rows(ev, "ante")
    with pytest.raises(ValueError, match="no column 'net'"):
        distributions_from_rows({"bet": ["a"], "count": [1]})


def test_convolve_against_brute_force_with_different_steps():
    a = LatticePMF.from_values([-4, 2, 8], [0.5, 0.25, 0.25])   # step 6
    b = LatticePMF.from_values([-3, 1, 5], [0.2, 0.3, 0.5])     # step 4
    c = convolve(a, b)
    expect: dict[int, Fraction] = {}
    for (x, px), (y, py) in itertools.product([(-4, Fraction(1, 2)), (2, Fraction(1, 4)),
                                                (8, Fraction(1, 4))],
                                               [(-3, Fraction(1, 5)), (1, Fraction(3, 10)),
                                                (5, Fraction(1, 2))]):
        expect[x + y] = expect.get(x + y, Fraction(0)) + px * py
    assert c.step == 2 and c.offset == -7
    assert l1_to(c, expect) <= c.error + 1e-15 and l1_to(c, expect) < 1e-15


def test_fft_path_matches_direct_within_its_error_bound():
    rng = np.random.default_rng(3)
    a = rng.random(3000) ** 4
    b = rng.random(7000) ** 4
    a[rng.random(a.size) < 0.5] = 0
    a[0] = a[-1] = 0.5
    a /= a.sum()
    b /= b.sum()
    pa = LatticePMF(-100, 1, a)
    pb = LatticePMF(17, 1, b)
    c = convolve(pa, pb)             # 3000 * 7000 > direct limit: FFT path
    direct = np.convolve(a, b)
    assert c.offset == -83 and c.size == direct.size
    assert c.error > 0
    assert np.abs(c.probs - direct).sum() <= c.error
    assert np.abs(c.probs - direct).max() < 1e-15


@pytest.mark.parametrize("steps, n", [
    ({-1: 3, 1: 2}, 11),                 # +-1 game, odd N (binary 1011)
    ({-2: 5, 0: 1, 4: 2}, 7),            # step 2 lattice, negative offset
    ({-5: 4, -1: 3, 1: 2, 30: 1}, 6),    # lumpy, like a side bet with a big line
])
def test_session_distribution_against_brute_force(steps, n):
    s = session_distribution(NetDistribution.from_mapping(steps), n, tail_eps=0.0)
    exact = brute_sum(steps, n)
    err = l1_to(s, exact)
    assert err <= s.error + 1e-16
    assert err < 1e-13


def test_session_distribution_large_n_keeps_moments_and_bounds_error():
    d = NetDistribution.from_mapping({-5: 300, -3: 100, -1: 400, 0: 50, 1: 200, 3: 80, 5: 60,
                                      31: 3, 1001: 1})
    n = 5000
    s = session_distribution(d, n)
    assert s.error < 1e-8
    assert abs(s.mass - 1) <= s.error
    # mean and SD of a sum are N * mean and sqrt(N) * SD (trimming moves them only slightly)
    assert abs(s.mean() - n * float(d.mean)) < 1e-6 * math.sqrt(n) * d.sd
    assert abs(s.sd() / (math.sqrt(n) * d.sd) - 1) < 1e-6
    # reference by repeated direct convolution, same lattice
    p = d.to_pmf().probs
    ref = np.array([1.0])
    for _ in range(64):
        ref = np.convolve(ref, p)
    s64 = session_distribution(d, 64)
    lo = s64.offset - 64 * int(d.values[0])
    got = np.zeros_like(ref)
    got[lo:lo + s64.size] = s64.probs
    assert np.abs(got - ref).sum() <= s64.error + 1e-15


def test_session_zero_and_one_round():
    d = NetDistribution.from_mapping({-1: 1, 2: 1})
    z = session_distribution(d, 0)
    assert z.values().tolist() == [0] and z.probs.tolist() == [1.0]
    one = session_distribution(d, 1)
    assert one.prob_eq(-1) == 0.5 and one.prob_eq(2) == 0.5
    with pytest.raises(ValueError, match="rounds must be an integer >= 0, got -3"):
        session_distribution(d, -3)


def test_session_summary_plus_minus_one_binomial():
    # +-1 fair coin, N = 4: S in {-4,-2,0,2,4} w.p. (1,4,6,4,1)/16
    d = NetDistribution.from_mapping({-1: 1, 1: 1})
    s = session_summary(d, 4, percentiles=(5, 25, 50, 70, 99))
    assert s.p_ahead == pytest.approx(5 / 16, abs=1e-15)
    assert s.p_even == pytest.approx(6 / 16, abs=1e-15)
    assert s.p_behind == pytest.approx(5 / 16, abs=1e-15)
    assert s.mean == 0 and s.sd == 2
    # CDF: -4: 1/16, -2: 5/16, 0: 11/16, 2: 15/16, 4: 1
    assert s.percentiles == {5: -4, 25: -2, 50: 0, 70: 2, 99: 4}


def test_lattice_pmf_queries_and_coarsen():
    p = LatticePMF.from_values([-6, -3, 0, 3, 9], [0.1, 0.2, 0.3, 0.3, 0.1])
    assert p.step == 3 and p.size == 6
    assert p.cdf(-1) == pytest.approx(0.3) and p.prob_lt(0) == pytest.approx(0.3)
    assert p.prob_gt(0) == pytest.approx(0.4) and p.prob_eq(0) == 0.3 and p.prob_eq(1) == 0
    assert p.quantile(0.3) == -3 and p.quantile(0.31) == 0 and p.quantile(1.0) == 9
    c = p.coarsen(2)  # multiples of 6: -6->-6, -3->0, 0->0, 3->6, 9->12
    assert c.step == 6 and c.resolution == 3
    assert dict(zip(c.nonzero()[0].tolist(), c.nonzero()[1].round(12).tolist(),
                    strict=True)) == {-6: 0.1, 0: 0.5, 6: 0.3, 12: 0.1}
    t = LatticePMF(0, 1, np.array([1e-18, 0.5, 0.5, 2e-18])).trim(1e-16)
    assert t.offset == 1 and t.size == 2 and t.error == pytest.approx(3e-18)


def test_fast_len():
    assert [dist_mod._fast_len(n) for n in (1, 7, 11, 97, 1000, 1025)] == \
        [1, 8, 12, 100, 1000, 1080]
