"""Casino Hold'em's description (configs/casino_holdem.toml's ``[game]`` and its evolution
config) settles as the hand-written game did: on the same random rounds and random decisions,
every offered bet has the stake, net and event name of an independent per-round reference (eval7
hand ranks, the rules' text: ``ref_casino_holdem`` of tests/test_settlement.py), the hands the
categories and the order eval7 gives them, and the event tables and their returns are the
hand-written game's; its rule strategies take the hand-written strategies' action on every
round (tests/ch_reference.py); the new keys of the vocabulary (lines of whole categories,
``event_names``, ``fold_event``, ``run_with_own``) refuse a mistake in one line. (The golden
counts of both configs under every strategy are tests/test_golden.py's.)
"""

from __future__ import annotations

import json
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from _describe_mistakes import assert_refused
from ch_reference import ch_terms
from test_settlement import (
    assert_hands_as_eval7,
    assert_settles_as,
    by_bet,
    ref_casino_holdem,
)

from gpusim.cards import CATEGORY_KEYS
from gpusim.config import editable_doc, load_config, parse_config, shipped_configs
from gpusim.games import settle, spec_for
from gpusim.rules import rules_hash

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = ("casino_holdem", "casino_holdem_evolution")
DESCRIBED = shipped_configs()["casino_holdem"]
EVOLUTION = shipped_configs()["casino_holdem_evolution"]
N = 20_000
AA_BONUS_HANDS = ("high_card", "pair_below_aces", "pair_of_aces", *CATEGORY_KEYS[2:])
EVENTS = {
    "ante": {"fold", *(f"dealer_not_qualified:{c}" for c in CATEGORY_KEYS),
             *(f"win:{c}" for c in CATEGORY_KEYS), "tie", "loss"},
    "call": {"fold", "dealer_not_qualified", "win", "tie", "loss"},
    "aa_bonus": {*AA_BONUS_HANDS, *(f"fold:{b}" for b in AA_BONUS_HANDS)},
}
"""The hand-written game's events of each bet (its events module, until it became a
description)."""


