"""Ultimate Texas Hold'em described in TOML (tests/data/ultimate_holdem_described.toml and its
must-beat variant) against the golden counts of the hand-written game: every table of a
10^6-round simulation of each strategy, bit for bit (the golden file records them for
``ultimate_holdem`` and ``ultimate_holdem_must_beat``). The deal stream, the decisions of
``optimal``, ``basic`` and ``always-check``, and every bet's events, stakes and nets must all be
the package's for these to match. Slow: six simulations."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
_spec = importlib.util.spec_from_file_location("golden_record", ROOT / "tests/golden/record.py")
record = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(record)
GOLDEN = json.loads(record.GOLDEN.read_text())["simulation"]
CONFIGS = {"ultimate_holdem": DATA / "ultimate_holdem_described.toml",
           "ultimate_holdem_must_beat": DATA / "ultimate_holdem_must_beat_described.toml"}


@pytest.fixture(autouse=True, scope="module")
def _the_game():
    from gpusim.config import load_config
    from gpusim.games import SPECS

    load_config(CONFIGS["ultimate_holdem"])  # registers the game the must-beat config names
    yield
    SPECS._all().pop("ultimate_holdem_described", None)  # type: ignore[attr-defined]


@pytest.mark.slow
@pytest.mark.parametrize("config", sorted(CONFIGS))
@pytest.mark.parametrize("strategy", ["optimal", "basic", "always-check"])
def test_described_game_gives_the_golden_counts(config, strategy, tmp_path):
    import gpusim

    run = gpusim.simulate(str(CONFIGS[config]), rounds=record.ROUNDS, seed=record.SEED,
                          strategy=strategy, backend="jax-cpu", out=tmp_path / "run")
    now = record._normalise({t: record._table_rows(run, t) for t in record.TABLES})
    want = GOLDEN[f"{config}/{strategy}"]
    for table in record.TABLES:
        assert now[table] == want[table], f"{config}/{strategy}: table {table} differs"
