"""Monte Carlo runs: ``simulate`` (locally, as one shard, or on a Ray cluster) and ``summary``."""

from __future__ import annotations

from typing import Annotated

import typer
from typer.core import TyperCommand

from gpusim.cli.common import echo_json, fail, open_intact_run, warn_unfinished

__all__ = ["DEFAULT_SIM_CONFIG", "app"]

app = typer.Typer()

DEFAULT_SIM_CONFIG = "casino_holdem"


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
) -> None:
    """Monte Carlo run streaming outcome counts to Parquet.

    Per-bet outcome distributions; deterministic and resumable."""
    if ray is not None and (shard is not None or resume):
        fail(f"--ray: cannot be combined with {'--shard' if shard else '--resume'}; "
             "a Ray run makes and merges its own shards")
    from rich.console import Console

    from gpusim.config import ConfigError
    from gpusim.report.cli_text import default_config_note, run_folder_note
    from gpusim.report.terminal import print_summary, rich_progress
    from gpusim.runs.driver import DEFAULT_ROUNDS, SimulationError
    from gpusim.runs.run import simulate
    from gpusim.runs.runfolder import RunFolderError
    from gpusim.runs.shards import ShardError
    from gpusim.sim.backends import BackendError
    from gpusim.strategy import StrategyError

    console = Console(stderr=False, quiet=quiet)
    if config is None and not quiet:
        note = default_config_note(DEFAULT_SIM_CONFIG, strategy, rounds or f"{DEFAULT_ROUNDS:_}")
        console.print("[dim]" + note)
    bar, callbacks = rich_progress(console)
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
            if ray is not None:
                from gpusim.runs.ray_driver import simulate_ray

                run = simulate_ray(config or DEFAULT_SIM_CONFIG, address=ray, **kwargs)
            else:
                run = simulate(config or DEFAULT_SIM_CONFIG, resume=resume, shard=shard,
                               **kwargs)
        finally:
            bar.stop()
    except (SimulationError, ConfigError, StrategyError, RunFolderError, BackendError,
            ShardError) as exc:
        fail(str(exc))
    if not quiet:
        print_summary(run.summary(), console)
        console.print("[dim]" + run_folder_note(run.path))


@app.command("summary")
def summary_cmd(
    run: Annotated[str, typer.Argument(help="Run folder.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Recompute a run's summary from its Parquet parts.

    Works on partial runs (completed chunks only)."""
    r = open_intact_run(run)
    if not r.complete:
        warn_unfinished(r, "summarising")
    s = r.summary()
    if as_json:
        echo_json(s)
    else:
        from rich.console import Console

        from gpusim.report.terminal import print_summary

        print_summary(s, Console())
