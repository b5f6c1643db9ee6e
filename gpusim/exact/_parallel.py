"""Run enumeration chunks in worker processes (spawned: JAX, where a solve loads it, must not be
forked), and share
large arrays with them through memory-mapped files instead of pickling them."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["SharedArrays", "attach", "default_workers", "detach", "run_chunks", "worker_pool"]


def default_workers() -> int:
    """Worker processes for a full solve: the usable CPU cores (``GPUSIM_EXACT_WORKERS``
    overrides)."""
    env = os.environ.get("GPUSIM_EXACT_WORKERS")
    if env:
        return max(1, int(env))
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


@contextmanager
def worker_pool(workers: int, warm: Callable[[], None] | None = None) -> Iterator[Executor | None]:
    """One pool for every stage of a solve (each worker imports the solver once): ``workers``
    processes in all, this one included (:func:`run_chunks` runs chunks here too while the
    pool's ``workers - 1`` processes run theirs); None when ``workers`` <= 1 (everything runs
    in this process). ``warm``: a module-level function of the solver's module, run once per
    worker at start (unpickling it imports that module)."""
    if workers <= 1:
        yield None
        return
    with ProcessPoolExecutor(workers - 1, mp_context=get_context("spawn"),
                             initializer=_exit_without_teardown) as pool:
        # Start every worker now: each spends a while importing the solver while this
        # process builds its index tables. (Fewer processes than cores
        # while they start: with one per core, their imports and this process's index build
        # had slowed each other down.) Each worker's BLAS runs one thread: the pool is the
        # parallelism, and a BLAS thread per core in every worker spin-waits against the
        # others (the community solver's per-flop products ran twice as slow).
        with _one_blas_thread():
            for _ in range(workers - 1 if warm is not None else 0):
                pool.submit(warm)
        with _blas_threads_here(1):  # this process works too (run_chunks)
            yield pool


_BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def _openblas():
    """NumPy's bundled OpenBLAS (ctypes), or None where it cannot be found: then this
    process's BLAS threads are left as they are."""
    import ctypes
    import glob

    folder = Path(np.__file__).resolve().parent.parent / "numpy.libs"
    for path in sorted(glob.glob(str(folder / "libscipy_openblas*.so*"))):
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for suffix in ("64_", "_64_", ""):
            get = getattr(lib, f"scipy_openblas_get_num_threads{suffix}", None)
            put = getattr(lib, f"scipy_openblas_set_num_threads{suffix}", None)
            if get is not None and put is not None:
                return get, put
    return None


@contextmanager
def _blas_threads_here(n: int) -> Iterator[None]:
    """This process's BLAS at ``n`` threads for the block, as before after it."""
    lib = _openblas()
    if lib is None:
        yield
        return
    get, put = lib
    before = int(get())
    put(n)
    try:
        yield
    finally:
        put(before)


@contextmanager
def _one_blas_thread() -> Iterator[None]:
    """The environment the pool's processes start with: one BLAS thread each (this
    process's own BLAS, loaded already, keeps its threads)."""
    before = {k: os.environ.get(k) for k in _BLAS_THREADS}
    os.environ.update({k: "1" for k in _BLAS_THREADS})
    try:
        yield
    finally:
        for k, v in before.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _exit_without_teardown() -> None:
    """Run in each worker as it starts: when the pool closes, the worker ends right after its
    exit handlers, skipping the interpreter's module teardown. With JAX loaded (the numpy
    fallback) that teardown takes about half a second a worker, and closing the pool waits
    for it. By then every result
    has been sent back (synchronously, before the worker reads the pool's stop signal)."""
    import atexit

    atexit.register(_end_now)  # registered first, so it runs after every other handler


def _end_now() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (AttributeError, OSError, ValueError):
            pass
    os._exit(0)


