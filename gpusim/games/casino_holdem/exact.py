"""Casino Hold'em by full enumeration: the outcome counts of every (hole, flop) situation.

Loop over the 1,755 suit classes of flops F (weight = raw flops in the class). For each F the
1,176 turn-river pairs give 1,176 boards; for every board and hole the dealer hands (of 990)
by outcome are read from the 5-card class table (:mod:`gpusim.exact.fives`: each suit class
of 5-card boards counted once, by :func:`gpusim.exact.boards.board_counts`), one turn-river
pair per orbit of the flop's own suit symmetry. Summed over the boards that avoid the hole,
each (F, hole) gets 22 integer counts (:data:`EVENT_COUNTS`):

- ``nq[c]``: dealer does not qualify, player's final hand in pay class c (10 classes:
  the 9 categories, royal flush split from straight flush);
- ``qw[c]``: dealer qualifies, player wins, player's pay class c;
- ``tie``: dealer qualifies and ties; ``loss``: dealer qualifies and wins.

Per situation they sum to C(47, 2) * C(45, 2) = 1,070,190 (turn-river pairs x dealer hands).
Any paytable and any call/fold rule is then priced from these counts without re-enumerating.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np

from gpusim.board_index import board_classes, subsets
from gpusim.cards import CATEGORY_KEYS
from gpusim.exact._parallel import attach
from gpusim.exact._profile import stage
from gpusim.exact.cache import (
    FORMAT,
    atomic_savez,
    cache_dir,
    count_solver,
    progress_bar,
    representative_rounds,
)
from gpusim.exact.fives import (
    FIELD,
    binned_sums,
    flop_boards,
    hole_permutation_table,
    lookup,
    orbit_boards,
    pay_class,
    symmetrize,
    two_stages,
)
from gpusim.exact.solver import ExactSolver
from gpusim.games import spec_for
from gpusim.games.casino_holdem.events import AA_BONUS_HANDS
from gpusim.games.casino_holdem.exact_counts import (
    CH_OUTCOMES,
    EVENT_COUNTS,
    N_PAY_CLASSES,
    ChCounts,
)
from gpusim.strategy.tables import stored_tables

__all__ = [
    "AA_HANDS",
    "CH_OUTCOMES",
    "CLASS_NAMES",
    "EVENT_COUNTS",
    "N_PAY_CLASSES",
    "SOLVER",
    "TOTAL_DEALS",
    "ChCounts",
    "aa_bonus_class",
    "aa_bonus_pays",
    "analyse",
    "ante_pays",
    "call_margin",
    "optimal_decisions",
    "pay_class",
    "qualifier_rank",
    "solve_counts",
]

_M = (1 << FIELD) - 1


def _flop_rows(spec: tuple, ids: np.ndarray, reps: np.ndarray) -> int:
    with stage("sum the boards through their suit permutations"):
        return _flop_rows_impl(spec, ids, reps)


def _flop_rows_impl(spec: tuple, flop_ids: np.ndarray, flops: np.ndarray) -> int:
    """Sum the 5-card tables of each flop's 1,176 boards into its (1326, 22) count rows,
    written in place into the shared ``counts``."""
    arrays = attach(spec)
    perms = hole_permutation_table()
    # per suit permutation, each class-suit hole's bin in the flop's suits, in one plane of
    # 1,326 bins per pay class: one pass bins every board of a flop, whatever its permutation
    base = np.argsort(perms, axis=1)
    n_bins = 1326 * N_PAY_CLASSES
    for f, flop in zip(flop_ids, flops, strict=True):
        boards, size, stab = orbit_boards(flop)
        cls, perm = lookup(spec, boards)
        # (nq, qw) packed in one int32 per cell: the bins' sums stay below 2**42
        w, tie = binned_sums([arrays["w"], arrays["tie"]], arrays["pc"], cls, perm, size, base,
                             n_bins, code_stride=1326)  # fmt: skip
        s = w.reshape(N_PAY_CLASSES, 1326).T
        tie_sum = tie.reshape(N_PAY_CLASSES, 1326).sum(axis=0)
        nq, qw = s & _M, s >> FIELD
        if len(stab) > 1:  # spread the orbit sums over the flop's symmetric holes
            nq, qw, tie_sum = (symmetrize(a, perms[stab]) for a in (nq, qw, tie_sum))
        row = arrays["counts"][f]
        row[:, :N_PAY_CLASSES] = nq
        row[:, N_PAY_CLASSES : 2 * N_PAY_CLASSES] = qw
        row[:, -2] = tie_sum
        ok = ~(_HOLES[:, :, None] == flop[None, None, :]).any(axis=(1, 2))
        row[:, -1] = np.where(ok, CH_OUTCOMES - nq.sum(axis=1) - qw.sum(axis=1) - tie_sum, 0)
    return len(flop_ids)


_HOLES = subsets(2).astype(np.int32)


def solve_counts(
    qualifier: int,
    *,
    flop_ids: np.ndarray | None = None,
    progress: Callable[[int, int], None] | None = None,
    workers: int = 1,
) -> ChCounts:
    """Enumerate every board; see the module docstring.

    qualifier: lowest qualifying dealer rank. flop_ids: restrict to these flop classes (tests);
    the other rows stay zero. progress(done, total) is called as flop classes finish.
    workers > 1 splits the work over that many processes.

    Two stages: the showdown cells of every 5-card board class the flops reach
    (:func:`gpusim.exact.fives.five_card_table`), then per flop class the sum of its 1,176
    boards' cells, each read through the board's suit permutation.
    """
    bcls = board_classes(3)
    n_cls = bcls.n_classes
    ids = np.arange(n_cls) if flop_ids is None else np.asarray(flop_ids)

    def needed_of(b5) -> np.ndarray:
        if flop_ids is None:
            return np.ones(b5.n_classes, dtype=np.int64)  # every 5-card board holds a flop
        boards = np.concatenate([flop_boards(bcls.reps[f]) for f in ids] or
                                [np.zeros((0, 5), np.int32)])
        return np.bincount(b5.lookup(boards)[0], minlength=b5.n_classes)

    chunks = [c for c in np.array_split(ids, max(1, len(ids) // 8)) if len(c)]
    extra = {"counts": ((n_cls, 1326, EVENT_COUNTS), np.int32)}
    out, _ = two_stages("ch", int(qualifier), needed_of, _flop_rows, chunks, bcls.reps, extra,
                        workers=workers, progress=progress)
    counts = out["counts"]
    valid = np.zeros((n_cls, 1326), dtype=bool)
    valid[ids] = ~(_HOLES[None, :, :, None] == bcls.reps[ids][:, None, None, :]).any(axis=(2, 3))
    bonus = np.zeros((n_cls, 1326), dtype=np.uint32)
    f, h = np.nonzero(valid)
    if len(f):
        five = np.concatenate([_HOLES[h], bcls.reps[f]], axis=1)
        from gpusim.evaluator import evaluate_np

        bonus[f, h] = evaluate_np(five, check=False)
    return ChCounts(
        flops=bcls.reps,
        weights=bcls.weights,
        counts=counts,
        valid=valid,
        bonus_rank=bonus,
        qualifier=int(qualifier),
    )


# --- pricing -----------------------------------------------------------------------------------

_ANTE_LINE_OF_CLASS = (
    "straight_or_less",
    "straight_or_less",
    "straight_or_less",
    "straight_or_less",
    "straight_or_less",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
)
# high card and a pair below aces pay nothing; a pair of aces is class 10
_AA_LINES_BY_CLASS = (None, None, *CATEGORY_KEYS[2:], "pair_of_aces")
AA_HANDS = AA_BONUS_HANDS
"""The AA Bonus hands, low to high (the game's event order)."""
"""AA Bonus return-table rows (the game engine's event names), low to high."""
_AA_CLASS_ORDER = (0, 1, 10, 2, 3, 4, 5, 6, 7, 8, 9)
CLASS_NAMES = CATEGORY_KEYS  # hand classes low to high, royal flush last
TOTAL_DEALS = 1326 * 19600 * CH_OUTCOMES
"""Every deal: hole (C(52,2)) x flop (C(50,3)) x turn-river (C(47,2)) x dealer (C(45,2))."""


def qualifier_rank(rules) -> int:
    """Lowest 7-card rank that meets the dealer qualifier (the game engine's own threshold,
    so that the exact figures and settlement agree by construction)."""
    from gpusim.games.casino_holdem import qualifier_threshold

    return int(qualifier_threshold(rules.dealer_qualifier))


def ante_pays(rules) -> np.ndarray:
    """(10,) int64 Ante pay (X of X:1) by the player's pay class."""
    return np.array([rules.ante_paytable[line] for line in _ANTE_LINE_OF_CLASS], dtype=np.int64)


def aa_bonus_class(rank5: np.ndarray) -> np.ndarray:
    """AA Bonus class of 5-card ranks: pay class, with a pair of aces as class 10."""
    pc = pay_class(rank5)
    aces = (pc == 1) & (((np.asarray(rank5, np.uint32) >> np.uint32(13)) & 0x1FFF) == (1 << 12))
    return np.where(aces, 10, pc)


def aa_bonus_pays(rules) -> np.ndarray:
    """(11,) int64 AA Bonus pay by AA Bonus class; -1 = the bet loses."""
    table = rules.aa_bonus_paytable
    out = np.full(11, -1, dtype=np.int64)
    if table is None:
        return out
    for c, line in enumerate(_AA_LINES_BY_CLASS):
        if line is not None:
            out[c] = table[line]
    return out


def call_margin(counts: ChCounts, rules, *, with_side_bet: bool) -> np.ndarray:
    """(1755, 1326) int64: (EV(call) - EV(fold)) x CH_OUTCOMES in money units.

    With ``with_side_bet`` and ``fold_forfeits_bonus``, a fold also gives up the AA Bonus win
    (stake x (pay + 1): the win and the stake that calling would have returned).
    """
    a = ante_pays(rules)
    c = counts.counts
    call = (
        c[..., :N_PAY_CLASSES].astype(np.int64) @ a
        + c[..., N_PAY_CLASSES : 2 * N_PAY_CLASSES].astype(np.int64) @ (a + 2)
        - 3 * c[..., -1].astype(np.int64)
    )
    margin = (call + CH_OUTCOMES) * rules.stakes.ante
    stake = rules.stakes["aa_bonus"]
    if with_side_bet and rules.fold_forfeits_bonus and stake > 0:
        pays = aa_bonus_pays(rules)[aa_bonus_class(counts.bonus_rank)]
        margin = margin + np.where(pays >= 0, stake * (pays + 1) * CH_OUTCOMES, 0)
    return np.where(counts.valid, margin, 0)


def optimal_decisions(counts: ChCounts, rules, *, with_side_bet: bool) -> np.ndarray:
    """(1755, 1326) bool: call where it is strictly better than folding."""
    return (call_margin(counts, rules, with_side_bet=with_side_bet) > 0) & counts.valid


def analyse(counts: ChCounts, rules, decisions: np.ndarray, strategy: str) -> dict:
    """The exact report (JSON-able dict, see docs/exact.md) for a call/fold table.

    decisions: (1755, 1326) bool call flags per (flop class, hole in the class's suits).
    Every event carries its integer count of deals; the Call's fold row is off the table
    (placed 0). The round's maximum win is counted jointly over every bet offered: the AA
    Bonus is settled on the hole and flop, so each (flop class, hole) cell's 22 outcome counts
    all fall in one AA Bonus class (:func:`_round_rows`).
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
    a = ante_pays(rules)

    ante = BetTable(placed=TOTAL_DEALS, antes=1)
    ante.add("fold", -1, folds)
    for i in range(N_PAY_CLASSES):
        ante.add(f"dealer_not_qualified:{CLASS_NAMES[i]}", int(a[i]), int(nq[i]))
    for i in range(N_PAY_CLASSES):
        ante.add(f"win:{CLASS_NAMES[i]}", int(a[i]), int(qw[i]))
    ante.add("tie", 0, tie)
    ante.add("loss", -1, loss)

    # the Call is 2 x the Ante: stake units in Antes, as a described game's bets count them
    call = BetTable(placed=calls, staked=_CALL * calls, antes=_CALL)
    call.add("fold", 0, folds, placed=0)
    call.add("dealer_not_qualified", 0, int(nq.sum()), units=_CALL * int(nq.sum()))
    call.add("win", 1, int(qw.sum()), units=_CALL * int(qw.sum()))
    call.add("tie", 0, tie, units=_CALL * tie)
    call.add("loss", -1, loss, units=_CALL * loss)

    main = MainOutcomes()
    main.add(-1, 1, folds)
    for i in range(N_PAY_CLASSES):
        main.add(int(a[i]), 3, int(nq[i]))
        main.add(int(a[i]) + 2, 3, int(qw[i]))
    main.add(0, 3, tie)
    main.add(-3, 3, loss)

    bets = {"ante": bet_json(ante, TOTAL_DEALS), "call": bet_json(call, TOTAL_DEALS)}
    offered = ["ante", "call"]
    out_side = {}
    aa_stake = rules.stakes["aa_bonus"]
    if rules.aa_bonus_paytable is not None:
        cls = aa_bonus_class(counts.bonus_rank)
        pays = aa_bonus_pays(rules)
        valid_w = np.where(counts.valid, w, 0)
        for mode in ("always_settled", "under_strategy"):
            table = BetTable(placed=TOTAL_DEALS, antes=Fraction(aa_stake, rules.stakes.ante))
            forfeit = mode == "under_strategy" and rules.fold_forfeits_bonus
            kept = call_w if forfeit else valid_w
            for c, hand in zip(_AA_CLASS_ORDER, AA_HANDS, strict=True):
                n = int(np.where(cls == c, kept, 0).sum()) * CH_OUTCOMES
                table.add(hand, int(pays[c]), n)
            if forfeit:
                for c, hand in zip(_AA_CLASS_ORDER, AA_HANDS, strict=True):
                    n = int(np.where(cls == c, fold_w, 0).sum()) * CH_OUTCOMES
                    table.add(f"fold:{hand}", -1, n)
            out_side[mode] = bet_json(table, TOTAL_DEALS)
        bets["aa_bonus"] = out_side["under_strategy"]
        bets["aa_bonus_always_settled"] = out_side["always_settled"]
        if aa_stake > 0:
            offered.append("aa_bonus")
    rows = _round_rows(counts, rules, call_w, fold_w, ev, with_side_bet="aa_bonus" in offered)
    return {
        "game": "casino_holdem",
        "config": rules.name,
        "strategy": strategy,
        "deals_counted": TOTAL_DEALS,
        "main": main_json(main),
        "bets": bets,
        "max_win": round_max_json(rows, TOTAL_DEALS, bets=offered),
        "decisions": {"call": {"call": calls / TOTAL_DEALS, "fold": folds / TOTAL_DEALS}},
        "first_decision": _first_decision(counts, rules, call_w),
    }


def _first_decision(counts: ChCounts, rules, call_w: np.ndarray) -> dict:
    """The call decision by starting hand: each of the 169 hands' deals, the share of them the
    strategy calls (it decides on the flop too, so a share between 0 and 1 is common) and the
    main game's EV per ante of calling every flop and of folding (-1)."""
    a = ante_pays(rules)
    c = counts.counts
    call_net = (c[..., :N_PAY_CLASSES].astype(np.int64) @ a
                + c[..., N_PAY_CLASSES:2 * N_PAY_CLASSES].astype(np.int64) @ (a + 2)
                - 3 * c[..., -1].astype(np.int64))
    from gpusim.cards import HAND_CLASSES, hand_class_index

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
                      "ev": {"fold": -1.0, "call": float(Fraction(net, sits * CH_OUTCOMES))},
                      "share": {"fold": float(1 - share), "call": float(share)}})
    return {"point": "call", "hands": hands,
            "note": "ev: the main game per ante, calling on every flop; share: the deals the "
                    "strategy calls"}


