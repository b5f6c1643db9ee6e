"""The call-once hold'em shape's paytables for ``gpusim design``, whatever game carries the
shape (any description of it, Casino Hold'em's among them): the side bet's hit counts per
line (:func:`side_hits`), the side bet as it plays where a fold forfeits it
(:class:`SideUnderStrategy`, :func:`side_forfeit_model`) and the Ante's main-game model
(:class:`AnteModel`, :func:`ante_main_model`), priced under the optimal call re-optimised per
candidate by the designer's searches (:mod:`gpusim.designer.sidebet`,
:mod:`gpusim.designer.maingame`). A game's numbers come from its exact solver's module:
``prices_of(rules)`` (:class:`gpusim.games.holdem.call_once.CallPrices`) and
``line_classes(rules, bet, lines)`` (the pay classes each line pays).

Per situation ``s`` (flop class x hole, ``w_s`` raw deals) the counts give, for the player's
final hand in Ante line ``l``: ``nq_l`` outcomes where the dealer does not qualify, ``qw_l``
where the dealer qualifies and the player wins, plus ties and ``loss``. With Ante pays ``a``
(X:1) and a call of ``t`` Antes, a call nets, in antes over the situation's outcomes
(:func:`.call_once.call_margin`)::

    call_s(a) = (nq_s + qw_s) . a + t sum(qw_s) - (1 + t) loss_s,     fold = -outcomes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from functools import cache

import numpy as np

from gpusim.games.holdem.call_once import call_margin, side_class
from gpusim.games.holdem.call_once_counts import CH_OUTCOMES, N_PAY_CLASSES

__all__ = ["AnteModel", "SideUnderStrategy", "ante_main_model", "line_classes", "line_matrix",
           "lines_of", "prices_of", "side_class_counts", "side_forfeit_model", "side_hits"]


def prices_of(rules):
    """The config's numbers of the shape (:func:`gpusim.games.holdem.call_once_shape.prices_of`)."""
    from gpusim.games.holdem.call_once_shape import prices_of as of_shape

    return of_shape(rules)


def line_classes(rules, bet: str, lines: tuple[str, ...]) -> list[tuple[int, ...]]:
    """The pay classes (side classes for the side bet) each of the bet's lines pays."""
    from gpusim.games.holdem.call_once_shape import line_classes as of_shape

    return of_shape(rules, bet, lines)


def lines_of(rules, bet: str) -> tuple[str, ...]:
    """The bet's paytable lines in the game's order (best hand first), as the config has them."""
    from gpusim.games import spec_for

    spec = spec_for(rules)
    current = spec.paytable(rules, bet)
    return tuple(ln for ln in spec.paytables[bet] if ln in current)


def _label(rules, bet: str) -> str:
    from gpusim.games import spec_for

    return (spec_for(rules).labels or {}).get(bet, bet)


def line_matrix(classes: list[tuple[int, ...]]) -> np.ndarray:
    """(10, L) 0/1: which line pays each pay class (category, royal flush last)."""
    m = np.zeros((N_PAY_CLASSES, len(classes)), dtype=np.int64)
    for j, cs in enumerate(classes):
        m[list(cs), j] = 1
    return m


