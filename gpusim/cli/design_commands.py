"""``gpusim design``: search the paytables of a bet that meet an RTP band, exactly."""

from __future__ import annotations

from typing import Annotated

import typer

from gpusim.cli.common import check_out_file, echo_json, fail, load_rules

__all__ = ["app"]

app = typer.Typer()

_LINE_HELP = ("A line that may change, with its bounds: NAME=LO:HI or NAME=LO:HI:STEP, or NAME=PAY "
              "for one new pay (repeatable). Numbers: whole, a ratio A/B (3/2 pays 3:2) or a "
              "decimal; a ratio only where the config's stake pays it in whole money units.")
_SORT_HELP = ("Order of the candidates: target (nearest the RTP band's middle; default), rtp "
              "(highest first), house-edge (highest first), vi (lowest first), hit-frequency "
              "(highest first), changes (fewest lines changed first).")


@app.command("design")
def design_cmd(
    config: Annotated[str, typer.Argument(help="Config name (e.g. holdem_bonus) or TOML path.")],
    bet: Annotated[str, typer.Option("--bet", help="The bet whose paytable to design.")],
    rtp: Annotated[str | None, typer.Option(help="RTP band LO:HI, e.g. 0.965:0.970.")] = None,
    house_edge: Annotated[
        str | None, typer.Option("--house-edge", help="House-edge band LO:HI (instead of --rtp).")
    ] = None,
    hit_frequency: Annotated[
        str | None, typer.Option("--hit-frequency", help="Hit-frequency band LO:HI.")
    ] = None,
    sd: Annotated[str | None, typer.Option(help="Band on the SD per unit staked, LO:HI.")] = None,
    vi: Annotated[str | None, typer.Option(help="Band on the volatility index, LO:HI.")] = None,
    confidence: Annotated[float, typer.Option(help="Confidence of the volatility index.")] = 0.90,
    total_rtp: Annotated[
        str | None,
        typer.Option("--total-rtp", help="Main-game bet: band on the total-bet RTP (1 - element "
                     "of risk), LO:HI."),
    ] = None,
    element_of_risk: Annotated[
        str | None,
        typer.Option("--element-of-risk", help="Main-game bet: band on the element of risk, "
                     "LO:HI (instead of --total-rtp)."),
    ] = None,
    line: Annotated[list[str] | None, typer.Option("--line", help=_LINE_HELP)] = None,
    free: Annotated[
        list[str] | None,
        typer.Option("--free", help="A line free from half to twice its pay (repeatable)."),
    ] = None,
    step: Annotated[str, typer.Option(help="Default step of the free lines' pays.")] = "1",
    monotone: Annotated[
        bool, typer.Option("--monotone/--no-monotone", help="A better hand never pays less.")
    ] = True,
    cap: Annotated[int | None, typer.Option(help="Top-prize cap: no line pays more.")] = None,
    near: Annotated[
        bool, typer.Option("--near", help="Rank by the fewest, smallest changes from the config "
                           "(--sort changes).")
    ] = False,
    sort: Annotated[str | None, typer.Option("--sort", help=_SORT_HELP)] = None,
    reverse: Annotated[
        bool, typer.Option("--reverse", help="Turn the --sort order round.")
    ] = False,
    top: Annotated[int, typer.Option(help="Candidates to show (all are counted).")] = 10,
    strategy: Annotated[
        str | None, typer.Option(help="The strategy the figures are priced under (a main game, "
                                 "or a side bet a fold forfeits).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    write_config: Annotated[
        str | None, typer.Option("--write-config", help="Write the picked candidate's config.")
    ] = None,
    pick: Annotated[int, typer.Option(help="The candidate --write-config and --par take.")] = 1,
    par: Annotated[
        str | None, typer.Option("--par", help="Write the picked candidate's PAR sheet (.xlsx).")
    ] = None,
) -> None:
    """Find every paytable that meets an RTP band, exactly.

    Side bets from their counts (one a fold forfeits, as it plays under the strategy); a
    main-game paytable under the optimal strategy re-optimised for each candidate, from the
    cached exact counts. The config's own paytable is priced beside the candidates."""
    if write_config is not None:
        check_out_file(write_config, "--write-config", ".toml")
    if par is not None:
        check_out_file(par, "--par", ".xlsx")
    load_rules(config)  # a bad config is its own one-line error
    from gpusim.designer import DesignError, search
    from gpusim.designer import write_config as write_cfg

    try:
        res = search(config, bet, rtp=rtp, house_edge=house_edge, hit_frequency=hit_frequency,
                     sd=sd, vi=vi, confidence=confidence, total_rtp=total_rtp,
                     element_of_risk=element_of_risk, lines=list(line or []),
                     free=list(free or []), step=step, monotone=monotone, cap=cap, near=near,
                     sort=sort, reverse=reverse, top=top, strategy=strategy, progress=True)
        path = None
        if res.count and write_config is not None:
            path = write_cfg(res, write_config, pick)
            typer.echo(f"wrote {path} (candidate {pick})", err=True)
        if res.count and par is not None:
            from gpusim.designer import candidate
            from gpusim.designer.models import with_paytable
            from gpusim.report.par import exact_par_tables, write_par
            from gpusim.runs.exact_on_demand import exact_report

            name = path.stem if path is not None else f"{res.config}_design_{pick}"
            _, rules = with_paytable(res.rules, bet, candidate(res, pick), name=name)
            rep = exact_report(rules, res.strategy or rules.default_strategy)
            if path is not None:  # the PAR sheet names the file, and its hash, as its config
                rep["config"] = str(path)
            typer.echo(f"wrote {write_par(exact_par_tables(rep), par)} (PAR sheet)", err=True)
    except DesignError as exc:
        fail(str(exc))
    if as_json:
        echo_json(res.to_json())
    else:
        from gpusim.report.cli_text import design_text

        typer.echo(design_text(res.to_json()))
