"""Ultimate Texas Hold'em's exact solver: the optimal decision at all three points and the
exact report, from the enumeration's integer counts (:mod:`.exact_counts`).

Backward from the river (every value an integer, money x the Blind's pay denominator):

- river, per (5-card board class, hole): Play 1x iff it is worth more than the fold (priced
  in the enumeration itself: the river bits);
- flop, per (flop class, hole): Play 2x iff it is worth more than checking, a check being
  worth the river's best answer on each of the 1,081 turn-river boards;
- pre-flop, per starting-hand class (169): the best of check (the flop's best answer), Play 3x
  and Play 4x, summed over every flop.

Ties go to the less committal action (fold, check, 3x). Trips counts in a decision only
where a fold forfeits its win (``trips_must_beat``); otherwise it settles the same whatever
the player does. The solution is small (the three tables, the per-path outcome totals and the
169 hands' values) and is cached per dealer qualifier and prices.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from gpusim.cards import CATEGORY_KEYS, HAND_CLASSES
from gpusim.exact.boards import N_DEALER
from gpusim.exact.cache import FORMAT, atomic_savez, cache_dir, count_solver, progress_bar
from gpusim.exact.fives import HOLE_CLASS
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
from gpusim.games.ultimate_holdem.exact_counts import (
    A_BOARDS,
    A_LQ,
    A_T,
    A_WINS,
    A_WN,
    N_COUNTS,
    N_PAY,
    R_BOARDS,
    R_LQ,
    R_T,
    R_WINS,
    R_WN,
    RiverPrices,
    UthCounts,
    solve_counts,
)
from gpusim.strategy import StrategyError

__all__ = [
    "PATHS",
    "SOLVER",
    "TOTAL_DEALS",
    "Solution",
    "analyse",
    "decide",
    "prices_of",
    "qualifier_rank",
    "report",
    "solution",
    "solve",
    "solve_tables",
]

TOTAL_DEALS = 1326 * 19600 * 1081 * N_DEALER
"""Every deal: hole C(52,2) x flop C(50,3) x turn-river C(47,2) x dealer hole C(45,2)."""
PATHS = ("play_4x", "play_3x", "play_2x", "play_1x")
"""Where the Play went down: pre-flop 4x or 3x, on the flop 2x, on the river 1x (or a fold)."""
_MULTIPLE = (4, 3, 2, 1)
# per path: wins, wn, boards (10 each), t, lq; the river path's fold boards in FOLDS
_FIELDS = 3 * N_PAY + 2
_CHUNK = 64  # flop classes priced at a time (their counts as float64: 43 MB)


@dataclass(frozen=True)
class Solution:
    """The optimal strategy and what it meets.

    preflop: (169,) int8 action (0 check, 1 play_3x, 2 play_4x) by starting-hand class;
    flop: (1755, 1326) bool Play 2x; river: (134459, 1326) bool Play 1x;
    values: (169, 3) int64 summed value (money x den) of check, play_3x, play_4x per class;
    paths: (4, 32) int64 outcome totals per :data:`PATHS` entry (wins, dealer-not-qualified
    wins and boards x 990 by pay class, then ties and qualifying losses), every deal weighted;
    folds: (10,) int64 deals that fold on the river, by the player's pay class; key: what
    it was priced with.
    """

    preflop: np.ndarray
    flop: np.ndarray
    river: np.ndarray
    values: np.ndarray
    paths: np.ndarray
    folds: np.ndarray
    key: tuple

    @property
    def n_folds(self) -> int:
        return int(self.folds.sum())


# decide's per (flop, hole) sums, for every board then the boards played (:func:`_sums`)
_W, _WN, _BOARDS, _BLIND, _KEPT, _T, _LQ = range(7)
_SLICES = ((A_WINS, A_WN, A_BOARDS, A_T, A_LQ), (R_WINS, R_WN, R_BOARDS, R_T, R_LQ))


def _sum_map(prices: RiverPrices) -> np.ndarray:
    """(64, 14) float64: the linear map from a (flop, hole)'s counts to what its decisions
    weigh, for every board (columns 0..6) then the boards played (7..13): wins, wn, boards,
    the Blind's pays and the Trips kept over the wins, ties, qualifying losses."""
    m = np.zeros((N_COUNTS, 14))
    for k, (wins, wn, boards, t, lq) in enumerate(_SLICES):
        at = 7 * k
        m[wins, at + _W], m[wn, at + _WN], m[boards, at + _BOARDS] = 1, 1, 1
        m[wins, at + _BLIND], m[wins, at + _KEPT] = prices.blind, prices.kept
        m[t, at + _T], m[lq, at + _LQ] = 1, 1
    if np.abs(m).max() >= 2**32:
        raise ValueError(f"pays: {np.abs(m).max():.0f} x the Ante is not allowed in an exact "
                         "solve; pays must stay below 2**32")
    return m


