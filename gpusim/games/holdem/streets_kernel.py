"""The street-bets shape's CUDA kernel (``kernels/holdem_bonus.cu``): :func:`kernel_of` gives a
description's :class:`~gpusim.games.spec.KernelSpec`, or None where the kernel cannot play it.

The kernel deals, decides (the flop bet or a fold, then a Turn and a River bet or a check) and
classifies a round, and counts its **kernel code** ``((main * NB) + bonus) * NJ + jackpot``
(``kernels/settle_holdem_bonus.cuh``), ``main = ante * 4 + turn_bet * 2 + river_bet``:

- ante (13 values): 0 fold; 1 + c the player wins, final category c; 11 tie; 12 loss;
- bonus (NB = 21 values when the starting-hand side bet is offered, else the one digit 0): the
  hole cards as :data:`BONUS_CLASSES`, ``AA_vs_AA`` the player's AA against the dealer's AA;
- jackpot (NJ = 10 values when the meter's bet is offered, else 0): the category of the meter's
  hand (hole cards and flop, or all seven cards), the royal flush (9) the meter's hit.

:func:`code_map` sends each kernel code to the description's joint code through
:func:`gpusim.games.holdem.kernel_codes.checked_map`: what the kernel does not tell apart (the
showdown and the player's hand behind a fold; the player's hand on a tie or a loss; the
starting hands of one kernel class, and the dealer's hand but for his AA) must settle alike for
every offered bet. Stakes and pays stay on the host. The kernel's game argument is a word of
flags (:func:`kernel_head`). It plays the rule strategies of :data:`KERNEL_RULES` itself when a
described strategy's rules are those, condition for condition (:func:`rule_code`), and the
table strategies from their tables (``StreetsTables.kernel_tables()``).
"""

from __future__ import annotations

import itertools

import numpy as np

from gpusim.games.holdem.kernel_codes import rule_code_of
from gpusim.games.holdem.streets_shape import StreetTree, street_tree_of
from gpusim.games.spec import KernelSpec

__all__ = ["BONUS_CLASSES", "KERNEL", "KERNEL_RULES", "code_map", "kernel_head", "kernel_of",
           "rule_code"]

_HERE = "gpusim.games.holdem.streets_kernel"

KERNEL = KernelSpec(
    source="holdem_bonus",
    head=f"{_HERE}:kernel_head",
    tables=("preflop", "grid", "turn", "river", "raw3_class", "raw3_perm", "raw4_class",
            "raw4_perm", "new_suit"),
    royal_buffer=True,
    fallback_blocks_per_sm=4,
    code_map=f"{_HERE}:code_map",
    rule_code=f"{_HERE}:rule_code",
)

N_ANTE, N_BONUS, N_JACKPOT = 13, 21, 10
_TIE, _LOSS = 11, 12  # kernel ante events
_PAIRS_TT_22 = ("TT", "99", "88", "77", "66", "55", "44", "33", "22")
BONUS_CLASSES = ("AA_vs_AA", "AA", "AKs", "AQs", "AJs", "AKo", "KK", "QQ", "JJ", "AQo", "AJo",
                 *_PAIRS_TT_22, "other")
"""The kernel's bonus events, in its order (``gpusim_thb_bonus_event``)."""
_ACE, _KING, _QUEEN, _JACK = 12, 11, 10, 9


def _suited(lo: int, hi: int) -> int:
    return lo * 13 + hi


def _offsuit(hi: int, lo: int) -> int:
    return hi * 13 + lo


def _pair(r: int) -> int:
    return r * 13 + r


def _bonus_cells() -> list[list[int]]:
    """The starting-hand grid cells of each kernel bonus class (AA's two share one cell)."""
    named = [
        [_pair(_ACE)], [_pair(_ACE)],
        [_suited(_KING, _ACE)], [_suited(_QUEEN, _ACE)], [_suited(_JACK, _ACE)],
        [_offsuit(_ACE, _KING)],
        [_pair(_KING)], [_pair(_QUEEN)], [_pair(_JACK)],
        [_offsuit(_ACE, _QUEEN)], [_offsuit(_ACE, _JACK)],
        *([_pair(r)] for r in range(8, -1, -1)),  # TT .. 22
    ]
    taken = {c for cells in named for c in cells}
    return [*named, [c for c in range(169) if c not in taken]]


