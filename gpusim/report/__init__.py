"""The risk report of a run: one self-contained HTML file (tables and embedded PNG plots), or
Markdown, JSON, or the PAR sheet (.xlsx, :mod:`gpusim.report.par`); and the command line's
text (:mod:`gpusim.report.cli_text`, :mod:`gpusim.report.terminal`).

:func:`build_report` gathers every figure (:mod:`gpusim.run_figures`) into one JSON-able dict;
:func:`render` turns it into ``html``, ``md`` or ``json`` text. The HTML embeds that dict in a
``<script type="application/json" id="gpusim-report">`` block and tags the key table cells with
``data-key`` / ``data-value`` attributes, so its numbers can be read back by a program.
The dict holds summaries and quantiles; :func:`gpusim.report.build.write_data` writes the full
session and ruin distributions as Parquet (``gpusim report --data DIR``).

``build_report`` loads on first use, so the command line's text renderers cost no polars import.
(``render`` stays eager: it shares its name with its light submodule, which would otherwise
shadow it once imported.)
"""

from __future__ import annotations

from gpusim.report.render import FORMATS, render, write_report

__all__ = ["FORMATS", "build_report", "render", "write_report"]


def __getattr__(name: str):
    if name != "build_report":
        raise AttributeError(f"module 'gpusim.report' has no attribute {name!r}")
    from gpusim.report.build import build_report

    globals()[name] = build_report
    return build_report
