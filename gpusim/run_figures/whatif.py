"""What-if paytables: a bet's RTP under changed pays, exactly from a run's event counts
(:func:`whatif_figures`), and the pay of one line that gives a target RTP
(:func:`solve_line`)."""

from __future__ import annotations

import math
from fractions import Fraction

from gpusim.config import ConfigError, parse_line, parse_pay_settings, with_pays
from gpusim.games import spec_for
from gpusim.run_figures.data import AnalysisError, RunData
from gpusim.run_figures.returns import bet_pays
from gpusim.stats import return_table
from gpusim.stats.distribution import to_fraction

__all__ = ["solve_line", "whatif_figures"]

def _parse_line(rules, text: str, field: str = "--set") -> tuple[str, str]:
    try:
        return parse_line(rules, text, field)
    except ConfigError as exc:
        raise AnalysisError(str(exc)) from None


def _with_pays(data: RunData, changes: dict[tuple[str, str], int | str]):
    try:
        return with_pays(data.rules, changes)
    except ConfigError as exc:
        raise AnalysisError(str(exc)) from None


def _strategy_note(data: RunData, bet: str) -> str | None:
    strat = data.manifest.get("strategy", "")
    main = bet in spec_for(data.rules).main_bets
    forfeits = bet in spec_for(data.rules).forfeited_by_fold(data.rules)
    if not (main or forfeits):
        return None
    cfg = data.rules.name
    if strat.startswith("optimal") or strat == "side-bet-optimal":
        return (f"{bet}: the run's {strat!r} decisions were optimised for the old paytable; this "
                f"is their return under the new one (a lower bound for the new optimal strategy). "
                f"For the new optimum run `gpusim exact` on a config with the new paytable.")
    return (f"{bet}: exact for the run's fixed {strat!r} strategy; a changed {bet} paytable may "
            f"change the optimal strategy: see `gpusim exact {cfg}` with the new paytable.")


def _placed(data: RunData, bet: str, counts: dict, stakes: dict, field: str) -> None:
    """AnalysisError (one line) when the run never staked ``bet``: its return is not in the
    counts (a strategy that never takes the action placing it)."""
    if not any(n and stakes.get(e, 1) for e, n in counts.items()):
        raise AnalysisError(f"{field}: bet {bet!r} was never placed in this run's "
                            f"{data.rounds:,} rounds (strategy "
                            f"{data.manifest.get('strategy', '?')!r}); its return cannot be "
                            "priced from these counts")


def whatif_figures(data: RunData, settings: list[str]) -> dict:
    """RTP of each changed bet under ``settings`` (``["bonus.AKs=30", ...]``), exactly from the
    run's event counts, with the old RTP beside it."""
    try:
        changes = parse_pay_settings(data.rules, settings)
    except ConfigError as exc:
        raise AnalysisError(str(exc)) from None
    new_rules = _with_pays(data, changes)
    out = {"changes": {f"{b}.{ln}": p for (b, ln), p in changes.items()}, "bets": {}}
    for bet in dict.fromkeys(b for b, _ in changes):
        counts = data.events.get(bet, {})
        old_p, st = bet_pays(data.rules, bet, data.meters)
        _placed(data, bet, counts, st, "--set")
        new_p, _ = bet_pays(new_rules, bet, data.meters)
        old = return_table(counts, old_p, stakes=st).rtp
        new = return_table(counts, new_p, stakes=st).rtp
        out["bets"][bet] = {
            "rtp_old": float(old), "rtp_new": float(new), "rtp_new_exact": str(new),
            "paytable_old": _paytable(data.rules, bet), "paytable_new": _paytable(new_rules, bet),
            "exact_for_side_bet": _strategy_note(data, bet) is None,
            "note": _strategy_note(data, bet)}
    return out


def _paytable(rules, bet: str) -> dict[str, int]:
    """{line: pay} of a bet's paytable, as the game's spec reads it from the rules."""
    return spec_for(rules).paytable(rules, bet)


def solve_line(data: RunData, line: str, target_rtp) -> dict:
    """Pay of one paytable line (``bonus.AKs``) that gives the bet ``target_rtp`` (exact, from
    the run's counts), with the whole pays either side and their RTPs."""
    bet, ln = _parse_line(data.rules, line, "--line")
    try:
        target = to_fraction(target_rtp, "--target-rtp")
    except ValueError as exc:
        raise AnalysisError(str(exc)) from None
    if target > 2:  # a percentage
        target /= 100
    if not 0 < target < 2:
        raise AnalysisError(f"--target-rtp: got {target_rtp!r}; give a ratio like 0.95 or a "
                            "percentage like 95")
    counts = data.events.get(bet, {})
    _, st = bet_pays(data.rules, bet, data.meters)
    _placed(data, bet, counts, st, "--line")

    def rtp(x: int) -> Fraction:
        p, _ = bet_pays(_with_pays(data, {(bet, ln): x}), bet, data.meters)
        return return_table(counts, p, stakes=st).rtp

    r0, r1 = rtp(0), rtp(1)
    if r1 == r0:
        raise AnalysisError(f"--line: {line!r} was never hit in this run's {data.rounds:,} "
                            "rounds; its pay cannot be solved from these counts")
    exact = (target - r0) / (r1 - r0)
    lo, hi = math.floor(exact), math.ceil(exact)
    r_lo, r_hi = r0 + lo * (r1 - r0), r0 + hi * (r1 - r0)
    nearest = lo if abs(r_lo - target) <= abs(r_hi - target) else hi
    return {"line": line, "target_rtp": float(target), "exact_pay": float(exact),
            "exact_pay_fraction": str(exact),
            "lower": {"pay": lo, "rtp": float(r_lo)}, "upper": {"pay": hi, "rtp": float(r_hi)},
            "nearest": {"pay": nearest, "rtp": float(r0 + nearest * (r1 - r0))},
            "current_pay": _paytable(data.rules, bet).get(ln),
            "note": _strategy_note(data, bet)}
