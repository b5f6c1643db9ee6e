"""Number formatting shared by the HTML and Markdown reports."""

from __future__ import annotations

import math

__all__ = ["fmt_int", "fmt_num", "fmt_pct", "ordinal", "unlimited_bankroll_text",
           "unlimited_ruin_text"]


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


def unlimited_ruin_text(u) -> str:
    """The unlimited-horizon ruin of ``risk.ruin.unlimited``: the upper bracket when exact, both
    ends when they are bounds (method "lundberg"), "not computed" without figures."""
    if u.get("high") is None:
        return "not computed"
    if u.get("method") == "lundberg":
        return f"at most {fmt_pct(u['high'])}, at least {fmt_pct(u['low'])} (bounds)"
    return fmt_pct(u["high"])


def unlimited_bankroll_text(b) -> str:
    """One row of ``risk.ruin.bankroll_for_risk_unlimited``: a bankroll that suffices, and where
    it comes from bounds, the range the smallest sufficient bankroll lies in."""
    if b.get("method") == "lundberg":
        return (f"{fmt_int(b['bankroll'])} (bound: the smallest sufficient bankroll is "
                f"{fmt_int(b.get('bankroll_low'))} .. {fmt_int(b['bankroll'])})")
    return fmt_int(b["bankroll"])
