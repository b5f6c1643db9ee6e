"""`gpusim report`: the HTML report's numbers read back equal `gpusim summary` and `gpusim risk`;
every tagged cell equals the embedded JSON; the embedded JSON holds summaries, the full
distributions go to Parquet with --data; exact side-bet figures against the published ones;
Markdown, JSON and the PAR sheet; bad input."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

import gpusim
from gpusim.cli import app

ROUNDS = 40_000
RISK_ARGS = ["--bankroll", "60", "--rounds", "300", "--paths", "4000", "--seed", "5"]


@pytest.fixture(scope="module")
def thb_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "thb"
    return gpusim.simulate("holdem_bonus", rounds=ROUNDS, seed=11, out=out, strategy="basic",
                           chunk=10_000)


@pytest.fixture(scope="module")
def html_report(thb_run, tmp_path_factory):
    out = tmp_path_factory.mktemp("html") / "report.html"
    res = CliRunner().invoke(app, ["report", str(thb_run.path), "--out", str(out),
                                   "--exact", "never", *RISK_ARGS])
    assert res.exit_code == 0, res.output
    return out.read_text()


class _Cells(HTMLParser):
    """Collect (data-key, data-value, visible text) of tagged cells and the embedded JSON."""

    def __init__(self):
        super().__init__()
        self.cells: dict[str, tuple[object, str]] = {}
        self._key = None
        self._text = ""
        self._in_script = False
        self.blob = ""
        self.images = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "td" and "data-key" in a:
            self._key, self._value, self._text = a["data-key"], json.loads(a["data-value"]), ""
        if tag == "script" and a.get("id") == "gpusim-report":
            self._in_script = True
        if tag == "img" and a.get("src", "").startswith("data:image/png;base64,"):
            self.images += 1

    def handle_endtag(self, tag):
        if tag == "td" and self._key is not None:
            self.cells[self._key] = (self._value, self._text)
            self._key = None
        if tag == "script":
            self._in_script = False

    def handle_data(self, data):
        if self._key is not None:
            self._text += data
        if self._in_script:
            self.blob += data


def _cli_json(*args) -> dict:
    res = CliRunner().invoke(app, list(args))
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def _pct(x: float) -> str:
    return f"{100 * x:.4f} %"


def test_html_numbers_equal_summary_and_risk(thb_run, html_report):
    p = _Cells()
    p.feed(html_report)
    embedded = json.loads(p.blob)
    summary = _cli_json("summary", str(thb_run.path), "--json")
    risk = _cli_json("risk", str(thb_run.path), "--json", *RISK_ARGS)
    # the visible main-game cells: value attribute and the text a reader sees
    for key in ("house_edge_per_ante", "element_of_risk", "total_bet_rtp", "ante_rtp"):
        value, text = p.cells[f"summary.main.{key}"]
        assert value == summary["main"][key]
        assert text == _pct(summary["main"][key])
    for bet, b in summary["bets"].items():
        value, text = p.cells[f"summary.bets.{bet}.rtp"]
        assert value == b["rtp"] and text == _pct(b["rtp"])
        assert p.cells[f"summary.bets.{bet}.wagered"][0] == b["wagered"]
        assert p.cells[f"summary.bets.{bet}.returned"][1] == f"{b['returned']:,}"
    # risk figures, visible and embedded
    for key in ("p_ahead", "p_behind", "p_even"):
        value, text = p.cells[f"risk.session.{key}"]
        assert value == risk["session"][key] and text == _pct(risk["session"][key])
    for pc, v in risk["session"]["percentiles"].items():
        assert p.cells[f"risk.session.percentiles.{pc}"][0] == v
    value, text = p.cells["risk.ruin.finite.estimate"]
    assert value == risk["ruin"]["finite"]["estimate"]
    assert text == _pct(risk["ruin"]["finite"]["estimate"])
    for i, b in enumerate(risk["ruin"]["bankroll_for_risk"]):
        assert p.cells[f"risk.ruin.bankroll_for_risk.{i}.bankroll"][0] == b["bankroll"]
    assert embedded["risk"]["ruin"] == risk["ruin"]
    assert embedded["risk"]["session"] == risk["session"]
    assert embedded["summary"]["bets"] == summary["bets"]
    assert embedded["summary"]["main"] == summary["main"]
    # six plots: convergence, net results by bet, hit frequency, sessions, ruin, jackpot
    assert p.images == 6
    assert "<script src" not in html_report and "<link" not in html_report  # self-contained


def test_return_tables_agree_with_wagers(thb_run, html_report):
    """Return tables come from the event counts, the summary from the wager sums: two paths."""
    p = _Cells()
    p.feed(html_report)
    rep = json.loads(p.blob)
    ev = thb_run.events().collect()
    for bet, t in rep["return_tables"].items():
        assert t["rounds"] == ROUNDS
        assert sum(r["count"] for r in t["rows"]) == ROUNDS
        assert t["placed"] == rep["summary"]["bets"][bet]["placed"]
        assert t["rtp"] == pytest.approx(rep["summary"]["bets"][bet]["rtp"], abs=1e-12)
        counted = ev.filter(pl.col("bet") == bet).group_by("event").agg(pl.col("count").sum())
        by_event = dict(counted.iter_rows())
        for r in t["rows"]:
            if r["stake"]:
                assert r["count"] == by_event.get(r["event"], 0)
    # rounds without the optional bet are filled in from the decisions taken
    dec = dict(((a, b), c) for a, b, c in thb_run.decisions().collect()
               .group_by(["point", "action"]).agg(pl.col("count").sum()).iter_rows())
    rows = {b: {r["event"]: r["count"] for r in t["rows"]} for b, t in rep["return_tables"].items()}
    assert rows["flop"]["fold"] == dec[("flop", "fold")] == rows["ante"]["fold"]
    for street in ("turn", "river"):
        assert rows[street]["check"] == dec[(street, "check")]
        assert rows[street]["fold"] == dec[("flop", "fold")]


def test_exact_side_bets_match_published_figures(html_report):
    """Bonus 91.46 % (the Icelandic rules); Jackpot: 4 royals in 2,598,960 hands, fixed prizes
    827,636 / 2,598,960, break-even meter 442,831, long-run RTP 81.84 %."""
    p = _Cells()
    p.feed(html_report)
    rep = json.loads(p.blob)
    bonus = rep["return_tables"]["bonus"]["exact"]
    assert bonus["source"] == "combinatorics"
    assert round(100 * bonus["rtp"], 2) == 91.46
    assert abs(bonus["z_rtp"]) < 4.5  # false-failure rate about 7e-6 for a random seed
    jp = rep["jackpot"]
    assert jp["p_hit_exact"] == pytest.approx(4 / 2_598_960, rel=1e-12)
    assert jp["fixed_prize_rtp_exact"] == pytest.approx(827_636 / 2_598_960, rel=1e-12)
    assert jp["break_even_meter"] == pytest.approx(442_831, abs=1e-6)
    assert round(100 * jp["long_run_rtp"], 2) == 81.84
    rows = {r["event"]: r for r in rep["return_tables"]["jackpot"]["rows"]}
    assert rows["full_house"]["exact_probability"] == pytest.approx(3744 / 2_598_960, rel=1e-12)
    # covariance matrix over the six bets, symmetric, variances = SD^2 of the summary
    cov = rep["volatility"]["covariance"]
    assert cov["names"] == ["ante", "flop", "turn", "river", "bonus", "jackpot"]
    for i, a in enumerate(cov["names"]):
        sd = rep["summary"]["bets"][a]["sd_per_round"]
        assert cov["covariance"][i][i] == pytest.approx(sd * sd, rel=1e-9)
        for j in range(i):
            assert cov["covariance"][i][j] == cov["covariance"][j][i]
    holds = rep["volatility"]["hold_ci95"]["main"]
    assert [h["rounds"] for h in holds] == [10 ** k for k in range(3, 10)]


@pytest.mark.parametrize("fmt", ["md", "json"])
def test_other_formats(thb_run, tmp_path, fmt):
    out = tmp_path / f"report.{fmt}"
    res = CliRunner().invoke(app, ["report", str(thb_run.path), "--out", str(out), "--exact",
                                   "never", "--rounds", "100", "--paths", "500"])
    assert res.exit_code == 0, res.output
    text = out.read_text()
    summary = thb_run.summary()
    if fmt == "json":
        rep = json.loads(text)
        assert rep["summary"]["main"] == summary["main"]
        assert rep["risk"]["session"]["rounds"] == 100
    else:
        assert text.startswith("# gpusim report")
        assert _pct(summary["main"]["house_edge_per_ante"]) in text


def test_partial_run_warns_and_uses_completed_chunks(thb_run, tmp_path):
    import shutil

    part = tmp_path / "partial"
    shutil.copytree(thb_run.path, part)
    mf = json.loads((part / "manifest.json").read_text())
    mf["chunks_done"] = mf["chunks_done"][:2]
    mf["status"] = "running"
    (part / "manifest.json").write_text(json.dumps(mf))
    out = tmp_path / "r.json"
    res = CliRunner().invoke(app, ["report", str(part), "--out", str(out), "--exact", "never",
                                   "--rounds", "50", "--paths", "200"])
    assert res.exit_code == 0, res.output
    assert "warning: run is unfinished (20,000 of 40,000 rounds)" in res.stderr
    rep = json.loads(out.read_text())
    assert rep["run"]["rounds"] == 20_000 and not rep["run"]["complete"]
    assert sum(r["count"] for r in rep["return_tables"]["ante"]["rows"]) == 20_000
    assert rep["warnings"]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--bankroll", "0"], "--bankroll"),
        (["--bankroll", "-5"], "--bankroll"),
        (["--format", "pdf"], "--format"),
        (["--exact", "sometimes"], "--exact"),
        (["--bet", "nope"], "--bet"),
    ],
)
def test_bad_input(thb_run, tmp_path, args, needle):
    out = tmp_path / "r.html"
    res = CliRunner().invoke(app, ["report", str(thb_run.path), "--out", str(out), "--exact",
                                   "never", "--paths", "100", *args])
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and needle in lines[0] and "Traceback" not in res.output
    assert not out.exists()


def test_missing_run_folder(tmp_path):
    res = CliRunner().invoke(app, ["report", str(tmp_path / "nope"), "--out",
                                   str(tmp_path / "r.html")])
    assert res.exit_code == 2
    assert res.output.count("\n") == 1 and "not a gpusim run folder" in res.output
    assert not Path(tmp_path / "r.html").exists()


def test_run_without_completed_chunks(thb_run, tmp_path):
    import shutil

    part = tmp_path / "empty"
    shutil.copytree(thb_run.path, part)
    mf = json.loads((part / "manifest.json").read_text())
    mf["chunks_done"] = []
    (part / "manifest.json").write_text(json.dumps(mf))
    res = CliRunner().invoke(app, ["report", str(part), "--out", str(tmp_path / "r.html")])
    assert res.exit_code == 2 and "no completed chunks" in res.output
    assert re.fullmatch(r"gpusim: error: [^\n]+\n", res.output)


def _at(obj, path: str):
    for part in path.split("."):
        obj = obj[int(part)] if isinstance(obj, list) else obj[part]
    return obj


def test_every_tagged_cell_is_in_the_embedded_json(html_report):
    p = _Cells()
    p.feed(html_report)
    rep = json.loads(p.blob)
    assert len(p.cells) > 100
    for key, (value, _text) in p.cells.items():
        assert _at(rep, key) == value, key


def _longest_list(obj) -> int:
    if isinstance(obj, dict):
        return max([_longest_list(v) for v in obj.values()] + [0])
    if isinstance(obj, list):
        return max([len(obj)] + [_longest_list(v) for v in obj])
    return 0


def test_embedded_json_holds_summaries_and_data_has_the_distributions(thb_run, tmp_path):
    out, data = tmp_path / "r.html", tmp_path / "data"
    res = CliRunner().invoke(app, ["report", str(thb_run.path), "--out", str(out), "--exact",
                                   "never", "--data", str(data), *RISK_ARGS])
    assert res.exit_code == 0, res.output
    p = _Cells()
    p.feed(out.read_text())
    rep = json.loads(p.blob)
    # a 300-round session of the whole round spans thousands of lattice points; the report
    # embeds quantiles and a 200-bin histogram (the Jackpot's meters: at most 2,000 hits)
    assert _longest_list(rep) <= 2000
    assert set(rep["sessions"]) == {"main", "total"}
    assert set(rep["net_distributions"]) == {"main", "bonus", "jackpot", "total"}
    sess = pl.read_parquet(data / "session_total.parquet")
    assert sess.height > 400 and sess["probability"].sum() == pytest.approx(1, abs=1e-9)
    cdf = sess["probability"].cum_sum().to_list()
    values = sess["value"].to_list()
    for q, v in rep["risk"]["session"]["percentiles"].items():
        first = next(i for i, c in enumerate(cdf) if c >= float(q) / 100 - 1e-12)
        assert values[first] == v, q
    main = pl.read_parquet(data / "session_main.parquet")
    assert main.select((pl.col("value") * pl.col("probability")).sum()).item() == \
        pytest.approx(rep["sessions"]["main"]["mean"], abs=1e-6)
    curve = pl.read_parquet(data / "ruin_curve.parquet")
    ruin = rep["risk"]["ruin"]
    row = curve.filter(pl.col("bankroll") == ruin["bankroll"]).row(0, named=True)
    assert (row["ruin_low"] + row["ruin_high"]) / 2 == pytest.approx(ruin["finite"]["estimate"],
                                                                     abs=1e-12)
    for b in ruin["bankroll_for_risk"]:
        at = curve.filter(pl.col("bankroll") == b["bankroll"])["ruin_high"].item()
        before = curve.filter(pl.col("bankroll") == b["bankroll"] - 1)["ruin_high"].item()
        assert at <= b["target"] < before
    # the embedded ruin curve is the Parquet one at fewer bankrolls
    emb = dict(zip(rep["ruin_curve"]["bankrolls"], rep["ruin_curve"]["ruin"], strict=True))
    full = {r["bankroll"]: (r["ruin_low"] + r["ruin_high"]) / 2
            for r in curve.iter_rows(named=True)}
    assert all(full[b] == pytest.approx(v, abs=1e-15) for b, v in emb.items())


def test_convergence_has_a_point_per_compute_batch(thb_run, html_report):
    p = _Cells()
    p.feed(html_report)
    conv = json.loads(p.blob)["convergence"]
    # 4 chunks of 10,000 rounds: one checkpoint each (batches are 2^18 rounds)
    assert conv["rounds"] == [10_000, 20_000, 30_000, 40_000]
    w = thb_run.wagers().collect().filter(pl.col("bet") == "main")
    assert conv["rtp"][-1] == w["returned"].sum() / w["wagered"].sum()


def test_convergence_checkpoints_inside_chunks(tmp_path, monkeypatch):
    from gpusim import run_figures
    from gpusim.compute import chunks

    monkeypatch.setattr(chunks, "CPU_BATCH", 3_000)
    run = gpusim.simulate("casino_holdem", rounds=20_000, seed=3, out=tmp_path / "r",
                          chunk=7_000, strategy="basic")
    conv = run_figures.convergence(run_figures.load_run_data(run), "main")
    # batches end on multiples of 3,000 and at each chunk's end
    assert conv["rounds"] == [3_000, 6_000, 7_000, 9_000, 12_000, 14_000, 15_000, 18_000,
                              20_000]
    w = run.wagers().collect().filter(pl.col("bet") == "main").sort("chunk")
    cum = w["returned"].cum_sum() / w["wagered"].cum_sum()
    assert [conv["rtp"][i] for i in (2, 5, 8)] == cum.to_list()


def test_par_sheet_of_a_run(thb_run, tmp_path):
    import openpyxl  # the dev extra installs it

    out = tmp_path / "par.xlsx"
    res = CliRunner().invoke(app, ["report", str(thb_run.path), "--out", str(out), "--exact",
                                   "never", "--rounds", "100", "--paths", "200"])
    assert res.exit_code == 0, res.output
    wb = openpyxl.load_workbook(out)
    assert wb.sheetnames == ["Summary", "ante", "flop", "turn", "river", "bonus", "jackpot"]
    summary = thb_run.summary()
    bets = pl.read_excel(out, sheet_name="Summary", table_name="bets", engine="openpyxl")
    for row in bets.iter_rows(named=True):
        assert row["rtp_simulated"] == pytest.approx(summary["bets"][row["bet"]]["rtp"],
                                                     abs=1e-12)
    bonus = {r["bet"]: r for r in bets.iter_rows(named=True)}["bonus"]
    assert round(100 * bonus["rtp_exact"], 2) == 91.46  # exact beside the simulated
    head = pl.read_excel(out, sheet_name="Summary", table_name="summary", engine="openpyxl")
    rows = {r["figure"]: r for r in head.iter_rows(named=True)}
    assert rows["house edge per ante"]["simulated"] == summary["main"]["house_edge_per_ante"]
    assert rows["config hash (sha256)"]["text"] == thb_run.manifest["config_hash"]
    assert rows["strategy"]["text"] == "basic"
    ante = pl.read_excel(out, sheet_name="ante", table_name="ante_paytable", engine="openpyxl")
    assert ante["count"].sum() == ROUNDS
    assert 1 + ante["contribution_per_round"].sum() == pytest.approx(
        summary["bets"]["ante"]["rtp"], abs=1e-12)
