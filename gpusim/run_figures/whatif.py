"""What-if paytables: a bet's RTP under changed pays, exactly from a run's event counts
(:func:`whatif_figures`), and the pay of one line that gives a target RTP
(:func:`solve_line`)."""

from __future__ import annotations

import math
import re
from fractions import Fraction

from gpusim.config import ConfigError, parse_config
from gpusim.games import bets as offered
from gpusim.games import spec_for
from gpusim.run_figures.data import AnalysisError, RunData
from gpusim.run_figures.returns import bet_pays
from gpusim.runs.manifest import config_doc
from gpusim.stats import return_table
from gpusim.stats.distribution import to_fraction

__all__ = ["solve_line", "whatif_figures"]

_RATIO = re.compile(r"\d+:\d+")


def _paytable_lines(rules) -> dict[str, tuple[str, ...]]:
    """{bet: allowed line names} of the paytables a what-if may change."""
    b = offered(rules)
    return {bet: lines for bet, lines in spec_for(rules).paytables.items() if bet in b}


def _allowed_text(rules) -> str:
    return ", ".join(f"{b}.{ln}" for b, ls in _paytable_lines(rules).items() for ln in ls)


def _parse_line(rules, text: str, field: str = "--set") -> tuple[str, str]:
    bet, _, line = text.partition(".")
    lines = _paytable_lines(rules)
    if bet not in lines or line not in lines[bet]:
        raise AnalysisError(f"{field}: unknown paytable line {text!r}; allowed: "
                            f"{_allowed_text(rules)}")
    return bet, line


def _with_pays(data: RunData, changes: dict[tuple[str, str], int | str]):
    doc = config_doc(data.manifest)
    tables = spec_for(data.rules).paytable_tables
    for (bet, line), pay in changes.items():
        # a bet's paytable is the config's [paytables.<table>] table (the bet's name, or the
        # one a described game names)
        doc.setdefault("paytables", {}).setdefault(tables.get(bet, bet), {})[line] = pay
    try:
        return parse_config(doc, source="--set", default_name=data.rules.name)
    except ConfigError as exc:
        raise AnalysisError(str(exc).replace("--set: ", "--set ")) from None


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


def _pay(key: str, text: str) -> int | str:
    """A ``--set`` pay: a whole number (X:1), or ``"A:B"`` as written in a config for a game
    whose paytable takes ratios (the game's config parser refuses it otherwise)."""
    if _RATIO.fullmatch(text):
        return text
    try:
        return int(text.replace("_", ""))
    except ValueError:
        raise AnalysisError(f"--set {key}: got pay {text!r}; pays are whole numbers "
                            "(X means X:1; Jackpot prizes X for 1), or A:B where the "
                            "paytable takes ratios") from None


def whatif_figures(data: RunData, settings: list[str]) -> dict:
    """RTP of each changed bet under ``settings`` (``["bonus.AKs=30", ...]``), exactly from the
    run's event counts, with the old RTP beside it."""
    if not settings:
        raise AnalysisError("--set: give at least one BET.LINE=PAY, e.g. --set "
                            + _allowed_text(data.rules).split(", ")[0] + "=30")
    changes: dict[tuple[str, str], int | str] = {}
    for s in settings:
        key, eq, val = s.partition("=")
        if not eq:
            raise AnalysisError(f"--set: got {s!r}; expected BET.LINE=PAY, e.g. bonus.AKs=30")
        bet, line = _parse_line(data.rules, key.strip())
        changes[(bet, line)] = _pay(key, val.strip())
    new_rules = _with_pays(data, changes)
    out = {"changes": {f"{b}.{ln}": p for (b, ln), p in changes.items()}, "bets": {}}
    for bet in dict.fromkeys(b for b, _ in changes):
        counts = data.events.get(bet, {})
        old_p, st = bet_pays(data.rules, bet, data.meters)
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
