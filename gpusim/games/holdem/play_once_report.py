"""The exact report of a described game of the play-once hold'em shape (docs/exact.md): the
solution's deals per joint code of the description (:func:`joint_counts`), read into the
report's tables in the shape's own layout, the one Ultimate Texas Hold'em's report has always
had: every bet's rows in outcome order (fold, win, dealer not qualified, tie, loss; by the
player's final hand where a bet names it), the main game, the round's largest win, the action
shares per point and every starting hand's EV of each pre-flop action (``preflop``).

Every name comes from the description (its layout's events), so the report's events are those
the simulation records; rows that the description names alike are one row.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from gpusim.cards import HAND_CLASSES
from gpusim.exact.report import (
    BetTable,
    MainOutcomes,
    bet_json,
    main_json,
    max_win_json,
    round_max_json,
)
from gpusim.games.holdem.play_once import DEALT, LQ, TIES, TOTAL_DEALS, WINS, WN, Solution
from gpusim.games.holdem.play_once_counts import N_PAY
from gpusim.games.holdem.play_once_shape import refusal, roles

__all__ = ["analyse", "joint_counts"]

NQW, NQT, NQL, W, T, L = range(6)
"""The layout's showdown codes (gpusim.games.described.layout.SHOWDOWN)."""


def _qualifies_by_class(d) -> np.ndarray:
    """(10,) bool: the player's hand of each pay class reaches the dealer's qualifier (every
    class where the dealer always opens). The counts keep ties by class only, so the qualifier
    must sit at the bottom of a hand category; ValueError (one line) otherwise."""
    qual = d.showdown[2]
    if qual is None:
        return np.ones(N_PAY, bool)
    from gpusim.games.described.engine import threshold

    t = threshold(qual, "poker")
    if t & ((1 << 27) - 1):
        raise refusal(d, "game.showdown.qualifier", "expected the weakest hand of a category "
                                                    "(such as 'pair'); a qualifier inside a "
                                                    "category is not counted yet")
    return np.arange(N_PAY) >= (t >> 27)


def joint_counts(sol: Solution, d) -> np.ndarray:
    """(n_codes,) int64 deals per joint code of the description's layout (path, showdown,
    class of the player's hand), from the solution's path and fold totals."""
    from gpusim.games.described.layout import layout

    lay = layout(d)
    n_sd = lay.n_showdown
    by_class = bool(lay.class_hands)
    n_cls = len(lay.class_names[lay.class_hands[0]]) if by_class else 1
    if by_class and (lay.class_hands != (d.showdown[0],) or n_cls != N_PAY):
        raise refusal(d, "game.paytables", "expected every paytable to read the player's hand "
                                           "by category")
    pq = _qualifies_by_class(d)
    index = _path_index(d)
    joint = np.zeros(lay.n_codes, np.int64)
    rows = [(took, row) for (_, took), row in zip(sol.tree.paths(), sol.paths, strict=True)]
    rows.append((sol.tree.fold_path(), sol.fold))
    for took, row in rows:
        path = index[tuple(took[p.name] for p in d.points)]
        wins, wn, t, lq = row[WINS], row[WN], row[TIES], row[LQ]
        ln = row[DEALT] - wins - t - lq
        # a hand below the qualifier ties only a dealer who does not qualify either
        per_sd = np.stack([wn, np.where(pq, 0, t), ln, wins - wn, np.where(pq, t, 0), lq])
        if not by_class:
            per_sd = per_sd.sum(axis=1, keepdims=True)
        joint[(path * n_sd) * n_cls: (path * n_sd + 6) * n_cls] += per_sd.ravel()
    if int(joint.sum()) != TOTAL_DEALS:
        raise AssertionError(f"joint counts sum to {int(joint.sum())}, not {TOTAL_DEALS}")
    return joint


def _path_index(d) -> dict[tuple[int, ...], int]:
    from gpusim.games.described.layout import layout

    return {tuple(took[p.name] for p in d.points): i
            for i, (took, _) in enumerate(layout(d).paths)}


