"""The Monte Carlo runner: determinism, crash safety and resume, run-folder contents, bad input."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

import gpusim
from gpusim.cli import app
from gpusim.runs.runner import parse_rounds, plan_chunks

STRATEGY = "basic"


def _counts(run) -> dict:
    """Chunk-independent totals of a run: every table summed over chunks."""
    out = {}
    for name, keys in {
        "outcomes": ["bet", "net"],
        "events": ["bet", "event"],
        "decisions": ["point", "action"],
    }.items():
        df = getattr(run, name)().collect()
        out[name] = df.group_by(keys).agg(pl.col("count").sum()).sort(keys).rows()
    w = run.wagers().collect().group_by("bet").agg(pl.exclude("chunk").sum()).sort("bet")
    out["wagers"] = w.rows()
    m = run.moments().collect().group_by(["bet_a", "bet_b"]).agg(pl.col("sum_product").sum())
    out["moments"] = m.sort(["bet_a", "bet_b"]).rows()
    return out


def _has_cupy_gpu() -> bool:
    from gpusim.compute.backends import cupy_rounds

    return cupy_rounds.available()


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("ref") / "run"
    # pinned: "auto" picks a GPU backend where there is one; the counts agree either way
    return gpusim.simulate(
        "casino_holdem", rounds=50_000, seed=11, out=out, strategy=STRATEGY, chunk=50_000,
        backend="jax-cpu",
    )


def test_parse_rounds_forms():
    assert parse_rounds("1e9") == 1_000_000_000
    assert parse_rounds("2_000_000") == 2_000_000
    assert parse_rounds("2.5e3") == 2500
    for bad in ("0", "-5", "1.5", "x", "1e-2", ""):
        with pytest.raises(ValueError, match="--rounds"):
            parse_rounds(bad)


def test_plan_chunks_covers_rounds_in_order():
    plan = plan_chunks(10, 4)
    assert plan == [(0, 4), (4, 4), (8, 2)]
    assert sum(n for _, n in plan_chunks(1_000_003, 65_536)) == 1_000_003


@pytest.mark.parametrize("chunk", [50_000, 16_384, 7_777])
def test_same_seed_same_counts_whatever_the_chunk(reference, tmp_path, chunk):
    run = gpusim.simulate(
        "casino_holdem", rounds=50_000, seed=11, out=tmp_path / "r", strategy=STRATEGY, chunk=chunk
    )
    assert len(run.manifest["chunks_done"]) == -(-50_000 // chunk)
    assert _counts(run) == _counts(reference)


def test_different_seed_differs(reference, tmp_path):
    run = gpusim.simulate(
        "casino_holdem", rounds=50_000, seed=12, out=tmp_path / "r", strategy=STRATEGY
    )
    assert _counts(run)["outcomes"] != _counts(reference)["outcomes"]


def test_run_folder_contents(reference):
    p = reference.path
    m = json.loads((p / "manifest.json").read_text())
    assert m["status"] == "complete"
    assert m["seed"] == 11 and m["rounds"] == 50_000 and m["strategy"] == STRATEGY
    # the config carries its game's description ([game]), named casino_holdem
    assert len(m["config_hash"]) == 64 and m["config"]["game"]["name"] == "casino_holdem"
    assert m["backend"] == "jax-cpu" and m["gpusim_version"] == gpusim.__version__
    rec = m["chunks_done"][0]
    assert rec["first_round"] == 0 and rec["n_rounds"] == 50_000
    for table in ("outcomes", "events", "decisions"):
        assert len(rec["files"][table]["sha256"]) == 64
        assert (p / rec["files"][table]["file"]).is_file()
    o = pl.read_parquet(p / "outcomes" / "part-000000.parquet")
    assert o.schema == {"chunk": pl.Int64, "bet": pl.String, "net": pl.Int64, "count": pl.Int64}
    assert {"ante", "call", "aa_bonus", "main", "total"} <= set(o["bet"].unique())
    # every bet's distribution covers every round exactly once
    per_bet = o.group_by("bet").agg(pl.col("count").sum())
    assert set(per_bet["count"].to_list()) == {50_000}
    # the round's total net is the sum of the bets' nets
    tot = o.filter(pl.col("bet") == "total").select((pl.col("net") * pl.col("count")).sum()).item()
    parts = o.filter(pl.col("bet").is_in(["ante", "call", "aa_bonus"]))
    assert tot == parts.select((pl.col("net") * pl.col("count")).sum()).item()
    e = pl.read_parquet(p / "events" / "part-000000.parquet")
    assert e.columns == ["chunk", "bet", "event", "count"]
    d = pl.read_parquet(p / "decisions" / "part-000000.parquet")
    assert d.columns == ["chunk", "point", "action", "count"]
    assert d["count"].sum() == 50_000
    s = json.loads((p / "summary.json").read_text())
    assert s["rounds"] == 50_000 and "house_edge_per_ante" in s["main"]
    assert s["bets"]["ante"]["wagered"] == 50_000


def test_summary_recomputes_from_parts(reference):
    s = reference.summary()
    ante = s["bets"]["ante"]
    lo, hi = ante["rtp_ci95"]
    assert lo < ante["rtp"] < hi
    assert ante["returned"] - ante["wagered"] == ante["net"]
    calls = s["decisions"]["call"]["call"]
    assert s["bets"]["call"]["placed"] == round(calls * 50_000)
    # the summary CLI reads the parts, not summary.json
    (reference.path / "summary.json").write_text("{}")
    res = CliRunner().invoke(app, ["summary", str(reference.path), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["bets"]["ante"]["net"] == ante["net"]
    reference.write_summary()


def test_partial_run_is_readable_while_running(tmp_path):
    run = gpusim.simulate(
        "casino_holdem", rounds=40_000, seed=3, out=tmp_path / "r", strategy=STRATEGY, chunk=10_000
    )
    # a run reader sees the completed chunks through polars.scan_parquet
    df = pl.scan_parquet(str(run.path / "outcomes" / "part-*.parquet")).collect()
    assert df["chunk"].n_unique() == 4


def test_existing_folder_refused(reference):
    res = CliRunner().invoke(
        app,
        ["simulate", "casino_holdem", "--rounds", "1000", "--strategy", STRATEGY, "--out",
         str(reference.path)],
    )
    assert res.exit_code == 2
    assert "already exists" in res.output and "--resume" in res.output


def _simulate_cmd(out: Path, rounds: int, chunk: int, *extra: str) -> list[str]:
    return [
        sys.executable, "-m", "gpusim", "simulate", "casino_holdem", "--rounds", str(rounds),
        "--seed", "5", "--strategy", STRATEGY, "--chunk", str(chunk), "--out", str(out), "--quiet",
        *extra,
    ]


@pytest.mark.slow  # the fault battery (tests/test_faults.py) kills and resumes 21 times in CI
def test_sigkill_then_resume_matches_uninterrupted(tmp_path):
    rounds, chunk = 400_000, 20_000
    ref = gpusim.simulate(
        "casino_holdem", rounds=rounds, seed=5, out=tmp_path / "ref", strategy=STRATEGY,
        chunk=chunk,
    )
    out = tmp_path / "killed"
    proc = subprocess.Popen(_simulate_cmd(out, rounds, chunk))
    manifest = out / "manifest.json"
    deadline = time.time() + 240
    done = 0
    while time.time() < deadline and proc.poll() is None:
        if manifest.is_file():
            try:
                done = len(json.loads(manifest.read_text())["chunks_done"])
            except (json.JSONDecodeError, KeyError):
                done = 0
            if done >= 3:
                break
        time.sleep(0.05)
    assert proc.poll() is None, "the run finished before it could be killed; raise rounds"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    before = json.loads(manifest.read_text())
    assert before["status"] == "running"
    kept = {r["chunk"]: r for r in before["chunks_done"]}
    assert 0 < len(kept) < rounds // chunk
    mtimes = {
        info["file"]: os.stat(out / info["file"]).st_mtime_ns
        for r in kept.values()
        for info in r["files"].values()
    }
    # what a crash mid-write leaves: a temporary file and a part the manifest never listed
    (out / "outcomes" / ".part-000019.parquet.tmp").write_bytes(b"half written")
    (out / "events" / "part-000019.parquet").write_bytes(b"not in the manifest")

    # without --resume or --force the folder is refused
    refused = subprocess.run(_simulate_cmd(out, rounds, chunk), capture_output=True, text=True)
    assert refused.returncode == 2 and "already exists" in refused.stderr

    res = subprocess.run(_simulate_cmd(out, rounds, chunk, "--resume"), capture_output=True,
                         text=True)
    assert res.returncode == 0, res.stderr
    run = gpusim.open_run(out)
    assert run.complete and run.manifest["status"] == "complete"
    assert _counts(run) == _counts(ref)
    for f, t in mtimes.items():  # finished parts are never rewritten
        assert os.stat(out / f).st_mtime_ns == t
    assert not (out / "outcomes" / ".part-000019.parquet.tmp").exists()
    assert run._folder.verify() == []


def test_resume_with_other_settings_refused(reference):
    res = CliRunner().invoke(
        app,
        ["simulate", "casino_holdem", "--rounds", "50000", "--seed", "99", "--strategy",
         STRATEGY, "--chunk", "50000", "--out", str(reference.path), "--resume"],
    )
    assert res.exit_code == 2
    assert "seed" in res.output


@pytest.mark.parametrize(
    "args, needle",
    [
        (["--rounds", "0"], "--rounds"),
        (["--rounds", "-5"], "--rounds"),
        (["--rounds", "1.5"], "--rounds"),
        (["--rounds", "1000", "--strategy", "nonesuch"], "nonesuch"),
        (["--rounds", "1000", "--backend", "tpu"], "--backend"),
        pytest.param(["--rounds", "1000", "--backend", "cupy"], "cupy",
                     marks=pytest.mark.skipif(_has_cupy_gpu(), reason="a GPU with CuPy here")),
        (["--rounds", "1000", "--chunk", "0"], "--chunk"),
    ],
)
def test_bad_input_exit_2_one_line_no_folder(tmp_path, args, needle):
    out = tmp_path / "never"
    if "--strategy" not in args:
        args = [*args, "--strategy", STRATEGY]
    res = CliRunner().invoke(app, ["simulate", "casino_holdem", "--out", str(out), *args])
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and needle in lines[0], res.output
    assert "Traceback" not in res.output
    assert not out.exists()


@pytest.mark.parametrize("where", ["under_a_file", "proc"])
def test_unwritable_out(tmp_path, where):
    if where == "under_a_file":
        (tmp_path / "file").write_text("x")
        out = tmp_path / "file" / "run"
    else:
        out = Path("/proc/gpusim-run")
        if not Path("/proc").is_dir():
            pytest.skip("no /proc on this system")
    res = CliRunner().invoke(
        app, ["simulate", "casino_holdem", "--rounds", "1000", "--strategy", STRATEGY, "--out",
              str(out)]
    )
    assert res.exit_code == 2, res.output
    assert "not writable" in res.output and len(res.output.strip().splitlines()) == 1
    assert not out.exists()


def test_unwritable_out_is_a_file(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    res = CliRunner().invoke(
        app, ["simulate", "casino_holdem", "--rounds", "1000", "--strategy", STRATEGY, "--out",
              str(f)]
    )
    assert res.exit_code == 2 and "not a folder" in res.output
    assert f.read_text() == "x"
