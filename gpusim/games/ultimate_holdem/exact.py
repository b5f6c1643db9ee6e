"""Ultimate Texas Hold'em's exact report: the play-once hold'em solver
(:mod:`gpusim.games.holdem.play_once`) with this game's multiples (4x or 3x pre-flop, 2x on
the flop, 1x on the river), and the report in this game's event names (:mod:`.events`).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from gpusim.cards import CATEGORY_KEYS, HAND_CLASSES
from gpusim.exact.boards import N_DEALER
from gpusim.exact.report import (
    BetTable,
    MainOutcomes,
    bet_json,
    main_json,
    max_win_json,
    round_max_json,
)
from gpusim.exact.solver import ExactSolver
from gpusim.games.base import qualifier_threshold
from gpusim.games.holdem.play_once import (
    DEALT,
    LQ,
    TIES,
    TOTAL_DEALS,
    WINS,
    WN,
    Solution,
    cache_name,
    solve,
)
from gpusim.games.holdem.play_once_counts import N_PAY, RiverPrices
from gpusim.games.holdem.play_once_shape import PlayTree
from gpusim.strategy import StrategyError

__all__ = [
    "SOLVER",
    "TOTAL_DEALS",
    "TREE",
    "analyse",
    "prices_of",
    "qualifier_rank",
    "report",
    "solution",
    "solve_tables",
]

TREE = PlayTree(preflop=((1, 3), (2, 4)), flop=(1, 2), river=(1, 1))
"""Play 4x or 3x pre-flop (actions 2 and 1, 0 checks), 2x on the flop, 1x on the river."""


def _row(row: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int]:
    """(wins, wn, dealt) by pay class and the ties and qualifying losses of a path's row."""
    return row[WINS], row[WN], row[DEALT], int(row[TIES].sum()), int(row[LQ].sum())


# --- the report ----------------------------------------------------------------------------------


def analyse(sol: Solution, rules, strategy: str) -> dict:
    """The exact report (JSON-able, docs/exact.md) of the solution's strategy under ``rules``
    (the events are the game's own, :mod:`.events`). Every event carries its integer count of
    deals; the Play's stake varies by round (4x, 3x, 2x or 1x the Ante), so its rows count the
    Antes staked and its maximum win is taken per path (:func:`_play_max`); the round's maximum
    over every bet is :func:`_round_max`."""
    prices = prices_of(rules)
    blind = _blind_pays(rules)
    a = prices.ante
    main = MainOutcomes(unit=a)
    play = BetTable()  # its stake varies: placed, staked and the maximum are set below
    play_rows: dict[str, list] = {}
    for p, m in enumerate(sol.multiples):
        wins, wn, dealt, t, lq = _row(sol.paths[p])
        ln = int(dealt.sum() - wins.sum() - t - lq)
        for c in range(N_PAY):
            bonus = blind[c] * a  # whole: the config's stakes keep every pay whole
            main.add(int(a * (m + 1) + bonus), a * (m + 2), int(wins[c] - wn[c]))
            main.add(int(a * m + bonus), a * (m + 2), int(wn[c]))
        main.add(0, a * (m + 2), t)
        main.add(-a * (m + 2), a * (m + 2), lq)
        main.add(-a * (m + 1), a * (m + 2), ln)
        for event, pays, n in (("win", 1, int(wins.sum())), ("tie", 0, t),
                               ("loss", -1, lq + ln)):
            play_rows.setdefault(event, [event, pays, 0, 0])
            play_rows[event][2] += n
            play_rows[event][3] += n * m  # units of the Ante staked
    main.add(-2 * a, 2 * a, sol.n_folds)
    play.add("fold", 0, sol.n_folds, placed=0)
    for event, pays, n, units in play_rows.values():
        play.add(event, pays, n, units=units)
    play.placed = sum(play.placed_of)
    play.staked = sum(u for *_, u in play.events)
    wins_c = sol.paths[:, WINS].sum(0)
    wn_all = int(sol.paths[:, WN].sum())
    t_all, lq_all = int(sol.paths[:, TIES].sum()), int(sol.paths[:, LQ].sum())
    shown = int(sol.paths[:, DEALT].sum())  # deals that reach the showdown
    ln_all = shown - int(wins_c.sum()) - t_all - lq_all
    ante = BetTable(placed=TOTAL_DEALS, antes=1)
    ante.add("fold", -1, sol.n_folds)
    ante.add("win", 1, int(wins_c.sum()) - wn_all)
    ante.add("dealer_not_qualified", 0, wn_all + ln_all)
    ante.add("tie", 0, t_all)
    ante.add("loss", -1, lq_all)
    blind_t = BetTable(placed=TOTAL_DEALS, antes=Fraction(rules.stakes["blind"], a))
    blind_t.add("fold", -1, sol.n_folds)
    for c, key in enumerate(CATEGORY_KEYS):
        blind_t.add(f"win:{key}", blind[c], int(wins_c[c]))
    blind_t.add("tie", 0, t_all)
    blind_t.add("loss", -1, lq_all + ln_all)
    bets = {"ante": bet_json(ante, TOTAL_DEALS), "blind": bet_json(blind_t, TOTAL_DEALS),
            "play": bet_json(play, TOTAL_DEALS, max_win=max_win_json(_play_max(sol),
                                                                     TOTAL_DEALS))}
    if rules.stakes["trips"] > 0:
        bets["trips"] = _trips_json(sol, rules, wins_c)
    figures = main_json(main)
    figures["hit_frequency"] = sum(cnt for net, _, cnt in main.rows if net > 0) / TOTAL_DEALS
    return {
        "game": rules.game,
        "config": rules.name,
        "strategy": strategy,
        "deals_counted": TOTAL_DEALS,
        "main": figures,
        "bets": bets,
        "max_win": _round_max(sol, rules, main),
        "decisions": _shares(sol),
        "preflop": _hands(sol, prices),
    }


