"""What the exact tests of a game that was hand-written share: its description (a shipped
config's second description in tests/data/<name>_described.toml, or the shipped config
itself), a module's empty exact cache, and the comparisons with the shipped decision tables and
reports."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gpusim.config import load_config

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"


def described(name: str):
    """The rules of tests/data/<name>_described.toml, else of the shipped config ``name`` (a
    game the shipped configs describe)."""
    path = DATA / f"{name}_described.toml"
    return load_config(path if path.is_file() else name)


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    """A report function ``(name, strategy) -> report`` of the described config, over counts
    enumerated in this module's empty cache (once: the shipped configs of a game share them)."""
    from gpusim.runs.exact_on_demand import exact_report

    mp = pytest.MonkeyPatch()
    mp.setenv("GPUSIM_CACHE_DIR", str(tmp_path_factory.mktemp("described-cache")))
    reports: dict[tuple[str, str], dict] = {}

    def report(name: str, strategy: str) -> dict:
        if (name, strategy) not in reports:
            rep = exact_report(described(name), strategy, progress=False)
            reports[name, strategy] = json.loads(json.dumps(rep))
        return reports[name, strategy]

    yield report
    mp.undo()


def assert_tables_are_the_shipped(name: str) -> None:
    """The described config's decision tables, solved now, are the shipped config's, bit for
    bit (the counts come from the module's cache)."""
    from gpusim.runs.exact_on_demand import solve_tables
    from gpusim.strategy.tables import stored_tables

    shipped = stored_tables(load_config(name))
    assert shipped is not None
    solved = solve_tables(described(name), progress=False)
    assert sorted(shipped) == sorted(solved)
    for key, table in solved.items():
        assert shipped[key].shape == table.shape, key
        diff = np.argwhere(shipped[key] != table)
        assert len(diff) == 0, f"{name} {key}: {len(diff)} cells differ, first {diff[:3]}"


def assert_report_is_the_shipped(name: str, got: dict, game: str | None = None) -> None:
    """The described config's ``optimal`` report is the shipped one; but for the game's and the
    config's names where the description is a second one, of the game ``game``."""
    shipped = json.loads((ROOT / "gpusim" / "data" / "exact" /
                          f"{name}.optimal.json").read_text())
    got = dict(got)
    if game is not None:
        assert (got["game"], got["config"]) == (game, f"{name}_described")
        got["game"], got["config"] = shipped["game"], shipped["config"]
    assert sorted(got) == sorted(shipped)
    for key in shipped:
        assert got[key] == shipped[key], key
