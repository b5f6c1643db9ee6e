"""A fast start-up: the package and the command line load nothing heavy until a command needs it,
and ``gpusim.deal`` / ``gpusim.evaluate`` stay the functions whatever is imported first.

Each check runs in a fresh interpreter, since what a process has already imported is the point.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

HEAVY = ("jax", "polars", "matplotlib")


def _python(code: str) -> str:
    res = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                         text=True, timeout=300, env={**os.environ, "JAX_PLATFORMS": "cpu"})
    assert res.returncode == 0, res.stderr[-2000:]
    return res.stdout.strip()


def test_submodule_imported_first_does_not_shadow_the_function():
    out = _python("""
        import types
        import gpusim.dealing
        import gpusim.evaluator
        import gpusim
        from gpusim.dealing import deal
        from gpusim.evaluator import evaluate
        assert gpusim.deal is deal and gpusim.evaluate is evaluate
        from gpusim import deal as d, evaluate as e
        assert d is deal and e is evaluate
        assert not isinstance(gpusim.deal, types.ModuleType)
        print("ok")
    """)
    assert out == "ok"


def test_function_first_then_submodule_keeps_the_function():
    out = _python("""
        import sys
        import gpusim
        from gpusim import deal, evaluate
        # the last one imports the evaluator too
        import gpusim.dealing, gpusim.evaluator, gpusim.exact.boards
        assert gpusim.deal is deal is sys.modules["gpusim.dealing"].deal
        assert gpusim.evaluate is evaluate is sys.modules["gpusim.evaluator"].evaluate
        gpusim.other = 1  # other attributes set as usual
        assert gpusim.other == 1
        assert gpusim.cards.parse_card("As") == 51 and gpusim.rng.threefry2x32
        print("ok")
    """)
    assert out == "ok"


@pytest.mark.parametrize("argv", [
    ["--help"],
    ["--version"],
    ["simulate", "--help"],
    ["simulate", "--bogus"],
    ["simulate", "--seed", "abc"],
    ["simulate", "--ray", "--shard", "0/2"],
    ["risk", "run", "--bankroll", "0"],
    ["report", "run", "--format", "pdf"],
    ["whatif", "run"],
    ["bench", "evaluator", "--hands", "0"],
], ids=" ".join)
def test_cheap_paths_import_nothing_heavy(argv):
    out = _python(f"""
        import sys
        sys.argv = ["gpusim", *{argv!r}]
        from gpusim.cli import main
        try:
            main()
        except SystemExit:
            pass
        print("loaded:", *sorted(m for m in {HEAVY!r} if m in sys.modules))
    """)
    assert out.splitlines()[-1] == "loaded:", out


def test_a_finished_command_skips_teardown_but_not_exit_handlers(tmp_path):
    """A successful command with JAX loaded ends by os._exit (interpreter teardown costs
    ~0.3 s), after the exit handlers have run and the output is flushed; the run is whole."""
    marker = tmp_path / "handler-ran"
    out = tmp_path / "run"
    res = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(f"""
            import atexit, sys
            atexit.register(lambda: open({str(marker)!r}, "w").write("yes"))
            sys.argv = ["gpusim", "simulate", "casino_holdem", "--rounds", "3000",
                        "--seed", "3", "--out", {str(out)!r}]
            from gpusim.cli import main
            try:
                main()
            finally:
                print("not reached: main() ends the process itself")
        """)],
        capture_output=True, text=True, timeout=300, env={**os.environ, "JAX_PLATFORMS": "cpu"},
    )
    assert res.returncode == 0, res.stderr[-2000:]
    assert "not reached" not in res.stdout
    assert "House edge" in res.stdout or "house edge" in res.stdout.lower()  # summary flushed
    assert marker.read_text() == "yes"
    import gpusim

    run = gpusim.open_run(out)
    assert run.rounds_done == 3000 and (out / "summary.json").is_file()
