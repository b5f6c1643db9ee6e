"""The street-bets hold'em shape priced from its counts (:mod:`.streets_counts`): the decision
tables of its table strategies and the exact report of any strategy, keyed by the game's
numbers (:class:`StreetPrices`), whatever game carries them.

The shape: an Ante; pre-flop the player folds or bets the Flop (2 x the Ante), then a Turn and a
River bet (1 x) or a check; no dealer qualifier; the Ante pays 1:1 on a win with a final hand of
a threshold category or better, else it pushes; an optional Bonus on the player's two cards
(one line may also need the dealer's aces) and an optional progressive Jackpot on the hole
cards and the flop (or all seven cards), both settled whatever the player does.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from gpusim.cards import CATEGORY_KEYS
from gpusim.exact.cache import representative_rounds
from gpusim.exact.report import (
    BetTable,
    MainOutcomes,
    bet_json,
    main_json,
    max_win_json,
    round_max_json,
    table_max_rows,
)
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

__all__ = ["FIVE_CARD", "SEVEN_CARD", "TABLE_RULES", "StreetPrices", "analyse", "bonus_table",
           "five_card_class_counts", "jackpot_table", "rule_tables", "solve_tables"]

TABLE_RULES = (("optimal", "optimal"), ("win-over-half-ev", "over_half"))
"""The shape's table strategies and the Turn/River rule each solves (:func:`river_rule`):
bet iff P(win) > P(lose), and bet iff P(win) > 1/2; each bets the flop iff its EV under that
rule beats folding."""

# Published category counts of the best five-card hand (royal flush split from straight flush):
# over the 2,598,960 five-card hands and over the 133,784,560 seven-card hands.
FIVE_CARD = {
    "high_card": 1302540, "pair": 1098240, "two_pair": 123552, "three_of_a_kind": 54912,
    "straight": 10200, "flush": 5108, "full_house": 3744, "four_of_a_kind": 624,
    "straight_flush": 36, "royal_flush": 4,
}
SEVEN_CARD = {
    "high_card": 23294460, "pair": 58627800, "two_pair": 31433400, "three_of_a_kind": 6461620,
    "straight": 6180020, "flush": 4047644, "full_house": 3473184, "four_of_a_kind": 224848,
    "straight_flush": 37260, "royal_flush": 4324,
}


@dataclass(frozen=True)
class StreetPrices:
    """A config's numbers of the shape.

    game, config: the names the report carries; ante_pays_from: the lowest category on which a
    win pays the Ante (1:1; below it a win pushes); bets: the main bets' names (Ante, Flop,
    Turn, River) and points the decisions' (flop, turn, river); bonus: the Bonus's name and
    ``((line, pay X:1, starting-hand classes), ...)`` in paytable order (None: not offered),
    bonus_vs_aces: its line paying AA against the dealer's AA (None: none of its own),
    bonus_unit: its stake in Antes; jackpot: the Jackpot's name (None: not offered), its
    fixed prizes ``((line, X for 1), ...)``, the meter's contribution rate and reset, its
    stake in money units and jackpot_unit in Antes, jackpot_cards ``"hole_and_flop"`` or
    ``"all_seven"``."""

    game: str
    config: str
    ante_pays_from: str
    bets: tuple[str, ...] = ("ante", "flop", "turn", "river")
    points: tuple[str, ...] = ("flop", "turn", "river")
    bonus: str | None = None
    bonus_lines: tuple[tuple[str, int, tuple[str, ...]], ...] = ()
    bonus_vs_aces: tuple[str, int] | None = None
    bonus_unit: Fraction = Fraction(0)
    jackpot: str | None = None
    jackpot_prizes: tuple[tuple[str, int], ...] = ()
    jackpot_contribution: Fraction = Fraction(0)
    jackpot_reset: int = 0
    jackpot_stake: int = 0
    jackpot_unit: Fraction = Fraction(0)
    jackpot_cards: str = "hole_and_flop"


def analyse(
    river: RiverCounts, tp: TurnPass, preflop_bet: np.ndarray, p: StreetPrices, strategy: str
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
    bet = np.asarray(preflop_bet, dtype=bool)
    j = tp.joint[bet].sum(axis=0)  # (2, 2, 4) over the classes that bet
    folds = int(den[~bet].sum())
    played = int(den[bet].sum())
    wins_nopay, wins_pay, ties, losses = (int(j[..., k].sum()) for k in range(4))

    ante = BetTable(placed=total, antes=1)
    ante.add("fold", -1, folds)
    cw = river.class_wins[bet].sum(axis=0) * 4  # 4 (flop, turn) orders per (4-card set, river)
    for c in range(9, -1, -1):
        if cw[c]:
            ante.add(f"win:{CATEGORY_KEYS[c]}", 1 if c >= river.ante_from else 0, int(cw[c]))
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

    a, f, t, r = p.bets
    bets = {a: bet_json(ante, total), f: bet_json(flop, total),
            t: bet_json(street(0), total), r: bet_json(street(1), total)}
    extra = {}
    if p.bonus is not None:
        bets[p.bonus] = bet_json(_every_deal(bonus_table(p)), total)
    if p.jackpot is not None:
        jt, info = jackpot_table(p, river)
        del info["_total"]
        bets[p.jackpot] = _jackpot_json(_every_deal(jt), p)
        extra[p.jackpot] = info
    turn_bets = int(j[1].sum())
    river_bets = int(j[:, 1].sum())
    pf, pt, pr = p.points
    out = {
        "game": p.game,
        "config": p.config,
        "strategy": strategy,
        "deals_counted": total,
        "main": main_json(main),
        "bets": bets,
        "max_win": _round_max(tp, bet, den, p, main),
        "decisions": {
            pf: {"bet": played / total, "fold": folds / total},
            pt: {"bet": turn_bets / total, "check": (played - turn_bets) / total},
            pr: {"bet": river_bets / total, "check": (played - river_bets) / total},
        },
        "preflop": {
            HAND_CLASSES[k]: {
                "ev_bet": float(num[k] / den[k]),
                "action": "bet" if bet[k] else "fold",
            }
            for k in range(169)
        },
    }
    out.update(extra)
    return out


_FLOP = 2
"""The Flop bet's stake in Antes (the Turn and River bets are 1 x the Ante)."""


