"""Texas Hold'em Bonus's description (configs/holdem_bonus.toml's ``[game]`` and its classic
config) settles and decides as the hand-written game did: on the same random rounds and random
actions, every offered bet has the stake, net and event name of an independent per-round
reference (eval7 hand ranks, the rules' text: ``ref_holdem_bonus`` of tests/test_settlement.py),
the Bonus's AA-vs-dealer-AA and the Jackpot's meter included, and the event tables are the
hand-written game's; the description's rule strategies take the hand-written reference's
action (tests/thb_reference.py) or the shipped exact tables' (solved by the hand-written game
until it became a description) at every point reached. Each new key of the vocabulary refuses
a mistake in one line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from _describe_mistakes import assert_refused
from test_settlement import (
    assert_hands_as_eval7,
    assert_settles_as,
    by_bet,
    ref_holdem_bonus,
)
from thb_reference import TREE, thb_always_play, thb_basic, thb_terms

from gpusim.cards import CATEGORY_KEYS, parse_cards
from gpusim.config import editable_doc, load_config, parse_config, shipped_configs
from gpusim.games import settle, spec_for
from gpusim.games.strategy_registry import get_strategy
from gpusim.rules import rules_hash
from gpusim.strategy.tree import taken

CONFIGS = ("holdem_bonus", "holdem_bonus_classic")
DESCRIBED = shipped_configs()["holdem_bonus"]
CLASSIC = shipped_configs()["holdem_bonus_classic"]
N = 20_000
STRATEGIES = ("always-play", "basic", "optimal", "win-over-half", "win-over-half-ev")
RULES = {"optimal": "win-over-lose", "win-over-half-ev": "win-over-half-ev-rules",
         "win-over-half": "win-over-half-ev-rules"}
"""The description rules that take each table strategy's actions (``optimal`` and
``win-over-half-ev`` are the game's exact tables, ``win-over-half`` another name of the
latter)."""
REFERENCE = {"always-play": thb_always_play, "basic": thb_basic}
"""The hand-written rule strategies (tests/thb_reference.py) the description's rules are."""
EVENTS = {
    "ante": {"fold", *(f"win:{c}" for c in CATEGORY_KEYS), "tie", "loss"},
    "flop": {"fold", "win", "tie", "loss"},
    "turn": {"fold", "check", "win", "tie", "loss"},
    "river": {"fold", "check", "win", "tie", "loss"},
    "bonus": {"AA_vs_AA", "AA", "AKs", "AQs", "AJs", "AKo", "KK", "QQ", "JJ", "AQo", "AJo",
              "TT", "99", "88", "77", "66", "55", "44", "33", "22", "other"},
    "jackpot": set(CATEGORY_KEYS),
}
"""The hand-written game's events of each bet (its events module, until it became a
description)."""
# hand-dealt rounds (player, dealer, flop, turn, river) for the rarest events
PLANTED = [
    "As Ah Ad Ac Ks Qs Js Ts",      # AA against the dealer's AA; a royal flush in the first five
    "As Ad Ac Ah 2s 3d 9c Kh 5s",
    "Ks Qs 2d 2c As Js Ts 3h 4h",   # royal flush with the flop: the meter
    "9h 8h 2d 2c 7h 6h 5h Kh Kd",   # straight flush in the first five
    "Kc Kd Ks Kh Ac Ad 2c 3c 4c",   # KK against AA, a dealer four of a kind at showdown
    "Ah Kh Ac Kc Qh Jh Th 2s 3s",   # a royal each for player and dealer: a tie
]


@pytest.fixture(autouse=True, scope="module")
def _forget_the_game():
    """Loading the configs registers their game in this process; the registry lists the
    shipped games only once this module is done (docs/config.md is made from it)."""
    yield
    from gpusim.games import SPECS

    SPECS._all().pop("thb_broken", None)  # type: ignore[attr-defined]


def _planted() -> np.ndarray:
    rows = []
    for text in PLANTED:
        cards = list(parse_cards(text))
        rest = [c for c in range(52) if c not in cards]
        rows.append(cards + rest[: 9 - len(cards)])
    return np.asarray(rows, np.int32)