class _Codes:
    """The layout's codes by (path, showdown, class), and the report's groups of them."""

    def __init__(self, sol: Solution, d) -> None:
        from gpusim.games.described.layout import layout

        lay = layout(d)
        self.n_sd = lay.n_showdown
        self.n_cls = len(lay.class_names[lay.class_hands[0]]) if lay.class_hands else 1
        index = _path_index(d)
        self.shown = [index[tuple(t[p.name] for p in d.points)] for _, t in sol.tree.paths()]
        self.fold = [index[tuple(sol.tree.fold_path()[p.name] for p in d.points)]]

    def cells(self, paths, sds, classes=None) -> list[int]:
        classes = range(self.n_cls) if classes is None else classes
        return [(p * self.n_sd + s) * self.n_cls + c for p in paths for s in sds
                for c in classes]

    def by_class(self) -> list[int]:
        return list(range(self.n_cls))


def _rows(lay, joint: np.ndarray, bet: str, groups: list[list[int]], returns) -> list[tuple]:
    """(name, pays, count, units, placed) per event name, in the order the names first appear
    along ``groups`` (each a list of codes) among the codes some deal reaches, then the names
    no deal reaches (a dealer who always opens never fails to qualify); an event of a bet not
    on the table pays 0."""
    ev, mult = lay.event_of[bet], lay.multiple_of[bet]
    out: dict[str, list] = {}
    codes_in_order = [c for codes in groups for c in codes]
    reached = [c for c in codes_in_order if joint[c]]
    for code in reached + [c for c in codes_in_order if not joint[c]]:
        name = lay.events[bet][ev[code]]
        on = bool(mult[code] > 0)
        row = out.setdefault(name, [Fraction(returns[ev[code]]) - 1 if on else Fraction(0),
                                    0, 0, 0])
        n = int(joint[code])
        row[1] += n
        row[2] += n * int(mult[code])
        row[3] += n if on else 0
    return [(name, *row) for name, row in out.items()]


def analyse(sol: Solution, rules, strategy: str, den: int, trips_stake: int) -> dict:
    """The report's JSON (module docstring). ``den``: the denominator of the solution's values
    (the Blind's pays); ``trips_stake``: the stake of a side bet that a fold forfeits (its
    stake is in the pre-flop values), else 0."""
    from gpusim.games.described.layout import event_returns, layout

    d = rules.game_def
    lay = layout(d)
    ante, play, blind, sides = roles(d)
    stakes = rules.stakes.as_dict()
    a = stakes[ante]
    offered = [b.name for b in d.bets if not b.side or stakes.get(b.name, 0) > 0]
    rets = event_returns(d, rules.pays())
    joint = joint_counts(sol, d)
    cx = _Codes(sol, d)
    win, nq, tie, loss = [W], [NQW, NQL], [NQT, T], [L]
    everything = list(range(6))
    groups = {
        ante: [cx.cells(cx.fold, everything), cx.cells(cx.shown, win),
               cx.cells(cx.shown, nq), cx.cells(cx.shown, tie), cx.cells(cx.shown, loss)],
        play: [cx.cells(cx.fold, everything), cx.cells(cx.shown, [W, NQW]),
               cx.cells(cx.shown, tie), cx.cells(cx.shown, [L, NQL])],
        blind: [cx.cells(cx.fold, everything)]
        + [cx.cells(cx.shown, [W, NQW], [c]) for c in cx.by_class()]
        + [cx.cells(cx.shown, tie), cx.cells(cx.shown, [L, NQL])],
    }
    for s in sides:
        if d.bet(s).requires == "beat_dealer":
            groups[s] = ([cx.cells(cx.shown, [W, NQW], [c]) for c in cx.by_class()]
                         + [cx.cells(cx.shown, [NQT, T, L, NQL], [c]) + cx.cells(
                             cx.fold, everything, [c]) for c in cx.by_class()])
        else:
            groups[s] = [cx.cells(cx.shown + cx.fold, everything, [c]) for c in cx.by_class()]
    bets = {}
    for b in offered:
        rows = _rows(lay, joint, b, groups[b], rets[b])
        if b == play:  # staked at the multiple of the path: its stake varies by round
            table = BetTable()
            for name, pays, n, units, placed in rows:
                table.add(name, pays, n, units=units, placed=placed)
            table.placed = sum(table.placed_of)
            table.staked = sum(u for *_, u in table.events)
            mult = lay.multiple_of[b]
            best = max_win_json([(lay.events[b][lay.event_of[b][c]],
                                  (Fraction(rets[b][lay.event_of[b][c]]) - 1) * int(mult[c]),
                                  int(joint[c])) for codes in groups[b][1:] for c in codes],
                                TOTAL_DEALS)
            bets[b] = bet_json(table, TOTAL_DEALS, max_win=best)
            continue
        own = d.bet(b).side
        table = BetTable(placed=TOTAL_DEALS, antes=Fraction(stakes[b], a) if own else 1)
        for name, pays, n, _, _ in rows:
            table.add(name, pays, n)
        bets[b] = bet_json(table, TOTAL_DEALS)
    main, round_net = _outcomes(lay, joint, d, rules, offered, rets, a)
    figures = main_json(main)
    return {
        "game": d.name,
        "config": rules.name,
        "strategy": strategy,
        "deals_counted": TOTAL_DEALS,
        "main": figures,
        "bets": bets,
        "max_win": round_max_json([(round_net[c], int(joint[c])) for c in np.nonzero(joint)[0]],
                                  TOTAL_DEALS, bets=offered),
        "decisions": _shares(lay, joint, d),
        "preflop": _hands(sol, d, a, den, trips_stake),
    }


