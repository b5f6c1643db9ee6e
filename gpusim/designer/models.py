"""Which paytables the designer searches, and the exact counts each is priced from.

A game's spec lists the bets the designer searches (``GameSpec.designs``): a side bet's model is
its integer counts per line (strategy-free); a side bet a fold forfeits is priced as it plays
under a strategy (the game's ``forfeit_build``); a main-game paytable's model is the
per-situation counts of the game's cached enumeration, priced under the optimal strategy
re-optimised per candidate. The builders live with the game's engine (a described game's in
:mod:`gpusim.games.described.design`, a hold'em shape's in :mod:`gpusim.games.holdem`, a
plugin's in its own package): a side bet's returns its hits per line (or its own separable
model), a main game's its model.
"""

from __future__ import annotations

import copy
from fractions import Fraction

import numpy as np

from gpusim.designer.space import DesignError, Space, parse_pay, pay_text
from gpusim.games import bets as offered
from gpusim.games import spec_for
from gpusim.games.spec import DesignEntry, DesignRefused, load

__all__ = ["bet_kind", "current_paytable", "forfeited", "main_model", "side_bet_model",
           "with_paytable"]


def bet_kind(rules, bet: str) -> DesignEntry:
    """The bet's search, or the one-line error naming the bets the designer searches."""
    spec = spec_for(rules)
    allowed = [b for b in offered(rules) if b in spec.designs]
    if bet not in allowed:
        why = ""
        if bet in spec.bets and bet not in offered(rules):
            why = f" ({bet} is not offered in {rules.name}: its stake is 0)"
        elif bet in offered(rules) and bet not in spec.paytables:
            why = f" ({bet} has no paytable in {spec.name})"
        elif bet in spec.design_refusals:
            why = f" ({spec.design_refusals[bet]})"
        raise DesignError(f"--bet: got {bet!r}{why}; bets the designer searches in "
                          f"{rules.name}: {', '.join(allowed) or 'none'}")
    entry = spec.designs[bet]
    if forfeited(rules, bet) and entry.forfeit_build is None:
        raise DesignError(f"--bet: got {bet!r} ({entry.forfeit_refusal or 'a fold forfeits it'})"
                          f"; bets the designer searches in {rules.name}: "
                          f"{', '.join(b for b in allowed if b != bet) or 'none'}")
    return entry


def forfeited(rules, bet: str) -> bool:
    """Whether a fold forfeits the side bet ``bet`` under these rules."""
    return bet in spec_for(rules).forfeited_by_fold(rules)


def current_paytable(rules, bet: str) -> dict[str, int | Fraction]:
    """{line: pay} of the bet's paytable in the game's line order (best hand first); a pay an
    int (X:1) or a Fraction (a ratio such as 3:2)."""
    table = spec_for(rules).paytable(rules, bet)
    out: dict[str, int | Fraction] = {}
    for ln in spec_for(rules).paytables[bet]:
        if ln in table:
            p = parse_pay(table[ln])
            out[ln] = int(p) if p.denominator == 1 else p
    return out


def side_bet_model(rules, bet: str, strategy: str | None = None, *, counts=None,
                   progress: bool = False, space: Space | None = None):
    """The side bet's model: its spec's ``build(rules, bet) -> ({line: hits}, total)`` as a
    :class:`~gpusim.designer.sidebet.SideBetModel` (or the model the build returns); where a
    fold forfeits it, the ``forfeit_build``'s under ``strategy`` (default: the config's, if the
    entry lists it), a model or ``({line: hits}, total, {"strategy": ..., "strategy_text":
    ...})``."""
    from gpusim.designer.sidebet import SideBetModel

    kind = bet_kind(rules, bet)
    if forfeited(rules, bet):
        choices = dict(kind.forfeit_strategies or {})
        strategy = strategy or (rules.default_strategy if rules.default_strategy in choices
                                else next(iter(choices)))
        if strategy not in choices:
            raise DesignError(f"--strategy: got {strategy!r}; a fold forfeits {bet}, so it is "
                              f"priced under a strategy; allowed: {', '.join(choices)}")
        assert kind.forfeit_build is not None  # bet_kind refuses a forfeited bet without one
        built = _built(kind.forfeit_build, rules, bet, strategy, counts, progress,
                       choices[strategy], space=space)
    else:
        if strategy is not None:
            raise DesignError(f"--strategy: {bet} is a side bet settled whatever the player "
                              "does; no strategy touches it")
        built = _built(kind.build, rules, bet)
    if not isinstance(built, tuple):
        return built
    hits, total, *info = built
    n = np.array(list(hits.values()), dtype=np.int64)
    return SideBetModel(tuple(hits), n, total - int(n.sum()), total, **(info[0] if info else {}))


def _built(path: str, *args, **kw):
    """A game's design build, its refusal a one-line DesignError."""
    try:
        return load(path)(*args, **kw)
    except DesignRefused as exc:
        raise DesignError(str(exc)) from None


def main_model(rules, bet: str, strategy: str, *, counts=None, progress: bool = False,
               space: Space | None = None):
    """A main-game paytable's model: its spec's ``build(rules, bet, strategy, counts, progress,
    with_side_bet, space=space)``."""
    kind = bet_kind(rules, bet)
    assert kind.strategies is not None
    return _built(kind.build, rules, bet, strategy, counts, progress, kind.strategies[strategy],
                  space=space)


def with_paytable(rules, bet: str, pays: dict, name: str | None = None):
    """(the config document, its rules) with the bet's paytable replaced by ``pays`` ({line:
    pay}: an int, a Fraction, or ``"A:B"``; a ratio is written as the config writes it)."""
    from gpusim.config import ConfigError, parse_config

    doc = copy.deepcopy(rules.to_dict())
    doc.pop("source", None)
    # the stake multiples are the game's, recorded for readers; a config may not set them
    if "rules" in doc:  # a described game's config has no [rules] table
        doc["rules"] = {k: v for k, v in doc["rules"].items() if not k.endswith("_multiple")}
    table = spec_for(rules).paytable_tables.get(bet, bet)
    doc["paytables"][table] = {ln: pay_text(parse_pay(p)) for ln, p in pays.items()}
    if name is not None:
        doc["name"] = name
    try:
        return doc, parse_config(doc, source="design", default_name=name or rules.name)
    except ConfigError as exc:
        raise DesignError(str(exc)) from None
