"""The public API (``gpusim.__all__``) against its reference page, docs/api.md: every name has
its section there, every example there runs as written (in order, in an empty folder), and the
API's own promises hold: the errors it raises are exported, a run folder's error names the
arguments as Python passes them, and ``gpusim.exact_report`` is ``gpusim exact --json``."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import gpusim

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "api.md"


def _sections(text: str) -> list[str]:
    return re.findall(r"^### `([^`]+)`\s*$", text, flags=re.M)


def test_every_public_name_has_its_section():
    sections = _sections(DOC.read_text())
    assert sorted(set(gpusim.__all__) - set(sections)) == []
    assert sorted(set(sections) - set(gpusim.__all__)) == []  # no section of a private name
    assert len(sections) == len(set(sections))


def test_the_check_catches_a_missing_section():
    text = DOC.read_text().replace("### `exact_report`", "### exact_report")
    assert "exact_report" not in _sections(text)


def test_all_is_sorted_and_resolves():
    assert gpusim.__all__ == sorted(gpusim.__all__)
    for name in gpusim.__all__:
        assert getattr(gpusim, name) is not None, name
    assert set(dir(gpusim)) == set(gpusim.__all__)


def test_the_errors_raised_are_exported():
    from gpusim.runs.folder_base import RunFolderError
    from gpusim.strategy import StrategyError

    assert gpusim.RunFolderError is RunFolderError and gpusim.StrategyError is StrategyError
    for name in ("CardError", "ConfigError", "RunFolderError", "StrategyError"):
        assert issubclass(getattr(gpusim, name), ValueError), name


def test_the_doc_examples_run(tmp_path):
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)
    assert len(blocks) >= len(gpusim.__all__)
    namespace: dict = {}
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        with contextlib.redirect_stdout(io.StringIO()) as shown:
            for code in blocks:
                exec(compile(code, str(DOC), "exec"), namespace)
    finally:
        os.chdir(cwd)
    out = shown.getvalue()
    # the values the page quotes in its comments are the ones printed
    for quoted in ("0.03372980943604938", "1.1462443438914027", "Jc 9s Kc Ac As 3d",
                   "Straight flush, ace high (royal flush)", "1797259609 2579123966",
                   "pass resume=True to continue it or force=True to replace it",
                   "'q65' is not a strategy of three_card_poker"):
        assert quoted in out, quoted


def test_run_folder_error_speaks_to_each_caller(tmp_path):
    out = tmp_path / "run"
    gpusim.simulate("three_card_poker", rounds=1000, seed=1, out=out)
    with pytest.raises(gpusim.RunFolderError) as err:
        gpusim.simulate("three_card_poker", rounds=1000, seed=1, out=out)
    msg = str(err.value)
    assert "force=True" in msg and "resume=True" in msg and "--" not in msg
    assert msg.startswith("out: ")
    cli = subprocess.run([sys.executable, "-m", "gpusim", "simulate", "three_card_poker",
                          "--rounds", "1000", "--out", str(out), "--quiet"],
                         capture_output=True, text=True)
    assert cli.returncode == 2
    assert "--force" in cli.stderr and "--resume" in cli.stderr and "force=True" not in cli.stderr


def test_for_python_leaves_paths_and_other_words_alone():
    from gpusim.runs.folder_base import RunFolderError

    err = RunFolderError("--out: '/x/--force-dir' exists; use --force")
    assert str(err.for_python()) == "out: '/x/--force-dir' exists; use force=True"


def test_exact_report_is_the_cli_json(tmp_path):
    for strategy in ("optimal", "q64"):
        api = gpusim.exact_report("three_card_poker", strategy)
        cli = subprocess.run([sys.executable, "-m", "gpusim", "exact", "three_card_poker",
                              "--strategy", strategy, "--json"],
                             capture_output=True, text=True, check=True)
        assert json.loads(cli.stdout) == json.loads(json.dumps(api)), strategy
    assert gpusim.exact_report("three_card_poker")["strategy"] == "optimal"  # the default


def test_exact_report_prices_pays_and_refuses_bad_input():
    base = gpusim.exact_report("three_card_poker")
    richer = gpusim.exact_report("three_card_poker", pays={"pair_plus.pair": 2})
    assert richer["bets"]["pair_plus"]["rtp"] > base["bets"]["pair_plus"]["rtp"]
    assert richer["paytable_changes"] == {"pair_plus.pair": "2"}
    assert richer["config_hash"] != gpusim.load_config("three_card_poker").config_hash
    with pytest.raises(gpusim.StrategyError, match="allowed: always-play, optimal, q64"):
        gpusim.exact_report("three_card_poker", "q65")
    with pytest.raises(gpusim.ConfigError, match="pair_plus"):
        gpusim.exact_report("three_card_poker", pays={"pair_plus.quads": 2})
    with pytest.raises(ValueError, match="backend"):
        gpusim.exact_report("three_card_poker", backend="gpu")
