"""`gpusim simulate --ray` on a local 2-CPU Ray cluster: the counts equal a single-process run,
and a worker killed in the middle of its shard is retried without counting a round twice.

`ray` comes with the `dev` extra (through `gpusim[ray]`): a missing one fails, it does not skip.
"""

from __future__ import annotations

import json
import os
import re
import signal
from pathlib import Path

import pytest
import ray  # noqa: E402 - the dev extra installs gpusim[ray]
from _batch_runs import THB, single, tables, tmp, use_jax_cache  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

import gpusim  # noqa: E402
from gpusim.cli import app  # noqa: E402
from gpusim.runs.ray_driver import simulate_ray  # noqa: E402
from gpusim.runs.runner import Progress  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:os.fork\\(\\) was called:RuntimeWarning")


@pytest.fixture(scope="module", autouse=True)
def cluster():
    from gpusim.runs.ray_watchdog import TOKEN, descendants, sweep

    use_jax_cache()  # before ray.init: the workers inherit the cache settings
    token = os.environ[TOKEN] = f"tests-{os.getpid()}"
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    yield
    known = descendants(os.getpid())
    ray.shutdown()
    sweep(token, known)  # Ray's agents can outlive ray.shutdown()


@pytest.fixture(scope="module")
def thb_single(cluster):
    """The single run of the Jackpot case, made before any Ray task: it compiles its batch
    programs once, into the session's compile cache, and the Ray workers of both tests load
    them from there instead of each compiling them again on a 2-core machine (compiling is most
    of these tests' time; a batch size it did not compile only costs time, never a result)."""
    return single(**THB)


