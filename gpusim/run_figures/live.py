"""Live-table exposure of a run: the operator's result per round and per day with M seats on
one dealt round, against M independent rounds."""

from __future__ import annotations

from fractions import Fraction

from gpusim.run_figures.data import AnalysisError, RunData, bet_distribution
from gpusim.stats import live_exposure

__all__ = ["live_figures", "parse_stake_dist"]


def parse_stake_dist(text: str | None) -> dict[int, Fraction]:
    """``"1:50,5:30,25:20"`` (stake in antes : weight) -> {stake: weight}; None -> {1: 1}."""
    if text is None or not text.strip():
        return {1: Fraction(1)}
    out: dict[int, Fraction] = {}
    for part in text.split(","):
        s, colon, w = part.partition(":")
        try:
            stake = int(s.strip())
            weight = Fraction(w.strip()) if colon else Fraction(1)
        except (ValueError, ZeroDivisionError):
            stake, weight = 0, Fraction(-1)
        if stake < 1 or weight <= 0:
            raise AnalysisError(f"--stake-dist: got {part.strip()!r}; expected STAKE:WEIGHT "
                                "pairs like 1:50,5:30,25:20 (whole stakes >= 1, weights > 0)")
        out[stake] = out.get(stake, Fraction(0)) + weight
    return out


def live_figures(data: RunData, seats: int, rounds_per_day: int, stakes: dict | None = None, *,
                 bet: str = "total", levels=(0.95, 0.99)) -> dict:
    """Operator's result per round and per day: M seats on one dealt round vs independent rounds.

    stakes: {stake multiple of the run's stake: weight}; the run's per-round net of ``bet`` is
    the result per unit.
    """
    for name, v in (("--live-seats", seats), ("--rounds-per-day", rounds_per_day)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise AnalysisError(f"{name}: got {v!r}; must be a whole number >= 1")
    stakes = stakes or {1: Fraction(1)}
    tot = sum(stakes.values(), Fraction(0))
    w = {int(k): float(v / tot) for k, v in stakes.items()}
    ex = live_exposure(bet_distribution(data, bet), w, seats, rounds_per_day, levels=levels)

    def summ(e):
        return {"mean": e.mean, "sd": e.sd, "var": {str(k): v for k, v in e.var.items()},
                "error_bound": e.error, "resolution": e.resolution}

    return {"bet": bet, "seats": seats, "rounds_per_day": rounds_per_day,
            "stakes": {str(k): v for k, v in w.items()},
            "live_round": summ(ex.live_round), "independent_round": summ(ex.independent_round),
            "live_day": summ(ex.live_day), "independent_day": summ(ex.independent_day),
            "daily_sd_ratio": ex.daily_sd_ratio,
            "daily_var99_ratio": _ratio(ex.live_day.var.get(0.99),
                                        ex.independent_day.var.get(0.99))}


def _ratio(a, b):
    return None if a is None or not b else a / b