def _as_float(counts: np.ndarray) -> np.ndarray:
    """(n, 64) float64 counts of a block of flops, for the sums below to go through BLAS.

    They stay exact: every partial sum is an integer below 2**53. Per (flop, hole) a count is
    at most 1,081 boards x 990 dealer hands (< 2**20), times a pay of at most 2**32
    (:func:`_sum_map` checks it); over all flops with their weights the counts add up to at
    most the 2.8 x 10**13 deals (< 2**45)."""
    return counts.reshape(-1, N_COUNTS).astype(np.float64)


def _sums(c: np.ndarray, m: np.ndarray) -> np.ndarray:
    return np.rint(c @ m).astype(np.int64)


def _value(prices: RiverPrices, mult: int, x: np.ndarray) -> np.ndarray:
    """Value (money x den) of Play ``mult`` x over sums (..., 7) as :func:`_sum_map` gives."""
    wins, wn, boards, t, lq = (x[..., i] for i in (_W, _WN, _BOARDS, _T, _LQ))
    ln = N_DEALER * boards - wins - t - lq
    return prices.raised(mult, wins, wn, lq, ln, x[..., _BLIND]) + x[..., _KEPT]


def decide(counts: UthCounts, prices: RiverPrices) -> Solution:
    """The optimal flop and pre-flop decisions over the counts (whose river bits were priced
    with the same ``prices``), and the outcome totals of the strategy."""
    n_flops = len(counts.weights)
    flop = np.zeros((n_flops, 1326), dtype=bool)
    per_hole = np.zeros((3, 1326), dtype=np.int64)  # weighted sums: best flop answer, 3x, 4x
    m = _sum_map(prices)
    for a in range(0, n_flops, _CHUNK):
        part = slice(a, a + _CHUNK)
        x = _sums(_as_float(counts.counts[part]), m).reshape(-1, 1326, 14)
        every, played = x[..., :7], x[..., 7:]
        w = counts.weights[part, None]
        fold_boards = every[..., _BOARDS] - played[..., _BOARDS]
        check = _value(prices, 1, played) + prices.fold(N_DEALER * fold_boards)
        bet2 = _value(prices, 2, every)
        flop[part] = (bet2 > check) & counts.valid[part]
        per_hole[0] += (w * np.maximum(bet2, check)).sum(axis=0)
        per_hole[1] += (w * _value(prices, 3, every)).sum(axis=0)
        per_hole[2] += (w * _value(prices, 4, every)).sum(axis=0)
    values = np.zeros((169, 3), dtype=np.int64)
    for k in range(3):
        np.add.at(values[:, k], HOLE_CLASS, per_hole[k])
    preflop = np.argmax(values, axis=1).astype(np.int8)  # the first of equal values
    paths, folds = _path_totals(counts, preflop, flop)
    return Solution(preflop=preflop, flop=flop, river=counts.river, values=values,
                    paths=paths, folds=folds, key=counts.key)


