"""A watchdog process for a local Ray cluster, and the reading of Ray's worker logs for a cause.

When Ray's workers cannot start (a memory limit, a node without the package or with the wrong
Python), ``ray.init`` of a local cluster blocks inside Ray's C++ start-up holding the GIL (no
thread, timer or signal handler of the driver runs again), or Ray aborts the driver from C++
(no ``finally`` runs, and Ray's agents and idle workers outlive it). So a separate small process
(this module: ``python -m gpusim.runs.ray_watchdog DRIVER_PID TIMEOUT SINCE TOKEN``) watches the
driver for the whole run:

- it waits for "ok" on its stdin (Ray is up). If none comes within TIMEOUT seconds, it prints
  one line with the cause found in the workers' logs, ends the driver with SIGALRM (exit status
  142, "timer expired", distinct from the 143 of SIGTERM that Slurm reads as a preemption and
  the 137 of an out-of-memory kill) and then every process of the cluster;
- when its stdin closes while the driver still runs, the driver has shut its cluster down
  itself; when the driver has died, it ends what is left of the cluster.

The cluster's processes are the driver's descendants (seen every second while it lives) and
the processes whose environment carries the run's ``GPUSIM_RAY_RUN`` token (Ray passes the
driver's environment to the workers it starts), so orphans are found too and nothing else is
touched. Imports nothing heavy (no JAX, no Ray).
"""

from __future__ import annotations

import re
import select
import signal
import sys
from pathlib import Path

__all__ = ["TOKEN", "cluster_processes", "descendants", "end", "stall_cause", "sweep", "watch",
           "worker_failure"]

TOKEN = "GPUSIM_RAY_RUN"

_CRITICAL = re.compile(r"^\[[^\]]* [CF] \d+ \d+\] (\S+:\d+): (.+)$")
_PY_ERROR = re.compile(r"^(\w+(?:Error|Exception)): (.+)$")
_LOG_DIR = re.compile(r"--log[s_-]dir=(\S+)")


def worker_failure(logs: Path, since: float) -> str | None:
    """The first fatal line in the logs of Ray's workers (and raylet) written since ``since``
    (epoch seconds), and how many logs hold one: ``mmap failed (shared_memory.cc:46) (in 4 log
    file(s))``; None when there is none."""
    first, n = None, 0  # the first cause, and how many logs hold one
    files = [f for pat in ("worker-*.err", "python-core-worker-*.log", "raylet.err")
             for f in logs.glob(pat)]
    for f in sorted(files, key=lambda f: f.stat().st_mtime):
        if f.stat().st_mtime < since - 1:
            continue  # another run's worker on a shared cluster
        for line in f.read_text(errors="replace").splitlines():
            if m := _CRITICAL.match(line.strip()):
                text = f"{m.group(2)} ({m.group(1)})"
            elif m := _PY_ERROR.match(line.strip()):
                text = f"{m.group(1)}: {m.group(2)}"
            else:
                continue
            n += 1
            first = first or text
            break
    return None if first is None else f"{first} (in {n} log file(s))"


def stall_cause(logs: Path | None, since: float, head: str, situation: str | None) -> str:
    """One line: what did not happen (``head``), and why, read from the workers' logs."""
    found = worker_failure(logs, since) if logs is not None else None
    where = f"; see {logs}" if logs is not None else ""
    if found:
        return f"{head}: Ray workers failed to start: {found}{where}"
    return f"{head}{f' ({situation})' if situation else ''}{where}"


def cluster_processes(token: str) -> list:
    """Live processes started for the run with this ``GPUSIM_RAY_RUN`` token (self excluded)."""
    import os

    import psutil

    out = []
    for p in psutil.process_iter():
        try:
            if p.pid != os.getpid() and p.status() != psutil.STATUS_ZOMBIE and \
                    p.environ().get(TOKEN) == token:
                out.append(p)
        except psutil.Error:
            continue
    return out


def _alive(p) -> bool:
    import os

    import psutil

    try:
        return p.pid != os.getpid() and p.is_running() and p.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def descendants(pid: int) -> list:
    """The live descendants of process ``pid`` (empty if it is gone)."""
    import psutil

    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []


def end(procs: list) -> None:
    """SIGKILL each process (by pid, checked against its start time) and reap what we can."""
    import psutil

    for p in procs:
        try:
            p.kill()
        except psutil.Error:
            pass
    psutil.wait_procs(procs, timeout=5)


def sweep(token: str, known: list | tuple = ()) -> None:
    """End the run's cluster until two looks in a row, half a second apart, find nothing: a
    raylet being killed may still fork an agent. ``known``: processes seen as the driver's
    descendants earlier (Ray starts its agents without the driver's environment)."""
    import time

    quiet = 0
    for _ in range(40):
        procs = cluster_processes(token) + [p for p in known if _alive(p)]
        if procs:
            end(procs)
            quiet = 0
        else:
            quiet += 1
            if quiet == 2:
                return
        time.sleep(0.5)


def _logs_of(procs: list) -> Path | None:
    import psutil

    for p in procs:
        try:
            m = _LOG_DIR.search(" ".join(p.cmdline()))
        except psutil.Error:
            continue
        if m:
            return Path(m.group(1))
    return None


def watch(driver: int, timeout: float, since: float, token: str) -> int:
    import time

    import psutil

    try:
        proc = psutil.Process(driver)
    except psutil.Error:
        return 0
    deadline, started = time.monotonic() + timeout, False
    known: dict = {}  # the driver's descendants seen so far: they are orphans once it dies
    while True:
        known.update((p.pid, p) for p in descendants(driver) if _alive(p))
        wait = 1.0 if started else max(0.0, min(1.0, deadline - time.monotonic()))
        ready, _, _ = select.select([sys.stdin], [], [], wait)
        if ready:
            line = sys.stdin.readline()
            if line.strip() == "ok":
                started = True
                continue
            if line == "":  # the driver closed the pipe, or died
                if not proc.is_running() or proc.status() == psutil.STATUS_ZOMBIE:
                    sweep(token, list(known.values()))
                return 0
        if not started and time.monotonic() >= deadline:
            procs = cluster_processes(token)
            cause = stall_cause(_logs_of(procs), since,
                                f"Ray did not start within {timeout:g} s", None)
            print(f"gpusim: error: --ray: {cause}", file=sys.stderr, flush=True)
            # the driver first: ending its cluster first would let it print Ray's own errors
            try:
                proc.send_signal(signal.SIGALRM)
                proc.wait(5)
            except psutil.TimeoutExpired:
                proc.kill()
            except psutil.Error:
                pass
            sweep(token, list(known.values()))
            return 0


if __name__ == "__main__":
    sys.exit(watch(int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]))
