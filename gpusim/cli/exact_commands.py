"""``gpusim exact``: the exact analysis of a config and strategy."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from gpusim.cli.common import (
    LOG_EVERY_HELP,
    check_log_every,
    check_out_file,
    echo_json,
    fail,
    load_rules,
    strategy_of,
)

__all__ = ["app"]

app = typer.Typer()


@app.command("exact")
def exact_cmd(
    config: Annotated[str, typer.Argument(help="Config name (e.g. casino_holdem) or TOML path.")],
    strategy: Annotated[
        str | None, typer.Option(help="Strategy (default: the config's default strategy).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON (docs/exact.md).")] = False,
    out: Annotated[str | None, typer.Option(help="Also write the JSON report here.")] = None,
    par: Annotated[
        str | None, typer.Option("--par", help="Also write the PAR sheet (.xlsx) here.")
    ] = None,
    html: Annotated[
        str | None,
        typer.Option("--html", metavar="PATH",
                     help="Also write the exact report as one self-contained HTML page, with "
                          "the strategy chart."),
    ] = None,
    write_tables: Annotated[
        bool, typer.Option("--write-tables", help="Regenerate the shipped decision tables.")
    ] = False,
    backend: Annotated[
        str, typer.Option(help="What counts the deals: cpu | cupy (a CUDA kernel, always counts).")
    ] = "cpu",
    recompute: Annotated[
        bool, typer.Option("--recompute", help="Count every deal even if a report is shipped.")
    ] = False,
    log_every: Annotated[
        float | None, typer.Option("--log-every", metavar="SECONDS", help=LOG_EVERY_HELP)
    ] = None,
    set_pays: Annotated[
        list[str] | None,
        typer.Option("--set", metavar="BET.LINE=PAY",
                     help="Price another paytable (repeatable, e.g. --set bonus.AKs=30): the "
                          "config with these pays, as if written to a file; a main-game line "
                          "re-optimises the optimal strategy."),
    ] = None,
) -> None:
    """Exact analysis: count every deal, solve the strategy.

    Optimal strategy, return table of every bet, house edge, SD."""
    check_log_every(log_every)
    from gpusim.strategy import StrategyError

    rules = load_rules(config)
    from gpusim.games import spec_for

    if set_pays:
        from gpusim.config import ConfigError, parse_pay_settings, with_pays

        try:
            rules = with_pays(rules, parse_pay_settings(rules, set_pays))
        except ConfigError as exc:
            fail(str(exc))
        if write_tables:
            fail("--set: the shipped decision tables are the written configs'; --write-tables "
                 "goes without --set")

    if spec_for(rules).solver() is None:
        fail(f"config {rules.name!r}: the game {rules.game} has no exact solver"
             f"{spec_for(rules).why_missing()}; "
             "simulate it instead (gpusim simulate)")
    name = strategy_of(rules, strategy)
    if backend not in ("cpu", "cupy"):
        fail(f"--backend: {backend!r} is not a backend of gpusim exact; allowed: cpu, cupy")
    if backend == "cupy":
        from gpusim.exact.cupy_counts import unavailable_reason

        why = unavailable_reason()
        if why is not None:
            fail(f"--backend cupy: no usable GPU: {why}; use --backend cpu")
    if par is not None:
        check_out_file(par, "--par", ".xlsx")
    if html is not None:
        check_out_file(html, "--html", ".html")
    from gpusim.exact.shipped import shipped_report
    from gpusim.runs.exact_on_demand import exact_report, write_shipped_tables

    if write_tables:
        entry = write_shipped_tables(rules, f"gpusim exact {rules.name} --write-tables",
                                     backend=backend)
        typer.echo(f"wrote {entry['file']} sha256 {entry['sha256']}", err=True)
    # the GPU backend is asked for to count, so it never answers from the shipped report
    counting = recompute or write_tables or backend == "cupy"
    try:
        report = None if counting else shipped_report(rules, name)
    except ValueError as exc:  # a shipped report of a format this version does not read
        fail(str(exc))
    if report is not None:
        typer.echo("gpusim: note: the shipped exact report for this config and strategy "
                   "(sha256 checked); --recompute counts every deal again", err=True)
    try:
        report = report or exact_report(rules, name, backend=backend)
    except StrategyError as exc:
        fail(str(exc))
    if set_pays:
        # the report says which paytable it priced: the config's name with these lines changed
        report = {**report, "paytable_changes": dict(s.split("=", 1) for s in set_pays),
                  "config_hash": rules.config_hash}
        typer.echo("gpusim: note: priced with " + ", ".join(set_pays) + " (config hash "
                   f"{rules.config_hash[:12]}); the same as gpusim exact on a config file "
                   "with these pays", err=True)
    if out is not None:
        from pathlib import Path

        Path(out).write_text(json.dumps(report, indent=2) + "\n")
    if par is not None:
        from gpusim.report.par import exact_par_tables, write_par

        typer.echo(f"wrote {write_par(exact_par_tables(report), par)} (PAR sheet)", err=True)
    if html is not None:
        from gpusim.report.exact_html import write_exact_html

        typer.echo(f"wrote {write_exact_html(report, html)} (HTML report)", err=True)
    if as_json:
        echo_json(report)
    else:
        from gpusim.report.cli_text import exact_text

        typer.echo(exact_text(report))