def _play_max(sol: Solution) -> list[tuple[str, int, int]]:
    """(event, the Play's net in Antes, deals) per path: its wins, ties and losses at the
    path's multiple (the rows :func:`gpusim.exact.report.max_win_json` reads)."""
    rows = []
    for p, m in enumerate(sol.multiples):
        wins_c, _, dealt, t, _ = _row(sol.paths[p])
        wins = int(wins_c.sum())
        rows += [("win", m, wins), ("tie", 0, t), ("loss", -m, int(dealt.sum()) - wins - t)]
    return rows


def _round_max(sol: Solution, rules, main: MainOutcomes) -> dict:
    """The report's ``max_win``: the largest net win of one round over every bet offered.

    Per path the counts give the wins and the folds by the player's pay class, so there the
    Trips' pay is known; a tie or a loss is counted by class only in total. Where Trips must
    beat the dealer those lose it whatever the class; otherwise the best Trips pay among the
    classes they hold bounds them. The maximum is exact when every bounded row stays below it;
    else (never with the shipped pays: a tie nets at most the Trips' top pay, a royal flush
    win far more) only the main game's maximum is given, with the scope saying so.
    """
    bets = ["ante", "blind", "play"]
    a = prices_of(rules).ante
    blind = _blind_pays(rules)
    stake = rules.stakes["trips"]
    offered = stake > 0
    tp = [Fraction(int(x) * stake, a) if offered else Fraction(0) for x in _trips_pays(rules)]
    lose = -Fraction(stake, a)
    must = bool(rules.trips_must_beat)
    exact: list[tuple[Fraction, int]] = []
    bounds: list[Fraction] = []
    for p, m in enumerate(sol.multiples):
        wins, wn, dealt, t, lq = _row(sol.paths[p])
        ln = int(dealt.sum() - wins.sum() - t - lq)
        for c in range(N_PAY):
            exact.append(((m + 1) + blind[c] + tp[c], int(wins[c] - wn[c])))
            exact.append((m + blind[c] + tp[c], int(wn[c])))
        others = [(Fraction(0), t), (Fraction(-(m + 2)), lq), (Fraction(-(m + 1)), ln)]
        if must or not offered:
            exact += [(net + (lose if offered else 0), n) for net, n in others]
        else:
            held = [tp[c] for c in range(N_PAY) if dealt[c] - wins[c] > 0]
            bounds += [net + max(held) for net, n in others if n > 0]
    for c in range(N_PAY):
        exact.append((-2 + (lose if must else tp[c]), int(sol.folds[c])))
    if offered:
        bets.append("trips")
    found = round_max_json(exact, TOTAL_DEALS, bets=bets)
    if any(b >= Fraction(found["antes"]) for b in bounds):
        return round_max_json(main.nets(), TOTAL_DEALS, bets=bets[:3], excluded={
            "trips": "a tie or loss is counted by the player's hand class only in total, and "
                     "its best Trips pay reaches the maximum"})
    return found


def _trips_json(sol: Solution, rules, wins: np.ndarray) -> dict:
    """Trips by the player's final hand (every deal); with ``trips_must_beat`` only the hands
    that beat the dealer in a round played to the showdown are paid."""
    dealt = sol.paths[:, DEALT].sum(0) + sol.folds  # every deal, by class
    pays = _trips_pays(rules)
    table = BetTable(placed=TOTAL_DEALS, antes=Fraction(rules.stakes["trips"],
                                                        prices_of(rules).ante))
    if not rules.trips_must_beat:
        for c, key in enumerate(CATEGORY_KEYS):
            table.add(key, int(pays[c]), int(dealt[c]))
        return bet_json(table, TOTAL_DEALS)
    for c, key in enumerate(CATEGORY_KEYS):
        table.add(f"beat:{key}", int(pays[c]), int(wins[c]))
    for c, key in enumerate(CATEGORY_KEYS):
        table.add(f"no_beat:{key}", -1, int(dealt[c] - wins[c]))
    return bet_json(table, TOTAL_DEALS)


