"""Texas Hold'em Bonus, priced: the exact report from the enumeration counts of
:mod:`gpusim.games.holdem.streets_counts`, the side bets' return tables, and the game's
exact solver (:data:`SOLVER`: cached counts, decision tables, reports)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np

from gpusim.cards import CATEGORY_KEYS
from gpusim.exact.cache import (
    representative_rounds,
)
from gpusim.exact.report import (
    BetTable,
    MainOutcomes,
    bet_json,
    main_json,
    max_win_json,
    round_max_json,
    table_max_rows,
)
from gpusim.exact.solver import ExactSolver
from gpusim.games import spec_for
from gpusim.games.holdem import streets_cache
from gpusim.games.holdem.streets_cache import CACHE_LEVEL
from gpusim.games.holdem.streets_counts import (
    CLASS_COMBOS,
    THB_TOTAL_DEALS,
    RiverCounts,
    TurnPass,
    pay_class,
    preflop_ev,
    river_rule,
    turn_pass,
)
from gpusim.games.holdem_bonus.rules import JACKPOT_LINES
from gpusim.strategy.tables import stored_tables

__all__ = [
    "CACHE_LEVEL",
    "SOLVER",
    "analyse",
    "bonus_table",
    "cached_counts",
    "five_card_class_counts",
    "jackpot_table",
    "strategy_tables",
]


_CLASS_NAMES = CATEGORY_KEYS  # hand classes low to high, royal flush last


def analyse(
    river: RiverCounts, tp: TurnPass, preflop_bet: np.ndarray, rules, strategy: str
) -> dict:
    """The exact report (JSON-able dict, see docs/exact.md).

    preflop_bet: (169,) bool, bet the flop with each starting-hand class (HAND_CLASSES order).
    Every event carries its integer count of deals (the side bets' own tables, counted over
    fewer cards, carried to every deal); a street bet's fold and check rows are off the table.
    The round's maximum win is counted jointly where the counts allow (:func:`_round_max`).
    """
    from gpusim.cards import HAND_CLASSES

    total = THB_TOTAL_DEALS
    num, den = preflop_ev(tp.joint)
    p = np.asarray(preflop_bet, dtype=bool)
    j = tp.joint[p].sum(axis=0)  # (2, 2, 4) over the classes that bet
    folds = int(den[~p].sum())
    played = int(den[p].sum())
    wins_nopay, wins_pay, ties, losses = (int(j[..., k].sum()) for k in range(4))

    ante = BetTable(placed=total, antes=1)
    ante.add("fold", -1, folds)
    cw = river.class_wins[p].sum(axis=0) * 4  # 4 (flop, turn) orders per (4-card set, river)
    for c in range(9, -1, -1):
        if cw[c]:
            ante.add(f"win:{_CLASS_NAMES[c]}", 1 if c >= river.ante_from else 0, int(cw[c]))
    ante.add("tie", 0, ties)
    ante.add("loss", -1, losses)

    # stake units in Antes (the Flop bet is 2 x the Ante), as a described game's bets count them
    flop = BetTable(placed=played, staked=_FLOP * played, antes=_FLOP)
    flop.add("fold", 0, folds, placed=0)
    flop.add("win", 1, wins_nopay + wins_pay, units=_FLOP * (wins_nopay + wins_pay))
    flop.add("tie", 0, ties, units=_FLOP * ties)
    flop.add("loss", -1, losses, units=_FLOP * losses)

    def street(axis: int) -> BetTable:
        sel = j[1] if axis == 0 else j[:, 1]
        t = BetTable(placed=int(sel.sum()), antes=1)
        t.add("fold", 0, folds, placed=0)
        t.add("check", 0, played - int(sel.sum()), placed=0)
        t.add("win", 1, int(sel[..., 0].sum() + sel[..., 1].sum()))
        t.add("tie", 0, int(sel[..., 2].sum()))
        t.add("loss", -1, int(sel[..., 3].sum()))
        return t

    main = MainOutcomes()
    main.add(-1, 1, folds)
    for tb in (0, 1):
        for rb in (0, 1):
            k = 2 + tb + rb
            main.add(k, k + 1, int(j[tb, rb, 0]))
            main.add(k + 1, k + 1, int(j[tb, rb, 1]))
            main.add(0, k + 1, int(j[tb, rb, 2]))
            main.add(-(k + 1), k + 1, int(j[tb, rb, 3]))

    bets = {
        "ante": bet_json(ante, total),
        "flop": bet_json(flop, total),
        "turn": bet_json(street(0), total),
        "river": bet_json(street(1), total),
    }
    extra = {}
    if rules.bonus_paytable is not None:
        bets["bonus"] = bet_json(_every_deal(bonus_table(rules)), total)
    if rules.jackpot is not None:
        jt, info = jackpot_table(rules, river)
        del info["_total"]
        bets["jackpot"] = _jackpot_json(_every_deal(jt), rules)
        extra["jackpot"] = info
    turn_bets = int(j[1].sum())
    river_bets = int(j[:, 1].sum())
    out = {
        "game": "holdem_bonus",
        "config": rules.name,
        "strategy": strategy,
        "deals_counted": total,
        "main": main_json(main),
        "bets": bets,
        "max_win": _round_max(tp, p, den, rules, main),
        "decisions": {
            "flop": {"bet": played / total, "fold": folds / total},
            "turn": {"bet": turn_bets / total, "check": (played - turn_bets) / total},
            "river": {"bet": river_bets / total, "check": (played - river_bets) / total},
        },
        "preflop": {
            HAND_CLASSES[k]: {
                "ev_bet": float(num[k] / den[k]),
                "action": "bet" if p[k] else "fold",
            }
            for k in range(169)
        },
    }
    out.update(extra)
    return out


_FLOP = 2
"""The Flop bet's stake in Antes (the Turn and River bets are 1 x the Ante)."""
_MAIN_BETS = ["ante", "flop", "turn", "river"]


