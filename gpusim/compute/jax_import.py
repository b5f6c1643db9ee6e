"""JAX's first import, without its reading of every installed package's metadata.

While it imports, JAX looks for a ROCm plugin by parsing the metadata of every installed
distribution and keeping those named ``jax-rocm*-plugin`` (``jax._src.numpy.
array_constructors``, jax 0.10): about 0.1 to 0.25 s in a 140-package environment on a 2-core
machine, a large part of what a warm ``gpusim simulate`` pays before it computes
(``python benchmarks/whole_run.py``). :func:`import_jax` imports JAX with
``importlib.metadata.distributions`` narrowed, for the length of the import, to the
distributions whose folder name could be such a plugin; the rest are the ones JAX's own test
would reject by name, so JAX finds the same plugins (a distribution whose folder is unknown is
kept and read as before). A process that has imported JAX already is left alone.
"""

from __future__ import annotations

import sys
from types import ModuleType

__all__ = ["import_jax"]

_PLUGIN_PREFIX = "jax_rocm"


def _may_be_plugin(dist) -> bool:
    path = getattr(dist, "_path", None)
    if path is None:  # not a folder on disk: read its metadata, as JAX would
        return True
    name = str(getattr(path, "name", path)).lower().replace("-", "_").replace(".", "_")
    return name.startswith(_PLUGIN_PREFIX)


def import_jax() -> ModuleType:
    """``import jax``, the first time without the metadata scan; returns the module.

    Call it before anything else imports JAX and before other threads run: the narrowed
    ``importlib.metadata.distributions`` is seen process-wide while JAX imports.
    """
    loaded = sys.modules.get("jax")
    if loaded is not None:
        return loaded
    import importlib.metadata as metadata

    every = metadata.distributions

    def plugins_only(**kwargs):
        return (d for d in every(**kwargs) if _may_be_plugin(d))

    metadata.distributions = plugins_only
    try:
        import jax
    finally:
        metadata.distributions = every
    return jax
