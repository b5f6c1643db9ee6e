"""Casino Hold'em described in TOML (tests/data/casino_holdem_described.toml and its evolution
config, the description the shipped configs were switched to, under another game name) settles
as the shipped configs do: on the same random rounds and random decisions, every offered bet
has the same stake, net and event name, and the hands the same ranks (before the switch, this
compared it with the hand-written package); its rule strategies take the hand-written
strategies' action on every round (tests/ch_reference.py); the new keys of the vocabulary
(lines of whole categories, ``event_names``, ``fold_event``, ``run_with_own``) refuse a mistake
in one line. Slow: the golden counts of both configs under every strategy the description has.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from _describe_mistakes import assert_refused

from gpusim.config import editable_doc, load_config, parse_config
from gpusim.games import settle
from gpusim.rules import rules_hash

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
DESCRIBED = DATA / "casino_holdem_described.toml"
EVOLUTION = DATA / "casino_holdem_evolution_described.toml"
CONFIGS = {"casino_holdem": DESCRIBED, "casino_holdem_evolution": EVOLUTION}
N = 20_000
GAME = "casino_holdem_described"


@pytest.fixture(autouse=True, scope="module")
def _forget_the_game():
    """Loading the configs registers their game in this process; the registry lists the
    shipped games only once this module is done (docs/config.md is made from it)."""
    yield
    from gpusim.games import SPECS

    SPECS._all().pop(GAME, None)  # type: ignore[attr-defined]


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


@pytest.mark.parametrize(("package", "described"), list(CONFIGS.items()),
                         ids=["norwegian", "evolution"])
def test_settlement_equals_the_package(rounds, package, described):
    cards, decisions = rounds
    pkg, desc = load_config(package), load_config(described)
    a, b = settle(cards, decisions, pkg), settle(cards, decisions, desc)
    assert list(a.stakes) == list(b.stakes) == ["ante", "call", "aa_bonus"]
    names_a, names_b = _named(a), _named(b)
    for bet in a.stakes:
        np.testing.assert_array_equal(np.asarray(a.stakes[bet]), np.asarray(b.stakes[bet]),
                                      err_msg=f"{bet} stakes")
        np.testing.assert_array_equal(np.asarray(a.nets[bet]), np.asarray(b.nets[bet]),
                                      err_msg=f"{bet} nets")
        bad = np.flatnonzero(names_a[bet] != names_b[bet])
        assert bad.size == 0, (bet, [(names_a[bet][i], names_b[bet][i]) for i in bad[:5]])
    for field in ("player_rank", "dealer_rank", "player_category", "dealer_category"):
        np.testing.assert_array_equal(np.asarray(getattr(a, field)),
                                      np.asarray(getattr(b, field)), err_msg=field)
    # every event name the package can give, the description can give, and no other, and
    # each with the same return
    from gpusim.games import spec_for

    returns = [dict(zip(n, spec_for(r).event_returns(r)[bet], strict=True))
               for r, t in ((pkg, a), (desc, b)) for bet, n in t.event_table]
    assert {k: set(v) for k, v in a.event_table} == {k: set(v) for k, v in b.event_table}
    assert returns[:3] == returns[3:]
    # the rounds reach every path and the outcomes that differ between the configs
    seen = {bet: set(v) for bet, v in names_b.items()}
    assert {"fold", "dealer_not_qualified", "win", "tie", "loss"} == seen["call"]
    assert {"fold", "tie", "loss", "win:pair", "dealer_not_qualified:flush"} <= seen["ante"]
    assert {"fold:pair_of_aces", "fold:flush", "pair_of_aces", "flush", "high_card",
            "pair_below_aces"} <= seen["aa_bonus"]
    folded_win = np.isin(names_b["aa_bonus"], ["fold:pair_of_aces", "fold:flush"])
    won = np.asarray(b.nets["aa_bonus"])[folded_win]
    assert (won < 0).all() if package == "casino_holdem" else (won > 0).all()


def test_options_reach_the_hash_and_round_trip():
    std, evo = load_config(DESCRIBED), load_config(EVOLUTION)
    assert std.game == evo.game == GAME
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
    package = {"always-play": S.ch_always_play, "basic": S.ch_basic,
               "side-bet-optimal": S.ch_side_bet_optimal}
    assert sorted(package) == sorted(s[0] for s in d.strategies)
    answers = {}
    for name, strat in package.items():
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
    text = TEXT.replace(f"name = \"{GAME}\"", "name = \"casino_holdem_broken\"")
    assert_refused(tmp_path, cid, text, edits, key, needles)


def test_the_configs_validate_against_the_schema():
    import tomllib

    import jsonschema  # the dev extra installs it

    schema = json.loads((ROOT / "gpusim" / "games" / "described" / "schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    for path in CONFIGS.values():
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
                  for e in validator.iter_errors(doc)]
        assert not errors, (path.name, errors)
    doc = tomllib.loads(DESCRIBED.read_text(encoding="utf-8"))
    doc["game"]["lines"]["straight_or_less"]["categories"] = ["straight"]
    assert not validator.is_valid(doc)


# --- the golden counts (slow) ----------------------------------------------------------------

_spec = importlib.util.spec_from_file_location("golden_record", ROOT / "tests/golden/record.py")
record = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(record)
GOLDEN = json.loads(record.GOLDEN.read_text())["simulation"]
STRATEGIES = ["always-play", "basic", "side-bet-optimal"]


def test_golden_has_the_described_strategies():
    """The golden file records each config under every strategy the description carries."""
    for config in CONFIGS:
        for strategy in STRATEGIES:
            assert f"{config}/{strategy}" in GOLDEN


@pytest.mark.slow
@pytest.mark.parametrize("config", sorted(CONFIGS))
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_described_game_gives_the_golden_counts(config, strategy, tmp_path):
    import gpusim

    run = gpusim.simulate(str(CONFIGS[config]), rounds=record.ROUNDS, seed=record.SEED,
                          strategy=strategy, backend="jax-cpu", out=tmp_path / "run")
    now = record._normalise({t: record._table_rows(run, t) for t in record.TABLES})
    want = GOLDEN[f"{config}/{strategy}"]
    for table in record.TABLES:
        assert now[table] == want[table], f"{config}/{strategy}: table {table} differs"