def _every_deal(table: BetTable) -> BetTable:
    """A side bet's table counted over its own cards (the holes, or the five or seven cards
    it reads), carried to every deal of the game: each of its deals extends to the same number
    of full deals."""
    k, rest = divmod(THB_TOTAL_DEALS, table.placed)
    assert rest == 0, "a side bet's deals must divide the game's"
    return table.scaled(k)


def _jackpot_json(table: BetTable, p: StreetPrices) -> dict:
    """The Jackpot's return table; its maximum win over the fixed prizes only (the royal flush
    wins the progressive meter, whose value no fixed pay gives)."""
    rows = table_max_rows(replace(table, antes=p.jackpot_unit))
    mw = max_win_json([r for r in rows if r[0] != "royal_flush"], THB_TOTAL_DEALS)
    if mw is not None:
        mw["excluded_events"] = ["royal_flush"]
        mw["note"] = ("the royal flush wins the progressive meter, which has no fixed pay; "
                      "the maximum is over the fixed prizes")
    return bet_json(table, THB_TOTAL_DEALS, max_win=mw)


def _round_max(tp: TurnPass, bet: np.ndarray, den: np.ndarray, p: StreetPrices,
               main: MainOutcomes) -> dict:
    """The report's ``max_win``: the largest net win of one round, in Antes.

    The joint counts are per starting-hand class (``tp.joint``), so a Bonus that pays on the
    hole cards' class alone is counted with the main game exactly. The Bonus's AA-vs-dealer-AA
    line also reads the dealer's hole cards, and the Jackpot the player's five or seven
    cards, neither of which the counts split by the main game's outcome: with either offered,
    the maximum is the main game's alone, and the report says so.
    """
    from gpusim.cards import HAND_CLASSES

    excluded = {}
    if p.bonus is not None and p.bonus_vs_aces is not None:
        excluded[p.bonus] = ("its AA-vs-dealer-AA line reads the dealer's hole cards, which "
                             "the counts do not split by the main game's outcome")
    if p.jackpot is not None:
        excluded[p.jackpot] = ("its prizes read the player's final hand, which the counts do "
                               "not split by the bets made; its royal flush pays the meter")
    if excluded:
        return round_max_json(main.nets(), THB_TOTAL_DEALS, bets=list(p.bets),
                              excluded=excluded)
    side = [Fraction(0)] * 169
    bets = list(p.bets)
    if p.bonus is not None:
        side = [-p.bonus_unit] * 169
        for _line, pay, classes in p.bonus_lines:
            for c in classes:
                side[HAND_CLASSES.index(c)] = pay * p.bonus_unit
        bets.append(p.bonus)
    rows: list[tuple[Fraction, int]] = []
    for k in range(169):
        if not bet[k]:
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


