"""Stage timers of an exact solve, for ``benchmarks/exact.py --profile``.

Off unless ``GPUSIM_EXACT_PROFILE=1`` is set when this module is imported; then every
:func:`stage` block adds its process CPU seconds to :func:`totals` (of this process: a
profile runs the solve with one worker so that every stage runs here). Off, a block costs
one flag test.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["stage", "totals"]

_ON = os.environ.get("GPUSIM_EXACT_PROFILE") == "1"
_TOTALS: dict[str, float] = {}


@contextmanager
def stage(name: str) -> Iterator[None]:
    """Count the block's CPU seconds under ``name`` (when profiling is on)."""
    if not _ON:
        yield
        return
    t0 = time.process_time()
    try:
        yield
    finally:
        _TOTALS[name] = _TOTALS.get(name, 0.0) + time.process_time() - t0


def totals() -> dict[str, float]:
    """CPU seconds per stage so far in this process."""
    return dict(_TOTALS)
