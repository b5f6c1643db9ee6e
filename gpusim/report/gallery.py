"""The published figures of the shipped configs and docs/gallery.md, written from them.

``gpusim/data/published.toml`` lists each printed figure: the config, what the figure is, the
number as printed and its source. :func:`check_figure` rounds the exact report's figure to the
printed digits; a row that does not reproduce carries the evidence that explains why.
docs/gallery.md has one row per shipped config: its title, what makes it different, the exact
house edge, the published figures and the solve time (``docs/gallery-times.json``, written by
``python benchmarks/gallery_times.py``). Rewrite it after changing a config or a figure::

    python -m gpusim.report.gallery --write

(``--check`` says whether it is current). tests/test_published.py fails while it is stale.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from pathlib import Path
from typing import Any

__all__ = ["COMMAND", "DOC", "PUBLISHED", "TIMES", "Figure", "PublishedError", "check_figure",
           "figure_value", "gallery", "load_published", "load_times", "main", "reports"]

PUBLISHED = Path(__file__).resolve().parents[1] / "data" / "published.toml"
DOC = Path(__file__).resolve().parents[2] / "docs" / "gallery.md"
TIMES = DOC.with_name("gallery-times.json")
COMMAND = "python -m gpusim.report.gallery --write"

_MAIN = ("house_edge_per_ante", "element_of_risk", "ante_rtp", "total_bet_rtp",
         "avg_total_wager", "return_per_ante")
_PER_BET = ("bet_rtp", "bet_house_edge")


class PublishedError(ValueError):
    """A malformed row of the published table (one line naming the row and the key)."""


@dataclass(frozen=True)
class Figure:
    """One printed figure: ``printed`` as the source prints it ("3.37 %", "-0.021033")."""

    config: str
    figure: str
    printed: str
    source: dict
    strategy: str | None = None
    explained: str = ""

    @property
    def percent(self) -> bool:
        return self.printed.rstrip().endswith("%")

    @property
    def number(self) -> Decimal:
        return Decimal(self.printed.replace("%", "").strip())


def load_published(path: Path = PUBLISHED) -> tuple[list[Figure], dict[str, str]]:
    """The figures and the unpublished configs ({config: what was searched}) of the table."""
    doc = tomllib.loads(path.read_text())
    figures = []
    for i, row in enumerate(doc.get("figure", [])):
        where = f"{path.name}: figure[{i}]"
        for key in ("config", "figure", "printed", "source"):
            if key not in row:
                raise PublishedError(f"{where}: key {key!r} is missing")
        kind = row["figure"].split(":")[0]
        if not (row["figure"] in _MAIN or (kind in _PER_BET and ":" in row["figure"])):
            raise PublishedError(f"{where}: key 'figure': value {row['figure']!r} is not "
                                 f"allowed; allowed: {', '.join(_MAIN)}, or "
                                 f"{' / '.join(p + ':<bet>' for p in _PER_BET)}")
        for key in ("url", "title", "date", "quote"):
            if key not in row["source"]:
                raise PublishedError(f"{where}: key 'source.{key}' is missing")
        try:
            Decimal(row["printed"].replace("%", "").strip())
        except ArithmeticError:
            raise PublishedError(f"{where}: key 'printed': value {row['printed']!r} is not a "
                                 "number") from None
        figures.append(Figure(row["config"], row["figure"], row["printed"], row["source"],
                              row.get("strategy"), row.get("explained", "")))
    unpublished = {r["config"]: r["note"] for r in doc.get("unpublished", [])}
    return figures, unpublished


def figure_value(report: dict, figure: str) -> float:
    """The figure named ``figure`` (see :class:`Figure`) of an exact report (a fraction)."""
    if figure == "return_per_ante":
        return -report["main"]["house_edge_per_ante"]
    if figure in _MAIN:
        return report["main"][figure]
    kind, bet = figure.split(":", 1)
    rtp = report["bets"][bet]["rtp"]
    return rtp if kind == "bet_rtp" else 1 - rtp


def _rounded(value: float, fig: Figure) -> Decimal:
    scaled = Decimal(repr(value)) * (100 if fig.percent else 1)
    return scaled.quantize(fig.number, rounding=ROUND_HALF_EVEN)


def check_figure(fig: Figure, report: dict) -> tuple[Decimal, bool]:
    """The exact figure rounded to the printed digits, and whether it equals the printed."""
    ours = _rounded(figure_value(report, fig.figure), fig)
    return ours, ours == fig.number


def _exact_command(fig: Figure) -> str:
    strategy = f" --strategy {fig.strategy}" if fig.strategy else ""
    return f"gpusim exact {fig.config}{strategy} --recompute"


def _pct(x: float) -> str:
    return f"{x * 100:.4f} %"


def gallery(reports: dict[str, dict], times: dict[str, float] | None = None) -> str:
    """docs/gallery.md from the exact reports of every shipped config ({config: report under
    its default strategy}) and the measured solve times ({config: seconds})."""
    from gpusim.config import load_config, shipped_configs
    from gpusim.games import spec_for

    figures, unpublished = load_published()
    times = times or {}
    out = [
        "# Gallery: every shipped game, its exact house edge and its published figures",
        "",
        f"Written by `{COMMAND}` from `gpusim/data/published.toml` (the printed figures and "
        "their sources) and the exact reports; tests/test_published.py re-runs `gpusim exact` "
        "on every row and checks each figure to the digit it was printed with.",
        "",
        "| game | config | what makes it different | house edge per ante | published | "
        "solve (s) |",
        "|---|---|---|---|---|---|",
    ]
    for name in shipped_configs():
        rules: Any = load_config(name)
        spec = spec_for(rules)
        rep = reports[name]
        mine = [f for f in figures if f.config == name]
        head = next((f for f in mine if f.figure in ("house_edge_per_ante", "return_per_ante")),
                    mine[0] if mine else None)
        pub = "none found (below)" if head is None else (
            f"{head.printed} {head.figure.replace('_', ' ')} ([source]({head.source['url']}))"
            + (", explained" if head.explained else "")
            + (f"; {len(mine) - 1} more below" if len(mine) > 1 else ""))
        t = times.get(name)
        out.append(f"| {spec.title} | `{name}` | {rules.description or ''} | "
                   f"{_pct(rep['main']['house_edge_per_ante'])} | {pub} | "
                   f"{'-' if t is None else f'{t:.1f}'} |")
    out += ["", "## Every published figure", "",
            "Each reproduced to the digit printed, or explained. Reproduce one with the command "
            "beside it (`--recompute` counts every deal again instead of reading the shipped "
            "report).", "",
            "| config | figure | printed | exact | source | date | command |",
            "|---|---|---|---|---|---|---|"]
    for f in figures:
        ours, ok = check_figure(f, reports[f.config] if f.strategy is None
                                else reports[f"{f.config}/{f.strategy}"])
        unit = " %" if f.percent else ""
        out.append(f"| `{f.config}` | {f.figure} | {f.printed} | {ours}{unit}"
                   f"{'' if ok else ' (explained)'} | [{f.source['title']}]({f.source['url']}) "
                   f"| {f.source['date'] or '-'} | `{_exact_command(f)}` |")
    explained = [f for f in figures if f.explained]
    if explained:
        out += ["", "## Figures explained rather than reproduced", ""]
        out += [f"- `{f.config}` {f.figure} {f.printed}: {f.explained}" for f in explained]
    out += ["", "## Quotes", ""]
    out += [f"- `{f.config}` {f.figure} {f.printed}: \"{f.source['quote']}\"" for f in figures]
    out += ["", "## Configs with no published figure", ""]
    out += [f"- `{c}`: {note}" for c, note in unpublished.items()]
    if times:
        out += ["", "Solve times: `python benchmarks/gallery_times.py` (each config's exact "
                "solve from an empty cache, `gpusim exact CONFIG --recompute`, in a process of "
                "its own); " + str(times.get("_machine", "")).strip()]
    return "\n".join(out) + "\n"


def _report(config: str, strategy: str | None) -> dict:
    """As `gpusim exact CONFIG --json` answers: the shipped report where there is one."""
    from gpusim.config import load_config
    from gpusim.exact.shipped import shipped_report
    from gpusim.runs.exact_on_demand import exact_report

    rules: Any = load_config(config)
    strategy = strategy or rules.default_strategy
    return shipped_report(rules, strategy) or exact_report(rules, strategy, progress=False)


def reports() -> dict[str, dict]:
    """{config: its exact report} for every shipped config, and {config/strategy: ...} for the
    published figures that assume another strategy: what :func:`gallery` reads."""
    from gpusim.config import shipped_configs

    figures, _ = load_published()
    out = {n: _report(n, None) for n in shipped_configs()}
    out.update({f"{f.config}/{f.strategy}": _report(f.config, f.strategy)
                for f in figures if f.strategy is not None})
    return out


def load_times() -> dict:
    return json.loads(TIMES.read_text()) if TIMES.is_file() else {}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--write", action="store_true", help=f"rewrite {DOC.name}")
    g.add_argument("--check", action="store_true", help=f"exit 1 if {DOC.name} is stale")
    args = ap.parse_args(argv)
    text = gallery(reports(), load_times())
    if args.write:
        DOC.write_text(text)
        print(f"wrote {DOC}")
    elif args.check:
        if not DOC.is_file() or DOC.read_text() != text:
            print(f"{DOC} is stale; run {COMMAND}", file=sys.stderr)
            return 1
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
