"""The deals a described game's exact solve counts (:mod:`gpusim.games.described.solver`):
the rows of every stage dealt out, each row's outcome counts with the dealer's face-down cards
counted (:class:`gpusim.exact.dealer_counts.DealerCounts`), or dealt out one by one where a
paytable reads them (:func:`dealt_hidden`), and the paytable classes of hands, in numpy."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations

import numpy as np

from gpusim.board_index import set_index, subsets_from_index
from gpusim.exact.dealer_counts import DealerCounts, rank_np
from gpusim.games.described.description import Description
from gpusim.games.described.engine import threshold
from gpusim.games.described.layout import GameShape, hidden_hands, layout
from gpusim.games.described.starting import _tables as starting_tables
from gpusim.games.described.starting import starting_class_np

__all__ = ["Stages", "deal_stages", "dealt_hidden", "expand", "hand_classes_np",
           "outcome_counts", "set_class_table"]

_DEALT_PER_BLOCK = 2_000_000
"""Deals (a row and one set of the dealer's hidden cards) ranked at once where the hidden cards
are dealt out: a block's arrays stay a few hundred MB."""


def _class_np(rank: np.ndarray, ranking: str, class_of: np.ndarray) -> np.ndarray:
    """The paytable class of packed ranks (as :func:`gpusim.games.described.engine.joint_code`
    computes it: the category, royal flush split, and the rank that names the hand)."""
    rank = rank.astype(np.int64)
    cat = rank >> 27
    primary = (rank >> 13) & 0x1FFF
    if ranking == "poker":
        cat = np.where((cat == 8) & (primary == (1 << 12)), 9, cat)
    by_cat = class_of.reshape(-1, 13)
    if (by_cat == by_cat[:, :1]).all():  # no rank line: the class is the category's
        return by_cat[:, 0][cat].astype(np.int64)
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


def _hand_class_np(d: Description, h: str, cards: np.ndarray) -> np.ndarray:
    """(N,) int64 class of hand ``h`` (one of ``layout.class_hands``) of rounds ``cards (N,
    C)`` in the game's columns."""
    lay = layout(d)
    hd = d.hand(h)
    whole = tuple(hd.columns) == tuple(range(cards.shape[1]))  # every column, in order
    sub = cards if whole else cards[:, list(hd.columns)]
    if hd.ranking == "starting_hand":
        if len(starting_tables(d, h)[1]) > 169:  # a line that reads the dealer's two cards too
            return _starting_vs_dealer_np(d, h, cards)
        return starting_class_np(cards, d, h)
    if len(hd.columns) in (3, 5) and (hd.ranking == "poker") == (len(hd.columns) == 5):
        return set_class_table(d, h)[set_index(sub)].astype(np.int64)
    return _class_np(rank_np(sub, hd.ranking), hd.ranking, lay.class_of[h])


def hand_classes_np(d: Description, cards: np.ndarray) -> np.ndarray:
    """(N,) int64 mixed class code (``layout.decode``'s ``classes``) of rounds ``cards (N, C)``
    in the game's columns."""
    lay = layout(d)
    code = np.zeros(len(cards), np.int64)
    for h in lay.class_hands:
        code = code * len(lay.class_names[h]) + _hand_class_np(d, h, cards)
    return code


def _starting_vs_dealer_np(d: Description, h: str, cards: np.ndarray) -> np.ndarray:
    """(N,) int64 class of a starting hand whose paytable has a line on the dealer's two cards
    too (:func:`gpusim.games.described.starting.starting_class`, in NumPy)."""
    _, table, group = starting_tables(d, h)
    n_groups = len(table) // 169

    def cell(cols) -> np.ndarray:
        a, b = (cards[:, c].astype(np.int64) for c in cols)
        ra, rb = a >> 2, b >> 2
        hi, lo = np.maximum(ra, rb), np.minimum(ra, rb)
        return np.where((a & 3) == (b & 3), lo * 13 + hi, hi * 13 + lo)

    idx = cell(d.hand(h).columns) * n_groups + group[cell(d.columns["dealer"][:2])]
    return table[idx].astype(np.int64)


def dealt_hidden(d: Description, shape: GameShape) -> bool:
    """Whether the solve deals the dealer's hidden cards out one by one: some paytable reads
    them (:func:`gpusim.games.described.layout.hidden_hands`; a game without streets)."""
    return bool(hidden_hands(d, shape.hidden))


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
    the deepest point dealt out, the dealer's face-down cards counted (or, where a paytable
    reads them, dealt out: :func:`_dealt_outcome_counts`)."""
    if dealt_hidden(d, shape):
        return _dealt_outcome_counts(d, shape, st, deck, group, n_groups)
    lay = layout(d)
    deep, last = shape.deepest - 1, len(shape.stages) - 1
    # the final rows' cards in the game's columns (the hidden dealer columns stay 0)
    final = _final_cards(shape, st)
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


def _final_cards(shape: GameShape, st: Stages) -> np.ndarray:
    """The last stage's rows' cards in the game's columns (the hidden dealer columns 0)."""
    last = len(shape.stages) - 1
    final = np.zeros((len(st.cards[last]), shape.n_columns), np.int64)
    at = 0
    for _, m, cols in shape.stages:
        final[:, list(cols)] = st.cards[last][:, at: at + m]
        at += m
    return final