_CALL = 2
"""The Call's stake in Antes."""


def _round_rows(counts: ChCounts, rules, call_w: np.ndarray, fold_w: np.ndarray,
                ev: np.ndarray, *, with_side_bet: bool) -> list[tuple[Fraction, int]]:
    """(the round's net in Antes, deals) over every deal, the main game (Ante and Call) with
    the AA Bonus as settled under the rules when ``with_side_bet``.

    The AA Bonus class is a function of the (flop class, hole) cell, so the cells of each class
    give that class's main-game outcome counts exactly; their sum over the classes is checked
    against the main game's own (``ev``: (22,) the called cells' outcome counts).
    """
    a = ante_pays(rules)
    if with_side_bet:
        cls = aa_bonus_class(counts.bonus_rank)
        side = [Fraction(int(p) * rules.stakes["aa_bonus"], rules.stakes.ante)
                for p in aa_bonus_pays(rules)]
        lose = -Fraction(rules.stakes["aa_bonus"], rules.stakes.ante)
    else:  # one class: the whole table
        cls = np.zeros(counts.valid.shape, dtype=np.int64)
        side, lose = [Fraction(0)], Fraction(0)
    rows: list[tuple[Fraction, int]] = []
    got = np.zeros_like(ev)
    for c in range(len(side)):
        in_c = cls == c
        folded = int(np.where(in_c, fold_w, 0).sum()) * CH_OUTCOMES
        # a fold loses the Ante; it forfeits the AA Bonus or has it settled, as the rules say
        rows.append((-1 + (lose if rules.fold_forfeits_bonus else side[c]), folded))
        cells = np.nonzero(in_c & (call_w > 0))
        if not len(cells[0]):
            continue
        e = (counts.counts[cells].astype(np.int64) * call_w[cells][:, None]).sum(axis=0)
        got += e
        for i in range(N_PAY_CLASSES):
            rows.append((int(a[i]) + side[c], int(e[i])))
            rows.append((int(a[i]) + _CALL + side[c], int(e[N_PAY_CLASSES + i])))
        rows.append((side[c], int(e[-2])))
        rows.append((-1 - _CALL + side[c], int(e[-1])))
    assert np.array_equal(got, ev), "the AA Bonus classes do not partition the called cells"
    return rows


