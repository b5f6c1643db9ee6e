"""Texas Hold'em Bonus by full enumeration: river, turn and preflop decisions and their counts.

Stage 1 (river level). Loop over the 16,432 suit classes of 4-card boards T (weight = raw
4-card boards in the class) and the 48 river cards: 788,736 boards. For every class and hole
(hole relabelled into the class's suits) keep, summed over the river and the dealer's hands
(46 x 990 = 45,540 outcomes): ``W`` wins, ``L`` losses and ``WX`` wins on which the Ante
pays (final hand in the config's ``ante_pays_from`` category or better); uint16, at most
45,540. Per starting-hand class also keep the wins by final category, the ties and the
losses (for the Ante's return table).

Stage 2 (turn level). Loop over the 1,755 flop classes F and the 49 turn cards; the 4-card board
F + t is looked up in stage 1 through its class and suit permutation. Summing over t gives the
turn-level counts of (hole, F) (47 x 46 x 990 = 2,140,380 outcomes each).

The Turn and River bets are independent 1:1 wagers (each decision leaves later choices open),
so the optimal rule is ``bet iff wins > losses`` at each point; the preflop decision then
compares EV(bet the flop) with -1 (fold) per starting-hand class. All counts are integers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from gpusim.cards import hand_class_index
from gpusim.config import CATEGORY_KEYS
from gpusim.exact.boards import PAIR_I, PAIR_J, board_counts
from gpusim.exact.report import BetTable, MainOutcomes, bet_json, main_json
from gpusim.index import board_classes, hole_index, permute_cards, subsets

__all__ = [
    "OUTCOMES_PER_HOLE",
    "RIVER_OUTCOMES",
    "THB_TOTAL_DEALS",
    "TURN_OUTCOMES",
    "RiverCounts",
    "TurnPass",
    "analyse",
    "bonus_table",
    "five_card_class_counts",
    "hole_permutation_table",
    "jackpot_table",
    "preflop_ev",
    "river_rule",
    "solve_river",
    "turn_counts",
    "turn_pass",
]

RIVER_OUTCOMES = 46 * 990
"""Outcomes per (hole, 4-card board): river card x dealer hand."""
TURN_OUTCOMES = 47 * 46 * 990
"""Outcomes per (hole, flop): turn card x river card x dealer hand."""
THB_TOTAL_DEALS = 1326 * 19600 * TURN_OUTCOMES
"""Every deal: hole x flop x turn x river (in order) x dealer hand."""
OUTCOMES_PER_HOLE = 19600 * TURN_OUTCOMES


@dataclass(frozen=True)
class RiverCounts:
    """Stage-1 results.

    boards: (16432, 4) canonical 4-card boards; weights: (16432,) raw boards per class.
    W, L, WX: (16432, 1326) uint16 counts (zero where the hole meets the board).
    ante_from: lowest pay class (0..9) on which a win pays the Ante.
    valid: (16432, 1326) bool.
    class_wins: (169, 10) int64 wins by the player's final pay class, summed over every raw
      (hole, 4-card board, river, dealer) with the hole in the class; class_ties, class_losses
      (169,) likewise; class_hands (169, 10) every (hole, board, river) by pay class (no dealer).
      Each 5-card board is counted 5 times (once per 4-card subset).
    """

    boards: np.ndarray
    weights: np.ndarray
    W: np.ndarray
    L: np.ndarray
    WX: np.ndarray
    valid: np.ndarray
    class_wins: np.ndarray
    class_ties: np.ndarray
    class_losses: np.ndarray
    class_hands: np.ndarray
    ante_from: int


_ROYAL = np.uint32((8 << 27) | ((1 << 12) << 13))


def _pay_class(rank):
    r = np.asarray(rank, dtype=np.uint32)
    return np.where(r == _ROYAL, 9, (r >> np.uint32(27)).astype(np.int32)).astype(np.int32)


_HOLES = subsets(2).astype(np.int32)
_HOLE_CLASS = hand_class_index(_HOLES[:, 0], _HOLES[:, 1]).astype(np.int64)


def hole_permutation_table() -> np.ndarray:
    """(24, 1326) int64: hole index after each suit permutation."""
    out = np.empty((24, 1326), dtype=np.int64)
    for p in range(24):
        q = permute_cards(_HOLES, np.full(1326, p))
        out[p] = hole_index(q[:, 0], q[:, 1])
    return out


def _river_batch(reps: np.ndarray, weights: np.ndarray, ante_from: int) -> dict:
    """Stage-1 counts of a few 4-card board classes (reps: (b, 4), weights: (b,))."""
    nb = len(reps)
    rivers = np.stack([np.setdiff1d(np.arange(52), r) for r in reps])  # (b, 48)
    boards = np.concatenate([np.repeat(reps, 48, axis=0), rivers.reshape(-1, 1)], axis=1)
    bc = board_counts(boards)
    h = hole_index(bc.rem[:, PAIR_I], bc.rem[:, PAIR_J])  # (b * 48, 1081)
    win = bc.below
    tie = bc.equal
    loss = 990 - win - tie
    pc = _pay_class(bc.rank)
    # per (class in batch, hole): sum over the 48 rivers
    key = (np.arange(nb).repeat(48)[:, None] * 1326 + h).ravel()
    size = nb * 1326
    out = {}
    for name, val in (("W", win), ("L", loss), ("WX", np.where(pc >= ante_from, win, 0))):
        out[name] = np.bincount(key, weights=val.ravel(), minlength=size).reshape(nb, 1326)
    out["valid"] = np.bincount(key, minlength=size).reshape(nb, 1326) > 0
    wt = weights.repeat(48)[:, None]  # weight per board row
    hc = _HOLE_CLASS[h]
    hpc = (hc * 10 + pc).ravel()

    def acc(index, values, n):
        return np.bincount(index, weights=values, minlength=n).astype(np.int64)

    out["cw"] = acc(hpc, (win * wt).ravel(), 1690)
    out["ch"] = acc(hpc, np.broadcast_to(wt, h.shape).ravel(), 1690)
    out["ct"] = acc(hc.ravel(), (tie * wt).ravel(), 169)
    out["cl"] = acc(hc.ravel(), (loss * wt).ravel(), 169)
    return out


def _river_chunk(reps: np.ndarray, weights: np.ndarray, ante_from: int, batch: int) -> list:
    return [
        _river_batch(reps[i : i + batch], weights[i : i + batch], ante_from)
        for i in range(0, len(reps), batch)
    ]


def solve_river(
    ante_from: int = 4,
    *,
    board_ids: np.ndarray | None = None,
    batch: int = 24,
    progress: Callable[[int, int], None] | None = None,
    workers: int = 1,
) -> RiverCounts:
    """Stage 1 over every 4-card board class (or ``board_ids`` only, for tests).

    ante_from: pay class from which a win pays the Ante (4 = straight, 5 = flush).
    workers > 1 splits the board classes over that many processes.
    """
    from gpusim.exact._parallel import run_chunks

    bcls = board_classes(4)
    n = bcls.n_classes
    ids = np.arange(n) if board_ids is None else np.asarray(board_ids)
    arrays = {k: np.zeros((n, 1326), dtype=np.uint16) for k in ("W", "L", "WX")}
    valid = np.zeros((n, 1326), dtype=bool)
    acc = {"cw": np.zeros(1690, np.int64), "ch": np.zeros(1690, np.int64),
           "ct": np.zeros(169, np.int64), "cl": np.zeros(169, np.int64)}
    chunks = [ids[i : i + 8 * batch] for i in range(0, len(ids), 8 * batch)]
    args = [(bcls.reps[c], bcls.weights[c], int(ante_from), batch) for c in chunks]
    done = 0
    for chunk, results in run_chunks(_river_chunk, args, chunks, workers):
        for i, res in zip(range(0, len(chunk), batch), results, strict=True):
            part = chunk[i : i + batch]
            for name in ("W", "L", "WX"):
                arrays[name][part] = res[name]
            valid[part] = res["valid"]
            for name in acc:
                acc[name] += res[name]
        done += len(chunk)
        if progress is not None:
            progress(done, len(ids))
    return RiverCounts(
        boards=bcls.reps,
        weights=bcls.weights,
        valid=valid,
        class_wins=acc["cw"].reshape(169, 10),
        class_ties=acc["ct"],
        class_losses=acc["cl"],
        class_hands=acc["ch"].reshape(169, 10),
        ante_from=int(ante_from),
        **arrays,
    )


_HOLE_PERM = None


def turn_counts(river: RiverCounts, flop_id: int) -> dict[str, np.ndarray]:
    """Stage 2 for one canonical flop: per turn card and hole, the stage-1 counts.

    Returns arrays of shape (49, 1326) (turn card t = the 49 unseen cards, ascending):
    ``W, L, WX`` (int64), ``board_class``/``board_perm`` of F + t, ``hole_in_class``
    (index of the hole relabelled into that class's suits), and ``turn`` (49,) the cards.
    Holes that meet F + t have zero counts.
    """
    global _HOLE_PERM
    if _HOLE_PERM is None:
        _HOLE_PERM = hole_permutation_table()
    b3 = board_classes(3)
    b4 = board_classes(4)
    flop = b3.reps[flop_id]
    turns = np.setdiff1d(np.arange(52), flop)
    fours = np.concatenate([np.broadcast_to(flop, (49, 3)), turns[:, None]], axis=1)
    cls, perm = b4.lookup(fours)
    hin = _HOLE_PERM[perm.astype(np.int64)]  # (49, 1326)
    rows = cls[:, None]
    out = {name: getattr(river, name)[rows, hin].astype(np.int64) for name in ("W", "L", "WX")}
    out["valid"] = river.valid[rows, hin]
    out["board_class"] = np.broadcast_to(rows, hin.shape)
    out["hole_in_class"] = hin
    out["turn"] = turns
    return out


# --- stage 2 and pricing -------------------------------------------------------------------------

_COMBOS = np.bincount(_HOLE_CLASS, minlength=169).astype(np.int64)


def river_rule(river: RiverCounts, rule: str) -> np.ndarray:
    """(16432, 1326) bool River-bet table: ``optimal`` (wins > losses) or ``over_half``
    (P(win) > 1/2, seed 000's text)."""
    W = river.W.astype(np.int64)
    if rule == "optimal":
        bet = W > river.L
    elif rule == "over_half":
        bet = 2 * W > RIVER_OUTCOMES
    else:
        raise ValueError(f"river rule {rule!r}: allowed 'optimal', 'over_half'")
    return bet & river.valid


@dataclass(frozen=True)
class TurnPass:
    """Stage-2 results for one turn rule and river table.

    turn: (1755, 1326) bool Turn-bet table by (flop class, hole in its suits).
    joint: (169, 2, 2, 4) int64 deals per starting-hand class by (turn bet, river bet,
      outcome) with outcome 0 = win without Ante pay, 1 = win with Ante pay, 2 = tie, 3 = loss.
      Summed over every raw (hole, flop, turn, river, dealer) of the class, whatever the
      preflop decision.
    """

    turn: np.ndarray
    joint: np.ndarray


def turn_pass(
    river: RiverCounts,
    river_bet: np.ndarray,
    turn_rule: str | np.ndarray | Callable[[np.ndarray, np.ndarray], np.ndarray],
    *,
    progress: Callable[[int, int], None] | None = None,
) -> TurnPass:
    """Stage 2: the Turn-bet table and the joint counts under it and ``river_bet``
    ((16432, 1326) bool).

    turn_rule: ``optimal``, ``over_half``, a (1755, 1326) bool table, or a function of the
    turn-level (wins, losses) arrays (of TURN_OUTCOMES each) returning bet flags.
    """
    b3 = board_classes(3)
    n3 = b3.n_classes
    turn = np.zeros((n3, 1326), dtype=bool)
    joint = np.zeros(169 * 16, dtype=np.float64)
    for f in range(n3):
        tc = turn_counts(river, f)
        W, L, WX, ok = tc["W"], tc["L"], tc["WX"], tc["valid"]
        if isinstance(turn_rule, np.ndarray):
            tb = turn_rule[f]
        else:
            tw, tl = W.sum(axis=0), L.sum(axis=0)
            if callable(turn_rule):
                tb = np.asarray(turn_rule(tw, tl), dtype=bool)
            elif turn_rule == "optimal":
                tb = tw > tl
            elif turn_rule == "over_half":
                tb = 2 * tw > TURN_OUTCOMES
            else:
                raise ValueError(f"turn rule {turn_rule!r}: allowed 'optimal', 'over_half'")
            tb = tb & ok.any(axis=0)
        turn[f] = tb
        rb = river_bet[tc["board_class"], tc["hole_in_class"]]
        tie = np.where(ok, RIVER_OUTCOMES - W - L, 0)
        key = (_HOLE_CLASS[None, :] * 4 + tb[None, :].astype(np.int64) * 2 + rb) * 4
        wf = float(b3.weights[f])
        for k, val in enumerate((W - WX, WX, tie, L)):
            joint += np.bincount((key + k).ravel(), weights=val.ravel() * wf, minlength=169 * 16)
        if progress is not None:
            progress(f + 1, n3)
    return TurnPass(turn=turn, joint=np.rint(joint).astype(np.int64).reshape(169, 2, 2, 4))


def preflop_ev(joint: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per class (169,): EV of betting the flop (x OUTCOMES, int64 numerator) and the
    denominator (deals of the class). Fold = -denominator."""
    num = np.zeros(169, dtype=np.int64)
    for tb in (0, 1):
        for rb in (0, 1):
            k = 2 + tb + rb
            j = joint[:, tb, rb]
            num += k * (j[:, 0] + j[:, 1]) + j[:, 1] - (k + 1) * j[:, 3]
    return num, _COMBOS * OUTCOMES_PER_HOLE


_CLASS_NAMES = CATEGORY_KEYS  # hand classes low to high, royal flush last


def analyse(
    river: RiverCounts, tp: TurnPass, preflop_bet: np.ndarray, rules, strategy: str
) -> dict:
    """The exact report (JSON-able dict, see docs/exact.md).

    preflop_bet: (169,) bool, bet the flop with each starting-hand class (HAND_CLASSES order).
    """
    from gpusim.cards import HAND_CLASSES

    total = THB_TOTAL_DEALS
    num, den = preflop_ev(tp.joint)
    p = np.asarray(preflop_bet, dtype=bool)
    j = tp.joint[p].sum(axis=0)  # (2, 2, 4) over the classes that bet
    folds = int(den[~p].sum())
    played = int(den[p].sum())
    wins_nopay, wins_pay, ties, losses = (int(j[..., k].sum()) for k in range(4))

    ante = BetTable(placed=total)
    ante.add("fold", -1, folds)
    cw = river.class_wins[p].sum(axis=0) * 4  # 4 (flop, turn) orders per (4-card set, river)
    for c in range(9, -1, -1):
        if cw[c]:
            ante.add(f"win:{_CLASS_NAMES[c]}", 1 if c >= river.ante_from else 0, int(cw[c]))
    ante.add("tie", 0, ties)
    ante.add("loss", -1, losses)

    flop = BetTable(placed=played)
    flop.add("fold", 0, folds)
    flop.add("win", 1, wins_nopay + wins_pay)
    flop.add("tie", 0, ties)
    flop.add("loss", -1, losses)

    def street(axis: int) -> BetTable:
        sel = j[1] if axis == 0 else j[:, 1]
        t = BetTable(placed=int(sel.sum()))
        t.add("fold", 0, folds)
        t.add("check", 0, played - int(sel.sum()))
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
        bets["bonus"] = bet_json(bonus_table(rules), 1326 * 1225)
    if rules.jackpot is not None:
        jt, info = jackpot_table(rules, river)
        bets["jackpot"] = bet_json(jt, info.pop("_total"))
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


def bonus_table(rules) -> BetTable:
    """Bonus side bet: every (player hole, dealer hole) pair, C(52,2) x C(50,2) deals."""
    from gpusim.cards import HAND_CLASSES
    from gpusim.config import BONUS_LINE_CLASSES

    table = rules.bonus_paytable
    per = 1225  # dealer hands per player hole
    t = BetTable(placed=1326 * per)
    paid = 0
    if "AA_vs_dealer_AA" in table:
        # 6 player AA; the dealer holds the other two aces in 1 of 1,225 hands
        t.add("AA_vs_dealer_AA", table["AA_vs_dealer_AA"], 6)
        t.add("AA", table["AA"], 6 * per - 6)
        paid += 6 * per
    for line, classes in BONUS_LINE_CLASSES.items():
        if line == "AA" and "AA_vs_dealer_AA" in table:
            continue
        n = sum(int(_COMBOS[HAND_CLASSES.index(c)]) for c in classes) * per
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
    from fractions import Fraction

    jp = rules.jackpot
    stake = rules.stakes["jackpot"]
    if jp.cards == "hole_and_flop":
        counts = five_card_class_counts()
    else:
        counts = river.class_hands.sum(axis=0)
    total = int(counts.sum())
    p_royal = Fraction(int(counts[9]), total)
    lines = {
        8: "straight_flush",
        7: "four_of_a_kind",
        6: "full_house",
        5: "flush",
        4: "straight",
        3: "three_of_a_kind",
    }
    fixed = Fraction(0)
    t = BetTable(placed=total)
    contribution = Fraction(jp.contribution_bp, 10_000)
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
    from gpusim.evaluate import evaluate_np

    ranks = evaluate_np(subsets(5), check=False)
    return np.bincount(_pay_class(ranks), minlength=10).astype(np.int64)
