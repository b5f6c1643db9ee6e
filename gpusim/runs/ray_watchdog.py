"""A watchdog process for ``ray.init``, and the reading of Ray's worker logs for a cause.

When Ray's workers cannot start (a memory limit, a node without the package or with the wrong
Python), ``ray.init`` of a local cluster blocks inside Ray's C++ start-up holding the GIL: no
thread, timer or signal handler of the driver runs again. So a separate small process (this
module, ``python -m gpusim.runs.ray_watchdog DRIVER_PID TIMEOUT SINCE``) waits for the driver
to say "ok" on its stdin. If it does not within TIMEOUT seconds, the watchdog prints one line
with the cause found in the workers' logs, kills every process the driver started (the Ray
cluster) and then the driver with SIGALRM: exit status 142, "timer expired", distinct from the
143 of a SIGTERM (which Slurm reads as a preemption) and the 137 of an out-of-memory kill.

Imports nothing heavy (no JAX, no Ray): it starts in a fraction of a second.
"""

from __future__ import annotations

import re
import select
import signal
import sys
from pathlib import Path

__all__ = ["stall_cause", "watch", "worker_failure"]

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


def watch(driver: int, timeout: float, since: float) -> int:
    """Wait for "ok" from the driver; on time-out report, kill its cluster and the driver."""
    import psutil

    ready, _, _ = select.select([sys.stdin], [], [], timeout)
    if ready:
        return 0  # "ok", or EOF: the driver went on or ended by itself
    try:
        proc = psutil.Process(driver)
        procs = [p for p in proc.children(recursive=True) if p.pid != psutil.Process().pid]
    except psutil.Error:
        return 0
    logs = None
    for p in procs:
        try:
            m = _LOG_DIR.search(" ".join(p.cmdline()))
        except psutil.Error:
            continue
        if m:
            logs = Path(m.group(1))
            break
    cause = stall_cause(logs, since, f"Ray did not start within {timeout:g} s", None)
    print(f"gpusim: error: --ray: {cause}", file=sys.stderr, flush=True)
    # the driver first: killing its cluster first would let it print Ray's own errors
    try:
        proc.send_signal(signal.SIGALRM)
        proc.wait(5)
    except psutil.TimeoutExpired:
        proc.kill()
    except psutil.Error:
        pass
    for p in procs:
        try:
            p.kill()
        except psutil.Error:
            pass
    psutil.wait_procs(procs, timeout=5)
    return 0


if __name__ == "__main__":
    sys.exit(watch(int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])))
