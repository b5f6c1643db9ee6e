"""Every machine-read format carries its version (docs/formats.md): the ``gpusim play --json``
records, the run folder's manifest, the exact report (``gpusim exact --json`` and the shipped
reports) and the design result; the docs name each version's current value, and a shipped exact
report of an unknown version is refused with one line."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gpusim.cli import app
from gpusim.designer import FORMAT as DESIGN_FORMAT
from gpusim.exact.report import FORMAT as EXACT_FORMAT
from gpusim.games.play import FORMAT as PLAY_FORMAT
from gpusim.report.certify import FORMAT as CERTIFY_FORMAT
from gpusim.runs.runfolder import FORMAT as RUN_FORMAT

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
EXACT_DIR = ROOT / "gpusim" / "data" / "exact"

VERSIONS = {
    "gpusim.games.play.FORMAT": PLAY_FORMAT,
    "gpusim.runs.runfolder.FORMAT": RUN_FORMAT,
    "gpusim.exact.report.FORMAT": EXACT_FORMAT,
    "gpusim.designer.FORMAT": DESIGN_FORMAT,
    "gpusim.report.certify.FORMAT": CERTIFY_FORMAT,
}

runner = CliRunner()


def _run(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_versions_are_named_strings():
    assert PLAY_FORMAT == "gpusim-play/2"  # 1: booleans as decisions; 2: action names
    for name, value in VERSIONS.items():
        kind = value.split("/")[0]
        assert value.startswith("gpusim-") and value.split("/")[1].isdigit(), name
        assert kind.removeprefix("gpusim-") in name or kind == "gpusim-design", name


@pytest.mark.parametrize("config", ["ultimate_holdem"])  # the others: tests/test_cli_games.py
def test_play_records_start_with_the_version(config):
    r = _run("play", config, "--seed", "1", "--rounds", "0:3", "--strategy", "basic", "--json")
    assert r.exit_code == 0, r.output
    recs = [json.loads(line) for line in r.output.splitlines()]
    assert len(recs) == 3
    assert all(next(iter(rec)) == "format" and rec["format"] == PLAY_FORMAT for rec in recs)


def test_exact_json_and_every_shipped_report_carry_the_version():
    r = _run("exact", "casino_holdem", "--json")
    assert r.exit_code == 0, r.output
    rep = json.loads(r.stdout)
    assert next(iter(rep)) == "format" and rep["format"] == EXACT_FORMAT
    prov = json.loads((EXACT_DIR / "provenance.json").read_text())
    for name in prov:
        shipped = json.loads((EXACT_DIR / name).read_text())
        assert next(iter(shipped)) == "format" and shipped["format"] == EXACT_FORMAT, name


def test_exact_refuses_a_shipped_report_of_an_unknown_version(tmp_path, monkeypatch):
    import gpusim.exact.shipped as shipped

    d = tmp_path / "exact"
    shutil.copytree(EXACT_DIR, d)
    name = "casino_holdem.optimal.json"
    text = (d / name).read_text().replace(f'"format": "{EXACT_FORMAT}"',
                                          '"format": "gpusim-exact/99"', 1)
    (d / name).write_text(text)
    prov = json.loads((d / "provenance.json").read_text())
    prov[name]["sha256"] = hashlib.sha256(text.encode()).hexdigest()
    (d / "provenance.json").write_text(json.dumps(prov))
    monkeypatch.setattr(shipped, "EXACT_DIR", d)
    r = _run("exact", "casino_holdem", "--json")
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Traceback" not in r.output, r.output
    assert name in lines[0] and "gpusim-exact/99" in lines[0] and EXACT_FORMAT in lines[0]


def test_design_json_carries_the_version():
    r = _run("design", "holdem_bonus", "--bet", "bonus", "--rtp", "0.9:0.95",
             "--line", "TT_to_22=1:6", "--top", "2", "--json")
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    assert next(iter(res)) == "format" and res["format"] == DESIGN_FORMAT


def test_run_folder_manifest_carries_the_version(tmp_path):
    import gpusim

    gpusim.simulate("casino_holdem", rounds=20_000, seed=3, out=tmp_path / "run",
                    strategy="basic")
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert next(iter(manifest)) == "format" and manifest["format"] == RUN_FORMAT


def test_formats_doc_names_every_current_version():
    text = (DOCS / "formats.md").read_text()
    for name, value in VERSIONS.items():
        assert f"`{value}`" in text, value
        assert f"`{name}`" in text, name


def test_play_doc_examples_are_current():
    text = (DOCS / "play-jsonl.md").read_text()
    assert f'"format": "{PLAY_FORMAT}"' in text and "formats.md" in text
    blocks = text.split("```json\n")[1:]
    assert blocks
    for block in blocks:
        for line in block.split("```", 1)[0].splitlines():
            assert json.loads(line)["format"] == PLAY_FORMAT


def test_format_docs_name_only_what_exists():
    from _doc_paths import doc_problems

    for doc in ("formats.md", "play-jsonl.md"):
        assert doc_problems((DOCS / doc).read_text()) == [], doc
