"""The play-once shape's CUDA kernel (``kernels/ultimate_holdem.cu``): :func:`kernel_of` gives a
description's :class:`~gpusim.games.spec.KernelSpec`, or None where the kernel cannot play it.

The kernel deals, decides and settles a round and counts its **kernel code**
``(path * 6 + outcome) * 10 + category`` (300 codes):

- path: 0 Play 4x pre-flop, 1 Play 3x, 2 Play 2x on the flop, 3 Play 1x on the river, 4 fold
  (the Play multiple ``4 - path`` is compiled in: the kernel serves exactly Ultimate Texas
  Hold'em's tree, :data:`KERNEL_TREE`);
- outcome: 0 fold, 1 the player wins and the dealer qualifies, 2 wins and the dealer does not,
  3 tie (qualified or not), 4 the dealer wins and qualifies, 5 wins and does not;
- category: the player's best five of seven.

Every stake, event and pay stays on the host: :func:`code_map` sends each kernel code to the
description's joint code (:mod:`gpusim.games.described.layout`), so the described settlement
decodes the histogram exactly as it decodes the JAX runner's codes. Where the kernel merges
what the description tells apart (a tie, qualified or not; the showdown behind a fold) the map
first checks that every bet settles the merged codes alike.

The kernel's only game argument is the dealer's qualifying rank (:func:`kernel_head`). It
plays the rule strategies of :data:`KERNEL_RULES` itself (``kernels/strategy_ultimate_holdem.cuh``)
when a described strategy's rules are those, condition for condition (:func:`rule_code`), and
the optimal strategy from its tables (``TableStrategy.kernel_tables()``).
"""

from __future__ import annotations

import numpy as np

from gpusim.games.holdem.kernel_codes import rule_code_of
from gpusim.games.holdem.play_once_shape import PlayTree, play_tree_of
from gpusim.games.spec import KernelSpec

__all__ = ["KERNEL", "KERNEL_RULES", "KERNEL_TREE", "code_map", "kernel_head", "kernel_of",
           "rule_code"]

_HERE = "gpusim.games.holdem.play_once_kernel"

KERNEL = KernelSpec(
    source="ultimate_holdem",
    head=f"{_HERE}:kernel_head",
    tables=("preflop", "flop", "river", "raw3_class", "raw3_perm", "raw5_class", "raw5_perm",
            "new_suit"),
    royal_buffer=False,
    # ptxas (sm_90, 256 threads): 57 registers for the rule lists (4 blocks of 256 per SM), 39
    # for the tables (6)
    fallback_blocks_per_sm=4,
    code_map=f"{_HERE}:code_map",
    rule_code=f"{_HERE}:rule_code",
)

KERNEL_TREE = PlayTree(((1, 3), (2, 4)), (1, 2), (1, 1))
"""The tree the kernel plays: pre-flop check (0), Play 3x (1) or 4x (2); flop check (0) or
Play 2x (1); river fold (0) or Play 1x (1)."""

N_KERNEL_CODES = 5 * 6 * 10
# the actions taken (pre-flop, flop, river; -1 not reached) of each kernel path
_PATHS = ((2, -1, -1), (1, -1, -1), (0, 1, -1), (0, 0, 1), (0, 0, 0))
_FOLD_PATH = 4
# the description's showdown code (layout.SHOWDOWN) of each kernel outcome; a fold's outcome
# (0) stands for every showdown, a tie (3) for both ties
_SHOWDOWN_OF = (5, 3, 0, 4, 5, 2)
_MERGED = {0: (0, 1, 2, 3, 4, 5), 3: (1, 4)}