@dataclass(frozen=True)
class AnteModel:
    """Per-situation features of the shape's main game (S situations, L Ante lines).

    feat: (S, 2L + 2) float64: nq per line, qw per line, loss, 1 (times nothing: the weight is
    in ``w``); x: (S, L) nq + qw; k: (S,) the margin's constant in money units (ante x (t qw -
    (1 + t) loss + outcomes) + side bet, t the call's multiple ``times``); cbase: (S,) a call's
    net at pays 0 (t qw - (1 + t) loss, antes); wfeat: feat x w; w: (S,) raw deals; outcomes
    per situation, ante stake, every situation's deal count ``deals`` (= sum w x outcomes).
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
    times: int = 2

    @classmethod
    def from_counts(cls, counts, rules, lines: tuple[str, ...], *, with_side_bet: bool):
        """From the cached counts (:class:`gpusim.games.holdem.call_once_counts.ChCounts`) and
        the config (its stakes, side bet paytable and fold rule, which the margin includes)."""
        prices = prices_of(rules)
        m = line_matrix(line_classes(rules, "ante", lines))
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
        ante = int(prices.ante)
        t = prices.call_times
        # the part of the margin no Ante pay moves: the margin at pays 0
        zero = replace(prices, ante_pays=(0,) * N_PAY_CLASSES)
        k = call_margin(counts, zero, with_side_bet=with_side_bet)[valid].astype(np.float64)
        x = nq + qw
        # a call's net is x . a + cbase (antes x outcomes)
        cbase = t * qw.sum(axis=1) - (1 + t) * loss
        return cls(lines, feat, x, k, cbase, feat * w[:, None], w, CH_OUTCOMES, ante,
                   int(round(w.sum())) * CH_OUTCOMES, t)

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
        t = self.times
        net = (nq * a).sum(axis=1) + (qw * (a + t)).sum(axis=1) - (1 + t) * loss - folds
        net2 = (nq * a * a).sum(axis=1) + (qw * (a + t) ** 2).sum(axis=1) \
            + (1 + t) ** 2 * loss + folds
        won = (nq * (a > 0)).sum(axis=1) + (qw * (a + t > 0)).sum(axis=1)
        return net, net2, won, folds + (1 + t) * calls, calls


@cache
def side_class_counts(pair_ranks: int) -> tuple[int, ...]:
    """Five-card hands (of C(52, 5)) per side class (pay class; a pair of the ranks in the mask
    ``pair_ranks`` = 10): every hand evaluated once, then kept in the exact cache folder beside
    the enumeration counts."""
    from gpusim.exact.cache import cache_dir

    name = ("aa_bonus_classes_v1.npy" if pair_ranks == 1 << 12 else
            f"side_classes_{pair_ranks:04x}_v1.npy")
    path = cache_dir() / name
    if path.is_file():
        return tuple(int(v) for v in np.load(path))
    from gpusim.board_index import subsets
    from gpusim.evaluator import evaluate_np

    ranks = evaluate_np(subsets(5), check=False)
    counts = np.bincount(side_class(ranks, pair_ranks), minlength=11).astype(np.int64)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.npy")
    np.save(tmp, counts)
    os.replace(tmp, path)
    return tuple(int(v) for v in counts)


def side_hits(rules, bet: str) -> tuple[dict[str, int], int]:
    """({line: five-card hands it pays}, hands) of the side bet (the player's best five of hole
    + flop), over every five-card hand; lines in paytable order."""
    by_class = side_class_counts(prices_of(rules).side_pair_ranks)
    lines = lines_of(rules, bet)
    return {ln: sum(by_class[c] for c in cs)
            for ln, cs in zip(lines, line_classes(rules, bet, lines), strict=True)}, sum(by_class)


def _counts(rules, progress: bool):
    """The call-once solver's counts (cached per dealer qualifier; the game's exact reports come
    from the community-card solver, whose counts are not this shape's)."""
    from gpusim.games.holdem.call_once_described import SOLVER

    return SOLVER.counts(rules, progress=progress)


def ante_main_model(rules, bet: str, strategy: str, counts=None, progress: bool = False,
                    with_side_bet: bool = True, *, space=None):
    """The Ante paytable priced under the optimal call re-optimised per candidate
    (``with_side_bet``: the call counts the side bet a fold forfeits)."""
    del space  # every Ante paytable is priced from the same counts
    if counts is None:
        counts = _counts(rules, progress)
    return AnteModel.from_counts(counts, rules, lines_of(rules, bet), with_side_bet=with_side_bet)


