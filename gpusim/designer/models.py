"""Which paytables the designer searches, and the exact counts each is priced from.

A game's spec lists the bets the designer searches (``GameSpec.designs``): a side bet's model is
its integer counts per line (strategy-free); a main-game paytable's model is the per-situation
counts of the game's cached enumeration, priced under the optimal strategy re-optimised per
candidate. A side bet's builder returns its hits per line; the builders below are ones that
cannot yet live in their game's package (they use the exact layer).
"""

from __future__ import annotations

import copy
from functools import cache

import numpy as np

from gpusim.designer.space import DesignError
from gpusim.games import bets as offered
from gpusim.games import spec_for
from gpusim.games.spec import DesignEntry, load

__all__ = ["aa_bonus_hits", "ante_main_model", "bet_kind", "current_paytable", "main_model",
           "side_bet_model", "with_paytable"]


@cache
def _five_card_aa_classes() -> tuple[int, ...]:
    """Five-card hands (of C(52, 5)) per AA Bonus class (pay class; pair of aces = 10): every
    hand evaluated once, then kept in the exact cache folder beside the enumeration counts."""
    import os

    from gpusim.exact.cache import cache_dir

    path = cache_dir() / "aa_bonus_classes_v1.npy"
    if path.is_file():
        return tuple(int(v) for v in np.load(path))
    from gpusim.evaluator import evaluate_np
    from gpusim.games.casino_holdem.exact import aa_bonus_class
    from gpusim.index import subsets

    ranks = evaluate_np(subsets(5), check=False)
    counts = np.bincount(aa_bonus_class(ranks), minlength=11).astype(np.int64)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.npy")
    np.save(tmp, counts)
    os.replace(tmp, path)
    return tuple(int(v) for v in counts)


def aa_bonus_hits(rules, bet: str) -> tuple[dict[str, int], int]:
    """({line: five-card hands it pays}, hands) of Casino Hold'em's AA Bonus (the player's best
    five of hole + flop), over every five-card hand; lines in paytable order. It stays here
    until the game's exact module, which classifies the hands, moves into its package."""
    from gpusim.cards import CATEGORY_KEYS

    by_class = _five_card_aa_classes()
    lines = tuple(current_paytable(rules, bet))
    cls = [10 if ln == "pair_of_aces" else CATEGORY_KEYS.index(ln) for ln in lines]
    return {ln: by_class[c] for ln, c in zip(lines, cls, strict=True)}, sum(by_class)


def ante_main_model(rules, bet: str, strategy: str, counts=None, progress: bool = False,
                    with_side_bet: bool = True):
    """Casino Hold'em's Ante paytable priced under the optimal call re-optimised per candidate
    (``with_side_bet``: the call counts the side bet a fold forfeits)."""
    from gpusim.designer.maingame import AnteModel

    if counts is None:
        counts = spec_for(rules).solver().counts(rules, progress=progress)
    lines = tuple(current_paytable(rules, bet))
    return AnteModel.from_counts(counts, rules, lines, with_side_bet=with_side_bet)


def bet_kind(rules, bet: str) -> DesignEntry:
    """The bet's search, or the one-line error naming the bets the designer searches."""
    spec = spec_for(rules)
    allowed = [b for b in offered(rules) if b in spec.designs]
    if bet not in allowed:
        why = ""
        if bet in offered(rules) and bet not in spec.paytables:
            why = f" ({bet} has no paytable in {spec.name})"
        elif bet in spec.design_refusals:
            why = f" ({spec.design_refusals[bet]})"
        raise DesignError(f"--bet: got {bet!r}{why}; bets the designer searches in "
                          f"{rules.name}: {', '.join(allowed) or 'none'}")
    return spec.designs[bet]


def current_paytable(rules, bet: str) -> dict[str, int]:
    """{line: pay} of the bet's paytable in the game's line order (best hand first)."""
    table = spec_for(rules).paytable(rules, bet)
    return {ln: table[ln] for ln in spec_for(rules).paytables[bet] if ln in table}


def side_bet_model(rules, bet: str):
    """The side bet's :class:`~gpusim.designer.sidebet.SideBetModel`, from its spec's
    ``build(rules, bet) -> ({line: hits}, total)``."""
    from gpusim.designer.sidebet import SideBetModel

    hits, total = load(bet_kind(rules, bet).build)(rules, bet)
    n = np.array(list(hits.values()), dtype=np.int64)
    return SideBetModel(tuple(hits), n, total - int(n.sum()), total)


def main_model(rules, bet: str, strategy: str, *, counts=None, progress: bool = False):
    kind = bet_kind(rules, bet)
    return load(kind.build)(rules, bet, strategy, counts, progress, kind.strategies[strategy])


def with_paytable(rules, bet: str, pays: dict[str, int], name: str | None = None):
    """(the config document, its rules) with the bet's paytable replaced by ``pays``."""
    from gpusim.config import ConfigError, parse_config

    doc = copy.deepcopy(rules.to_dict())
    doc.pop("source", None)
    # the stake multiples are the game's, recorded for readers; a config may not set them
    doc["rules"] = {k: v for k, v in doc.get("rules", {}).items() if not k.endswith("_multiple")}
    doc["paytables"][bet] = {ln: int(p) for ln, p in pays.items()}
    if name is not None:
        doc["name"] = name
    try:
        return doc, parse_config(doc, source="design", default_name=name or rules.name)
    except ConfigError as exc:
        raise DesignError(str(exc)) from None