_RIVER = [
    "{ own_card_paired = true, action = 'play_1x' }",
    "{ category_in = ['straight', 'flush', 'straight_flush', 'royal_flush'], beats_board = true, "
    "action = 'play_1x' }",
    "{ dealer_outs_below = 21, action = 'play_1x' }",
    "{ action = 'fold' }",
]
KERNEL_RULES = {
    0: {"preflop": ["{ action = 'check' }"], "flop": ["{ action = 'check' }"], "river": _RIVER},
    1: {
        "preflop": ["{ hand_in = '33+, A2s+, K2s+, Q6s+, J8s+, A2o+, K5o+, Q8o+, JTo', "
                    "action = 'play_4x' }", "{ action = 'check' }"],
        "flop": [
            "{ own_card_paired = true, at_least = 'two_pair', action = 'play_2x' }",
            "{ hand_in = '22', action = 'check' }",
            "{ own_card_paired = true, action = 'play_2x' }",
            "{ category_in = ['straight', 'flush', 'straight_flush', 'royal_flush'], "
            "action = 'play_2x' }",
            "{ suited_with_own = { cards = 4, at_least = 'T' }, action = 'play_2x' }",
            "{ action = 'check' }",
        ],
        "river": _RIVER,
    },
}
"""The rule lists the kernel computes itself, by its strategy code (``STRAT_*`` of
:mod:`gpusim.compute.backends.cupy_rounds`): 0 always-check, 1 the published basic strategy
(``kernels/strategy_ultimate_holdem.cuh``), in description rules whose actions are named by
the kernel's tree (check, play_3x, play_4x; check, play_2x; fold, play_1x)."""
_KERNEL_POINTS = ("preflop", "flop", "river")
_KERNEL_NAMES = (("check", "play_3x", "play_4x"), ("check", "play_2x"), ("fold", "play_1x"))


def kernel_of(d) -> KernelSpec | None:
    """:data:`KERNEL` for a description the kernel plays, else None (it then runs on the GPU
    through ``jax-gpu``): the play-once shape with the kernel's tree, and paytables that read
    only the player's final category."""
    return KERNEL if _refusal(d) is None else None


def _refusal(d) -> str | None:
    from gpusim.games.described.layout import SHOWDOWN, layout

    try:
        tree = play_tree_of(d)
    except ValueError as exc:
        return str(exc)
    if tree != KERNEL_TREE:
        return "its decisions are not the kernel's (Play 4x or 3x, 2x, 1x)"
    lay = layout(d)
    player = d.showdown[0]
    for h in lay.class_hands:
        names = lay.class_names[h]
        if h != player or [n for n, _ in names] != [c for _, c in names] or len(names) != 10:
            return f"paytable hand {h!r} is not the player's final category"
    if lay.n_showdown != len(SHOWDOWN):
        return "it has no dealer showdown"
    return None


def kernel_head(rules) -> tuple:
    """The kernel's game argument: the dealer's qualifying rank (0: he always qualifies)."""
    from gpusim.games.holdem.play_once_described import qualifier_rank

    return (np.uint32(qualifier_rank(rules.game_def)),)


def code_map(rules) -> np.ndarray:
    """(300,) int64: the description's joint code of every kernel code. ValueError (one line)
    where the config's bets settle two codes the kernel merges differently."""
    from gpusim.games.holdem.kernel_codes import (
        checked_map,
        joint_code,
        path_index,
        playable_layout,
    )

    lay = playable_layout(rules, _refusal, "play-once")
    d = rules.game_def
    player = lay.class_hands[0] if lay.class_hands else None
    paths = [path_index(lay, d, took) for took in _PATHS]

    def joint(path: int, sd: int, cat: int) -> int:
        return joint_code(lay, paths[path], sd, {player: cat} if player else {})

    stands_for = []
    for path in range(5):
        for outcome in range(6):
            # the codes the kernel never writes (a fold with a showdown, a Play with none) go
            # where a fold or a loss would: harmless, since no round counts in them
            produced = (path == _FOLD_PATH) == (outcome == 0)
            o = 0 if path == _FOLD_PATH else outcome if produced else 4
            for cat in range(10):
                sds = _MERGED.get(o, (_SHOWDOWN_OF[o],)) if produced else (_SHOWDOWN_OF[o],)
                first = joint(path, _SHOWDOWN_OF[o], cat)
                stands_for.append([first, *(joint(path, sd, cat) for sd in sds)])
    return checked_map(rules, stands_for, "play-once")


rule_code = rule_code_of(kernel_of, KERNEL_RULES, _KERNEL_POINTS, _KERNEL_NAMES)
"""``rule_code(rules, strategy)``: the kernel's strategy code of a described rule strategy whose
rules are, condition for condition, one of :data:`KERNEL_RULES` (the actions matched by their
place in the tree); None for any other."""

