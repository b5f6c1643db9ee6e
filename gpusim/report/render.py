"""Render a report dict as HTML, Markdown or JSON, and write it atomically."""

from __future__ import annotations

import json
import os
from pathlib import Path

from gpusim.runs.jsonsafe import json_safe

__all__ = ["FORMATS", "render", "write_report"]

FORMATS = ("html", "md", "json", "xlsx")


def render(report: dict, fmt: str = "html") -> str:
    """Text of ``report`` in ``fmt`` (html | md | json; xlsx is binary: see write_report)."""
    if fmt == "html":
        from gpusim.report.html import render_html

        return render_html(report)
    if fmt == "md":
        from gpusim.report.markdown import render_markdown

        return render_markdown(report)
    if fmt == "json":
        return json.dumps(json_safe(report), indent=1) + "\n"
    if fmt == "xlsx":
        raise ValueError("--format xlsx: the PAR sheet is binary; write it with write_report")
    raise ValueError(f"--format: got {fmt!r}; allowed: {', '.join(FORMATS)}")


def write_report(report: dict, path: str | Path, fmt: str = "html") -> Path:
    """Write the rendered report to ``path`` (temporary name, then rename); ``xlsx`` writes
    the PAR sheet (:mod:`gpusim.report.par`)."""
    if fmt == "xlsx":
        from gpusim.report.par import report_par_tables, write_par

        return write_par(report_par_tables(json_safe(report)), path)
    text = render(report, fmt)
    p = Path(path)
    tmp = p.with_name(f".{p.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, p)
    return p
