"""Ultimate Texas Hold'em described in TOML (configs/ultimate_holdem.toml and the must-beat
config that plays it): the options reach the config's hash and its manifest round-trips, the
qualifier option changes who qualifies, and each key of the vocabulary the game brought refuses
a mistake in one line. (Its settlement is checked round by round against an independent
reference in tests/test_settlement.py.)"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from _describe_mistakes import assert_refused

from gpusim.config import editable_doc, load_config, parse_config
from gpusim.games import settle
from gpusim.rules import rules_hash

ROOT = Path(__file__).resolve().parents[1]
DESCRIBED = ROOT / "configs" / "ultimate_holdem.toml"
MUST_BEAT = ROOT / "configs" / "ultimate_holdem_must_beat.toml"
N = 20_000


@pytest.fixture(scope="module")
def rounds():
    """(cards (N, 9) int32: player 0:2, dealer 2:4, flop 4:7, turn 7, river 8; decisions):
    random deals and a random action at every point (4x, 3x or check; 2x or check; play or
    fold), so every path and every outcome is reached."""
    rng = np.random.default_rng(20260)
    cards = np.argsort(rng.random((N, 52)), axis=1)[:, :9].astype(np.int32)
    decisions = {"preflop": rng.integers(0, 3, N, dtype=np.int32),
                 "flop": rng.integers(0, 2, N, dtype=np.int32),
                 "river": rng.integers(0, 2, N, dtype=np.int32)}
    return cards, decisions


def _named(settlement) -> dict[str, np.ndarray]:
    """{bet: (N,) event names} through the settlement's own event table."""
    table = dict(settlement.event_table)
    return {b: np.asarray(table[b], dtype=object)[np.asarray(e)]
            for b, e in settlement.events.items()}


def test_options_reach_the_hash_and_round_trip():
    std, must = load_config(DESCRIBED), load_config(MUST_BEAT)
    assert std.game == must.game == "ultimate_holdem"
    assert std.to_dict()["rules"] == {"trips_must_beat": False,
                                      "dealer_qualifier": {"hand": "pair", "rank": "2"}}
    assert must.to_dict()["rules"]["trips_must_beat"] is True
    assert rules_hash(std) != rules_hash(must)
    for rules in (std, must):
        again = parse_config(editable_doc(rules.to_dict()))  # as a run's manifest is read
        assert again == rules and again.game_def == rules.game_def
        assert rules_hash(again) == rules_hash(rules)


def test_qualifier_option_changes_who_qualifies(rounds):
    cards, decisions = rounds
    std = load_config(DESCRIBED)
    doc = editable_doc(std.to_dict())
    doc["rules"]["dealer_qualifier"] = {"hand": "two_pair", "rank": "2"}
    harder = parse_config(doc)
    assert harder.game_def.showdown[2] != std.game_def.showdown[2]
    a = _named(settle(cards, decisions, std))["ante"]
    b = _named(settle(cards, decisions, harder))["ante"]
    assert (b == "dealer_not_qualified").sum() > (a == "dealer_not_qualified").sum()


