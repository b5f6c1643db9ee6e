"""The risk report of a run: one self-contained HTML file (tables and embedded PNG plots), or
Markdown, JSON, or the PAR sheet (.xlsx, :mod:`gpusim.report.par`).

:func:`build_report` gathers every figure (:mod:`gpusim.analysis`) into one JSON-able dict;
:func:`render` turns it into ``html``, ``md`` or ``json`` text. The HTML embeds that dict in a
``<script type="application/json" id="gpusim-report">`` block and tags the key table cells with
``data-key`` / ``data-value`` attributes, so its numbers can be read back by a program.
The dict holds summaries and quantiles; :func:`gpusim.report.build.write_data` writes the full
session and ruin distributions as Parquet (``gpusim report --data DIR``).
"""

from gpusim.report.build import build_report
from gpusim.report.render import FORMATS, render, write_report

__all__ = ["FORMATS", "build_report", "render", "write_report"]