def run_chunks(
    fn: Callable[..., Any],
    args: Sequence[tuple],
    keys: Sequence[Any],
    workers: int,
    *,
    pool: Executor | None = None,
) -> Iterator[tuple[Any, Any]]:
    """Yield (key, fn(*arg)) for every chunk, in completion order when run in a pool
    (``pool``, or a new :func:`worker_pool` of ``workers``).

    With a pool, this process works too: the pool takes the chunks from the front, this process
    takes them from the back, one at a time, as long as the pool has not started them (a pending
    future is cancelled and its chunk run here). The callers' sums do not depend on the order.
    """
    if pool is None and (workers <= 1 or len(args) <= 1):
        for key, a in zip(keys, args, strict=True):
            yield key, fn(*a)
        return
    if pool is None:
        with worker_pool(workers) as own:
            yield from run_chunks(fn, args, keys, workers, pool=own)
        return
    futures = [pool.submit(fn, *a) for a in args]
    yielded = [False] * len(futures)
    first_unchecked = 0
    back = len(futures)

    def finished() -> Iterator[tuple[Any, Any]]:
        nonlocal first_unchecked
        for i in range(first_unchecked, back):
            if not yielded[i] and futures[i].done():
                yielded[i] = True
                yield keys[i], futures[i].result()
        while first_unchecked < back and yielded[first_unchecked]:
            first_unchecked += 1

    while back > 0 and futures[back - 1].cancel():
        back -= 1
        yield keys[back], fn(*args[back])
        yield from finished()
    rest = {futures[i]: i for i in range(back) if not yielded[i]}
    for fut in as_completed(rest):
        i = rest[fut]
        yield keys[i], fut.result()


class SharedArrays:
    """Zero-filled arrays in memory-mapped files that worker processes open by name
    (:func:`attach`): workers write their rows in place and read the others' without a
    copy through the pool's pipes. Pages never written cost no memory.

    ``SharedArrays(table=((n, 1326), np.uint32), ...)``; ``.arrays`` are this process's
    views, ``.spec`` is what a worker needs (picklable); :meth:`close` removes the files.
    """

    def __init__(self, **layout: tuple[tuple[int, ...], Any]):
        need = sum(int(np.prod(shape)) * np.dtype(dt).itemsize for shape, dt in layout.values())
        # RAM-backed /dev/shm when it has room (a container's may hold only 64 MB: a page
        # past its end would kill the process), else the temporary folder (page cache)
        shm = Path("/dev/shm")
        room = shm.is_dir() and shutil.disk_usage(shm).free > need + (256 << 20)
        self._dir = tempfile.mkdtemp(prefix="gpusim-exact-", dir=shm if room else None)
        self.spec = tuple((name, os.path.join(self._dir, name), tuple(shape), np.dtype(dt).str)
                          for name, (shape, dt) in layout.items())
        for _, path, shape, dt in self.spec:
            with open(path, "wb") as f:  # a sparse file: zero pages until written
                f.truncate(max(1, int(np.prod(shape)) * np.dtype(dt).itemsize))

    @property
    def arrays(self) -> dict[str, np.ndarray]:
        return attach(self.spec)

    def close(self) -> None:
        detach(self.spec)
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> SharedArrays:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


_ATTACHED: dict[str, np.ndarray] = {}


def attach(spec: tuple, names: tuple[str, ...] | None = None) -> dict[str, np.ndarray]:
    """The arrays of a :class:`SharedArrays` spec (or those in ``names``), mapped once per
    process."""
    out = {}
    for name, path, shape, dtype in spec:
        if names is not None and name not in names:
            continue
        if path not in _ATTACHED:
            _ATTACHED[path] = np.memmap(path, dtype=dtype, mode="r+", shape=shape)
        out[name] = _ATTACHED[path]
    return out


def detach(spec: tuple, keep: tuple[str, ...] = ()) -> None:
    """Drop this process's mappings of a spec's arrays, except those in ``keep``: once no view
    of one is left, its pages leave this process's resident memory."""
    for name, path, *_ in spec:
        if name not in keep:
            _ATTACHED.pop(path, None)
