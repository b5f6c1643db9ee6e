"""The report's plots: matplotlib (Agg backend) figures as base64-encoded PNG strings."""

from __future__ import annotations

import base64
import io
import math

import numpy as np

__all__ = ["convergence_png", "jackpot_png", "net_distribution_png", "ruin_png", "session_png"]


def _plt():
    import matplotlib

    matplotlib.use("Agg")  # no display on batch servers; must precede pyplot
    import matplotlib.pyplot as plt

    return plt


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    _plt().close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def net_distribution_png(values, counts, bet: str) -> str:
    """Bar chart of the per-round net result (log probability)."""
    plt = _plt()
    v = np.asarray(values)
    p = np.asarray(counts, dtype=np.float64) / float(np.sum(counts))
    fig, ax = plt.subplots(figsize=(7, 3.2))
    ax.bar(v, p, width=0.8 if v.size < 2 or np.ptp(v) < 400 else np.ptp(v) / 400)
    ax.set_yscale("log")
    ax.set_xlabel(f"net result per round ({bet}, money units)")
    ax.set_ylabel("probability")
    ax.set_title("Net outcome distribution")
    return _png(fig)


def convergence_png(conv: dict) -> str:
    """Cumulative RTP after each chunk with the 95 % CI funnel around the centre value."""
    plt = _plt()
    n = np.asarray(conv["rounds"], dtype=np.float64)
    r = np.asarray([np.nan if x is None else x for x in conv["rtp"]], dtype=np.float64)
    fig, ax = plt.subplots(figsize=(7, 3.2))
    if n.size:
        grid = np.geomspace(max(n[0] / 4, 1.0), n[-1], 200)
        c, sd = conv["centre"], conv["sd_per_sqrt_round"]
        if c is not None and sd is not None:
            half = 1.959963984540054 * sd / np.sqrt(grid)
            ax.fill_between(grid, c - half, c + half, alpha=0.2, label="95 % CI funnel")
            ax.axhline(c, lw=1, ls="--",
                       label="exact RTP" if conv["centre_is_exact"] else "final RTP")
        ax.plot(n, r, marker="o", ms=3, label=f"cumulative RTP ({conv['bet']})")
        ax.set_xscale("log")
        dev = np.nanmax(np.abs(r - c)) if c is not None and np.any(np.isfinite(r)) else 0.0
        if c is not None and sd is not None and math.isfinite(dev):
            span = max(1.2 * dev, 1.5 * 1.959963984540054 * sd / math.sqrt(n[0]), 1e-4)
            ax.set_ylim(c - span, c + span)
    ax.set_xlabel("rounds")
    ax.set_ylabel("RTP")
    ax.set_title("RTP convergence")
    ax.legend(fontsize=8)
    return _png(fig)


def session_png(values, probs, rounds: int, percentiles: dict) -> str:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7, 3.2))
    ax.plot(values, probs, lw=1)
    for k in ("5", "50", "95"):
        if k in percentiles:
            ax.axvline(percentiles[k], ls=":", lw=1, color="grey")
    ax.axvline(0, lw=1, color="black")
    ax.set_xlabel(f"session result after {rounds:,} rounds (money units)")
    ax.set_ylabel("probability")
    ax.set_title("Session distribution (dotted: 5th, 50th, 95th percentiles)")
    return _png(fig)


def ruin_png(bankrolls, ruin, rounds: int, marks: list[dict]) -> str:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7, 3.2))
    ax.plot(bankrolls, ruin, lw=1.5)
    for m in marks:
        ax.axvline(m["bankroll"], ls=":", lw=1, color="grey")
        ax.text(m["bankroll"], 0.9, f" {m['target']:.0%}", fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_xlabel("bankroll (money units)")
    ax.set_ylabel(f"P(ruin within {rounds:,} rounds)")
    ax.set_title("Risk of ruin against bankroll")
    return _png(fig)


def jackpot_png(jp: dict) -> str:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7, 3.2))
    ms = [x["meter"] for x in jp["rtp_by_meter"]]
    hi = max(ms + [jp["break_even_meter"] * 1.5])
    grid = np.linspace(0, hi, 100)
    ax.plot(grid, jp["fixed_prize_rtp_exact"] + jp["p_hit_exact"] * grid / jp["stake"],
            label="RTP at meter")
    ax.axhline(1.0, lw=1, ls="--", color="grey")
    ax.axvline(jp["break_even_meter"], lw=1, ls=":", color="grey", label="break-even meter")
    if jp["meters"]:
        ax2 = ax.twinx()
        ax2.hist(jp["meters"], bins=min(30, max(5, len(jp["meters"]))), alpha=0.3,
                 color="tab:orange")
        ax2.set_ylabel("hits (meter at hit)")
    ax.set_xlabel("jackpot meter (money units)")
    ax.set_ylabel("RTP")
    ax.set_title("Progressive jackpot: RTP by meter")
    ax.legend(fontsize=8, loc="lower right")
    return _png(fig)