def _every_deal(table: BetTable) -> BetTable:
    """A side bet's table counted over its own cards (the holes, or the five or seven cards
    it reads), carried to every deal of the game: each of its deals extends to the same number
    of full deals."""
    k, rest = divmod(THB_TOTAL_DEALS, table.placed)
    assert rest == 0, "a side bet's deals must divide the game's"
    return table.scaled(k)


def _jackpot_json(table: BetTable, rules) -> dict:
    """The Jackpot's return table; its maximum win over the fixed prizes only (the royal flush
    wins the progressive meter, whose value no fixed pay gives)."""
    unit = Fraction(rules.stakes["jackpot"], rules.stakes.ante)
    rows = table_max_rows(replace(table, antes=unit))
    mw = max_win_json([r for r in rows if r[0] != "royal_flush"], THB_TOTAL_DEALS)
    if mw is not None:
        mw["excluded_events"] = ["royal_flush"]
        mw["note"] = ("the royal flush wins the progressive meter, which has no fixed pay; "
                      "the maximum is over the fixed prizes")
    return bet_json(table, THB_TOTAL_DEALS, max_win=mw)


def _round_max(tp: TurnPass, p: np.ndarray, den: np.ndarray, rules,
               main: MainOutcomes) -> dict:
    """The report's ``max_win``: the largest net win of one round, in Antes.

    The joint counts are per starting-hand class (``tp.joint``), so a Bonus that pays on the
    hole cards' class alone is counted with the main game exactly. The Bonus's AA-vs-dealer-AA
    line also reads the dealer's hole cards, and the Jackpot the player's five or seven
    cards, neither of which the counts split by the main game's outcome: with either offered,
    the maximum is the main game's alone, and the report says so.
    """
    from gpusim.cards import HAND_CLASSES
    from gpusim.games.holdem_bonus.rules import BONUS_LINE_CLASSES

    excluded = {}
    bonus = rules.bonus_paytable
    if bonus is not None and "AA_vs_dealer_AA" in bonus:
        excluded["bonus"] = ("its AA-vs-dealer-AA line reads the dealer's hole cards, which the "
                             "counts do not split by the main game's outcome")
    if rules.jackpot is not None:
        excluded["jackpot"] = ("its prizes read the player's final hand, which the counts do "
                               "not split by the bets made; its royal flush pays the meter")
    if excluded:
        return round_max_json(main.nets(), THB_TOTAL_DEALS, bets=_MAIN_BETS, excluded=excluded)
    side = [Fraction(0)] * 169
    bets = list(_MAIN_BETS)
    if bonus is not None:
        unit = Fraction(rules.stakes["bonus"], rules.stakes.ante)
        side = [-unit] * 169
        for line, classes in BONUS_LINE_CLASSES.items():
            for c in classes:
                side[HAND_CLASSES.index(c)] = bonus[line] * unit
        bets.append("bonus")
    rows: list[tuple[Fraction, int]] = []
    for k in range(169):
        if not p[k]:
            rows.append((-1 + side[k], int(den[k])))
            continue
        for tb in (0, 1):
            for rb in (0, 1):
                n = 2 + tb + rb  # Antes on the table beside the Ante: Flop 2, Turn, River
                jk = tp.joint[k, tb, rb]
                rows += [(n + side[k], int(jk[0])), (n + 1 + side[k], int(jk[1])),
                         (side[k], int(jk[2])), (-(n + 1) + side[k], int(jk[3]))]
    assert sum(c for _, c in rows) == THB_TOTAL_DEALS
    return round_max_json(rows, THB_TOTAL_DEALS, bets=bets)


