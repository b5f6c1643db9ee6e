"""Property-based fuzzing of the space of described games (docs/describe-a-game.md).

Valid configs are drawn from the whole vocabulary (tests/_description_strategies.py), written as
TOML and put through the command line in-process: ``games --check``, ``play --json``, a short
``simulate``, ``summary``, ``report``, ``risk``, ``whatif``, ``exact`` and ``certify``. Each
command works (exit 0) or refuses in one line with exit code 2; a simulated run's per-bet
totals equal the sums of ``play --json``'s records for the same seed and rounds.

Invalid configs (a valid one with one mistake: a key removed, a value out of range or of the
wrong type, an unknown key, a reference to a hand, bet, paytable, point, action or strategy that
is not there) are refused by every command that reads a config in one line that names the key
path, with exit code 2, and nothing is written.

The unmarked tests draw few games (each costs its JAX compiles and an exact solve) with a fixed
seed: six games through every command and forty mistakes (under 90 s on two cores); ``-m slow``
draws 25 larger games (up to about 10^7 deals for the solver, pays up to 1,000,000) and 300
mistakes, with random seeds. ``FUZZ_TIMES=<file>`` appends each command's seconds, exit code
and refusal to that file.

Every game drawn stays small enough for the exact solver (``games --check`` plays ``optimal``,
which solves it): seven player cards with no board, or a five-card board seen whole, are not
drawn.
"""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import pytest
from _description_strategies import configs, mutations, to_toml
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from gpusim.cli import app

runner = CliRunner()
QUICK = settings(max_examples=6, deadline=None, derandomize=True, database=None,
                 phases=[Phase.generate], suppress_health_check=list(HealthCheck))
QUICK_INVALID = settings(max_examples=40, deadline=None, derandomize=True, database=None,
                         phases=[Phase.generate], suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=25, deadline=None, database=None,
                derandomize=bool(os.environ.get("CI")),
                phases=[Phase.explicit, Phase.generate],
                suppress_health_check=list(HealthCheck))
"""Random seeds, no shrinking (each shrink step costs a game's compiles and solves): a failure
prints the drawn config whole; tests/test_fuzz_regressions.py keeps each one found, cut down.
Under CI (``CI`` set) the seed is fixed: a submission is judged on what it changed, and a new
find of a random draw is a developer's `make test-slow` to make, not a red build."""
ROUNDS = 2000

