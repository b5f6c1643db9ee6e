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
from gpusim.exact.boards import PAIR_I, PAIR_J, board_counts
from gpusim.index import board_classes, hole_index, permute_cards, subsets

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


_ROYAL = np.uint32((8 << 27) | ((1 << 12) << 13))


def pay_class(rank):
    r = np.asarray(rank, dtype=np.uint32)
    return np.where(r == _ROYAL, 9, (r >> np.uint32(27)).astype(np.int32)).astype(np.int32)


_HOLES = subsets(2).astype(np.int32)
HOLE_CLASS = hand_class_index(_HOLES[:, 0], _HOLES[:, 1]).astype(np.int64)


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
    pc = pay_class(bc.rank)
    # per (class in batch, hole): sum over the 48 rivers
    key = (np.arange(nb).repeat(48)[:, None] * 1326 + h).ravel()
    size = nb * 1326
    out = {}
    for name, val in (("W", win), ("L", loss), ("WX", np.where(pc >= ante_from, win, 0))):
        out[name] = np.bincount(key, weights=val.ravel(), minlength=size).reshape(nb, 1326)
    out["valid"] = np.bincount(key, minlength=size).reshape(nb, 1326) > 0
    wt = weights.repeat(48)[:, None]  # weight per board row
    hc = HOLE_CLASS[h]
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
        key = (HOLE_CLASS[None, :] * 4 + tb[None, :].astype(np.int64) * 2 + rb) * 4
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
    return num, CLASS_COMBOS * OUTCOMES_PER_HOLE
