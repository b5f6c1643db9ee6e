"""What the exact tests of a game that was hand-written share: its description (the shipped
config), a module's empty exact cache, and the comparisons with the shipped decision tables and
reports (solved by the hand-written game until it became a description)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gpusim.config import load_config

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    """A report function ``(name, strategy) -> report`` of the shipped config, over counts
    enumerated in this module's empty cache (once: the shipped configs of a game share them)."""
    from gpusim.runs.exact_on_demand import exact_report

    mp = pytest.MonkeyPatch()
    mp.setenv("GPUSIM_CACHE_DIR", str(tmp_path_factory.mktemp("described-cache")))
    reports: dict[tuple[str, str], dict] = {}

    def report(name: str, strategy: str) -> dict:
        if (name, strategy) not in reports:
            rep = exact_report(load_config(name), strategy, progress=False)
            reports[name, strategy] = json.loads(json.dumps(rep))
        return reports[name, strategy]

    yield report
    mp.undo()


def assert_tables_are_the_shipped(name: str) -> None:
    """The config's decision tables, solved now, are the shipped ones, bit for bit (the counts
    come from the module's cache; the tables are solved, never read from the shipped files)."""
    from gpusim.runs.exact_on_demand import solve_tables
    from gpusim.strategy.tables import stored_tables

    shipped = stored_tables(load_config(name))
    assert shipped is not None
    solved = solve_tables(load_config(name), progress=False)
    assert sorted(shipped) == sorted(solved)
    for key, table in solved.items():
        assert shipped[key].shape == table.shape, key
        diff = np.argwhere(shipped[key] != table)
        assert len(diff) == 0, f"{name} {key}: {len(diff)} cells differ, first {diff[:3]}"


def assert_report_is_the_shipped(name: str, got: dict) -> None:
    """The config's ``optimal`` report, solved now, is the shipped one, key for key."""
    shipped = json.loads((ROOT / "gpusim" / "data" / "exact" /
                          f"{name}.optimal.json").read_text())
    assert sorted(got) == sorted(shipped)
    for key in shipped:
        assert got[key] == shipped[key], key
