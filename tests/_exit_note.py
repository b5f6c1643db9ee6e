"""A task for a solve's worker pool that leaves an exit handler behind
(``tests/test_exact.py``); only the standard library, so that a worker imports little."""

from __future__ import annotations

import atexit
import os


def note_exit(path: str) -> int:
    """Register an exit handler that appends a line to ``path`` and prints one without a
    newline (left in the output buffer); return this process's id."""

    def at_exit() -> None:
        with open(path, "a") as f:
            f.write(f"exit handler ran in {os.getpid()}\n")
        print("a line an exit handler leaves unflushed", end="")

    atexit.register(at_exit)
    return os.getpid()
