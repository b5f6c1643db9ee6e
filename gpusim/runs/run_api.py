"""The Python face of a run folder: ``gpusim.simulate(...)`` and ``gpusim.open_run(path)``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from gpusim.games import DEFAULT_CONFIG
from gpusim.games.spec import METER_SECTION
from gpusim.runs.jsonsafe import json_safe
from gpusim.runs.runfolder import RunFolder
from gpusim.runs.runner import Progress, run_simulation
from gpusim.runs.totals import compute_summary

if TYPE_CHECKING:  # polars loads on first use: a run's start-up does not wait for it
    import polars as pl

__all__ = ["Run", "open_run", "simulate"]


class Run:
    """A finished or partial run. Tables are polars LazyFrames over the completed chunks only.

    One method per part table (``outcomes()``, ``events()``, ``decisions()``, ``wagers()``,
    ``moments()``, ``jackpot()``, ``progress()``), with the columns of
    :data:`gpusim.runs.runfolder.PART_SCHEMAS`; outcomes hold the bets plus ``main`` and ``total``.
    """

    def __init__(self, path: str | Path):
        self._folder = RunFolder.open(path)

    @property
    def path(self) -> Path:
        return self._folder.path

    @property
    def manifest(self) -> dict:
        return self._folder.manifest

    @property
    def complete(self) -> bool:
        done = sum(r["n_rounds"] for r in self._folder.completed().values())
        shard = self.manifest.get("shard")
        return done == (shard["n_rounds"] if shard else self.manifest["rounds"])

    @property
    def rounds_done(self) -> int:
        return sum(r["n_rounds"] for r in self._folder.completed().values())

    def verify(self) -> list[str]:
        """Parts of completed chunks that are missing or fail their sha256 (empty: intact)."""
        return self._folder.verify()

    def _scan(self, table: str) -> pl.LazyFrame:
        return self._folder.scan(table)

    def outcomes(self) -> pl.LazyFrame:
        return self._scan("outcomes")

    def events(self) -> pl.LazyFrame:
        return self._scan("events")

    def decisions(self) -> pl.LazyFrame:
        return self._scan("decisions")

    def wagers(self) -> pl.LazyFrame:
        return self._scan("wagers")

    def moments(self) -> pl.LazyFrame:
        return self._scan("moments")

    def jackpot(self) -> pl.LazyFrame:
        return self._scan(METER_SECTION)

    def progress(self) -> pl.LazyFrame:
        """Cumulative wagered/returned per bet within each chunk at its checkpoints
        (round_end: the round after the checkpoint); empty for runs written before it existed."""
        return self._scan("progress")

    def summary(self) -> dict:
        """Recomputed from the Parquet parts (JSON-safe: undefined ratios are None)."""
        return json_safe(
            compute_summary(
                self.manifest,
                self.outcomes().collect(),
                self.events().collect(),
                self.decisions().collect(),
                self.wagers().collect(),
            )
        )

    def write_summary(self) -> dict:
        s = self.summary()
        tmp = self.path / ".summary.json.tmp"
        tmp.write_text(json.dumps(s, indent=2) + "\n")
        tmp.replace(self.path / "summary.json")
        return s

    def __repr__(self) -> str:
        m = self.manifest
        # the folder as a user would type it: relative to the working folder when inside it
        try:
            where = self.path.resolve().relative_to(Path.cwd().resolve())
        except ValueError:
            where = self.path
        return (
            f"Run({str(where)!r}, {m.get('config_name')}, strategy={m.get('strategy')}, "
            f"{self.rounds_done:,}/{m.get('rounds'):,} rounds)"
        )


def open_run(path: str | Path) -> Run:
    """Reopen a finished or partial run folder."""
    return Run(path)


def simulate(
    config=DEFAULT_CONFIG,
    *,
    rounds: int | str,
    seed: int,
    out: str | Path,
    strategy: str | None = None,
    backend: str = "auto",
    chunk: int | str | None = None,
    resume: bool = False,
    force: bool = False,
    progress: Progress | None = None,
    shard: str | tuple[int, int] | None = None,
) -> Run:
    """Simulate ``rounds`` rounds of ``config`` into the folder ``out`` and return the Run.

    ``config`` is a shipped config name (``"casino_holdem"``), a TOML path or a rules object;
    ``seed`` is required: the same seed gives the same counts whatever ``chunk`` or backend.
    ``shard="I/N"`` plays only slice I of N (combine the slices with ``gpusim merge``).
    """
    path = run_simulation(
        config, rounds=rounds, seed=seed, out=out, strategy=strategy, backend=backend,
        chunk=chunk, resume=resume, force=force, progress=progress, shard=shard,
    )
    run = Run(path)
    run.write_summary()
    return run
