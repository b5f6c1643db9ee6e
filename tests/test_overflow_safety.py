"""Counts above 2**32 go through `summary` and the report exactly; configs are data only; output
stays inside the run folder or the named output file."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

import gpusim
from gpusim.cli import app
from gpusim.runs.runfolder import sha256_file

K = 2**33 + 3  # every count and sum is multiplied by this: far past 2**32 per cell
COUNT_COLS = {"outcomes": ["count"], "events": ["count"], "decisions": ["count"],
              "wagers": ["placed", "wagered", "returned", "sum_stake_sq", "sum_stake_net"],
              "moments": ["sum_product"]}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """(a real 4,000-round run, the same run with every count and sum multiplied by K)."""
    base = tmp_path_factory.mktemp("overflow")
    small = gpusim.simulate("casino_holdem", rounds=4000, seed=3, out=base / "small",
                            strategy="optimal", chunk=2000, backend="jax-cpu")
    big = base / "big"
    import shutil

    shutil.copytree(small.path, big)
    m = json.loads((big / "manifest.json").read_text())
    for rec in m["chunks_done"]:
        rec["n_rounds"] *= K
        for table, info in rec["files"].items():
            if table not in COUNT_COLS:
                continue
            p = big / info["file"]
            df = pl.read_parquet(p).with_columns(
                [(pl.col(c) * K).cast(pl.Int64) for c in COUNT_COLS[table]])
            df.write_parquet(p)
            info["sha256"] = sha256_file(p)
    m["rounds"] *= K
    (big / "manifest.json").write_text(json.dumps(m))
    return small.path, big


def _summary(path: Path) -> dict:
    res = CliRunner().invoke(app, ["summary", str(path), "--json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def test_parts_hold_counts_above_2_32(runs):
    _, big = runs
    counts = pl.read_parquet(big / "outcomes" / "part-000000.parquet")["count"]
    assert counts.dtype == pl.Int64 and counts.min() > 2**32
    w = pl.read_parquet(big / "wagers" / "part-000000.parquet")
    assert w["wagered"].max() > 2**40


def test_summary_of_huge_counts_is_exact(runs):
    small, big = runs
    a, b = _summary(small), _summary(big)
    assert b["rounds"] == K * a["rounds"] == K * 4000
    for bet, sa in a["bets"].items():
        sb = b["bets"][bet]
        for key in ("placed", "wagered", "returned", "net"):
            assert sb[key] == K * sa[key], (bet, key)
        # ratios of integers multiplied by the same K are the same correctly rounded float
        assert sb["rtp"] == sa["rtp"], bet
        assert sb["mean_net_per_round"] == sa["mean_net_per_round"], bet
        assert sb["sd_per_round"] == pytest.approx(sa["sd_per_round"], rel=1e-12)
        # the interval narrows by sqrt(K), as K times the rounds should
        wa = sa["rtp_ci95"][1] - sa["rtp_ci95"][0]
        wb = sb["rtp_ci95"][1] - sb["rtp_ci95"][0]
        if wa > 0:
            assert wb == pytest.approx(wa / math.sqrt(K), rel=1e-6), bet
    for key in ("house_edge_per_ante", "element_of_risk", "total_bet_rtp", "ante_rtp",
                "avg_total_wager"):
        assert b["main"][key] == a["main"][key], key
    for bet, ev in a["events"].items():
        assert b["events"][bet] == {e: K * n for e, n in ev.items()}, bet
    assert b["decisions"] == a["decisions"]


def test_report_of_huge_counts_is_exact(runs, tmp_path):
    small, big = runs
    reps = []
    for path, name in ((small, "a.json"), (big, "b.json")):
        res = CliRunner().invoke(app, ["report", str(path), "--out", str(tmp_path / name),
                                       "--format", "json", "--exact", "never", "--paths", "200"])
        assert res.exit_code == 0, res.output
        reps.append(json.loads((tmp_path / name).read_text()))
    a, b = reps
    assert b["run"]["rounds"] == K * a["run"]["rounds"]
    for bet, ta in a["return_tables"].items():
        tb = b["return_tables"][bet]
        assert tb["rtp"] == ta["rtp"] and tb["placed"] == K * ta["placed"], bet
        for ra, rb in zip(ta["rows"], tb["rows"], strict=True):
            assert rb["count"] == K * ra["count"], (bet, ra["event"])
            assert rb["probability"] == ra["probability"] and rb["return"] == ra["return"]
    for bet, va in a["volatility"]["bets"].items():
        vb = b["volatility"]["bets"][bet]
        assert vb["rtp"] == va["rtp"] and vb["wagered"] == K * va["wagered"], bet
        assert vb["sd"] == pytest.approx(va["sd"], rel=1e-12)
    assert a["net_distributions"].keys() == b["net_distributions"].keys()
    for bet, na in a["net_distributions"].items():
        nb = b["net_distributions"][bet]
        assert nb["rounds"] == K * na["rounds"] and nb["values"] == na["values"], bet
        # K*c / (K*n) is the same correctly rounded ratio as c/n: int64 counts stay exact
        assert nb["probabilities"] == na["probabilities"], bet
    assert b["risk"]["session"]["mean"] == a["risk"]["session"]["mean"]


# --- safety -----------------------------------------------------------------------------------


def test_package_never_executes_text():
    # no eval/exec, no pickle, no shell: nothing a config or a run folder holds can run code
    src = Path(gpusim.__file__).parent
    pattern = re.compile(r"\b(eval|exec)\(|\bpickle\b|allow_pickle\s*=\s*True|shell\s*=\s*True|"
                         r"__import__")
    hits = [f"{p.relative_to(src)}:{i}" for p in src.rglob("*.py")
            for i, line in enumerate(p.read_text().splitlines(), 1)
            if pattern.search(line)]
    assert hits == [], hits


def test_config_strings_are_data_only(tmp_path):
    from gpusim.config import ConfigError, load_config

    marker = tmp_path / "pwned"
    code = f"__import__('os').system('touch {marker}')"
    base = (Path(__file__).resolve().parent.parent / "configs" / "casino_holdem.toml").read_text()
    for old, new in (('name = "casino_holdem"', f'name = "{code}"'),
                     ('description = "', f'description = "{code} '),
                     ('default_strategy = "optimal"', f'default_strategy = "{code}"'),
                     ('hand = "pair"', f'hand = "{code}"')):
        p = tmp_path / "c.toml"
        p.write_text(base.replace(old, new, 1))
        try:
            rules = load_config(p)
        except ConfigError:
            continue
        assert code in (rules.name + rules.description)  # kept as text
    assert not marker.exists()


def test_simulate_writes_only_inside_its_run_folder(tmp_path, monkeypatch):
    work = tmp_path / "work"
    (work / "a").mkdir(parents=True)
    monkeypatch.chdir(work / "a")
    monkeypatch.setenv("GPUSIM_CACHE_DIR", str(tmp_path / "cache"))
    before = {p for p in tmp_path.rglob("*")}
    res = CliRunner().invoke(app, ["simulate", "casino_holdem", "--rounds", "3000", "--strategy",
                                   "always-play", "--out", "../b/../run", "--quiet",
                                   "--backend", "jax-cpu", "--chunk", "1000"])
    assert res.exit_code == 0, res.output
    new = {p for p in tmp_path.rglob("*")} - before
    run = (work / "run").resolve()
    assert run.is_dir()
    outside = [p for p in new if not p.resolve().is_relative_to(run) and p.resolve() != run
               and not p.resolve().is_relative_to(tmp_path / "cache")]
    assert outside == [], outside
    assert not (work / "b").exists()


def test_report_writes_only_the_named_file(tmp_path, runs):
    small, _ = runs
    before = {p: p.stat().st_mtime_ns for p in small.rglob("*")}
    out = tmp_path / "x" / ".." / "r.md"
    (tmp_path / "x").mkdir()
    listing = set(tmp_path.rglob("*"))
    res = CliRunner().invoke(app, ["report", str(small), "--out", str(out), "--exact", "never",
                                   "--paths", "200"])
    assert res.exit_code == 0, res.output
    assert set(tmp_path.rglob("*")) - listing == {tmp_path / "r.md"}
    assert {p: p.stat().st_mtime_ns for p in small.rglob("*")} == before
