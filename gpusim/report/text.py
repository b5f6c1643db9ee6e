"""Number formatting shared by the HTML and Markdown reports."""

from __future__ import annotations

import math

__all__ = ["fmt_int", "fmt_num", "fmt_pct", "ordinal"]


def _ok(x) -> bool:
    return x is not None and not (isinstance(x, float) and not math.isfinite(x))


def fmt_pct(x, digits: int = 4) -> str:
    """0.017620 -> '1.7620 %' ('-' for a missing value)."""
    return f"{100 * x:.{digits}f} %" if _ok(x) else "-"


def fmt_num(x, digits: int = 4) -> str:
    return f"{x:,.{digits}f}" if _ok(x) else "-"


def fmt_int(x) -> str:
    return f"{int(x):,}" if _ok(x) else "-"


def ordinal(p) -> str:
    """1 -> 1st, 2 -> 2nd, 5 -> 5th, 50 -> 50th (percentile labels)."""
    n = int(float(p)) if float(p).is_integer() else None
    if n is None:
        return f"{p}th"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
