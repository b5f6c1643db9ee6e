"""Batch jobs' run folders: ``merge`` the shards of a run, ``verify`` a folder."""

from __future__ import annotations

from typing import Annotated

import typer

from gpusim.cli.common import (
    LOG_EVERY_HELP,
    check_log_every,
    echo_json,
    fail,
    warn_if_being_written,
)

__all__ = ["app"]

app = typer.Typer()


@app.command("merge")
def merge_cmd(
    runs: Annotated[list[str], typer.Argument(help="Shard run folders (any order).")],
    out: Annotated[str, typer.Option(help="Merged run folder to write.")],
    force: Annotated[bool, typer.Option("--force", help="Replace an existing folder.")] = False,
    log_every: Annotated[
        float | None, typer.Option("--log-every", metavar="SECONDS", help=LOG_EVERY_HELP)
    ] = None,
) -> None:
    """Combine shard run folders into one run.

    Checks config, strategy, seed, rounds, version, ranges and every part's sha256 first."""
    import sys

    check_log_every(log_every)
    from rich.console import Console

    from gpusim.report.terminal import run_progress
    from gpusim.runs.merge import MergeError, merge_runs

    interactive = sys.stderr.isatty()
    # merging is quick next to simulating: no bar on a terminal, lines in a log
    stop, progress = run_progress(Console(stderr=True), label="merge", quiet=interactive,
                                  log_every=log_every, interactive=False)
    try:
        try:
            path = merge_runs(runs, out, force=force, progress=progress)
        finally:
            stop()
    except MergeError as exc:
        fail(str(exc))
    typer.echo(f"merged {len(runs)} folder(s) into {path}", err=True)


@app.command("verify")
def verify_cmd(
    run: Annotated[str, typer.Argument(help="Run folder.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Check a run folder: sha256, coverage, counts, config hash.

    Exit code 0 when the run is sound, 1 with the list of problems when not."""
    from gpusim.runs.runfolder import RunFolderError
    from gpusim.runs.verify import verify_run

    warn_if_being_written(run)
    try:
        problems = verify_run(run)
    except RunFolderError as exc:
        fail(str(exc))
    if as_json:
        echo_json({"run": run, "sound": not problems, "problems": problems})
    else:
        from gpusim.report.cli_text import verify_text

        typer.echo(verify_text(run, problems))
    if problems:
        raise typer.Exit(1)
