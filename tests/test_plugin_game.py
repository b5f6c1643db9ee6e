"""A game from another distribution goes through every command: the proof that a game is one
folder. ``tests/plugins/high_card_duel`` is registered the way an installed distribution
registers it, through the ``gpusim.games`` entry-point group (a ``.dist-info`` with
``entry_points.txt`` on the path), and nothing outside its folder knows it.

All commands run in one child process (one JAX start-up), so the game never enters this test
session's registry.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gpusim.config import load_config, shipped_configs

PLUGINS = Path(__file__).resolve().parent / "plugins"

_DRIVER = textwrap.dedent('''
    import json, sys
    from typer.testing import CliRunner
    from gpusim.cli import app

    out = {}
    def run(key, *args):
        r = CliRunner().invoke(app, list(args))
        out[key] = {"code": r.exit_code, "out": r.stdout, "err": r.stderr}

    tmp = sys.argv[1]
    run("games", "games", "--json")
    run("check", "games", "--check", "high_card_duel")
    run("play", "play", "high_card_duel", "--rounds", "0:40", "--seed", "5", "--json")
    # chunks of 20,000, whole and in both shards of 40,000: one compiled batch size
    common = ["--rounds", "80000", "--seed", "9", "--chunk", "20000"]
    run("simulate", "simulate", "high_card_duel", *common, "--out", f"{tmp}/full")
    run("shard0", "simulate", "high_card_duel", *common, "--shard", "0/2", "--out", f"{tmp}/s0")
    run("shard1", "simulate", "high_card_duel", *common, "--shard", "1/2", "--out", f"{tmp}/s1")
    run("merge", "merge", f"{tmp}/s0", f"{tmp}/s1", "--out", f"{tmp}/merged")
    run("verify", "verify", f"{tmp}/merged")
    run("summary_full", "summary", f"{tmp}/full", "--json")
    run("summary_merged", "summary", f"{tmp}/merged", "--json")
    run("html", "report", f"{tmp}/full", "--out", f"{tmp}/report.html")
    run("xlsx", "report", f"{tmp}/full", "--out", f"{tmp}/report.xlsx")
    run("whatif", "whatif", f"{tmp}/full", "--set", "suited.suited=4", "--json")
    run("risk", "risk", f"{tmp}/full", "--json")
    run("exact", "exact", "high_card_duel")
    run("optimal", "simulate", "high_card_duel", "--strategy", "optimal", "--rounds", "10",
        "--out", f"{tmp}/optimal")
    run("cupy", "simulate", "high_card_duel", "--backend", "cupy", "--rounds", "10",
        "--out", f"{tmp}/cupy")
    print(json.dumps(out))
''')

SHIPPED_GAMES = list(dict.fromkeys(load_config(n).game for n in shipped_configs()))
"""The registry's games before any plugin's: the games the shipped configs describe, in the
order of their config files' names (no game is built in)."""


def _dist(tmp_path: Path, target: str) -> Path:
    """A minimal installed distribution whose ``gpusim.games`` entry point names ``target``."""
    site = tmp_path / "site"
    info = site / "hcd_plugin-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hcd-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[gpusim.games]\nhigh_card_duel = {target}\n")
    return site


