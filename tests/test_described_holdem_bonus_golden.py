"""Texas Hold'em Bonus described in TOML (tests/data/holdem_bonus_described.toml and its classic
config) against the golden counts of the hand-written game: every table of a 10^6-round
simulation of each strategy, bit for bit, the Jackpot's meter hits included (the golden file
records them for ``holdem_bonus`` and ``holdem_bonus_classic``). The deal stream, every
strategy's decisions, every bet's events, stakes and nets and the meter must all be the
package's for these to match: ``optimal`` and ``win-over-half-ev`` are the described game's own
exact tables (the hold'em street-bets engine's), the others its description rules. Slow: ten
simulations."""

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
CONFIGS = {"holdem_bonus": DATA / "holdem_bonus_described.toml",
           "holdem_bonus_classic": DATA / "holdem_bonus_classic_described.toml"}
ENTRIES = sorted(k for k in GOLDEN if k.split("/")[0] in CONFIGS)


@pytest.fixture(autouse=True, scope="module")
def _the_game():
    from gpusim.games import SPECS

    yield
    SPECS._all().pop("holdem_bonus_described", None)  # type: ignore[attr-defined]


def test_every_golden_entry_is_checked():
    """Both configs' five strategies are in the golden file: none is left out here."""
    assert len(ENTRIES) == 10, ENTRIES


@pytest.mark.slow
@pytest.mark.parametrize("entry", ENTRIES)
def test_described_game_gives_the_golden_counts(entry, tmp_path):
    import gpusim

    config, strategy = entry.split("/")
    run = gpusim.simulate(str(CONFIGS[config]), rounds=record.ROUNDS, seed=record.SEED,
                          strategy=strategy, backend="jax-cpu", out=tmp_path / "run")
    now = record._normalise({t: record._table_rows(run, t) for t in record.TABLES})
    want = GOLDEN[entry]
    for table in record.TABLES:
        assert now[table] == want[table], f"{entry}: table {table} differs"