WIDE_PAY = 100_000
"""A config paying this much or more on some line (the slow tests draw such pays): ``risk`` and
``report`` build the per-round distribution on a dense lattice as wide as the largest win
(hundreds of millions of points, gigabytes, minutes), so they are not run on it until that is
coarsened up front (gpusim.stats)."""


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory, monkeypatch):
    """Exact counts of drawn games go to a folder of this session, not the user's cache."""
    monkeypatch.setenv("GPUSIM_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "exact-cache"))


def _cli(*args):
    import os
    import time

    t = time.perf_counter()
    r = runner.invoke(app, [str(a) for a in args])
    if os.environ.get("FUZZ_TIMES"):
        with open(os.environ["FUZZ_TIMES"], "a") as f:
            f.write(f"{time.perf_counter() - t:7.2f} {args[0]} {r.exit_code} "
                    f"{r.stderr.strip().splitlines()[-1][:300] if r.exit_code else ''}\n")
    return r


def _failure(r, what: str) -> str:
    out = (f"{what}: exit {r.exit_code}\n--- stdout\n{r.stdout[-3000:]}\n--- stderr\n"
           f"{r.stderr[-3000:]}")
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        import traceback

        out += "\n--- exception\n" + "".join(traceback.format_exception(r.exception))[-4000:]
    return out


def _errors(r) -> list[str]:
    return [ln for ln in r.stderr.splitlines() if ln.startswith("gpusim: error")]


def _works_or_refuses(r, what: str) -> bool:
    """True when the command worked; False when it refused in one line with exit code 2; a
    failed assertion otherwise (a traceback, another exit code, several error lines)."""
    assert r.exception is None or isinstance(r.exception, SystemExit), _failure(r, what)
    assert "Traceback" not in r.output, _failure(r, what)
    if r.exit_code == 0:
        return True
    assert r.exit_code == 2, _failure(r, what)
    errors = _errors(r)
    assert len(errors) == 1 and r.stderr.strip().endswith(errors[0]), _failure(r, what)
    assert "\n" not in errors[0]
    return False


def _pay_of(value) -> float:
    """A config's pay (``30`` or ``"3:2"``) as a number."""
    if isinstance(value, str):
        a, b = value.split(":")
        return int(a) / int(b)
    return value


def _records(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def _check_records(records: list[dict], doc: dict, first: int, n: int) -> None:
    game = doc["game"]
    points = {p["name"]: {a["name"] for a in p["actions"]} for p in game["decisions"]}
    assert [r["round"] for r in records] == list(range(first, first + n))
    for rec in records:
        assert rec["format"] == "gpusim-play/2"
        assert set(rec["bets"]) <= set(game["bets"]), rec
        assert rec["net"] == sum(b["net"] for b in rec["bets"].values()), rec
        for point, action in rec["decisions"].items():
            assert action in points[point], rec
        assert len(rec["player"]) == game["cards"]["player"]
        assert len(rec.get("dealer", [])) == game["cards"].get("dealer", 0)
        assert len(rec.get("board", [])) == sum(game["cards"].get("streets", []))
        cards = rec["player"] + rec.get("dealer", []) + rec.get("board", [])
        assert len(set(cards)) == len(cards), rec
        for b in rec["bets"].values():
            assert b["stake"] > 0 and b["net"] >= -b["stake"], rec


def _totals(records: list[dict], skip_net: set[str]) -> dict:
    out: dict = {}
    for rec in records:
        for name, b in rec["bets"].items():
            t = out.setdefault(name, {"placed": 0, "wagered": 0, "net": 0})
            t["placed"] += 1
            t["wagered"] += b["stake"]
            t["net"] += b["net"]
    for name in skip_net:
        out.get(name, {}).pop("net", None)
    return out


def run_everything(doc: dict, folder: Path, seed: int = 11) -> None:
    """Every command on the config ``doc``: each works or refuses in one line; the simulated
    totals are the play records'."""
    text = to_toml(doc)
    assert tomllib.loads(text) == doc
    cfg = folder / f"{doc['game']['name']}.toml"
    cfg.write_text(text)
    what = f"config:\n{text}\ncommand"
    r = _cli("games", "--check", cfg)
    # the config is valid: it is read, and the game conforms
    assert r.exit_code == 0 and "conforms" in r.stdout, _failure(r, f"{what} games --check")

    r = _cli("play", cfg, "--seed", seed, "--rounds", f"0:{ROUNDS}", "--json")
    if not _works_or_refuses(r, f"{what} play"):
        return
    records = _records(r.stdout)
    _check_records(records, doc, 0, ROUNDS)

    run = folder / "run"
    r = _cli("simulate", cfg, "--rounds", ROUNDS, "--chunk", ROUNDS // 2, "--seed", seed,
             "--out", run, "--quiet", "--backend", "jax-cpu")
    assert _works_or_refuses(r, f"{what} simulate"), _failure(r, f"{what} simulate")
    summary = json.loads((run / "summary.json").read_text())
    meter = doc["game"].get("meter", {}).get("bet")
    skip = {meter} if meter and doc.get("jackpot", {}).get("contribution_bp") else set()
    want = _totals(records, skip)
    got = {b: {k: v for k, v in s.items() if k in want[b]} for b, s in summary["bets"].items()
           if b in want}
    assert got == want, f"{what} simulate: run totals {got} != play records {want}"
    for b, s in summary["bets"].items():
        if b not in ("main", "total") and b not in want:
            assert s["placed"] == 0, (b, s)
    assert summary["bets"]["total"]["placed"] == ROUNDS
    if not skip:
        assert summary["bets"]["total"]["net"] == sum(rec["net"] for rec in records)

    r = _cli("summary", run, "--json")
    if _works_or_refuses(r, f"{what} summary"):
        again = json.loads(r.stdout)
        assert {b: s["net"] for b, s in again["bets"].items()} == {
            b: s["net"] for b, s in summary["bets"].items()}

    wide = any(_pay_of(v) >= WIDE_PAY for t in doc.get("paytables", {}).values()
               for v in t.values())
    if not wide:
        r = _cli("report", run, "--out", folder / "report.json", "--paths", 500, "--rounds", 50)
        if _works_or_refuses(r, f"{what} report"):
            json.loads((folder / "report.json").read_text())
        r = _cli("report", run, "--out", folder / "report.md", "--paths", 500, "--rounds", 50)
        if _works_or_refuses(r, f"{what} report md"):
            assert (folder / "report.md").read_text().strip()
        r = _cli("risk", run, "--json", "--paths", 500, "--rounds", 50, "--bankroll", 50)
        if _works_or_refuses(r, f"{what} risk"):
            json.loads(r.stdout)

    from gpusim.config import load_config, paytable_lines

    lines = paytable_lines(load_config(str(cfg)))
    placed = [b for b in sorted(lines) if want.get(b, {}).get("placed")]
    if placed:
        bet = placed[0]
        r = _cli("whatif", run, "--set", f"{bet}.{lines[bet][0]}=7", "--json")
        if _works_or_refuses(r, f"{what} whatif"):
            json.loads(r.stdout)

    out = folder / "exact.json"
    r = _cli("exact", cfg, "--json", "--out", out)
    if _works_or_refuses(r, f"{what} exact"):
        report = json.loads(r.stdout)
        assert json.loads(out.read_text()) == report
        assert set(report["bets"]) >= {b for b in want}, report["bets"].keys()
        if report.get("strategy") == summary.get("strategy") and not wide:
            _agrees(report, summary, f"{what} exact")
    else:
        assert not out.exists()
    r = _cli("exact", cfg, "--json", "--strategy", "rule-0")
    _works_or_refuses(r, f"{what} exact --strategy rule-0")
    pack = folder / "pack.html"
    r = _cli("certify", cfg, "--out", pack, "--format", "html")
    if _works_or_refuses(r, f"{what} certify"):
        assert pack.stat().st_size > 0
    else:
        assert not pack.exists()


def _agrees(report: dict, summary: dict, what: str) -> None:
    """Each bet's exact return (the solver counts every deal, in NumPy) within a wide band
    around the simulated one (the JAX settlement): four times the run's 95 % interval and a
    point, so chance never fails it and a bet settled otherwise by the two does."""
    for bet, s in summary["bets"].items():
        ex = report["bets"].get(bet, {}).get("rtp")
        if ex is None or s["placed"] < 200 or s.get("rtp") is None:
            continue
        lo, hi = s["rtp_ci95"]
        slack = 4 * (hi - lo) / 2 + 0.01
        assert s["rtp"] - slack <= ex <= s["rtp"] + slack, (
            f"{what}: bet {bet!r} exact RTP {ex} but simulated {s['rtp']} [{lo}, {hi}]")


def refused_everywhere(doc: dict, path: str, folder: Path) -> None:
    """Every command that reads the config refuses it in one line naming ``path``, exit 2,
    writing nothing."""
    text = to_toml(doc)
    cfg = folder / "bad.toml"
    cfg.write_text(text)
    before = sorted(folder.iterdir())
    what = f"config ({path}):\n{text}\ncommand"
    for args in (("games", "--check", cfg),
                 ("play", cfg, "--seed", 1, "--rounds", "0:2", "--json"),
                 ("simulate", cfg, "--rounds", 100, "--out", folder / "run", "--quiet"),
                 ("exact", cfg, "--out", folder / "exact.json"),
                 ("certify", cfg, "--out", folder / "pack.html", "--format", "html")):
        r = _cli(*args)
        assert not _works_or_refuses(r, f"{what} {args[0]}"), _failure(r, f"{what} {args[0]}")
        line = _errors(r)[0]
        assert f"'{path}" in line or f"'{path}." in line or f"'{path}[" in line, (
            f"{what} {args[0]}: the refusal does not name {path!r}: {line}")
        assert r.stdout == ""
        after = sorted(folder.iterdir())
        assert after == before, f"{what} {args[0]} wrote {after}"


@QUICK
@given(doc=configs())
def test_drawn_games_through_every_command(tmp_path_factory, doc):
    run_everything(doc, tmp_path_factory.mktemp("game"))


@QUICK_INVALID
@given(data=st.data())
def test_invalid_descriptions_refused_in_one_line(tmp_path_factory, data):
    doc = data.draw(configs())
    bad, path, _ = data.draw(mutations(doc))
    refused_everywhere(bad, path, tmp_path_factory.mktemp("bad"))


@pytest.mark.slow
@SLOW
@given(doc=configs(limit=30_000_000, big_pays=True))
def test_drawn_games_through_every_command_many(tmp_path_factory, doc):
    run_everything(doc, tmp_path_factory.mktemp("game"))


@pytest.mark.slow
@settings(SLOW, max_examples=300)
@given(data=st.data())
def test_invalid_descriptions_refused_in_one_line_many(tmp_path_factory, data):
    doc = data.draw(configs(limit=30_000_000, big_pays=True))
    bad, path, _ = data.draw(mutations(doc))
    refused_everywhere(bad, path, tmp_path_factory.mktemp("bad"))