@pytest.fixture(scope="module")
def rounds():
    """(cards (N + planted, 9) int32: player 0:2, dealer 2:4, flop 4:7, turn 7, river 8;
    decisions): random deals, the planted rounds each with every action, and a random action at
    every point (fold or bet the Flop; check or bet the Turn; check or bet the River)."""
    rng = np.random.default_rng(20261)
    planted = np.repeat(_planted(), 8, axis=0)
    cards = np.concatenate([np.argsort(rng.random((N, 52)), axis=1)[:, :9], planted])
    n = len(cards)
    decisions = {p: rng.integers(0, 2, n, dtype=np.int32) for p in ("flop", "turn", "river")}
    every = np.arange(len(planted)) % 8  # each planted round with each path of the tree
    decisions["flop"][N:] = every >= 1
    decisions["turn"][N:] = (every >> 1) & 1
    decisions["river"][N:] = every & 1
    return cards.astype(np.int32), decisions


def _named(settlement) -> dict[str, np.ndarray]:
    """{bet: (N,) event names} through the settlement's own event table."""
    table = dict(settlement.event_table)
    return {b: np.asarray(table[b], dtype=object)[np.asarray(e)]
            for b, e in settlement.events.items()}


def _reference(rules, cards, decisions, meter) -> dict[str, tuple[list, list, list]]:
    """{bet: (stakes, nets, event names)} of every round by the per-round reference (the bets
    it leaves out of a round: stake 0, net 0, event None)."""
    terms = thb_terms(rules)
    offered = list(settle(cards[:1], {k: v[:1] for k, v in decisions.items()}, rules).stakes)
    points = ("flop", "turn", "river")
    rows = (ref_holdem_bonus(terms, c, *(bool(decisions[k][i]) for k in points), int(meter[i]))
            for i, c in enumerate(cards.tolist()))
    return by_bet(rows, offered)


@pytest.mark.parametrize("config", CONFIGS, ids=["icelandic", "classic"])
def test_settlement_equals_the_reference(rounds, config):
    cards, decisions = rounds
    rules = load_config(config)
    meter = np.random.default_rng(3).integers(0, 100_000, len(cards))
    s = settle(cards, decisions, rules, jackpot_meter=meter)
    offered = ["ante", "flop", "turn", "river", "bonus"] + (
        ["jackpot"] if config == "holdem_bonus" else [])
    assert list(s.stakes) == offered
    # every event name the hand-written game could give, the description can give, and no other
    assert {k: set(v) for k, v in s.event_table} == {b: EVENTS[b] for b in offered}
    named = _named(s)
    ref = _reference(rules, cards, decisions, meter)
    # a bet the reference leaves out is one the round never placed (a fold, a check)
    assert_settles_as(s, named, ref, offered, {"fold", "check"})
    assert_hands_as_eval7(s, cards)
    # the rounds reach every path and the rare events
    seen = {bet: set(v) for bet, v in named.items()}
    assert seen["ante"] >= {"fold", "win:high_card", "win:straight", "win:royal_flush", "tie",
                            "loss"}
    assert seen["turn"] == seen["river"] == {"fold", "check", "win", "tie", "loss"}
    assert {"AA_vs_AA", "AA", "AKs", "AQs", "AJs", "AKo", "22", "other"} <= seen["bonus"]
    if "jackpot" in offered:
        assert {"royal_flush", "straight_flush", "three_of_a_kind", "high_card"} <= seen[
            "jackpot"]


def test_the_meter_pays_what_it_is_handed(rounds):
    """A royal flush with the flop returns the meter handed to the settlement (the hand-written
    game's rule), the other Jackpot hands their "X for 1" prize."""
    cards, decisions = rounds
    rules = load_config("holdem_bonus")
    s = settle(cards, decisions, rules, jackpot_meter=123_457)
    named = _named(s)["jackpot"]
    ref = _reference(rules, cards, decisions, np.full(len(cards), 123_457))["jackpot"]
    np.testing.assert_array_equal(np.asarray(s.nets["jackpot"]), np.asarray(ref[1]))
    assert (named == np.asarray(ref[2], dtype=object)).all()
    hit = named == "royal_flush"
    assert hit.any() and (np.asarray(s.nets["jackpot"])[hit] == 123_456).all()
    spec = spec_for(rules)
    assert (spec.meter_bet, spec.meter_event) == ("jackpot", "royal_flush")
    meter = spec.meter_rules(rules)
    assert meter == type(meter)(rules.meter.prizes, 5000, 0, "first_five")
    assert spec.meter_active(rules) and not spec.meter_active(load_config(CLASSIC))


