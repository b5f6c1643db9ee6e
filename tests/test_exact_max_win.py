"""The shipped exact reports' integer counts and largest wins (``gpusim/data/exact``).

- Counts: every event of every bet carries integer ``count``, ``placed`` and ``staked``. Every
  deal falls in exactly one event of each bet (a bet off the table has events of its own:
  ``fold``, ``check``, a pulled bet), so each bet's counts sum to ``deals_counted``;
  ``0 <= placed <= count`` (a fold can leave an earlier street's bet on the table in some of its
  deals), ``staked`` is 0 where ``placed`` is and at least ``placed`` elsewhere (every placed
  deal stakes a whole number of units). The integers give the printed probabilities, returns,
  RTP and hit frequency back.
- Largest win: each bet's ``max_win`` is the brute-force maximum read here from the config file
  itself: the top pay of the bet's lines (its showdown pays, paytable and bonus lines, read
  from the described game's ``[game]`` table) x the largest stake multiple
  the game's decision tree allows x the bet's stake / the Ante. One bet's strategy never puts its
  top multiple on its top line: Mississippi Stud's third street, brute-forced from the
  strategy's own third-street actions (the report's ``first_decision``) and the best hand each
  start can make. The round's maximum is the sum of its bets' maxima (every shipped game can
  reach all of them in one deal) and counts no more deals than any of them.
"""

from __future__ import annotations

import itertools
import json
import math
import tomllib
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import gpusim
from gpusim.config import load_config, shipped_configs
from gpusim.games import spec_for

EXACT = Path(gpusim.__file__).parent / "data" / "exact"
REPORTS = sorted(json.loads((EXACT / "provenance.json").read_text()))


def _report(name: str) -> dict:
    return json.loads((EXACT / name).read_text())


def _toml(config: str) -> dict:
    return tomllib.loads(shipped_configs()[config].read_text())


@pytest.mark.parametrize("name", REPORTS)
def test_every_event_count_is_an_integer_and_each_bet_counts_every_deal(name):
    rep = _report(name)
    deals = rep["deals_counted"]
    assert isinstance(deals, int) and deals > 0
    for bet, info in rep["bets"].items():
        where = f"{name} {bet}"
        events = info["events"]
        for e in events:
            for k in ("count", "placed", "staked"):
                assert type(e[k]) is int, (where, e["event"], k)
            assert 0 <= e["placed"] <= e["count"], (where, e)
            assert (e["staked"] == 0) if e["placed"] == 0 else (e["staked"] >= e["placed"]), \
                (where, e)
            assert e["probability"] == e["count"] / deals, (where, e["event"])
        assert sum(e["count"] for e in events) == deals, where
        staked = sum(e["staked"] for e in events)
        placed = sum(e["placed"] for e in events)
        # the printed figures follow from the integers (pays are exact binary fractions or the
        # Jackpot's long-run royal prize, a float: compare to rounding)
        net = sum(Fraction(e["pays"]) * e["staked"] for e in events)
        for e in events:
            want = Fraction(e["pays"]) * e["staked"] / staked
            assert math.isclose(e["return"], want, rel_tol=1e-12, abs_tol=1e-15), (where, e)
        assert math.isclose(info["rtp"], 1 + net / staked, rel_tol=1e-12), where
        hits = sum(e["placed"] for e in events if e["pays"] > 0)
        assert info["hit_frequency"] == hits / placed, where


def _pay(x) -> Fraction:
    """A config pay: a whole number X (X:1) or "A:B"."""
    if isinstance(x, str):
        a, b = x.split(":")
        return Fraction(int(a), int(b))
    return Fraction(x)


def _top(table: dict) -> Fraction:
    return max(_pay(v) for v in table.values())


def _outcome_pay(value: str, paytable: Fraction) -> Fraction:
    named = {"paytable": paytable, "push": Fraction(0), "lose": Fraction(-1)}
    return named[value] if value in named else _pay(value)


