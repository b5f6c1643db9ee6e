"""What every command module shares: the one-line error exit, JSON printing, and the loaders
that turn a bad config or run folder into that one line.

Heavy modules (JAX, polars) are imported inside the functions, after the cheap checks, so that a
bad option fails without paying for them.
"""

from __future__ import annotations

import json
from typing import NoReturn

import typer

__all__ = ["CONFIDENCE_HELP", "LOG_EVERY_HELP", "check_confidence", "check_log_every",
           "check_out_file", "echo_json", "fail", "load_rules", "open_intact_run", "run_data",
           "strategy_of", "warn_if_being_written", "warn_unfinished"]


def fail(message: str) -> NoReturn:
    """Print one error line to stderr and exit with code 2."""
    typer.echo(f"gpusim: error: {message}", err=True)
    raise typer.Exit(2)


LOG_EVERY_HELP = ("Seconds between progress lines when stderr is not a terminal (a batch log; "
                  "default 30; 0: only the last line).")


def check_log_every(log_every: float | None) -> None:
    """``--log-every`` is a finite number of seconds >= 0; sets it for every progress log."""
    import math

    if log_every is not None:
        if not (math.isfinite(log_every) and log_every >= 0):
            fail(f"--log-every: got {log_every}; must be a number of seconds >= 0")
        from gpusim.progress_log import set_default_every

        set_default_every(log_every)


CONFIDENCE_HELP = ("Level of every confidence interval, strictly between 0 and 1 (default 0.95; "
                   "0.99 gives 99 % intervals).")


def check_confidence(confidence: float) -> float:
    """``--confidence`` is a level strictly between 0 and 1; the one-line error otherwise."""
    from gpusim.stats import check_confidence as check

    try:
        return check(confidence, "--confidence")
    except ValueError as exc:
        fail(str(exc))


def echo_json(obj) -> None:
    typer.echo(json.dumps(obj, indent=2, sort_keys=False))


def load_rules(config: str):
    """The rules of a config name or TOML path; a bad config is the one-line error."""
    from gpusim.config import ConfigError, load_config

    try:
        return load_config(config)
    except ConfigError as exc:
        fail(str(exc))


def strategy_of(rules, strategy: str | None) -> str:
    """``--strategy`` (default: the config's default strategy), one of the game's strategies;
    the one-line error otherwise."""
    from gpusim.games.strategy_registry import strategy_names

    name = strategy or rules.default_strategy
    if name not in strategy_names(rules.game):
        fail(f"--strategy: {name!r} is not a strategy of {rules.game}; allowed: "
             + ", ".join(strategy_names(rules.game)))
    return name


def check_out_file(path: str, field: str, suffix: str | None = None) -> None:
    """Fail before any work when an output file cannot be written where asked."""
    from pathlib import Path

    p = Path(path).expanduser()
    if suffix is not None and p.suffix.lower() != suffix:
        fail(f"{field}: got {path!r}; the file name must end in {suffix}")
    if not p.resolve().parent.is_dir():
        fail(f"{field}: folder {str(p.resolve().parent)!r} does not exist")


def warn_unfinished(run, using: str) -> None:
    """One warning line on stderr for a run that stopped before its last chunk."""
    typer.echo(
        f"gpusim: warning: run is unfinished ({run.rounds_done:,} of "
        f"{run.manifest['rounds']:,} rounds); {using} the completed chunks only",
        err=True,
    )


def open_intact_run(path: str):
    """The run in folder ``path`` after checking every part's sha256; the one-line error if it
    is not a run folder or a part is missing or damaged."""
    from gpusim.runs.run_api import open_run
    from gpusim.runs.runfolder import RunFolderError
    from gpusim.runs.verify import require_intact

    warn_if_being_written(path)
    try:
        require_intact(path)
        return open_run(path)
    except RunFolderError as exc:
        fail(str(exc))


def warn_if_being_written(path: str) -> None:
    """One warning line on stderr when another process holds the run folder's writer lock."""
    from gpusim.runs.lock import holder_text, lock_holder

    info = lock_holder(path)
    if info is not None:
        from gpusim.report.cli_text import still_writing_text

        typer.echo(still_writing_text(path, holder_text(info)), err=True)


def run_data(path: str, confidence: float = 0.95):
    """Load a run's counts (its summary's intervals at ``confidence``); a missing folder is an
    error, an unfinished run a warning."""
    r = open_intact_run(path)
    from gpusim.run_figures import AnalysisError, load_run_data
    from gpusim.runs.runfolder import RunFolderError

    try:
        if not r.complete and r.rounds_done:
            warn_unfinished(r, "using")
        return load_run_data(r, confidence)
    except (RunFolderError, AnalysisError) as exc:
        fail(str(exc))
