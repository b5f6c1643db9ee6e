"""The call-once shape's CUDA kernel (``kernels/casino_holdem.cu``): :func:`kernel_of` gives a
description's :class:`~gpusim.games.spec.KernelSpec`, or None where the kernel cannot play it.

The kernel deals, decides (call or fold on the flop) and classifies a round, and counts its
**kernel code** ``ante * 22 + side`` when the side bet is offered (``ante`` alone otherwise):

- ante (23 values): 0 fold; 1 + c the dealer does not qualify (who wins aside), the player's
  final category c; 11 + c the player wins, category c; 21 tie; 22 loss;
- side (22 values): the class of the first five cards (hole cards and flop: the categories
  with the pair split at aces, 11 classes), + 11 after a fold.

:func:`code_map` sends each kernel code to the description's joint code through
:func:`gpusim.games.holdem.kernel_codes.checked_map`: what the kernel does not tell apart (the
showdown behind a fold; a win, tie or loss against a dealer who does not qualify; the player's
category on a tie or a loss) must settle alike for every offered bet. Stakes and pays stay on
the host, so the call's multiple is the description's. The kernel's game arguments are the
dealer's qualifying rank and whether the side bet is offered (:func:`kernel_head`). It plays
the rule strategies of :data:`KERNEL_RULES` itself when a described strategy's rules are
those, condition for condition (:func:`rule_code`), and the table strategies from their
``call`` table.
"""

from __future__ import annotations

import numpy as np

from gpusim.cards import CATEGORY_KEYS
from gpusim.games.holdem.call_once_shape import call_tree_of, qualifier_rank
from gpusim.games.spec import KernelSpec

__all__ = ["KERNEL", "KERNEL_RULES", "code_map", "kernel_head", "kernel_of", "rule_code"]

_HERE = "gpusim.games.holdem.call_once_kernel"

KERNEL = KernelSpec(
    source="casino_holdem",
    head=f"{_HERE}:kernel_head",
    tables=("call", "raw3_class", "raw3_perm", "new_suit"),
    royal_buffer=False,
    fallback_blocks_per_sm=6,
    code_map=f"{_HERE}:code_map",
    rule_code=f"{_HERE}:rule_code",
)

N_ANTE, N_SIDE = 23, 22
_SIDE_CLASSES = 11  # the first five's categories, the pair split at aces
_NQ_WIN, _NQ_TIE, _NQ_LOSE, _WIN, _TIE, _LOSE = range(6)  # layout.SHOWDOWN

_TEN_UP = "TT+, A2+, K2+, Q2+, J2+, T2+"
_BASIC = [
    "{ own_card_paired = true, action = 'call' }",
    "{ suited_with_own = { cards = 4 }, action = 'call' }",
    "{ run_with_own = 4, action = 'call' }",
    f"{{ hand_in = '{_TEN_UP}', action = 'call' }}",
    "{ action = 'fold' }",
]
KERNEL_RULES = {
    0: ["{ action = 'call' }"],
    1: _BASIC,
    2: ["{ at_least = 'pair of As', action = 'call' }", *_BASIC],
}
"""The rule lists the kernel computes itself (``kernels/strategy_casino_holdem.cuh``), by its
strategy code: 0 call every hand, 1 the basic strategy (a pair with a hole card, four to a
flush or to a straight with a hole card, a ten or higher in the hole), 2 the basic strategy
after calling every hand the side bet pays (a pair of aces or better in the first five); in
description rules whose actions are named ``call`` and ``fold``."""


def kernel_of(d) -> KernelSpec | None:
    """:data:`KERNEL` for a description the kernel plays, else None (it then runs on the GPU
    through ``jax-gpu``)."""
    return KERNEL if _refusal(d) is None else None


def _refusal(d) -> str | None:
    from gpusim.games.described.layout import layout

    try:
        tree = call_tree_of(d)
    except ValueError as exc:
        return str(exc)
    lay = layout(d)
    player, side_hand = d.showdown[0], _side_hand(d, tree)
    for h in lay.class_hands:
        names = lay.class_names[h]
        if h == player and [n for n, _ in names] == list(CATEGORY_KEYS):
            continue
        if h == side_hand and len(names) == _SIDE_CLASSES and _split_at_aces(lay, h):
            continue
        return f"paytable hand {h!r} is not one the kernel classifies"
    return None


