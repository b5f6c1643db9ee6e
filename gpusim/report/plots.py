"""The report's plots: matplotlib (Agg backend) figures as base64-encoded PNG strings.

Each function takes the section of the report dict it draws, so a plot shows only numbers that
the embedded JSON also holds. Long tails (a Bonus paying 1000:1, a Jackpot paying its meter)
are drawn on symlog axes or annotated instead of being allowed to stretch the axis.
"""

from __future__ import annotations

import base64
import io
import math
from collections.abc import Mapping

import numpy as np

from gpusim.stats import DEFAULT_CONFIDENCE, confidence_label, z_of

__all__ = ["convergence_png", "hit_frequency_png", "jackpot_png", "net_outcomes_png",
           "ruin_png", "sessions_png"]

_W = 7.6  # inches; 684 px at the report's 90 dpi


def _plt():
    import matplotlib

    matplotlib.use("Agg")  # no display on batch servers; must precede pyplot
    import matplotlib.pyplot as plt

    return plt


def _png(fig) -> str:
    buf = io.BytesIO()
    # fixed margins (set per figure) instead of bbox_inches="tight" / tight_layout, each of
    # which draws the whole figure once more: drawing is most of a report's build time
    fig.savefig(buf, format="png", dpi=90)
    _plt().close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


_ROUND_LABELS = {"main": "main game", "total": "whole round"}


def _label(bet: str, labels: Mapping[str, str] | None) -> str:
    """A bet's display label: ``labels`` (the game's, ``GameSpec.labels``) or its name."""
    return {**_ROUND_LABELS, **(labels or {})}.get(bet, bet)


def _fmt_p(p: float) -> str:
    return "0" if not p else (f"{p:.2%}" if p >= 1e-3 else f"{p:.2e}")


def net_outcomes_png(dists: dict, labels: Mapping[str, str] | None = None) -> str:
    """One panel per bet (main game, each side bet, whole round): probability of each net result
    per round, log scale; wide ranges on a symlog axis; a Jackpot meter tail as a note."""
    plt = _plt()
    bets = list(dists)
    cols = 2
    rows = math.ceil(len(bets) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(_W, 2.5 * rows), squeeze=False)
    h = 2.5 * rows
    for ax in axes.flat[len(bets):]:
        ax.set_visible(False)
    for ax, bet in zip(axes.flat, bets, strict=False):
        d = dists[bet]
        v = np.asarray(d["values"], dtype=np.float64)
        p = np.asarray(d["probabilities"], dtype=np.float64)
        span = float(v.max() - v.min()) if v.size else 0.0
        colors = np.where(v > 0, "tab:green", np.where(v < 0, "tab:red", "tab:grey"))
        if span > 40:
            ax.set_xscale("symlog", linthresh=5, linscale=1.0)
            ax.vlines(v, 0, p, colors=colors, lw=2.5)
            _symlog_ticks(ax, v.min(), v.max())
        else:
            ax.bar(v, p, width=0.7, color=colors)
        ax.set_yscale("log")
        ax.set_ylim(max(min(p.min() if p.size else 1e-9, 1.0) / 3, 1e-12), 1.5)
        ax.set_title(f"{_label(bet, labels)}: win {_fmt_p(d['p_win'])}, "
                     f"push {_fmt_p(d['p_push'])}",
                     fontsize=9)
        ax.tick_params(labelsize=7)
        ax.grid(axis="y", alpha=0.3)
        t = d.get("tail")
        if t:
            ax.annotate(f"Jackpot royal: {t['rounds']:,} rounds, P = {_fmt_p(t['probability'])}\n"
                        f"pays the meter, up to {t['max']:,} (mean {t['mean']:,.0f})",
                        xy=(0.98, 0.95), xycoords="axes fraction", ha="right", va="top",
                        fontsize=7, bbox={"boxstyle": "round", "fc": "#fff8e0", "ec": "#c90"})
    for ax in axes[-1]:
        ax.set_xlabel("net result per round (money units)", fontsize=8)
    for ax in axes[:, 0]:
        ax.set_ylabel("probability", fontsize=8)
    fig.suptitle("Net result per round, by bet (log probability)", fontsize=10)
    fig.subplots_adjust(left=0.09, right=0.98, top=1 - 0.55 / h, bottom=0.5 / h, hspace=0.45,
                        wspace=0.18)
    return _png(fig)