@lru_cache(maxsize=2)
def _hidden_sets(deck: tuple[int, ...], k: int) -> tuple[np.ndarray, np.ndarray]:
    """Every k-card set of ``deck`` (int32, colex order of the deck's positions) and its card
    mask."""
    cards = np.array(deck, np.int32)
    combos = cards[subsets_from_index(np.arange(math.comb(len(deck), k)), k)] if k else \
        np.zeros((1, 0), np.int32)
    mask = np.zeros(len(combos), np.uint64)
    for j in range(k):
        mask |= np.uint64(1) << combos[:, j].astype(np.uint64)
    return combos, mask


def _by_set(d: Description, shape: GameShape, combos: np.ndarray, hands: list[str],
            mult: dict) -> np.ndarray:
    """(sets,) int32: the code part of the hands that read hidden cards only, per hidden set
    (a slice of sets at a time)."""
    out = np.zeros(len(combos), np.int32)
    for lo in range(0, len(combos), _DEALT_PER_BLOCK):
        part = np.zeros((min(_DEALT_PER_BLOCK, len(combos) - lo), shape.n_columns), np.int32)
        part[:, list(shape.hidden)] = combos[lo: lo + len(part)]
        for h in hands:
            out[lo: lo + len(part)] += (_hand_class_np(d, h, part) * mult[h]).astype(np.int32)
    return out


