"""Exact analysis on demand: the one place (with ``cli/``) that may start a solve.

Lower layers only read stored decision tables (:mod:`gpusim.strategy.tables`); a strategy whose
tables are missing says so. These functions solve what is missing with the game's exact solver
(``GameSpec.exact_solver``), cache it, and price strategies::

    exact_report(rules, strategy="optimal") -> dict     # the `gpusim exact` report (docs/exact.md)
    decision_tables(rules) -> {"<point>/<strategy>": bool array}
"""

from __future__ import annotations

import time

import numpy as np

from gpusim.exact.cache import atomic_savez, cache_dir, file_sha256
from gpusim.exact.report import versioned
from gpusim.games import spec_for
from gpusim.strategy.tables import (
    TABLE_DIR,
    cached_tables_path,
    pack_tables,
    provenance,
    stored_tables,
)

__all__ = [
    "decision_tables",
    "prepare_strategy",
    "exact_report",
    "is_cached",
    "solve_tables",
    "write_shipped_tables",
]


def _solver(rules):
    solver = spec_for(rules).solver()
    if solver is None:
        raise ValueError(f"game {rules.game!r}: has no exact solver"
                         f"{spec_for(rules).why_missing()}")
    return solver


def solve_tables(rules, *, progress: bool = True, backend: str = "cpu") -> dict[str, np.ndarray]:
    """Every table strategy's decision tables for a config, solved now from its counts (cached
    counts are reused): ``{"<point>/<strategy>": bool array}``."""
    return _solver(rules).solve_tables(rules, progress, backend)


def decision_tables(
    rules, *, solve: bool = True, progress: bool = True, backend: str = "cpu"
) -> dict[str, np.ndarray]:
    """Decision tables of the config: shipped (checksum verified), cached, or solved now and
    cached (the counts by ``backend``: ``cpu`` or ``cupy``).

    Raises FileNotFoundError when none exist and ``solve`` is False.
    """
    tables = stored_tables(rules)
    if tables is not None:
        return tables
    if not solve:
        raise FileNotFoundError(
            f"no decision tables for config {rules.name!r} (hash {rules.config_hash[:12]}); "
            f"run `gpusim exact {rules.name}` to solve them"
        )
    tables = solve_tables(rules, progress=progress, backend=backend)
    atomic_savez(cached_tables_path(rules), **pack_tables(tables))
    return tables


def write_shipped_tables(rules, command: str, *, backend: str = "cpu") -> dict:
    """Solve and write ``gpusim/data/tables/<config>.npz``; update provenance.json."""
    import json

    tables = solve_tables(rules, progress=True, backend=backend)
    TABLE_DIR.mkdir(parents=True, exist_ok=True)
    path = TABLE_DIR / f"{rules.name}.npz"
    atomic_savez(path, **pack_tables(tables))
    prov = provenance()
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


def exact_report(
    rules, strategy: str = "optimal", *, progress: bool = True, backend: str = "cpu"
) -> dict:
    """The exact report of a config under a strategy (see docs/exact.md for the JSON).

    backend: what computes the enumeration counts when they are not cached, ``cpu`` or
    ``cupy`` (the same counts; the pricing always runs on the CPU). A table strategy's tables
    are solved (and cached) first when missing; any other strategy is applied to every
    situation.
    """
    spec = spec_for(rules)
    solver = _solver(rules)
    if _reads_tables(spec, strategy) and not solver.report_solves_tables:
        decision_tables(rules, progress=progress, backend=backend)
    return versioned(solver.report(rules, strategy, progress=progress, backend=backend))


def _reads_tables(spec, name: str) -> bool:
    """Whether strategy ``name`` reads the decision tables (:meth:`GameSpec.table_of`)."""
    return spec.table_of(name) is not None


def is_cached(rules, strategy: str) -> bool:
    """Whether the exact analysis takes seconds, not minutes: its enumeration counts are cached
    and, where applying a rule-list strategy to every situation is slow, the strategy is a
    table strategy."""
    spec = spec_for(rules)
    solver = spec.solver()
    if solver is None:
        return False
    if solver.rule_strategies_are_slow and not _reads_tables(spec, strategy):
        return False
    return (cache_dir() / solver.counts_file(rules)).is_file()


def prepare_strategy(name: str | None, rules, *, progress: bool = True) -> None:
    """Solve (and cache) the decision tables a table strategy needs when none are stored, so that
    looking the strategy up afterwards only reads them. ``None``: the config's default. Anything
    else (a rule strategy, an unknown name, a game without a solver) is left to the lookup."""
    spec = spec_for(rules)
    name = name or rules.default_strategy
    # whether tables are stored, without reading them: the lookup that follows reads (and
    # checks) them, and a broken shipped file fails there as it would here
    if _reads_tables(spec, name) and not _tables_stored(rules) and spec.solver() is not None:
        decision_tables(rules, progress=progress)


def _tables_stored(rules) -> bool:
    """Whether :func:`gpusim.strategy.tables.stored_tables` would find tables (or fail on a
    listed shipped file), without loading them."""
    h = rules.config_hash
    return (any(e.get("config_hash") == h for e in provenance().values())
            or cached_tables_path(rules).is_file())
