"""The call-once hold'em shape priced from its counts (:mod:`.call_once_counts`): the call
margin, the optimal call/fold tables and the exact report of a call/fold table, keyed by the
game's numbers (:class:`CallPrices`), whatever game carries them.

The shape: the player sees his 2 cards and the flop, then folds (losing the Ante) or calls a
multiple of the Ante; the Ante pays a paytable of his final hand when the dealer does not
qualify or he wins; the call pays 1:1 when he wins, pushes when the dealer does not qualify;
one optional side bet pays a paytable of the first five cards (hole and flop), lost or settled
on a fold as the rules say.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from gpusim.board_index import subsets
from gpusim.cards import CATEGORY_KEYS
from gpusim.exact.fives import pay_class
from gpusim.games.holdem.call_once_counts import (
    CH_OUTCOMES,
    N_PAY_CLASSES,
    TOTAL_DEALS,
    ChCounts,
)

__all__ = ["PAIR_CLASS", "CallPrices", "analyse", "call_margin", "optimal_decisions",
           "side_class"]

PAIR_CLASS = 10
"""The side bet's class of a pair among its split ranks (a pair of aces): the 10 pay classes
are the others."""
_SIDE_ORDER = (0, 1, PAIR_CLASS, 2, 3, 4, 5, 6, 7, 8, 9)
"""The side bet's classes low to high."""


@dataclass(frozen=True)
class CallPrices:
    """A config's numbers of the shape.

    ante: the Ante stake in money units; call_times: the call in Antes; ante_pays: (10,) the
    Ante's pay (X of X:1) by the player's pay class; side: the side bet's name (None: none in
    the game); side_stake: its stake (0: not offered); side_pays: (11,) its pay by side class
    (:func:`side_class`), -1 = lost; side_pair_ranks: a bit mask of the pair ranks (bit 12 =
    aces) split from the other pairs as class 10; side_hands: the side bet's event names by
    class low to high (high card, the other pairs, the split pairs, two pair, ... royal flush);
    fold_forfeits: a fold loses the side bet (else it is settled); point / fold / call / bets:
    the decision's and the bets' names (ante, call)."""

    ante: int
    call_times: int
    ante_pays: tuple[int, ...]
    side: str | None = None
    side_stake: int = 0
    side_pays: tuple[int, ...] = (-1,) * 11
    side_pair_ranks: int = 1 << 12
    side_hands: tuple[str, ...] = ()
    fold_forfeits: bool = True
    point: str = "call"
    fold: str = "fold"
    call: str = "call"
    bets: tuple[str, str] = ("ante", "call")


def side_class(rank5: np.ndarray, pair_ranks: int = 1 << 12) -> np.ndarray:
    """The side bet's class of 5-card ranks: the pay class, with a pair of the ranks in
    ``pair_ranks`` as class 10."""
    pc = pay_class(rank5)
    pair = (np.asarray(rank5, np.uint32) >> np.uint32(13)) & 0x1FFF
    split = (pc == 1) & ((pair & np.uint32(pair_ranks)) != 0)
    return np.where(split, PAIR_CLASS, pc)


def _call_net(counts: ChCounts, a: np.ndarray, times: int) -> np.ndarray:
    """(1755, 1326) int64: the main game's net of a call, in Antes, summed over the outcomes."""
    c = counts.counts
    return (c[..., :N_PAY_CLASSES].astype(np.int64) @ a
            + c[..., N_PAY_CLASSES : 2 * N_PAY_CLASSES].astype(np.int64) @ (a + times)
            - (1 + times) * c[..., -1].astype(np.int64))


def call_margin(counts: ChCounts, p: CallPrices, *, with_side_bet: bool) -> np.ndarray:
    """(1755, 1326) int64: (EV(call) - EV(fold)) x CH_OUTCOMES in money units.

    With ``with_side_bet`` and a fold that forfeits the side bet, a fold also gives up its win
    (stake x (pay + 1): the win and the stake that calling would have returned).
    """
    a = np.asarray(p.ante_pays, dtype=np.int64)
    margin = (_call_net(counts, a, p.call_times) + CH_OUTCOMES) * p.ante
    if with_side_bet and p.fold_forfeits and p.side_stake > 0:
        pays = np.asarray(p.side_pays, np.int64)[side_class(counts.bonus_rank,
                                                            p.side_pair_ranks)]
        margin = margin + np.where(pays >= 0, p.side_stake * (pays + 1) * CH_OUTCOMES, 0)
    return np.where(counts.valid, margin, 0)