_FLOP_BET = ["{ action = 'bet' }"]
KERNEL_RULES = {
    0: {"flop": _FLOP_BET, "turn": ["{ action = 'bet' }"], "river": ["{ action = 'bet' }"]},
    1: {
        "flop": ["{ hand_in = '32o, 42o, 52o, 62o, 72o', action = 'fold' }", *_FLOP_BET],
        "turn": [
            "{ own_card_paired = true, action = 'bet' }",
            "{ suited_with_own = { cards = 4 }, action = 'bet' }",
            "{ run_with_own = 4, action = 'bet' }",
            "{ action = 'check' }",
        ],
        "river": [
            "{ own_rank_count = { cards = 2, at_least = '6' }, action = 'bet' }",
            "{ paired_ranks = 2, own_card_paired = true, action = 'bet' }",
            "{ own_rank_count = { cards = 3 }, action = 'bet' }",
            "{ suited_run_with_own = 4, action = 'bet' }",
            "{ run_with_own = 5, action = 'bet' }",
            "{ suited_with_own = { cards = 5 }, action = 'bet' }",
            "{ action = 'check' }",
        ],
    },
}
"""The rule lists the kernel computes itself (``kernels/strategy_holdem_bonus.cuh``), by its
strategy code: 0 bet the Flop, Turn and River every hand, 1 the basic strategy (fold 2-3 .. 2-7
offsuit; Turn/River bets on made hands and draws that use a hole card), in description rules
whose actions are named by the kernel's tree (fold, bet; check, bet; check, bet)."""
_KERNEL_POINTS = ("flop", "turn", "river")
_KERNEL_NAMES = (("fold", "bet"), ("check", "bet"), ("check", "bet"))


def kernel_of(d) -> KernelSpec | None:
    """:data:`KERNEL` for a description the kernel plays (one of the street-bets shape), else
    None (it then runs on the GPU through ``jax-gpu``)."""
    return KERNEL if _refusal(d) is None else None


def _refusal(d) -> str | None:
    try:
        street_tree_of(d)
    except ValueError as exc:
        return str(exc)
    return None


def _hand_of(d, bet: str | None) -> str | None:
    """The hand a side bet's paytable reads (None: no such bet)."""
    return None if bet is None else d.paytable(str(d.bet(bet).paytable)).hand


def _offered(rules, tree: StreetTree) -> tuple[bool, bool]:
    from gpusim.games.described.layout import offered_bets

    offered = offered_bets(rules)
    return (tree.bonus is not None and tree.bonus in offered,
            tree.jackpot is not None and tree.jackpot in offered)


def _all_seven(d, tree: StreetTree) -> bool:
    """The meter's hand is the player's seven cards (not the hole cards and the flop)."""
    hand = _hand_of(d, tree.jackpot)
    return hand is not None and \
        sorted(d.hand(hand).columns) == sorted(d.hand(d.showdown[0]).columns)


def kernel_head(rules) -> tuple:
    """The kernel's game argument: flags (1 the Bonus offered, 2 the meter's bet offered, 4 its
    hand is all seven cards)."""
    d = rules.game_def
    tree = street_tree_of(d)
    bonus, jackpot = _offered(rules, tree)
    return (np.int32(int(bonus) | int(jackpot) << 1 | int(_all_seven(d, tree)) << 2),)