def _dealt_outcome_counts(d: Description, shape: GameShape, st: Stages, deck: np.ndarray,
                          group: np.ndarray, n_groups: int) -> np.ndarray:
    """:func:`outcome_counts` with the dealer's hidden cards dealt out: every set of them that
    avoids a row's cards, one by one (a block of rows at a time), each deal's showdown and
    classes computed as the settlement computes them
    (:func:`gpusim.games.described.engine.joint_code`), counted into its row in int64. A hand
    in view is classed once per row, a hand of hidden cards only once per hidden set; a block
    is padded to one length, so the rankings' compiled programs serve every block."""
    lay = layout(d)
    deep, last = shape.deepest - 1, len(shape.stages) - 1
    final = _final_cards(shape, st).astype(np.int32)
    hidden = list(shape.hidden)
    view = [c for c in range(shape.n_columns) if c not in shape.hidden]
    reads = set(hidden_hands(d, shape.hidden))
    radix = [len(lay.class_names[h]) for h in lay.class_hands]
    n_cls = int(np.prod(radix))
    mult = {h: int(np.prod(radix[i + 1:])) for i, h in enumerate(lay.class_hands)}
    combos, cmask = _hidden_sets(tuple(deck.tolist()), len(hidden))
    # what depends on the row alone, and what on the hidden set alone; codes of one path are
    # below n_out (a few thousand at most), so int32
    row_code = np.zeros(len(final), np.int32)
    for h in lay.class_hands:
        if h not in reads:
            row_code += (_hand_class_np(d, h, final) * mult[h]).astype(np.int32)
    set_code = _by_set(d, shape, combos, [h for h in lay.class_hands
                                          if h in reads and _only_hidden(d, h, shape)], mult)
    mixed = [h for h in lay.class_hands if h in reads and not _only_hidden(d, h, shape)]
    dealer_cols: list[int] = []
    if d.showdown is not None:
        ph, dh = d.hand(d.showdown[0]), d.hand(d.showdown[1])
        p_rank = rank_np(final[:, list(ph.columns)], ph.ranking)
        qual = d.showdown[2]
        thr = np.uint32(threshold(qual, dh.ranking) if qual is not None else 0)
        dealer_cols = list(dh.columns)
        set_rank = None
        if set(dealer_cols) <= set(hidden):
            at = [hidden.index(c) for c in dealer_cols]
            set_rank = np.concatenate([rank_np(combos[lo: lo + _DEALT_PER_BLOCK, at],
                                               dh.ranking)
                                       for lo in range(0, len(combos), _DEALT_PER_BLOCK)])
    in_view = sum(m for _, m, _ in shape.stages)
    per_row = math.comb(len(deck) - in_view, len(hidden))
    to_deep = st.ancestor(last, deep)
    n_deep = len(st.cards[deep])
    D = np.zeros(n_deep * n_groups, np.int64)
    if per_row == 0:  # a reduced deck too small for the dealer's cards
        return D.reshape(n_deep, n_groups)
    rmask = np.zeros(len(final), np.uint64)
    for c in view:
        rmask |= np.uint64(1) << final[:, c].astype(np.uint64)
    size = max(1, _DEALT_PER_BLOCK // per_row) * per_row if per_row <= _DEALT_PER_BLOCK \
        else _DEALT_PER_BLOCK
    for lo, hi, k, which in _blocks(rmask, cmask, per_row, _DEALT_PER_BLOCK):
        n = len(which)
        pad = size - n  # a short block: padded with its first deal

        def spread(values: np.ndarray, lo=lo, hi=hi, k=k, pad=pad) -> np.ndarray:
            out = np.repeat(values[lo:hi], k, axis=0)
            return np.concatenate([out, np.repeat(values[lo: lo + 1], pad, axis=0)]) \
                if pad else out

        which = np.concatenate([which, np.full(pad, which[0])]) if pad else which
        code = spread(row_code) + set_code[which]
        if mixed or (dealer_cols and set_rank is None):
            cards = np.empty((size, shape.n_columns), np.int32)
            cards[:, view] = spread(final[:, view])
            cards[:, hidden] = combos[which]
            for h in mixed:
                code += (_hand_class_np(d, h, cards) * mult[h]).astype(np.int32)
        if d.showdown is not None:
            pr = spread(p_rank)
            dr = set_rank[which] if set_rank is not None else \
                rank_np(cards[:, dealer_cols], dh.ranking)
            sd = (pr == dr).astype(np.int32) + 2 * (pr < dr) + 3 * (dr >= thr)
            code += sd * np.int32(n_cls)
        flat = to_deep[lo:hi].repeat(k) * n_groups + group[code[:n]]
        D += np.bincount(flat, minlength=n_deep * n_groups)
    return D.reshape(n_deep, n_groups)


def _blocks(rmask: np.ndarray, cmask: np.ndarray, per_row: int, most: int):
    """(first row, end row, hidden sets per row, the sets' indexes row by row) of blocks of at
    most ``most`` deals: whole rows, or (a row's sets above ``most``) one row's sets a slice
    at a time."""
    if per_row <= most:
        step = max(1, most // per_row)
        for lo in range(0, len(rmask), step):
            hi = min(lo + step, len(rmask))
            which = np.nonzero((rmask[lo:hi, None] & cmask[None, :]) == 0)[1]
            assert len(which) == (hi - lo) * per_row
            yield lo, hi, per_row, which
        return
    for r in range(len(rmask)):
        for c0 in range(0, len(cmask), most):
            which = np.flatnonzero((rmask[r] & cmask[c0: c0 + most]) == 0) + c0
            if len(which):
                yield r, r + 1, len(which), which


def _only_hidden(d: Description, h: str, shape: GameShape) -> bool:
    """Whether hand ``h``'s class reads the dealer's hidden cards only."""
    hd = d.hand(h)
    cols = set(hd.columns)
    if hd.ranking == "starting_hand" and len(starting_tables(d, h)[1]) > 169:
        cols |= set(d.columns["dealer"][:2])
    return cols <= set(shape.hidden)