def _symlog_ticks(ax, lo: float, hi: float) -> None:
    """Plain-number ticks on a symlog axis (its default 10^k labels crowd near zero)."""
    from matplotlib.ticker import NullLocator

    marks = [-1000, -100, -10, -5, -1, 0, 1, 5, 10, 100, 1000, 10_000, 100_000]
    ticks = [t for t in marks if lo - 1 <= t <= hi * 1.2 + 1]
    ax.set_xticks(ticks, [f"{t:,}" for t in ticks])
    ax.xaxis.set_minor_locator(NullLocator())


def _rounds_label(x, _=None) -> str:
    for div, suf in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if x >= div:
            return f"{x / div:g}{suf}"
    return f"{x:g}"


def hit_frequency_png(hf: dict, labels: Mapping[str, str] | None = None) -> str:
    """Hit frequency (P(the bet wins) when placed) per bet, simulated bar and exact mark."""
    plt = _plt()
    bets = list(hf)
    y = np.arange(len(bets))
    sim = np.asarray([hf[b]["hit_frequency"] or 0.0 for b in bets])
    h = 0.35 * len(bets) + 1.0
    fig, ax = plt.subplots(figsize=(_W, h))
    fig.subplots_adjust(left=0.13, right=0.97, top=1 - 0.35 / h, bottom=0.5 / h)
    ax.barh(y, sim, color="tab:blue", alpha=0.75, label="simulated")
    ex = [(i, hf[b]["exact"]) for i, b in enumerate(bets) if hf[b].get("exact") is not None]
    if ex:
        ax.plot([e for _, e in ex], [i for i, _ in ex], "k|", ms=14, mew=2, label="exact")
    for i, s in enumerate(sim):
        ax.text(s, i, f" {s:.2%}", va="center", fontsize=7)
    ax.set_yticks(y, [_label(b, labels) for b in bets], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, min(1.0, max(sim.max() * 1.25, 0.05)))
    ax.xaxis.set_major_formatter(plt.FuncFormatter(lambda x, _: f"{x:.0%}"))
    ax.set_xlabel("hit frequency: P(win) per placed bet", fontsize=8)
    ax.set_title("Hit frequency by bet", fontsize=10)
    ax.legend(fontsize=7, loc="lower right")
    return _png(fig)


def convergence_png(conv: dict, labels: Mapping[str, str] | None = None) -> str:
    """Cumulative RTP at each checkpoint with the exact (or final) RTP and its CI funnel at the
    level ``conv["confidence"]`` (95 % by default)."""
    plt = _plt()
    n = np.asarray(conv["rounds"], dtype=np.float64)
    r = np.asarray([np.nan if x is None else x for x in conv["rtp"]], dtype=np.float64)
    fig, ax = plt.subplots(figsize=(_W, 3.3))
    fig.subplots_adjust(left=0.12, right=0.98, top=0.91, bottom=0.14)
    c, sd = conv["centre"], conv["sd_per_sqrt_round"]
    level = conv.get("confidence", DEFAULT_CONFIDENCE)
    z = z_of(level)
    if n.size:
        if c is not None and sd is not None:
            grid = np.geomspace(max(n[0] / 2, 1.0), n[-1] * 1.05, 300)
            half = z * sd / np.sqrt(grid)
            ax.fill_between(grid, c - half, c + half, alpha=0.18, color="tab:blue",
                            label=f"{confidence_label(level)} CI funnel around it")
            ax.axhline(c, lw=1.2, ls="--", color="k",
                       label=f"{'exact' if conv['centre_is_exact' ] else 'final'} RTP "
                             f"{100 * c:.4f} %")
        ax.plot(n, r, lw=1.2, color="tab:red", marker="." if n.size < 60 else None,
                label=f"cumulative RTP ({len(conv['rounds'])} checkpoints)")
        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(plt.FuncFormatter(_rounds_label))
        ax.xaxis.set_minor_formatter(plt.NullFormatter())
        if c is not None and sd is not None:
            fin = r[np.isfinite(r)]
            dev = float(np.max(np.abs(fin - c))) if fin.size else 0.0
            span = max(min(1.3 * dev, 2 * z * sd / math.sqrt(n[0])),
                       1.5 * z * sd / math.sqrt(n[-1]), 1e-5)
            ax.set_ylim(c - span, c + span)
    ax.yaxis.set_major_formatter(plt.FuncFormatter(lambda x, _: f"{100 * x:.2f} %"))
    ax.set_xlabel("rounds played", fontsize=8)
    ax.set_ylabel(f"RTP ({_label(conv['bet'], labels)}, total bet)", fontsize=8)
    ax.set_title("RTP convergence", fontsize=10)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=7, loc="upper right")
    return _png(fig)