def _described_maxima(config: str, doc: dict) -> dict[str, Fraction]:
    """{bet: largest net win in Antes} of a described game, from its ``[game]`` table: the best
    showdown pay (or the paytable's top line) plus the top bonus line, x the largest multiple
    of the decision tree, x a side bet's own stake / the base bet's."""
    rules = load_config(config)
    spec = spec_for(rules)
    game, pays, stakes = doc["game"], doc.get("paytables", {}), doc["stakes"]
    base = Fraction(stakes[spec.base_bet])
    out = {}
    for bet, b in game["bets"].items():
        if b.get("side") and stakes.get(bet, 0) == 0:
            continue
        line = _top(pays[b["paytable"]]) if "paytable" in b else Fraction(0)
        if game.get("paytables", {}).get(b.get("paytable"), {}).get("pays") == "for_one":
            line -= 1  # "X for 1": the prize replaces the stake (a royal's meter is left out)
        best = (max(_outcome_pay(v, line) for v in b["showdown"].values())
                if "showdown" in b else line)
        if "bonus" in b:
            best += _top(pays[b["bonus"]])
        scale = stakes[bet] / base if b.get("side") else spec.stake_multiples[bet]
        out[bet] = best * scale
    return out


_REACHED = {
    ("mississippi_stud", "third"):
        "the optimal strategy bets 3x on third street on a pair only, which cannot make a "
        "straight flush: its top multiple never meets its top line",
}
"""Bets whose strategy never reaches top multiple x top line: brute-forced by
:func:`_first_street_max` instead."""


def _first_street_max(rep: dict, doc: dict, bet: str) -> Fraction:
    """A bet placed at the first decision point from the player's two cards, every later card
    still to come: max over the starting hands of the largest multiple the strategy takes there
    (the report's ``first_decision`` shares) x the best pay a five-card hand holding those two
    cards can make (every completion evaluated; a pair's pay is its best pair line)."""
    from gpusim.cards import CATEGORY_KEYS, RANKS
    from gpusim.evaluator import evaluate_np

    pays = doc["paytables"][doc["game"]["bets"][bet]["paytable"]]
    times = {a["name"]: a.get("times", 0)
             for p in doc["game"]["decisions"] for a in p["actions"] if a.get("bet") == bet}
    lines = doc["game"].get("lines", {})
    by_cat = {c: max((Fraction(v) for k, v in pays.items()
                      if k == c or lines.get(k, {}).get("category") == c), default=None)
              for c in CATEGORY_KEYS}
    starts, multiple = [], []
    for h in rep["first_decision"]["hands"]:
        m = max(times.get(a, 0) for a, share in h["share"].items() if share > 0)
        if m > 0:
            r0, r1 = RANKS.index(h["hand"][0]), RANKS.index(h["hand"][1])
            starts.append([4 * r0, 4 * r1 + (0 if h["hand"].endswith("s") else 1)])
            multiple.append(m)
    three = np.array(list(itertools.combinations(range(50), 3)), np.int32)  # (19600, 3)
    hands = []
    for start in starts:
        rest = np.array([c for c in range(52) if c not in start], np.int32)
        hands.append(np.column_stack([np.tile(start, (len(three), 1)), rest[three]]))
    rank = evaluate_np(np.concatenate(hands).astype(np.int32), check=False).astype(np.int64)
    cat = (rank >> 27).reshape(len(starts), -1)
    royal = (cat == 8) & ((((rank >> 13) & 0x1FFF) == (1 << 12)).reshape(cat.shape))
    cat = np.where(royal, 9, cat)
    best = None
    for m, row in zip(multiple, cat, strict=True):
        top = max((by_cat[CATEGORY_KEYS[c]] for c in set(row.tolist())
                   if by_cat[CATEGORY_KEYS[c]] is not None), default=Fraction(-1))
        best = m * top if best is None else max(best, m * top)
    assert best is not None
    return best


