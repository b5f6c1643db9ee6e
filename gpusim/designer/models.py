"""Which paytables the designer searches, and the exact counts each is priced from.

A game's spec lists the bets the designer searches (``GameSpec.designs``): a side bet's model is
its integer counts per line (strategy-free); a main-game paytable's model is the per-situation
counts of the game's cached enumeration, priced under the optimal strategy re-optimised per
candidate. Both builders live in the game's package: a side bet's returns its hits per line, a
main game's its :class:`~gpusim.designer.maingame.MainModel`.
"""

from __future__ import annotations

import copy

import numpy as np

from gpusim.designer.space import DesignError
from gpusim.games import bets as offered
from gpusim.games import spec_for
from gpusim.games.spec import DesignEntry, load

__all__ = ["bet_kind", "current_paytable", "main_model", "side_bet_model", "with_paytable"]


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
    if "rules" in doc:  # a described game's config has no [rules] table
        doc["rules"] = {k: v for k, v in doc["rules"].items() if not k.endswith("_multiple")}
    table = spec_for(rules).paytable_tables.get(bet, bet)
    doc["paytables"][table] = {ln: int(p) for ln, p in pays.items()}
    if name is not None:
        doc["name"] = name
    try:
        return doc, parse_config(doc, source="design", default_name=name or rules.name)
    except ConfigError as exc:
        raise DesignError(str(exc)) from None
