"""Progress as plain lines, for batch logs: what a progress bar shows, one line every N seconds.

A job's stderr is a file, where a live bar prints nothing useful. :class:`ProgressLog` prints
``gpusim: simulate: 41,943,040 of 200,000,000 rounds (21.0 %), 8.4 M rounds/s, ETA 0:00:19``
every ``every`` seconds from a daemon thread (so a stalled run still prints, its rate falling),
and once more when it stops. The rate counts only this session's work (a resumed run's earlier
rounds are not in it). Used by ``simulate`` and ``merge`` (rounds) and by the exact solvers'
progress helper (board classes).
"""

from __future__ import annotations

import sys
import threading
import time
from typing import TextIO

__all__ = ["DEFAULT_EVERY", "ProgressLog", "default_every", "format_duration",
           "set_default_every"]

DEFAULT_EVERY = 30.0
_every = DEFAULT_EVERY


def set_default_every(seconds: float) -> None:
    """The interval of logs made without an explicit one (the ``--log-every`` of a command)."""
    global _every
    _every = float(seconds)


def default_every() -> float:
    return _every


def format_duration(s: float) -> str:
    s = int(round(s))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


def _rate(r: float) -> str:
    for scale, suffix in ((1e9, " G"), (1e6, " M"), (1e3, " k")):
        if r >= scale:
            return f"{r / scale:.3g}{suffix}"
    return f"{r:.3g}"


class ProgressLog:
    """Thread-safe counters and a printer thread. ``every <= 0`` prints only the last line."""

    def __init__(self, label: str, unit: str = "rounds", every: float | None = None,
                 stream: TextIO | None = None):
        self.label, self.unit = label, unit
        self.every = default_every() if every is None else every
        self.stream = stream
        self.total = self.done = self.at_start = 0
        self._t0: float | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- the runner's callbacks -------------------------------------------------------------

    def start(self, total: int, done: int = 0) -> None:
        with self._lock:
            self.total, self.done, self.at_start = total, done, done
            self._t0 = time.monotonic()
        if self.every > 0 and self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="gpusim-progress-log",
                                            daemon=True)
            self._thread.start()

    def advance(self, n: int) -> None:
        with self._lock:
            self.done += n

    def update(self, done: int, total: int) -> None:
        """Absolute form (the exact solvers report done and total); starts on first call."""
        if self._t0 is None:
            self.start(total, 0)
        with self._lock:
            self.done, self.total = done, total

    def stop(self) -> None:
        """Print the last line (if started) and end the printer thread."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        if self._t0 is not None:
            self._print()
            self._t0 = None

    # -- printing ---------------------------------------------------------------------------

    def line(self) -> str:
        with self._lock:
            done, total, fresh = self.done, self.total, self.done - self.at_start
            elapsed = time.monotonic() - (self._t0 or time.monotonic())
        rate = fresh / elapsed if elapsed > 0 else 0.0
        pct = f"{100 * done / total:.1f} %" if total else "- %"
        left = max(total - done, 0)
        eta = format_duration(left / rate) if rate > 0 else ("0:00:00" if not left else "-")
        unit = f" {self.unit}" if self.unit else ""
        return (f"gpusim: {self.label}: {done:,} of {total:,}{unit} ({pct}), "
                f"{_rate(rate)} {self.unit or 'items'}/s, ETA {eta}, "
                f"elapsed {format_duration(elapsed)}")

    def _print(self) -> None:
        stream = self.stream or sys.stderr
        try:
            print(self.line(), file=stream, flush=True)
        except (OSError, ValueError):
            pass  # a closed log must not stop the run

    def _loop(self) -> None:
        while not self._stop.wait(self.every):
            self._print()
