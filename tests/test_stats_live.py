"""Live-table exposure against brute-force enumeration, moment identities and simulation."""

import itertools
import math

import numpy as np
import pytest

from gpusim.stats import (
    LatticePMF,
    NetDistribution,
    exposure_summary,
    independent_round_distribution,
    live_exposure,
    live_round_distribution,
    simulate_operator_days,
)

UNIT = {-1: 5, 0: 1, 1: 3, 4: 1}          # player's net per unit stake, counts of 10
STAKES = {1: 0.5, 2: 0.3, 5: 0.2}         # one seat's stake (money), probabilities
SEATS = 3


def as_dict(pmf: LatticePMF) -> dict[int, float]:
    v, p = pmf.nonzero()
    return dict(zip(v.tolist(), p.tolist(), strict=True))


def l1(a: dict[int, float], b: dict[int, float]) -> float:
    return sum(abs(a.get(k, 0.0) - b.get(k, 0.0)) for k in set(a) | set(b))


def unit_items():
    return [(x, c / 10) for x, c in UNIT.items()]


def test_live_round_against_enumeration():
    expect: dict[int, float] = {}
    for (x, px), *seats in itertools.product(unit_items(), *[STAKES.items()] * SEATS):
        v = -x * sum(s for s, _ in seats)
        expect[v] = expect.get(v, 0.0) + px * math.prod(p for _, p in seats)
    got = live_round_distribution(NetDistribution.from_mapping(UNIT), STAKES, SEATS)
    assert l1(as_dict(got), expect) < 1e-14 and got.resolution == 0


def test_independent_round_against_enumeration():
    seat = [(-x * s, px * ps) for (x, px), (s, ps) in itertools.product(unit_items(),
                                                                         STAKES.items())]
    expect: dict[int, float] = {}
    for combo in itertools.product(seat, repeat=SEATS):
        v = sum(r for r, _ in combo)
        expect[v] = expect.get(v, 0.0) + math.prod(p for _, p in combo)
    got = independent_round_distribution(NetDistribution.from_mapping(UNIT), STAKES, SEATS)
    assert l1(as_dict(got), expect) < 1e-14


def test_moment_identities():
    # X: mean (-5 + 3 + 4)/10 = 0.2, E[X^2] = (5 + 3 + 16)/10 = 2.4, Var 2.36
    # s: mean 0.5 + 0.6 + 1.0 = 2.1, E[s^2] = 0.5 + 1.2 + 5 = 6.7, Var 2.29
    ex, vx, es, es2, vs = 0.2, 2.36, 2.1, 6.7, 2.29
    m = SEATS
    et, vt = m * es, m * vs
    res = live_exposure(NetDistribution.from_mapping(UNIT), STAKES, m, 50, tail_eps=0.0)
    assert res.live_round.mean == pytest.approx(-ex * et, rel=1e-12)
    assert res.live_round.sd ** 2 == pytest.approx((vt + et ** 2) * vx + vt * ex ** 2, rel=1e-12)
    assert res.independent_round.mean == pytest.approx(-ex * et, rel=1e-12)
    assert res.independent_round.sd ** 2 == pytest.approx(m * (es2 * vx + vs * ex ** 2),
                                                         rel=1e-12)
    assert res.live_day.sd == pytest.approx(math.sqrt(50) * res.live_round.sd, rel=1e-10)
    assert res.independent_day.mean == pytest.approx(50 * res.independent_round.mean, rel=1e-10)
    assert res.daily_sd_ratio > 1


def test_exact_daily_risk_against_simulation():
    """20,000 simulated days of 40 live rounds vs the exact daily distribution: P(loss > 60)
    within 4.5 binomial SEs (false failure ~7e-6) and the sample SD within 5.5 relative SEs."""
    unit = NetDistribution.from_mapping(UNIT)
    days, rounds = 20_000, 40
    res = live_exposure(unit, STAKES, SEATS, rounds, loss_thresholds=(60,), tail_eps=0.0)
    for live, summary in ((True, res.live_day), (False, res.independent_day)):
        sim = simulate_operator_days(unit, STAKES, SEATS, rounds, days, seed=2024, live=live)
        p = summary.loss_prob[60]
        assert 0.01 < p < 0.5
        assert abs(np.mean(sim < -60) - p) < 4.5 * math.sqrt(p * (1 - p) / days)
        assert abs(sim.std() / summary.sd - 1) < 5.5 / math.sqrt(2 * days) * 1.5


def test_exposure_summary_hand_worked():
    pmf = LatticePMF.from_values([-100, -10, 0, 20], [0.02, 0.08, 0.3, 0.6])
    s = exposure_summary(pmf, levels=(0.95, 0.99), loss_thresholds=(0, 10, 50))
    # 5 % quantile: CDF(-100) = 0.02, CDF(-10) = 0.10 -> -10: VaR95 = 10; 1 %: -100
    assert s.var == {0.95: 10.0, 0.99: 100.0}
    assert s.loss_prob == {0: pytest.approx(0.1), 10: pytest.approx(0.02),
                           50: pytest.approx(0.02)}


def test_coarsened_lattice_moves_quantiles_by_at_most_resolution():
    unit = NetDistribution.from_mapping(UNIT)
    exact = live_round_distribution(unit, STAKES, 6)
    coarse = live_round_distribution(unit, STAKES, 6, max_points=16)
    assert exact.resolution == 0 and coarse.resolution > 0 and coarse.size <= 16
    q = np.linspace(0.01, 0.99, 50)
    assert np.all(np.abs(coarse.quantile(q) - exact.quantile(q)) <= coarse.resolution)


def test_live_bad_input():
    unit = NetDistribution.from_mapping(UNIT)
    with pytest.raises(ValueError, match="stakes must be > 0, got 0"):
        live_round_distribution(unit, {0: 1, 5: 1}, 2)
    with pytest.raises(ValueError, match="seats must be an integer >= 1, got 0"):
        live_round_distribution(unit, STAKES, 0)
    with pytest.raises(ValueError, match="rounds_per_day must be an integer >= 1"):
        live_exposure(unit, STAKES, 2, 0)
