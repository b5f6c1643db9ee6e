"""Progressive jackpot figures: hand-worked from 5-card counts and a simulated meter process."""

import math
from fractions import Fraction

import numpy as np
import pytest

from gpusim.stats import (
    break_even_meter,
    contribution_for_rtp,
    expected_meter_at_hit,
    hit_frequency,
    jackpot_rtp,
    long_run_rtp,
    meter_at_hit_quantiles,
    meter_summary,
    paytable_rtp,
)

# Published 5-card hand counts over C(52, 5) = 2,598,960 (the default jackpot cards are the
# player's two hole cards plus the flop: five cards).
FIVE_CARD = {"royal": 4, "straight flush": 36, "quads": 624, "full house": 3744,
             "flush": 5108, "straight": 10200, "trips": 54912}
FIVE_CARD["other"] = 2598960 - sum(FIVE_CARD.values())
# the Icelandic rules' fixed prizes, "X for 1" (the prize replaces the stake): net = X - 1.
PRIZES = {"straight flush": 2500, "quads": 250, "full house": 50, "flush": 25, "straight": 10,
          "trips": 3}
# hand-worked: (36*2500 + 624*250 + 3744*50 + 5108*25 + 10200*10 + 54912*3) / 2598960
FIXED_RTP = Fraction(827636, 2598960)
P_ROYAL = Fraction(4, 2598960)


def test_fixed_prize_return_from_counts():
    pays = {e: PRIZES.get(e, 0) - 1 for e in FIVE_CARD}   # royal's meter left out here
    assert paytable_rtp(FIVE_CARD, pays) == FIXED_RTP


def test_rtp_at_meter_and_break_even():
    # a meter of 324,870 stakes adds 4 * 324870 / 2598960 = 1/2: RTP 81.84 % as published
    r = jackpot_rtp(FIXED_RTP, P_ROYAL, 324870)
    assert r == FIXED_RTP + Fraction(1, 2)
    assert round(float(r) * 100, 2) == 81.84
    # break-even: (1 - 827636/2598960) * 2598960 / 4 = 1771324 / 4
    assert break_even_meter(FIXED_RTP, P_ROYAL) == 442831
    assert jackpot_rtp(FIXED_RTP, P_ROYAL, 442831) == 1
    # stake 5 (meter in the same money): break-even meter scales with the stake
    assert break_even_meter(FIXED_RTP, P_ROYAL, stake=5) == 5 * 442831
    arr = jackpot_rtp(FIXED_RTP, P_ROYAL, np.array([0, 324870, 442831]))
    assert arr == pytest.approx([float(FIXED_RTP), float(FIXED_RTP) + 0.5, 1.0], rel=1e-15)


def test_long_run_rtp_and_contribution():
    # fixed 0.3 + contribution 0.2 + seed 100 * p 1/500 = 0.7
    assert long_run_rtp(0.3, Fraction(1, 500), 0.2, 100) == Fraction(7, 10)
    assert contribution_for_rtp(0.7, 0.3, Fraction(1, 500), 100) == Fraction(1, 5)
    assert expected_meter_at_hit(Fraction(1, 500), 0.2, 100) == 200
    assert expected_meter_at_hit(Fraction(1, 500), 0.2, 100,
                                 hitting_wager_contributes=False) == Fraction(1998, 10)


def test_meter_process_simulation_matches_formulas():
    """Renewal simulation: 20,000 hit cycles, K ~ Geometric(1/500) wagers per cycle, meter
    seed 100 + 0.2 per wager. Jackpot payout per wager should be c + p * seed = 0.4 with SE
    seed * p / sqrt(H) ~ 0.0014 (tolerance 5 SE: false failure ~6e-7)."""
    p, c, seed_meter, hits = 1 / 500, 0.2, 100, 20_000
    rng = np.random.Generator(np.random.PCG64(31337))
    k = rng.geometric(p, size=hits)
    meter = seed_meter + c * k
    paid_per_wager = meter.sum() / k.sum()
    target = float(long_run_rtp(0, Fraction(1, 500), 0.2, 100))
    assert abs(paid_per_wager - target) < 5 * seed_meter * p / math.sqrt(hits)
    summary = meter_summary(meter)
    assert summary.hits == hits
    assert abs(summary.mean - 200) < 5 * c * math.sqrt((1 - p) / p ** 2) / math.sqrt(hits)
    q = meter_at_hit_quantiles(Fraction(1, 500), 0.2, 100, levels=(0.5, 0.9))
    # geometric quantiles: ceil(log(1 - q) / log(1 - 1/500)) = 347 and 1151
    assert q == {0.5: pytest.approx(100 + 0.2 * 347), 0.9: pytest.approx(100 + 0.2 * 1151)}
    assert abs(summary.percentiles[50] - q[0.5]) < 4.0
    assert abs(summary.percentiles[90] - q[0.9]) < 12.0


def test_meter_summary_hand_worked():
    s = meter_summary([500, 100, 300, 200, 400], percentiles=(20, 50, 90, 100))
    assert (s.hits, s.mean, s.minimum, s.maximum) == (5, 300, 100, 500)
    assert s.percentiles == {20: 100, 50: 300, 90: 500, 100: 500}
    assert s.sd == pytest.approx(math.sqrt(20000))
    with pytest.raises(ValueError, match="no hits recorded"):
        meter_summary([])


def test_hit_frequency():
    h = hit_frequency(4, 2598960)
    assert h.one_in == 649740 and h.low < h.rate < h.high
    with pytest.raises(ValueError, match="hits must be an integer in"):
        hit_frequency(5, 4)
    with pytest.raises(ValueError, match="p_hit must be in"):
        break_even_meter(0.3, 0)
