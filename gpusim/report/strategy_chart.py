"""The strategy of an exact report drawn as a PNG (the certification pack's chart), chosen
from the shape of the report's data as the exact report's HTML chart is, never from the game's
name: a 13 x 13 grid for two-card starting hands, hands x dealer up card, the EV of each action
over the starting hands ranked by their best EV, or the action shares per decision point.
:func:`strategy_table` gives the same strategy as rows. Hands come strongest first
(:mod:`gpusim.report.hand_order`), and in the up-card chart consecutive hands that decide
alike against every up card are one row (``high card below A-K``)."""

from __future__ import annotations

import io

from gpusim.report.hand_order import by_strength, run_label, runs

__all__ = ["strategy_chart_png", "strategy_table", "up_rows"]


def strategy_table(rep: dict) -> list[dict]:
    """One row per starting hand of the first decision, strongest first (and per dealer up card,
    low to high): the hand (and up card), its deals, the action taken (the most common one where
    the later cards decide), each action's share and EV (per ante). Every hand keeps its row:
    the table is the data the chart draws."""
    from gpusim.cards import RANKS

    rows: list[dict] = []
    if "preflop" in rep:
        for hand in by_strength(list(rep["preflop"]), str):
            h = rep["preflop"][hand]
            row = {"point": next(iter(rep["decisions"])), "hand": hand, "action": h["action"]}
            row.update({k: v for k, v in h.items() if k.startswith("ev_")})
            rows.append(row)
        return rows
    first = rep.get("first_decision")
    if first:
        hands = by_strength(first["hands"], lambda h: h["hand"],
                            lambda h: RANKS.index(h["up"]) if "up" in h else -1)
        for h in hands:
            share = h.get("share", {})
            row = {"point": first["point"], "hand": h["hand"]}
            if "up" in h:
                row["up"] = h["up"]
            row["deals"] = h.get("deals")
            row["action"] = max(share, key=lambda a: share[a]) if share else None
            row.update({f"share_{a}": s for a, s in share.items()})
            row.update({f"ev_{a}": v for a, v in (h.get("ev") or {}).items()})
            rows.append(row)
        return rows
    for point, shares in rep.get("decisions", {}).items():
        row = {"point": point, "hand": "(all deals)"}
        row.update({f"share_{a}": s for a, s in shares.items()})
        rows.append(row)
    return rows


