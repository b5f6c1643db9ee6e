"""The command line's plain-text output: each function renders what one command prints from the
figures a library function returned (the same figures its ``--json`` prints).

Pure string building, no imports beyond the number formats, so the command line loads it at no
cost. A renderer returns the text without its final newline (the caller's ``echo`` adds it).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from gpusim.report.text import fmt_int, fmt_num, fmt_pct

__all__ = [
    "bench_text",
    "config_check_text",
    "default_config_note",
    "eval_text",
    "games_text",
    "play_lines",
    "risk_text",
    "run_folder_note",
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
    """Evaluator speeds (:func:`gpusim.sim.bench.bench_evaluator`), each peer against gpusim."""
    ours = result["evals_per_s"]
    lines = [f"{'evaluator':<16}{'evals/s (median)':>20}{'vs gpusim':>12}",
             f"{'gpusim (jax)':<16}{ours:>20,.0f}{1.0:>12.2f}"]
    lines += [f"{name:<16}{rate:>20,.0f}{rate / ours:>12.4f}"
              for name, rate in result["peers"].items()]
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
    from gpusim.games.play import format_record

    yield f"{rules.name} ({rules.game}), strategy {strategy}, seed {seed}"
    for rec in records:
        yield format_record(rec)


def default_config_note(config: str, strategy: str | None, rounds: str) -> str:
    """What ``gpusim simulate`` without a CONFIG plays."""
    return (f"no CONFIG given: embedded default {config}, {strategy or 'optimal'} strategy, "
            f"{rounds} rounds")


def run_folder_note(path) -> str:
    """Where ``gpusim simulate`` wrote the run."""
    return f"run folder: {path}"


def risk_text(fig: Mapping, *, config: str, strategy) -> str:
    """Session distribution, risk of ruin, bankroll needed and live-table exposure of a run
    (:func:`gpusim.analysis.risk_figures`, plus ``live`` when asked for)."""
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
    lines.append(f"risk of ruin, unlimited horizon: {fmt_pct(u['high'])}"
                 + (f" ({u['note']})" if u.get("note") else ""))
    lines += [f"bankroll for {b['target']:.2%} risk within {rounds:,} rounds: "
              f"{b['bankroll']:,} (risk {b['ruin_high']:.6g})" for b in r["bankroll_for_risk"]]
    lines += [f"bankroll for {b['target']:.2%} risk, unlimited horizon: {b['bankroll']:,}"
              for b in r["bankroll_for_risk_unlimited"]]
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
    (``solve``), from :func:`gpusim.analysis.whatif_figures` and
    :func:`gpusim.analysis.solve_line`."""
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


def verify_text(run: str, problems: list[str]) -> str:
    """``gpusim verify``: the run is sound, or its problems one a line."""
    if not problems:
        return f"{run}: sound (parts' sha256, round coverage, counts and config hash)"
    return "\n".join([f"{run}: {len(problems)} problem(s):", *(f"  - {p}" for p in problems)])
