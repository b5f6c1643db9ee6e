"""Commands that look things up rather than run a job: ``eval``, ``devices``, ``games``,
``play`` and the ``bench`` group."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from gpusim.cli.common import echo_json, fail, load_rules

__all__ = ["app", "bench_app"]

app = typer.Typer()
bench_app = typer.Typer(no_args_is_help=True, help="Measure speed against installed peers.")


@app.command("eval")
def eval_cmd(
    cards: Annotated[list[str], typer.Argument(help="5, 6 or 7 cards, e.g. As Ks Qs Js Ts 2c 3d.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Rank a 5-7 card hand: category, best five, 32-bit rank."""
    from gpusim.cards import CardError, format_card, parse_cards

    try:
        codes = parse_cards(cards)
    except CardError as exc:
        fail(str(exc))
    if not 5 <= len(codes) <= 7:
        fail(f"cards: got {len(codes)} cards; give 5, 6 or 7 distinct cards")
    import numpy as np

    from gpusim.evaluator import CATEGORY_NAMES, best_five, describe, evaluate, hand_category

    arr = np.asarray([codes], dtype=np.int32)
    rank = int(np.asarray(evaluate(arr))[0])
    cat = int(np.asarray(hand_category(np.uint32(rank))))
    hand = {
        "cards": [format_card(c) for c in codes],
        "category": CATEGORY_NAMES[cat],
        "category_index": cat,
        "description": describe(rank),
        "best_five": [format_card(c) for c in np.asarray(best_five(arr))[0]],
        "rank": rank,
    }
    if as_json:
        echo_json(hand)
        return
    from gpusim.report.cli_text import eval_text

    typer.echo(eval_text(hand))


@app.command("devices")
def devices_cmd(
    json_out: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
    compile_kernels: Annotated[
        bool, typer.Option("--compile/--no-compile",
                           help="Also compile every game's kernel with NVRTC.")
    ] = True,
) -> None:
    """Usable backends and devices; why the others are not."""
    from gpusim.compute.backends.devices import report
    from gpusim.report.cli_text import devices_text

    rep = report(compile_kernels=compile_kernels)
    if json_out:
        echo_json(rep)
    else:
        typer.echo(devices_text(rep))


@app.command("games")
def games_cmd(
    check: Annotated[
        str | None,
        typer.Option("--check", help="Check a game (its name: every shipped config of it) or a "
                                     "config (name or TOML path) and stop; exit 1 on a problem."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List games, configs and strategies; --check a game or a config.

    --check validates the config, then runs the conformance check: it deals rounds, plays every
    strategy, and checks the settlement, the joint code, what each decision may see and the
    play records."""
    if check is not None:
        from gpusim.config import load_config, shipped_configs
        from gpusim.games import SPECS
        from gpusim.games.conformance import check_game
        from gpusim.report.cli_text import config_check_text

        if check in SPECS and check not in shipped_configs():
            by_game: dict[str, list] = {}
            for r in map(load_config, shipped_configs().values()):
                by_game.setdefault(r.game, []).append(r)
            checked = by_game.get(check, [])
            if not checked:
                fail(f"--check: game {check!r} has no shipped config to check it with")
        else:
            checked = [load_rules(check)]
        problems = check_game(*checked)
        for rules in checked:
            typer.echo(config_check_text(rules.source or check, rules))
        for p in problems:
            typer.echo(f"problem: {p}")
        typer.echo(f"{check}: {'conforms' if not problems else f'{len(problems)} problem(s)'}")
        if problems:
            raise typer.Exit(1)
        return
    from gpusim.config import load_config, shipped_configs
    from gpusim.games import SPECS, bets, spec_for
    from gpusim.games.strategy_registry import strategy_description, strategy_names

    configs = {name: load_config(path) for name, path in shipped_configs().items()}
    info = {
        "games": {
            g: {"title": spec_for(g).title, "strategies": list(strategy_names(g))} for g in SPECS
        },
        "configs": {
            n: {"game": r.game, "description": r.description, "bets": list(bets(r))}
            for n, r in configs.items()
        },
    }
    if as_json:
        echo_json(info)
        return
    from gpusim.report.cli_text import games_text

    descriptions = {g: {s: strategy_description(g, s) for s in v["strategies"]}
                    for g, v in info["games"].items()}
    typer.echo(games_text(info, descriptions))


def _parse_range(text: str) -> tuple[int, int]:
    parts = text.split(":")
    try:
        a, b = (int(p) for p in parts)
    except ValueError:
        a, b = -1, -1
    from gpusim.runs.runner import MAX_ROUNDS  # = gpusim.dealing.MAX_ROUND, without JAX

    if len(parts) != 2 or not 0 <= a < b <= MAX_ROUNDS or b - a > 1_000_000:
        fail(
            f"--rounds: got {text!r}; expected A:B with whole numbers 0 <= A < B <= 2**48 "
            "(rounds A .. B-1, at most 1,000,000 of them)"
        )
    return a, b


# named by the function, not a literal: "play" is also a bet's name (Ultimate Texas Hold'em)
@app.command()
def play(
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
    rules = load_rules(config)
    first, stop = _parse_range(rounds)
    if seed < 0:
        fail(f"--seed: got {seed}; must be a whole number >= 0")
    if jackpot_meter is not None and not 0 <= jackpot_meter < 2**31:
        fail(f"--jackpot-meter: got {jackpot_meter}; must be a whole number 0 .. 2147483647")
    from gpusim.games.play import play_records
    from gpusim.games.strategy_registry import resolve_strategy
    from gpusim.runs.exact_on_demand import prepare_strategy
    from gpusim.strategy import StrategyError

    try:
        prepare_strategy(strategy, rules)
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
    from gpusim.report.cli_text import play_lines

    for text in play_lines(records, rules=rules, strategy=strat.name, seed=seed):
        typer.echo(text)


@bench_app.command("evaluator")
def bench_evaluator_cmd(
    hands: Annotated[int, typer.Option(help="7-card hands per timed batch.")] = 2_000_000,
    repeats: Annotated[int, typer.Option(help="Timed repeats; the median is reported.")] = 5,
    seed: Annotated[int, typer.Option(help="Seed for the pre-generated hands.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """7-card evaluations/s: gpusim and each installed peer."""
    if hands <= 0:
        fail(f"--hands: got {hands}; must be a positive integer")
    if repeats <= 0:
        fail(f"--repeats: got {repeats}; must be a positive integer")
    from gpusim.compute.bench import bench_evaluator

    result = bench_evaluator(n_hands=hands, repeats=repeats, seed=seed)
    if as_json:
        echo_json(result)
        return
    from gpusim.report.cli_text import bench_text

    typer.echo(bench_text(result))
