"""What a run folder (:mod:`gpusim.runs.runfolder`) and its writer's lock
(:mod:`gpusim.runs.lock`) share, in the module below both so that neither imports the other."""

from __future__ import annotations

import datetime as _dt
import re

__all__ = ["LOCK_FILE", "RunFolderError", "now_iso"]

LOCK_FILE = ".gpusim.lock"
"""The writer's lock file (:mod:`gpusim.runs.lock`); not part of the run's data."""


class RunFolderError(ValueError):
    """A run folder that cannot be created, opened or resumed; the message is one line.

    The message names the settings as the command line spells them (``--out``, ``--resume``,
    ``--force``); :meth:`for_python` is the same error as :func:`gpusim.simulate`'s caller
    passes them (``out``, ``resume=True``, ``force=True``), which is how ``gpusim.simulate``
    raises it.
    """

    _PYTHON = {"--out": "out", "--resume": "resume=True", "--force": "force=True"}

    def for_python(self) -> RunFolderError:
        """This error with its message in the Python API's spelling (quoted text, such as a
        path, is left as it is)."""
        parts = re.split(r"('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")", str(self))
        flag = re.compile(r"(?<![\w-])--(out|resume|force)(?![\w-])")
        text = "".join(part if i % 2 else flag.sub(lambda m: self._PYTHON[m.group(0)], part)
                       for i, part in enumerate(parts))
        return type(self)(text)


def now_iso() -> str:
    """The current UTC time, to the second, as the manifest and the lock file record it."""
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
