"""What-if paytables: RTP of another paytable from stored event counts, and the pay that hits a
target RTP.

Events are the paytable lines a run counted (e.g. "AA", "AKs", "lose"); the conventions for
``pays`` (net per unit staked) and ``stakes`` are those of :mod:`gpusim.stats.return_table`. RTP
is linear in each pay, so the pay of one line for a target RTP has a closed form:

    RTP(x) = 1 + (sum_{e != line} c_e s_e p_e + c_line s_line x) / sum_e c_e s_e.

All arithmetic is exact (fractions); integer pays next to the exact solution are reported with
their RTPs.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from gpusim.stats.distribution import to_fraction
from gpusim.stats.return_table import event_rows

__all__ = ["PaySolution", "paytable_rtp", "solve_pay"]


def paytable_rtp(event_counts: Mapping[str, int], pays: Mapping[str, object], *,
                 stakes: Mapping[str, object] | None = None) -> Fraction:
    """Exact RTP of a bet under the paytable ``pays``, from event counts.

    event_counts: {event: count}; pays: {event: net pay per unit stake} covering every counted
    event; stakes: optional {event: amount wagered in bet units} (default 1).
    """
    ev = event_rows(event_counts, pays, stakes)
    wag = sum(c * s for _, c, _, s in ev)
    if wag == 0:
        raise ValueError("nothing was wagered (event counts are 0 or stakes are 0)")
    net = sum(c * s * p for _, c, p, s in ev)
    return 1 + Fraction(net) / wag


@dataclass(frozen=True)
class PaySolution:
    """Pay of ``line`` for ``target_rtp``: exact (possibly non-integer) and nearest integers.

    lower_pay = floor(exact), upper_pay = ceil(exact), with their exact RTPs; nearest_pay is the
    one whose RTP is closer to the target (the lower on a tie, which favours the house).
    """

    line: str
    target_rtp: Fraction
    exact: Fraction
    lower_pay: int
    lower_rtp: Fraction
    upper_pay: int
    upper_rtp: Fraction
    nearest_pay: int
    nearest_rtp: Fraction

    @property
    def is_integer(self) -> bool:
        return self.exact.denominator == 1


def solve_pay(event_counts: Mapping[str, int], pays: Mapping[str, object], line: str,
              target_rtp, *, stakes: Mapping[str, object] | None = None) -> PaySolution:
    """Net pay of one paytable line that makes the bet's RTP equal ``target_rtp``.

    pays must contain ``line`` (its current value is ignored). target_rtp: e.g. 0.95 or
    Fraction(19, 20) (floats are read as typed, 0.95 -> 19/20).
    """
    if line not in pays:
        raise ValueError(f"line {line!r} is not in the paytable; lines: {', '.join(pays)}")
    target = to_fraction(target_rtp, "target_rtp")
    if target < 0:
        raise ValueError(f"target_rtp must be >= 0, got {target}")
    ev = event_rows(event_counts, pays, stakes)
    wag = sum(c * s for _, c, _, s in ev)
    if wag == 0:
        raise ValueError("nothing was wagered (event counts are 0 or stakes are 0)")
    rest = sum(c * s * p for e, c, p, s in ev if e != line)
    weight = sum(c * s for e, c, _, s in ev if e == line)
    if weight == 0:
        raise ValueError(f"line {line!r} was never hit with a stake in these counts; "
                         f"its pay cannot change the RTP")
    exact = ((target - 1) * wag - rest) / weight

    def rtp(x) -> Fraction:
        return 1 + (rest + weight * Fraction(x)) / wag

    lo, hi = math.floor(exact), math.ceil(exact)
    r_lo, r_hi = rtp(lo), rtp(hi)
    nearest = lo if abs(r_lo - target) <= abs(r_hi - target) else hi
    return PaySolution(str(line), target, exact, lo, r_lo, hi, r_hi, nearest, rtp(nearest))
