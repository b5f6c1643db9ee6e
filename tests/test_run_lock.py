"""Batch-job behaviour that needs no cluster: one writer per run folder (the lock, a stale lock
of a killed writer, readers told the folder is still being written) and progress as plain
lines when stderr is not a terminal (simulate, merge, the exact solvers' helper)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys

from _batch_runs import CH, shard, single
from typer.testing import CliRunner

from gpusim.cli import app
from gpusim.runs.lock import LOCK_FILE, RunLock, lock_holder

runner = CliRunner()
LINE = re.compile(r"^gpusim: (\w+): ([\d,]+) of ([\d,]+) (rounds|classes) \(([\d.]+) %\), "
                  r"[\d.]+ ?[kMG]? \w+/s, ETA [\d:-]+, elapsed [\d:]+$")


def _one_line_exit_2(res, *needles: str) -> str:
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("gpusim: error: "), res.output
    for n in needles:
        assert n in lines[0], lines[0]
    return lines[0]


def _ch_args(out, *extra: str) -> list[str]:
    return ["simulate", CH["config"], "--rounds", str(CH["rounds"]), "--seed", str(CH["seed"]),
            "--chunk", str(CH["rounds"] // 6), "--backend", "jax-cpu", "--out", str(out), *extra]


def test_a_second_writer_exits_2_naming_the_first(tmp_path):
    out = tmp_path / "run"
    shutil.copytree(single(**CH).path, out)
    before = sorted(p.name for p in out.rglob("*"))
    holder = f"pid {os.getpid()} on host {socket.gethostname()}"
    with RunLock(out):
        for extra in ([], ["--resume"], ["--force"]):
            _one_line_exit_2(runner.invoke(app, _ch_args(out, "--quiet", *extra)),
                             "--out", "being written by", holder)
        parts = [str(shard(**CH, index=i, count=3).path) for i in range(3)]
        _one_line_exit_2(runner.invoke(app, ["merge", *parts, "--out", str(out), "--force"]),
                         "--out", "being written by", holder)
        # nothing of the run was touched
        assert sorted(p.name for p in out.rglob("*")) == sorted([*before, LOCK_FILE])
    assert not (out / LOCK_FILE).exists()


def test_a_killed_writers_lock_blocks_nothing_and_readers_see_a_live_one(tmp_path):
    out = tmp_path / "run"
    shutil.copytree(single(**CH).path, out)
    hold = ("import sys, time; from gpusim.runs.lock import RunLock; RunLock(sys.argv[1]); "
            "print('locked', flush=True); time.sleep(300)")
    proc = subprocess.Popen([sys.executable, "-c", hold, str(out)], stdout=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout.readline().strip() == "locked"
        assert lock_holder(out)["pid"] == proc.pid
        for cmd in (["verify", str(out)], ["summary", str(out)]):
            res = runner.invoke(app, cmd)
            assert f"still being written by pid {proc.pid} on host" in res.output, res.output
        _one_line_exit_2(runner.invoke(app, _ch_args(out, "--quiet", "--resume")),
                         f"pid {proc.pid}")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    # the file stays, the kernel's lock went with the process
    assert (out / LOCK_FILE).exists() and lock_holder(out) is None
    res = runner.invoke(app, ["verify", str(out)])
    assert res.exit_code == 0 and "still being written" not in res.output, res.output
    res = runner.invoke(app, _ch_args(out, "--quiet", "--resume"))
    assert res.exit_code == 0, res.output
    assert not (out / LOCK_FILE).exists()


def test_progress_lines_when_stderr_is_not_a_terminal(tmp_path):
    # CliRunner's stderr is not a terminal, as in a batch job's log
    res = runner.invoke(app, _ch_args(tmp_path / "run", "--log-every", "0.001"))
    assert res.exit_code == 0, res.output
    lines = [m.groups() for ln in res.output.splitlines() if (m := LINE.match(ln))]
    assert len(lines) >= 2, res.output
    assert all(g[0] == "simulate" and g[2] == "60,000" for g in lines)
    assert lines[-1][1:3] == ("60,000", "60,000") and lines[-1][4] == "100.0"
    assert "simulating" not in res.output  # the terminal bar is not drawn into a log
    quiet = runner.invoke(app, _ch_args(tmp_path / "quiet", "--quiet"))
    assert quiet.exit_code == 0 and not LINE.search(quiet.output)
    parts = [str(shard(**CH, index=i, count=3).path) for i in range(3)]
    res = runner.invoke(app, ["merge", *parts, "--out", str(tmp_path / "m"), "--log-every", "0"])
    assert res.exit_code == 0, res.output
    merged = [m.groups() for ln in res.output.splitlines() if (m := LINE.match(ln))]
    assert merged[-1][:3] == ("merge", "60,000", "60,000"), res.output


def test_exact_progress_helper_prints_lines_into_a_log(capsys):
    from gpusim.exact.cache import progress_bar

    update, stop = progress_bar("Casino Hold'em: flop classes")
    update(5, 20)
    stop()
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("gpusim: Casino Hold'em: flop classes: 5 of 20 "
                                                "classes (25.0 %), "), err


def test_bad_log_every_and_ray_timeout_are_one_line_errors(tmp_path):
    _one_line_exit_2(runner.invoke(app, _ch_args(tmp_path / "r", "--log-every", "-1")),
                     "--log-every", "-1")
    _one_line_exit_2(runner.invoke(app, _ch_args(tmp_path / "r", "--ray", "--ray-timeout", "0")),
                     "--ray-timeout")
    assert not (tmp_path / "r").exists()


def test_a_ray_run_that_stops_moving_fails_naming_the_cause(tmp_path):
    import time
    import types

    import pytest

    from gpusim.runs.ray_driver import _Watch
    from gpusim.runs.ray_watchdog import worker_failure
    from gpusim.runs.runner import SimulationError

    # the cause is read from the workers' logs (Ray's fatal-line format)
    (tmp_path / "worker-ab-ffff-7.err").write_text(
        "noise\n[2026-12-01 11:32:40,430 C 4920 4920] shared_memory.cc:46: mmap failed\n")
    (tmp_path / "raylet.err").write_text("[2026-12-01 11:32:40,000 E 1 1] x.cc:1: not fatal\n")
    assert worker_failure(tmp_path, since=0) == \
        "mmap failed (shared_memory.cc:46) (in 1 log file(s))"
    assert worker_failure(tmp_path, since=time.time() + 60) is None  # an older run's logs

    # the progress actor answers with the same state: no shard moves, so the run fails
    class Ref:
        pass

    states = iter([{"done": 0, "attempts": {}}, {"done": 5, "attempts": {0: 1}}]
                  + [{"done": 5, "attempts": {0: 1}}] * 1000)
    ray = types.SimpleNamespace(wait=lambda refs, timeout: (refs, []),
                                get=lambda ref: next(states),
                                exceptions=types.SimpleNamespace(RayError=RuntimeError))
    tracker = types.SimpleNamespace(state=types.SimpleNamespace(remote=Ref))
    watch = _Watch(ray, tracker, timeout=0.3, since=time.monotonic())
    assert watch.poll(False, "1 of 2 shards unfinished")["done"] == 0
    assert watch.poll(False, "1 of 2 shards unfinished")["done"] == 5  # moved: clock restarts
    with pytest.raises(SimulationError, match=r"^--ray: no shard started or advanced for 0\.3 s "
                                              r"\(1 of 2 shards unfinished\)"):
        while True:
            watch.poll(False, "1 of 2 shards unfinished")
            time.sleep(0.01)
