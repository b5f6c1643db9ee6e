"""The dealer's randomness battery: ``randomness`` (:mod:`gpusim.randomness`)."""

from __future__ import annotations

from typing import Annotated

import typer

from gpusim.cli.common import check_out_file, echo_json, fail

__all__ = ["app"]

app = typer.Typer()


@app.command("randomness")
def randomness_cmd(
    run: Annotated[
        str | None,
        typer.Option(help="Run folder: test its own generator stream (its seed, its game's "
                     "deal, its rounds)."),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(help="Test this seed's stream instead of a run's (default 1)."),
    ] = None,
    config: Annotated[
        str | None,
        typer.Option(help="With --seed: deal as this config's game does (default: the "
                     "9-card hold'em deal)."),
    ] = None,
    rounds: Annotated[
        str | None,
        typer.Option(help="Rounds to test, e.g. 1e6 (default 1e7; with --run at most the "
                     "run's rounds)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    out: Annotated[str | None, typer.Option(help="Also write the JSON to this file.")] = None,
) -> None:
    """Randomness battery of a run's dealt cards (GLI-11 style).

    Chi-square tests of the cards at each position, of every pair of positions, of the first two
    cards and of the five-card categories; gap and runs tests of the raw generator words. Each
    test passes at p >= 0.01 / (number of tests) (Bonferroni); exit code 1 when any fails."""
    import json
    import os
    import time
    from pathlib import Path

    from gpusim.runs.runner import SimulationError, parse_rounds

    if run is not None and seed is not None:
        fail(f"--run and --seed: got both ({run!r}, {seed}); give at most one of them")
    if run is not None and config is not None:
        fail(f"--config: got {config!r}; a run deals as its own config, so give --config only "
             "with --seed")
    if seed is not None and not 0 <= seed < 2**64:
        fail(f"--seed: got {seed}; expected an integer in 0..2^64-1")
    n = None
    if rounds is not None:
        try:
            n = parse_rounds(rounds)
        except SimulationError as exc:
            fail(str(exc))
    if out is not None:
        check_out_file(out, "--out")
        if Path(out).expanduser().is_dir():
            fail(f"--out: {out!r} is a folder; give a file name, e.g. randomness.json")
    from gpusim.randomness import DEFAULT_RUN_ROUNDS, battery, battery_for_run, battery_text

    t0 = time.perf_counter()
    if run is not None:
        try:
            res = battery_for_run(run, n)
        except ValueError as exc:  # not a run folder, or a manifest that cannot be read
            msg = str(exc)
            fail("--" + msg if msg.startswith("run: ") else msg)
        if n is not None and n > res["run_rounds"]:
            typer.echo(f"gpusim: warning: --rounds {rounds} is more than the run's "
                       f"{res['run_rounds']:,} rounds; tested those", err=True)
    else:
        from gpusim.cli.common import load_rules
        from gpusim.randomness import HOLDEM_FIVE, N_POS, deal_shape

        n_cards: int = N_POS
        five: tuple[int, ...] | None = HOLDEM_FIVE
        if config is not None:
            n_cards, five = deal_shape(load_rules(config))
        res = battery(1 if seed is None else seed, n or DEFAULT_RUN_ROUNDS, n_cards=n_cards,
                      five=five)
        if config is not None:
            res = {"config": config, **res}
    res["seconds"] = round(time.perf_counter() - t0, 1)
    if out is not None:
        p = Path(out).expanduser()
        tmp = p.with_name(f".{p.name}.tmp")
        tmp.write_text(json.dumps(res, indent=2) + "\n")
        os.replace(tmp, p)
    if as_json:
        echo_json(res)
    else:
        typer.echo(battery_text(res))
    if out is not None:
        typer.echo(f"wrote {out}", err=True)
    if not res["passed"]:
        raise typer.Exit(1)

