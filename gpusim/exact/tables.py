"""Solving, caching and loading: enumeration counts, decision tables, exact reports.

Two kinds of stored results:

- *counts* (large, paytable-free): Casino Hold'em outcome counts per (flop class, hole) depend
  only on the dealer qualifier; Texas Hold'em Bonus river-level counts only on
  ``ante_pays_from``. Kept in the user's cache directory
  (``platformdirs.user_cache_dir("gpusim")/exact``), never shipped.
- *decision tables* (small bit tables per strategy): shipped for every shipped config in
  ``gpusim/data/tables/<config>.npz`` with ``provenance.json`` (sha256 of each file, the config
  hash, the command that regenerates them). For another config they are solved on demand and
  cached under the config hash.

Table layout (bits packed with ``numpy.packbits``, row-major):

- Casino Hold'em ``call/<strategy>``: (1755, 1326) = (flop class, hole index after relabelling
  the suits into the class's canonical suits), see :mod:`gpusim.index`.
- Texas Hold'em Bonus ``preflop/<strategy>`` (169,) in ``HAND_CLASSES`` order; ``turn/<s>``
  (1755, 1326) by flop class; ``river/<s>`` (16432, 1326) by 4-card board class.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gpusim.exact.cache import FORMAT, atomic_savez, cache_dir, file_sha256
from gpusim.games import spec_for

__all__ = [
    "TABLE_DIR",
    "ExactSolver",
    "cache_dir",
    "decision_tables",
    "exact_report",
    "file_sha256",
    "is_cached",
    "pack_tables",
    "solve_tables",
    "unpack_tables",
    "write_shipped_tables",
]

TABLE_DIR = Path(__file__).resolve().parent.parent / "data" / "tables"


@dataclass(frozen=True)
class ExactSolver:
    """A game's exact solver, named by its spec (``GameSpec.exact_solver``).

    - ``counts(rules, *, progress, backend)``: the enumeration counts, cached on disk;
    - ``counts_file(rules) -> str``: their file name in :func:`cache_dir`;
    - ``solve_tables(rules, progress, backend) -> {"<point>/<strategy>": bool array}``: every
      table strategy's decision tables;
    - ``report(rules, strategy, *, progress, backend) -> dict``: the exact report;
    - ``rule_strategies_are_slow``: a rule-list strategy is priced by applying it to every
      situation, which takes about a minute (so the report is not "cached" for it).
    """

    counts: Callable
    counts_file: Callable
    solve_tables: Callable
    report: Callable
    rule_strategies_are_slow: bool

    def decision_tables(self, rules, **kw) -> dict[str, np.ndarray]:
        """:func:`decision_tables` (so that a lower layer reaches it through the spec)."""
        return decision_tables(rules, **kw)


def _solver(rules) -> ExactSolver:
    return spec_for(rules).solver()


# --- decision tables ------------------------------------------------------------------------------


def solve_tables(rules, *, progress: bool = True, backend: str = "cpu") -> dict[str, np.ndarray]:
    """Every table strategy's decision tables for a config, solved now from its counts (cached
    counts are reused): ``{"<point>/<strategy>": bool array}``."""
    return _solver(rules).solve_tables(rules, progress, backend)


def pack_tables(tables: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    out = {}
    for key, arr in tables.items():
        out[key.replace("/", "__") + "__bits"] = np.packbits(arr.astype(bool).ravel())
        out[key.replace("/", "__") + "__shape"] = np.array(arr.shape, dtype=np.int64)
    return out


def unpack_tables(z) -> dict[str, np.ndarray]:
    out = {}
    for name in z.files:
        if name.endswith("__bits"):
            base = name[: -len("__bits")]
            shape = tuple(int(v) for v in z[base + "__shape"])
            n = int(np.prod(shape))
            out[base.replace("__", "/")] = np.unpackbits(z[name], count=n).astype(bool).reshape(
                shape)
    return out


def _provenance() -> dict:
    path = TABLE_DIR / "provenance.json"
    return json.loads(path.read_text()) if path.is_file() else {}


def decision_tables(
    rules, *, solve: bool = True, progress: bool = True, backend: str = "cpu"
) -> dict[str, np.ndarray]:
    """Decision tables of the config: shipped (checksum verified), cached, or solved now
    (the counts by ``backend``: ``cpu`` or ``cupy``).

    Raises FileNotFoundError when none exist and ``solve`` is False.
    """
    h = rules.config_hash
    for entry in _provenance().values():
        if entry.get("config_hash") == h:
            path = TABLE_DIR / entry["file"]
            if file_sha256(path) != entry["sha256"]:
                raise ValueError(f"table {path.name}: sha256 does not match provenance.json")
            with np.load(path) as z:
                return unpack_tables(z)
    path = cache_dir() / f"tables_{h[:16]}_v{FORMAT}.npz"
    if path.is_file():
        with np.load(path) as z:
            return unpack_tables(z)
    if not solve:
        raise FileNotFoundError(
            f"no decision tables for config {rules.name!r} (hash {h[:12]}); "
            f"run `gpusim exact {rules.name}` to solve them"
        )
    tables = solve_tables(rules, progress=progress, backend=backend)
    atomic_savez(path, **pack_tables(tables))
    return tables


def write_shipped_tables(rules, command: str, *, backend: str = "cpu") -> dict:
    """Solve and write ``gpusim/data/tables/<config>.npz``; update provenance.json."""
    tables = solve_tables(rules, progress=True, backend=backend)
    TABLE_DIR.mkdir(parents=True, exist_ok=True)
    path = TABLE_DIR / f"{rules.name}.npz"
    atomic_savez(path, **pack_tables(tables))
    prov = _provenance()
    prov[rules.name] = {
        "file": path.name,
        "sha256": file_sha256(path),
        "config_hash": rules.config_hash,
        "game": rules.game,
        "tables": {k: list(v.shape) for k, v in tables.items()},
        "command": command,
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    (TABLE_DIR / "provenance.json").write_text(json.dumps(prov, indent=2, sort_keys=True) + "\n")
    return prov[rules.name]


# --- reports --------------------------------------------------------------------------------------


def exact_report(
    rules, strategy: str = "optimal", *, progress: bool = True, backend: str = "cpu"
) -> dict:
    """The exact report of a config under a strategy (see docs/exact.md for the JSON).

    backend: what computes the enumeration counts when they are not cached, ``cpu`` or
    ``cupy`` (the same counts; the pricing always runs on the CPU)."""
    return _solver(rules).report(rules, strategy, progress=progress, backend=backend)


def is_cached(rules, strategy: str) -> bool:
    """Whether the exact analysis takes seconds, not minutes: its enumeration counts are cached
    and, where applying a rule-list strategy to every situation is slow, the strategy is a
    table strategy."""
    solver = _solver(rules)
    if solver.rule_strategies_are_slow and strategy not in spec_for(rules).table_strategies:
        return False
    return (cache_dir() / solver.counts_file(rules)).is_file()
