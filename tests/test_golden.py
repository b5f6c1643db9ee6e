"""Golden counts: the full simulation tables of every shipped config and strategy, bit for bit.

``tests/golden/counts.json`` was recorded with ``python tests/golden/record.py`` (seed and round
count inside). A change that alters any count a user would get fails here; a deliberate change
re-records the file in the same commit. Each config's default strategy runs in the default suite,
the other strategies in the slow suite.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from gpusim.config import load_config
from gpusim.games import spec_for

_RECORD = Path(__file__).with_name("golden") / "record.py"
_spec = importlib.util.spec_from_file_location("golden_record", _RECORD)
record = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(record)

GOLDEN = json.loads(record.GOLDEN.read_text())
SLOW_CONFIGS = {"ultimate_holdem_must_beat"}
"""Variants whose default case runs the same code as their game's main config's: in the slow
suite, to keep the default suite's time."""


def _cases():
    for key in sorted(GOLDEN["simulation"]):
        config, strategy = key.split("/")
        rules = load_config(config)
        default = strategy == rules.default_strategy
        # a described game's simulation is checked against its own reference and brute force in
        # the default suite (tests/test_described_*.py); its golden counts run in the slow one
        described = spec_for(rules).game_def is not None
        slow = not default or config in SLOW_CONFIGS or described
        yield pytest.param(config, strategy, id=key, marks=pytest.mark.slow if slow else ())


def test_golden_covers_every_shipped_config_and_strategy():
    from gpusim.config import shipped_configs
    from gpusim.games.strategy_registry import strategy_names

    expected = {
        f"{c}/{s}" for c in shipped_configs() for s in strategy_names(load_config(c).game)
    }
    assert set(GOLDEN["simulation"]) == expected
    assert (GOLDEN["seed"], GOLDEN["rounds"]) == (record.SEED, record.ROUNDS)


@pytest.mark.parametrize(("config", "strategy"), list(_cases()))
def test_counts_match_golden(config, strategy, tmp_path):
    now = record._normalise(record.simulation_counts(config, strategy, tmp_path))
    before = GOLDEN["simulation"][f"{config}/{strategy}"]
    for table in record.TABLES:
        assert now[table] == before[table], f"{config}/{strategy}: table {table} changed"