@pytest.mark.parametrize("name", REPORTS)
def test_max_win_of_every_bet_and_round_is_the_brute_force_maximum(name):
    rep = _report(name)
    config = rep["config"]
    doc = _toml(config)
    named = doc.get("game")
    if isinstance(named, str) and isinstance(_toml(named).get("game"), dict):
        doc = {**doc, "game": _toml(named)["game"]}  # a described game another config holds
    # every shipped game is described (Texas Hold'em Bonus was the last hand-written one)
    assert isinstance(doc.get("game"), dict), f"{config}: no [game] table to read maxima from"
    want = _described_maxima(config, doc)
    for bet in rep["bets"]:  # a side bet a fold forfeits, as if always settled: the same best
        if bet.endswith("_always_settled"):
            want[bet] = want[bet.removesuffix("_always_settled")]
    assert set(want) == set(rep["bets"]), name
    for bet, info in rep["bets"].items():
        mw = info["max_win"]
        if (config, bet) in _REACHED:
            assert Fraction(mw["antes"]) < want[bet], (name, bet)  # the exception holds
            want[bet] = _first_street_max(rep, doc, bet)
        assert Fraction(mw["antes"]) == want[bet], (name, bet, mw, want[bet])
        assert type(mw["count"]) is int and mw["count"] > 0
        assert mw["probability"] == mw["count"] / rep["deals_counted"]
        # the events it falls in pay it, and count at least as many deals
        named = [e for e in info["events"] if e["event"] in mw["events"]]
        assert len(named) == len(mw["events"]) and all(e["pays"] > 0 for e in named)
        assert sum(e["placed"] for e in named) >= mw["count"]
    rnd = rep["max_win"]
    assert rnd["scope"] in ("all_bets", "main_game")
    offered = [b for b in rep["bets"] if not b.endswith("_always_settled")]
    if rnd["scope"] == "all_bets":
        assert rnd["bets"] == offered and "excluded" not in rnd
    else:
        assert set(rnd["excluded"]) == set(offered) - set(rnd["bets"]) != set()
    assert Fraction(rnd["antes"]) == sum(want[b] for b in rnd["bets"]), name
    assert 0 < rnd["count"] <= min(rep["bets"][b]["max_win"]["count"] for b in rnd["bets"])
    assert rnd["probability"] == rnd["count"] / rep["deals_counted"]


def test_only_the_progressive_royal_is_left_out_of_a_max_win():
    rep = _report("holdem_bonus.optimal.json")
    jp = rep["bets"]["jackpot"]["max_win"]
    assert jp["excluded_events"] == ["royal_flush"] and "meter" in jp["note"]
    assert "royal_flush" not in jp["events"]
    assert rep["max_win"]["scope"] == "main_game"
    # everywhere else nothing is left out
    for name in REPORTS:
        for bet, info in _report(name)["bets"].items():
            if (name, bet) != ("holdem_bonus.optimal.json", "jackpot"):
                assert "excluded_events" not in info["max_win"], (name, bet)


def test_par_sheet_reads_the_counts_and_the_max_wins():
    from gpusim.report.par import exact_par_tables

    rep = _report("ultimate_holdem.optimal.json")
    tables = exact_par_tables(rep)
    summary = {r["figure"]: r for r in tables["Summary"]["summary"].iter_rows(named=True)}
    assert summary["max win per round (antes)"]["value"] == rep["max_win"]["antes"]
    assert summary["max win per round: deals"]["value"] == rep["max_win"]["count"]
    bets = {r["bet"]: r for r in tables["Summary"]["bets"].iter_rows(named=True)}
    for bet, info in rep["bets"].items():
        assert bets[bet]["max_win_antes"] == info["max_win"]["antes"]
        assert bets[bet]["max_win_deals"] == info["max_win"]["count"]
        figs = dict(tables[bet][f"{bet}_figures"].iter_rows())
        assert figs["max win (antes)"] == info["max_win"]["antes"]
        pt = tables[bet][f"{bet}_paytable"]
        assert pt["combinations"].to_list() == [e["count"] for e in info["events"]]
    # the Play is off the table after a fold: no pay on that row
    play = tables["play"]["play_paytable"].row(0, named=True)
    assert play["event"] == "fold" and play["pays"] is None
    # a report without integer counts is refused, not rebuilt from its probabilities
    del rep["bets"]["trips"]["events"][3]["count"]
    with pytest.raises(ValueError, match="'trips'.*no integer count"):
        exact_par_tables(rep)
