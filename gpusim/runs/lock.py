"""One writer per run folder: an OS lock (``flock``) on ``RUN/.gpusim.lock`` held while writing.

``simulate`` (fresh, ``--resume``, ``--force``, ``--ray``) and ``merge --out`` take the lock
before they touch the folder and keep it until they return; a second writer gets a one-line
:class:`RunLockedError` naming the holder's host and pid. The lock is the kernel's, not the
file's existence: it goes away with its process, however that process ended, so a lock file left
by a killed run blocks nothing. ``flock`` locks are per open file, so a second writer in the same
process is refused too; on NFS, Linux maps ``flock`` onto the server's byte-range locks.

Readers (``verify``, ``summary``, ``report``) ask :func:`lock_holder` whether a folder is being
written; the check takes a shared lock for an instant, so a writer that starts at that very
moment retries for a short while before it gives up.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
import time
from pathlib import Path

from gpusim.runs.folder_base import LOCK_FILE, RunFolderError, now_iso

__all__ = ["LOCK_FILE", "RunLock", "RunLockedError", "holder_text", "lock_holder",
           "refuse_if_locked"]

_RETRY_S = 2.0


class RunLockedError(RunFolderError):
    """The run folder is held by another writer; the message is one line naming it."""


def holder_text(info: dict) -> str:
    """``pid 1234 on host node07 (since 2026-12-01T11:00:00+00:00)``."""
    since = f" (since {info['since']})" if info.get("since") else ""
    return f"pid {info.get('pid', '?')} on host {info.get('host', '?')}{since}"


def _read_info(fd: int) -> dict:
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        info = json.loads(os.read(fd, 4096).decode() or "{}")
        return info if isinstance(info, dict) else {}
    except (OSError, ValueError):
        return {}


class RunLock:
    """The writer's lock on a run folder (a context manager; :meth:`release` is idempotent).

    ``field`` names the option in the refusal (``--out``). The folder is created if missing
    (and removed again on release if the run left it empty).
    """

    def __init__(self, folder: str | Path, *, field: str = "--out"):
        self.folder = Path(folder)
        self.path = self.folder / LOCK_FILE
        # the folders this lock creates, deepest first: removed again if the run leaves them empty
        self._created = [d for d in [self.folder, *self.folder.parents] if not d.exists()]
        self.folder.mkdir(parents=True, exist_ok=True)
        self._fd: int | None = None
        deadline = time.monotonic() + _RETRY_S
        while self._fd is None:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                info = _read_info(fd)
                os.close(fd)
                if time.monotonic() < deadline:  # perhaps a reader's instant check
                    time.sleep(0.1)
                    continue
                self._cleanup_created()
                raise RunLockedError(_refusal(field, self.folder, info)) from None
            # the previous holder may have removed the file between our open and our lock:
            # then we hold a lock on a file nobody else will find, so start again
            try:
                same = os.stat(self.path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if not same:
                os.close(fd)
                continue
            self._fd = fd
        info = {"host": socket.gethostname(), "pid": os.getpid(), "since": now_iso()}
        os.ftruncate(self._fd, 0)
        os.lseek(self._fd, 0, os.SEEK_SET)
        os.write(self._fd, (json.dumps(info) + "\n").encode())

    def _cleanup_created(self) -> None:
        for d in self._created:
            try:
                d.rmdir()  # only if empty: a run's or another writer's files stay
            except OSError:
                break

    def release(self) -> None:
        if self._fd is None:
            return
        # unlink while still holding it: a writer waiting on this file sees it gone and retries
        with contextlib.suppress(OSError):
            self.path.unlink()
        os.close(self._fd)
        self._fd = None
        self._cleanup_created()

    def __enter__(self) -> RunLock:
        return self

    def __exit__(self, *exc) -> None:
        self.release()


def _refusal(field: str, folder: Path, info: dict) -> str:
    return (f"{field}: run folder {str(folder)!r} is being written by {holder_text(info)}; "
            "wait for it to finish or stop it first")


def refuse_if_locked(folder: str | Path, field: str = "--out") -> None:
    """Raise :class:`RunLockedError` when another process writes ``folder``."""
    info = lock_holder(folder)
    if info is not None:
        raise RunLockedError(_refusal(field, Path(folder), info))


def lock_holder(folder: str | Path) -> dict | None:
    """The writer holding ``folder`` ({host, pid, since}), or None when nobody writes it."""
    path = Path(folder) / LOCK_FILE
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return _read_info(fd) or {"host": "?", "pid": "?"}
        except OSError:
            return None
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)
