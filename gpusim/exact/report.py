"""Exact figures from integer counts: return tables, main-game statistics, JSON shape and its
version (:data:`FORMAT`).

All inputs are integer counts over the same denominator (every deal of the game counted once);
ratios are taken once, at the end.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

__all__ = ["FORMAT", "BetTable", "MainOutcomes", "bet_json", "check_format", "main_json",
           "versioned"]

FORMAT = "gpusim-exact/1"
"""The exact report's version, its first key: ``gpusim exact --json`` and the shipped reports
(gpusim/data/exact) carry it (docs/formats.md)."""


def versioned(report: dict) -> dict:
    """The report with ``"format": FORMAT`` as its first key."""
    return {"format": FORMAT, **{k: v for k, v in report.items() if k != "format"}}


def check_format(report: dict, where: str) -> dict:
    """The report itself when it carries :data:`FORMAT`; otherwise ValueError, one line that
    names ``where`` (the file), the value found and the one allowed."""
    got = report.get("format") if isinstance(report, dict) else None
    if got != FORMAT:
        raise ValueError(f"{where}: exact report format {got!r} is not one this gpusim reads; "
                         f"allowed: {FORMAT!r}")
    return report


@dataclass
class BetTable:
    """One bet's return table.

    events: (event name, pays = net result per unit of this bet's stake, deals, stake units)
    rows; placed: deals in which the bet is placed (its stake is at risk); staked: the units
    staked over those deals (a bet placed at 1x to 3x the Ante counts each deal at its
    multiple; default ``placed``).
    """

    events: list[tuple[str, Fraction | int, int, int]] = field(default_factory=list)
    placed: int = 0
    staked: int | None = None
    placed_of: list[int] | None = None  # per event, the deals with the bet on the table

    def add(self, event: str, pays, count: int, *, units: int | None = None) -> None:
        self.events.append((event, pays, int(count), int(count if units is None else units)))


def bet_json(table: BetTable, total: int, *, counts: bool = False) -> dict:
    """``{"rtp", "events": [{"event", "pays", "probability", "return"}]}`` (with ``counts``,
    each event's integer ``count`` of deals too).

    probability = deals with the event / all deals; return = the event's contribution to the
    bet's RTP (pays x stake units / units staked); rtp = 1 + sum of the returns. With the
    table's ``placed_of``, each event also has ``placed`` (its deals with the bet on the table)
    and ``staked`` (the stake units there).
    """
    rows = []
    net = Fraction(0)
    staked = table.placed if table.staked is None else table.staked
    for event, pays, count, units in table.events:
        contrib = Fraction(pays) * units / staked if staked else Fraction(0)
        net += contrib
        row = {
            "event": event,
            "pays": float(pays) if not float(pays).is_integer() else int(pays),
            "probability": count / total,
            "return": float(contrib),
        }
        if counts:
            row["count"] = count
        rows.append(row)
        if table.placed_of is not None:
            row["placed"], row["staked"] = table.placed_of[len(rows) - 1], units
    return {"rtp": float(1 + net) if staked else None, "events": rows}


@dataclass
class MainOutcomes:
    """Distribution of the main game's result per deal.

    rows: (net, total wagered, deals) with integer net and wager in money units, of which the
    ante is ``unit`` (1: the rows are in ante units; a game whose pays are not whole multiples
    of its ante, such as a 3:2 pay, counts in a smaller unit).
    """

    rows: list[tuple[int, int, int]] = field(default_factory=list)
    unit: int = 1

    def add(self, net: int, wager: int, count: int) -> None:
        if count:
            self.rows.append((int(net), int(wager), int(count)))

    def totals(self) -> tuple[int, int, int, int]:
        n = sum(c for _, _, c in self.rows)
        s = sum(v * c for v, _, c in self.rows)
        s2 = sum(v * v * c for v, _, c in self.rows)
        w = sum(wg * c for _, wg, c in self.rows)
        return n, s, s2, w


def main_json(outcomes: MainOutcomes) -> dict:
    """House edge per ante, average total wager, element of risk, total-bet RTP, SD, Ante RTP."""
    n, s, s2, w = outcomes.totals()
    u = outcomes.unit
    mean = Fraction(s, n * u)
    var = Fraction(s2, n * u * u) - mean * mean
    eor = -Fraction(s, w)
    return {
        "house_edge_per_ante": float(-mean),
        "avg_total_wager": float(Fraction(w, n * u)),
        "element_of_risk": float(eor),
        "total_bet_rtp": float(1 - eor),
        "sd_per_round": math.sqrt(float(var)),
        "ante_rtp": float(1 + mean),
    }
