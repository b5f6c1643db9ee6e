"""Shipped decision tables: checksums, and decisions against brute force per dealt round."""

from __future__ import annotations

import json

import numpy as np
import pytest

from gpusim.config import load_config
from gpusim.exact.cache import file_sha256
from gpusim.games import settle, spec_for
from gpusim.games.strategy_registry import get_strategy
from gpusim.strategy.tables import TABLE_DIR


def _provenance() -> dict:
    return json.loads((TABLE_DIR / "provenance.json").read_text())


def test_every_shipped_config_has_tables_with_matching_checksums(shipped_rules):
    prov = _provenance()
    total = 0
    for name, rules in shipped_rules.items():
        if not spec_for(rules).table_strategies:  # a game without exact decision tables
            continue
        entry = prov[name]
        path = TABLE_DIR / entry["file"]
        assert file_sha256(path) == entry["sha256"], name
        assert entry["config_hash"] == load_config(name).config_hash, name
        assert "--write-tables" in entry["command"]
        total += path.stat().st_size
    # a game of Ultimate Texas Hold'em's shape has a river table of one bit per canonical
    # river situation (22 MB, 12 MB in its npz) per config: three such configs; a turn point's
    # table is one bit per (flop class, turn card, hole) (15 MB, 5 MB in its npz): one such
    # config (Casino Hold'em with a turn bet); the rest small
    assert total <= 3 * 12 * 2**20 + 5 * 2**20 + 8 * 2**20


def _all_completions(seen: np.ndarray, n_board: int, ordered: bool) -> np.ndarray:
    hole, board = seen[:2], seen[2:]
    unseen = np.setdiff1d(np.arange(52), seen)
    if n_board == 3:
        i, j = np.triu_indices(len(unseen), 1)
        fills = np.stack([unseen[i], unseen[j]], 1)
        if ordered:
            fills = np.concatenate([fills, fills[:, ::-1]])
    else:
        fills = unseen[:, None]
    out = []
    for f in fills:
        rest = np.setdiff1d(unseen, f)
        a, b = np.triu_indices(len(rest), 1)
        r = np.empty((len(a), 9), np.int32)
        r[:, 0:2], r[:, 2], r[:, 3] = hole, rest[a], rest[b]
        r[:, 4 : 4 + n_board] = board
        r[:, 4 + n_board :] = f
        out.append(r)
    return np.concatenate(out)


@pytest.mark.parametrize("seed", [1, 2])
def test_casino_holdem_optimal_main_call_matches_brute_force_ev(seed):
    rules = load_config("casino_holdem")
    strat = get_strategy("optimal-main", rules)
    rng = np.random.default_rng(seed)
    seen = rng.choice(52, 5, replace=False).astype(np.int32)
    rounds = _all_completions(seen, 3, ordered=False)
    s = settle(rounds, {"call": np.ones(len(rounds), bool)}, rules)
    ev_call = int(np.asarray(s.nets["ante"]).sum() + np.asarray(s.nets["call"]).sum())
    want = ev_call > -len(rounds) * rules.stakes.ante
    got = strat.decide(rounds[:1])["call"][0]
    assert bool(got) == want


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_holdem_bonus_optimal_river_matches_brute_force(seed):
    rules = load_config("holdem_bonus")
    strat = get_strategy("optimal", rules)
    rng = np.random.default_rng(seed)
    # draw until the hole cards bet the flop, so that the River decision exists to check
    for _ in range(50):
        seen = rng.choice(52, 6, replace=False).astype(np.int32)
        rounds = _all_completions(seen, 4, ordered=False)
        d = strat.decide(rounds[:1])
        if d["flop"][0]:
            break
    assert d["flop"][0]
    ones = np.ones(len(rounds), bool)
    net = np.asarray(settle(rounds, {"flop": ones, "turn": ones, "river": ones}, rules)
                     .nets["river"])
    assert bool(d["river"][0]) == bool((net > 0).sum() > (net < 0).sum())


def test_holdem_bonus_optimal_turn_matches_brute_force():
    rules = load_config("holdem_bonus")
    strat = get_strategy("optimal", rules)
    rng = np.random.default_rng(8)
    for _ in range(10):
        seen = rng.choice(52, 5, replace=False).astype(np.int32)
        if strat.decide(np.concatenate([seen[:2], [0, 0], seen[2:], [0, 0]])[None])["flop"][0]:
            break
    rounds = _all_completions(seen, 3, ordered=True)
    ones = np.ones(len(rounds), bool)
    net = np.asarray(settle(rounds, {"flop": ones, "turn": ones, "river": ones}, rules)
                     .nets["turn"])
    assert bool(strat.decide(rounds[:1])["turn"][0]) == bool((net > 0).sum() > (net < 0).sum())


@pytest.mark.parametrize("config,strategy", [("holdem_bonus", "optimal"),
                                             ("holdem_bonus", "win-over-half-ev"),
                                             ("casino_holdem", "optimal"),
                                             ("casino_holdem", "optimal-main")])
def test_shipped_decisions_are_suit_invariant(config, strategy):
    from gpusim.board_index import permute_cards

    strat = get_strategy(strategy, load_config(config))
    rng = np.random.default_rng(21)
    cards = np.array([rng.choice(52, 9, replace=False) for _ in range(20_000)], dtype=np.int32)
    base = {k: np.asarray(v) for k, v in strat.decide(cards).items()}
    for p in (1, 7, 23):
        moved = permute_cards(cards, np.full(len(cards), p))
        for k, v in strat.decide(moved).items():
            assert (np.asarray(v) == base[k]).all(), (k, p)


def test_holdem_bonus_optimal_preflop_folds_the_published_list():
    # The published optimal Texas Hold'em Bonus strategy (e.g. Wizard of Odds) folds exactly
    # 2-3 through 2-7 offsuit before the flop and bets the flop bet with everything else.
    from gpusim.cards import HAND_CLASSES
    from gpusim.runs.exact_on_demand import decision_tables

    pre = decision_tables(load_config("holdem_bonus"), solve=False)["preflop/optimal"]
    folds = {HAND_CLASSES[i] for i in np.flatnonzero(~pre)}
    assert folds == {"32o", "42o", "52o", "62o", "72o"}


def test_win_over_half_table_matches_the_game_engines_per_round_rule():
    # Two independent implementations of the Swedish rules' rule: the game engine counts P(win) per
    # round; the exact tables enumerate boards. Same fold list, so every decision must agree.
    rules = load_config("holdem_bonus_classic")
    per_round = get_strategy("win-over-half", rules)
    table = get_strategy("win-over-half-ev", rules)
    rng = np.random.default_rng(31)
    cards = np.array([rng.choice(52, 9, replace=False) for _ in range(20)], dtype=np.int32)
    a, b = per_round.decide(cards), table.decide(cards)
    assert 0 < np.asarray(b["turn"]).sum() < 20 and 0 < np.asarray(b["river"]).sum() < 20
    for k in ("flop", "turn", "river"):
        assert (np.asarray(a[k]) == np.asarray(b[k])).all(), k
