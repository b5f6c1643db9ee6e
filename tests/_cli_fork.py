"""Many ``python -m gpusim ...`` processes for the price of one start-up.

One interpreter imports the command line once, then forks a child per case: the child changes to
the case's folder, points its file descriptors 1 and 2 at files, runs ``gpusim.__main__`` as
``python -m gpusim`` does and exits with the code an interpreter would give. Each case is still
its own process (exit code, stdout, stderr, signals, no state shared with the other cases); only
the import of the command line, most of a bad-input case's time, is paid once.
``gpusim.cli`` imports nothing threaded (tests/test_cli_startup.py checks that JAX, Polars and
matplotlib stay out), so forking after it is safe; a child imports what its command needs.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

_SERVER = r"""
import json, os, runpy, sys, traceback

import gpusim.cli  # noqa: F401  the start-up every child would otherwise repeat

jobs, width = json.loads(sys.stdin.read()), int(sys.argv[1])
HEAVY = ("jax", "polars", "matplotlib")


def child(job):
    code = 1
    try:
        os.chdir(job["cwd"])
        for fd, name in ((1, "stdout"), (2, "stderr")):
            f = os.open(job[name], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(f, fd)
            os.close(f)
        sys.argv = ["gpusim", *job["args"]]
        try:
            runpy.run_module("gpusim", run_name="__main__", alter_sys=True)
            code = 0
        except SystemExit as e:  # as the interpreter maps it
            if e.code is None:
                code = 0
            elif isinstance(e.code, int):
                code = e.code
            else:
                print(e.code, file=sys.stderr)
        except BaseException:
            traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        try:
            with open(job["modules"], "w") as f:
                json.dump([m for m in HEAVY if m in sys.modules], f)
        except Exception:
            pass
        os._exit(code & 0xFF)


running, codes, todo = {}, {}, list(enumerate(jobs))
sys.stdout.flush()
sys.stderr.flush()
while todo or running:
    while todo and len(running) < width:
        i, job = todo.pop(0)
        pid = os.fork()
        if pid == 0:
            child(job)
        running[pid] = i
    pid, status = os.wait()
    codes[running.pop(pid)] = os.waitstatus_to_exitcode(status)
print(json.dumps([codes[i] for i in range(len(jobs))]))
"""


@dataclass
class Result:
    """What ``subprocess.run(..., capture_output=True, text=True)`` would give for one case."""

    returncode: int
    stdout: str
    stderr: str
    heavy: tuple[str, ...] = ()
    """Which of JAX, Polars and matplotlib the process had imported when it ended."""


def run_cli_cases(cases: list[tuple[list[str], Path]], logs: Path, env: dict,
                  width: int = 4) -> list[Result]:
    """Run ``python -m gpusim *args`` in ``cwd`` for each ``(args, cwd)``, ``width`` at a time;
    ``logs`` (outside every ``cwd``) receives the output files. Results in the cases' order."""
    logs.mkdir(parents=True, exist_ok=True)
    jobs = [{"args": list(args), "cwd": str(cwd), "stdout": str(logs / f"{i}.out"),
             "stderr": str(logs / f"{i}.err"), "modules": str(logs / f"{i}.modules")}
            for i, (args, cwd) in enumerate(cases)]
    res = subprocess.run([sys.executable, "-c", _SERVER, str(width)], input=json.dumps(jobs),
                         env=env, capture_output=True, text=True, timeout=900)
    assert res.returncode == 0, res.stderr[-2000:]
    codes = json.loads(res.stdout.splitlines()[-1])
    return [Result(code, Path(j["stdout"]).read_text(), Path(j["stderr"]).read_text(),
                   tuple(json.loads(Path(j["modules"]).read_text())))
            for code, j in zip(codes, jobs, strict=True)]