# --- the solver: cached counts, decision tables, reports ------------------------------------------


def _cupy_counts():
    from gpusim.games.casino_holdem.exact_cupy import solve_counts_cupy

    return solve_counts_cupy


def stored_or_solved(rules, backend: str) -> dict[str, np.ndarray]:
    """The config's stored decision tables, else solved now from its counts."""
    return stored_tables(rules) or solve_tables(rules, False, backend)


def cached_counts(rules, *, progress: bool = True, backend: str = "cpu"):
    """Casino Hold'em counts for the config's dealer qualifier (cached)."""
    q = qualifier_rank(rules)
    path = cache_dir() / f"ch_counts_q{q:08x}_v{FORMAT}.npz"
    if path.is_file():
        z = np.load(path)
        return ChCounts(**{k: z[k] for k in ("flops", "weights", "counts", "valid",
                                              "bonus_rank")}, qualifier=int(z["qualifier"]))
    update, stop = progress_bar("Casino Hold'em: flop classes") if progress else (None, None)
    try:
        c = count_solver(solve_counts, _cupy_counts, backend)(q, progress=update)
    finally:
        if stop:
            stop()
    atomic_savez(path, level=1, flops=c.flops, weights=c.weights, counts=c.counts,
                 valid=c.valid, bonus_rank=c.bonus_rank, qualifier=np.int64(c.qualifier))
    return c


