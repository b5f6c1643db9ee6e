"""The exact report (``gpusim exact --html``) as one self-contained HTML page: the main game's
figures, every bet's return table, the action shares and the strategy drawn as a chart.

Everything is inline (CSS, the chart as coloured HTML tables); no script runs. As in the run
report (:mod:`gpusim.report.html`) the report dict is embedded in ``<script
type="application/json" id="gpusim-report">`` and the key cells carry ``data-key`` (the dotted
path of the number in that dict) and ``data-value`` (its JSON value).

The chart is chosen from the shape of the data, never from the game's name:

- ``preflop`` (hand class -> {``ev_<action>``: EV, ``action``}): the 13 x 13 starting-hand grid;
- ``first_decision`` with dealer up cards (``up`` in its rows): hand class x up card, coloured by
  the share of the hand's deals that do not fold, the hands strongest first and consecutive
  hands that decide alike against every up card in one row (``high card below A-K``);
- ``first_decision`` of two-card labels (``AKs``, ``72``): the 13 x 13 grid of each hand's most
  common action;
- ``first_decision`` of three-card labels (``Q64``, ``Q64s``, ``QQ4``) and a ``fold`` action out
  of two: the play/fold boundary, high card x second card -> the lowest third card that plays;
- any other ``first_decision``: a table of hands x actions (EV), the action taken highlighted,
  strongest first, consecutive hands that always take one action in one row (EVs as a range).

Hands are ordered by :mod:`gpusim.report.hand_order` (the reports list them by best EV, so the
hands that always fold, all at one EV, would come in string order).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from gpusim.cards import RANKS
from gpusim.games.spec import METER_SECTION
from gpusim.report.hand_order import by_strength, run_label, runs
from gpusim.report.html import _CSS, _cell, _e, _table
from gpusim.report.text import fmt_int, fmt_num, fmt_pct
from gpusim.runs.jsonsafe import json_safe

__all__ = ["render_exact_html", "write_exact_html"]

_CHART_CSS = """
table.grid td{min-width:3.4em;height:2.6em;text-align:center;font-size:.78em;
padding:1px 2px;line-height:1.15}table.grid th{text-align:center;padding:2px 4px}
table.grid td.na{background:#fff;border-color:#f4f4f4}table.grid b{font-size:1.15em}
td.zero{color:#aaa}td.take{font-weight:bold;outline:2px solid #333;outline-offset:-2px}
span.sw{display:inline-block;width:1.1em;height:1.1em;border:1px solid #999;
vertical-align:middle;margin:0 .3em 0 1em}span.bar{display:inline-block;height:.8em;
background:#4a90d9;vertical-align:middle}.chart{overflow-x:auto}body{max-width:1240px}
.cols{display:flex;flex-wrap:wrap;gap:0 2.5em;align-items:flex-start}
.cols>section{flex:0 0 auto}.cols>section.wide{flex:1 1 620px;min-width:0}
div[data-chart="hand-table"] td{white-space:nowrap}
"""

_HI = RANKS[::-1]  # A K Q ... 2: a strategy card reads from the top left
_FOLD, _CHECK = "#ef9a9a", "#fff59d"
# committing actions from the smallest to the largest bet, so that more money reads darker
_PALETTE = ("#c5e1a5", "#8bc34a", "#43a047", "#26a69a", "#42a5f5", "#ab47bc")
_TWO = re.compile(r"^([2-9TJQKA])([2-9TJQKA])(s|o)?$")
_THREE = re.compile(r"^([2-9TJQKA])([2-9TJQKA])([2-9TJQKA])(s)?$")


def _key(*parts: object) -> str | None:
    """The dotted data-key, or None when a name holds a dot (the path would be ambiguous)."""
    names = [str(p) for p in parts]
    return None if any("." in n for n in names) else ".".join(names)


def _colours(actions: list[str]) -> dict[str, str]:
    """A fill per action, in the order given: fold red, check yellow, the others the palette."""
    out: dict[str, str] = {}
    rest = iter(_PALETTE * 4)
    for a in actions:
        out[a] = _FOLD if a == "fold" else _CHECK if a == "check" else next(rest)
    return out


def _legend(colours: dict[str, str]) -> str:
    items = "".join(f'<span class="sw" style="background:{c}"></span>{_e(a)}'
                    for a, c in colours.items())
    return f'<p class="legend">{items}</p>'


def _pays(x: Any) -> str:
    return "-" if x is None else f"{x:.6g}" if isinstance(x, float) else str(x)


def _main(rep: dict) -> str:
    m = rep["main"]
    names = (("house_edge_per_ante", "house edge per ante", fmt_pct),
             ("ante_rtp", "Ante RTP (1 - house edge per ante)", fmt_pct),
             ("element_of_risk", "element of risk", fmt_pct),
             ("total_bet_rtp", "total-bet RTP", fmt_pct),
             ("avg_total_wager", "average total wager (antes)", lambda x: fmt_num(x, 6)),
             ("sd_per_round", "SD per round (antes)", lambda x: fmt_num(x, 6)),
             ("hit_frequency", "hit frequency", fmt_pct))
    rows = [[_cell(label, cls="l"), _cell(f(m[k]), f"main.{k}", m[k])]
            for k, label, f in names if k in m]
    return _table(["figure", "exact"], rows)


def _bets(rep: dict) -> str:
    parts = []
    for bet, t in rep["bets"].items():
        counted = any("count" in e for e in t["events"])
        head = ["event", "pays", *(["count"] if counted else []), "probability", "return"]
        rows = []
        for i, e in enumerate(t["events"]):
            k = _key("bets", bet, "events", i)
            zero = "zero" if not e["probability"] else ""
            row = [_cell(e["event"], cls=f"l {zero}".strip()), _cell(_pays(e["pays"]), cls=zero)]
            if counted:
                row.append(_cell(fmt_int(e.get("count")), k and f"{k}.count", e.get("count"),
                                 cls=zero))
            row += [_cell(f"{e['probability']:.9f}", k and f"{k}.probability",
                          e["probability"], cls=zero),
                    _cell(f"{e['return']:+.6f}", k and f"{k}.return", e["return"], cls=zero)]
            rows.append(row)
        k = _key("bets", bet)
        rtp = t.get("rtp")
        line = (f'RTP <b data-key="{_e(k)}.rtp" data-value="{_e(json.dumps(rtp))}">'
                f"{_e(fmt_pct(rtp))}</b>" if rtp is not None and k else
                f"RTP <b>{_e(fmt_pct(rtp))}</b>" if rtp is not None else "never placed")
        if t.get("hit_frequency") is not None:
            line += f", hit frequency {_e(fmt_pct(t['hit_frequency']))}"
        parts.append(f"<h3>{_e(bet)}</h3><p>{line}</p>" + _table(head, rows))
    return "".join(parts)


def _jackpot(j: dict) -> str:
    rows = [[_cell("fixed-prize RTP", cls="l"), _cell(fmt_pct(j["fixed_prize_rtp"]))],
            [_cell("P(royal)", cls="l"), _cell(f"{j['p_royal']:.3e}")],
            [_cell("RTP at the reset meter", cls="l"), _cell(fmt_pct(j["rtp_at_reset_meter"]))],
            [_cell(f"long-run RTP ({fmt_pct(j['contribution_rate'], 2)} contribution)", cls="l"),
             _cell(fmt_pct(j["long_run_rtp"]))],
            [_cell("break-even meter", cls="l"), _cell(fmt_num(j["break_even_meter"], 0))]]
    rows += [[_cell(f"RTP at meter {fmt_int(r['meter'])}", cls="l"), _cell(fmt_pct(r["rtp"]))]
             for r in j.get("rtp_at_meter", [])]
    return ("<p>RTP = fixed prizes + P(royal) x meter / stake.</p>"
            + _table(["figure", "value"], rows))


def _decisions(rep: dict) -> str:
    rows = []
    reach = any("reached" in acts for acts in rep["decisions"].values())
    for point, acts in rep["decisions"].items():
        for j, (a, share) in enumerate((a, s) for a, s in acts.items() if a != "reached"):
            bar = f'<span class="bar" style="width:{120 * (share or 0):.1f}px"></span>'
            row = [_cell(point if j == 0 else "", cls="l")]
            if reach:
                r = acts.get("reached")
                row.append(_cell(fmt_pct(r, 2), _key("decisions", point, "reached"), r)
                           if j == 0 and r is not None else _cell(""))
            rows.append(row + [_cell(a, cls="l"),
                               _cell(fmt_pct(share), _key("decisions", point, a), share),
                               f'<td class="l">{bar}</td>'])
    head = ["point", *(["reached"] if reach else []), "action", "share", ""]
    return _table(head, rows)


# --- the strategy chart -----------------------------------------------------------------------


def _pos(hand: str) -> tuple[int, int] | None:
    """(row, column) of a two-card class in the 13 x 13 grid: pairs on the diagonal, suited
    above it (row = the high card), offsuit below (row = the low card); None if not one."""
    m = _TWO.match(hand)
    if m is None:
        return None
    hi, lo, suit = _HI.index(m[1]), _HI.index(m[2]), m[3]
    if hi == lo:
        return None if suit else (hi, hi)
    hi, lo = min(hi, lo), max(hi, lo)
    return (hi, lo) if suit == "s" else (lo, hi)


def _grid(cells: dict[tuple[int, int], str], kind: str) -> str:
    body = "".join("<tr>" + "".join(cells.get((i, j), '<td class="na"></td>') for j in range(13))
                   + "</tr>" for i in range(13))
    return f'<div class="chart" id="strategy-chart" data-chart="{kind}"><table class="grid">' \
           f"{body}</table></div>"


def _hand_cell(hand: str, colour: str, ev: float | None, title: str, mark: str = "") -> str:
    ev_text = "" if ev is None else f"<br>{ev:+.3f}"
    return (f'<td data-hand="{_e(hand)}" style="background:{colour}" title="{_e(title)}">'
            f"<b>{_e(hand)}</b>{_e(mark)}{ev_text}</td>")


def _preflop_chart(pre: dict) -> str:
    keys = [k for k in next(iter(pre.values())) if k.startswith("ev_")]
    acts = [k[3:] for k in keys]
    acts = [a for a in dict.fromkeys(v["action"] for v in pre.values()) if a not in acts] + acts
    colours = _colours(acts)
    cells = {}
    for hand, v in pre.items():
        pos = _pos(hand)
        if pos is None:
            continue
        a = v["action"]
        ev = v.get(f"ev_{a}", max(v[k] for k in keys) if keys else None)
        title = f"{hand}: {a}; " + ", ".join(f"EV {k[3:]} {v[k]:+.6f}" for k in keys)
        cells[pos] = _hand_cell(hand, colours[a], ev, title)
    what = (f"the EV per ante of {keys[0][3:]}" if len(keys) == 1
            else "the EV per ante of the action taken")
    return (f"<p>Each starting hand's pre-flop action: pairs on the diagonal, suited hands above "
            f"it, offsuit below. Each cell: the hand and {_e(what)}.</p>"
            + _legend(colours) + _grid(cells, "preflop-grid"))


def _taken(h: dict) -> str:
    """The hand's most common action (the first of the actions on a tie)."""
    return max(h["share"], key=lambda a: h["share"][a])


def _two_card_chart(point: str, hands: list[dict]) -> str:
    colours = _colours(list(hands[0]["ev"]))
    cells = {}
    for h in hands:
        pos = _pos(h["hand"])
        if pos is None:
            continue
        a = _taken(h)
        mixed = h["share"][a] < 1
        title = f"{h['hand']}: {a} on {fmt_pct(h['share'][a], 2)} of its deals; " + \
            ", ".join(f"EV {b} {x:+.6f}" for b, x in h["ev"].items())
        cells[pos] = _hand_cell(h["hand"], colours[a], h["ev"][a], title, "*" if mixed else "")
    return (f"<p>The {_e(point)} decision of each two-card hand (its most common action; * where "
            "the hand's deals do not all take it): pairs on the diagonal, suited above it, "
            "offsuit below. Each cell: the hand and that action's EV per unit of the base bet.</p>"
            + _legend(colours) + _grid(cells, "two-card-grid"))


def _plays(h: dict, fold: str) -> float:
    return 1.0 - h["share"].get(fold, 0.0)


def _boundary_chart(point: str, hands: list[dict], fold: str) -> str:
    by = {h["hand"]: h for h in hands}
    play = next(a for a in hands[0]["ev"] if a != fold)
    head = "".join(f"<th>{c}</th>" for c in _HI[1:-1])
    rows = []
    for r in _HI[:-2]:
        tds = []
        for c in _HI[1:-1]:
            if _HI.index(c) <= _HI.index(r):
                tds.append('<td class="na"></td>')
                continue
            thirds = [t for t in _HI[_HI.index(c) + 1:] if f"{r}{c}{t}" in by]
            playing = [t for t in thirds if _plays(by[f"{r}{c}{t}"], fold) >= 0.5]
            mixed = any(0 < _plays(by[f"{r}{c}{t}"], fold) < 1 for t in thirds)
            if not playing:
                text, colour = "-", _FOLD
            else:
                text = playing[-1]
                # an upper run of thirds reads as "this card or better"; a gap gets a mark
                gap = thirds[: thirds.index(text) + 1] != playing
                text += "*" if gap or mixed else ""
                colour = _PALETTE[1] if len(playing) == len(thirds) else _CHECK
            title = (f"{r}-{c}-x: {play} with {', '.join(playing) or 'no'} third card"
                     f"{'s' if len(playing) != 1 else ''}")
            tds.append(f'<td data-row="{r}" data-col="{c}" style="background:{colour}" '
                       f'title="{_e(title)}"><b>{_e(text)}</b></td>')
        rows.append(f"<tr><th>{r}</th>{''.join(tds)}</tr>")
    grid = (f'<div class="chart" id="strategy-chart" data-chart="three-card-boundary">'
            f'<table class="grid"><tr><th>high \\ 2nd</th>{head}</tr>{"".join(rows)}'
            "</table></div>")
    special = [h for h in hands if _THREE.match(h["hand"]) and
               (len(set(h["hand"][:3])) < 3 or h["hand"].endswith("s"))]
    odd = by_strength([h for h in special if _plays(h, fold) < 1], lambda h: h["hand"])
    if odd:
        items = ", ".join(f"{h['hand']} ({play} {fmt_pct(_plays(h, fold), 2)})" for h in odd)
        extra = f"<p>Pairs, three of a kind and suited hands that do not always {_e(play)}: " \
                f"{_e(items)}.</p>"
    else:
        extra = (f"<p>Every pair, three of a kind and suited (s) hand takes {_e(play)}"
                 f" ({len(special)} classes).</p>" if special else "")
    return (f"<p>The {_e(point)} decision of the hands of three different ranks, not suited: row "
            f"= the high card, column = the second card, cell = the lowest third card with "
            f"which the hand takes {_e(play)}, every higher one taking it too (row "
            f"{_HI[2]}, column {_HI[8]}: the lowest x with which {_HI[2]}-{_HI[8]}-x does); "
            "- never; * where the third cards that do are not one run up from that card, or a "
            "hand's deals are split.</p>"
            + _legend({f"{play} always": _PALETTE[1], f"{play} from the card shown": _CHECK,
                       fold: _FOLD}) + grid + extra)


def _share_colour(s: float) -> str:
    lo, hi = (0xEF, 0x9A, 0x9A), (0x81, 0xC7, 0x84)
    return "#" + "".join(f"{round(a + (b - a) * s):02x}" for a, b in zip(lo, hi, strict=True))


def _up_chart(point: str, hands: list[dict], fold: str) -> str:
    play = next(a for a in hands[0]["ev"] if a != fold)
    ups = [u for u in RANKS if any(h.get("up") == u for h in hands)]
    cells = {(h["hand"], h.get("up")): h for h in hands}
    names = by_strength(list(dict.fromkeys(h["hand"] for h in hands)), str)

    def share(name: str, u: str) -> float | None:
        h = cells.get((name, u))
        return None if h is None else _plays(h, fold)

    # a hand that takes one action on every deal against each up card decides as its
    # neighbours may: such a run is one row
    pure = [tuple(share(n, u) for u in ups) for n in names]
    decided = [p if all(s in (0.0, 1.0) for s in p) else None for p in pure]
    rows = []
    for start, stop in runs(decided):
        name = names[start]
        if stop - start > 1:
            label = run_label(names, start, stop)
            members = ", ".join(names[start:stop])
            head = f'<th class="l" title="{_e(members)}">{_e(label)}</th>'
            same = set(pure[start])
            if len(same) == 1:
                s = same.pop()
                assert s is not None
                word = play if s == 1 else fold
                rows.append(f"<tr>{head}<td colspan=\"{len(ups)}\" data-hands=\"{_e(members)}\" "
                            f'style="background:{_share_colour(s)}" title="{_e(label)}: '
                            f'{_e(word)} against every up card"><b>{_e(word)}</b></td></tr>')
                continue
        else:
            head = f'<th class="l">{_e(name)}</th>'
        tds = []
        for u in ups:
            h = cells.get((name, u))
            if h is None:
                tds.append('<td class="na"></td>')
                continue
            s = _plays(h, fold)
            text = "R" if s == 1 else "F" if s == 0 else f"{min(max(100 * s, 1), 99):.0f}%"
            title = (f"{name} v {u}: {play} on {fmt_pct(s, 2)} of the deals; "
                     + ", ".join(f"EV {a} {x:+.6f}" for a, x in h["ev"].items()))
            tds.append(f'<td data-hand="{_e(name)}" data-up="{_e(u)}" '
                       f'style="background:{_share_colour(s)}" title="{_e(title)}">'
                       f"{_e(text)}</td>")
        rows.append(f'<tr>{head}{"".join(tds)}</tr>')
    head = "".join(f"<th>{u}</th>" for u in ups)
    return (f"<p>The {_e(point)} decision by the player's hand (rows, strongest first) and the "
            f"dealer's up card (columns): R = {_e(play)} on every deal, F = {_e(fold)}, a "
            f"percentage = the share of the deals that {_e(play)} (the class holds hands that "
            "decide differently). Consecutive hands that decide alike against every up card "
            "share a row.</p>"
            + _legend({play: _share_colour(1), "mixed": _share_colour(0.5),
                       fold: _share_colour(0)})
            + f'<div class="chart" id="strategy-chart" data-chart="up-card-table">'
              f'<table class="grid"><tr><th class="l">hand \\ up</th>{head}</tr>'
              f'{"".join(rows)}</table></div>')


def _generic_chart(point: str, hands: list[dict]) -> str:
    acts = list(hands[0]["ev"])
    colours = _colours(acts)
    up = any("up" in h for h in hands)
    hands = by_strength(hands, lambda h: h["hand"],
                        lambda h: RANKS.index(h["up"]) if "up" in h else -1)
    # hands that take one action on every deal, one after another, are one row; with up cards
    # a hand's rows are told apart by the up card, so none is folded
    taken = [_taken(h) for h in hands]
    decided = [None if up or h["share"][a] < 1 else a for h, a in zip(hands, taken, strict=True)]
    labels = [h["hand"] for h in hands]
    rows = []
    for start, stop in runs(decided):
        run = hands[start:stop]
        a_taken = taken[start]
        evs = {a: [h["ev"][a] for h in run] for a in acts}

        def ev_text(a: str, evs: dict = evs) -> str:
            lo, hi = min(evs[a]), max(evs[a])
            return f"{hi:+.6f}" if lo == hi else f"{lo:+.3f} .. {hi:+.3f}"

        label = run_label(labels, start, stop)
        name = (_cell(label, cls="l") if stop - start == 1 else
                f'<td class="l" title="{_e(", ".join(labels[start:stop]))}">{_e(label)}</td>')
        row = [name, *([_cell(run[0].get("up", ""))] if up else []),
               _cell(fmt_int(sum(h["deals"] for h in run)))]
        row += [f'<td class="take" style="background:{colours[a]}">{ev_text(a)}</td>'
                if a == a_taken else _cell(ev_text(a)) for a in acts]
        row += [_cell(f"{a_taken} ({fmt_pct(run[0]['share'][a_taken], 2)})", cls="l")]
        rows.append(row)
    return (f"<p>The {_e(point)} decision of each starting hand, strongest first: its EV per "
            "unit of the base bet for every action; the framed EV is the action taken most "
            "often. Consecutive hands that always take the same action share a row (their EVs "
            "as a range, their deals summed).</p>"
            + _legend(colours) + '<div class="chart" id="strategy-chart" data-chart="hand-table">'
            + _table(["hand", *(["up"] if up else []), "deals", *(f"EV {a}" for a in acts),
                      "action taken"], rows) + "</div>")


def _first_decision_chart(first: dict) -> str:
    point, hands = first["point"], first["hands"]
    if not hands:
        return "<p>The report holds no starting hands.</p>"
    acts = list(hands[0]["ev"])
    fold = "fold" if "fold" in acts and len(acts) == 2 else None
    labels = [h["hand"] for h in hands]
    if any("up" in h for h in hands) and fold:
        return _up_chart(point, hands, fold)
    if all(_TWO.match(x) for x in labels):
        return _two_card_chart(point, hands)
    if all(_THREE.match(x) for x in labels) and fold:
        return _boundary_chart(point, hands, fold)
    return _generic_chart(point, hands)


def _strategy(rep: dict) -> str:
    if rep.get("preflop"):
        return _preflop_chart(rep["preflop"])
    if rep.get("first_decision"):
        return _first_decision_chart(rep["first_decision"])
    points = list(rep["decisions"])
    what = f"point{'s' if len(points) > 1 else ''}: {', '.join(points)}"
    return (f'<p class="note" id="strategy-chart" data-chart="none">No strategy chart: this '
            f"report holds no per-hand table of a first decision (decision {_e(what)}), so the "
            "strategy is shown only by the share of deals taking each action (below).</p>")


def render_exact_html(report: dict) -> str:
    """The self-contained HTML text of an exact report dict (``gpusim exact --json``,
    docs/exact.md: ``game``, ``config``, ``strategy``, ``deals_counted``, ``main``, ``bets``,
    ``decisions``, optionally ``preflop``, ``first_decision``, ``jackpot``)."""
    rep = json_safe(report)
    title = f"gpusim exact report: {rep['config']} ({rep['strategy']})"
    body = [f"<h1>{_e(title)}</h1>",
            f"<p>Game {_e(rep['game'])}, config {_e(rep['config'])}, strategy "
            f"{_e(rep['strategy'])}; <span data-key=\"deals_counted\" data-value="
            f"\"{_e(json.dumps(rep['deals_counted']))}\">{_e(fmt_int(rep['deals_counted']))}"
            "</span> deals counted (every deal, nothing sampled)"
            + (f"; report format {_e(rep['format'])}" if rep.get("format") else "") + ".</p>",
            # the figures beside the chart, so that a strategy card's first screen holds both
            '<div class="cols"><section><h2>Main game</h2>', _main(rep),
            '<p class="note">Per unit of the ante (the base bet); the element of risk<br>is the '
            "house edge per unit of the total wager.</p>",
            "<h2>Decisions (share of all deals)</h2>", _decisions(rep), "</section>",
            '<section class="wide"><h2>Strategy</h2>', _strategy(rep), "</section></div>",
            "<h2>Return tables</h2>", _bets(rep)]
    if rep.get(METER_SECTION):
        body += ["<h2>Progressive jackpot</h2>", _jackpot(rep[METER_SECTION])]
    blob = json.dumps(rep, separators=(",", ":")).replace("</", "<\\/")
    body.append(f'<script type="application/json" id="gpusim-report">{blob}</script>')
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{_e(title)}</title><style>{_CSS}{_CHART_CSS}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def write_exact_html(report: dict, path: str | Path) -> Path:
    """Write :func:`render_exact_html` to ``path`` (temporary name, then rename)."""
    p = Path(path).expanduser()
    tmp = p.with_name(f".{p.name}.tmp")
    tmp.write_text(render_exact_html(report), encoding="utf-8")
    os.replace(tmp, p)
    return p
