"""Exact figures from integer counts: return tables, main-game statistics, JSON shape and its
version (:data:`FORMAT`).

All inputs are integer counts over the same denominator (every deal of the game counted once);
ratios are taken once, at the end.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

__all__ = ["FORMAT", "BetTable", "MainOutcomes", "bet_json", "check_format", "main_json",
           "max_win_json", "round_max_json", "table_max_rows", "versioned"]

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
    multiple; default ``placed``); placed_of: per event, the deals with the bet on the table
    (:meth:`add` keeps it, one entry per row); antes: what one unit of ``pays`` is worth in
    Antes where the bet is on the table (its stake / the Ante), for a bet staked at one fixed
    amount; None where the stake varies by round (its maximum win is then given to
    :func:`bet_json`).
    """

    events: list[tuple[str, Fraction | int, int, int]] = field(default_factory=list)
    placed: int = 0
    staked: int | None = None
    placed_of: list[int] = field(default_factory=list)
    antes: Fraction | int | None = None

    def add(self, event: str, pays, count: int, *, units: int | None = None,
            placed: int | None = None) -> None:
        """A row of ``count`` deals; ``placed`` of them with the bet on the table (default
        all), staking ``units`` (default one per placed deal)."""
        on = int(count if placed is None else placed)
        self.events.append((event, pays, int(count), int(on if units is None else units)))
        self.placed_of.append(on)

    def scaled(self, k: int) -> BetTable:
        """The table with every count multiplied by ``k``: a bet settled on part of the cards,
        counted over its own smaller set of deals, carried to every deal of the game (each of
        its deals extends to the same ``k`` full deals). Every ratio stays the same."""
        return BetTable(events=[(e, p, n * k, u * k) for e, p, n, u in self.events],
                        placed=self.placed * k,
                        staked=None if self.staked is None else self.staked * k,
                        placed_of=[n * k for n in self.placed_of], antes=self.antes)


def _number(x: Fraction | int) -> int | float:
    """A JSON number: an int where ``x`` is whole, else the nearest float."""
    x = Fraction(x)
    return int(x) if x.denominator == 1 else float(x)


def max_win_json(rows: Iterable[tuple[str, Fraction | int, int]], total: int) -> dict | None:
    """``{"antes", "count", "probability", "events"}``: the largest net win of a bet in one
    round, among rows (event, net win in Antes, deals with that net) with deals > 0; count: the
    deals with that net (their share of all ``total`` deals); events: the events they fall in,
    in row order. None when no row has a deal (a bet never placed)."""
    best: Fraction | None = None
    count = 0
    events: list[str] = []
    for event, net, n in rows:
        if n <= 0:
            continue
        net = Fraction(net)
        if best is None or net > best:
            best, count, events = net, 0, []
        if net == best:
            count += int(n)
            if event not in events:
                events.append(event)
    if best is None:
        return None
    return {"antes": _number(best), "count": count, "probability": count / total,
            "events": events}


def table_max_rows(table: BetTable) -> list[tuple[str, Fraction, int]]:
    """(event, net win in Antes, deals with the bet on the table) per row of a table staked at
    one fixed amount (``table.antes``)."""
    assert table.antes is not None, "a stake that varies needs its own rows"
    return [(e, Fraction(pays) * table.antes, on)
            for (e, pays, _, _), on in zip(table.events, table.placed_of, strict=True)]


def round_max_json(rows: Iterable[tuple[Fraction | int, int]], total: int, *, bets: list[str],
                   excluded: dict[str, str] | None = None) -> dict:
    """The report's top-level ``max_win``: the largest net win of one round over ``bets``
    together, from rows (the round's net in Antes, deals) that count every deal once, jointly
    over those bets.

    ``{"antes", "count", "probability", "scope", "bets"}``; scope ``all_bets`` when ``bets``
    are all the config offers, else ``main_game`` with ``excluded`` {bet: why it is not
    counted jointly}.
    """
    found = max_win_json((("round", net, n) for net, n in rows), total)
    assert found is not None, "a round table without deals"
    out = {k: found[k] for k in ("antes", "count", "probability")}
    out["scope"] = "main_game" if excluded else "all_bets"
    out["bets"] = list(bets)
    if excluded:
        out["excluded"] = dict(excluded)
    return out


def bet_json(table: BetTable, total: int, *, max_win: dict | None = None) -> dict:
    """``{"rtp", "events": [{"event", "pays", "probability", "return", "count", "placed",
    "staked"}], "hit_frequency", "max_win"}``.

    probability = deals with the event / all deals; return = the event's contribution to the
    bet's RTP (pays x stake units / units staked); rtp = 1 + sum of the returns; count: the
    event's deals, placed: those with the bet on the table, staked: the stake units there
    (integers). hit_frequency: deals the bet wins / deals it is on the table. max_win: as
    given, else from the rows when the table has one fixed stake (:func:`max_win_json`);
    absent where neither.
    """
    rows = []
    net = Fraction(0)
    staked = table.placed if table.staked is None else table.staked
    hits = 0
    for (event, pays, count, units), on in zip(table.events, table.placed_of, strict=True):
        contrib = Fraction(pays) * units / staked if staked else Fraction(0)
        net += contrib
        rows.append({
            "event": event,
            "pays": float(pays) if not float(pays).is_integer() else int(pays),
            "probability": count / total,
            "return": float(contrib),
            "count": count,
            "placed": on,
            "staked": units,
        })
        if pays > 0:
            hits += on
    out: dict = {"rtp": float(1 + net) if staked else None, "events": rows,
                 "hit_frequency": hits / table.placed if table.placed else None}
    if max_win is None and table.antes is not None:
        max_win = max_win_json(table_max_rows(table), total)
    if max_win is not None:
        out["max_win"] = max_win
    return out


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

    def nets(self) -> list[tuple[Fraction, int]]:
        """(net in Antes, deals) per row: the main game's rows for :func:`round_max_json`."""
        return [(Fraction(v, self.unit), c) for v, _, c in self.rows]

    def totals(self) -> tuple[int, int, int, int]:
        n = sum(c for _, _, c in self.rows)
        s = sum(v * c for v, _, c in self.rows)
        s2 = sum(v * v * c for v, _, c in self.rows)
        w = sum(wg * c for _, wg, c in self.rows)
        return n, s, s2, w


def main_json(outcomes: MainOutcomes) -> dict:
    """House edge per ante, average total wager, element of risk, total-bet RTP, SD, Ante RTP
    and the main game's hit frequency (the share of deals its bets win on net)."""
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
        # the main game wins: the main bets' net over the round is above zero
        "hit_frequency": float(Fraction(sum(c for v, _, c in outcomes.rows if v > 0), n)),
    }