TEXT = DESCRIBED.read_text(encoding="utf-8")
CASES = [
    # (id, [(old, new)], key, needles)
    ("unqualified-tie-bad", [('unqualified_tie = "tie"', 'unqualified_tie = "push"')],
     "game.showdown.unqualified_tie", ["'push'", "'no_qualify', 'tie'"]),
    ("unlisted-bad", [('unlisted = "named"       # a win', 'unlisted = "all"       # a win')],
     "game.paytables.blind.unlisted", ["'all'", "'other', 'named'"]),
    ("events-unknown-word", [('lose = "loss"', 'lost = "loss"')],
     "game.events.lost", ["unknown key", "no_qualify", "no_beat"]),
    ("events-bad-name", [('lose = "loss"', 'lose = "Loss"')],
     "game.events.lose", ["'Loss'", "lowercase"]),
    ("events-collide-word", [('lose = "loss"', 'lose = "tie"')],
     "game.events.lose", ["'tie'", "'tie'", "no other event"]),
    ("events-collide-category", [('lose = "loss"', 'lose = "pair"')],
     "game.events.lose", ["'pair'", "category"]),
    ("events-collide-action", [('lose = "loss"', 'lose = "check"')],
     "game.events.lose", ["'check'", "action"]),
    ("option-bad-type", [('type = "hand"', 'type = "card"')],
     "game.options.dealer_qualifier.type", ["'card'", "'choice', 'hand'"]),
    ("option-no-description", [('description = "the dealer qualifies', 'about = "the dealer')],
     "game.options.dealer_qualifier.about", ["unknown key", "description"]),
    ("option-values-mixed", [("values = [false, true]", 'values = [false, "yes"]')],
     "game.options.trips_must_beat.values", ["[false, 'yes']", "all true/false"]),
    ("option-default-not-a-value", [("default = false", 'default = "no"')],
     "game.options.trips_must_beat.default", ["'no'", "false, true"]),
    ("option-sets-unknown-value", [('{ true = "beat_dealer" }', '{ yes = "beat_dealer" }')],
     "game.options.trips_must_beat.sets.'bets.trips.requires'.yes",
     ["not a value", "false, true"]),
    ("option-sets-missing-table", [('"bets.trips.requires"', '"bets.trip.requires"')],
     "game.options.trips_must_beat.sets.'bets.trip.requires'", ["names no table", "bets.trip"]),
    ("option-sets-game-name", [('"bets.trips.requires"', '"name.x"')],
     "game.options.trips_must_beat.sets.'name.x'", ["not allowed", "showdown.qualifier"]),
    ("option-sets-invalid-value", [('{ true = "beat_dealer" }', '{ true = "always" }')],
     "game.options.trips_must_beat.sets", ["trips_must_beat = true", "'always'",
                                           "game.bets.trips.requires"]),
    ("option-changes-the-frame", [('{ true = "beat_dealer" }', '{ true = 1 }'),
                                  ('"bets.trips.requires"', '"cards.dealer_up"'),
                                  # the hand table would refuse the up card first
                                  ('hand_table = "preflop"', '')],
     "game.options.trips_must_beat.sets", ["trips_must_beat = true", "how bets settle"]),
    ("option-hand-sets", [('sets = ["showdown.qualifier"]', 'sets = ["showdown.dealer"]')],
     "game.options.dealer_qualifier.sets", ["['showdown.dealer']", "'showdown.qualifier'"]),
    ("option-hand-default", [('default = { hand = "pair", rank = "2" }',
                              'default = { hand = "pair", rank = "1" }')],
     "game.options.dealer_qualifier.default.rank", ["'1'", "'2', '3'"]),
    ("config-option-unknown", [("trips_must_beat = false", "trips_must_win = false")],
     "rules.trips_must_win", ["unknown key", "trips_must_beat", "dealer_qualifier"]),
    ("config-option-bad-value", [("trips_must_beat = false", "trips_must_beat = 1")],
     "rules.trips_must_beat", ["1", "false, true"]),
    ("config-hand-bad", [('hand = "pair"\nrank', 'hand = "pairs"\nrank')],
     "rules.dealer_qualifier.hand", ["'pairs'", "'two_pair'"]),
    ("config-hand-rank-meaningless", [('hand = "pair"\nrank = "2"',
                                       'hand = "flush"\nrank = "K"')],
     "rules.dealer_qualifier.rank", ["'K'", "'flush'", "any flush"]),
]


@pytest.mark.parametrize(("cid", "edits", "key", "needles"), CASES, ids=[c[0] for c in CASES])
def test_new_keys_refuse_mistakes(tmp_path, cid, edits, key, needles):
    text = TEXT
    assert_refused(tmp_path, cid, text, edits, key, needles)
