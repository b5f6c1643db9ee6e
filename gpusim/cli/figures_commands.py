"""Figures of a finished run: ``risk``, ``report`` and ``whatif``."""

from __future__ import annotations

from typing import Annotated

import typer

from gpusim.cli.common import check_confidence, echo_json, fail, run_data

__all__ = ["app"]

app = typer.Typer()


def _check_risk_args(bankroll: int, rounds: int, targets: list[float]) -> None:
    if bankroll <= 0:
        fail(f"--bankroll: got {bankroll}; must be a whole number of money units >= 1")
    if rounds <= 0:
        fail(f"--rounds: got {rounds}; must be a whole number of rounds >= 1")
    for t in targets:
        if not 0 < t < 1:
            fail(f"--target-ror: got {t}; must be a probability between 0 and 1, e.g. 0.01")


_BANKROLL_HELP = "Starting bankroll in money units (the ante is usually 1)."
_TARGET_HELP = "Target risk of ruin for the bankroll needed (repeatable; default 0.01 and 0.05)."

# options shared by `risk` and `report`
BankrollOpt = Annotated[int, typer.Option(help=_BANKROLL_HELP)]
HorizonOpt = Annotated[int, typer.Option(help="Session length / ruin horizon in rounds.")]
TargetRorOpt = Annotated[list[float] | None, typer.Option("--target-ror", help=_TARGET_HELP)]
PathsOpt = Annotated[int, typer.Option(help="Simulated bankroll paths (cross-check).")]
PathSeedOpt = Annotated[int, typer.Option(help="Seed of the simulated paths.")]
LiveSeatsOpt = Annotated[
    int | None, typer.Option("--live-seats", help="Live-table exposure for M seats.")
]
RoundsPerDayOpt = Annotated[int, typer.Option("--rounds-per-day", help="Rounds a day.")]
StakeDistOpt = Annotated[
    str | None,
    typer.Option("--stake-dist", help="Seat stakes in antes with weights: 1:50,5:30,25:20."),
]


