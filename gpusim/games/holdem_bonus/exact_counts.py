"""Texas Hold'em Bonus by full enumeration: river, turn and preflop decisions and their counts.

Stage 1 (river level). Loop over the 16,432 suit classes of 4-card boards T (weight = raw
4-card boards in the class) and the 48 river cards: 788,736 boards, each read from the 5-card
class table (:mod:`gpusim.exact.fives`: the 134,459 suit classes of 5-card boards counted
once each, with the per-starting-hand sums). For every class and hole
(hole relabelled into the class's suits) keep, summed over the river and the dealer's hands
(46 x 990 = 45,540 outcomes): ``W`` wins, ``L`` losses and ``WX`` wins on which the Ante
pays (final hand in the config's ``ante_pays_from`` category or better); uint16, at most
45,540. Per starting-hand class also keep the wins by final category, the ties and the
losses (for the Ante's return table).

Stage 2 (turn level). Loop over the 1,755 flop classes F and the 49 turn cards; the 4-card board
F + t is looked up in stage 1 through its class and suit permutation (one turn card per orbit
of the flop's suit symmetry). Summing over t gives the turn-level counts of (hole, F)
(47 x 46 x 990 = 2,140,380 outcomes each).

The Turn and River bets are independent 1:1 wagers (each decision leaves later choices open),
so the optimal rule is ``bet iff wins > losses`` at each point; the preflop decision then
compares EV(bet the flop) with -1 (fold) per starting-hand class. All counts are integers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np

from gpusim.exact._parallel import attach
from gpusim.exact._profile import stage
from gpusim.exact.boards import remaining_cards
from gpusim.exact.fives import (
    FIELD,
    HOLE_CLASS,
    hole_permutation_table,
    pay_class,
    stabilizer,
    summed_rows,
    symmetrize,
    two_stages,
)
from gpusim.index import board_classes, permute_cards, subsets

__all__ = [
    "OUTCOMES_PER_HOLE",
    "RIVER_OUTCOMES",
    "THB_TOTAL_DEALS",
    "TURN_OUTCOMES",
    "CLASS_COMBOS",
    "HOLE_CLASS",
    "RiverCounts",
    "TurnPass",
    "hole_permutation_table",
    "pay_class",
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


_HOLES = subsets(2).astype(np.int32)
_M = (1 << FIELD) - 1


def _river_rows(spec: tuple, ids: np.ndarray, reps: np.ndarray) -> int:
    with stage("sum the boards through their suit permutations"):
        return _river_rows_impl(spec, ids, reps)


def _river_rows_impl(spec: tuple, ids: np.ndarray, reps: np.ndarray) -> int:
    """Sum the 5-card cells of each 4-card class's 48 boards (one per river) into its W,
    L, WX rows, written in place into the shared arrays."""
    arrays = attach(spec)
    m = len(ids)
    boards = np.concatenate([np.repeat(reps, 48, axis=0),
                             remaining_cards(reps).reshape(-1, 1)], axis=1)
    s = summed_rows(spec, np.arange(m).repeat(48), boards)  # (m, 1326) packed sums
    win, tie = s & _M, (s >> FIELD) & _M
    ok = ~(_HOLES[None, :, :, None] == reps[:, None, None, :]).any(axis=(2, 3))
    arrays["W"][ids] = win
    arrays["L"][ids] = np.where(ok, RIVER_OUTCOMES - win - tie, 0)
    arrays["WX"][ids] = s >> (2 * FIELD)
    arrays["valid"][ids] = ok
    return m


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
    workers > 1 splits the work over that many processes; ``batch``: 4-card classes per
    worker task.

    Two steps: the showdown cells of every 5-card board class the 4-card boards reach
    (:func:`gpusim.exact.fives.five_card_table`, which also sums the per-starting-hand
    counts, each class weighted by the raw (4-card board, river) pairs it stands for), then
    per 4-card class the sum of its 48 boards' cells through their suit permutations.
    """
    bcls = board_classes(4)
    n = bcls.n_classes
    ids = np.arange(n) if board_ids is None else np.asarray(board_ids)

    def needed_of(b5) -> np.ndarray:
        reps = bcls.reps[ids]
        boards = np.concatenate([np.repeat(reps, 48, axis=0),
                                 remaining_cards(reps).reshape(-1, 1)], axis=1)
        return np.bincount(b5.lookup(boards)[0], weights=np.repeat(bcls.weights[ids], 48),
                           minlength=b5.n_classes).astype(np.int64)

    extra = {name: ((n, 1326), np.uint16) for name in ("W", "L", "WX")}
    extra["valid"] = ((n, 1326), np.bool_)
    chunks = [ids[i : i + batch] for i in range(0, len(ids), batch)]
    arrays, acc = two_stages("thb", int(ante_from), needed_of, _river_rows, chunks, bcls.reps,
                             extra, workers=workers, progress=progress)
    return RiverCounts(
        boards=bcls.reps,
        weights=bcls.weights,
        class_wins=acc["cw"].reshape(169, 10),
        class_ties=acc["ct"],
        class_losses=acc["cl"],
        class_hands=acc["ch"].reshape(169, 10),
        ante_from=int(ante_from),
        **arrays,
    )


