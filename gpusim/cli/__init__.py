"""The ``gpusim`` command line: thin Typer commands that parse, call the library and print.

Every user error ends the same way: one line on stderr that names the field, the value and what
is allowed, exit code 2, no traceback (see :func:`fail`).
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, NoReturn

import typer
from typer.core import TyperCommand

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="GPU-accelerated batch simulator and exact analyser for casino poker table games.",
)
bench_app = typer.Typer(no_args_is_help=True, help="Measure speed against installed peers.")
app.add_typer(bench_app, name="bench", help="Measure speed against installed peers.")


def _print_version(value: bool) -> None:
    if value:
        from gpusim import __version__

        typer.echo(f"gpusim {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True,
                     help="Print the version and exit."),
    ] = False,
) -> None:
    """GPU-accelerated batch simulator and exact analyser for casino poker table games."""


def fail(message: str) -> NoReturn:
    """Print one error line to stderr and exit with code 2."""
    typer.echo(f"gpusim: error: {message}", err=True)
    raise typer.Exit(2)


def echo_json(obj) -> None:
    typer.echo(json.dumps(obj, indent=2, sort_keys=False))


# --- eval --------------------------------------------------------------------------------------


@app.command("eval")
def eval_cmd(
    cards: Annotated[list[str], typer.Argument(help="5, 6 or 7 cards, e.g. As Ks Qs Js Ts 2c 3d.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Rank a 5-7 card hand: category, best five, 32-bit rank."""
    import numpy as np

    from gpusim.cards import CardError, format_card, parse_cards
    from gpusim.evaluate import CATEGORY_NAMES, best_five, describe, evaluate, hand_category

    try:
        codes = parse_cards(cards)
    except CardError as exc:
        fail(str(exc))
    if not 5 <= len(codes) <= 7:
        fail(f"cards: got {len(codes)} cards; give 5, 6 or 7 distinct cards")
    arr = np.asarray([codes], dtype=np.int32)
    rank = int(np.asarray(evaluate(arr))[0])
    cat = int(np.asarray(hand_category(np.uint32(rank))))
    best = [format_card(c) for c in np.asarray(best_five(arr))[0]]
    if as_json:
        echo_json(
            {
                "cards": [format_card(c) for c in codes],
                "category": CATEGORY_NAMES[cat],
                "category_index": cat,
                "description": describe(rank),
                "best_five": best,
                "rank": rank,
            }
        )
        return
    typer.echo(f"category:  {CATEGORY_NAMES[cat]}  ({describe(rank)})")
    typer.echo(f"best five: {' '.join(best)}")
    typer.echo(f"rank:      {rank} (0x{rank:08x})")


# --- bench -------------------------------------------------------------------------------------


