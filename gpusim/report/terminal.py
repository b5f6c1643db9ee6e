"""Terminal rendering of simulation progress and summaries (rich)."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from gpusim.runs.runner import Progress as RunnerProgress
from gpusim.stats import DEFAULT_CONFIDENCE, ci_key, confidence_label

__all__ = ["base_stake", "print_summary", "rich_progress", "run_progress"]


class _RoundsPerSecond(ProgressColumn):
    def render(self, task):
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.0f} rounds/s" if speed else "- rounds/s", style="cyan")


def rich_progress(console: Console) -> tuple[Progress, RunnerProgress]:
    """A rich progress bar (rounds done, rounds/s, ETA) and the runner callbacks driving it."""
    bar = Progress(
        TextColumn("[bold]simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        _RoundsPerSecond(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        console=console,
        transient=False,
    )
    state = {}

    def start(total: int, done: int) -> None:
        # the live display starts only once the run is validated and under way, so an input
        # error prints its one line and nothing else
        bar.start()
        state["task"] = bar.add_task("rounds", total=total, completed=done)

    def advance(n: int) -> None:
        bar.advance(state["task"], n)

    return bar, RunnerProgress(start=start, advance=advance, note=_note(console))


def run_progress(console: Console, *, label: str, quiet: bool, log_every: float | None,
                 interactive: bool) -> tuple[Callable[[], None], RunnerProgress]:
    """The progress display of a command and the function that ends it.

    On a terminal (``interactive``): the rich bar, as ever (none with ``quiet``). Otherwise (a
    batch log): plain lines every ``log_every`` seconds (default 30) and at the end; ``quiet``
    turns them off unless ``log_every`` is given.
    """
    if interactive:
        bar, callbacks = rich_progress(console)
        return bar.stop, callbacks
    note = RunnerProgress().note if quiet else _note(console)
    if quiet and log_every is None:
        return (lambda: None), RunnerProgress(note=note)
    from gpusim.progress_log import ProgressLog

    log = ProgressLog(label, every=log_every)
    return log.stop, RunnerProgress(start=log.start, advance=log.advance, note=note)


def _note(console: Console) -> Callable[[str], None]:
    def note(text: str) -> None:
        # One line whatever the width; the text may hold brackets such as "gpusim[cuda13]".
        console.print(text, style="yellow", markup=False, soft_wrap=True)

    return note


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.4f} %"


def base_stake(manifest: dict) -> int:
    """The stake of a run's base bet (money units), from its manifest: the unit of the per-ante
    figures of its summary, whose bets are in money units."""
    from gpusim.games import spec_for
    from gpusim.runs.manifest import rules_from_manifest

    return int(manifest["config"]["stakes"][spec_for(rules_from_manifest(manifest)).base_bet])


def print_summary(summary: dict, console: Console, *, ante: int | None = None) -> None:
    """The end-of-run table: per bet RTP with its confidence interval (at the summary's
    ``confidence``, 95 % by default), then the main-game figures. ``ante``: the base bet's
    stake (:func:`base_stake`), the unit of the main game's figures; the
    bets' SD per round is shown in it too (else in money units, as the summary holds it)."""
    level = summary.get("confidence", DEFAULT_CONFIDENCE)
    title = (
        f"{summary['config']} | strategy {summary['strategy']} | seed {summary['seed']} | "
        f"{summary['rounds']:,} rounds"
    )
    if not summary.get("complete"):
        title += f" (partial: {summary['rounds']:,} of {summary['rounds_planned']:,})"
    t = Table(title=title)
    unit = "antes" if ante else "money units"
    for col in ("bet", "placed", "wagered", "RTP %", f"{confidence_label(level)} CI +-",
                f"SD/round ({unit})"):
        t.add_column(col, justify="right" if col != "bet" else "left", no_wrap=True)
    for bet, b in summary["bets"].items():
        lo, hi = b[f"rtp_{ci_key(level)}"]
        ci = "-" if lo is None else f"{50 * (hi - lo):.3f}"
        rtp = "-" if b["rtp"] is None else f"{100 * b['rtp']:.4f}"
        sd = b["sd_per_round"]
        t.add_row(
            bet, f"{b['placed']:,}", f"{b['wagered']:,}", rtp, ci,
            "-" if sd is None else f"{sd / (ante or 1):.4f}",
        )
    console.print(t)
    m = summary.get("main") or {}
    if m:
        console.print(
            f"main game: house edge per ante {_pct(m['house_edge_per_ante'])}, "
            f"element of risk {_pct(m['element_of_risk'])}, "
            f"total-bet RTP {_pct(m['total_bet_rtp'])}, "
            f"average total wager {m['avg_total_wager']:.4f} antes, "
            f"SD per round {m['sd_per_round']:.4f} antes"
        )
    decisions = summary.get("decisions") or {}
    if decisions:
        parts = [
            f"{point}: " + ", ".join(f"{a} {_pct(f)}" for a, f in acts.items())
            for point, acts in decisions.items()
        ]
        console.print("decisions  " + " | ".join(parts))
    rate = summary.get("rounds_per_s")
    if rate:
        console.print(
            f"speed {rate:,.0f} rounds/s on {summary['backend']} ({summary['device']}), "
            "wall time of the chunks including jit compilation"
        )
