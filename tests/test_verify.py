"""`gpusim verify` catches tampering, and the analysis commands refuse a folder that fails the
sha256 check (one line pointing to `verify`)."""

from __future__ import annotations

import json
import shutil

import pytest
from _batch_runs import CH, shard, single
from typer.testing import CliRunner

from gpusim.cli import app

runner = CliRunner()


@pytest.fixture
def run_copy(tmp_path):
    """A fresh copy of a finished 6-chunk run to damage."""
    dst = tmp_path / "run"
    shutil.copytree(single(**CH).path, dst)
    return dst


def _manifest(p):
    return json.loads((p / "manifest.json").read_text())


def _verify(p):
    res = runner.invoke(app, ["verify", str(p)])
    return res.exit_code, res.output


def test_sound_runs_pass(run_copy):
    code, out = _verify(run_copy)
    assert code == 0 and "sound" in out, out
    code, out = _verify(shard(**CH, index=1, count=3).path)
    assert code == 0, out
    res = runner.invoke(app, ["verify", str(run_copy), "--json"])
    assert res.exit_code == 0 and json.loads(res.output)["problems"] == []


def test_flipped_byte(run_copy):
    f = run_copy / _manifest(run_copy)["chunks_done"][2]["files"]["wagers"]["file"]
    data = bytearray(f.read_bytes())
    data[len(data) // 2] ^= 0x40
    f.write_bytes(bytes(data))
    code, out = _verify(run_copy)
    assert code == 1 and "wagers/part-000002.parquet does not match its sha256" in out, out


def test_missing_part(run_copy):
    (run_copy / "events" / "part-000004.parquet").unlink()
    code, out = _verify(run_copy)
    assert code == 1 and "missing part events/part-000004.parquet" in out, out


def test_extra_part(run_copy):
    shutil.copy(run_copy / "outcomes" / "part-000001.parquet",
                run_copy / "outcomes" / "part-000009.parquet")
    code, out = _verify(run_copy)
    assert code == 1 and "extra file outcomes/part-000009.parquet" in out, out


def test_part_with_other_columns(run_copy):
    # a part rewritten with a renamed column, its sha256 and rows updated in the manifest: only
    # the schema check (gpusim.runs.runfolder.PART_SCHEMAS) can tell
    import polars as pl

    from gpusim.runs.runfolder import sha256_file

    m = _manifest(run_copy)
    info = m["chunks_done"][1]["files"]["moments"]
    f = run_copy / info["file"]
    pl.read_parquet(f).rename({"sum_product": "sum"}).write_parquet(f)
    info["sha256"] = sha256_file(f)
    (run_copy / "manifest.json").write_text(json.dumps(m))
    code, out = _verify(run_copy)
    assert code == 1, out
    assert ("moments/part-000001.parquet has columns chunk Int64, bet_a String, bet_b String, "
            "sum Int64; a moments part has chunk Int64, bet_a String, bet_b String, "
            "sum_product Int64") in out, out


def test_edited_counts_in_the_manifest(run_copy):
    m = _manifest(run_copy)
    m["chunks_done"][3]["n_rounds"] += 1
    (run_copy / "manifest.json").write_text(json.dumps(m))
    code, out = _verify(run_copy)
    assert code == 1 and "chunk 3: ante's outcome counts add up to 10,000, not" in out, out
    m["chunks_done"][3]["n_rounds"] -= 1
    m["rounds"] = 70_000
    (run_copy / "manifest.json").write_text(json.dumps(m))
    code, out = _verify(run_copy)
    assert code == 1 and "rounds 60,000..69,999 are in no chunk" in out, out


def test_edited_config_in_the_manifest(run_copy):
    m = _manifest(run_copy)
    m["config"]["paytables"]["aa_bonus"]["pair_of_aces"] += 1
    (run_copy / "manifest.json").write_text(json.dumps(m))
    code, out = _verify(run_copy)
    assert code == 1 and "config hash" in out, out


@pytest.mark.parametrize("cmd", [["summary"], ["risk"], ["whatif", "--set", "aa_bonus.x=1"],
                                 ["report", "--out", "REPORT"]])
def test_analysis_commands_refuse_a_tampered_run(run_copy, tmp_path, cmd):
    f = run_copy / "outcomes" / "part-000000.parquet"
    data = bytearray(f.read_bytes())
    data[100] ^= 0x01
    f.write_bytes(bytes(data))
    args = [a.replace("REPORT", str(tmp_path / "r.html")) for a in cmd]
    res = runner.invoke(app, [args[0], str(run_copy), *args[1:]])
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "sha256" in lines[0] and "gpusim verify" in lines[0], res.output
    assert not (tmp_path / "r.html").exists()


def test_not_a_run_folder(tmp_path):
    res = runner.invoke(app, ["verify", str(tmp_path)])
    assert res.exit_code == 2 and "not a gpusim run folder" in res.output
