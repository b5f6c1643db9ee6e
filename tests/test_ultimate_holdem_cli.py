"""Ultimate Texas Hold'em through every command a run goes through: play, simulate (whole and in
two shards, merged), verify, summary, report (HTML, JSON and the xlsx PAR sheet), whatif on the
Blind and Trips lines, and risk. The rule strategies are named (the configs' default, optimal,
reads the exact decision tables)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from gpusim.cli import app

N = 80_000
# chunks of 20,000 rounds, whole and in the two shards of 40,000: one compiled batch size
ROUNDS = ["--rounds", str(N), "--seed", "9", "--chunk", "20000"]


def _run(*args):
    r = CliRunner().invoke(app, [str(a) for a in args])
    return {"code": r.exit_code, "out": r.stdout, "err": r.stderr}


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("uth")
    sim = ["simulate", "ultimate_holdem", "--strategy", "basic", *ROUNDS, "--quiet"]
    out = {
        "play": _run("play", "ultimate_holdem", "--strategy", "basic", "--rounds", "0:60",
                     "--seed", "5", "--json"),
        "simulate": _run(*sim, "--out", tmp / "full"),
        "shard0": _run(*sim, "--shard", "0/2", "--out", tmp / "s0"),
        "shard1": _run(*sim, "--shard", "1/2", "--out", tmp / "s1"),
    }
    out["merge"] = _run("merge", tmp / "s0", tmp / "s1", "--out", tmp / "merged")
    out["verify"] = _run("verify", tmp / "merged")
    out["summary_full"] = _run("summary", tmp / "full", "--json")
    out["summary_merged"] = _run("summary", tmp / "merged", "--json")
    for fmt in ("html", "json", "xlsx"):
        out[fmt] = _run("report", tmp / "full", "--out", tmp / f"report.{fmt}", "--format", fmt)
    out["whatif"] = _run("whatif", tmp / "full", "--set", "blind.flush=2",
                         "--set", "trips.full_house=9", "--json")
    out["whatif_ratio"] = _run("whatif", tmp / "full", "--set", "blind.flush=2:1", "--json")
    out["whatif_bad"] = _run("whatif", tmp / "full", "--set", "trips.flush=3:0")
    out["solve"] = _run("whatif", tmp / "full", "--target-rtp", "0.97", "--line",
                        "trips.full_house", "--json")
    out["risk"] = _run("risk", tmp / "full", "--json")
    return tmp, out


def test_play_shows_the_three_points_and_the_stakes(results):
    _, r = results
    assert r["play"]["code"] == 0, r["play"]
    recs = [json.loads(line) for line in r["play"]["out"].splitlines()]
    assert len(recs) == 60
    multiple = {"play_4x": 4, "play_3x": 3, "play_2x": 2, "play_1x": 1}
    paths = set()
    for x in recs:
        d = x["decisions"]
        taken = [a for a in d.values() if a in multiple]
        bets = x["bets"]
        assert bets["ante"]["stake"] == bets["blind"]["stake"] == 2
        if d.get("river") == "fold":
            assert "play" not in bets and bets["ante"]["net"] == bets["blind"]["net"] == -2
        else:
            assert len(taken) == 1 and bets["play"]["stake"] == 2 * multiple[taken[0]]
        paths.add(tuple(d))
    assert ("preflop",) in paths and ("preflop", "flop", "river") in paths


def test_simulate_shards_merge_verify_summary(results):
    _, r = results
    steps = ("simulate", "shard0", "shard1", "merge", "verify", "summary_full", "summary_merged")
    assert [r[k]["code"] for k in steps] == [0] * len(steps), {k: r[k] for k in steps}
    full, merged = (json.loads(r[k]["out"]) for k in ("summary_full", "summary_merged"))
    for table in ("bets", "decisions", "events", "main"):  # two shards merged = one run
        assert merged[table] == full[table], table
    assert set(full["decisions"]) == {"preflop", "flop", "river"}
    assert set(full["bets"]) == {"ante", "blind", "play", "trips", "main", "total"}
    assert full["bets"]["blind"]["wagered"] == full["bets"]["ante"]["wagered"] == 2 * N
    assert "sound" in r["verify"]["out"]


def test_reports_have_trips_exact_from_combinatorics(results):
    # a report asks the game's exact solver first: the Trips figures come from combinatorics
    tmp, r = results
    for fmt in ("html", "json", "xlsx"):
        assert r[fmt]["code"] == 0, (fmt, r[fmt])
    assert "ultimate_holdem (basic)" in (tmp / "report.html").read_text()
    rep = json.loads((tmp / "report.json").read_text())
    trips = rep["return_tables"]["trips"]
    assert trips["exact"]["source"] == "combinatorics" and abs(trips["exact"]["z_rtp"]) < 5
    flush = next(x for x in rep["return_tables"]["blind"]["rows"] if x["event"] == "win:flush")
    assert flush["pays"] == 1.5
    assert (tmp / "report.xlsx").stat().st_size > 0


def test_whatif_on_the_blind_and_trips_lines(results):
    tmp, r = results
    assert r["whatif"]["code"] == 0, r["whatif"]
    w = json.loads(r["whatif"]["out"])["whatif"]["bets"]
    assert w["blind"]["paytable_old"]["flush"] == "3:2" and w["blind"]["paytable_new"]["flush"] == 2
    ev = json.loads(r["summary_full"]["out"])["events"]
    blind_flush = ev["blind"].get("win:flush", 0)
    # a flush's half unit more, per unit wagered (every Blind is 2 units; N rounds)
    assert Fraction(w["blind"]["rtp_new_exact"]) - Fraction(w["blind"]["rtp_old"]) < 1
    assert abs(w["blind"]["rtp_new"] - w["blind"]["rtp_old"] - blind_flush / 2 / N) < 1e-12
    full_houses = ev["trips"].get("full_house", 0)
    assert abs(w["trips"]["rtp_new"] - w["trips"]["rtp_old"] - full_houses / N) < 1e-12
    assert w["trips"]["exact_for_side_bet"] and not w["blind"]["exact_for_side_bet"]
    ratio = json.loads(r["whatif_ratio"]["out"])["whatif"]["bets"]["blind"]
    assert ratio["rtp_new_exact"] == w["blind"]["rtp_new_exact"]
    assert r["whatif_bad"]["code"] == 2
    err = [ln for ln in r["whatif_bad"]["err"].splitlines() if ln.strip()]
    assert len(err) == 1 and "trips.flush" in err[0] and "'3:0'" in err[0], err
    assert r["solve"]["code"] == 0, r["solve"]
    solve = json.loads(r["solve"]["out"])["solve"]
    assert solve["current_pay"] == 8 and solve["lower"]["rtp"] <= 0.97 <= solve["upper"]["rtp"]


def test_risk(results):
    _, r = results
    assert r["risk"]["code"] == 0, r["risk"]
    assert json.loads(r["risk"]["out"])