@pytest.fixture(scope="module")
def rounds():
    """(cards (N, 9) int32: player 0:2, dealer 2:4, flop 4:7, turn 7, river 8; decisions): random
    deals, the first half from the whole deck, the second from the aces, kings and hearts (AA
    Bonus hands and flushes), and a random call or fold on each."""
    rng = np.random.default_rng(20261)
    full = np.argsort(rng.random((N // 2, 52)), axis=1)[:, :9]
    deck = np.array(sorted(set(range(44, 52)) | set(range(2, 52, 4))))
    small = deck[np.argsort(rng.random((N - N // 2, deck.size)), axis=1)[:, :9]]
    cards = np.concatenate([full, small]).astype(np.int32)
    return cards, {"call": rng.integers(0, 2, N, dtype=np.int32)}


def _named(settlement) -> dict[str, np.ndarray]:
    """{bet: (N,) event names} through the settlement's own event table."""
    table = dict(settlement.event_table)
    return {b: np.asarray(table[b], dtype=object)[np.asarray(e)]
            for b, e in settlement.events.items()}


def _reference(terms, cards, calls, offered) -> dict[str, tuple[list, list, list]]:
    """{bet: (stakes, nets, event names)} of every round by the per-round reference (the bets
    it leaves out of a round: stake 0, net 0, event None)."""
    return by_bet((ref_casino_holdem(terms, c, bool(calls[i]))
                   for i, c in enumerate(cards.tolist())), offered)


def _returns(terms) -> dict[str, dict[str, int]]:
    """{bet: {event: amount returned per unit staked}} as the hand-written game priced them
    from the rules' text: the Ante's paytable (``straight_or_less`` below the flush) when the
    dealer does not qualify or the player wins, the Call 1:1, the AA Bonus's paytable (lost
    below a pair of aces), after a fold too unless the fold forfeits it."""
    pt = terms.ante_paytable
    ante = {"fold": 0, "tie": 1, "loss": 0}
    for c in CATEGORY_KEYS:
        pay = 1 + (pt[c] if c in pt else pt["straight_or_less"])
        ante[f"dealer_not_qualified:{c}"] = ante[f"win:{c}"] = pay
    out = {"ante": ante,
           "call": {"fold": 0, "dealer_not_qualified": 1, "win": 2, "tie": 1, "loss": 0}}
    aa = terms.aa_bonus_paytable
    called = {b: 1 + aa[b] if b in aa else 0 for b in AA_BONUS_HANDS}
    folded = {f"fold:{b}": 0 if terms.fold_forfeits_bonus else x for b, x in called.items()}
    out["aa_bonus"] = called | folded
    return out


@pytest.mark.parametrize("config", CONFIGS, ids=["norwegian", "evolution"])
def test_settlement_equals_the_reference(rounds, config):
    cards, decisions = rounds
    rules = load_config(config)
    terms = ch_terms(rules)
    s = settle(cards, decisions, rules)
    offered = ["ante", "call", "aa_bonus"]
    assert list(s.stakes) == offered
    # every event name the hand-written game could give, the description can give, and no
    # other, and each with the hand-written game's return
    assert {k: set(v) for k, v in s.event_table} == EVENTS
    returns = spec_for(rules).event_returns(rules)
    got = {bet: dict(zip(names, returns[bet], strict=True)) for bet, names in s.event_table}
    assert got == _returns(terms)
    named = _named(s)
    ref = _reference(terms, cards, decisions["call"], offered)
    # a bet the reference leaves out is the Call of a fold
    assert_settles_as(s, named, ref, offered, {"fold"})
    assert_hands_as_eval7(s, cards)
    # the rounds reach every path and the outcomes that differ between the configs
    seen = {bet: set(v) for bet, v in named.items()}
    assert {"fold", "dealer_not_qualified", "win", "tie", "loss"} == seen["call"]
    assert {"fold", "tie", "loss", "win:pair", "dealer_not_qualified:flush"} <= seen["ante"]
    assert {"fold:pair_of_aces", "fold:flush", "pair_of_aces", "flush", "high_card",
            "pair_below_aces"} <= seen["aa_bonus"]
    folded_win = np.isin(named["aa_bonus"], ["fold:pair_of_aces", "fold:flush"])
    won = np.asarray(s.nets["aa_bonus"])[folded_win]
    assert (won < 0).all() if config == "casino_holdem" else (won > 0).all()


def test_options_reach_the_hash_and_round_trip():
    std, evo = load_config(DESCRIBED), load_config(EVOLUTION)
    assert std.game == evo.game == "casino_holdem"
    assert std.to_dict()["rules"] == {"fold_forfeits_bonus": True,
                                      "dealer_qualifier": {"hand": "pair", "rank": "4"}}
    assert evo.to_dict()["rules"]["fold_forfeits_bonus"] is False
    assert rules_hash(std) != rules_hash(evo)
    for rules in (std, evo):
        again = parse_config(editable_doc(rules.to_dict()))  # as a run's manifest is read
        assert again == rules and again.game_def == rules.game_def
        assert rules_hash(again) == rules_hash(rules)


# --- the rule strategies -----------------------------------------------------------------------


def _deal(rng, n: int, deck) -> np.ndarray:
    deck = np.asarray(deck, np.int32)
    return deck[np.argsort(rng.random((n, deck.size)), axis=1)[:, :9]]


def _ranks(*ranks: int) -> list[int]:
    return [4 * r + s for r in ranks for s in range(4)]


def _strategy_rounds() -> np.ndarray:
    """Random rounds, then rounds from small decks that hit the rules' edges: flush draws,
    runs with the ace low or high and with a gap, pairs of aces and hole cards around the ten."""
    rng = np.random.default_rng(20261130)
    hearts, clubs = list(range(2, 52, 4)), list(range(0, 52, 4))
    return np.concatenate([
        _deal(rng, 100_000, range(52)),
        _deal(rng, 20_000, hearts + clubs),                  # flushes and four-flushes
        _deal(rng, 20_000, _ranks(12, 0, 1, 2, 3, 5)),       # A..6 without the 6: wheels
        _deal(rng, 20_000, _ranks(7, 8, 9, 10, 11, 12)),     # 9..A: broadway runs
        _deal(rng, 20_000, _ranks(0, 1, 2, 3, 5, 6, 7)),     # 2..9 with a gap: runs, no ten
        _deal(rng, 20_000, _ranks(12, 7, 8, 11)),            # aces, nines, tens, kings
    ]).astype(np.int32)


def test_rule_strategies_are_the_hand_written_reference():
    import ch_reference as S

    from gpusim.games.described.engine import rule_strategy
    from gpusim.strategy.features import features

    d = load_config(DESCRIBED).game_def
    cards = _strategy_rounds()
    seen = jnp.asarray(cards[:, [0, 1, 4, 5, 6]])
    f = {k: np.asarray(v) for k, v in jax.jit(features)(seen).items()}
    basic = f["hole_pair"] | f["flush4"] | f["run4"] | (f["hole_high"] >= 8)
    # the rounds reach each of the basic rules alone, and calls and folds
    for only in ("flush4", "run4"):
        others = [k for k in ("hole_pair", "flush4", "run4") if k != only]
        assert (f[only] & ~f[others[0]] & ~f[others[1]] & (f["hole_high"] < 8)).sum() > 500
    assert (basic & (f["hole_high"] < 8)).sum() > 1_000 and (~basic).sum() > 10_000
    reference = {"always-play": S.ch_always_play, "basic": S.ch_basic,
                 "side-bet-optimal": S.ch_side_bet_optimal}
    assert sorted(reference) == sorted(s[0] for s in d.strategies)
    answers = {}
    for name, strat in reference.items():
        want = np.asarray(jax.jit(strat)(cards)["call"])
        got = np.asarray(jax.jit(rule_strategy(d, name))(cards)["call"])
        bad = np.flatnonzero(got != want)
        assert bad.size == 0, (name, cards[bad[:5]].tolist(), got[bad[:5]], want[bad[:5]])
        answers[name] = got
    assert answers["always-play"].all()
    np.testing.assert_array_equal(answers["basic"], basic)
    extra = answers["side-bet-optimal"] & ~answers["basic"]  # a pair of aces on the board
    assert extra.sum() > 100


# --- the new keys refuse mistakes ------------------------------------------------------------

TEXT = DESCRIBED.read_text(encoding="utf-8")
GROUP = ('straight_or_less = { categories = ["high_card", "pair", "two_pair", '
         '"three_of_a_kind", "straight"] }')
CASES = [
    # (id, [(old, new)], key, needles)
    ("group-one-category", [(GROUP, 'straight_or_less = { categories = ["straight"] }')],
     "game.lines.straight_or_less.categories", ["['straight']", "two or more", "poker: "]),
    ("group-unknown-category", [(GROUP, 'straight_or_less = { categories = ["low", "pair"] }')],
     "game.lines.straight_or_less.categories", ["['low', 'pair']", "high_card, pair"]),
    ("group-and-category", [(GROUP, 'straight_or_less = { category = "pair", categories = '
                                    '["high_card", "pair"] }')],
     "game.lines.straight_or_less.category", ["not allowed with 'categories'"]),
    ("group-overlaps-a-line", [('"flush",\n         "straight_or_less"', '"flush", "straight",'
                                                                       '\n "straight_or_less"')],
     "game.paytables.ante.lines", ["'straight_or_less'", "'straight'", "one line"]),
    ("event-names-bad", [('event_names = "hand"', 'event_names = "category"')],
     "game.paytables.ante.event_names", ["'category'", "'line', 'hand'"]),
    ("event-names-with-unlisted", [('event_names = "hand"', 'event_names = "hand"\n'
                                                            'unlisted = "named"')],
     "game.paytables.ante.unlisted", ["event_names = 'hand'"]),
    ("fold-event-bad", [('fold_event = "named"', 'fold_event = "hand"')],
     "game.bets.aa_bonus.fold_event", ["'hand'", "'fold', 'named'"]),
    ("fold-event-on-a-showdown-bet", [('placed = "action"\nshowdown',
                                       'placed = "action"\nfold_event = "named"\nshowdown')],
     "game.bets.call.fold_event", ["'named'", "placed at the deal", "paytable alone"]),
    ("run-with-own-too-long", [("run_with_own = 4, action = \"call\" },\n    # a ten",
                                "run_with_own = 6, action = \"call\" },\n    # a ten")],
     "game.strategies.basic.call[2].run_with_own", ["6", "2..5"]),
    ("run-with-own-not-a-number", [("run_with_own = 4, action = \"call\" },\n    # a ten",
                                    "run_with_own = true, action = \"call\" },\n    # a ten")],
     "game.strategies.basic.call[2].run_with_own", ["true", "2..5"]),
]


@pytest.mark.parametrize(("cid", "edits", "key", "needles"), CASES, ids=[c[0] for c in CASES])
def test_new_keys_refuse_mistakes(tmp_path, cid, edits, key, needles):
    text = TEXT.replace('name = "casino_holdem"\n', 'name = "casino_holdem_broken"\n')
    assert text.count('name = "casino_holdem_broken"\n') == 2  # the config's and the game's
    assert_refused(tmp_path, cid, text, edits, key, needles)


def test_the_configs_validate_against_the_schema():
    import tomllib

    import jsonschema  # the dev extra installs it

    schema = json.loads((ROOT / "gpusim" / "games" / "described" / "schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    game = tomllib.loads(DESCRIBED.read_text(encoding="utf-8"))["game"]
    for path in (DESCRIBED, EVOLUTION):
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
        if isinstance(doc.get("game"), str):  # the evolution config names the game the other holds
            assert (path, doc["game"]) == (EVOLUTION, "casino_holdem")
            doc = {**doc, "game": game}
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
                  for e in validator.iter_errors(doc)]
        assert not errors, (path.name, errors)
    doc = tomllib.loads(DESCRIBED.read_text(encoding="utf-8"))
    doc["game"]["lines"]["straight_or_less"]["categories"] = ["straight"]
    assert not validator.is_valid(doc)
