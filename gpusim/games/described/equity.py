"""The ``win_chance`` condition of a rule strategy: over every way the cards the point does not
see can fall (the rest of the board and the dealer's hidden cards), the player's showdown hand
beats the dealer's more often than it loses to it (``"above_lose"``: the best play of an
independent 1:1 bet on that showdown) or more than half the time (``"above_half"``; a tie is
not a win).

For a hold'em shape (two hole cards each, the dealer's face down, a five-card board, each
showdown hand its two cards and the board) at a point that sees three or four board cards, the
answer is a bit per (board up to its suits, hole cards): the exact enumeration of the showdown
(47 x 46 x 990 completions of a flop, 46 x 990 of a turn) is counted once by
:mod:`gpusim.exact` and cached, and a round reads its bit as the table strategies do
(:func:`gpusim.strategy.table_strategy.board_bit`). Reading a config imports no JAX here.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from gpusim.rules import ConfigReader

__all__ = ["CHANCES", "evaluate", "parse", "tables"]

CHANCES = ("above_lose", "above_half")
_RULE = {"above_lose": "optimal", "above_half": "over_half"}
_LEVEL = {3: "turn", 4: "river"}  # board cards seen: the street whose bet the bit decides


def parse(r: ConfigReader, d, point, value: Any, w: str) -> tuple[str, int]:
    """``win_chance = "above_lose" | "above_half"`` at ``point``: (value, board cards seen)."""
    if value not in CHANCES:
        raise r.fail(w, f"value {value!r} is not allowed; allowed: "
                        f"{', '.join(map(repr, CHANCES))}")
    n_board = sum(d.streets[: point.street])
    cols = d.columns
    shape = (d.player == 2 and d.dealer == 2 and not d.dealer_up and sum(d.streets) == 5
             and d.showdown is not None)
    if shape:
        p, q, _ = d.showdown
        shape = (sorted(d.hand(p).columns) == sorted(cols["player"] + cols["board"])
                 and sorted(d.hand(q).columns) == sorted(cols["dealer"] + cols["board"])
                 and d.hand(p).ranking == "poker")
    if not shape:
        raise r.fail(w, "not allowed: it needs a hold'em shape (two player cards, two face-down "
                        "dealer cards, a five-card board, showdown hands of poker ranking on "
                        "each seat's cards and the board)")
    if n_board not in _LEVEL:
        raise r.fail(w, f"not allowed at point {point.name!r}: it sees {n_board} board cards; "
                        "allowed at a point that sees 3 or 4")
    return value, n_board


@cache
def tables() -> dict[str, np.ndarray]:
    """{"<value>/<board cards>": packed bits}: per (board class, hole in its suits), whether
    the chance holds; counted once, then read from the cache."""
    from gpusim.exact.cache import FORMAT, atomic_savez, cache_dir

    path = cache_dir() / f"win_chance_v{FORMAT}.npz"
    if path.is_file():
        with np.load(path) as z:
            return {k.replace("__", "/"): z[k] for k in z.files}
    # the heads-up showdown counts of every 4-card board class (hold'em's, shared with the
    # exact solver's cache; they do not depend on the Ante's pays)
    from gpusim.games.holdem.streets_cache import cached_counts
    from gpusim.games.holdem.streets_counts import river_rule, turn_pass

    river = cached_counts("straight", progress=False)
    out = {}
    for value, rule in _RULE.items():
        at_turn = river_rule(river, rule)
        out[f"{value}/4"] = np.packbits(at_turn.ravel())
        out[f"{value}/3"] = np.packbits(turn_pass(river, at_turn, rule).turn.ravel())
    arrays: dict[str, Any] = {k.replace("/", "__"): v for k, v in out.items()}
    atomic_savez(path, **arrays)
    return out


def evaluate(seen: Any, d, value: tuple[str, int]) -> Any:
    """(N,) bool: the chance holds for each round's seen cards (JAX; own cards, then the
    board)."""
    import jax.numpy as jnp

    from gpusim.board_index import PERMUTATIONS, board_classes
    from gpusim.strategy.table_strategy import _BINOM, board_bit

    chance, n_board = value
    b = board_classes(n_board)
    t = {"binom": jnp.asarray(_BINOM),
         "new_suit": jnp.asarray(PERMUTATIONS.astype(np.int32).ravel()),
         f"raw{n_board}_class": jnp.asarray(b.raw_class, jnp.int32),
         f"raw{n_board}_perm": jnp.asarray(b.raw_perm, jnp.int32),
         "bits": jnp.asarray(tables()[f"{chance}/{n_board}"])}
    cols = seen[:, : d.player]
    board = seen[:, d.player + d.dealer_up:]
    return board_bit(jnp.concatenate([cols, board], axis=1), t, "bits")