@bench_app.command("evaluator")
def bench_evaluator_cmd(
    hands: Annotated[int, typer.Option(help="7-card hands per timed batch.")] = 2_000_000,
    repeats: Annotated[int, typer.Option(help="Timed repeats; the median is reported.")] = 5,
    seed: Annotated[int, typer.Option(help="Seed for the pre-generated hands.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """7-card evaluations/s: gpusim and each installed peer."""
    from gpusim.sim.bench import bench_evaluator

    if hands <= 0:
        fail(f"--hands: got {hands}; must be a positive integer")
    if repeats <= 0:
        fail(f"--repeats: got {repeats}; must be a positive integer")
    result = bench_evaluator(n_hands=hands, repeats=repeats, seed=seed)
    if as_json:
        echo_json(result)
        return
    typer.echo(f"{'evaluator':<16}{'evals/s (median)':>20}{'vs gpusim':>12}")
    typer.echo(f"{'gpusim (jax)':<16}{result['evals_per_s']:>20,.0f}{1.0:>12.2f}")
    for name, rate in result["peers"].items():
        typer.echo(f"{name:<16}{rate:>20,.0f}{rate / result['evals_per_s']:>12.4f}")


# --- devices (compute backends) ---------------------------------------------------------------


@app.command("devices")
def devices_cmd(
    json_out: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
    compile_kernels: Annotated[
        bool, typer.Option("--compile/--no-compile", help="Also compile both kernels with NVRTC.")
    ] = True,
) -> None:
    """Usable backends and devices; why the others are not."""
    from gpusim.sim.backends.devices import format_report, report

    rep = report(compile_kernels=compile_kernels)
    if json_out:
        echo_json(rep)
    else:
        typer.echo(format_report(rep))


# --- games and play (game engines) -------------------------------------------------------------

_GAME_TITLES = {"casino_holdem": "Casino Hold'em", "holdem_bonus": "Texas Hold'em Bonus Poker"}


def _load_rules(config: str):
    from gpusim.config import ConfigError, load_config

    try:
        return load_config(config)
    except ConfigError as exc:
        fail(str(exc))


@app.command("games")
def games_cmd(
    check: Annotated[
        str | None, typer.Option("--check", help="Validate this config file (or name) and stop.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List games, configs and strategies; --check a config.

    Validate a config file with --check FILE."""
    from gpusim.config import GAMES, load_config, shipped_configs
    from gpusim.games import bets
    from gpusim.strategy import strategy_description, strategy_names

    if check is not None:
        rules = _load_rules(check)
        typer.echo(f"{check}: ok ({rules.game}, config_hash {rules.config_hash})")
        return
    configs = {name: load_config(path) for name, path in shipped_configs().items()}
    info = {
        "games": {
            g: {"title": _GAME_TITLES[g], "strategies": list(strategy_names(g))} for g in GAMES
        },
        "configs": {
            n: {"game": r.game, "description": r.description, "bets": list(bets(r))}
            for n, r in configs.items()
        },
    }
    if as_json:
        echo_json(info)
        return
    typer.echo("games:")
    for g in GAMES:
        typer.echo(f"  {g:<16} {_GAME_TITLES[g]}")
    typer.echo("configs:")
    width = max((len(n) for n in configs), default=0)
    for n, r in configs.items():
        typer.echo(f"  {n:<{width}}  {r.description or r.game}")
    typer.echo("strategies:")
    for g in GAMES:
        for s in strategy_names(g):
            typer.echo(f"  {g:<16} {s:<18} {strategy_description(g, s)}")


def _parse_range(text: str) -> tuple[int, int]:
    parts = text.split(":")
    try:
        a, b = (int(p) for p in parts)
    except ValueError:
        a, b = -1, -1
    from gpusim.deal import MAX_ROUND

    if len(parts) != 2 or not 0 <= a < b <= MAX_ROUND or b - a > 1_000_000:
        fail(
            f"--rounds: got {text!r}; expected A:B with whole numbers 0 <= A < B <= 2**48 "
            "(rounds A .. B-1, at most 1,000,000 of them)"
        )
    return a, b


@app.command("play")
def play_cmd(
    config: Annotated[str, typer.Argument(help="Config name (see `gpusim games`) or TOML path.")],
    seed: Annotated[int, typer.Option("--seed", help="Run seed (deals are reproducible).")],
    rounds: Annotated[str, typer.Option("--rounds", help="Round range A:B (A .. B-1).")] = "0:10",
    strategy: Annotated[
        str | None, typer.Option("--strategy", help="Strategy name; default: the config's.")
    ] = None,
    jackpot_meter: Annotated[
        int | None,
        typer.Option("--jackpot-meter", help="Meter a Jackpot royal wins (default: reset value)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="JSON Lines, one round a line.")] = False,
) -> None:
    """Show dealt rounds: cards, decisions and every bet's net.

    Each round: cards, every decision, both hands, and every bet's stake, net and event."""
    from gpusim.games.play import format_record, play_records
    from gpusim.strategy import StrategyError, resolve_strategy

    rules = _load_rules(config)
    first, stop = _parse_range(rounds)
    if seed < 0:
        fail(f"--seed: got {seed}; must be a whole number >= 0")
    if jackpot_meter is not None and not 0 <= jackpot_meter < 2**31:
        fail(f"--jackpot-meter: got {jackpot_meter}; must be a whole number 0 .. 2147483647")
    try:
        strat, note = resolve_strategy(strategy, rules)
    except StrategyError as exc:
        fail(f"--strategy: {exc}")
    if note:
        typer.echo(f"gpusim: note: {note}", err=True)
    try:
        records = play_records(
            rules,
            strat,
            seed=seed,
            first_round=first,
            n_rounds=stop - first,
            jackpot_meter=jackpot_meter,
        )
    except ValueError as exc:
        fail(" ".join(str(exc).split()))
    if as_json:
        for rec in records:
            typer.echo(json.dumps(rec, separators=(",", ":")))
        return
    typer.echo(f"{rules.name} ({rules.game}), strategy {strat.name}, seed {seed}")
    for rec in records:
        typer.echo(format_record(rec))


# --- exact (exact analysis) --------------------------------------------------------------------


def _check_out_file(path: str, field: str, suffix: str | None = None) -> None:
    """Fail before any work when an output file cannot be written where asked."""
    from pathlib import Path

    p = Path(path).expanduser()
    if suffix is not None and p.suffix.lower() != suffix:
        fail(f"{field}: got {path!r}; the file name must end in {suffix}")
    if not p.resolve().parent.is_dir():
        fail(f"{field}: folder {str(p.resolve().parent)!r} does not exist")


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
    write_tables: Annotated[
        bool, typer.Option("--write-tables", help="Regenerate the shipped decision tables.")
    ] = False,
    backend: Annotated[
        str, typer.Option(help="What counts the deals: cpu | cupy (a CUDA kernel, always counts).")
    ] = "cpu",
    recompute: Annotated[
        bool, typer.Option("--recompute", help="Count every deal even if a report is shipped.")
    ] = False,
) -> None:
    """Exact analysis: count every deal, solve the strategy.

    Optimal strategy, return table of every bet, house edge, SD."""
    from gpusim.config import ConfigError, load_config
    from gpusim.exact.report import render_text
    from gpusim.exact.tables import exact_report, write_shipped_tables
    from gpusim.strategy import StrategyError, strategy_names

    try:
        rules = load_config(config)
    except ConfigError as exc:
        fail(str(exc))
    name = strategy or rules.default_strategy
    if name not in strategy_names(rules.game):
        fail(f"--strategy: {name!r} is not a strategy of {rules.game}; allowed: "
             + ", ".join(strategy_names(rules.game)))
    if backend not in ("cpu", "cupy"):
        fail(f"--backend: {backend!r} is not a backend of gpusim exact; allowed: cpu, cupy")
    if backend == "cupy":
        from gpusim.exact.cupy_backend import unavailable_reason

        why = unavailable_reason()
        if why is not None:
            fail(f"--backend cupy: no usable GPU: {why}; use --backend cpu")
    if par is not None:
        _check_out_file(par, "--par", ".xlsx")
    if write_tables:
        entry = write_shipped_tables(rules, f"gpusim exact {rules.name} --write-tables",
                                     backend=backend)
        typer.echo(f"wrote {entry['file']} sha256 {entry['sha256']}", err=True)
    from gpusim.exact.shipped import shipped_report

    # the GPU backend is asked for to count, so it never answers from the shipped report
    counting = recompute or write_tables or backend == "cupy"
    report = None if counting else shipped_report(rules, name)
    if report is not None:
        typer.echo("gpusim: note: the shipped exact report for this config and strategy "
                   "(sha256 checked); --recompute counts every deal again", err=True)
    try:
        report = report or exact_report(rules, name, backend=backend)
    except StrategyError as exc:
        fail(str(exc))
    if out is not None:
        from pathlib import Path

        Path(out).write_text(json.dumps(report, indent=2) + "\n")
    if par is not None:
        from gpusim.report.par import exact_par_tables, write_par

        typer.echo(f"wrote {write_par(exact_par_tables(report), par)} (PAR sheet)", err=True)
    if as_json:
        echo_json(report)
    else:
        typer.echo(render_text(report))


# --- simulate and summary (Monte Carlo runner) -------------------------------------------------

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
    from rich.console import Console

    from gpusim.config import ConfigError
    from gpusim.report.terminal import print_summary, rich_progress
    from gpusim.runs.driver import DEFAULT_ROUNDS, SimulationError
    from gpusim.runs.run import simulate
    from gpusim.runs.runfolder import RunFolderError
    from gpusim.runs.shards import ShardError
    from gpusim.sim.backends import BackendError
    from gpusim.strategy import StrategyError

    if ray is not None and (shard is not None or resume):
        fail(f"--ray: cannot be combined with {'--shard' if shard else '--resume'}; "
             "a Ray run makes and merges its own shards")
    console = Console(stderr=False, quiet=quiet)
    if config is None and not quiet:
        console.print(
            f"[dim]no CONFIG given: embedded default {DEFAULT_SIM_CONFIG}, "
            f"{strategy or 'optimal'} strategy, {rounds or f'{DEFAULT_ROUNDS:_}'} rounds"
        )
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
        console.print(f"[dim]run folder: {run.path}")


@app.command("summary")
def summary_cmd(
    run: Annotated[str, typer.Argument(help="Run folder.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Recompute a run's summary from its Parquet parts.

    Works on partial runs (completed chunks only)."""
    from rich.console import Console

    from gpusim.report.terminal import print_summary
    from gpusim.runs.run import open_run
    from gpusim.runs.runfolder import RunFolderError
    from gpusim.runs.verify import require_intact

    try:
        require_intact(run)
        r = open_run(run)
    except RunFolderError as exc:
        fail(str(exc))
    _check_parts(r)
    if not r.complete:
        typer.echo(
            f"gpusim: warning: run is unfinished ({r.rounds_done:,} of "
            f"{r.manifest['rounds']:,} rounds); summarising the completed chunks only",
            err=True,
        )
    s = r.summary()
    if as_json:
        echo_json(s)
    else:
        print_summary(s, Console())


# --- report, risk and whatif (run analysis) ----------------------------------------------------


def _check_parts(r) -> None:
    bad = r.verify()
    if bad:
        fail(f"run: part {bad[0]!r} of {str(r.path)!r} is missing or does not match its sha256 "
             "in the manifest; `gpusim simulate ... --resume` recomputes that chunk")


def _run_data(run: str):
    """Load a run's counts; a missing folder is an error, an unfinished run a warning."""
    from gpusim.analysis import AnalysisError, load_run_data
    from gpusim.runs.run import open_run
    from gpusim.runs.runfolder import RunFolderError
    from gpusim.runs.verify import require_intact

    try:
        require_intact(run)
        r = open_run(run)
        _check_parts(r)
        if not r.complete and r.rounds_done:
            typer.echo(
                f"gpusim: warning: run is unfinished ({r.rounds_done:,} of "
                f"{r.manifest['rounds']:,} rounds); using the completed chunks only",
                err=True,
            )
        return load_run_data(r)
    except (RunFolderError, AnalysisError) as exc:
        fail(str(exc))


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
    from gpusim.analysis import AnalysisError, live_figures, parse_stake_dist, risk_figures

    targets = list(target_ror) if target_ror else [0.01, 0.05]
    _check_risk_args(bankroll, rounds, targets)
    if paths <= 0:
        fail(f"--paths: got {paths}; must be a whole number >= 1")
    data = _run_data(run)
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
    from gpusim.report.text import fmt_int, fmt_num, fmt_pct

    s, r = out["session"], out["ruin"]
    typer.echo(f"{data.rules.name} ({data.manifest.get('strategy')}), {data.rounds:,} rounds "
               f"in the run; bet {bet}")
    typer.echo(f"session of {rounds:,} rounds: mean {fmt_num(s['mean'], 2)}, SD "
               f"{fmt_num(s['sd'], 2)}, P(ahead) {fmt_pct(s['p_ahead'])}, P(even) "
               f"{fmt_pct(s['p_even'])}, P(behind) {fmt_pct(s['p_behind'])}")
    typer.echo("  percentiles: " + ", ".join(f"{p}%: {fmt_int(v)}"
                                             for p, v in s["percentiles"].items()))
    f = r["finite"]
    typer.echo(f"risk of ruin from {bankroll:,} within {rounds:,} rounds: "
               f"{fmt_pct(f['estimate'])} (exact bracket {f['low']:.6g} .. {f['high']:.6g})")
    sim = r["simulated"]
    typer.echo(f"  simulated paths: {sim['ruined']:,} of {sim['paths']:,} ruined = "
               f"{fmt_pct(sim['estimate'])}, {sim['level']:.0%} interval "
               f"[{fmt_pct(sim['low'])}, {fmt_pct(sim['high'])}]: "
               + ("agrees" if r["simulation_agrees"] else "DOES NOT AGREE"))
    u = r["unlimited"]
    typer.echo(f"risk of ruin, unlimited horizon: {fmt_pct(u['high'])}"
               + (f" ({u['note']})" if u.get("note") else ""))
    for b in r["bankroll_for_risk"]:
        typer.echo(f"bankroll for {b['target']:.2%} risk within {rounds:,} rounds: "
                   f"{b['bankroll']:,} (risk {b['ruin_high']:.6g})")
    for b in r["bankroll_for_risk_unlimited"]:
        typer.echo(f"bankroll for {b['target']:.2%} risk, unlimited horizon: {b['bankroll']:,}")
    lv = out.get("live")
    if lv:
        typer.echo(f"live table, {lv['seats']} seats, {lv['rounds_per_day']:,} rounds a day "
                   "(operator's result):")
        for k in ("live_round", "independent_round", "live_day", "independent_day"):
            e = lv[k]
            typer.echo(f"  {k.replace('_', ' '):<18} mean {fmt_num(e['mean'], 2):>14}  SD "
                       f"{fmt_num(e['sd'], 2):>14}  VaR99 {fmt_num(e['var'].get('0.99'), 0):>12}")
        typer.echo(f"  daily SD live / independent: {fmt_num(lv['daily_sd_ratio'], 3)}")


@app.command("report")
def report_cmd(
    run: Annotated[str, typer.Argument(help="Run folder.")],
    out: Annotated[str, typer.Option(help="File to write.")] = "report.html",
    fmt: Annotated[
        str | None, typer.Option("--format", help="html | md | json | xlsx (the PAR sheet).")
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
) -> None:
    """Write a run's risk report (HTML, Markdown or JSON).

    One self-contained HTML file with tables and plots."""
    from pathlib import Path

    from gpusim.analysis import AnalysisError
    from gpusim.report import FORMATS, write_report
    from gpusim.report.build import build_report_detail, write_data

    if fmt is None:
        suffix = Path(out).suffix.lower().lstrip(".")
        fmt = {"md": "md", "markdown": "md", "json": "json", "xlsx": "xlsx"}.get(suffix, "html")
    if fmt not in FORMATS:
        fail(f"--format: got {fmt!r}; allowed: {', '.join(FORMATS)}")
    if exact not in ("auto", "always", "never"):
        fail(f"--exact: got {exact!r}; allowed: auto, always, never")
    targets = list(target_ror) if target_ror else [0.01, 0.05]
    _check_risk_args(bankroll, rounds, targets)
    parent = Path(out).expanduser().resolve().parent
    if not parent.is_dir():
        fail(f"--out: folder {str(parent)!r} does not exist")
    data = _run_data(run)
    if data_dir is not None and Path(data_dir).exists() and not Path(data_dir).is_dir():
        fail(f"--data: {data_dir!r} exists and is not a folder")
    try:
        rep, detail = build_report_detail(
            data, bankroll=bankroll, rounds=rounds, targets=targets, bet=bet, exact=exact,
            paths=paths, seed=seed, live_seats=live_seats, rounds_per_day=rounds_per_day,
            stake_dist=stake_dist)
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
    from gpusim.analysis import AnalysisError, solve_line, whatif_figures

    if (target_rtp is None) != (line is None):
        fail("--target-rtp and --line go together: --target-rtp 0.95 --line bonus.AKs")
    if target_rtp is None and not set_:
        fail("whatif: give --set BET.LINE=PAY (repeatable) or --target-rtp X --line BET.LINE")
    data = _run_data(run)
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
    from gpusim.report.text import fmt_pct

    w = out.get("whatif")
    if w:
        for bet, b in w["bets"].items():
            changed = ", ".join(f"{k}={v}" for k, v in w["changes"].items()
                                if k.startswith(bet + "."))
            typer.echo(f"{bet}: RTP {fmt_pct(b['rtp_old'])} -> {fmt_pct(b['rtp_new'])} "
                       f"with {changed} (from {data.rounds:,} rounds' event counts)")
            if b["note"]:
                typer.echo(f"  note: {b['note']}")
    s = out.get("solve")
    if s:
        typer.echo(f"{s['line']}: pay {s['exact_pay']:.6g} gives RTP {fmt_pct(s['target_rtp'])} "
                   f"(exactly {s['exact_pay_fraction']}); current pay {s['current_pay']}")
        typer.echo(f"  whole pays: {s['lower']['pay']} -> {fmt_pct(s['lower']['rtp'])}, "
                   f"{s['upper']['pay']} -> {fmt_pct(s['upper']['rtp'])}; nearest "
                   f"{s['nearest']['pay']}")
        if s["note"]:
            typer.echo(f"  note: {s['note']}")


# --- merge and verify (batch jobs) -------------------------------------------------------------


@app.command("merge")
def merge_cmd(
    runs: Annotated[list[str], typer.Argument(help="Shard run folders (any order).")],
    out: Annotated[str, typer.Option(help="Merged run folder to write.")],
    force: Annotated[bool, typer.Option("--force", help="Replace an existing folder.")] = False,
) -> None:
    """Combine shard run folders into one run.

    Checks config, strategy, seed, rounds, version, ranges and every part's sha256 first."""
    from gpusim.runs.merge import MergeError, merge_runs

    try:
        path = merge_runs(runs, out, force=force)
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

    try:
        problems = verify_run(run)
    except RunFolderError as exc:
        fail(str(exc))
    if as_json:
        echo_json({"run": run, "sound": not problems, "problems": problems})
    elif problems:
        typer.echo(f"{run}: {len(problems)} problem(s):")
        for p in problems:
            typer.echo(f"  - {p}")
    else:
        typer.echo(f"{run}: sound (parts' sha256, round coverage, counts and config hash)")
    if problems:
        raise typer.Exit(1)


def main() -> None:
    """Console-script entry point.

    Click's usage errors (unknown option, bad option type, missing argument) become the same
    one-line error as every other bad input, instead of click's multi-line box.
    """
    try:  # recent typer vendors click; older ones use the click package
        from typer._click.exceptions import (
            BadParameter,
            ClickException,
            NoArgsIsHelpError,
            UsageError,
        )
    except ImportError:
        from click.exceptions import BadParameter, ClickException, NoArgsIsHelpError, UsageError

    try:
        code = app(prog_name="gpusim", standalone_mode=False)
    except NoArgsIsHelpError as exc:
        typer.echo(exc.ctx.get_help() if exc.ctx is not None else str(exc), err=True)
        sys.exit(2)
    except UsageError as exc:
        where = exc.ctx.command_path if exc.ctx is not None else "gpusim"
        msg = " ".join(exc.format_message().split())
        if isinstance(exc, BadParameter) and exc.param is not None:
            got = _given_value(sys.argv[1:], list(getattr(exc.param, "opts", [])))
            if got is not None:
                msg += f" (got {got!r})"
        typer.echo(f"gpusim: error: {where}: {msg}", err=True)
        sys.exit(2)
    except ClickException as exc:
        typer.echo(f"gpusim: error: {' '.join(exc.format_message().split())}", err=True)
        sys.exit(exc.exit_code)
    except (KeyboardInterrupt, typer.Abort):
        typer.echo("gpusim: interrupted", err=True)
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)


def _given_value(argv: list[str], opts: list[str]) -> str | None:
    """The last value given on the command line for an option (``--x v`` or ``--x=v``)."""
    found = None
    for i, tok in enumerate(argv):
        for opt in opts:
            if tok == opt and i + 1 < len(argv):
                found = argv[i + 1]
            elif tok.startswith(opt + "="):
                found = tok[len(opt) + 1 :]
    return found


if __name__ == "__main__":
    main()