def _side_hand(d, tree) -> str | None:
    if tree.side is None:
        return None
    b = d.bet(tree.side)
    return d.paytable(str(b.paytable or b.bonus)).hand


def _split_at_aces(lay, h: str) -> bool:
    """The hand's classes are the categories with the pair split at aces, as the kernel's."""
    cats = [c for _, c in lay.class_names[h]]
    want = [CATEGORY_KEYS[0], "pair", "pair", *CATEGORY_KEYS[2:]]
    pair = lay.class_of[h][13:26]  # (pair, rank 2 .. A)
    return cats == want and (pair[:12] == 1).all() and pair[12] == 2


def _side_offered(rules) -> bool:
    from gpusim.games.described.layout import offered_bets

    tree = call_tree_of(rules.game_def)
    return tree.side is not None and tree.side in offered_bets(rules)


def kernel_head(rules) -> tuple:
    """The kernel's game arguments: the dealer's qualifying rank and whether the side bet is
    offered."""
    return (np.uint32(qualifier_rank(rules.game_def)), np.int32(_side_offered(rules)))


def code_map(rules) -> np.ndarray:
    """(23 or 506,) int64: the description's joint code of every kernel code. ValueError (one
    line) where the config's bets settle two codes the kernel merges differently."""
    from gpusim.games.holdem.kernel_codes import (
        checked_map,
        joint_code,
        path_index,
        playable_layout,
    )

    lay = playable_layout(rules, _refusal, "call-once")
    d = rules.game_def
    tree = call_tree_of(d)
    player, side_hand = d.showdown[0], _side_hand(d, tree)
    fold = path_index(lay, d, [tree.fold_index])
    call = path_index(lay, d, [tree.call_index])
    n_side = N_SIDE if _side_offered(rules) else 1
    all_side = range(len(lay.class_names[side_hand])) if side_hand in lay.class_hands else [0]

    def codes(path, sds, cats, sides) -> list[int]:
        out = []
        for sd in sds:
            for cat in cats:
                for s in sides:
                    classes = {player: cat, side_hand: s}
                    out.append(joint_code(lay, path, sd, {h: classes[h]
                                                          for h in lay.class_hands}))
        return out

    every_cat = range(len(CATEGORY_KEYS))
    stands_for = []
    for ante in range(N_ANTE):
        for k in range(n_side):
            folded = ante == 0
            produced = n_side == 1 or (k >= _SIDE_CLASSES) == folded
            sides = [k % _SIDE_CLASSES] if n_side > 1 else list(all_side)
            if folded:
                alike = codes(fold, range(6), every_cat, sides)
            elif ante <= 10:
                alike = codes(call, (_NQ_WIN, _NQ_TIE, _NQ_LOSE), [ante - 1], sides)
            elif ante <= 20:
                alike = codes(call, (_WIN,), [ante - 11], sides)
            else:
                alike = codes(call, (_TIE if ante == 21 else _LOSE,), every_cat, sides)
            stands_for.append(alike if produced else alike[:1])
    return checked_map(rules, stands_for, "call-once")


def rule_code(rules, strategy) -> int | None:
    """The kernel's strategy code of a described rule strategy whose rules are, condition for
    condition, one of :data:`KERNEL_RULES` (``call`` and ``fold`` matched by the tree); None
    for any other."""
    from gpusim.games.holdem.kernel_codes import kernel_rule_code, rename_actions

    d = rules.game_def
    if d is None or kernel_of(d) is None:
        return None
    tree = call_tree_of(d)
    names = {"call": tree.call, "fold": tree.fold}
    texts = {code: {tree.point: [rename_actions(r, names) for r in rules_]}
             for code, rules_ in KERNEL_RULES.items()}
    return kernel_rule_code(rules, strategy, texts)