def _bonus_classes(d, hand: str) -> list[set[int]]:
    """The description's classes of ``hand`` (a starting-hand hand) each kernel bonus class
    covers: every (player cell, dealer group) pair of it, the dealer's AA apart for AA."""
    from gpusim.games.described.starting import _tables

    _, table, group = _tables(d, hand)
    n_groups = len(table) // 169
    aa_group = int(group[_pair(_ACE)])
    every = range(n_groups)
    # without a line of its own, the dealer's AA is in group 0 with every other dealer hand
    not_aa = [g for g in every if g != aa_group or aa_group == 0]
    groups = [[aa_group], not_aa, *([every] * (N_BONUS - 2))]
    return [{int(table[c * n_groups + g]) for c in cells for g in gs}
            for cells, gs in zip(_bonus_cells(), groups, strict=True)]


def code_map(rules) -> np.ndarray:
    """(52 x NB x NJ,) int64: the description's joint code of every kernel code. ValueError
    (one line) where the config's bets settle two codes the kernel merges differently."""
    from gpusim.games.described.layout import SHOWDOWN
    from gpusim.games.holdem.kernel_codes import (
        checked_map,
        joint_code,
        path_index,
        playable_layout,
    )

    lay = playable_layout(rules, _refusal, "street-bets")
    d = rules.game_def
    tree = street_tree_of(d)
    has_bonus, has_jackpot = _offered(rules, tree)
    player, bonus_hand, jackpot_hand = (d.showdown[0], _hand_of(d, tree.bonus),
                                        _hand_of(d, tree.jackpot))
    n_bonus, n_jackpot = (N_BONUS if has_bonus else 1), (N_JACKPOT if has_jackpot else 1)
    bonus_classes = _bonus_classes(d, str(bonus_hand)) if has_bonus else []
    every = {h: set(range(len(lay.class_names[h]))) for h in lay.class_hands}

    def category(h: str, c: int) -> set[int]:
        return set(lay.class_of[h][c * 13:(c + 1) * 13].tolist())

    def codes(path: int, sds, want: list[tuple[str, set[int]]]) -> tuple[list[int], bool]:
        """The joint codes of a path, its showdowns and each class hand's classes (``want``:
        (hand, classes) the kernel code pins down); and whether they can meet (a seven-card
        meter's hand on the player's own hand pins its class twice)."""
        allowed, met = dict(every), True
        for h, classes in want:
            met = met and bool(allowed[h] & classes)
            allowed[h] = (allowed[h] & classes) or classes
        per_hand = [sorted(allowed[h]) for h in lay.class_hands]
        out = [joint_code(lay, path, sd, dict(zip(lay.class_hands, cls, strict=True)))
               for sd in sds for cls in itertools.product(*per_hand)]
        return out, met

    fold = path_index(lay, d, [0, -1, -1])
    stands_for = []
    for ante in range(N_ANTE):
        for placed in range(4):
            folded = ante == 0
            path = fold if folded else path_index(lay, d, [1, placed >> 1, placed & 1])
            if folded:
                sds: list[int] = list(range(lay.n_showdown))
            else:
                sds = [SHOWDOWN.index("tie" if ante == _TIE else "lose" if ante == _LOSS
                                      else "win")]
            for b in range(n_bonus):
                for j in range(n_jackpot):
                    want = []
                    if not folded and ante < _TIE:
                        want.append((player, category(player, ante - 1)))
                    if has_bonus:
                        want.append((str(bonus_hand), bonus_classes[b]))
                    if has_jackpot:
                        want.append((str(jackpot_hand), category(str(jackpot_hand), j)))
                    alike, met = codes(path, sds, want)
                    # a code no round produces (a fold with a Turn or River bet) stands for one
                    # joint code: harmless, since no round counts in it
                    produced = met and not (folded and placed)
                    stands_for.append(alike if produced else alike[:1])
    return checked_map(rules, stands_for, "street-bets")


rule_code = rule_code_of(kernel_of, KERNEL_RULES, _KERNEL_POINTS, _KERNEL_NAMES)
"""``rule_code(rules, strategy)``: the kernel's strategy code of a described rule strategy whose
rules are, condition for condition, one of :data:`KERNEL_RULES` (the actions matched by their
place in the tree); None for any other."""
