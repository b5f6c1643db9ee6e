"""Decision tables on disk: the shipped ones and the user's cached ones (file IO only).

Two places hold a config's tables (small bit tables per table strategy):

- shipped, for every shipped config: ``gpusim/data/tables/<config>.npz`` with
  ``provenance.json`` (sha256 of each file, the config hash, the command that regenerates
  them);
- cached, for any other config once it has been solved: ``tables_<hash>_v<FORMAT>.npz`` in the
  user's cache directory (:func:`gpusim.exact.cache.cache_dir`).

Solving missing tables is not done here: only ``runs/`` and ``cli/`` may start a solve
(:mod:`gpusim.runs.exact_on_demand`). Layout: ``{"<point>/<strategy>": bool array}``, bits
packed with ``numpy.packbits`` (row-major); each game's table strategy documents its shapes.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from gpusim.exact.cache import FORMAT, cache_dir, file_sha256

__all__ = [
    "TABLE_DIR",
    "cached_tables_path",
    "pack_tables",
    "provenance",
    "stored_tables",
    "unpack_tables",
]

TABLE_DIR = Path(__file__).resolve().parent.parent / "data" / "tables"


def pack_tables(tables: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """``{"<point>/<strategy>": bool array}`` as npz members (packed bits and shapes)."""
    out = {}
    for key, arr in tables.items():
        out[key.replace("/", "__") + "__bits"] = np.packbits(arr.astype(bool).ravel())
        out[key.replace("/", "__") + "__shape"] = np.array(arr.shape, dtype=np.int64)
    return out


def unpack_tables(z) -> dict[str, np.ndarray]:
    """The inverse of :func:`pack_tables` (``z``: an open npz)."""
    out = {}
    for name in z.files:
        if name.endswith("__bits"):
            base = name[: -len("__bits")]
            shape = tuple(int(v) for v in z[base + "__shape"])
            n = int(np.prod(shape))
            out[base.replace("__", "/")] = np.unpackbits(z[name], count=n).astype(bool).reshape(
                shape)
    return out


def provenance() -> dict:
    """The shipped tables' provenance records, by config name."""
    path = TABLE_DIR / "provenance.json"
    return json.loads(path.read_text()) if path.is_file() else {}


def cached_tables_path(rules) -> Path:
    """Where a solved config's tables are cached (by config hash)."""
    return cache_dir() / f"tables_{rules.config_hash[:16]}_v{FORMAT}.npz"


def stored_tables(rules) -> dict[str, np.ndarray] | None:
    """The config's decision tables, shipped (checksum verified) or cached; None when neither
    exists."""
    h = rules.config_hash
    for entry in provenance().values():
        if entry.get("config_hash") == h:
            path = TABLE_DIR / entry["file"]
            if file_sha256(path) != entry["sha256"]:
                raise ValueError(f"table {path.name}: sha256 does not match provenance.json")
            with np.load(path) as z:
                return unpack_tables(z)
    path = cached_tables_path(rules)
    if path.is_file():
        with np.load(path) as z:
            return unpack_tables(z)
    return None
