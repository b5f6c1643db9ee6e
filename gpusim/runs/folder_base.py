"""What a run folder (:mod:`gpusim.runs.runfolder`) and its writer's lock
(:mod:`gpusim.runs.lock`) share, in the module below both so that neither imports the other."""

from __future__ import annotations

import datetime as _dt

__all__ = ["LOCK_FILE", "RunFolderError", "now_iso"]

LOCK_FILE = ".gpusim.lock"
"""The writer's lock file (:mod:`gpusim.runs.lock`); not part of the run's data."""


class RunFolderError(ValueError):
    """A run folder that cannot be created, opened or resumed; the message is one line."""


def now_iso() -> str:
    """The current UTC time, to the second, as the manifest and the lock file record it."""
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
