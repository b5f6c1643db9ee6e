"""Where the exact solver keeps what it computed: the cache folder, atomic writes, checksums,
the progress bar, and the choice of the count backend (CPU worker processes or the CUDA kernels).

Enumeration counts (large, paytable-free) live in ``platformdirs.user_cache_dir("gpusim")/exact``
(``GPUSIM_CACHE_DIR`` overrides), never shipped; see :mod:`gpusim.strategy.tables` and
:mod:`gpusim.runs.exact_on_demand`.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

from gpusim.exact._parallel import default_workers

__all__ = [
    "FORMAT",
    "atomic_savez",
    "cache_dir",
    "count_solver",
    "file_sha256",
    "progress_bar",
    "representative_rounds",
]

FORMAT = 1
"""Version of the cached files' layout: part of every cache file name."""


def cache_dir() -> Path:
    """``platformdirs.user_cache_dir("gpusim")/exact`` (``GPUSIM_CACHE_DIR`` overrides)."""
    env = os.environ.get("GPUSIM_CACHE_DIR")
    if env:
        base = Path(env)
    else:
        import platformdirs

        base = Path(platformdirs.user_cache_dir("gpusim"))
    d = base / "exact"
    d.mkdir(parents=True, exist_ok=True)
    return d


def file_sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def atomic_savez(path: Path, *, level: int | None = None, **arrays) -> None:
    """Write a ``.npz`` (read back with ``np.load``) under a temporary name and move it into
    place; nothing is left behind if the write fails. ``level``: the deflate level (None:
    numpy's default, 6; 0: stored, not compressed); the count caches use 1 or 0, several times
    faster to write (and 0 to read) for a larger file."""
    tmp = path.with_name(path.name + f".tmp{os.getpid()}.npz")
    try:
        if level is None:
            np.savez_compressed(tmp, **arrays)
        else:
            import zipfile

            method = zipfile.ZIP_STORED if level == 0 else zipfile.ZIP_DEFLATED
            with zipfile.ZipFile(tmp, "w", method, compresslevel=level or None,
                                 allowZip64=True) as zf:
                for name, a in arrays.items():
                    with zf.open(f"{name}.npy", "w", force_zip64=True) as f:
                        np.lib.format.write_array(f, np.asanyarray(a), allow_pickle=False)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def progress_bar(label: str) -> tuple[Callable[[int, int], None], Callable[[], None]]:
    """A rich progress bar on stderr; when stderr is not a terminal (a batch log), plain lines
    every ``--log-every`` seconds and at the end (:class:`gpusim.progress_log.ProgressLog`)."""
    if not sys.stderr.isatty():
        from gpusim.progress_log import ProgressLog

        log = ProgressLog(label, unit="classes")
        return log.update, log.stop
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    prog = Progress(TextColumn(label), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                    TimeRemainingColumn(), transient=True)
    prog.start()
    task = prog.add_task(label, total=None)

    def update(done: int, total: int) -> None:
        prog.update(task, completed=done, total=total)

    return update, prog.stop


def count_solver(cpu: Callable, gpu: Callable[[], Callable], backend: str) -> Callable:
    """The count solver of a backend: ``cpu`` (the CPU solver, given worker processes) or
    ``cupy`` (``gpu()`` loads the game's CUDA binding, which gives the same counts)."""
    if backend == "cpu":
        return lambda *a, **kw: cpu(*a, **kw, workers=default_workers())
    if backend == "cupy":
        return gpu()
    raise ValueError(f"backend {backend!r}: allowed 'cpu', 'cupy'")


def representative_rounds(holes: np.ndarray, board: np.ndarray, n_board: int) -> np.ndarray:
    """(N, 9) rounds with the given hole and board cards; unseen slots get distinct filler
    cards (the strategy contract forbids looking at them)."""
    n = len(holes)
    cards = np.zeros((n, 9), dtype=np.int32)
    cards[:, 0:2] = holes
    cards[:, 4 : 4 + n_board] = board
    used = np.zeros((n, 52), dtype=bool)
    r = np.arange(n)[:, None]
    used[r, holes] = True
    used[r, board] = True
    free = np.argsort(used, axis=1, kind="stable")[:, : 9 - 2 - n_board].astype(np.int32)
    slots = [s for s in (2, 3, 4, 5, 6, 7, 8) if s >= 4 + n_board or s in (2, 3)]
    cards[:, slots] = free
    return cards