def _path_totals(counts: UthCounts, preflop: np.ndarray, flop: np.ndarray):
    """(4, 32) outcome totals per path and (10,) the river folds by pay class, each deal
    counted once."""
    pre = preflop[HOLE_CLASS]  # (1326,) the action of every hole
    total = np.zeros((4, N_COUNTS), dtype=np.int64)  # per path, the deal-weighted counts
    checked = pre[None, :] == 0
    for a in range(0, len(counts.weights), _CHUNK):
        part = slice(a, a + _CHUNK)
        c = _as_float(counts.counts[part])
        w = counts.weights[part, None] * counts.valid[part]
        masks = (pre[None, :] == 2, pre[None, :] == 1, checked & flop[part],
                 checked & ~flop[part])
        for p, mask in enumerate(masks):
            total[p] += _sums((w * mask).reshape(-1).astype(np.float64), c)
    out = np.zeros((4, _FIELDS), dtype=np.int64)
    for p in range(4):
        wins, wn, boards, t, lq = _SLICES[p == 3]
        out[p] = np.concatenate([total[p, wins], total[p, wn], total[p, boards] * N_DEALER,
                                 total[p, [t, lq]]])
    folds = (total[3, A_BOARDS] - total[3, R_BOARDS]) * N_DEALER
    return out, folds


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
    for p, m in enumerate(_MULTIPLE):
        row = sol.paths[p]
        wins, wn = row[:N_PAY], row[N_PAY : 2 * N_PAY]
        t, lq = int(row[3 * N_PAY]), int(row[3 * N_PAY + 1])
        ln = int(row[2 * N_PAY : 3 * N_PAY].sum() - wins.sum() - t - lq)
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
    wins_c = sol.paths[:, :N_PAY].sum(0)
    wn_all = int(sol.paths[:, N_PAY : 2 * N_PAY].sum())
    t_all, lq_all = int(sol.paths[:, 3 * N_PAY].sum()), int(sol.paths[:, 3 * N_PAY + 1].sum())
    shown = int(sol.paths[:, 2 * N_PAY : 3 * N_PAY].sum())  # deals that reach the showdown
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
    for p, m in enumerate(_MULTIPLE):
        row = sol.paths[p]
        wins = int(row[:N_PAY].sum())
        t = int(row[3 * N_PAY])
        rows += [("win", m, wins), ("tie", 0, t),
                 ("loss", -m, int(row[2 * N_PAY : 3 * N_PAY].sum()) - wins - t)]
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
    for p, m in enumerate(_MULTIPLE):
        row = sol.paths[p]
        wins, wn = row[:N_PAY], row[N_PAY : 2 * N_PAY]
        dealt = row[2 * N_PAY : 3 * N_PAY]
        t, lq = int(row[3 * N_PAY]), int(row[3 * N_PAY + 1])
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
    dealt = sol.paths[:, 2 * N_PAY : 3 * N_PAY].sum(0) + sol.folds  # every deal, by class
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
    n = [int(sol.paths[p, 2 * N_PAY : 3 * N_PAY].sum()) for p in range(4)]
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


def solve(qualifier: int, prices: RiverPrices, *, progress: bool = True,
          backend: str = "cpu") -> Solution:
    """The solution for a qualifier and prices: cached, else enumerated now and cached."""
    key = (qualifier, prices.key())
    path = cache_dir() / _cache_name(key)
    if path.is_file():
        with np.load(path) as z:
            n5 = tuple(z["river_shape"])
            return Solution(preflop=z["preflop"], flop=z["flop"],
                            river=np.unpackbits(z["river"], count=int(np.prod(n5)))
                            .astype(bool).reshape(n5),
                            values=z["values"], paths=z["paths"], folds=z["folds"],
                            key=key)
    update, stop = progress_bar("Ultimate Texas Hold'em: flop classes") if progress else (
        None, None)
    try:
        counts = count_solver(solve_counts, _no_gpu, backend)(qualifier, prices,
                                                              progress=update)
    finally:
        if stop:
            stop()
    sol = decide(counts, prices)
    atomic_savez(path, level=1, preflop=sol.preflop, flop=sol.flop,
                 river=np.packbits(sol.river), river_shape=np.array(sol.river.shape),
                 values=sol.values, paths=sol.paths, folds=sol.folds)
    return sol


def _cache_name(key: tuple) -> str:
    return f"uth_solution_{hashlib.sha256(repr(key).encode()).hexdigest()[:16]}_v{FORMAT}.npz"


def _no_gpu():
    raise ValueError("backend 'cupy': Ultimate Texas Hold'em's exact counts run on the CPU "
                     "only; use --backend cpu")


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
    return solve(qualifier_rank(rules), prices_of(rules), progress=progress, backend=backend)


def solution_file(rules) -> str:
    """The cache file of the config's solution."""
    return _cache_name((qualifier_rank(rules), prices_of(rules).key()))


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
