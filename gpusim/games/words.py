"""A game's rules in words, written from what the engine computes with: the game's spec (its
bets, decision tree, stake multiples, paytables and config keys), the config's values and, for a
game described in TOML, its description (cards, hands, showdown, how each bet settles).

No sentence here belongs to one game: every game's text comes from the same code, so the words
cannot drift from the rules that are computed (``gpusim certify`` prints them; a test checks
that every bet and paytable line of every shipped config is named).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from gpusim.games import bets as offered
from gpusim.games import spec_for

__all__ = ["pay_words", "rules_in_words"]

_COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
                8: "eight", 9: "nine"}


def _n(k: int) -> str:
    return _COUNT_WORDS.get(k, str(k))


def _human(name: str) -> str:
    return name.replace("_", " ")


def pay_words(pay: Any, form: str = "X:1") -> str:
    """A paytable pay as a table game's rules say it: ``100`` -> "100:1", ``"3:2"`` -> "3:2",
    a prize that replaces the stake (``form`` "X for 1") -> "100 for 1"."""
    if isinstance(pay, str):
        return pay
    return f"{pay} for 1" if form == "X for 1" else f"{pay}:1"


def _cards(spec, d) -> list[str]:
    if d is not None:
        parts = [f"{_n(d.player)} to the player"]
        if d.dealer:
            up = f" ({_n(d.dealer_up)} face up)" if d.dealer_up else ""
            parts.append(f"{_n(d.dealer)} to the dealer{up}")
        if d.streets:
            parts.append(f"{_n(sum(d.streets))} community card(s), turned in "
                         f"{_n(len(d.streets))} step(s) of " + ", ".join(map(str, d.streets)))
        return [f"One 52-card deck, shuffled for every round: {', '.join(parts)}."]
    groups = [f"{_n(len(cols))} to the {name if name != 'board' else 'board (community cards)'}"
              for name, cols in spec.card_layout.items()]
    return [f"One 52-card deck, shuffled for every round: {', '.join(groups)}."]


def _hands(d) -> list[str]:
    import json

    raw = (json.loads(d.raw) if d.raw else {}).get("hands", {})
    out = []
    for h in d.hands:
        # the card groups as the description names them ("player", "board")
        groups = " and ".join((raw.get(h.name) or {}).get("cards", ()))
        ranking = ("three-card poker ranking (a straight beats a flush)"
                   if h.ranking == "three_card" else "poker ranking, best five cards")
        cards = f" ({_n(len(h.columns))} cards" + (f": {groups})" if groups else ")")
        out.append(f"Hand {h.name!r}{cards}, {ranking}.")
    for ln in d.lines:
        out.append(f"Line {ln.name!r}: a {_human(ln.category)} of rank "
                   f"{'23456789TJQKA'[ln.lo]} to {'23456789TJQKA'[ln.hi]}.")
    if d.showdown is not None:
        player, dealer, qual = d.showdown
        q = "" if qual is None else f"; the dealer qualifies with {qual_words(d)} or better"
        out.append(f"Showdown: the player's {player!r} hand against the dealer's {dealer!r} "
                   f"hand{q}.")
    return out


def _bet_name(spec, bet: str) -> str:
    label = spec.labels.get(bet)
    return f"{label} ({bet})" if label else bet


def _placed_by(spec) -> dict[str, list[str]]:
    """{bet: ["the <point> action <name> (2x)", ...]} from the decision tree."""
    by: dict[str, list[str]] = {}
    for p in spec.decisions:
        for a in p.actions:
            for bet, mult in a.stakes.items():
                by.setdefault(bet, []).append(f"{p.name}: {a.name} ({mult}x the {spec.base_bet})")
    return by


def _settles(bd) -> str:
    words = {Fraction(0): "loses", Fraction(1): "pushes", Fraction(2): "pays 1:1"}
    parts = []
    for outcome, pay in bd.pays:
        if pay == "paytable":
            parts.append(f"{_human(outcome)}: pays its paytable")
        else:
            w = words.get(Fraction(pay), f"returns {Fraction(pay)} per unit")
            parts.append(f"{_human(outcome)}: {w}")
    text = "; ".join(parts)
    if bd.bonus:
        when = f" when the player {bd.bonus_requires}s" if bd.bonus_requires else ""
        text += f"; also pays the {bd.bonus!r} paytable{when}, whatever the dealer holds"
    if bd.requires:
        text += f"; pays only if {bd.requires}"
    return text


def _bets(spec, rules, d) -> list[str]:

    stakes = rules.to_dict().get("stakes", {})
    placed = _placed_by(spec)
    forfeits = set(spec.forfeited_by_fold(rules))
    out = []
    for bet in offered(rules):
        kind = "side bet" if bet in spec.side_bets else "main bet"
        if bet in placed:
            how = "placed by the decision " + "; or ".join(placed[bet])
        elif bet in spec.stake_multiples and spec.stake_multiples[bet] != 1:
            how = f"{spec.stake_multiples[bet]}x the {spec.base_bet}"
        elif bet in stakes:
            how = f"placed at the deal, stake {stakes[bet]} unit(s)"
        else:
            how = f"placed at the deal, equal to the {spec.base_bet}"
        line = f"{_bet_name(spec, bet)}: {kind}, {how}."
        if bet in forfeits:
            line += " A fold forfeits it (it is not settled)."
        if d is not None:
            bd = next((b for b in d.bets if b.name == bet), None)
            if bd is not None:
                if bd.fold == "settle" and bet not in forfeits:
                    line += " It is settled even after a fold."
                line += f" Settles: {_settles(bd)}."
                if bd.paytable and all(o != "settle" for o, _ in bd.pays):
                    line += f" Paytable: {bd.paytable!r}."
                elif bd.paytable:
                    line += f" Paytable: {bd.paytable!r}."
        out.append(line)
    return out


def _decisions(spec) -> list[str]:
    out = []
    for p in spec.decisions:
        acts = []
        for a in p.actions:
            if a.folds:
                what = "fold (the round ends; bets on the table lose)"
            elif a.stakes:
                what = ", ".join(f"place {b} at {m}x the {spec.base_bet}"
                                 for b, m in a.stakes.items())
            else:
                what = "check (no bet)"
            nxt = f", then {a.next}" if a.next else ""
            acts.append(f"{a.name}: {what}{nxt}")
        out.append(f"Decision {p.name!r}: " + "; ".join(acts) + ".")
    return out


def _config_rules(spec, rules) -> list[str]:
    """Each rule the config sets, with what it means (the spec's config keys)."""
    doc = rules.to_dict()
    meaning = {k.key: k.meaning for k in spec.config_keys}
    out = []

    def walk(prefix: str, table: dict) -> None:
        for k, v in table.items():
            key = f"{prefix}.{k}"
            if isinstance(v, dict):
                walk(key, v)
            elif key in meaning:
                out.append(f"{key} = {v!r}: {meaning[key]}")
            elif k.endswith("_multiple"):
                out.append(f"{key} = {v!r}: fixed by the game")

    for section in ("rules", "jackpot"):
        if isinstance(doc.get(section), dict):
            walk(section, doc[section])
    return out


def qual_words(d) -> str:
    """The described game's dealer qualifier as written in its TOML (``Q``, ``A-K``,
    ``pair``), from the raw description."""
    import json

    raw = json.loads(d.raw) if d.raw else {}
    return str((raw.get("showdown") or {}).get("qualifier", "its qualifier"))


def _paytables(spec, rules) -> list[str]:

    forms = {k.key.removeprefix("paytables."): k.pays for k in spec.config_keys
             if k.key.startswith("paytables.")}
    meaning = {k.key.removeprefix("paytables."): k.meaning for k in spec.config_keys
               if k.key.startswith("paytables.")}
    raw = rules.to_dict().get("paytables", {})
    out = []
    for bet in offered(rules):
        if bet not in spec.paytables:
            continue
        table = spec.paytable_tables.get(bet, bet)
        lines = raw.get(table) or spec.paytable(rules, bet)
        form = "X for 1" if "X for 1" in forms.get(table, ()) and "X:1" not in forms.get(
            table, ()) else "X:1"
        what = f" ({meaning[table]})" if table in meaning else ""
        pays = ", ".join(f"{ln} pays {pay_words(p, form)}" for ln, p in lines.items())
        out.append(f"{_bet_name(spec, bet)} paytable [{table}]{what}: {pays}; "
                   "anything else loses.")
    return out


def rules_in_words(rules) -> list[tuple[str, list[str]]]:
    """[(heading, [sentence, ...]), ...]: the cards, the hands (a described game), the bets,
    the decisions, the rules the config sets and every paytable, in that order."""
    spec = spec_for(rules)
    d = spec.game_def
    sections = [("Cards", _cards(spec, d))]
    if d is not None:
        sections.append(("Hands and showdown", _hands(d)))
    sections += [("Bets", _bets(spec, rules, d)), ("Decisions", _decisions(spec)),
                 ("Rules set by the config", _config_rules(spec, rules)),
                 ("Paytables", _paytables(spec, rules))]
    return [(h, s) for h, s in sections if s]
