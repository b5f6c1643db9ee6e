"""Monte Carlo runs: ``simulate`` (locally, as one shard, or on a Ray cluster) and ``summary``."""

from __future__ import annotations

from typing import Annotated

import typer
from typer.core import TyperCommand

from gpusim.cli.common import (
    CONFIDENCE_HELP,
    LOG_EVERY_HELP,
    check_confidence,
    check_log_every,
    echo_json,
    fail,
    open_intact_run,
    warn_unfinished,
)
from gpusim.games import DEFAULT_CONFIG

__all__ = ["DEFAULT_SIM_CONFIG", "app"]

app = typer.Typer()

DEFAULT_SIM_CONFIG = DEFAULT_CONFIG


class _OptionalRayValue(TyperCommand):
    """``--ray [ADDRESS]``: a bare ``--ray`` (last, or followed by another option) means
    ``--ray=auto``; Typer has no option with an optional value."""

    def parse_args(self, ctx, args):
        args = list(args)
        for i, a in enumerate(args):
            if a == "--":
                break
            if a == "--ray" and (i + 1 == len(args) or args[i + 1].startswith("-")):
                args[i] = "--ray=auto"
        return super().parse_args(ctx, args)


_RAY_OPTION = typer.Option(
    "--ray", metavar="[ADDRESS]",
    help="Run as shards on a Ray cluster: --ray [ADDRESS] (default auto, or local).")
_RAY_TIMEOUT_HELP = "Fail a --ray run whose shards start or advance for this long (seconds)."


@app.command("simulate", cls=_OptionalRayValue)
def simulate_cmd(
    config: Annotated[
        str | None,
        typer.Argument(help="Shipped config name or TOML path. Default: casino_holdem, optimal."),
    ] = None,
    rounds: Annotated[str | None, typer.Option(help="Rounds to play: 2_000_000, 1e9.")] = None,
    seed: Annotated[int, typer.Option(help="Run seed (0..2^64-1).")] = 2026,
    out: Annotated[str, typer.Option(help="Run folder to write.")] = "runs/default",
    strategy: Annotated[
        str | None, typer.Option(help="Strategy name (see `gpusim games`).")
    ] = None,
    backend: Annotated[str, typer.Option(help="auto | jax-cpu | jax-gpu | cupy.")] = "auto",
    chunk: Annotated[
        str | None, typer.Option(help="Rounds per chunk (one Parquet part each).")
    ] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue an interrupted run.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing run folder.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar or table.")] = False,
    shard: Annotated[
        str | None, typer.Option(help="Play only slice I of N of the rounds: I/N, 0 <= I < N.")
    ] = None,
    ray: Annotated[str | None, _RAY_OPTION] = None,
    ray_timeout: Annotated[
        float, typer.Option("--ray-timeout", metavar="SECONDS", help=_RAY_TIMEOUT_HELP)
    ] = 120.0,
    log_every: Annotated[
        float | None, typer.Option("--log-every", metavar="SECONDS", help=LOG_EVERY_HELP)
    ] = None,
) -> None:
    """Monte Carlo run streaming outcome counts to Parquet.

    Per-bet outcome distributions; deterministic and resumable. SIGTERM or SIGINT keep the
    finished chunks and exit with 143 or 130."""
    import math

    if ray is not None and (shard is not None or resume):
        fail(f"--ray: cannot be combined with {'--shard' if shard else '--resume'}; "
             "a Ray run makes and merges its own shards")
    if not (math.isfinite(ray_timeout) and ray_timeout > 0):
        fail(f"--ray-timeout: got {ray_timeout}; must be a number of seconds > 0")
    check_log_every(log_every)
    with _CollectorPaused() as collector:
        _simulate(collector, config, rounds, seed, out, strategy, backend, chunk, resume, force,
                  quiet, shard, ray, ray_timeout, log_every)


class _CollectorPaused:
    """Python's cyclic garbage collector off while a run starts, back on once it computes.

    Start-up loads about a million long-lived objects (JAX, Polars, the games' descriptions),
    which the collector would go over again and again as they pile up: 0.10 to 0.14 s of a
    warm 10^5-round process on a 2-core machine (301 collections, two of them full ones of
    0.04-0.06 s each; measured with ``gc.callbacks``). :meth:`computing` (the runner's
    progress ``start``) freezes what start-up made out of the collector's reach and turns it
    back on; leaving the block undoes both, so a caller's process (a test) is as it was."""

    def __enter__(self) -> _CollectorPaused:
        import gc

        self._was_on, self._frozen = gc.isenabled(), False
        gc.disable()
        return self

    def computing(self) -> None:
        import gc

        if not self._frozen:
            gc.freeze()
            self._frozen = True
            if self._was_on:
                gc.enable()

    def __exit__(self, *exc) -> None:
        import gc

        if self._frozen:
            gc.unfreeze()
        if self._was_on:
            gc.enable()


