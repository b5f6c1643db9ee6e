"""The numbered notebooks run top to bottom on small runs (nbclient, a fresh kernel each)."""

from __future__ import annotations

from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")


def test_all_four_notebooks_present():
    assert [p.stem for p in NOTEBOOKS] == ["01_quickstart", "02_paytable_design",
                                          "03_bankroll_and_risk", "04_exact_vs_simulation"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, tmp_path, monkeypatch):
    monkeypatch.setenv("GPUSIM_NB_ROUNDS", "20000")
    monkeypatch.setenv("GPUSIM_NB_EXACT", "never")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()  # raises CellExecutionError, naming the cell, on any failure
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors
    assert any(o.get("output_type") in ("execute_result", "display_data")
               for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
