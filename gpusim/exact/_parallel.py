"""Run enumeration chunks in worker processes (spawned: JAX must not be forked)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from typing import Any

__all__ = ["default_workers", "run_chunks"]


def default_workers() -> int:
    """Worker processes for a full solve: the usable CPU cores (``GPUSIM_EXACT_WORKERS``
    overrides)."""
    import os

    env = os.environ.get("GPUSIM_EXACT_WORKERS")
    if env:
        return max(1, int(env))
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def run_chunks(
    fn: Callable[..., Any], args: Sequence[tuple], keys: Sequence[Any], workers: int
) -> Iterator[tuple[Any, Any]]:
    """Yield (key, fn(*arg)) for every chunk, in completion order when workers > 1."""
    if workers <= 1 or len(args) <= 1:
        for key, a in zip(keys, args, strict=True):
            yield key, fn(*a)
        return
    with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
        futures = {pool.submit(fn, *a): key for key, a in zip(keys, args, strict=True)}
        for fut in as_completed(futures):
            yield futures[fut], fut.result()