def test_config_round_trips_and_hashes():
    full, classic = load_config(DESCRIBED), load_config(CLASSIC)
    assert full.game == classic.game == "holdem_bonus"
    assert full.game_def == classic.game_def  # one game, two configs' numbers
    assert full.to_dict()["jackpot"] == {"contribution_bp": 5000, "reset": 0}
    assert "jackpot" not in classic.to_dict()
    for rules in (full, classic):
        again = parse_config(editable_doc(rules.to_dict()))  # as a run's manifest is read
        assert again == rules and again.game_def == rules.game_def
        assert rules_hash(again) == rules_hash(rules)
    doc = editable_doc(full.to_dict())
    doc["jackpot"]["contribution_bp"] = 4000
    assert rules_hash(parse_config(doc)) != rules_hash(full)


def _strategy_rounds() -> np.ndarray:
    """Random rounds, and rounds from short decks that reach the rules' edges: few ranks
    (pairs, trips, two pair, runs), two suits (flush and straight-flush draws)."""
    rng = np.random.default_rng(7)
    out = [np.argsort(rng.random((N, 52)), axis=1)[:, :9]]
    for deck in ([r * 4 + s for r in (0, 1, 2, 3, 4, 8, 12) for s in range(4)],
                 [r * 4 + s for r in range(13) for s in (0, 1)],
                 [r * 4 + s for r in range(2, 9) for s in range(4)]):
        pick = np.argsort(rng.random((N // 2, len(deck))), axis=1)[:, :9]
        out.append(np.asarray(deck)[pick])
    return np.concatenate(out).astype(np.int32)


@pytest.fixture(scope="module")
def strategy_rounds():
    return _strategy_rounds()


@pytest.mark.parametrize("name", STRATEGIES)
@pytest.mark.parametrize("config", CONFIGS, ids=["icelandic", "classic"])
def test_rule_strategies_take_the_references_actions(strategy_rounds, name, config):
    """The description's rules take, at every point, the hand-written reference's action
    (``basic``, ``always-play``) or the shipped exact tables' (the table strategies)."""
    cards = strategy_rounds
    rules = load_config(config)
    spec = spec_for(rules)
    if name in REFERENCE:
        tree, a = TREE, REFERENCE[name](cards)
    else:
        assert spec.table_of(name) is not None, name  # the tables, not the rules below
        tree, a = spec.decisions, get_strategy(name, rules).decide(cards)
    b = get_strategy(RULES.get(name, name), rules).decide(cards)
    assert spec.table_of(RULES.get(name, name)) is None  # description rules
    ta, tb = (taken(t, {k: np.asarray(v).astype(np.int32) for k, v in d.items()})
              for t, d in ((tree, a), (spec.decisions, b)))
    for point in ("flop", "turn", "river"):
        bad = np.flatnonzero(np.asarray(ta[point]) != np.asarray(tb[point]))
        assert bad.size == 0, (name, point, cards[bad[:3]].tolist())
    # both actions are taken at every point (an always-betting strategy aside)
    if name != "always-play":
        for point in ("flop", "turn", "river"):
            assert set(np.unique(np.asarray(tb[point]))) >= {0, 1}, (name, point)


TEXT = DESCRIBED.read_text(encoding="utf-8")
CASES = [
    # (id, [(old, new)], key, needles)
    ("hands-bad-range", [('AKs = { hands = "AKs" }', 'AKs = { hands = "AKx" }')],
     "game.lines.AKs.hands", ["'AKx'", "starting hands"]),
    ("hands-named-after-another", [('AKs = { hands = "AKs" }', 'AKs = { hands = "AKs, AQs" }')],
     "game.lines.AKs.hands", ["'AKs, AQs'", "holds that hand only"]),
    ("hands-with-category", [('AKo = { hands = "AKo" }',
                              'AKo = { hands = "AKo", category = "pair" }')],
     "game.lines.AKo.category", ["unknown key", "hands, dealer_hands"]),
    ("line-never-pays",
     [('lines = ["AA_vs_dealer_AA", "AA",', 'lines = ["AA", "AA_vs_dealer_AA",')],
     "game.paytables.bonus.lines", ["'AA_vs_dealer_AA'", "never pays"]),
    ("hand-line-on-poker", [('"flush", "straight"]\notherwise', '"flush", "AKs"]\notherwise')],
     "game.paytables.ante.lines", ["'AKs'", "poker hand", "straight"]),
    ("starting-hand-three-cards", [('cards = ["player"]\nranking = "starting_hand"',
                                    'cards = ["player", "board:1"]\nranking = "starting_hand"')],
     "game.hands.hole", ["3 cards", "'starting_hand'", "2 cards"]),
    ("pays-bad", [('pays = "for_one"', 'pays = "for_1"')],
     "game.paytables.jackpot.pays", ["'for_1'", "'to_one', 'for_one'"]),
    ("meter-bet-bad", [('bet = "jackpot"\nevent', 'bet = "ante"\nevent')],
     "game.meter.bet", ["'ante'", "'bonus', 'jackpot'"]),
    ("meter-event-paid", [('event = "royal_flush"', 'event = "straight"')],
     "game.meter.event", ["'straight'", "'royal_flush'", "does not pay"]),
    ("meter-unknown-key", [('event = "royal_flush"', 'hand = "royal_flush"')],
     "game.meter.hand", ["unknown key", "bet, event"]),
    ("config-meter-missing-reset", [("reset = 0                     #", "#")],
     "jackpot.reset", ["missing", "contribution_bp and reset"]),
    ("config-meter-contribution", [("contribution_bp = 5000", "contribution_bp = 20000")],
     "jackpot.contribution_bp", ["20000", "0..10000"]),
    ("config-meter-unknown", [("reset = 0 ", "cards = 1\nreset = 0 ")],
     "jackpot.cards", ["unknown key", "contribution_bp, reset"]),
    ("table-name-unknown", [('table = "win-over-half-ev"', 'table = "win-over-all"')],
     "game.strategies.win-over-half.table", ["'win-over-all'", "'optimal', 'win-over-half-ev'"]),
    ("table-with-rules", [('table = "win-over-half-ev"',
                           'table = "win-over-half-ev"\nflop = [{ action = "bet" }]')],
     "game.strategies.win-over-half.flop", ["unknown key", "description, table"]),
    ("win-chance-bad", [('win_chance = "above_lose"', 'win_chance = "above_tie"')],
     "game.strategies.win-over-lose.turn[0].win_chance",
     ["'above_tie'", "'above_lose', 'above_half'"]),
    ("win-chance-pre-flop", [('flop = [{ hand_in = "32o, 42o, 52o, 62o, 72o", action = "fold" }',
                              'flop = [{ win_chance = "above_half", action = "fold" }')],
     "game.strategies.win-over-lose.flop[0].win_chance", ["'flop'", "0 board cards", "3 or 4"]),
    ("own-rank-count-bad", [('own_rank_count = { cards = 2, at_least = "6" }',
                             'own_rank_count = { cards = 9, at_least = "6" }')],
     "game.strategies.basic.river[0].own_rank_count", ["cards = N", "2..4"]),
    ("own-rank-count-rank", [('own_rank_count = { cards = 2, at_least = "6" }',
                              'own_rank_count = { cards = 2, at_least = "1" }')],
     "game.strategies.basic.river[0].own_rank_count.at_least", ["'1'", "2, 3"]),
    ("paired-ranks-bad", [("paired_ranks = 2", "paired_ranks = 0")],
     "game.strategies.basic.river[1].paired_ranks", ["0", "1..3"]),
    ("suited-run-bad", [("suited_run_with_own = 4", "suited_run_with_own = 6")],
     "game.strategies.basic.river[3].suited_run_with_own", ["6", "2..5"]),
]


@pytest.mark.parametrize(("cid", "edits", "key", "needles"), CASES, ids=[c[0] for c in CASES])
def test_new_keys_refuse_mistakes(tmp_path, cid, edits, key, needles):
    text = TEXT.replace('name = "holdem_bonus"\ntitle', 'name = "thb_broken"\ntitle')
    assert text != TEXT
    assert_refused(tmp_path, cid, text, edits, key, needles)


@pytest.mark.parametrize("path", [DESCRIBED, CLASSIC], ids=["icelandic", "classic"])
def test_configs_validate_against_the_schema(path):
    import json
    import tomllib

    import jsonschema

    from gpusim.games.described import description

    schema = json.loads((Path(description.__file__).with_name("schema.json")).read_text())
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    if isinstance(doc.get("game"), str):  # the classic config names the game the other holds
        assert doc["game"] == "holdem_bonus"
        game = tomllib.loads(DESCRIBED.read_text(encoding="utf-8"))["game"]
        doc = {**doc, "game": game}
    jsonschema.Draft202012Validator(schema).validate(doc)
    broken = dict(doc, jackpot={"contribution_bp": 5000})  # no reset
    assert not jsonschema.Draft202012Validator(schema).is_valid(broken)