def _outcomes(lay, joint: np.ndarray, d, rules, offered: list[str], rets, a: int):
    """(the main game's outcomes in money, of which the Ante is the unit; every code's round
    net over the offered bets, in Antes)."""
    stakes = rules.stakes.as_dict()
    main = MainOutcomes(unit=a)
    round_net: list[Fraction] = []
    for c in range(lay.n_codes):
        net, wager, whole = Fraction(0), 0, Fraction(0)
        for b in offered:
            m = int(lay.multiple_of[b][c])
            stake = stakes[b] if d.bet(b).side else a * m
            value = (Fraction(rets[b][lay.event_of[b][c]]) - 1) * stake if m else Fraction(0)
            whole += value
            if not d.bet(b).side:
                net += value
                wager += stake
        round_net.append(whole / a)
        if joint[c]:
            if net.denominator != 1:
                raise AssertionError("the config's stakes keep every main-game net whole")
            main.add(int(net), wager, int(joint[c]))
    return main, round_net


def _shares(lay, joint: np.ndarray, d) -> dict:
    """How often each action is taken, as a share of every deal, most committal first."""
    out = {}
    for p in d.points:
        took = lay.action_of[p.name]
        out[p.name] = {a.name: int(joint[took == i].sum()) / TOTAL_DEALS
                       for i, a in reversed(list(enumerate(p.actions)))}
    return out


def _hands(sol: Solution, d, a: int, den: int, trips_stake: int) -> dict:
    """Per starting-hand class: each pre-flop action's value per Ante per deal (a check at its
    best continuation; a side bet a fold forfeits counted in, as in the decisions) and the
    action taken."""
    from gpusim.cards import class_combos

    per_hole = TOTAL_DEALS // 1326
    actions = d.points[0].actions
    out = {}
    for k, hand in enumerate(HAND_CLASSES):
        deals = class_combos(hand) * per_hole
        # the values count the side bet's kept return; its stake is lost on every deal
        v = sol.values[k] - trips_stake * den * deals
        unit = deals * a * den
        row: dict = {f"ev_{x.name}": float(Fraction(int(v[i]), unit))
                     for i, x in enumerate(actions)}
        row["action"] = actions[int(sol.preflop[k])].name
        out[hand] = row
    return out
