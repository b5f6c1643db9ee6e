"""The deals a described game's exact solve counts (:mod:`gpusim.games.described.solver`):
the rows of every stage dealt out, each row's outcome counts with the dealer's face-down cards
counted (:class:`gpusim.exact.dealer_counts.DealerCounts`), and the paytable classes of hands,
in numpy."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from itertools import combinations

import numpy as np

from gpusim.board_index import set_index, subsets_from_index
from gpusim.exact.dealer_counts import DealerCounts, rank_np
from gpusim.games.described.description import Description
from gpusim.games.described.engine import threshold
from gpusim.games.described.layout import GameShape, layout
from gpusim.games.described.starting import starting_class_np

__all__ = ["Stages", "deal_stages", "expand", "hand_classes_np", "outcome_counts",
           "set_class_table"]


def _class_np(rank: np.ndarray, ranking: str, class_of: np.ndarray) -> np.ndarray:
    """The paytable class of packed ranks (as :func:`gpusim.games.described.engine.joint_code`
    computes it: the category, royal flush split, and the rank that names the hand)."""
    rank = rank.astype(np.int64)
    cat = rank >> 27
    primary = (rank >> 13) & 0x1FFF
    if ranking == "poker":
        cat = np.where((cat == 8) & (primary == (1 << 12)), 9, cat)
    bits = np.where(primary > 0, primary, rank & 0x1FFF)
    named = np.maximum(np.floor(np.log2(np.maximum(bits, 1))).astype(np.int64), 0)
    return class_of[cat * 13 + named].astype(np.int64)


@cache
def set_class_table(d: Description, hand: str) -> np.ndarray:
    """(C(52, k),) int8 class of every k-card set (a hand of exactly 3 or 5 cards)."""
    h = d.hand(hand)
    k = len(h.columns)
    cards = subsets_from_index(np.arange(math.comb(52, k)), k)
    return _class_np(rank_np(cards, h.ranking), h.ranking,
                     layout(d).class_of[hand]).astype(np.int8)


def hand_classes_np(d: Description, cards: np.ndarray) -> np.ndarray:
    """(N,) int64 mixed class code (``layout.decode``'s ``classes``) of rounds ``cards (N, C)``
    in the game's columns."""
    lay = layout(d)
    code = np.zeros(len(cards), np.int64)
    for h in lay.class_hands:
        hd = d.hand(h)
        sub = cards[:, list(hd.columns)]
        if hd.ranking == "starting_hand":
            cls = starting_class_np(cards, d, h)
        elif len(hd.columns) in (3, 5) and (hd.ranking == "poker") == (len(hd.columns) == 5):
            cls = set_class_table(d, h)[set_index(sub)].astype(np.int64)
        else:
            cls = _class_np(rank_np(sub, hd.ranking), hd.ranking, lay.class_of[h])
        code = code * len(lay.class_names[h]) + cls
    return code


@cache
def _dealer_counts(d: Description, deck: tuple[int, ...]) -> DealerCounts:
    assert d.showdown is not None
    _, dealer, qual = d.showdown
    h = d.hand(dealer)
    thr = threshold(qual, h.ranking) if qual is not None else 0
    return DealerCounts(deck, len(h.columns), h.ranking, thr)


def expand(cards: np.ndarray, m: int, deck: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every m-card set of ``deck`` that avoids each row's cards: (rows' index, new cards)."""
    combos = np.array(list(combinations(deck.tolist(), m)), np.int64).reshape(-1, m)
    cmask = np.zeros(len(combos), np.uint64)
    for j in range(m):
        cmask |= np.uint64(1) << combos[:, j].astype(np.uint64)
    rmask = np.zeros(len(cards), np.uint64)
    for j in range(cards.shape[1]):
        rmask |= np.uint64(1) << cards[:, j].astype(np.uint64)
    parent, which = np.nonzero((rmask[:, None] & cmask[None, :]) == 0)
    return parent, combos[which]


@dataclass
class Stages:
    """A chunk's rows stage by stage (:func:`deal_stages`): ``cards[s]`` (rows, cards dealt
    so far), ``new[s]`` the stage's own cards, ``parent[s]`` each row's row in stage s - 1."""

    cards: list[np.ndarray]
    new: list[np.ndarray]
    parent: list[np.ndarray]

    def ancestor(self, s_from: int, s_to: int) -> np.ndarray:
        """Each row of stage ``s_from``'s row in the earlier stage ``s_to``."""
        idx = np.arange(len(self.cards[s_from]))
        for s in range(s_from, s_to, -1):
            idx = self.parent[s][idx]
        return idx


def deal_stages(shape: GameShape, deck: np.ndarray, p_cards: np.ndarray) -> Stages:
    """Every stage after the player's cards dealt out from ``deck`` (rows in order, so each
    earlier stage's rows are runs of consecutive later rows)."""
    st = Stages([p_cards], [p_cards], [np.arange(len(p_cards))])
    for s in range(1, len(shape.stages)):
        parent, cards = expand(st.cards[-1], shape.stages[s][1], deck)
        st.parent.append(parent)
        st.new.append(cards)
        st.cards.append(np.concatenate([st.cards[-1][parent], cards], axis=1))
    return st


def outcome_counts(d: Description, shape: GameShape, st: Stages, deck: np.ndarray,
                   group: np.ndarray, n_groups: int) -> np.ndarray:
    """(deepest point's rows, n_groups) int64: the deals after each row by outcome code
    (dealer result x paytable classes), codes summed into ``group[code]``: the streets after
    the deepest point dealt out, the dealer's face-down cards counted."""
    lay = layout(d)
    deep, last = shape.deepest - 1, len(shape.stages) - 1
    # the final rows' cards in the game's columns (the hidden dealer columns stay 0)
    final = np.zeros((len(st.cards[last]), shape.n_columns), np.int64)
    at = 0
    for _, m, cols in shape.stages:
        final[:, list(cols)] = st.cards[last][:, at: at + m]
        at += m
    cls = hand_classes_np(d, final)
    n_cls = int(np.prod([len(lay.class_names[h]) for h in lay.class_hands]))
    in_view = sum(m for _, m, _ in shape.stages)
    n_av = math.comb(len(deck) - in_view, len(shape.hidden))
    if d.showdown is not None:
        dc = _dealer_counts(d, tuple(deck.tolist()))
        up = list(shape.stages[1][2]) if d.dealer_up else []
        other = [c for c in range(shape.n_columns) if c not in up and c not in shape.hidden]
        ph = d.hand(d.showdown[0])
        weight = dc.showdown(final[:, up], final[:, other],
                             rank_np(final[:, list(ph.columns)], ph.ranking), n_av)
        code = np.arange(6)[None, :] * n_cls + cls[:, None]
    else:
        code, weight = cls[:, None], np.full((len(cls), 1), n_av, np.int64)
    n_deep = len(st.cards[deep])
    flat = (st.ancestor(last, deep)[:, None] * n_groups + group[code]).ravel()
    D = np.bincount(flat, weights=weight.ravel().astype(np.float64),
                    minlength=n_deep * n_groups)
    return np.rint(D).astype(np.int64).reshape(n_deep, n_groups)  # each cell < 2**53: exact
