"""Return tables (PAR sheets) from event counts, and simulated-versus-exact comparison.

Pay convention (shared with :mod:`gpusim.stats.repricing`): ``pays`` is the *net* result per
unit staked on the event: X for "pays X:1", 0 for a push, -1 for a lost bet, X - 1 for a prize that
replaces the stake ("pays X for 1"). ``stakes`` (default 1 for every event) is the amount wagered
in the event, in units of the bet; 0 marks "bet not placed" (e.g. a Flop bet after a fold), so
RTP = total returned / total wagered stays right for optional bets.

For each event: probability = count / rounds, return = probability * stake * pays (expected net
per round). RTP = 1 + sum(return) / sum(probability * stake).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from gpusim.stats.distribution import to_fraction

__all__ = [
    "ExactComparison",
    "EventComparison",
    "ReturnRow",
    "ReturnTable",
    "compare_with_exact",
    "event_rows",
    "return_table",
]


@dataclass(frozen=True)
class ReturnRow:
    """One line of a return table. ret = probability * stake * pays (expected net per round)."""

    event: str
    pays: Fraction
    stake: Fraction
    count: int
    probability: Fraction
    ret: Fraction


@dataclass(frozen=True)
class ReturnTable:
    """A bet's return table. rtp, expected_net and wagered_per_round are exact."""

    bet: str
    rounds: int
    rows: tuple[ReturnRow, ...]
    expected_net: Fraction
    wagered_per_round: Fraction
    rtp: Fraction

    def to_records(self) -> list[dict]:
        """Rows as plain dicts (floats for the ratios), ready for a DataFrame or a report."""
        recs = [{"event": r.event, "pays": float(r.pays), "stake": float(r.stake),
                 "count": r.count, "probability": float(r.probability), "return": float(r.ret)}
                for r in self.rows]
        recs.append({"event": "total", "pays": None, "stake": float(self.wagered_per_round),
                     "count": self.rounds, "probability": 1.0,
                     "return": float(self.expected_net)})
        return recs


def event_rows(event_counts: Mapping[str, int], pays: Mapping[str, object],
            stakes: Mapping[str, object] | None):
    """Validated (event, count, pays, stake) tuples, in the paytable's order."""
    unknown = [e for e in event_counts if e not in pays]
    if unknown:
        raise ValueError(f"event {unknown[0]!r} has no pay; paytable events: "
                         f"{', '.join(map(str, pays))}")
    stakes = stakes or {}
    bad = [e for e in stakes if e not in pays]
    if bad:
        raise ValueError(f"stake given for unknown event {bad[0]!r}")
    out = []
    for e, p in pays.items():
        c = event_counts.get(e, 0)
        if isinstance(c, bool) or int(c) != c or c < 0:
            raise ValueError(f"count of event {e!r} must be an integer >= 0, got {c!r}")
        s = to_fraction(stakes.get(e, 1), f"stake of {e!r}")
        if s < 0:
            raise ValueError(f"stake of {e!r} must be >= 0, got {s}")
        out.append((str(e), int(c), to_fraction(p, f"pays of {e!r}"), s))
    return out


def return_table(event_counts: Mapping[str, int], pays: Mapping[str, object], *,
                 stakes: Mapping[str, object] | None = None, bet: str = "") -> ReturnTable:
    """Return table of one bet from its event counts.

    event_counts: {event: count} over all rounds (events missing from it count 0).
    pays: {event: net pay per unit stake}; every counted event must appear.
    stakes: optional {event: amount wagered in units of the bet}, default 1.
    """
    ev = event_rows(event_counts, pays, stakes)
    n = sum(c for _, c, _, _ in ev)
    if n <= 0:
        raise ValueError("event counts sum to 0; no rounds to tabulate")
    rows = tuple(ReturnRow(e, p, s, c, Fraction(c, n), Fraction(c, n) * s * p)
                 for e, c, p, s in ev)
    net = sum((r.ret for r in rows), Fraction(0))
    wag = sum((r.probability * r.stake for r in rows), Fraction(0))
    if wag == 0:
        raise ValueError("nothing was wagered (all counted events have stake 0)")
    return ReturnTable(bet, n, rows, net, wag, 1 + net / wag)


@dataclass(frozen=True)
class EventComparison:
    """One event: simulated vs exact probability and z = (count - N p) / sqrt(N p (1 - p))."""

    event: str
    count: int
    sim_probability: float
    exact_probability: Fraction
    z: float


@dataclass(frozen=True)
class ExactComparison:
    """Simulated vs exact return table.

    events: per-event comparisons; rtp_sim, rtp_exact: RTP; z_rtp: z-score of the simulated RTP
    under the exact distribution (delta method for the ratio, exact when every stake is 1);
    chi2, dof: Pearson chi-square over events with exact p > 0 (dof = their number - 1).
    """

    rounds: int
    events: tuple[EventComparison, ...]
    rtp_sim: Fraction
    rtp_exact: Fraction
    z_rtp: float
    chi2: float
    dof: int


def compare_with_exact(event_counts: Mapping[str, int], exact: Mapping[str, object],
                       pays: Mapping[str, object], *,
                       stakes: Mapping[str, object] | None = None) -> ExactComparison:
    """Compare simulated event counts with an exact analysis.

    event_counts: simulated {event: count}; exact: {event: weight} from the exact analysis
    (integer combination counts or probabilities; normalised by their sum); pays, stakes: as
    for :func:`return_table`.
    """
    sim = return_table(event_counts, pays, stakes=stakes)
    bad = [e for e in exact if e not in pays]
    if bad:
        raise ValueError(f"exact weight given for unknown event {bad[0]!r}")
    w = {e: to_fraction(exact.get(e, 0), f"exact weight of {e!r}") for e in pays}
    if any(v < 0 for v in w.values()):
        raise ValueError("exact weights must be >= 0")
    tot = sum(w.values(), Fraction(0))
    if tot <= 0:
        raise ValueError("exact weights sum to 0")
    p = {e: v / tot for e, v in w.items()}
    n = sim.rounds
    comps = []
    chi2 = 0.0
    dof = -1
    for r in sim.rows:
        pe = p[r.event]
        dev = r.count - n * pe  # exact, so matching counts give exactly 0
        if pe == 0:
            z = 0.0 if r.count == 0 else math.inf
        elif pe == 1:
            z = 0.0
        else:
            z = float(dev) / math.sqrt(float(n * pe * (1 - pe)))
        if pe > 0:
            chi2 += float(dev * dev / (n * pe))
            dof += 1
        elif r.count:
            chi2 = math.inf
        comps.append(EventComparison(r.event, r.count, float(r.probability), pe, z))
    # RTP under the exact distribution, then D = net - R * stake has mean 0 there
    e_net = sum((p[r.event] * r.stake * r.pays for r in sim.rows), Fraction(0))
    e_wag = sum((p[r.event] * r.stake for r in sim.rows), Fraction(0))
    if e_wag == 0:
        raise ValueError("nothing is wagered under the exact distribution")
    r_exact = e_net / e_wag
    var_d = sum((p[r.event] * (r.stake * (r.pays - r_exact)) ** 2 for r in sim.rows),
                Fraction(0))
    sum_d = sum((r.count * r.stake * (r.pays - r_exact) for r in sim.rows), Fraction(0))
    if var_d == 0:
        z_rtp = 0.0 if sum_d == 0 else math.copysign(math.inf, sum_d)
    else:
        z_rtp = float(sum_d) / math.sqrt(n * float(var_d))
    return ExactComparison(n, tuple(comps), sim.rtp, 1 + r_exact, z_rtp, chi2, max(dof, 0))
