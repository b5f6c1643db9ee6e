"""The Python face of a run folder: ``gpusim.simulate(...)`` and ``gpusim.open_run(path)``."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import TYPE_CHECKING

from gpusim.games import DEFAULT_CONFIG
from gpusim.games.spec import METER_SECTION
from gpusim.runs.jsonsafe import json_safe
from gpusim.runs.runfolder import RunFolder
from gpusim.runs.runner import Progress, run_simulation
from gpusim.runs.totals import compute_summary
from gpusim.stats import DEFAULT_CONFIDENCE, ci_key, confidence_label

if TYPE_CHECKING:  # polars loads on first use: a run's start-up does not wait for it
    import polars as pl

__all__ = ["Run", "Summary", "open_run", "simulate"]


class Summary(dict):
    """A run's summary (:meth:`Run.summary`): the JSON-safe dict, shown as tables in a
    notebook (``_repr_html_``) and as aligned text by ``repr`` (the timing and the device,
    which vary between runs of the same counts, are left out of both)."""

    _BET_COLUMNS = ("placed", "wagered", "returned", "net", "rtp")

    def _tables(self) -> list[tuple[str, list[str], list[list[str]]]]:
        """(caption, header, rows) of each table, every cell as text."""
        def cell(v) -> str:
            if isinstance(v, list):
                return "[" + ", ".join(cell(x) for x in v) + "]"
            if isinstance(v, float):
                return f"{v:.6f}"
            return f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else str(v)

        bets = self.get("bets", {})
        level = self.get("confidence", DEFAULT_CONFIDENCE)
        cols = (*self._BET_COLUMNS, f"rtp_{ci_key(level)}")
        out = [("Per bet: money in the config's units, RTP with its "
                f"{confidence_label(level)} confidence interval", ["bet", *cols],
                [[b, *(cell(f.get(c)) for c in cols)] for b, f in bets.items()])]
        main = {k: v for k, v in (self.get("main") or {}).items() if not isinstance(v, list)}
        if main:
            out.append(("Main game (per base-bet unit)", ["figure", "value"],
                        [[k, cell(v)] for k, v in main.items()]))
        decisions = self.get("decisions") or {}
        if decisions:
            out.append(("Decisions (share of the rounds that reach each point)",
                        ["point", "action", "share"],
                        [[p, a, cell(s)] for p, acts in decisions.items()
                         for a, s in acts.items()]))
        return out

    def _title(self) -> str:
        done, planned = self.get("rounds", 0), self.get("rounds_planned", 0)
        state = "complete" if self.get("complete") else f"partial, of {planned:,}"
        return (f"Summary of {self.get('config')} ({self.get('game')}), strategy "
                f"{self.get('strategy')}, seed {self.get('seed')}: {done:,} rounds ({state})")

    def __repr__(self) -> str:
        lines = [self._title()]
        for caption, header, rows in self._tables():
            widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
            lines += ["", caption]
            lines += ["  ".join(c.rjust(w) if i else c.ljust(w)
                                for i, (c, w) in enumerate(zip(r, widths, strict=True)))
                      for r in [header, *rows]]
        return "\n".join(lines)

    def _repr_pretty_(self, p, cycle) -> None:  # IPython's text/plain
        p.text(repr(self))

    def _repr_html_(self) -> str:
        esc = html.escape
        parts = [f"<p><b>{esc(self._title())}</b></p>"]
        for caption, header, rows in self._tables():
            head = "".join(f"<th>{esc(h)}</th>" for h in header)
            body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in r) + "</tr>"
                           for r in rows)
            parts.append(f"<table><caption>{esc(caption)}</caption><thead><tr>{head}</tr>"
                         f"</thead><tbody>{body}</tbody></table>")
        return "\n".join(parts)


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

    def summary(self, confidence: float = DEFAULT_CONFIDENCE) -> Summary:
        """Recomputed from the Parquet parts (JSON-safe: undefined ratios are None); a dict
        that a notebook shows as tables. Its intervals are at ``confidence`` (0 < c < 1)."""
        return Summary(json_safe(
            compute_summary(
                self.manifest,
                self.outcomes().collect(),
                self.events().collect(),
                self.decisions().collect(),
                self.wagers().collect(),
                confidence,
            )
        ))

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

    def _repr_html_(self) -> str:
        """The run's folder and its summary's tables (a notebook's display of a Run)."""
        return f"<p><code>{html.escape(repr(self))}</code></p>\n" + self.summary()._repr_html_()


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