def optimal_decisions(counts: ChCounts, p: CallPrices, *, with_side_bet: bool) -> np.ndarray:
    """(1755, 1326) bool: call where it is strictly better than folding."""
    return (call_margin(counts, p, with_side_bet=with_side_bet) > 0) & counts.valid


def analyse(counts: ChCounts, p: CallPrices, decisions: np.ndarray, strategy: str, *,
            game: str, config: str) -> dict:
    """The exact report (JSON-able dict, see docs/exact.md) for a call/fold table.

    decisions: (1755, 1326) bool call flags per (flop class, hole in the class's suits).
    Every event carries its integer count of deals; the call's fold row is off the table
    (placed 0). The round's maximum win is counted jointly over every bet offered: the side bet
    is settled on the hole and flop, so each (flop class, hole) cell's 22 outcome counts all
    fall in one side class (:func:`_round_rows`).
    """
    from gpusim.exact.report import BetTable, MainOutcomes, bet_json, main_json, round_max_json

    w = counts.weights.astype(np.int64)[:, None]
    call_w = np.where(decisions & counts.valid, w, 0)
    fold_w = np.where(~decisions & counts.valid, w, 0)
    n_call_sit = int(call_w.sum())
    n_fold_sit = int(fold_w.sum())
    assert n_call_sit + n_fold_sit == 1326 * 19600
    ev = np.einsum("fh,fhe->e", call_w, counts.counts.astype(np.int64))
    nq, qw, tie, loss = ev[:N_PAY_CLASSES], ev[N_PAY_CLASSES:-2], int(ev[-2]), int(ev[-1])
    folds = n_fold_sit * CH_OUTCOMES
    calls = n_call_sit * CH_OUTCOMES
    a = np.asarray(p.ante_pays, dtype=np.int64)
    k = p.call_times

    ante = BetTable(placed=TOTAL_DEALS, antes=1)
    ante.add("fold", -1, folds)
    for i in range(N_PAY_CLASSES):
        ante.add(f"dealer_not_qualified:{CATEGORY_KEYS[i]}", int(a[i]), int(nq[i]))
    for i in range(N_PAY_CLASSES):
        ante.add(f"win:{CATEGORY_KEYS[i]}", int(a[i]), int(qw[i]))
    ante.add("tie", 0, tie)
    ante.add("loss", -1, loss)

    # the call is k x the Ante: stake units in Antes, as a described game's bets count them
    call = BetTable(placed=calls, staked=k * calls, antes=k)
    call.add("fold", 0, folds, placed=0)
    call.add("dealer_not_qualified", 0, int(nq.sum()), units=k * int(nq.sum()))
    call.add("win", 1, int(qw.sum()), units=k * int(qw.sum()))
    call.add("tie", 0, tie, units=k * tie)
    call.add("loss", -1, loss, units=k * loss)

    main = MainOutcomes()
    main.add(-1, 1, folds)
    for i in range(N_PAY_CLASSES):
        main.add(int(a[i]), 1 + k, int(nq[i]))
        main.add(int(a[i]) + k, 1 + k, int(qw[i]))
    main.add(0, 1 + k, tie)
    main.add(-1 - k, 1 + k, loss)

    ante_name, call_name = p.bets
    bets = {ante_name: bet_json(ante, TOTAL_DEALS), call_name: bet_json(call, TOTAL_DEALS)}
    offered = [ante_name, call_name]
    if p.side is not None:
        cls = side_class(counts.bonus_rank, p.side_pair_ranks)
        pays = np.asarray(p.side_pays, np.int64)
        valid_w = np.where(counts.valid, w, 0)
        out_side = {}
        for mode in ("always_settled", "under_strategy"):
            table = BetTable(placed=TOTAL_DEALS, antes=Fraction(p.side_stake, p.ante))
            forfeit = mode == "under_strategy" and p.fold_forfeits
            kept = call_w if forfeit else valid_w
            for c, hand in zip(_SIDE_ORDER, p.side_hands, strict=True):
                n = int(np.where(cls == c, kept, 0).sum()) * CH_OUTCOMES
                table.add(hand, int(pays[c]), n)
            if forfeit:
                for c, hand in zip(_SIDE_ORDER, p.side_hands, strict=True):
                    n = int(np.where(cls == c, fold_w, 0).sum()) * CH_OUTCOMES
                    table.add(f"fold:{hand}", -1, n)
            out_side[mode] = bet_json(table, TOTAL_DEALS)
        bets[p.side] = out_side["under_strategy"]
        bets[f"{p.side}_always_settled"] = out_side["always_settled"]
        if p.side_stake > 0:
            offered.append(p.side)
    rows = _round_rows(counts, p, call_w, fold_w, ev, with_side_bet=len(offered) > 2)
    return {
        "game": game,
        "config": config,
        "strategy": strategy,
        "deals_counted": TOTAL_DEALS,
        "main": main_json(main),
        "bets": bets,
        "max_win": round_max_json(rows, TOTAL_DEALS, bets=offered),
        "decisions": {p.point: {p.call: calls / TOTAL_DEALS, p.fold: folds / TOTAL_DEALS}},
        "first_decision": _first_decision(counts, p, call_w),
    }