def _env(site: Path) -> dict:
    path = os.pathsep.join([str(site), str(PLUGINS), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path.rstrip(os.pathsep)}


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("plugin")
    site = _dist(tmp, "high_card_duel")
    res = subprocess.run([sys.executable, "-c", _DRIVER, str(tmp)], env=_env(site),
                         capture_output=True, text=True, timeout=900)
    assert res.returncode == 0, res.stderr[-3000:]
    return tmp, json.loads(res.stdout.splitlines()[-1])


def test_listed_with_its_strategies_and_config(results):
    _, r = results
    assert r["games"]["code"] == 0
    info = json.loads(r["games"]["out"])
    assert info["games"]["high_card_duel"]["strategies"] == ["always-raise", "basic"]
    assert info["configs"]["high_card_duel"]["bets"] == ["ante", "raise", "suited"]


def test_passes_the_conformance_check(results):
    """What every layer relies on holds for a game none of gpusim's code knows
    (tests/test_conformance.py checks the shipped configs' games)."""
    _, r = results
    assert r["check"]["code"] == 0, r["check"]
    assert r["check"]["out"].strip().splitlines()[-1] == "high_card_duel: conforms"


def test_play_shows_its_own_card_layout_and_three_actions(results):
    _, r = results
    assert r["play"]["code"] == 0, r["play"]
    recs = [json.loads(line) for line in r["play"]["out"].splitlines()]
    assert len(recs) == 40 and all(len(x["player"]) == 1 == len(x["dealer"]) for x in recs)
    assert "board" not in recs[0]
    seen = {x["decisions"]["act"] for x in recs}
    assert seen <= {"fold", "raise_1x", "raise_2x"} and len(seen) >= 2
    for x in recs:  # the rules by hand: a raise of k antes, higher rank wins, a tie pushes
        if x["decisions"]["act"] == "fold":
            assert x["bets"]["ante"]["net"] == -1 and "raise" not in x["bets"]
            continue
        k = {"raise_1x": 1, "raise_2x": 2}[x["decisions"]["act"]]
        p, d = ("23456789TJQKA".index(c[0][0]) for c in (x["player"], x["dealer"]))
        sign = (p > d) - (p < d)
        assert x["bets"]["raise"] == {"stake": k, "net": sign * k,
                                      "event": {1: "win", 0: "tie", -1: "loss"}[sign]}


def test_simulate_shards_merge_verify_summary(results):
    _, r = results
    for key in ("simulate", "shard0", "shard1", "merge", "verify", "summary_full",
                "summary_merged"):
        assert r[key]["code"] == 0, (key, r[key])
    full, merged = (json.loads(r[k]["out"]) for k in ("summary_full", "summary_merged"))
    assert merged["bets"] == full["bets"] and merged["decisions"] == full["decisions"]
    assert set(full["decisions"]["act"]) == {"fold", "raise_1x", "raise_2x"}
    # the Suited bet wins when the two cards share a suit: 12/51, inside 4 SD
    suited = full["bets"]["suited"]
    wins = (suited["returned"]) // 4  # it returns 4 per unit when it wins (3:1)
    n, p = suited["placed"], 12 / 51
    assert abs(wins - n * p) < 4 * (n * p * (1 - p)) ** 0.5
    assert "sound" in r["verify"]["out"]


def test_reports_have_no_exact_column(results):
    tmp, r = results
    assert r["html"]["code"] == 0 and r["xlsx"]["code"] == 0, (r["html"], r["xlsx"])
    html = (tmp / "report.html").read_text()
    assert "High Card Duel" in html or "high_card_duel" in html
    assert "exact RTP" not in html and "<th>exact</th>" not in html
    assert (tmp / "report.xlsx").stat().st_size > 0


def test_whatif_and_risk(results):
    _, r = results
    assert r["whatif"]["code"] == 0 and r["risk"]["code"] == 0, (r["whatif"], r["risk"])
    assert "suited" in r["whatif"]["out"]


def test_what_it_lacks_is_refused_in_one_line(results):
    _, r = results
    for key, words in (("exact", "has no exact solver"), ("optimal", "unknown for high_card_duel"),
                       ("cupy", "--backend")):
        assert r[key]["code"] == 2, (key, r[key])
        lines = [ln for ln in r[key]["err"].splitlines() if ln.strip()]
        assert len(lines) == 1 and words in lines[0], (key, lines)


def test_a_broken_plugin_is_one_warning(tmp_path):
    site = _dist(tmp_path, "no_such_package_here")
    code = "from gpusim.games import SPECS; print(','.join(SPECS))"
    res = subprocess.run([sys.executable, "-c", code], env=_env(site), capture_output=True,
                         text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    games = res.stdout.strip().split(",")
    assert games[:len(SHIPPED_GAMES)] == SHIPPED_GAMES
    assert "high_card_duel" not in games
    warning = [ln for ln in res.stderr.splitlines() if "high_card_duel" in ln]
    assert len(warning) == 1 and "not loaded" in warning[0]


def test_a_typo_in_an_import_path_fails_when_the_plugin_loads(tmp_path):
    """The spec's settle path has a typo: the registry refuses the plugin at discovery, in one
    line naming the plugin and the path, before anything asks for the game."""
    pkg = tmp_path / "pkgs" / "typo_duel"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(
        "import dataclasses\n"
        "from high_card_duel import SPEC as _SPEC\n"
        "SPEC = dataclasses.replace(_SPEC, settle='high_card_duel.settlment:settle')\n")
    site = _dist(tmp_path, "typo_duel")
    code = "from gpusim.games import SPECS; print(','.join(SPECS))"
    env = _env(site)
    env["PYTHONPATH"] += os.pathsep + str(tmp_path / "pkgs")
    res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    games = res.stdout.strip().split(",")
    assert games[:len(SHIPPED_GAMES)] == SHIPPED_GAMES
    assert "high_card_duel" not in games
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, lines
    assert "game plugin 'high_card_duel'" in lines[0] and "typo_duel" in lines[0]
    assert "settle: 'high_card_duel.settlment:settle'" in lines[0] and "not found" in lines[0]