def bonus_table(rules) -> BetTable:
    """Bonus side bet: every (player hole, dealer hole) pair, C(52,2) x C(50,2) deals."""
    from gpusim.cards import HAND_CLASSES
    from gpusim.games.holdem_bonus.rules import BONUS_LINE_CLASSES

    table = rules.bonus_paytable
    per = 1225  # dealer hands per player hole
    t = BetTable(placed=1326 * per, antes=Fraction(rules.stakes["bonus"], rules.stakes.ante))
    paid = 0
    if "AA_vs_dealer_AA" in table:
        # 6 player AA; the dealer holds the other two aces in 1 of 1,225 hands
        t.add("AA_vs_dealer_AA", table["AA_vs_dealer_AA"], 6)
        t.add("AA", table["AA"], 6 * per - 6)
        paid += 6 * per
    for line, classes in BONUS_LINE_CLASSES.items():
        if line == "AA" and "AA_vs_dealer_AA" in table:
            continue
        n = sum(int(CLASS_COMBOS[HAND_CLASSES.index(c)]) for c in classes) * per
        t.add(line, table[line], n)
        paid += n
    t.add("other", -1, 1326 * per - paid)
    return t


def jackpot_table(rules, river: RiverCounts) -> tuple[BetTable, dict]:
    """Jackpot side bet return table and its meter dependence.

    Fixed prizes are "X for 1" (net X - 1). The royal row's pay is the long-run average prize
    per unit stake: the reset value plus every contribution paid back, i.e.
    reset / stake + contribution / P(royal); the meter-dependent RTP is
    fixed_prize_rtp + P(royal) x meter / stake.
    """
    jp = rules.jackpot
    stake = rules.stakes["jackpot"]
    if jp.cards == "hole_and_flop":
        counts = five_card_class_counts()
    else:
        counts = river.class_hands.sum(axis=0)
    total = int(counts.sum())
    p_royal = Fraction(int(counts[9]), total)
    lines = {CATEGORY_KEYS.index(line): line for line in JACKPOT_LINES}
    fixed = Fraction(0)
    t = BetTable(placed=total)
    contribution = jp.contribution_rate
    royal_pay = Fraction(jp.reset, stake) + contribution / p_royal
    t.add("royal_flush", royal_pay - 1, int(counts[9]))
    paid = int(counts[9])
    for c, line in lines.items():
        x = jp.prizes[line]
        t.add(line, x - 1, int(counts[c]))
        fixed += Fraction(x * int(counts[c]), total)
        paid += int(counts[c])
    t.add("no_win", -1, total - paid)
    fixed_rtp = float(fixed)
    per_meter = p_royal / stake  # RTP added per money unit on the meter
    info = {
        "cards": jp.cards,
        "fixed_prize_rtp": fixed_rtp,
        "p_royal": float(p_royal),
        "contribution_rate": float(contribution),
        "reset": jp.reset,
        "stake": stake,
        "rtp_per_meter_unit": float(per_meter),
        "rtp_at_reset_meter": float(fixed + per_meter * jp.reset),
        "long_run_rtp": float(fixed + per_meter * jp.reset + contribution),
        "break_even_meter": float((1 - fixed) / per_meter),
        "rtp_at_meter": [
            {"meter": m, "rtp": float(fixed + per_meter * m)}
            for m in sorted({jp.reset, *(stake * x for x in (10_000, 50_000, 100_000, 200_000,
                                                              500_000, 1_000_000))})
        ],
        "long_run_rtp_by_contribution": [
            {"contribution_rate": c / 100, "long_run_rtp": float(
                fixed + per_meter * jp.reset + Fraction(c, 100))}
            for c in range(0, 75, 5)
        ],
        "_total": total,
    }
    return t, info


def five_card_class_counts() -> np.ndarray:
    """(10,) int64 five-card hands by pay class over all C(52, 5)."""
    from gpusim.board_index import subsets
    from gpusim.exact.boards import rank_hands

    ranks = rank_hands(subsets(5))
    return np.bincount(pay_class(ranks), minlength=10).astype(np.int64)


# --- the solver: cached counts, decision tables, reports ------------------------------------------


def _ante_from(rules) -> int:
    return CATEGORY_KEYS.index(rules.ante_pays_from)


def stored_or_solved(rules, backend: str) -> dict[str, np.ndarray]:
    """The config's stored decision tables, else solved now from its counts."""
    return stored_tables(rules) or solve_tables(rules, False, backend)