def turn_counts(river: RiverCounts, flop_id: int) -> dict[str, np.ndarray]:
    """Stage 2 for one canonical flop: per turn card and hole, the stage-1 counts.

    Returns arrays of shape (49, 1326) (turn card t = the 49 unseen cards, ascending):
    ``W, L, WX`` (int64), ``board_class``/``board_perm`` of F + t, ``hole_in_class``
    (index of the hole relabelled into that class's suits), and ``turn`` (49,) the cards.
    Holes that meet F + t have zero counts.
    """
    b3 = board_classes(3)
    b4 = board_classes(4)
    flop = b3.reps[flop_id]
    turns = np.setdiff1d(np.arange(52), flop)
    fours = np.concatenate([np.broadcast_to(flop, (49, 3)), turns[:, None]], axis=1)
    cls, perm = b4.lookup(fours)
    hin = hole_permutation_table()[perm.astype(np.int64)]  # (49, 1326)
    rows = cls[:, None]
    out = {name: getattr(river, name)[rows, hin].astype(np.int64) for name in ("W", "L", "WX")}
    out["valid"] = river.valid[rows, hin]
    out["board_class"] = np.broadcast_to(rows, hin.shape)
    out["hole_in_class"] = hin
    out["turn"] = turns
    return out


# --- stage 2 and pricing -------------------------------------------------------------------------

CLASS_COMBOS = np.bincount(HOLE_CLASS, minlength=169).astype(np.int64)


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


@cache
def _flop_turns(f: int) -> tuple[np.ndarray, ...]:
    """Flop class f's turn cards, one per orbit of the flop's suit symmetry: (turns (m,),
    orbit sizes (m,) int64, stabilizer, 4-card class (m,) int64, suit permutation (m,))."""
    b3, b4 = board_classes(3), board_classes(4)
    flop = b3.reps[f]
    turns = np.setdiff1d(np.arange(52), flop)
    stab = stabilizer(flop)
    size = np.ones(len(turns), dtype=np.int64)
    if len(stab) > 1:
        key = permute_cards(np.broadcast_to(turns[:, None], (len(stab), 49, 1)),
                            np.broadcast_to(stab[:, None], (len(stab), 49)))[..., 0].min(0)
        size = np.bincount(key, minlength=52)[turns]
        turns, size = turns[key == turns], size[key == turns]
    m = len(turns)
    cls, perm = b4.lookup(np.concatenate([np.broadcast_to(flop, (m, 3)), turns[:, None]], axis=1))
    return turns, size, stab, cls.astype(np.int64), perm.astype(np.int64)


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
    # Everything a (4-card class, hole) cell holds in one word, so that each flop reads its
    # 49 x 1,326 cells with one gather: W, L, WX (16 bits each), valid, River bet.
    u = np.uint64
    packed = (river.W.astype(u) | (river.L.astype(u) << u(16)) | (river.WX.astype(u) << u(32))
              | (river.valid.astype(u) << u(48))
              | (np.asarray(river_bet, dtype=bool).astype(u) << u(49))).reshape(-1)
    perms = hole_permutation_table()
    offsets = np.arange(8)[:, None]
    for f in range(n3):
        flop = b3.reps[f]
        turns, size, stab, cls, perm = _flop_turns(f)
        m = len(turns)
        # the word's four 16-bit fields as views (little-endian words, as on x86 and ARM):
        # W, L, WX, flags (valid, River bet)
        x = packed[cls[:, None] * 1326 + perms[perm]].view(np.uint16).reshape(m, 1326, 4)
        W, L, WX, flags = x[..., 0], x[..., 1], x[..., 2], x[..., 3]
        # int32 is exact: the orbit sizes add up to 49, so a sum stays below 49 * 2**16
        vals = np.empty((4, m, 1326), dtype=np.int32)  # win w/o Ante pay, with, tie, loss
        np.subtract(W, WX, out=vals[0], dtype=np.int32)
        vals[1] = WX
        vals[3] = L
        np.subtract(RIVER_OUTCOMES - W.astype(np.int32), L, out=vals[2])
        vals[2] *= flags & 1
        # per hole, the four outcome counts summed over the turns without / with a River
        # bet (rows 0-3, 4-7), each turn weighted by its orbit's size
        rbw = (flags >> 1).astype(np.int32) * size.astype(np.int32)[:, None]
        with_bet = np.einsum("kth,th->kh", vals, rbw)
        total = np.einsum("kth,t->kh", vals, size.astype(np.int32))
        sums = np.concatenate([total - with_bet, with_bet])  # (8, 1326)
        if len(stab) > 1:
            sums = symmetrize(sums, perms[stab], axis=1)
        sums = sums.astype(np.int64)
        if isinstance(turn_rule, np.ndarray):
            tb = turn_rule[f]
        else:
            tw = sums[0] + sums[1] + sums[4] + sums[5]  # wins
            tl = sums[3] + sums[7]  # losses
            if callable(turn_rule):
                tb = np.asarray(turn_rule(tw, tl), dtype=bool)
            elif turn_rule == "optimal":
                tb = tw > tl
            elif turn_rule == "over_half":
                tb = 2 * tw > TURN_OUTCOMES
            else:
                raise ValueError(f"turn rule {turn_rule!r}: allowed 'optimal', 'over_half'")
            tb = tb & ~(_HOLES[:, :, None] == flop[None, None, :]).any(axis=(1, 2))
        turn[f] = tb
        keys = ((HOLE_CLASS * 4 + tb.astype(np.int64) * 2) * 4)[None, :] + offsets
        wf = float(b3.weights[f])
        joint += np.bincount(keys.ravel(), weights=sums.ravel() * wf, minlength=169 * 16)
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
    return num, CLASS_COMBOS * OUTCOMES_PER_HOLE
