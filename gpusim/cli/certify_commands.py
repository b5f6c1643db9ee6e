"""``gpusim certify``: the certification pack a test lab files for a game, in one command."""

from __future__ import annotations

from typing import Annotated

import typer

from gpusim.cli.common import (
    CONFIDENCE_HELP,
    check_confidence,
    check_out_file,
    fail,
    load_rules,
    strategy_of,
)

__all__ = ["app"]

app = typer.Typer()


@app.command("certify")
def certify_cmd(
    config: Annotated[str, typer.Argument(help="Config name (e.g. casino_holdem) or TOML path.")],
    out: Annotated[str, typer.Option("--out", help="The pack's file (.xlsx, or .html with "
                                                   "--format html).")],
    strategy: Annotated[
        str | None, typer.Option(help="Strategy (default: the config's default strategy).")
    ] = None,
    run: Annotated[
        str | None,
        typer.Option("--run", help="A run folder of this config and strategy: adds the "
                                   "simulation's verification against exact and the randomness "
                                   "battery on its generator stream."),
    ] = None,
    confidence: Annotated[float, typer.Option(help=CONFIDENCE_HELP)] = 0.95,
    fmt: Annotated[str, typer.Option("--format", help="xlsx | html")] = "xlsx",
    randomness_rounds: Annotated[
        int | None,
        typer.Option("--randomness-rounds", help="Rounds of the run's stream the battery reads "
                                                 "(default: the battery's own, capped by the "
                                                 "run's rounds)."),
    ] = None,
) -> None:
    """The certification pack a test lab files (xlsx or html).

    Rules in words, paytables, every bet's exact figures with integer combinations and max win,
    the strategy chart; with --run the simulation's verification and the randomness battery."""
    level = check_confidence(confidence)
    if fmt not in ("xlsx", "html"):
        fail(f"--format: {fmt!r} is not a pack format; allowed: xlsx, html")
    check_out_file(out, "--out", f".{fmt}")
    if randomness_rounds is not None and randomness_rounds < 1:
        fail(f"--randomness-rounds: got {randomness_rounds}; must be at least 1")
    rules = load_rules(config)
    from gpusim.config import shipped_configs
    from gpusim.games import spec_for

    if spec_for(rules).solver() is None:
        fail(f"config {rules.name!r}: the game {rules.game} has no exact solver"
             f"{spec_for(rules).why_missing()}; a pack needs "
             "the exact figures")
    name = strategy_of(rules, strategy)
    if run is not None:
        from gpusim.runs.runfolder import RunFolder, RunFolderError

        try:
            RunFolder.open(run)
        except RunFolderError as exc:
            fail(str(exc))
    from pathlib import Path

    path = Path(config) if Path(config).is_file() else shipped_configs().get(config)
    from gpusim.report.certify import build_pack
    from gpusim.report.certify_write import write_pack_html, write_pack_xlsx
    from gpusim.run_figures.data import AnalysisError
    from gpusim.strategy import StrategyError

    try:
        pack = build_pack(rules, name, config_path=path, run=run, confidence=level,
                          randomness_rounds=randomness_rounds, progress=True)
    except (AnalysisError, StrategyError, ValueError) as exc:
        fail(str(exc))
    written = (write_pack_html if fmt == "html" else write_pack_xlsx)(pack, out)
    b = pack["bets"]
    typer.echo(f"wrote {written} (certification pack, {len(b)} bets, "
               f"{pack['cover']['deals_counted']:,} deals counted"
               + (f", run {run} verified" if run else "") + ")", err=True)