_HOLES = subsets(2).astype(np.int32)


def _first_decision(counts: ChCounts, p: CallPrices, call_w: np.ndarray) -> dict:
    """The call decision by starting hand: each of the 169 hands' deals, the share of them the
    strategy calls (it decides on the flop too, so a share between 0 and 1 is common) and the
    main game's EV per ante of calling every flop and of folding (-1)."""
    from gpusim.cards import HAND_CLASSES, hand_class_index

    call_net = _call_net(counts, np.asarray(p.ante_pays, dtype=np.int64), p.call_times)
    w = np.where(counts.valid, counts.weights.astype(np.int64)[:, None], 0)
    # a hole's class does not depend on the suits' names, so a flop class's relabelled holes
    # keep theirs
    classes = hand_class_index(_HOLES[:, 0], _HOLES[:, 1])
    hands = []
    for k, label in enumerate(HAND_CLASSES):  # the 13 x 13 grid, row by row
        cols = classes == k
        sits = int(w[:, cols].sum())
        called = int(call_w[:, cols].sum())
        net = int((w[:, cols] * call_net[:, cols]).sum())
        share = Fraction(called, sits)
        hands.append({"hand": label, "deals": sits * CH_OUTCOMES,
                      "ev": {p.fold: -1.0, p.call: float(Fraction(net, sits * CH_OUTCOMES))},
                      "share": {p.fold: float(1 - share), p.call: float(share)}})
    return {"point": p.point, "hands": hands,
            "note": "ev: the main game per ante, calling on every flop; share: the deals the "
                    "strategy calls"}


def _round_rows(counts: ChCounts, p: CallPrices, call_w: np.ndarray, fold_w: np.ndarray,
                ev: np.ndarray, *, with_side_bet: bool) -> list[tuple[Fraction, int]]:
    """(the round's net in Antes, deals) over every deal, the main game (Ante and call) with
    the side bet as settled under the rules when ``with_side_bet``.

    The side class is a function of the (flop class, hole) cell, so the cells of each class
    give that class's main-game outcome counts exactly; their sum over the classes is checked
    against the main game's own (``ev``: (22,) the called cells' outcome counts).
    """
    a = np.asarray(p.ante_pays, dtype=np.int64)
    k = p.call_times
    if with_side_bet:
        cls = side_class(counts.bonus_rank, p.side_pair_ranks)
        side = [Fraction(int(x) * p.side_stake, p.ante) for x in p.side_pays]
        lose = -Fraction(p.side_stake, p.ante)
    else:  # one class: the whole table
        cls = np.zeros(counts.valid.shape, dtype=np.int64)
        side, lose = [Fraction(0)], Fraction(0)
    rows: list[tuple[Fraction, int]] = []
    got = np.zeros_like(ev)
    for c in range(len(side)):
        in_c = cls == c
        folded = int(np.where(in_c, fold_w, 0).sum()) * CH_OUTCOMES
        # a fold loses the Ante; it forfeits the side bet or has it settled, as the rules say
        rows.append((-1 + (lose if p.fold_forfeits else side[c]), folded))
        cells = np.nonzero(in_c & (call_w > 0))
        if not len(cells[0]):
            continue
        e = (counts.counts[cells].astype(np.int64) * call_w[cells][:, None]).sum(axis=0)
        got += e
        for i in range(N_PAY_CLASSES):
            rows.append((int(a[i]) + side[c], int(e[i])))
            rows.append((int(a[i]) + k + side[c], int(e[N_PAY_CLASSES + i])))
        rows.append((side[c], int(e[-2])))
        rows.append((-1 - k + side[c], int(e[-1])))
    assert np.array_equal(got, ev), "the side bet's classes do not partition the called cells"
    return rows
