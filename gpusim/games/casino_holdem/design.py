"""Casino Hold'em's paytables for ``gpusim design``: the AA Bonus's hit counts per line
(:func:`aa_bonus_hits`) and the Ante's main-game model (:class:`AnteModel`,
:func:`ante_main_model`), priced under the optimal call re-optimised per candidate by the
designer's search (:mod:`gpusim.designer.maingame`).

Per situation ``s`` (flop class x hole, ``w_s`` raw deals) the counts give, for the player's
final hand in Ante line ``l``: ``nq_l`` outcomes where the dealer does not qualify, ``qw_l``
where the dealer qualifies and the player wins, plus ties and ``loss``. With Ante pays ``a``
(X:1) a call nets, in antes over the situation's outcomes (:func:`.exact.call_margin`)::

    call_s(a) = (nq_s + qw_s) . a + 2 sum(qw_s) - 3 loss_s,     fold = -outcomes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache

import numpy as np

from gpusim.cards import CATEGORY_KEYS
from gpusim.games.casino_holdem.exact import (
    CH_OUTCOMES,
    N_PAY_CLASSES,
    aa_bonus_class,
    call_margin,
)
from gpusim.games.casino_holdem.rules import AA_BONUS_LINES, ANTE_LINES

__all__ = ["AnteModel", "aa_bonus_hits", "ante_line_matrix", "ante_main_model"]


def _lines(rules, bet: str) -> tuple[str, ...]:
    """The bet's paytable lines in the game's order (best hand first), as the config has them."""
    table = rules.ante_paytable if bet == "ante" else rules.aa_bonus_paytable
    order = ANTE_LINES if bet == "ante" else AA_BONUS_LINES
    return tuple(ln for ln in order if ln in table)


def ante_line_matrix(lines: tuple[str, ...]) -> np.ndarray:
    """(10, L) 0/1: which Ante line pays each pay class (category, royal flush last); the
    ``straight_or_less`` line pays every class up to a straight (as
    :func:`gpusim.games.casino_holdem.exact.ante_pays` reads the paytable)."""
    m = np.zeros((len(CATEGORY_KEYS), len(lines)), dtype=np.int64)
    for j, name in enumerate(lines):
        if name == "straight_or_less":
            m[: CATEGORY_KEYS.index("straight") + 1, j] = 1
        else:
            m[CATEGORY_KEYS.index(name), j] = 1
    return m


@dataclass(frozen=True)
class AnteModel:
    """Per-situation features of the Casino Hold'em main game (S situations, L Ante lines).

    feat: (S, 2L + 2) float64: nq per line, qw per line, loss, 1 (times nothing: the weight is
    in ``w``); x: (S, L) nq + qw; k: (S,) the margin's constant in money units (ante x (2 qw -
    3 loss + outcomes) + bonus); cbase: (S,) a call's net at pays 0 (2 qw - 3 loss, antes);
    wfeat: feat x w; w: (S,) raw deals; outcomes per situation, ante stake, every
    situation's deal count ``deals`` (= sum w x outcomes).
    """

    lines: tuple[str, ...]
    feat: np.ndarray
    x: np.ndarray
    k: np.ndarray
    cbase: np.ndarray
    wfeat: np.ndarray
    w: np.ndarray
    outcomes: int
    ante: int
    deals: int

    @classmethod
    def from_counts(cls, counts, rules, lines: tuple[str, ...], *, with_side_bet: bool):
        """From the cached counts (:class:`gpusim.games.casino_holdem.exact.ChCounts`) and the
        config (its stakes, AA Bonus paytable and fold rule, which the margin includes)."""
        m = ante_line_matrix(lines)
        valid = counts.valid
        ct = np.ascontiguousarray(counts.counts[valid].T)  # (22, S): whole rows per event
        n_l = len(lines)
        feat = np.empty((2 * n_l + 2, ct.shape[1]))
        # each line sums its pay classes' rows
        for j in range(n_l):
            cls_j = np.nonzero(m[:, j])[0]
            feat[j] = ct[cls_j].sum(axis=0)
            feat[n_l + j] = ct[N_PAY_CLASSES + cls_j].sum(axis=0)
        feat[2 * n_l] = ct[-1]
        feat[2 * n_l + 1] = 1
        feat = np.ascontiguousarray(feat.T)  # (S, 2L + 2): the search gathers rows
        nq, qw, loss = feat[:, :n_l], feat[:, n_l:2 * n_l], feat[:, 2 * n_l]
        w = np.broadcast_to(counts.weights.astype(np.float64)[:, None], valid.shape)[valid]
        ante = int(rules.stakes.ante)
        # the part of the margin no Ante pay moves: the margin at pays 0
        zero = _with_zero_ante(rules, lines)
        k = call_margin(counts, zero, with_side_bet=with_side_bet)[valid].astype(np.float64)
        x = nq + qw
        # a call's net is x . a + cbase (antes x outcomes)
        cbase = 2 * qw.sum(axis=1) - 3 * loss
        return cls(lines, feat, x, k, cbase, feat * w[:, None], w, CH_OUTCOMES, ante,
                   int(round(w.sum())) * CH_OUTCOMES)

    def margin(self, idx: np.ndarray, pays: np.ndarray) -> np.ndarray:
        """(len(idx), K) margins in money units x outcomes of pays (K, L)."""
        return self.ante * (self.x[idx] @ pays.T.astype(np.float64)) + self.k[idx, None]

    def totals(self, agg: np.ndarray, pays: np.ndarray):
        """Exact main-game sums of candidates from their called aggregates agg (K, 2L + 2):
        (net, net^2, deals won, wagered, calls) in antes, Python ints (object arrays)."""
        n_l = len(self.lines)
        a = pays.astype(object)
        g = np.rint(agg).astype(np.int64).astype(object)
        nq, qw, loss, sit = g[:, :n_l], g[:, n_l:2 * n_l], g[:, 2 * n_l], g[:, 2 * n_l + 1]
        calls = sit * self.outcomes
        folds = self.deals - calls
        net = (nq * a).sum(axis=1) + (qw * (a + 2)).sum(axis=1) - 3 * loss - folds
        net2 = (nq * a * a).sum(axis=1) + (qw * (a + 2) ** 2).sum(axis=1) + 9 * loss + folds
        won = (nq * (a > 0)).sum(axis=1) + (qw * (a + 2 > 0)).sum(axis=1)
        return net, net2, won, folds + 3 * calls, calls


def _with_zero_ante(rules, lines):
    """The config with every Ante line paying 0 (the margin's constant part)."""
    import dataclasses

    from gpusim.rules import Paytable

    return dataclasses.replace(rules, ante_paytable=Paytable(tuple((ln, 0) for ln in lines)))


@cache
def _five_card_aa_classes() -> tuple[int, ...]:
    """Five-card hands (of C(52, 5)) per AA Bonus class (pay class; pair of aces = 10): every
    hand evaluated once, then kept in the exact cache folder beside the enumeration counts."""
    from gpusim.exact.cache import cache_dir

    path = cache_dir() / "aa_bonus_classes_v1.npy"
    if path.is_file():
        return tuple(int(v) for v in np.load(path))
    from gpusim.board_index import subsets
    from gpusim.evaluator import evaluate_np

    ranks = evaluate_np(subsets(5), check=False)
    counts = np.bincount(aa_bonus_class(ranks), minlength=11).astype(np.int64)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.npy")
    np.save(tmp, counts)
    os.replace(tmp, path)
    return tuple(int(v) for v in counts)


def aa_bonus_hits(rules, bet: str) -> tuple[dict[str, int], int]:
    """({line: five-card hands it pays}, hands) of Casino Hold'em's AA Bonus (the player's best
    five of hole + flop), over every five-card hand; lines in paytable order."""
    by_class = _five_card_aa_classes()
    lines = _lines(rules, bet)
    cls = [10 if ln == "pair_of_aces" else CATEGORY_KEYS.index(ln) for ln in lines]
    return {ln: by_class[c] for ln, c in zip(lines, cls, strict=True)}, sum(by_class)


def ante_main_model(rules, bet: str, strategy: str, counts=None, progress: bool = False,
                    with_side_bet: bool = True):
    """Casino Hold'em's Ante paytable priced under the optimal call re-optimised per candidate
    (``with_side_bet``: the call counts the side bet a fold forfeits)."""
    if counts is None:
        from gpusim.games.casino_holdem.exact import SOLVER

        counts = SOLVER.counts(rules, progress=progress)
    lines = _lines(rules, bet)
    return AnteModel.from_counts(counts, rules, lines, with_side_bet=with_side_bet)
