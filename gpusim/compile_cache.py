"""The compile caches of gpusim runs, in the user's cache folder.

A run compiles two large XLA programs (deal, decide and settle; reduce) per rules structure
(pays and stakes are arguments, so a paytable sweep shares them), strategy and batch size;
on a 2-core machine that costs seconds to tens of seconds per process. Two caches keep them:
on the CPU, gpusim's own (:mod:`gpusim.compute.program`, in ``programs/`` under this folder),
which a warm process loads without tracing any Python; and JAX's persistent compilation cache
for everything else (other programs, the GPU path). The folder holds executable code: like
JAX's cache, it must be writable by its user only.

Where (first match):

- ``GPUSIM_COMPILE_CACHE=off`` (or ``0``, ``false``, ``no``): no cache;
- ``GPUSIM_COMPILE_CACHE=FOLDER``: that folder;
- JAX's own setting (``JAX_COMPILATION_CACHE_DIR`` or ``jax.config``), left as it is;
- ``<user cache dir>/gpusim/jax`` (platformdirs: ``~/.cache/gpusim/jax`` on Linux).

A folder that cannot be created means no cache, never an error: the cache only saves time.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["ENV", "cache_dir", "enable"]

ENV = "GPUSIM_COMPILE_CACHE"
_OFF = {"off", "0", "false", "no"}


def cache_dir() -> Path | None:
    """The folder :func:`enable` would use (None: caching is off)."""
    value = os.environ.get(ENV, "").strip()
    if value.lower() in _OFF:
        return None
    if value:
        return Path(value).expanduser()
    import jax

    configured = jax.config.jax_compilation_cache_dir
    if configured:
        return Path(configured)
    import platformdirs

    return Path(platformdirs.user_cache_dir("gpusim")) / "jax"


def enable() -> Path | None:
    """Turn the persistent cache on for this process; returns its folder (None: off).

    Call before the first compilation: JAX reads the setting once per process.
    """
    import jax

    path = cache_dir()
    if path is None:
        return None
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    jax.config.update("jax_compilation_cache_dir", str(path))
    # Every program of a run is worth keeping: on a loaded 2-core machine even the small
    # ones take a noticeable part of a short run's start-up.
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
    return path