def test_ray_run_equals_the_single_run(thb_single):
    out = tmp("ray-thb")
    res = CliRunner().invoke(app, [
        "simulate", "holdem_bonus", "--rounds", str(THB["rounds"]), "--seed", str(THB["seed"]),
        "--chunk", str(THB["rounds"] // 6), "--out", str(out), "--quiet", "--ray",
    ])
    assert res.exit_code == 0, res.output
    run = gpusim.open_run(out)
    m = run.manifest
    assert m["ray"]["shards"] == 2 and m["ray"]["cpus"] == 2 and m["ray"]["gpus"] == 0
    assert m["status"] == "complete" and run.complete
    # shards [0, 300000) and [300000, 600000): royals in both, the meter carried into shard 1
    assert tables(run) == tables(thb_single)
    assert CliRunner().invoke(app, ["verify", str(out)]).exit_code == 0


def test_ray_runs_a_game_described_in_a_file_of_its_own():
    """A game no config ships, described in the user's own file: each Ray worker builds the
    game from the description the rules carry, and the counts equal a single run's."""
    text = (Path(__file__).resolve().parents[1] / "configs" / "mississippi_stud.toml").read_text()
    path = tmp("ray-described") / "stud_variant.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text.replace('name = "mississippi_stud"', 'name = "stud_variant"'))
    out = tmp("ray-described") / "run"
    res = CliRunner().invoke(app, ["simulate", str(path), "--rounds", "120000", "--seed", "4",
                                   "--chunk", "20000", "--out", str(out), "--quiet", "--ray"])
    assert res.exit_code == 0, res.output
    run = gpusim.open_run(out)
    assert run.manifest["ray"]["shards"] == 2 and run.complete
    ref = gpusim.simulate(str(path), rounds=120_000, seed=4, chunk=20_000, backend="jax-cpu",
                          out=tmp("ray-described") / "single")
    assert tables(run) == tables(ref)


def _running_shard_pids() -> list[int]:
    import psutil

    pids = []
    for p in psutil.process_iter(["pid", "cmdline"]):
        cmd = " ".join(p.info["cmdline"] or [])
        if cmd.startswith("ray::_run_shard"):
            pids.append(p.info["pid"])
    return pids


def test_a_killed_worker_is_retried_and_counts_stay_identical(thb_single):
    killed: list[int] = []

    def kill_one(n: int) -> None:
        # called on the driver whenever the shards report rounds done: kill a worker that is
        # in the middle of its shard (once)
        if not killed:
            for pid in _running_shard_pids():
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
                break

    # the Jackpot case's game in chunks of 2^16 rounds: a size its single run compiled (its
    # rounds [200000, 262144), dealt at 2^16), so the workers load it from the cache; 12
    # chunks a shard, 11 of them left when the first progress is reported
    chunk = 1 << 16
    # a fast machine may finish a shard between two polls: then try again with more rounds
    # (more chunks of the same size: nothing new to compile)
    for rounds in (24 * chunk, 96 * chunk, 384 * chunk, 1536 * chunk):
        out = tmp(f"ray-fault-{rounds}")
        run = simulate_ray("holdem_bonus", address=None, rounds=rounds, seed=9, out=out,
                           chunk=chunk, shards=2, progress=Progress(advance=kill_one))
        if killed:
            break
    assert killed, "no shard was running when progress was reported"
    attempts = run.manifest["ray"]["attempts"]
    assert sorted(attempts.values()) == [1, 2], attempts
    ref = gpusim.simulate("holdem_bonus", rounds=rounds, seed=9, chunk=chunk,
                          out=tmp(f"single-fault-{rounds}"), backend="jax-cpu")
    assert tables(run) == tables(ref)
    done = json.loads((out / "manifest.json").read_text())["chunks_done"]
    assert sum(r["n_rounds"] for r in done) == rounds and len(done) == rounds // chunk


_NO_GPUSIM_IN_WORKERS = """
import os, sys
if any("default_worker.py" in a for a in sys.argv):  # a Ray worker, as on a node without gpusim
    sys.stderr.write("ModuleNotFoundError: No module named 'gpusim'\\n")
    sys.stderr.flush()
    os._exit(1)
"""


@pytest.fixture(scope="module", autouse=True)
def workers_cannot_start(cluster, tmp_path_factory):
    """A `--ray local` run whose workers cannot import gpusim, started when the module starts:
    most of its time is the 20 s it waits for a worker, which the other tests' counting fills.
    Yields (process, start time, the mark in its environment)."""
    import subprocess
    import sys
    import time
    import uuid

    tmp = tmp_path_factory.mktemp("no-gpusim")
    site = tmp / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(_NO_GPUSIM_IN_WORKERS)
    mark = uuid.uuid4().hex
    # the driver ignores PYTHONPATH (-E); the local cluster it starts, workers included, does not
    env = {**os.environ, "PYTHONPATH": str(site), "GPUSIM_TEST_MARK": mark}
    env.pop("RAY_ADDRESS", None)
    t0 = time.time()
    proc = subprocess.Popen(
        [sys.executable, "-E", "-m", "gpusim", "simulate", "casino_holdem", "--rounds", "1000",
         "--out", str(tmp / "run"), "--ray", "local", "--ray-timeout", "20", "--quiet"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    yield proc, t0, mark
    if proc.poll() is None:
        proc.kill()
        proc.communicate()


def test_workers_that_cannot_start_fail_in_bounded_time_and_leave_no_ray_process(
        workers_cannot_start):
    import time

    import psutil

    proc, t0, mark = workers_cannot_start
    _, stderr = proc.communicate(timeout=max(1.0, 170 - (time.time() - t0)))
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    # ended by the watchdog with SIGALRM: a shell reports exit status 142 (128 + 14)
    assert proc.returncode == -signal.SIGALRM, stderr[-2000:]
    assert len(lines) == 1, stderr[-2000:]
    assert lines[0].startswith("gpusim: error: --ray: Ray did not start within 20 s: Ray workers "
                               "failed to start: ModuleNotFoundError: No module named 'gpusim'")

    def ours(p) -> bool:
        # what that run's cluster started: Ray's agents carry neither its environment nor
        # a command line of their own, so also any Ray process born since the run began
        # that is not this test process's (the module's cluster)
        try:
            if p.status() == psutil.STATUS_ZOMBIE or p.pid in mine:
                return False
            if p.environ().get("GPUSIM_TEST_MARK") == mark:
                return True
            cmd = " ".join(p.cmdline()) + " " + p.name()
            return p.create_time() >= t0 - 1 and re.search(r"ray::|raylet|gcs_server|/ray/", cmd)
        except psutil.Error:
            return False

    for _ in range(2):  # and none appears a moment later
        mine = {p.pid for p in psutil.Process().children(recursive=True)}
        left = [p for p in psutil.process_iter() if ours(p)]
        assert not left, [(p.pid, p.name()) for p in left]
        time.sleep(1)