def _shares(sol: Solution) -> dict:
    """How often each action is taken, as a share of every deal (a point not reached counts
    in neither of its actions)."""
    n = [int(sol.paths[p, DEALT].sum()) for p in range(4)]
    river = n[3] + sol.n_folds
    t = TOTAL_DEALS
    return {
        "preflop": {"play_4x": n[0] / t, "play_3x": n[1] / t, "check": (n[2] + river) / t},
        "flop": {"play_2x": n[2] / t, "check": river / t},
        "river": {"play_1x": n[3] / t, "fold": sol.n_folds / t},
    }


def _hands(sol: Solution, prices: RiverPrices) -> dict:
    """Per starting-hand class: each pre-flop action's value per Ante per deal (check at its
    best continuation; with ``trips_must_beat`` the Trips net is in it, as in the decisions)
    and the action taken."""
    from gpusim.cards import class_combos

    per_hole = 19600 * 1081 * N_DEALER
    out = {}
    for k, hand in enumerate(HAND_CLASSES):
        deals = class_combos(hand) * per_hole
        # the values count Trips' kept return; its stake is lost on every deal
        v = sol.values[k] - prices.trips * prices.den * deals
        den = deals * prices.ante * prices.den
        out[hand] = {"ev_check": float(Fraction(int(v[0]), den)),
                     "ev_play_3x": float(Fraction(int(v[1]), den)),
                     "ev_play_4x": float(Fraction(int(v[2]), den)),
                     "action": ("check", "play_3x", "play_4x")[int(sol.preflop[k])]}
    return out


# --- the solver: cache, tables, reports -------------------------------------------------------


def _blind_pays(rules) -> list[Fraction]:
    """Blind pay per pay class (0: a push below its lowest line)."""
    table = rules.blind_paytable
    return [Fraction(table[k]) if k in table else Fraction(0) for k in CATEGORY_KEYS]


def _trips_pays(rules) -> np.ndarray:
    """(10,) int64 Trips pay per pay class, -1 where it loses."""
    table = rules.trips_paytable
    return np.array([table[k] if table is not None and k in table else -1
                     for k in CATEGORY_KEYS], dtype=np.int64)


def prices_of(rules) -> RiverPrices:
    """What the config's decisions weigh (:class:`RiverPrices`)."""
    blind = _blind_pays(rules)
    den = math.lcm(*(p.denominator for p in blind))
    trips = rules.stakes["trips"] if rules.trips_must_beat else 0
    return RiverPrices(rules.stakes.ante, den, [int(p * den) for p in blind], trips,
                       _trips_pays(rules))


def qualifier_rank(rules) -> int:
    """The lowest qualifying dealer rank (the settlement's own threshold)."""
    return int(qualifier_threshold(rules.dealer_qualifier))


def solution(rules, *, progress: bool = True, backend: str = "cpu") -> Solution:
    """The config's optimal solution (cached per qualifier and prices)."""
    return solve(qualifier_rank(rules), prices_of(rules), TREE,
                 progress="Ultimate Texas Hold'em: flop classes" if progress else None,
                 backend=backend)


def solution_file(rules) -> str:
    """The cache file of the config's solution."""
    return cache_name(qualifier_rank(rules), prices_of(rules), TREE)


def solve_tables(rules, progress: bool, backend: str = "cpu") -> dict[str, np.ndarray]:
    """The ``optimal`` decision tables: ``preflop`` (169, 3) one-hot, ``flop`` (1755, 1326),
    ``river`` (134459, 1326)."""
    sol = solution(rules, progress=progress, backend=backend)
    return {"preflop/optimal": np.eye(3, dtype=bool)[sol.preflop],
            "flop/optimal": sol.flop, "river/optimal": sol.river}


def report(rules, strategy, *, progress: bool, backend: str) -> dict:
    """The exact report of the ``optimal`` strategy; a rule strategy's river decisions would
    have to be applied to all 178 million (board class, hole) situations first, which this
    solver does not do (simulate it instead)."""
    name = strategy if isinstance(strategy, str) else getattr(strategy, "name", str(strategy))
    if name != "optimal":
        raise StrategyError(f"strategy {name!r}: the exact report of Ultimate Texas Hold'em is "
                         f"available for 'optimal' only; simulate {name!r} instead")
    return analyse(solution(rules, progress=progress, backend=backend), rules, name)


SOLVER = ExactSolver(
    counts=solution,
    counts_file=solution_file,
    solve_tables=solve_tables,
    report=report,
    rule_strategies_are_slow=True,
)