def cached_counts(rules, *, progress: bool = True, backend: str = "cpu"):
    """Texas Hold'em Bonus stage-1 counts for the config's ``ante_pays_from`` (cached)."""
    return streets_cache.cached_counts(rules.ante_pays_from, progress=progress, backend=backend)


def counts_file(rules) -> str:
    """The cache file of the config's river counts (they depend on ``ante_pays_from`` alone)."""
    return streets_cache.counts_file(rules.ante_pays_from)


def solve_tables(rules, progress: bool, backend: str = "cpu") -> dict[str, np.ndarray]:
    """Every table strategy's decision tables (unpacked bool arrays)."""
    river = cached_counts(rules, progress=progress, backend=backend)
    out = {}
    for name, rule in (("optimal", "optimal"), ("win-over-half-ev", "over_half")):
        rb = river_rule(river, rule)
        tp = turn_pass(river, rb, rule)
        num, den = preflop_ev(tp.joint)
        out[f"preflop/{name}"] = num > -den
        out[f"turn/{name}"] = tp.turn
        out[f"river/{name}"] = rb
    return out


def strategy_tables(rules, strategy: str, river, *, backend: str = "cpu"):
    """(preflop (169,), turn (1755, 1326), river (16432, 1326)) bool tables of a strategy.

    Table strategies come from :func:`decision_tables`; any other registered strategy's
    decide() is applied to one representative per class (the flop decision per starting-hand
    class, the turn per (flop class, hole), the river per (4-card board class, hole) with the
    lowest card of the board as the turn card). This is exact for strategies that, like every
    rule list shipped, depend on the cards seen up to suit relabelling and on the 4-card board
    as a set.
    """
    if strategy in spec_for(rules).table_strategies:
        t = stored_or_solved(rules, backend)
        return t[f"preflop/{strategy}"], t[f"turn/{strategy}"], t[f"river/{strategy}"]
    from gpusim.board_index import board_classes, subsets
    from gpusim.cards import HAND_CLASSES, class_members
    from gpusim.games.strategy_registry import get_strategy
    from gpusim.strategy.tree import taken

    strat = get_strategy(strategy, rules)
    reps = np.array([class_members(c)[0] for c in HAND_CLASSES], dtype=np.int32)
    filler = representative_rounds(reps, np.zeros((169, 0), dtype=np.int32), n_board=0)
    pre = np.asarray(strat.decide(filler)["flop"], dtype=bool)
    if strategy == "win-over-half":
        # the game engine's seed-000 rule counts P(win) per round (too slow to apply to every
        # class); its Turn/River rule is exactly the over-half tables, its flop rule its own
        t = stored_or_solved(rules, backend)
        return pre, t["turn/win-over-half-ev"], t["river/win-over-half-ev"]
    holes = subsets(2).astype(np.int32)
    b3 = board_classes(3)
    meets = (holes[None, :, :, None] == b3.reps[:, None, None, :]).any(axis=(2, 3))
    rows, hs = np.nonzero(~meets)
    def bets(rounds, point):
        # a bet where the round reached the point (no Turn or River bet after a flop fold)
        took = taken(spec_for(rules).decisions,
                     {k: np.asarray(v).astype(np.int32) for k, v in strat.decide(rounds).items()})
        return took[point] == 1

    turn = np.zeros((b3.n_classes, 1326), dtype=bool)
    turn[rows, hs] = bets(representative_rounds(holes[hs], b3.reps[rows], n_board=3), "turn")
    riv = np.zeros_like(river.valid)
    r4, h4 = np.nonzero(river.valid)
    for s in range(0, len(r4), 2_000_000):
        rr, hh = r4[s : s + 2_000_000], h4[s : s + 2_000_000]
        board = river.boards[rr]  # ascending: the flop is the top three, the turn the lowest
        order = np.concatenate([board[:, 1:], board[:, :1]], axis=1)
        riv[rr, hh] = bets(representative_rounds(holes[hh], order, n_board=4), "river")
    return pre, turn, riv


def report(rules, strategy: str, *, progress: bool, backend: str) -> dict:
    """The exact report of a config under a strategy (docs/exact.md)."""
    river = cached_counts(rules, progress=progress, backend=backend)
    pre, turn, riv = strategy_tables(rules, strategy, river, backend=backend)
    return analyse(river, turn_pass(river, riv, turn), pre, rules, strategy)


SOLVER = ExactSolver(
    counts=cached_counts,
    counts_file=counts_file,
    solve_tables=solve_tables,
    report=report,
    rule_strategies_are_slow=True,
)
