"""Golden counts: the full simulation tables of every shipped config and strategy, bit for bit.

``tests/golden/counts.json`` was recorded with ``python tests/golden/record.py`` (seed and round
count inside). A change that alters any count a user would get fails here; a deliberate change
re-records the file in the same commit. The counts run in the slow suite; the default suite
checks every described game's simulation against its own reference and brute force
(tests/test_described_*.py).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from gpusim.config import load_config

_RECORD = Path(__file__).with_name("golden") / "record.py"
_spec = importlib.util.spec_from_file_location("golden_record", _RECORD)
record = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(record)

GOLDEN = json.loads(record.GOLDEN.read_text())


def _cases():
    for key in sorted(GOLDEN["simulation"]):
        config, strategy = key.split("/")
        yield pytest.param(config, strategy, id=key, marks=pytest.mark.slow)


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
