"""What a run does besides computing: JAX's import, the writer's preparation, the manifest's
text and the chunk size a resumed run keeps."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

import gpusim
from gpusim.compute.jax_import import _may_be_plugin
from gpusim.runs.runfolder import _json_text
from gpusim.runs.writer import BackgroundWriter


class _Dist:
    def __init__(self, folder: str):
        self._path = Path("/site-packages") / folder


def test_only_distributions_that_may_be_a_rocm_plugin_are_read():
    assert _may_be_plugin(_Dist("jax_rocm7_plugin-0.6.0.dist-info"))
    assert _may_be_plugin(_Dist("jax-rocm60-plugin-0.4.30.dist-info"))
    assert _may_be_plugin(object())  # no folder known: read as JAX would
    for other in ("numpy-2.4.6.dist-info", "jax-0.10.2.dist-info", "jaxlib-0.10.2.dist-info",
                  "jax_cuda13_plugin-0.10.2.dist-info"):
        assert not _may_be_plugin(_Dist(other)), other


def test_import_jax_leaves_the_metadata_functions_as_they_were():
    import importlib.metadata as metadata

    from gpusim.compute.jax_import import import_jax

    before = metadata.distributions
    jax = import_jax()
    assert metadata.distributions is before
    assert jax.numpy.arange(4).sum() == 6


def test_writer_prepares_on_its_thread_before_the_first_item():
    seen = []

    def prepare():
        seen.append(("prepare", threading.get_ident()))

    with BackgroundWriter(lambda item: seen.append((item, threading.get_ident())),
                          prepare=prepare) as w:
        w.submit(1)
    assert [s[0] for s in seen] == ["prepare", 1]
    assert seen[0][1] == seen[1][1] != threading.get_ident()


def test_writer_preparation_error_is_raised_in_the_caller_and_nothing_is_written():
    seen = []

    def prepare():
        raise ImportError("no encoder")

    with pytest.raises(ImportError, match="no encoder"):
        with BackgroundWriter(seen.append, prepare=prepare) as w:
            w.submit(1)
    assert seen == []


def test_manifest_text_has_a_chunk_a_line_and_reads_back_the_same():
    rec = {"chunk": 0, "n_rounds": 5, "files": {"outcomes": {"file": "outcomes/part-000000.parquet",
                                                             "sha256": "ab", "rows": 3}}}
    manifest = {"format": "gpusim-run/1", "config": {"name": "x", "pays": [1, 2]},
                "chunks_done": [rec, {**rec, "chunk": 1}], "status": "running"}
    text = _json_text(manifest)
    assert json.loads(text) == manifest
    lines = text.splitlines()
    assert sum(ln.startswith('    {"chunk": ') for ln in lines) == 2
    for empty in ({**manifest, "chunks_done": []}, {"format": "x"}):
        assert json.loads(_json_text(empty)) == empty
        assert _json_text(empty) == json.dumps(empty, indent=2) + "\n"


def test_resume_without_chunk_keeps_the_chunk_size_the_run_started_with(tmp_path):
    out = tmp_path / "run"
    args = dict(rounds=40_000, seed=5, out=out, strategy="basic", backend="jax-cpu")
    whole = gpusim.simulate("casino_holdem", chunk=10_000, **{**args, "out": tmp_path / "ref"})
    first = gpusim.simulate("casino_holdem", chunk=10_000, **args)
    m = json.loads((out / "manifest.json").read_text())
    m["chunks_done"] = m["chunks_done"][:2]  # as if stopped after two chunks
    m["status"] = "interrupted"
    (out / "manifest.json").write_text(json.dumps(m))
    del first
    run = gpusim.simulate("casino_holdem", resume=True, **args)
    assert run.manifest["chunk_rounds"] == 10_000 and len(run.manifest["chunks_done"]) == 4
    assert run.summary()["bets"] == whole.summary()["bets"]


def test_programs_preloaded_on_another_thread_count_the_same():
    from gpusim.compute.chunks import ChunkRunner
    from gpusim.config import load_config
    from gpusim.games import spec_for
    from gpusim.games.strategy_registry import get_strategy

    rules = load_config("casino_holdem")
    meter = spec_for(rules).start_meter(rules)
    loaded = ChunkRunner(rules, get_strategy("basic", rules))
    loaded.preload(0, 50_000)
    assert loaded._loading is not None
    got = loaded(11, 0, 50_000, meter)
    assert loaded._loading is None
    want = ChunkRunner(rules, get_strategy("basic", rules))(11, 0, 50_000, meter)
    assert got == want


@pytest.mark.parametrize("extra", [[], ["--rounds", "0"]])
def test_simulate_command_leaves_the_garbage_collector_as_it_found_it(tmp_path, extra):
    import gc

    from typer.testing import CliRunner

    from gpusim.cli import app

    res = CliRunner().invoke(app, ["simulate", "casino_holdem", "--rounds", "3000", "--seed", "1",
                                   "--strategy", "basic", "--backend", "jax-cpu", "--quiet",
                                   "--out", str(tmp_path / "run"), *extra])
    assert res.exit_code == (2 if extra else 0), res.output
    assert gc.isenabled() and gc.get_freeze_count() == 0
