"""`gpusim exact --backend`: the choice reaches the count solvers, a missing GPU fails in one
line, and (GPU only) the CuPy counts equal the CPU solver's."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from gpusim.cli import app
from gpusim.config import load_config
from gpusim.exact import cupy_counts as xb
from gpusim.exact.cache import count_solver
from gpusim.games import spec_for
from gpusim.games.holdem import call_once_cupy as ch_cupy
from gpusim.games.holdem import streets_cupy as thb_cupy
from gpusim.games.spec import load

runner = CliRunner()


def _err_lines(result) -> list[str]:
    text = result.stderr if result.stderr_bytes is not None else result.output
    return [line for line in text.splitlines() if line.strip()]


@pytest.mark.skipif(xb.unavailable_reason() is None, reason="a GPU is usable here")
def test_cupy_without_gpu_is_one_line_exit_2(tmp_path):
    out = tmp_path / "r.json"
    result = runner.invoke(app, ["exact", "holdem_bonus", "--backend", "cupy", "--out", str(out)])
    assert result.exit_code == 2
    lines = _err_lines(result)
    assert len(lines) == 1, lines
    assert "--backend cupy" in lines[0] and "no usable GPU" in lines[0]
    assert xb.unavailable_reason() in lines[0]
    assert not out.exists()


def test_reason_is_named(monkeypatch):
    """Whatever the machine, the line carries the reason the check gives."""
    monkeypatch.setattr(xb, "unavailable_reason", lambda: "CuPy sees no CUDA device")
    result = runner.invoke(app, ["exact", "casino_holdem", "--backend", "cupy"])
    assert result.exit_code == 2
    assert _err_lines(result) == [
        "gpusim: error: --backend cupy: no usable GPU: CuPy sees no CUDA device; "
        "use --backend cpu"
    ]


def test_unknown_backend_is_one_line_exit_2():
    result = runner.invoke(app, ["exact", "casino_holdem", "--backend", "tpu"])
    assert result.exit_code == 2
    lines = _err_lines(result)
    assert len(lines) == 1
    assert "--backend" in lines[0] and "'tpu'" in lines[0] and "cpu, cupy" in lines[0]


def test_help_lists_backend():
    result = runner.invoke(app, ["exact", "--help"])
    assert result.exit_code == 0 and "--backend" in result.output


def test_reason_is_one_line_or_none():
    why = xb.unavailable_reason()
    assert why is None or (why and "\n" not in why)


@pytest.mark.skipif(xb.unavailable_reason() is None, reason="a GPU is usable here")
def test_solvers_refuse_without_gpu():
    with pytest.raises(RuntimeError, match="exact cupy backend"):
        thb_cupy.solve_river_cupy(4, board_ids=np.array([0]))
    with pytest.raises(RuntimeError, match="exact cupy backend"):
        ch_cupy.solve_counts_cupy(0, flop_ids=np.array([0]))


def test_backend_choice_reaches_the_solver(monkeypatch, tmp_path):
    """``backend="cupy"`` computes uncached counts with the CuPy solver (stood in for here by
    the CPU solver on one class) and caches them as the CPU path does."""
    from gpusim.games.holdem.streets_counts import solve_river

    monkeypatch.setenv("GPUSIM_CACHE_DIR", str(tmp_path))
    calls = []

    def fake(ante_from, *, progress=None):
        calls.append(ante_from)
        return solve_river(ante_from, board_ids=np.array([0]))

    monkeypatch.setattr(thb_cupy, "solve_river_cupy", fake)
    rules = load_config("holdem_bonus")
    solver = load(spec_for(rules).exact_solver)  # the described game's (streets_described.py)
    r = solver.counts(rules, progress=False, backend="cupy")
    assert calls == [4] and r.W[0].any() and not r.W[1:].any()
    again = solver.counts(rules, progress=False, backend="cupy")  # from the cache
    assert calls == [4] and np.array_equal(again.W, r.W)
    with pytest.raises(ValueError, match="backend 'tpu'"):
        count_solver(solve_river, lambda: fake, "tpu")


# --- on a GPU ----------------------------------------------------------------------------------


@pytest.mark.gpu
@pytest.mark.skipif(xb.unavailable_reason() is not None, reason="needs CuPy and an NVIDIA GPU")
def test_cupy_river_counts_equal_cpu():
    from gpusim.games.holdem.streets_counts import solve_river

    ids = np.random.default_rng(5).choice(16_432, 40, replace=False)
    got = thb_cupy.solve_river_cupy(4, board_ids=ids)
    want = solve_river(4, board_ids=ids)
    for name in ("W", "L", "WX", "valid", "class_wins", "class_ties", "class_losses",
                 "class_hands"):
        assert np.array_equal(getattr(got, name), getattr(want, name)), name


@pytest.mark.gpu
@pytest.mark.skipif(xb.unavailable_reason() is not None, reason="needs CuPy and an NVIDIA GPU")
def test_cupy_ch_counts_equal_cpu():
    from _call_once import qualifier_rank, solve_counts

    q = qualifier_rank(load_config("casino_holdem"))
    ids = np.array([0, 7, 900, 1754])
    got = ch_cupy.solve_counts_cupy(q, flop_ids=ids)
    want = solve_counts(q, flop_ids=ids)
    for name in ("counts", "valid", "bonus_rank"):
        assert np.array_equal(getattr(got, name), getattr(want, name)), name