def counts_file(rules) -> str:
    """The cache file of the config's counts (they depend on the dealer qualifier alone)."""
    return f"ch_counts_q{qualifier_rank(rules):08x}_v{FORMAT}.npz"


def solve_tables(rules, progress: bool, backend: str = "cpu") -> dict[str, np.ndarray]:
    """Every table strategy's decision tables (unpacked bool arrays)."""
    counts = cached_counts(rules, progress=progress, backend=backend)
    return {
        "call/optimal": optimal_decisions(counts, rules, with_side_bet=True),
        "call/optimal-main": optimal_decisions(counts, rules, with_side_bet=False),
    }


def strategy_table(rules, strategy: str, counts, *, backend: str = "cpu") -> np.ndarray:
    """(1755, 1326) call table of any Casino Hold'em strategy: a table strategy, or any
    registered strategy's decide() applied to every (flop class, hole) representative."""
    if strategy in spec_for(rules).table_strategies:
        return stored_or_solved(rules, backend)[f"call/{strategy}"]
    from gpusim.games.strategy_registry import get_strategy

    strat = get_strategy(strategy, rules)
    flops = counts.flops
    rows, holes = np.nonzero(counts.valid)
    from gpusim.board_index import subsets

    hc = subsets(2).astype(np.int32)[holes]
    cards = representative_rounds(hc, flops[rows], n_board=3)
    call = np.asarray(strat.decide(cards)["call"], dtype=bool)
    out = np.zeros(counts.valid.shape, dtype=bool)
    out[rows, holes] = call
    return out


def report(rules, strategy: str, *, progress: bool, backend: str) -> dict:
    """The exact report of a config under a strategy (docs/exact.md)."""
    counts = cached_counts(rules, progress=progress, backend=backend)
    decisions = strategy_table(rules, strategy, counts, backend=backend)
    return analyse(counts, rules, decisions, strategy)


SOLVER = ExactSolver(
    counts=cached_counts,
    counts_file=counts_file,
    solve_tables=solve_tables,
    report=report,
    rule_strategies_are_slow=False,
)