@app.command("risk")
def risk_cmd(
    run: Annotated[str, typer.Argument(help="Run folder.")],
    bankroll: BankrollOpt = 100,
    rounds: HorizonOpt = 1000,
    target_ror: TargetRorOpt = None,
    bet: Annotated[str, typer.Option(help="Whose net result: total, main or one bet.")] = "total",
    paths: PathsOpt = 20_000,
    seed: PathSeedOpt = 1,
    live_seats: LiveSeatsOpt = None,
    rounds_per_day: RoundsPerDayOpt = 1000,
    stake_dist: StakeDistOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Session distribution and risk of ruin of a run.

    Exact after N rounds, with a simulated check."""
    targets = list(target_ror) if target_ror else [0.01, 0.05]
    _check_risk_args(bankroll, rounds, targets)
    if paths <= 0:
        fail(f"--paths: got {paths}; must be a whole number >= 1")
    data = run_data(run)
    from gpusim.run_figures import AnalysisError, live_figures, parse_stake_dist, risk_figures

    try:
        out = risk_figures(data, bankroll, rounds, bet=bet, targets=targets, paths=paths,
                           seed=seed)
        if live_seats is not None:
            out["live"] = live_figures(data, live_seats, rounds_per_day,
                                       parse_stake_dist(stake_dist), bet=bet)
    except AnalysisError as exc:
        fail(str(exc))
    if as_json:
        from gpusim.runs.jsonsafe import json_safe

        echo_json(json_safe(out))
        return
    from gpusim.report.cli_text import risk_text

    typer.echo(risk_text(out, config=data.rules.name, strategy=data.manifest.get("strategy")))


@app.command("report")
def report_cmd(
    run: Annotated[str, typer.Argument(help="Run folder.")],
    out: Annotated[str, typer.Option(help="File to write.")] = "report.html",
    fmt: Annotated[
        str | None,
        typer.Option("--format", help="html | md | json | xlsx (the PAR sheet); default: "
                     "from the --out suffix (.md, .markdown, .json, .xlsx), else html."),
    ] = None,
    data_dir: Annotated[
        str | None,
        typer.Option("--data", help="Also write the full session and ruin distributions "
                     "(Parquet) into this folder."),
    ] = None,
    bankroll: BankrollOpt = 100,
    rounds: HorizonOpt = 1000,
    target_ror: TargetRorOpt = None,
    bet: Annotated[str, typer.Option(help="Net result for sessions and ruin.")] = "total",
    exact: Annotated[
        str, typer.Option(help="auto (when the enumeration is cached) | always | never.")
    ] = "auto",
    paths: PathsOpt = 20_000,
    seed: PathSeedOpt = 1,
    live_seats: LiveSeatsOpt = None,
    rounds_per_day: RoundsPerDayOpt = 1000,
    stake_dist: StakeDistOpt = None,
    confidence: Annotated[
        float | None,
        typer.Option(help="Level of every confidence interval, strictly between 0 and 1 "
                     "(default 0.95; the simulated ruin check then keeps its 0.99)."),
    ] = None,
) -> None:
    """Write a run's risk report: HTML, Markdown, JSON or XLSX.

    HTML: one self-contained file with tables and plots; XLSX: the PAR sheet."""
    from pathlib import Path

    from gpusim.report.render import FORMATS

    if fmt is None:
        suffix = Path(out).suffix.lower().lstrip(".")
        fmt = {"md": "md", "markdown": "md", "json": "json", "xlsx": "xlsx"}.get(suffix, "html")
    if fmt not in FORMATS:
        fail(f"--format: got {fmt!r}; allowed: {', '.join(FORMATS)}")
    if exact not in ("auto", "always", "never"):
        fail(f"--exact: got {exact!r}; allowed: auto, always, never")
    targets = list(target_ror) if target_ror else [0.01, 0.05]
    _check_risk_args(bankroll, rounds, targets)
    level = None if confidence is None else check_confidence(confidence)
    parent = Path(out).expanduser().resolve().parent
    if not parent.is_dir():
        fail(f"--out: folder {str(parent)!r} does not exist")
    data = run_data(run, 0.95 if level is None else level)
    if data_dir is not None and Path(data_dir).exists() and not Path(data_dir).is_dir():
        fail(f"--data: {data_dir!r} exists and is not a folder")
    from gpusim.report.build import build_report_detail, write_data
    from gpusim.report.render import write_report
    from gpusim.run_figures import AnalysisError

    try:
        rep, detail = build_report_detail(
            data, bankroll=bankroll, rounds=rounds, targets=targets, bet=bet, exact=exact,
            paths=paths, seed=seed, live_seats=live_seats, rounds_per_day=rounds_per_day,
            stake_dist=stake_dist, confidence=level)
    except AnalysisError as exc:
        fail(str(exc))
    path = write_report(rep, out, fmt)
    typer.echo(f"wrote {path} ({fmt})", err=True)
    if data_dir is not None:
        for f in write_data(detail, data_dir):
            typer.echo(f"wrote {f}", err=True)


@app.command("whatif")
def whatif_cmd(
    run: Annotated[str, typer.Argument(help="Run folder.")],
    set_: Annotated[
        list[str] | None,
        typer.Option("--set", help="BET.LINE=PAY, e.g. bonus.AKs=30 (repeatable)."),
    ] = None,
    target_rtp: Annotated[
        str | None, typer.Option("--target-rtp", help="Solve --line's pay for this RTP (0.95).")
    ] = None,
    line: Annotated[str | None, typer.Option("--line", help="BET.LINE to solve for.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """RTP under another paytable, from a run's event counts.

    Or solve one line's pay for a target RTP."""
    if (target_rtp is None) != (line is None):
        fail("--target-rtp and --line go together: --target-rtp 0.95 --line bonus.AKs")
    if target_rtp is None and not set_:
        fail("whatif: give --set BET.LINE=PAY (repeatable) or --target-rtp X --line BET.LINE")
    data = run_data(run)
    from gpusim.run_figures import AnalysisError, solve_line, whatif_figures

    try:
        out = {}
        if set_:
            out["whatif"] = whatif_figures(data, list(set_))
        if line is not None:
            out["solve"] = solve_line(data, line, target_rtp)
    except AnalysisError as exc:
        fail(" ".join(str(exc).split()))
    if as_json:
        echo_json(out)
        return
    from gpusim.report.cli_text import whatif_text

    text = whatif_text(out, data.rounds)
    if text:
        typer.echo(text)