def sessions_png(sessions: dict, labels: Mapping[str, str] | None = None) -> str:
    """Session result after N rounds, one panel per bet (main game, whole round): histogram of
    the exact distribution's body, 5th/50th/95th percentiles, the Jackpot tail as a note."""
    plt = _plt()
    bets = [b for b in ("main", "total") if b in sessions] or list(sessions)
    fig, axes = plt.subplots(1, len(bets), figsize=(_W, 3.0), squeeze=False)
    for ax, bet in zip(axes[0], bets, strict=True):
        s = sessions[bet]
        h = s["histogram"]
        p = np.asarray(h["probabilities"])
        x = h["start"] + h["width"] * np.arange(p.size)
        # one step artist, not a patch per bin
        ax.stairs(p, np.append(x, x[-1] + h["width"]) if p.size else [0], fill=True,
                  color="tab:blue", alpha=0.8)
        for k, style in (("5", ":"), ("50", "-"), ("95", ":")):
            if k in s["percentiles"]:
                ax.axvline(s["percentiles"][k], ls=style, lw=1, color="tab:orange")
        ax.axvline(0, lw=1, color="black")
        ax.set_ylim(0, p.max() * 1.35 if p.size else 1)  # room for the note
        ax.set_title(f"{_label(bet, labels)}: P(ahead) {s['p_ahead']:.1%}, "
                     f"mean {s['mean']:,.0f}",
                     fontsize=9)
        ax.tick_params(labelsize=7)
        ax.set_xlabel(f"result after {s['rounds']:,} rounds (money units)", fontsize=8)
        t = s.get("tail")
        note = [f"off the axis: below {_fmt_p(h['below'])}, above {_fmt_p(h['above'])}"]
        if t and t["probability"] > 0:
            note.append(f"Jackpot tail: P(result >= {t['from']:,}) = {_fmt_p(t['probability'])}")
        ax.annotate("\n".join(note), xy=(0.98, 0.95), xycoords="axes fraction",
                    ha="right", va="top", fontsize=6.5,
                    bbox={"boxstyle": "round", "fc": "#fff8e0" if len(note) > 1 else "white",
                          "ec": "#c90" if len(note) > 1 else "#bbb"})
    axes[0][0].set_ylabel("probability per bin", fontsize=8)
    fig.suptitle("Session distribution (orange: 5th, 50th, 95th percentiles)", fontsize=10)
    fig.subplots_adjust(left=0.09, right=0.98, top=0.84, bottom=0.16, wspace=0.22)
    return _png(fig)


