"""Shards and merge: `--shard I/N` slices merged with `gpusim merge` equal a single run, count
for count (the progressive Jackpot included), and merge refuses what does not fit together."""

from __future__ import annotations

import json
import shutil

import pytest
from _batch_runs import CH, THB, THB_ROYALS, shard, single, tables, tmp
from typer.testing import CliRunner

import gpusim
from gpusim.cli import app
from gpusim.runs.shards import ShardError, parse_shard, shard_range

runner = CliRunner()


def _merge(*dirs, out):
    return runner.invoke(app, ["merge", *map(str, dirs), "--out", str(out)])


def _one_line_error(res, *words):
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("gpusim: error:"), res.output
    for w in words:
        assert w in lines[0], (w, lines[0])


def test_shard_ranges_cover_the_rounds_once():
    for rounds, n in ((10, 3), (600_000, 3), (7, 7), (2**48, 5)):
        ranges = [shard_range(rounds, i, n) for i in range(n)]
        assert ranges[0][0] == 0 and ranges[-1][1] == rounds
        assert all(a[1] == b[0] and a[0] < a[1] for a, b in zip(ranges, ranges[1:], strict=False))
    assert parse_shard("2/3") == (2, 3) and parse_shard((0, 1)) == (0, 1)
    for bad in ("3/3", "-1/3", "1/0", "x", "1/", "1/2/3", "0/3 junk"):
        with pytest.raises(ShardError, match="--shard"):
            parse_shard(bad)
    with pytest.raises(ShardError, match="no rounds"):
        shard_range(2, 0, 3)


@pytest.mark.parametrize("spec", ["3/3", "1/0", "a/b", "-1/2"])
def test_bad_shard_spec_is_one_line(tmp_path, spec):
    res = runner.invoke(app, ["simulate", "casino_holdem", "--rounds", "1000", "--shard", spec,
                              "--out", str(tmp_path / "r"), "--quiet"])
    _one_line_error(res, "--shard", spec)
    assert not (tmp_path / "r").exists()


def test_holdem_bonus_shards_merge_to_the_single_run():
    ref = single(**THB)
    assert [r for _, r, _ in ref.jackpot().collect().rows()] == THB_ROYALS
    parts = [shard(**THB, index=i, count=3) for i in range(3)]
    for i, p in enumerate(parts):
        sh = p.manifest["shard"]
        assert (sh["index"], sh["count"]) == (i, 3) and p.complete
        assert sh["first_round"] == 600_000 * i // 3
        assert p.manifest.get("jackpot_meter_provisional", False) == (i > 0)
    with_royals = [i for i, p in enumerate(parts) if p.jackpot().collect().height]
    assert len(with_royals) >= 2, "the seed must put royals in at least two shards"
    out = tmp("merged-thb")
    res = _merge(parts[2].path, parts[0].path, parts[1].path, out=out)
    assert res.exit_code == 0, res.output
    merged = gpusim.open_run(out)
    assert merged.complete and merged.manifest["rounds"] == THB["rounds"]
    assert tables(merged) == tables(ref)
    # shard 2's first royal was paid a provisional meter; the merged pay is the single run's
    assert dict(parts[2].jackpot().collect().select("round", "meter").rows())[517_522] != dict(
        ref.jackpot().collect().select("round", "meter").rows())[517_522]
    assert runner.invoke(app, ["verify", str(out)]).exit_code == 0
    assert merged.summary()["bets"] == ref.summary()["bets"]


def test_casino_holdem_shards_merge_to_the_single_run():
    ref = single(**CH)
    parts = [shard(**CH, index=i, count=3) for i in range(3)]
    out = tmp("merged-ch")
    assert _merge(*(p.path for p in parts), out=out).exit_code == 0
    assert tables(gpusim.open_run(out)) == tables(ref)


def test_merge_refusals(tmp_path):
    base = {**CH}
    p = [shard(**base, index=i, count=3).path for i in range(3)]
    other_seed = shard(**{**base, "seed": 6}, index=1, count=3).path
    other_config = shard(**{**base, "config": "casino_holdem_evolution"}, index=1, count=3).path
    overlapping = shard(**base, index=1, count=2).path
    _one_line_error(_merge(p[0], other_seed, p[2], out=tmp_path / "a"), "seed")
    _one_line_error(_merge(p[0], other_config, p[2], out=tmp_path / "b"), "config")
    _one_line_error(_merge(p[0], p[1], overlapping, out=tmp_path / "c"), "overlaps")
    _one_line_error(_merge(p[0], p[2], out=tmp_path / "d"), "gap")
    _one_line_error(_merge(p[1], p[2], out=tmp_path / "d2"), "gap")
    tampered = tmp_path / "tampered"
    shutil.copytree(p[1], tampered)
    rec = json.loads((tampered / "manifest.json").read_text())["chunks_done"][0]
    f = tampered / rec["files"]["outcomes"]["file"]
    data = bytearray(f.read_bytes())
    data[len(data) // 2] ^= 0x01
    f.write_bytes(bytes(data))
    _one_line_error(_merge(p[0], tampered, p[2], out=tmp_path / "e"), "sha256", "gpusim verify")
    for name in "abcdde":
        assert not (tmp_path / name).exists()
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("")
    _one_line_error(_merge(*p, out=tmp_path / "full"), "--out", "--force")


def test_ray_option_takes_an_optional_address(monkeypatch, tmp_path):
    import gpusim.runs.ray_driver as rr

    seen = []

    def fake(config, **kw):
        seen.append(kw["address"])
        raise SystemExit(0)

    monkeypatch.setattr(rr, "simulate_ray", fake)
    base = ["simulate", "casino_holdem", "--rounds", "10", "--out", str(tmp_path / "r")]
    for extra, want in ((["--ray"], "auto"), (["--ray", "--quiet"], "auto"),
                        (["--ray", "10.0.0.1:6379"], "10.0.0.1:6379"), (["--ray=local"], "local")):
        assert runner.invoke(app, [*base, *extra]).exit_code == 0
        assert seen[-1] == want
    _one_line_error(runner.invoke(app, [*base, "--ray", "--shard", "0/2"]), "--ray", "--shard")