class SideUnderStrategy:
    """The shape's side bet where a fold forfeits it (Casino Hold'em's AA Bonus), as it plays
    under ``optimal`` re-optimised for each candidate (``reoptimised``), or under a strategy
    whose calls ignore the side bet (``optimal-main``): a separable model for
    :func:`gpusim.designer.sidebet.search_side_bet`.

    Each situation (flop class x hole, ``w`` raw deals x ``CH_OUTCOMES`` outcomes each) has one
    side class (hole + flop), so one line. The call's margin over a fold, in money units x
    outcomes, is ``m0`` (the main game's, :func:`.call_once.call_margin` without the side bet) plus,
    under ``optimal`` and a line paying ``P`` (X:1), ``stake x (P + 1) x CH_OUTCOMES``: what the
    fold gives up. The situations of a line sorted by ``m0``, the ones called at pay ``P`` are
    those above ``-stake (P + 1) CH_OUTCOMES``: a suffix, summed from cumulative sums. In
    situation units (every outcome of a situation settles the AA Bonus alike), with ``c_l(P)``
    the situations called and ``D_l`` all those of line ``l``::

        s(P) = sum_l [c_l(P_l) (P_l + 1) - D_l] - lose,     RTP = 1 + s / N,

    where ``lose`` counts the situations of the classes no line pays. ``c_l`` never falls as
    ``P_l`` rises, so each term is non-decreasing: the search's bound holds. The figures are the
    exact report's ``bets.<side bet>`` (its ``under_strategy``), to the last digit; beside them
    the Ante RTP (``main_rtp``, the main game under the same calls) and the call rate.
    """

    shown = ("rtp", "house_edge", "hit_frequency", "sd", "vi", "main_rtp", "call_rate")

    def __init__(self, counts, rules, lines: tuple[str, ...], strategy: str,
                 reoptimised: bool) -> None:
        p = prices_of(rules)
        valid = counts.valid
        w = np.broadcast_to(counts.weights.astype(np.int64)[:, None], valid.shape)[valid]
        cls = side_class(counts.bonus_rank, p.side_pair_ranks)[valid]
        m0 = call_margin(counts, p, with_side_bet=False)[valid].astype(np.int64)
        ante = int(p.ante)
        # a call's main-game net, antes summed over the situation's outcomes (m0 = ante x
        # (call + outcomes))
        call_net = m0 // ante - CH_OUTCOMES
        self.lines, self.strategy, self.reoptimised = lines, strategy, reoptimised
        self.stake = int(p.side_stake)
        self.N = int(w.sum())
        line_cls = line_classes(rules, str(p.side), lines)
        other = ~np.isin(cls, [c for cs in line_cls for c in cs])
        called = other & (m0 > 0)  # no line pays these: the side bet adds nothing to a call
        self.lose = int(w[other].sum())
        self.fixed_called = int(w[called].sum())
        self.fixed_main = int((w[called] * call_net[called]).sum()) \
            - CH_OUTCOMES * int(w[other & ~called].sum())
        # per line: margins ascending, and suffix sums of what the called situations add
        self.m0, self.cw, self.cnet, self.D = [], [], [], []
        for cs in line_cls:
            at = np.flatnonzero(np.isin(cls, cs))
            order = at[np.argsort(m0[at], kind="stable")]
            self.m0.append(m0[order])
            self.cw.append(np.concatenate([np.cumsum(w[order][::-1])[::-1], [0]]))
            self.cnet.append(np.concatenate([np.cumsum((w * call_net)[order][::-1])[::-1],
                                             [0]]))
            self.D.append(int(w[order].sum()))
        self.den, self.offset = self.N, -self.lose
        label = _label(rules, str(p.side))
        self.strategy_text = (f"strategy {strategy} re-optimised for each (its calls count the "
                              f"{label} a fold forfeits)" if reoptimised else
                              f"strategy {strategy} (its calls ignore the {label}: the same for "
                              "every candidate)")

    def _first_called(self, line: int, values: np.ndarray) -> np.ndarray:
        """Index, in line ``line``'s sorted situations, of the first one called at each pay."""
        if not self.reoptimised:
            return np.full(len(values), np.searchsorted(self.m0[line], 0, side="right"))
        edge = -self.stake * (np.asarray(values, np.int64) + 1) * CH_OUTCOMES
        return np.searchsorted(self.m0[line], edge, side="right")

    def called(self, line: int, values: np.ndarray) -> np.ndarray:
        """Situations (weighted) of line ``line`` called at each pay of ``values``."""
        return self.cw[line][self._first_called(line, values)]

    def gains(self, line: int, values: np.ndarray) -> np.ndarray:
        v = np.asarray(values, dtype=np.int64)
        return self.called(line, v) * (v + 1) - self.D[line]

    def figures(self, pays: np.ndarray, s, z: float) -> dict[str, np.ndarray]:
        p = np.asarray(pays, dtype=np.int64)
        s2 = np.full(len(p), float(self.lose))
        won = np.zeros(len(p))
        calls = np.full(len(p), float(self.fixed_called))
        main = np.full(len(p), float(self.fixed_main))
        for j in range(p.shape[1]):
            k = self._first_called(j, p[:, j])
            c = self.cw[j][k].astype(float)
            pf = p[:, j].astype(float)
            s2 += c * pf * pf + (self.D[j] - c)
            won += np.where(p[:, j] > 0, c, 0.0)
            calls += c
            main += self.cnet[j][k] - CH_OUTCOMES * (self.D[j] - c)
        mean = np.asarray(s, dtype=float) / self.N
        sd = np.sqrt(np.maximum(s2 / self.N - mean * mean, 0.0))
        return {"rtp": 1 + mean, "house_edge": -mean, "hit_frequency": won / self.N,
                "sd": sd, "vi": z * sd, "main_rtp": 1 + main / (self.N * CH_OUTCOMES),
                "call_rate": calls / self.N}

    def exact(self, pays: np.ndarray, s) -> dict[str, list]:
        """The shown figures beside the RTP of the kept candidates, from exact integer sums
        (SD as the float of the exact variance)."""
        import math
        from fractions import Fraction

        out: dict[str, list] = {"sd": [], "main_rtp": [], "call_rate": [], "hit_frequency": []}
        for row, sv in zip(np.asarray(pays, dtype=np.int64), s, strict=True):
            s2, won, calls, main = self.lose, 0, self.fixed_called, self.fixed_main
            for j, v in enumerate(row.tolist()):
                k = int(self._first_called(j, np.array([v]))[0])
                c = int(self.cw[j][k])
                s2 += c * v * v + self.D[j] - c
                won += c if v > 0 else 0
                calls += c
                main += int(self.cnet[j][k]) - CH_OUTCOMES * (self.D[j] - c)
            mean = Fraction(int(sv), self.N)
            out["sd"].append(math.sqrt(float(Fraction(s2, self.N) - mean * mean)))
            out["main_rtp"].append(float(1 + Fraction(main, self.N * CH_OUTCOMES)))
            out["call_rate"].append(float(Fraction(calls, self.N)))
            out["hit_frequency"].append(float(Fraction(won, self.N)))
        return out


def side_forfeit_model(rules, bet: str, strategy: str, counts=None, progress: bool = False,
                       reoptimised: bool = True, *, space=None) -> SideUnderStrategy:
    """The side bet where a fold forfeits it, priced under ``strategy`` (``reoptimised``: the
    strategy counts the side bet, so it is re-optimised for each candidate); ``counts``: the
    cached enumeration counts (default: counted on first use)."""
    del space
    if counts is None:
        counts = _counts(rules, progress)
    return SideUnderStrategy(counts, rules, lines_of(rules, bet), strategy, reoptimised)
