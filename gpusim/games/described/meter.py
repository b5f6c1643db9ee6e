"""A progressive meter: ``[game.meter]`` names a side bet and the event of it that wins the
meter, and a config of the game gives the meter's numbers in its ``[jackpot]`` table.

.. code-block:: toml

    [game.meter]
    bet = "jackpot"          # a side bet settled on a paytable
    event = "royal_flush"    # a hand its paytable does not pay: it wins the meter instead

    # in the config:
    [jackpot]
    contribution_bp = 5000   # basis points of each wager added to the meter
    reset = 0                # the meter after a hit (money units)

The meter moves as every game's does (:meth:`gpusim.rules.JackpotRules.advance`): each wager
adds its contribution before its round is dealt, a hit pays the meter rounded down and the
meter restarts at ``reset``. The settlement pays a hit ``meter - stake`` (the meter it is
handed, default ``reset``); a run pays the hits in round order
(:attr:`gpusim.games.spec.GameSpec.meter_bet`). No JAX here: configs read this module.
"""

from __future__ import annotations

from dataclasses import replace

from gpusim.games.spec import METER_SECTION
from gpusim.rules import BP, INT32_MAX, ConfigReader, JackpotRules, Paytable

__all__ = ["METER_KEYS", "meter", "meter_rules"]

METER_KEYS = ("contribution_bp", "reset")
"""The keys of a config's ``[jackpot]`` table, both required."""


def meter(r: ConfigReader, game: dict, d):
    """``[game.meter]``: ``bet`` (a side bet settled on a paytable) and ``event`` (a name the
    bet's events have, a hand its paytable does not pay)."""
    from gpusim.games.described.layout import _classes, _line_of_class

    table = r.table(game, "game", "meter", required=False)
    if table is None:
        return d
    w = "game.meter"
    r.keys(table, w, ("bet", "event"))
    sides = tuple(b.name for b in d.bets if b.side and b.paytable and not b.requires
                  and not b.bonus and b.pays[0][0] == "settle")
    if "bet" not in table:
        raise r.fail(f"{w}.bet", f"missing; allowed: {', '.join(map(repr, sides)) or 'none'} "
                                 "(a side bet settled on a paytable)")
    bet = r.string(table, w, "bet", allowed=sides or ("(a side bet settled on a paytable)",))
    b = d.bet(bet)
    pt = d.paytable(str(b.paytable))
    names = _classes(d, pt.hand)
    named = pt.unlisted == "named" or pt.event_names == "hand"
    # the hands on none of the paytable's lines, named as their events are (lost, not pushed)
    unpaid = tuple(dict.fromkeys(
        n if named else d.word("other")
        for (n, _), k in zip(names, _line_of_class(d, pt.name, names), strict=True)
        if k < 0 and pt.otherwise == "lose"))
    if "event" not in table:
        raise r.fail(f"{w}.event", f"missing; allowed: {', '.join(map(repr, unpaid))}")
    event = table["event"]
    if event not in unpaid:
        raise r.fail(f"{w}.event", f"value {event!r} is not allowed; allowed: "
                                   f"{', '.join(map(repr, unpaid)) or 'none'} (an event of bet "
                                   f"{b.name!r} that its paytable does not pay)")
    return replace(d, meter=(bet, event))


def meter_rules(r: ConfigReader, doc: dict, d, stakes, tables) -> JackpotRules | None:
    """The config's meter (``[jackpot]``): required when the meter's bet is staked, read when
    given; None for a game without a meter or a config that leaves it out."""
    if d.meter is None:
        return None
    bet = d.meter[0]
    w = METER_SECTION
    jp = r.table(doc, "", w, required=stakes[bet] > 0)
    if jp is None:
        return None
    r.keys(jp, w, METER_KEYS)
    for k in METER_KEYS:
        if k not in jp:
            raise r.fail(f"{w}.{k}", f"missing; [{w}] needs {' and '.join(METER_KEYS)}")
    contribution = r.integer(jp, w, "contribution_bp", 0, BP,
                             f"expected a whole number 0..{BP} (basis points of each wager)")
    reset = r.integer(jp, w, "reset", 0, INT32_MAX,
                      f"expected a whole number 0..{INT32_MAX} (money units)")
    paytable = d.bet(bet).paytable
    prizes = dict(tables).get(paytable, Paytable(()))
    return JackpotRules(prizes, contribution, reset, d.paytable(paytable).hand)


def blank(jp: JackpotRules | None) -> JackpotRules | None:
    """The meter with its numbers blanked (a compiled program's structure)."""
    return None if jp is None else JackpotRules(Paytable(()), 0, 0, jp.cards)
