"""`gpusim randomness` and gpusim.randomness.battery_for_run: a run folder's own generator
stream (its seed, its game's cards per round, its rounds) through the battery; a planted bad
generator fails it; bad input is one line, exit code 2, nothing written."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

import gpusim
import gpusim.randomness as R
from gpusim.cli import app
from gpusim.config import load_config
from gpusim.dealing import deal

ROUNDS = 10_000


@pytest.fixture(scope="module")
def tcp_run(tmp_path_factory):
    """A described game that deals 6 cards a round and never gives the player five."""
    out = tmp_path_factory.mktemp("rand") / "tcp"
    return gpusim.simulate("three_card_poker", rounds=ROUNDS, seed=21, out=out, chunk=ROUNDS,
                           backend="jax-cpu")


@pytest.fixture(scope="module")
def holdem_shard(tmp_path_factory):
    """The second half of a 2 * ROUNDS hold'em run: its rounds start at ROUNDS."""
    out = tmp_path_factory.mktemp("rand") / "shard"
    return gpusim.simulate("casino_holdem", rounds=2 * ROUNDS, seed=8, out=out,
                           strategy="basic", chunk=ROUNDS, backend="jax-cpu", shard="1/2")


def _invoke(*args: str):
    return CliRunner().invoke(app, ["randomness", *args])


def _check_result(res: dict, n_tests: int) -> None:
    assert len(res["tests"]) == n_tests
    assert res["per_test_alpha"] == pytest.approx(R.ALPHA / n_tests)
    for t in res["tests"]:
        assert 0.0 <= t["p"] <= 1.0 and t["pass"] == (t["p"] >= res["per_test_alpha"]), t
    assert res["passed"] == all(t["pass"] for t in res["tests"])


def test_cli_on_a_six_card_run(tcp_run, tmp_path):
    out = tmp_path / "rand.json"
    r = _invoke("--run", str(tcp_run.path), "--json", "--out", str(out))
    res = json.loads(r.stdout)  # stderr: "wrote FILE"
    assert r.exit_code == (0 if res["passed"] else 1), r.output
    # 6 positions, 15 pairs, hole combos, no category (three cards a hand), gap, runs, lengths
    _check_result(res, 6 + 15 + 1 + 3)
    assert (res["cards_per_round"], res["category_cards"]) == (6, None)
    assert "category" not in [t["test"] for t in res["tests"]]
    assert (res["seed"], res["rounds"], res["first_round"], res["run_rounds"]) == (
        21, ROUNDS, 0, ROUNDS)
    assert res["game"] == "three_card_poker"
    written = json.loads(out.read_text())
    assert {k: v for k, v in written.items() if k != "seconds"} == {
        k: v for k, v in res.items() if k != "seconds"}


def test_cli_text_lists_every_test(tcp_run):
    r = _invoke("--run", str(tcp_run.path), "--rounds", "5000")
    assert r.exit_code in (0, 1), r.output
    lines = r.output.splitlines()
    tests = [ln for ln in lines if ln.startswith("  ") and " stat " in ln]
    assert len(tests) == 25
    for ln in tests:
        assert ln.rstrip().endswith(("pass", "FAIL")) and " p " in ln
    assert "5,000 rounds of 6 cards" in r.output
    assert lines[-1].startswith(("all 25 tests passed", "FAILED"))


def test_more_rounds_than_the_run_has_are_capped(tcp_run):
    r = _invoke("--run", str(tcp_run.path), "--rounds", "1e6", "--json")
    assert "more than the run's 10,000 rounds" in r.stderr
    res = json.loads(r.stdout)
    assert res["rounds"] == ROUNDS


def test_a_shard_is_tested_from_its_own_first_round(holdem_shard):
    res = R.battery_for_run(holdem_shard.path)
    assert (res["first_round"], res["rounds"], res["cards_per_round"]) == (ROUNDS, ROUNDS, 9)
    assert res["category_cards"] == list(R.HOLDEM_FIVE)
    _check_result(res, 9 + 36 + 1 + 1 + 3)
    # the default hold'em battery of the same stretch of the stream: the same p-values
    plain = R.battery(8, ROUNDS, first_round=ROUNDS)
    assert plain["tests"] == res["tests"]
    # and the cards tallied are the run's: seed 8, rounds ROUNDS.., 9 cards as simulate deals
    t = R.tally(8, ROUNDS, first_round=ROUNDS)
    cards = np.asarray(deal(8, ROUNDS, ROUNDS, 9)).astype(np.int64)
    for i in range(9):
        assert (t.position[i] == np.bincount(cards[:, i], minlength=52)).all()


