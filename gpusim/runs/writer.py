"""A background writer: finished chunks are written and committed on one thread, in order.

The simulation loop hands each finished chunk to :class:`BackgroundWriter` and goes on to
compute the next one, so Parquet encoding, fsync and the manifest update overlap the compute
instead of following it. Crash safety is unchanged: the writer runs the same atomic
write-then-commit (:meth:`gpusim.runs.runfolder.RunFolder.write_parts`, ``commit_chunk``) one
chunk at a time in chunk order, so the manifest only ever lists finished chunks, in order. At
most ``max_pending`` finished chunks wait in memory; together with the one being computed they
are what a kill can lose, and ``--resume`` recomputes them.

An error on the writer thread is raised again in the caller at its next :meth:`submit` or at
:meth:`close`; after an error nothing more is written.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["BackgroundWriter"]

_STOP = object()


class BackgroundWriter:
    """Run ``write(item)`` for each submitted item on one background thread, in order.

    ``prepare``, if given, runs first on that thread (what the first write would otherwise
    wait for, such as an import, done while the caller computes its first item).

    Use as a context manager: leaving the block normally waits for every item and re-raises a
    writer error; leaving it with an exception drops the items not yet started (they were never
    committed) and waits only for the one in progress, so no part is left half-written.
    """

    def __init__(self, write: Callable[[Any], None], *, max_pending: int = 2,
                 prepare: Callable[[], None] | None = None):
        if max_pending < 1:
            raise ValueError(f"max_pending: got {max_pending}; must be at least 1")
        self._write = write
        self._prepare = prepare
        self._queue: queue.Queue = queue.Queue(maxsize=max_pending)
        self._error: BaseException | None = None
        self._abort = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="gpusim-writer", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        if self._prepare is not None:
            try:
                self._prepare()
            except BaseException as exc:  # re-raised in the caller's thread
                self._error = exc
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            if self._error is not None or self._abort.is_set():
                continue  # drain without writing: later chunks must not follow a failed one
            try:
                self._write(item)
            except BaseException as exc:  # re-raised in the caller's thread
                self._error = exc

    def _raise_error(self) -> None:
        if self._error is not None:
            err, self._error = self._error, None
            self._abort.set()
            raise err

    def submit(self, item: Any) -> None:
        """Queue one item; blocks while ``max_pending`` items wait."""
        self._raise_error()
        while True:
            try:
                self._queue.put(item, timeout=0.1)
                return
            except queue.Full:
                # the writer may have failed while we wait: do not block forever on it
                self._raise_error()
                if not self._thread.is_alive():
                    raise RuntimeError("the background writer stopped unexpectedly") from None

    def close(self) -> None:
        """Wait for every queued item to be written; re-raise a writer error."""
        if self._thread.is_alive():
            self._queue.put(_STOP)
            self._thread.join()
        self._raise_error()

    def abort(self) -> None:
        """Drop queued items and wait for the one in progress."""
        self._abort.set()
        if self._thread.is_alive():
            while True:  # empty the queue so the stop marker fits
                try:
                    self._queue.get_nowait()
                except queue.Empty:
                    break
            self._queue.put(_STOP)
            self._thread.join()

    def __enter__(self) -> BackgroundWriter:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.close()
        else:
            self.abort()
