"""The street-bets hold'em shape (Texas Hold'em Bonus's: a flop bet or a fold pre-flop, then a
1:1 bet or a check on the turn and on the river) by full enumeration: river, turn and preflop
decisions and their counts.

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

from gpusim.board_index import board_classes, subsets
from gpusim.exact import _native
from gpusim.exact._parallel import attach
from gpusim.exact._profile import stage
from gpusim.exact.boards import remaining_cards
from gpusim.exact.fives import (
    FIELD,
    HOLE_CLASS,
    N_HOLES,
    binned_sums,
    hole_bins,
    hole_permutation_table,
    pay_class,
    summed_rows,
    two_stages,
)

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
_HOLE_BITS = (np.int64(1) << _HOLES[:, 0]) | (np.int64(1) << _HOLES[:, 1])


def _meets(boards: np.ndarray) -> np.ndarray:
    """(m, 1326) bool: the holes that share a card with each board ((m, k) cards)."""
    bits = np.zeros(len(boards), dtype=np.int64)
    for j in range(boards.shape[1]):
        bits |= np.int64(1) << boards[:, j].astype(np.int64)
    return (bits[:, None] & _HOLE_BITS[None, :]) != 0


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
    ok = ~_meets(reps)
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
    (P(win) > 1/2, the Swedish rules' text)."""
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


_FLOPS_PER_CALL = 256  # flop classes per binned-sums call: the numpy form's keys stay small


@cache
def _turn_boards() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every flop class's 49 turn boards, flop-major: (4-card class, suit permutation), (1755 x
    49,) int64 each, and the holes that meet each flop, (1755, 1326) bool."""
    b3, b4 = board_classes(3), board_classes(4)
    flops = b3.reps
    turns = remaining_cards(flops)
    cls, perm = b4.lookup(np.concatenate([np.repeat(flops, 49, axis=0), turns.reshape(-1, 1)],
                                         axis=1))
    return cls.astype(np.int64), perm.astype(np.int64), _meets(flops)


def _outcome_tables(river: RiverCounts, native: bool) -> tuple[list[np.ndarray], int]:
    """The four outcome counts of every (4-card class, hole) as two (16432, 1326) tables of two
    fields each, (wins without Ante pay | wins with, ties | losses), and the second field's
    shift. A field sums at most 49 turns of 45,540 outcomes, below 2**22: fields never carry.

    For the compiled binned sums, int64 words of two 32-bit fields, written as uint32 halves
    (the fastest to build); for the numpy form, float64 values with the second field x 2**22,
    whose sums stay below 2**44, exact, and are binned in one pass instead of two halves."""
    if native:
        fields = np.empty((2, len(river.W), N_HOLES, 2), dtype=np.uint32)  # little-endian
        np.subtract(river.W, river.WX, out=fields[0, ..., 0], dtype=np.uint32)
        fields[0, ..., 1] = river.WX
        np.subtract(RIVER_OUTCOMES, river.W, out=fields[1, ..., 0], dtype=np.uint32)
        fields[1, ..., 0] -= river.L
        fields[1, ..., 0] *= river.valid  # no ties where the hole meets the board
        fields[1, ..., 1] = river.L
        return [f.view(np.int64)[..., 0] for f in fields], 32
    shift = float(1 << 22)
    W, L, WX = (a.astype(np.float64) for a in (river.W, river.L, river.WX))
    wins = W - WX
    wins += WX * shift
    ties = RIVER_OUTCOMES - W
    ties -= L
    ties *= river.valid
    ties += L * shift
    return [wins, ties], 22


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
    turn-level (wins, losses) arrays ((1755, 1326) int64, of TURN_OUTCOMES each) returning bet
    flags. progress(flop classes done, 1755).

    Per flop class, its 49 turn boards' stage-1 cells are summed in the flop's suits by
    (River bet, hole) with :func:`gpusim.exact.fives.binned_sums`: four outcome sums per
    (flop, River bet, hole), from which the Turn rule and the joint counts follow.
    """
    b3 = board_classes(3)
    n3 = b3.n_classes
    if isinstance(turn_rule, str) and turn_rule not in ("optimal", "over_half"):
        raise ValueError(f"turn rule {turn_rule!r}: allowed 'optimal', 'over_half'")
    cls, perm, meets = _turn_boards()
    tables, shift = _outcome_tables(river, _native.loaded_library() is not None)
    code = np.ascontiguousarray(river_bet, dtype=bool).view(np.uint8)
    base = hole_bins()  # a class-suit hole's bin in the flop's suits
    # (table, flop, River bet, hole): the packed sums over the flop's 49 turns
    acc = np.empty((2, n3, 2, N_HOLES), dtype=np.int64)
    for lo in range(0, n3, _FLOPS_PER_CALL):
        hi = min(n3, lo + _FLOPS_PER_CALL)
        boards = slice(lo * 49, hi * 49)
        acc[:, lo:hi] = binned_sums(
            tables, code, cls[boards], perm[boards], np.ones(49 * (hi - lo), dtype=np.int64),
            base, (hi - lo) * 2 * N_HOLES, code_stride=N_HOLES,
            offset=np.arange(hi - lo).repeat(49) * (2 * N_HOLES),
        ).reshape(2, hi - lo, 2, N_HOLES)
        if progress is not None:
            progress(hi, n3)
    # (outcome: win without Ante pay, with, tie, loss; flop; River bet; hole)
    low = (1 << shift) - 1
    sums = np.stack([acc[0] & low, acc[0] >> shift, acc[1] & low, acc[1] >> shift])
    if isinstance(turn_rule, np.ndarray):
        turn = np.asarray(turn_rule, dtype=bool)
    else:
        tw = sums[:2].sum(axis=(0, 2))  # wins, (1755, 1326)
        tl = sums[3].sum(axis=1)  # losses
        if callable(turn_rule):
            turn = np.asarray(turn_rule(tw, tl), dtype=bool)
        elif turn_rule == "optimal":
            turn = tw > tl
        else:
            turn = 2 * tw > TURN_OUTCOMES
        turn = turn & ~meets
    # joint[class, Turn bet, River bet, outcome]: each flop weighted by the raw flops of its
    # class, the holes summed into their starting-hand classes (int64 throughout)
    weight = b3.weights.astype(np.int64)[:, None]
    with_turn = np.einsum("ofrh,fh->roh", sums, weight * turn)
    every = np.einsum("ofrh,fh->roh", sums, np.broadcast_to(weight, turn.shape))
    by_hole = np.stack([every - with_turn, with_turn])  # (Turn bet, River bet, outcome, hole)
    one_hot = (HOLE_CLASS[:, None] == np.arange(169)[None, :]).astype(np.int64)
    joint = by_hole.reshape(16, N_HOLES) @ one_hot  # (16, 169)
    return TurnPass(turn=turn, joint=np.ascontiguousarray(joint.T).reshape(169, 2, 2, 4))


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