def _simulate(collector: _CollectorPaused, config, rounds, seed, out, strategy, backend, chunk,
              resume, force, quiet, shard, ray, ray_timeout, log_every) -> None:
    """The body of ``simulate`` once its cheap checks have passed."""
    import dataclasses
    import sys

    from gpusim.compute.backends import BackendError
    from gpusim.config import ConfigError
    from gpusim.runs.interrupt import Interrupted, stop_on_signals
    from gpusim.runs.run_api import simulate
    from gpusim.runs.runfolder import RunFolderError
    from gpusim.runs.runner import DEFAULT_ROUNDS, Progress, SimulationError
    from gpusim.runs.shards import ShardError
    from gpusim.strategy import StrategyError

    interactive = sys.stderr.isatty()
    if quiet and (log_every is None or interactive):
        # nothing will be shown (run_progress draws no bar and prints no line for this), so
        # the display (rich) is not imported: a tenth of a second of a quiet run's start-up
        stop_progress, callbacks = (lambda: None), Progress()
    else:
        from rich.console import Console

        from gpusim.report.cli_text import default_config_note
        from gpusim.report.terminal import run_progress

        console = Console(stderr=False, quiet=quiet)
        if config is None and not quiet:
            note = default_config_note(DEFAULT_SIM_CONFIG, strategy,
                                       rounds or f"{DEFAULT_ROUNDS:_}")
            console.print("[dim]" + note)
        stop_progress, callbacks = run_progress(console, label="simulate", quiet=quiet,
                                                log_every=log_every, interactive=interactive)
    start = callbacks.start

    def computing(total: int, done: int) -> None:
        collector.computing()
        start(total, done)

    callbacks = dataclasses.replace(callbacks, start=computing)
    try:
        try:
            kwargs = dict(
                rounds=rounds if rounds is not None else DEFAULT_ROUNDS,
                seed=seed,
                out=out,
                strategy=strategy,
                backend=backend,
                chunk=chunk,
                force=force,
                progress=callbacks,
            )
            with stop_on_signals():
                if ray is not None:
                    from gpusim.runs.ray_driver import simulate_ray

                    run = simulate_ray(config or DEFAULT_SIM_CONFIG, address=ray,
                                       timeout=ray_timeout, **kwargs)
                else:
                    run = simulate(config or DEFAULT_SIM_CONFIG, resume=resume, shard=shard,
                                   **kwargs)
        finally:
            stop_progress()
    except (SimulationError, ConfigError, StrategyError, RunFolderError, BackendError,
            ShardError) as exc:
        fail(str(exc))
    except Interrupted as stop:
        resume_argv = _resume_argv(config or DEFAULT_SIM_CONFIG, rounds, seed, out, strategy,
                                   backend, chunk, shard, ray is not None, quiet, log_every)
        _stopped(stop, out, resume_argv)
    if not quiet:
        from gpusim.report.cli_text import run_folder_note
        from gpusim.report.terminal import base_stake, print_summary

        print_summary(run.summary(), console, ante=base_stake(run.manifest))
        console.print("[dim]" + run_folder_note(run.path))


def _resume_argv(config, rounds, seed, out, strategy, backend, chunk, shard, on_ray, quiet,
                 log_every) -> list[str]:
    """The command that continues this run, with absolute paths (a job may start elsewhere).

    A stopped Ray run continues as a local ``--resume`` with the chunk size the Ray run used
    (its chunks are written in round order, so what is kept is a prefix of the plan)."""
    from pathlib import Path

    from gpusim.runs.runner import DEFAULT_ROUNDS

    outp = Path(out).expanduser().resolve()
    cfg = Path(config).expanduser()
    argv = ["gpusim", "simulate", str(cfg.resolve()) if cfg.is_file() else config,
            "--rounds", str(rounds if rounds is not None else f"{DEFAULT_ROUNDS:_}"),
            "--seed", str(seed), "--out", str(outp)]
    if strategy:
        argv += ["--strategy", strategy]
    if backend != "auto":
        argv += ["--backend", backend]
    if on_ray:
        import json

        try:
            chunk = str(json.loads((outp / "manifest.json").read_text())["chunk_rounds"])
        except (OSError, ValueError, KeyError, TypeError):
            pass  # no chunk written yet: start afresh with the user's settings
    if chunk:
        argv += ["--chunk", str(chunk)]
    if shard:
        argv += ["--shard", shard]
    if quiet:
        argv.append("--quiet")
    if log_every is not None:
        argv += ["--log-every", f"{log_every:g}"]
    return [*argv, "--resume"]


def _stopped(stop, out: str, resume_argv: list[str]):
    """Print what a stopped run kept and how to continue it; exit 128 + signal."""
    import shlex
    from pathlib import Path

    from gpusim.report.cli_text import interrupted_text
    from gpusim.runs.run_api import open_run
    from gpusim.runs.runfolder import RunFolderError
    from gpusim.runs.verify import expected_range

    path = Path(out).expanduser().resolve()
    try:
        run = open_run(path)
        first, stop_round = expected_range(run.manifest)
        kept = (len(run.manifest["chunks_done"]), int(run.manifest["n_chunks"]),
                run.rounds_done, stop_round - first)
    except (RunFolderError, KeyError, TypeError, ValueError):
        kept = None
    typer.echo(interrupted_text(stop.name, path, kept, shlex.join(resume_argv)), err=True)
    raise typer.Exit(stop.exit_code)


@app.command("summary")
def summary_cmd(
    run: Annotated[str, typer.Argument(help="Run folder.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    confidence: Annotated[float, typer.Option(help=CONFIDENCE_HELP)] = 0.95,
) -> None:
    """Recompute a run's summary from its Parquet parts.

    Works on partial runs (completed chunks only)."""
    level = check_confidence(confidence)
    r = open_intact_run(run)
    if not r.complete:
        warn_unfinished(r, "summarising")
    s = r.summary(level)
    if as_json:
        echo_json(s)
    else:
        from rich.console import Console

        from gpusim.report.terminal import base_stake, print_summary

        print_summary(s, Console(), ante=base_stake(r.manifest))
