"""The numbered notebooks run top to bottom on small runs (nbclient, a fresh kernel each, two
kernels at a time), and their committed outputs are those of that run: a reader who opens a
notebook without running it sees its tables and plots, and a notebook whose code changed without
re-running fails here.

"Stale" compares, cell by cell: the text outputs (stdout, results) exactly, after rounding
floats to 9 significant digits (FFT sums may differ in the last bits across CPUs); and the
number of PNG images. Image bytes are not compared (they vary with the matplotlib version).

Refresh the committed outputs after changing a notebook (or what it shows):
``python tests/test_notebooks.py --write``.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))
# the small run the committed outputs come from (and the tests repeat)
ENV = {"GPUSIM_NB_ROUNDS": "20000", "GPUSIM_NB_EXACT": "never"}

import nbclient  # noqa: E402 - the dev extra installs both
import nbformat  # noqa: E402

_FLOAT = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?")


def _norm(text: str) -> str:
    return _FLOAT.sub(lambda m: f"{float(m.group()):.9g}", text)


def signature(nb) -> list[list[tuple[str, str]]]:
    """Per code cell, its outputs as (kind, normalised text); images as ("image/png", "")."""
    out = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        sig = []
        for o in cell.get("outputs", []):
            t = o.get("output_type")
            if t == "stream":
                if o.get("name") == "stdout":
                    sig.append(("stdout", _norm(o["text"])))
            elif t in ("execute_result", "display_data"):
                data = o.get("data", {})
                if "image/png" in data:
                    sig.append(("image/png", ""))
                elif "text/plain" in data:
                    sig.append(("text", _norm(data["text/plain"])))
            elif t == "error":
                sig.append(("error", o.get("ename", "")))
        out.append(sig)
    return out


def _client(path: Path, workdir: Path):
    nb = nbformat.read(path, as_version=4)
    return nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                   resources={"metadata": {"path": str(workdir)}})


class _Env:
    """ENV set and MPLBACKEND unset while the kernels start (they inherit the environment)."""

    def __enter__(self):
        self.old = {k: os.environ.get(k) for k in [*ENV, "MPLBACKEND"]}
        os.environ.update(ENV)
        os.environ.pop("MPLBACKEND", None)  # the kernel's inline backend puts the plots in the file

    def __exit__(self, *exc):
        for k, v in self.old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def execute(path: Path, workdir: Path):
    """The notebook at ``path`` executed top to bottom in a fresh kernel inside ``workdir``."""
    client = _client(path, workdir)
    with _Env():
        client.execute()
    return client.nb


def execute_all(paths: list[Path], workdir: Path, width: int = 2) -> dict:
    """{path: the executed notebook, or the exception its execution raised}: each in a fresh
    kernel of its own, ``width`` kernels at a time (a kernel mostly keeps one core busy)."""
    import asyncio

    async def main():
        gate = asyncio.Semaphore(width)

        async def one(i, path):
            d = workdir / f"{i}"
            d.mkdir()
            client = _client(path, d)
            async with gate:
                try:
                    await client.async_execute()
                except Exception as exc:  # reported by that notebook's test
                    return exc
            return client.nb

        return await asyncio.gather(*(one(i, p) for i, p in enumerate(paths)))

    with _Env():
        done = asyncio.run(main())
    return dict(zip(paths, done, strict=True))


@pytest.fixture(scope="module")
def executed(tmp_path_factory) -> dict:
    return execute_all(NOTEBOOKS, tmp_path_factory.mktemp("notebooks"))


def test_all_notebooks_present():
    assert [p.stem for p in NOTEBOOKS] == ["01_quickstart", "02_paytable_design",
                                          "03_bankroll_and_risk", "04_exact_vs_simulation",
                                          "05_ultimate_holdem", "06_paytable_design",
                                          "07_describe_a_game"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_markdown_headings_render(path):
    nb = nbformat.read(path, as_version=4)
    md = [c.source for c in nb.cells if c.cell_type == "markdown"]
    assert md[0].startswith(f"# {path.stem[:2]} ")  # the title is a level-1 heading
    assert not [s for s in md if s.startswith("md")]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_and_committed_outputs_are_current(path, executed):
    committed = nbformat.read(path, as_version=4)
    assert all(c.get("execution_count") for c in committed.cells if c.cell_type == "code"), \
        f"{path.name}: committed without outputs; run python tests/test_notebooks.py --write"
    nb = executed[path]
    if isinstance(nb, BaseException):  # CellExecutionError names the cell
        raise nb
    fresh = signature(nb)
    assert not [s for cell in fresh for s in cell if s[0] == "error"]
    assert any(s[0] == "image/png" for cell in fresh for s in cell)  # at least one plot
    old = signature(committed)
    for i, (a, b) in enumerate(zip(old, fresh, strict=True)):
        assert a == b, (f"{path.name}: code cell {i} has stale outputs; run "
                        "python tests/test_notebooks.py --write")


def _write() -> None:
    for path in NOTEBOOKS:
        with tempfile.TemporaryDirectory() as d:
            nb = execute(path, Path(d))
        nbformat.write(nb, path)
        print(f"wrote {path}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_notebooks.py --write")
    _write()