def bonus_table(p: StreetPrices) -> BetTable:
    """The Bonus: every (player hole, dealer hole) pair, C(52,2) x C(50,2) deals."""
    from gpusim.cards import HAND_CLASSES

    per = 1225  # dealer hands per player hole
    t = BetTable(placed=1326 * per, antes=p.bonus_unit)
    paid = 0
    aces = None
    if p.bonus_vs_aces is not None:
        # 6 player AA; the dealer holds the other two aces in 1 of 1,225 hands
        t.add(p.bonus_vs_aces[0], p.bonus_vs_aces[1], 6)
        aces = next(ln for ln in p.bonus_lines if "AA" in ln[2])
        t.add(aces[0], aces[1], 6 * per - 6)
        assert aces[2] == ("AA",), "the aces' line pays AA alone"
        paid += 6 * per
    for line, pay, classes in p.bonus_lines:
        if aces is not None and line == aces[0]:
            continue
        n = sum(int(CLASS_COMBOS[HAND_CLASSES.index(c)]) for c in classes) * per
        t.add(line, pay, n)
        paid += n
    t.add("other", -1, 1326 * per - paid)
    return t


def jackpot_table(p: StreetPrices, river: RiverCounts | None) -> tuple[BetTable, dict]:
    """Jackpot side bet return table and its meter dependence.

    Fixed prizes are "X for 1" (net X - 1). The royal row's pay is the long-run average prize
    per unit stake: the reset value plus every contribution paid back, i.e.
    reset / stake + contribution / P(royal); the meter-dependent RTP is
    fixed_prize_rtp + P(royal) x meter / stake.
    """
    stake = p.jackpot_stake
    if p.jackpot_cards == "hole_and_flop":
        counts = five_card_class_counts()
    else:
        assert river is not None, "the seven-card Jackpot reads the river counts"
        counts = river.class_hands.sum(axis=0)
    total = int(counts.sum())
    p_royal = Fraction(int(counts[9]), total)
    fixed = Fraction(0)
    t = BetTable(placed=total)
    contribution = p.jackpot_contribution
    royal_pay = Fraction(p.jackpot_reset, stake) + contribution / p_royal
    t.add("royal_flush", royal_pay - 1, int(counts[9]))
    paid = int(counts[9])
    for line, x in p.jackpot_prizes:
        c = CATEGORY_KEYS.index(line)
        t.add(line, x - 1, int(counts[c]))
        fixed += Fraction(x * int(counts[c]), total)
        paid += int(counts[c])
    t.add("no_win", -1, total - paid)
    fixed_rtp = float(fixed)
    per_meter = p_royal / stake  # RTP added per money unit on the meter
    reset = p.jackpot_reset
    info = {
        "cards": p.jackpot_cards,
        "fixed_prize_rtp": fixed_rtp,
        "p_royal": float(p_royal),
        "contribution_rate": float(contribution),
        "reset": reset,
        "stake": stake,
        "rtp_per_meter_unit": float(per_meter),
        "rtp_at_reset_meter": float(fixed + per_meter * reset),
        "long_run_rtp": float(fixed + per_meter * reset + contribution),
        "break_even_meter": float((1 - fixed) / per_meter),
        "rtp_at_meter": [
            {"meter": m, "rtp": float(fixed + per_meter * m)}
            for m in sorted({reset, *(stake * x for x in (10_000, 50_000, 100_000, 200_000,
                                                           500_000, 1_000_000))})
        ],
        "long_run_rtp_by_contribution": [
            {"contribution_rate": c / 100, "long_run_rtp": float(
                fixed + per_meter * reset + Fraction(c, 100))}
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


def solve_tables(river: RiverCounts) -> dict[str, np.ndarray]:
    """Every table strategy's decision tables (unpacked bool arrays)."""
    out = {}
    for name, rule in TABLE_RULES:
        rb = river_rule(river, rule)
        tp = turn_pass(river, rb, rule)
        num, den = preflop_ev(tp.joint)
        out[f"preflop/{name}"] = num > -den
        out[f"turn/{name}"] = tp.turn
        out[f"river/{name}"] = rb
    return out


def rule_tables(strat, decisions, points: tuple[str, ...], river: RiverCounts):
    """(preflop (169,), turn (1755, 1326), river (16432, 1326)) bool tables of a rule
    strategy: its decide() applied to one representative per class (the flop decision per
    starting-hand class, the turn per (flop class, hole), the river per (4-card board class,
    hole) with the lowest card of the board as the turn card). Exact for strategies that, like
    every rule list shipped, depend on the cards seen up to suit relabelling and on the 4-card
    board as a set. ``decisions``: the game's decision tree; ``points``: its flop, turn and
    river points."""
    from gpusim.board_index import board_classes, subsets
    from gpusim.cards import HAND_CLASSES, class_members
    from gpusim.strategy.tree import taken

    pf, pt, pr = points
    reps = np.array([class_members(c)[0] for c in HAND_CLASSES], dtype=np.int32)
    filler = representative_rounds(reps, np.zeros((169, 0), dtype=np.int32), n_board=0)
    pre = np.asarray(strat.decide(filler)[pf], dtype=bool)
    holes = subsets(2).astype(np.int32)
    b3 = board_classes(3)
    meets = (holes[None, :, :, None] == b3.reps[:, None, None, :]).any(axis=(2, 3))
    rows, hs = np.nonzero(~meets)

    def bets(rounds, point):
        # a bet where the round reached the point (no Turn or River bet after a flop fold)
        took = taken(decisions,
                     {k: np.asarray(v).astype(np.int32) for k, v in strat.decide(rounds).items()})
        return took[point] == 1

    turn = np.zeros((b3.n_classes, 1326), dtype=bool)
    turn[rows, hs] = bets(representative_rounds(holes[hs], b3.reps[rows], n_board=3), pt)
    riv = np.zeros_like(river.valid)
    r4, h4 = np.nonzero(river.valid)
    for s in range(0, len(r4), 2_000_000):
        rr, hh = r4[s : s + 2_000_000], h4[s : s + 2_000_000]
        board = river.boards[rr]  # ascending: the flop is the top three, the turn the lowest
        order = np.concatenate([board[:, 1:], board[:, :1]], axis=1)
        riv[rr, hh] = bets(representative_rounds(holes[hh], order, n_board=4), pr)
    return pre, turn, riv


def report(river: RiverCounts, tables: tuple, p: StreetPrices, strategy: str) -> dict:
    """The exact report of a strategy's (preflop, turn, river) tables."""
    pre, turn, riv = tables
    return analyse(river, turn_pass(river, riv, turn), pre, p, strategy)