def ruin_png(curve: dict, ruin: dict, labels: Mapping[str, str] | None = None) -> str:
    """Risk of ruin within N rounds against the starting bankroll (log scale), with the
    bankroll each target risk needs."""
    plt = _plt()
    b = np.asarray(curve["bankrolls"], dtype=np.float64)
    r = np.clip(np.asarray(curve["ruin"], dtype=np.float64), 1e-7, 1.0)
    fig, ax = plt.subplots(figsize=(_W, 3.2))
    fig.subplots_adjust(left=0.1, right=0.98, top=0.91, bottom=0.14)
    ax.plot(b, r, lw=1.6, color="tab:red")
    for m in ruin["bankroll_for_risk"]:
        ax.axhline(m["target"], ls=":", lw=1, color="grey")
        ax.plot([m["bankroll"]], [max(m["ruin_high"], 1e-7)], "ko", ms=4)
        ax.annotate(f"{m['target']:.0%} risk: bankroll {m['bankroll']:,}",
                    (m["bankroll"], m["target"]), textcoords="offset points", xytext=(6, 6),
                    fontsize=7)
    ax.plot([ruin["bankroll"]], [max(ruin["finite"]["estimate"], 1e-7)], "s", color="tab:blue",
            ms=5, label=f"bankroll {ruin['bankroll']:,}: {ruin['finite']['estimate']:.2%}")
    ax.set_yscale("log")
    ax.set_ylim(max(r.min() / 2, 1e-7), 1.3)
    ax.set_xlim(0, b.max() if b.size else 1)
    ax.set_xlabel(f"starting bankroll (money units; bet: {_label(ruin['bet'], labels)})",
                  fontsize=8)
    ax.set_ylabel(f"P(ruin within {ruin['rounds']:,} rounds)", fontsize=8)
    ax.set_title("Risk of ruin against bankroll", fontsize=10)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=7, loc="lower left")
    return _png(fig)


def jackpot_png(jp: dict) -> str:
    """Jackpot RTP against the meter (a straight line: fixed prizes + P(royal) x meter), the
    break-even meter, and the meters the run paid."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(_W, 3.2))
    fig.subplots_adjust(left=0.1, right=0.91, top=0.91, bottom=0.14)
    ms = [x["meter"] for x in jp["rtp_by_meter"]] + list(jp.get("meters") or [])
    hi = max(ms + [jp["break_even_meter"] * 1.6])
    grid = np.linspace(0, hi, 200)
    ax.plot(grid, jp["fixed_prize_rtp_exact"] + jp["p_hit_exact"] * grid / jp["stake"],
            color="tab:blue", lw=1.6, label="RTP at this meter (exact)")
    ax.axhline(1.0, lw=1, ls="--", color="grey")
    ax.axhline(jp["long_run_rtp"], lw=1, ls=":", color="tab:green",
               label=f"long-run RTP {jp['long_run_rtp']:.2%}")
    ax.axvline(jp["break_even_meter"], lw=1, ls=":", color="k",
               label=f"break-even meter {jp['break_even_meter']:,.0f}")
    ax.axvline(jp["expected_meter_at_hit"], lw=1, ls="-.", color="tab:purple",
               label=f"expected meter at a hit {jp['expected_meter_at_hit']:,.0f}")
    if jp.get("meters"):
        ax2 = ax.twinx()
        ax2.hist(jp["meters"], bins=min(30, max(5, len(jp["meters"]) // 3)), alpha=0.3,
                 color="tab:orange")
        ax2.set_ylabel(f"hits in this run ({jp['hits']:,})", fontsize=8)
        ax2.tick_params(labelsize=7)
        ax.set_zorder(ax2.get_zorder() + 1)  # the line and its legend above the histogram
        ax.patch.set_visible(False)
    ax.xaxis.set_major_formatter(plt.FuncFormatter(lambda x, _: f"{x:,.0f}"))
    ax.yaxis.set_major_formatter(plt.FuncFormatter(lambda x, _: f"{x:.0%}"))
    ax.set_xlabel("Jackpot meter (money units)", fontsize=8)
    ax.set_ylabel("Jackpot RTP", fontsize=8)
    ax.set_title("Progressive Jackpot: RTP by meter (orange: meters paid in this run)",
                 fontsize=10)
    ax.legend(fontsize=7, loc="upper left")
    ax.tick_params(labelsize=7)
    return _png(fig)
