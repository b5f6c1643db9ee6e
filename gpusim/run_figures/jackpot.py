"""The progressive jackpot of a run: hit frequency, the meter at a hit, the break-even meter,
and the RTP by meter and by contribution rate."""

from __future__ import annotations

from fractions import Fraction

from gpusim.games import spec_for
from gpusim.run_figures.data import RunData, json_float
from gpusim.run_figures.returns import side_bet_exact
from gpusim.stats import (
    break_even_meter,
    contribution_for_rtp,
    expected_meter_at_hit,
    hit_frequency,
    jackpot_rtp,
    long_run_rtp,
    meter_at_hit_quantiles,
    meter_summary,
)

__all__ = ["jackpot_figures"]


def jackpot_figures(data: RunData, meters_for_rtp=None, rates=None,
                    confidence: float | None = None) -> dict | None:
    """Hit frequency, meter at a hit, break-even meter, RTP by meter and by contribution rate.

    None when the config has no Jackpot, or when the meter's bet has no exact event
    probabilities at once (:func:`side_bet_exact`: a described game's own meter). The exact hit
    probability and fixed-prize return come from the published hand-category counts; the
    simulated ones from the run. The simulated hit
    frequency's Wilson interval is at ``confidence`` (default: the level of ``data.summary``),
    given as its ``level``.
    """
    level = data.confidence if confidence is None else confidence
    spec = spec_for(data.rules)
    if not spec.meter_active(data.rules):
        return None
    bet = spec.meter_bet
    jr = spec.meter_rules(data.rules)
    stake = int(data.stakes[bet])
    placed = data.wagers.get(bet, {}).get("placed", 0)
    ev = data.events.get(bet, {})
    hits = int(len(data.meters))
    exact = side_bet_exact(data.rules)
    if bet not in exact:  # no closed form for its events (a described game's own meter bet)
        return None
    exact_p = exact[bet]
    p_hit = exact_p[spec.meter_event]
    prizes = jr.prizes.as_dict()
    fixed_exact = sum((exact_p[k] * v for k, v in prizes.items()), Fraction(0))
    fixed_sim = (Fraction(sum(ev.get(k, 0) * v for k, v in prizes.items()), placed)
                 if placed else None)
    rate = jr.contribution_rate
    reset = jr.reset
    be = break_even_meter(fixed_exact, p_hit, stake)
    if meters_for_rtp is None:
        meters_for_rtp = sorted({0, reset, int(be // 2), int(be), int(be * 3 // 2),
                                 int(expected_meter_at_hit(p_hit, rate, reset, stake))})
    if rates is None:
        rates = [Fraction(k, 100) for k in range(0, 75, 5)]
    out = {
        "stake": stake, "contribution_rate": float(rate), "reset": reset, "cards": jr.cards,
        "wagers": placed, "hits": hits,
        "hit_frequency": None, "p_hit_exact": float(p_hit), "one_in_exact": float(1 / p_hit),
        "fixed_prize_rtp_exact": float(fixed_exact),
        "fixed_prize_rtp_sim": json_float(fixed_sim),
        "break_even_meter": float(be),
        "long_run_rtp": float(long_run_rtp(fixed_exact, p_hit, rate, reset, stake)),
        "expected_meter_at_hit": float(expected_meter_at_hit(p_hit, rate, reset, stake)),
        "meter_at_hit_quantiles_model": {str(k): v for k, v in meter_at_hit_quantiles(
            p_hit, rate, reset, stake).items()},
        "meter_at_hit": None,
        "meters": [int(m) for m in data.meters[:10_000]],
        "realised_rtp": data.summary["bets"].get(bet, {}).get("rtp"),
        "rtp_by_meter": [{"meter": int(m), "rtp": float(jackpot_rtp(fixed_exact, p_hit, m, stake))}
                         for m in meters_for_rtp],
        "long_run_rtp_by_contribution": [
            {"contribution_rate": float(r),
             "long_run_rtp": float(long_run_rtp(fixed_exact, p_hit, r, reset, stake))}
            for r in rates],
        "contribution_for_100pct": float(contribution_for_rtp(1, fixed_exact, p_hit, reset,
                                                              stake)),
    }
    if placed:
        h = hit_frequency(hits, placed, level)
        out["hit_frequency"] = {"rate": h.rate, "one_in": json_float(h.one_in), "low": h.low,
                                "high": h.high, "level": level}
    if hits:
        m = meter_summary(data.meters)
        out["meter_at_hit"] = {"hits": m.hits, "mean": m.mean, "sd": m.sd, "min": m.minimum,
                               "max": m.maximum,
                               "percentiles": {str(k): v for k, v in m.percentiles.items()}}
    return out