def strategy_chart_png(rep: dict) -> bytes:
    """The strategy as a PNG, chosen from the data's shape as the exact report's HTML chart is:
    a 13 x 13 grid for two-card starting hands (coloured by the action taken, or by the share
    that does not fold), hands x dealer up card, the EV of each action over the starting hands
    ranked by their best EV, or the action shares per decision point."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    table = strategy_table(rep)
    two = [r for r in table if _two_card(r["hand"]) and "up" not in r]
    title = rep.get("game", "")
    fold = next((k.removeprefix("share_") for k in (table[0] if table else {})
                 if k.startswith("share_") and "fold" in k), None)
    mixed = fold is not None and any(0.001 < r.get(f"share_{fold}", 0) < 0.999 for r in two)
    if two and len(two) >= 150 and mixed:
        # the later cards decide too: shade each starting hand by the share of its deals that
        # do not fold
        fig, ax = plt.subplots(figsize=(7.2, 7.6))
        cmap = plt.get_cmap("RdYlGn")
        for r in two:
            pos = _two_card(r["hand"])
            assert pos is not None
            i, j = pos
            s = 1 - r.get(f"share_{fold}", 0)
            ax.add_patch(plt.Rectangle((j, 12 - i), 1, 1, color=cmap(s)))
            ax.text(j + 0.5, 12 - i + 0.62, r["hand"], ha="center", va="center", fontsize=6.5)
            ax.text(j + 0.5, 12 - i + 0.3, f"{s * 100:.0f}%", ha="center", va="center",
                    fontsize=5.5)
        ax.set_xlim(0, 13)
        ax.set_ylim(0, 13)
        ax.set_xticks([])
        ax.set_yticks([])
        ax.set_aspect("equal")
        ax.set_title(f"{title}: {table[0]['point']}: share of each starting hand's deals that "
                     f"do not {fold} (suited above the diagonal)", fontsize=8)
    elif two and len(two) >= 150:
        actions = sorted({r["action"] for r in two if r.get("action")}, key=_action_order)
        colours = _action_colours(actions)
        fig, ax = plt.subplots(figsize=(7.2, 7.6))
        for r in two:
            pos = _two_card(r["hand"])
            assert pos is not None  # two holds two-card labels only
            i, j = pos
            ax.add_patch(plt.Rectangle((j, 12 - i), 1, 1, color=colours.get(r["action"],
                                                                             "#ddd")))
            ax.text(j + 0.5, 12 - i + 0.5, r["hand"], ha="center", va="center", fontsize=6.5)
        ax.set_xlim(0, 13)
        ax.set_ylim(0, 13)
        ax.set_xticks([])
        ax.set_yticks([])
        ax.set_aspect("equal")
        handles = [plt.Rectangle((0, 0), 1, 1, color=colours[a]) for a in actions]
        ax.legend(handles, actions, loc="upper center", bbox_to_anchor=(0.5, -0.01),
                  ncol=len(actions), frameon=False)
        ax.set_title(f"{title}: {table[0]['point']} action by starting hand "
                     "(suited above the diagonal)", fontsize=9)
    elif table and "up" in table[0]:
        fold = next((k.removeprefix("share_") for k in table[0]
                     if k.startswith("share_") and "fold" in k), None)
        labels, ups, grid = up_rows(table)
        fig, ax = plt.subplots(figsize=(7.2, max(3.0, 0.22 * len(grid) + 1.5)))
        im = ax.imshow(grid, aspect="auto", cmap="RdYlGn", vmin=0, vmax=1)
        ax.set_xticks(range(len(ups)), ups)
        ax.set_yticks(range(len(labels)), labels, fontsize=6 if len(labels) > 20 else 8)
        play = next((k.removeprefix("share_") for k in table[0]
                     if k.startswith("share_") and k != f"share_{fold}"), None)
        if fold and play and len(grid) <= 30:  # few rows: the decision written in each
            for y, row in enumerate(grid):
                if len(set(row)) == 1 and row[0] in (0.0, 1.0):
                    ax.text((len(ups) - 1) / 2, y, play if row[0] else fold, ha="center",
                            va="center", fontsize=9, color="white")
                    continue
                for x, v in enumerate(row):
                    if v == v:  # not NaN: the hand meets this up card
                        ax.text(x, y, "R" if v == 1 else "F" if v == 0 else f"{v * 100:.0f}%",
                                ha="center", va="center", fontsize=7)
        ax.set_xlabel("dealer's up card")
        fig.colorbar(im, ax=ax, label="share of deals that do not fold")
        ax.set_title(f"{title}: {table[0]['point']} by hand and up card", fontsize=9)
    elif table and any(k.startswith("ev_") for k in table[0]):
        actions = [k.removeprefix("ev_") for k in table[0] if k.startswith("ev_")]
        ranked = sorted(table, key=lambda r: -max(r.get(f"ev_{a}", -1e9) for a in actions))
        lines = iter(("#2ca02c", "#1f77b4", "#9467bd", "#ff7f0e", "#8c564b"))
        colours = {a: "#d62728" if "fold" in a else next(lines, "#333333") for a in actions}
        fig, ax = plt.subplots(figsize=(8.0, 4.4))
        for a in actions:
            ax.plot(range(len(ranked)), [r.get(f"ev_{a}") for r in ranked], label=f"EV {a}",
                    color=colours[a], lw=1.4)
        # where the action taken first changes, down the ranking: the strategy's boundary
        for k in range(1, len(ranked)):
            if ranked[k].get("action") != ranked[k - 1].get("action"):
                ax.axvline(k - 0.5, color="#555555", lw=0.8, ls="--")
                ax.annotate(f"{ranked[k - 1]['hand']}: {ranked[k - 1].get('action')} | "
                            f"{ranked[k]['hand']}: {ranked[k].get('action')}",
                            (k - 0.5, ax.get_ylim()[1]), fontsize=7, ha="right", va="top",
                            rotation=90)
                break
        ax.set_xlabel("starting hands, ranked by their best EV")
        ax.set_ylabel("EV per ante")
        ax.legend(frameon=False)
        ax.grid(alpha=0.3)
        ax.set_title(f"{title}: {table[0]['point']}: EV of each action", fontsize=9)
    else:
        points = list(rep.get("decisions", {}))
        fig, ax = plt.subplots(figsize=(7.2, 0.6 * max(len(points), 1) + 1.6))
        for y, p in enumerate(points):
            left = 0.0
            shares = {a: s for a, s in rep["decisions"][p].items() if a != "reached"}
            colours = _action_colours(sorted(shares, key=_action_order))
            for a, s in shares.items():
                ax.barh(y, s, left=left, color=colours[a])
                if s > 0.06:
                    ax.text(left + s / 2, y, f"{a} {s * 100:.1f} %", ha="center",
                            va="center", fontsize=8)
                left += s
        ax.set_yticks(range(len(points)), points)
        ax.set_xlim(0, 1)
        ax.set_xlabel("share of all deals")
        ax.set_title(f"{title}: action shares per decision (the strategy decides on cards "
                     "that are not two hole cards: see the table)", fontsize=8)
    buf = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buf, format="png", dpi=110)
    plt.close(fig)
    return buf.getvalue()


def up_rows(table: list[dict]) -> tuple[list[str], list[str], list[list[float]]]:
    """(row labels, up cards, shares) of the up-card chart of :func:`strategy_table`'s rows:
    per hand, strongest first, the share of its deals that do not fold against each up card
    (NaN where the hand never meets it). A run of hands that take one action on every deal
    against each up card, alike, is one row named by :func:`~gpusim.report.hand_order.run_label`
    (``high card below A-K``): the chart shows where the decision changes, not every hand that
    folds."""
    hands = list(dict.fromkeys(r["hand"] for r in table))  # strongest first
    ups = list(dict.fromkeys(r["up"] for r in table))
    fold = next((k.removeprefix("share_") for k in table[0]
                 if k.startswith("share_") and "fold" in k), None)
    full = [[float("nan")] * len(ups) for _ in hands]
    for r in table:
        share = 1 - r.get(f"share_{fold}", 0) if fold else r.get("deals", 0)
        full[hands.index(r["hand"])][ups.index(r["up"])] = share
    decided = [tuple(row) if fold and all(s in (0.0, 1.0) for s in row) else None
               for row in full]
    cut = runs(decided)
    return ([run_label(hands, start, stop) for start, stop in cut], ups,
            [full[start] for start, _ in cut])


def _two_card(hand: str) -> tuple[int, int] | None:
    """(row, column) of a two-card label (``AKs`` above the diagonal, ``AKo``/``AK`` below,
    pairs on it) in the grid read from the top left (A first), else None."""
    from gpusim.cards import RANKS

    hi = RANKS[::-1]
    if not (len(hand) == 2 or (len(hand) == 3 and hand[2] in "so")) or hand[0] not in hi \
            or hand[1] not in hi:
        return None
    a, b = hi.index(hand[0]), hi.index(hand[1])
    if a == b:
        return a, a
    suited = hand.endswith("s")
    lo, hi_ = min(a, b), max(a, b)
    return (lo, hi_) if suited else (hi_, lo)


def _action_order(a: str) -> tuple[int, str]:
    if "fold" in a:
        return (0, a)
    if a in ("check", "pull"):
        return (1, a)
    return (2, a)


def _action_colours(actions: list[str]) -> dict[str, str]:
    palette = ("#c5e1a5", "#8bc34a", "#43a047", "#26a69a", "#42a5f5", "#ab47bc")
    out, k = {}, 0
    for a in actions:
        if "fold" in a:
            out[a] = "#ef9a9a"
        elif a in ("check", "pull"):
            out[a] = "#fff59d"
        else:
            out[a] = palette[min(k, len(palette) - 1)]
            k += 1
    return out


