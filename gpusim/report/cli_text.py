"""The command line's plain-text output: each function renders what one command prints from the
figures a library function returned (the same figures its ``--json`` prints).

Pure string building, no imports beyond the number formats, so the command line loads it at no
cost. A renderer returns the text without its final newline (the caller's ``echo`` adds it).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from gpusim.games.spec import METER_SECTION
from gpusim.report.text import (
    fmt_int,
    fmt_num,
    fmt_pct,
    unlimited_bankroll_text,
    unlimited_ruin_text,
)

__all__ = [
    "bench_text",
    "config_check_text",
    "default_config_note",
    "design_text",
    "devices_text",
    "eval_text",
    "exact_text",
    "games_text",
    "interrupted_text",
    "play_lines",
    "play_record_text",
    "risk_text",
    "run_folder_note",
    "still_writing_text",
    "verify_text",
    "whatif_text",
]


def eval_text(hand: Mapping) -> str:
    """One hand (``gpusim eval --json``'s fields): category, best five, rank in decimal and hex."""
    rank = hand["rank"]
    return "\n".join([
        f"category:  {hand['category']}  ({hand['description']})",
        f"best five: {' '.join(hand['best_five'])}",
        f"rank:      {rank} (0x{rank:08x})",
    ])


def bench_text(result: Mapping) -> str:
    """Evaluator speeds (:func:`gpusim.compute.bench.bench_evaluator`), each peer against gpusim."""
    ours = result["evals_per_s"]
    lines = [f"{'evaluator':<16}{'evals/s (median)':>20}{'vs gpusim':>12}",
             f"{'gpusim (jax)':<16}{ours:>20,.0f}{1.0:>12.2f}"]
    lines += [f"{name:<16}{rate:>20,.0f}{rate / ours:>12.4f}"
              for name, rate in result["peers"].items()]
    if "rates" in result:
        lines.append(f"gpusim: {len(result['rates'])} windows of >= {result['window_s']:g} s, "
                     f"{min(result['rates']):,.0f} to {max(result['rates']):,.0f} evals/s "
                     f"(spread {100 * result['spread']:.1f} % of the median)")
    return "\n".join(lines)


def config_check_text(config: str, rules) -> str:
    """``gpusim games --check``: the config is valid; its game and hash."""
    return f"{config}: ok ({rules.game}, config_hash {rules.config_hash})"


def games_text(info: Mapping, strategy_descriptions: Mapping[str, Mapping[str, str]]) -> str:
    """Games, shipped configs and strategies (``gpusim games --json``'s ``info``), with each
    strategy's one-line description (game -> strategy -> text)."""
    games, configs = info["games"], info["configs"]
    lines = ["games:"]
    lines += [f"  {g:<16} {v['title']}" for g, v in games.items()]
    lines.append("configs:")
    width = max((len(n) for n in configs), default=0)
    lines += [f"  {n:<{width}}  {c['description'] or c['game']}" for n, c in configs.items()]
    lines.append("strategies:")
    lines += [f"  {g:<16} {s:<18} {strategy_descriptions[g][s]}"
              for g, v in games.items() for s in v["strategies"]]
    return "\n".join(lines)


def play_lines(records: Iterable[Mapping], *, rules, strategy: str, seed: int) -> Iterator[str]:
    """``gpusim play``: a heading, then each dealt round (one text block a round)."""
    from gpusim.games import spec_for

    decisions = spec_for(rules).decisions
    yield f"{rules.name} ({rules.game}), strategy {strategy}, seed {seed}"
    for rec in records:
        yield play_record_text(rec, decisions)


def play_record_text(rec: Mapping, decisions) -> str:
    """A few lines for one dealt round (``gpusim play --json``'s record); ``decisions``: the
    game spec's decision points, whose action words name the choices. A single decision is
    shown by its word alone; points the round did not reach (after a fold) are absent."""
    # the card groups (the game's card_layout) come first in a record, after its round number
    keys = list(rec)
    groups = keys[keys.index("round") + 1 : keys.index("decisions")]
    lines = [f"round {rec['round']}: " + "  ".join(f"{g} {' '.join(rec[g])}" for g in groups)]
    decided = []
    for d in decisions:
        word = rec["decisions"].get(d.name)
        if word is not None:
            decided.append(word if len(decisions) == 1 else f"{d.name}: {word}")
    lines.append("  decisions: " + ", ".join(decided))
    lines.append(f"  hands:     player {rec['player_category']}, dealer {rec['dealer_category']}")
    for bet, b in rec["bets"].items():
        lines.append(f"  {bet:<9} stake {b['stake']:>4}  net {b['net']:>+6}  {b['event']}")
    lines.append(f"  {'total':<9} {'':>10}  net {rec['net']:>+6}")
    return "\n".join(lines)


def default_config_note(config: str, strategy: str | None, rounds: str) -> str:
    """What ``gpusim simulate`` without a CONFIG plays."""
    return (f"no CONFIG given: embedded default {config}, {strategy or 'optimal'} strategy, "
            f"{rounds} rounds")


def run_folder_note(path) -> str:
    """Where ``gpusim simulate`` wrote the run."""
    return f"run folder: {path}"


def risk_text(fig: Mapping, *, config: str, strategy) -> str:
    """Session distribution, risk of ruin, bankroll needed and live-table exposure of a run
    (:func:`gpusim.run_figures.risk_figures`, plus ``live`` when asked for)."""
    s, r = fig["session"], fig["ruin"]
    bankroll, rounds = r["bankroll"], r["rounds"]
    lines = [
        f"{config} ({strategy}), {fig['rounds_in_run']:,} rounds in the run; bet {fig['bet']}",
        f"session of {rounds:,} rounds: mean {fmt_num(s['mean'], 2)}, SD "
        f"{fmt_num(s['sd'], 2)}, P(ahead) {fmt_pct(s['p_ahead'])}, P(even) "
        f"{fmt_pct(s['p_even'])}, P(behind) {fmt_pct(s['p_behind'])}",
        "  percentiles: " + ", ".join(f"{p}%: {fmt_int(v)}" for p, v in s["percentiles"].items()),
    ]
    f = r["finite"]
    lines.append(f"risk of ruin from {bankroll:,} within {rounds:,} rounds: "
                 f"{fmt_pct(f['estimate'])} (exact bracket {f['low']:.6g} .. {f['high']:.6g})")
    sim = r["simulated"]
    lines.append(f"  simulated paths: {sim['ruined']:,} of {sim['paths']:,} ruined = "
                 f"{fmt_pct(sim['estimate'])}, {sim['level']:.0%} interval "
                 f"[{fmt_pct(sim['low'])}, {fmt_pct(sim['high'])}]: "
                 + ("agrees" if r["simulation_agrees"] else "DOES NOT AGREE"))
    u = r["unlimited"]
    lines.append(f"risk of ruin, unlimited horizon: {unlimited_ruin_text(u)}"
                 + (f" ({u['note']})" if u.get("note") and u.get("method") == "certain" else ""))
    if u.get("note") and u.get("method") != "certain":
        lines.append(f"  {u['note']}")
    lines += [f"bankroll for {b['target']:.2%} risk within {rounds:,} rounds: "
              f"{b['bankroll']:,} (risk {b['ruin_high']:.6g})" for b in r["bankroll_for_risk"]]
    lines += [f"bankroll for {b['target']:.2%} risk, unlimited horizon: "
              f"{unlimited_bankroll_text(b)}" for b in r["bankroll_for_risk_unlimited"]]
    lv = fig.get("live")
    if lv:
        lines.append(f"live table, {lv['seats']} seats, {lv['rounds_per_day']:,} rounds a day "
                     "(operator's result):")
        for k in ("live_round", "independent_round", "live_day", "independent_day"):
            e = lv[k]
            lines.append(f"  {k.replace('_', ' '):<18} mean {fmt_num(e['mean'], 2):>14}  SD "
                         f"{fmt_num(e['sd'], 2):>14}  VaR99 "
                         f"{fmt_num(e['var'].get('0.99'), 0):>12}")
        lines.append(f"  daily SD live / independent: {fmt_num(lv['daily_sd_ratio'], 3)}")
    return "\n".join(lines)


def whatif_text(fig: Mapping, rounds_in_run: int) -> str:
    """RTP under changed pays (``whatif``) and one line's pay solved for a target RTP
    (``solve``), from :func:`gpusim.run_figures.whatif_figures` and
    :func:`gpusim.run_figures.solve_line`."""
    lines = []
    w = fig.get("whatif")
    if w:
        for bet, b in w["bets"].items():
            changed = ", ".join(f"{k}={v}" for k, v in w["changes"].items()
                                if k.startswith(bet + "."))
            lines.append(f"{bet}: RTP {fmt_pct(b['rtp_old'])} -> {fmt_pct(b['rtp_new'])} "
                         f"with {changed} (from {rounds_in_run:,} rounds' event counts)")
            if b["note"]:
                lines.append(f"  note: {b['note']}")
    s = fig.get("solve")
    if s:
        lines.append(f"{s['line']}: pay {s['exact_pay']:.6g} gives RTP "
                     f"{fmt_pct(s['target_rtp'])} (exactly {s['exact_pay_fraction']}); "
                     f"current pay {s['current_pay']}")
        lines.append(f"  whole pays: {s['lower']['pay']} -> {fmt_pct(s['lower']['rtp'])}, "
                     f"{s['upper']['pay']} -> {fmt_pct(s['upper']['rtp'])}; nearest "
                     f"{s['nearest']['pay']}")
        if s["note"]:
            lines.append(f"  note: {s['note']}")
    return "\n".join(lines)


def interrupted_text(signal_name: str, path, kept: tuple[int, int, int, int] | None,
                     resume: str) -> str:
    """The one line a stopped run prints: what was kept and how to continue.

    ``kept``: (chunks kept, chunks planned, rounds kept, rounds planned), None when no run
    folder was made yet."""
    if kept is None:
        what = "before the run folder was made; nothing was kept"
    else:
        c, n, r, total = kept
        what = (f"kept {c:,} of {n:,} chunks ({r:,} of {total:,} rounds) in {path}, "
                "dropped the chunk in flight")
    return f"gpusim: stopped by {signal_name}: {what}; resume with: {resume}"


def still_writing_text(path, holder: str) -> str:
    """The warning for a run folder another process is still writing."""
    return (f"gpusim: warning: {path} is still being written by {holder}; only the chunks "
            "finished so far are there")


def verify_text(run: str, problems: list[str]) -> str:
    """``gpusim verify``: the run is sound, or its problems one a line."""
    if not problems:
        return f"{run}: sound (parts' sha256, round coverage, counts and config hash)"
    return "\n".join([f"{run}: {len(problems)} problem(s):", *(f"  - {p}" for p in problems)])


def _first_decision_text(first: dict, most: int = 200) -> list[str]:
    """Each starting hand's EV per action at the first decision point, strongest first (a
    long table is left to ``--json`` and the HTML report)."""
    from gpusim.cards import RANKS
    from gpusim.report.hand_order import by_strength

    hands = by_strength(first["hands"], lambda h: h["hand"],
                        lambda h: RANKS.index(h["up"]) if "up" in h else -1)
    if len(hands) > most:
        return [f"{first['point']}: EV per action for {len(hands):,} starting hands "
                "(--json, or --html PATH for the chart)"]
    actions = list(hands[0]["ev"])
    out = [f"{first['point']} (EV per unit of the base bet of {', '.join(actions)}; the share "
           f"of the hand's deals taking {actions[-1]}):"]
    for h in hands:
        name = h["hand"] + (f" v {h['up']}" if "up" in h else "")
        evs = " ".join(f"{h['ev'][a]:+.6f}" for a in actions)
        out.append(f"  {name:<18} {evs}  {100 * h['share'][actions[-1]]:6.2f} %")
    return out


def exact_text(report: dict) -> str:
    """``gpusim exact``: an exact report (docs/exact.md) for the terminal."""
    m = report["main"]
    lines = [
        f"{report['game']} / {report['config']} / strategy {report['strategy']}",
        f"deals counted: {report['deals_counted']:,}",
        "",
        f"house edge per ante   {100 * m['house_edge_per_ante']:10.4f} %",
        f"ante RTP              {100 * m['ante_rtp']:10.4f} %",
        f"avg total wager       {m['avg_total_wager']:10.6f} antes",
        f"element of risk       {100 * m['element_of_risk']:10.4f} %",
        f"total bet RTP         {100 * m['total_bet_rtp']:10.4f} %",
        f"SD per round          {m['sd_per_round']:10.6f} antes",
    ]
    if "hit_frequency" in m:
        lines.append(f"hit frequency         {100 * m['hit_frequency']:10.4f} %")
    mw = report.get("max_win")
    if mw:
        scope = ("all bets" if mw["scope"] == "all_bets" else
                 f"main game only; {', '.join(mw.get('excluded', {}))} not counted jointly")
        lines.append(f"max win per round     {mw['antes']:>10} antes in {mw['count']:,} deals "
                     f"({scope})")
    lines.append("")
    for bet, table in report["bets"].items():
        rtp = table["rtp"]
        head = f"{bet}: RTP {100 * rtp:.4f} %" if rtp is not None else f"{bet}: never placed"
        if table.get("hit_frequency") is not None:
            head += f", hit frequency {100 * table['hit_frequency']:.4f} %"
        if table.get("max_win"):
            w = table["max_win"]
            head += (f", max win {w['antes']} antes in {w['count']:,} deals"
                     + (" (fixed prizes)" if w.get("excluded_events") else ""))
        lines.append(head)
        for e in table["events"]:
            if e["probability"] == 0:
                continue
            lines.append(
                f"  {e['event']:<36}{e['pays']:>10}  p={e['probability']:.9f}"
                f"  return={e['return']:+.6f}"
            )
        lines.append("")
    if METER_SECTION in report:
        j = report[METER_SECTION]
        lines.append(
            f"jackpot: fixed prizes {100 * j['fixed_prize_rtp']:.4f} %, P(royal) "
            f"{j['p_royal']:.3e}, RTP = fixed + P(royal) x meter / stake; at the reset meter "
            f"{100 * j['rtp_at_reset_meter']:.4f} %, long run with "
            f"{100 * j['contribution_rate']:.2f} % contribution {100 * j['long_run_rtp']:.4f} %, "
            f"break-even meter {j['break_even_meter']:,.0f}"
        )
        for row in j["rtp_at_meter"]:
            lines.append(f"  meter {row['meter']:>12,}: RTP {100 * row['rtp']:.4f} %")
        lines.append("")
    lines.append("decisions (frequency per deal):")
    for point, actions in report["decisions"].items():
        acts = ", ".join(f"{a} {100 * f:.4f} %" for a, f in actions.items())
        lines.append(f"  {point}: {acts}")
    if "first_decision" in report:
        lines += [""] + _first_decision_text(report["first_decision"])
    if "preflop" in report:
        lines.append("")
        hands = report["preflop"]
        # each starting hand's EV of every pre-flop action the game reports (``ev_<action>``)
        keys = [k for k in next(iter(hands.values())) if k.startswith("ev_")]
        if keys == ["ev_bet"]:
            lines.append("preflop (EV of the flop bet per ante; fold = -1):")
            per_row = 4
        else:
            lines.append(f"preflop (EV per ante of {', '.join(k[3:] for k in keys)}; the "
                         "action taken):")
            per_row = 2
        row = []
        for name, v in hands.items():
            evs = " ".join(f"{v[k]:+.6f}" for k in keys)
            row.append(f"{name:>4} {evs} {v['action']:<4}")
            if len(row) == per_row:
                lines.append("  " + "   ".join(row))
                row = []
        if row:
            lines.append("  " + "   ".join(row))
    return "\n".join(lines)


def devices_text(rep: dict) -> str:
    """``gpusim devices``: one line per backend, its devices indented below it."""
    lines = []
    for b in rep["backends"]:
        state = "usable" if b["usable"] else "not usable"
        lines.append(f"{b['name']:8s} {state}" + (f": {b['reason']}" if b["reason"] else ""))
        for d in b["devices"]:
            extra = ""
            if "multiprocessors" in d:
                extra = (f", compute {d['compute_capability']}, {d['multiprocessors']} SMs, "
                         f"{d['memory_bytes'] / 2**30:.0f} GiB")  # fmt: skip
            elif "cores" in d:
                extra = f", {d['cores']} cores"
            lines.append(f"         device {d['id']}: {d['name']}{extra}")
        if b["name"] == "cupy" and b["usable"]:
            lines.append(f"         CuPy {b['cupy_version']}, CUDA runtime {b['runtime_version']}, "
                         f"driver {b['driver_version']}")  # fmt: skip
    lines.append(f"auto     -> {rep['auto']}")
    tc = rep["cuda_toolchain"]
    if tc["kernels_compile"]:
        lines.append(f"CUDA toolchain: NVRTC {tc['nvrtc']}, headers {tc['headers']}: "
                     "every kernel compiles")  # fmt: skip
    else:
        lines.append(f"CUDA toolchain: NVRTC {tc['nvrtc'] or 'absent'}, headers "
                     f"{tc['headers'] or 'absent'}" + (f": {tc['reason']}" if tc["reason"] else ""))
    return "\n".join(lines)


def design_text(res: Mapping) -> str:
    """``gpusim design``: the ranked candidates of :meth:`gpusim.designer.DesignResult.to_json`
    below the config's own paytable, priced the same way, or the one line saying that none
    meets the targets and the nearest reachable RTP."""
    what = f"{res['config']} {res['bet']}"
    if res["count"] == 0:
        near = ("no RTP is reachable under these constraints" if res["nearest_rtp"] is None
                else f"the nearest RTP reachable under these constraints is "
                     f"{fmt_pct(res['nearest_rtp'])}")
        return (f"{what}: no paytable of the {fmt_int(res['space_size'])} searched meets the "
                f"targets; {near}")
    main = res["kind"] == "main"
    cands = res["candidates"]
    lines = list(res["current"])
    order = {"target": "", "rtp": "highest RTP", "house-edge": "highest house edge",
             "vi": "lowest VI", "hit-frequency": "highest hit frequency",
             "changes": "fewest changes"}.get(res.get("sort", "target"), "")
    if order and res.get("reverse"):
        order += " last"
    elif order:
        order += " first"
    head = [f"{what}: {fmt_int(res['count'])} of {fmt_int(res['space_size'])} paytables meet the "
            f"targets (exact, {res['seconds']:.2f} s)"
            + (f", {res['strategy_text']}" if res.get("strategy_text") else "")]
    if not cands:
        return head[0]
    head[0] += f"; the best {len(cands)}" + (f", {order}" if order else "") + ":"
    conf = res.get("confidence", 0.90)
    labels = {"rtp": "RTP", "house_edge": "HE/ante" if main else "house edge",
              "hit_frequency": "hit freq", "sd": "SD", "vi": f"VI {100 * conf:g} %",
              "element_of_risk": "EoR", "total_rtp": "total RTP", "call_rate": "call rate",
              "main_rtp": "ante RTP"}
    figs = list(res.get("figures") or [k for k in labels if k in cands[0]])

    def fig_text(k: str, v) -> str:
        if v is None:
            return ""
        if k in ("sd", "vi"):
            return fmt_num(v, 4)
        return fmt_pct(v, 2) if k in ("hit_frequency", "call_rate") else fmt_pct(v)

    def pays(row: Mapping) -> str:
        return "  ".join(f"{row[ln]!s:>{w}}" for ln, w in zip(lines, width, strict=True))

    width = [max(len(ln), 5) for ln in lines]
    head.append("  #  " + "  ".join(f"{ln:>{w}}" for ln, w in zip(lines, width, strict=True))
                + "  " + "  ".join(f"{labels.get(k, k):>10}" for k in figs) + "  changes")
    cur = res.get("current_figures") or {}
    head.append("  -  " + pays(res["current"]) + "  "
                + "  ".join(f"{fig_text(k, cur.get(k)):>10}" for k in figs) + "  (current)")
    for c in cands:
        head.append(f"{c['rank']:>3}  " + pays(c) + "  "
                    + "  ".join(f"{fig_text(k, c[k]):>10}" for k in figs)
                    + f"  {c['changes']:>7}")
    if res.get("note"):
        head.append(f"note: {res['note']}")
    return "\n".join(head)