def test_tally_splits_by_first_round():
    """Rounds 0..a-1 plus a..a+b-1 count what 0..a+b-1 counts (cards only: gaps and runs
    continue across the split)."""
    # one deal shape (3000 rounds) throughout: each new shape compiles the dealer again
    whole = R.tally(3, 6000, n_cards=6, five=None, chunk=3000)
    a = R.tally(3, 3000, n_cards=6, five=None)
    b = R.tally(3, 3000, n_cards=6, five=None, first_round=3000)
    for name in ("position", "pair", "hole"):
        assert (getattr(a, name) + getattr(b, name) == getattr(whole, name)).all(), name
    assert whole.category is None and whole.pairs == R._pairs(6)


@pytest.mark.parametrize("config, cards, five", [
    ("casino_holdem", 9, R.HOLDEM_FIVE),
    ("three_card_poker", 6, None),
    ("caribbean_stud", 10, (0, 1, 2, 3, 4)),
    ("mississippi_stud", 5, (0, 1, 2, 3, 4)),
])
def test_deal_shape_follows_the_game(config, cards, five):
    assert R.deal_shape(load_config(config)) == (cards, five)


def test_merge_small_merges_the_last_cells():
    o, e = R._merge_small(np.array([10, 8, 3, 1, 1]), np.array([9.0, 8.0, 4.0, 2.0, 1.0]))
    assert o.tolist() == [10, 8, 5] and e.tolist() == [9.0, 8.0, 7.0]


def test_a_modulo_biased_six_card_dealer_fails():
    rng = np.random.default_rng(5)

    def cards(first, n):
        deck = np.tile(np.arange(52), (n, 1))
        rows = np.arange(n)
        for i in range(6):
            j = i + rng.integers(0, 256, n) % (52 - i)
            deck[rows, i], deck[rows, j] = deck[rows, j], deck[rows, i].copy()
        return deck[:, :6]

    res = R.evaluate_tallies(R.tally(1, 200_000, cards_fn=cards, n_cards=6, five=None))
    p = {r["test"]: r["p"] for r in res}
    assert p["position[0]"] < 1e-6 and p["hole_combos"] < 1e-6


def test_cli_fails_a_planted_correlated_generator(tcp_run, monkeypatch):
    """The run's raw words replaced by a slowly drifting sequence: the command says FAILED and
    exits with code 1."""
    def drifting(seed, first, n):
        u = (0.5 + np.cumsum(np.random.default_rng(first).normal(0, 0.05, n))) % 1.0
        return (u * 2.0**64).astype(np.uint64)

    monkeypatch.setattr(R, "_raw_words", drifting)
    r = _invoke("--run", str(tcp_run.path))
    assert r.exit_code == 1, r.output
    assert "FAILED" in r.output.splitlines()[-1] and "runs" in r.output.splitlines()[-1]


@pytest.mark.parametrize("args, needle", [
    (["--run", "nowhere"], "--run: 'nowhere' is not a gpusim run folder"),
    (["--seed", "3", "--run", "RUN"], "--run and --seed"),
    (["--run", "RUN", "--rounds", "0"], "--rounds"),
    (["--run", "RUN", "--rounds", "1.5"], "--rounds"),
    (["--seed", "-1"], "--seed"),
    (["--run", "RUN", "--config", "casino_holdem"], "--config"),
    (["--run", "RUN", "--out", "missing/x.json"], "--out"),
])
def test_bad_input_one_line_exit_2(tcp_run, tmp_path, monkeypatch, args, needle):
    monkeypatch.chdir(tmp_path)
    args = [str(tcp_run.path) if a == "RUN" else a for a in args]
    r = _invoke(*args)
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and needle in lines[0] and "Traceback" not in r.output
    assert list(tmp_path.iterdir()) == []
