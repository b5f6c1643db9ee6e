"""Figures of a run: return tables, volatility, sessions, risk of ruin, jackpot, what-if paytables
and live-table exposure, computed from a run folder's integer counts with :mod:`gpusim.stats`.

Every function here takes a :class:`RunData` (loaded once from a :class:`gpusim.Run` with
:func:`load_run_data`) and returns plain JSON-able dicts: integers for money and counts, floats
only for the final ratios. The ``gpusim report``, ``risk`` and ``whatif`` commands print these
dicts; the report embeds them verbatim, so every number it shows can be read back.

Units: money amounts (bankrolls, session results, meters) are in the config's money units (the
ante is usually 1); per-bet ratios (house edge, SD, VI) are per unit of that bet's stake; the
``main`` and ``total`` figures are per ante.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import polars as pl

from gpusim.stats import (
    NetDistribution,
    bankroll_for_risk,
    break_even_meter,
    compare_with_exact,
    contribution_for_rtp,
    expected_meter_at_hit,
    hit_frequency,
    hold_table,
    jackpot_rtp,
    live_exposure,
    long_run_rtp,
    meter_at_hit_quantiles,
    meter_summary,
    return_table,
    ruin_curve,
    ruin_probability,
    session_distribution,
    session_summary,
    simulate_ruin,
    volatility,
)
from gpusim.stats.volatility import DEFAULT_HOLD_ROUNDS, JointMoments, z_two_sided

__all__ = [
    "AnalysisError",
    "DEFAULT_TARGETS",
    "RunData",
    "bet_pays",
    "convergence",
    "exact_figures",
    "jackpot_figures",
    "live_figures",
    "load_run_data",
    "parse_stake_dist",
    "return_tables",
    "risk_figures",
    "rules_from_manifest",
    "shipped_exact_report",
    "ruin_figures",
    "risk_with_detail",
    "ruin_curve_points",
    "ruin_with_curve",
    "session_figures",
    "session_pmf",
    "session_with_pmf",
    "solve_line",
    "volatility_figures",
    "whatif_figures",
]

DEFAULT_TARGETS = (0.01, 0.05)

# events in which the bet is not on the table (stake 0 in its return table)
_NOT_PLACED = {
    "call": ("fold",),
    "flop": ("fold",),
    "turn": ("fold", "check"),
    "river": ("fold", "check"),
}
_MULTIPLES = {"call": 2, "flop": 2, "turn": 1, "river": 1}
_PAYTABLE_OF = {"ante": "ante", "aa_bonus": "aa_bonus", "bonus": "bonus", "jackpot": "jackpot"}
_MAIN_BETS = {"casino_holdem": ("ante", "call"), "holdem_bonus": ("ante", "flop", "turn", "river")}

# Published category counts of the best five-card hand (royal flush split from straight flush):
# over the 2,598,960 five-card hands and over the 133,784,560 seven-card hands.
_FIVE_CARD = {
    "high_card": 1302540, "pair": 1098240, "two_pair": 123552, "three_of_a_kind": 54912,
    "straight": 10200, "flush": 5108, "full_house": 3744, "four_of_a_kind": 624,
    "straight_flush": 36, "royal_flush": 4,
}
_SEVEN_CARD = {
    "high_card": 23294460, "pair": 58627800, "two_pair": 31433400, "three_of_a_kind": 6461620,
    "straight": 6180020, "flush": 4047644, "full_house": 3473184, "four_of_a_kind": 224848,
    "straight_flush": 37260, "royal_flush": 4324,
}


class AnalysisError(ValueError):
    """A run or a request that cannot be analysed; the message is one line."""


def rules_from_manifest(manifest: dict):
    """The run's rules, rebuilt from the resolved config in its manifest (hash-checked)."""
    from gpusim.config import ConfigError, parse_config

    doc = copy.deepcopy(manifest["config"])
    doc.pop("source", None)
    doc["rules"] = {k: v for k, v in doc.get("rules", {}).items() if not k.endswith("_multiple")}
    try:
        rules = parse_config(doc, source="manifest.json", default_name=manifest.get("config_name",
                                                                                     "config"))
    except ConfigError as exc:
        raise AnalysisError(f"run: its config cannot be rebuilt: {exc}") from None
    want = manifest.get("config_hash")
    if want and rules.config_hash != want:
        raise AnalysisError(f"run: config hash {rules.config_hash[:12]} does not match the "
                            f"manifest's {want[:12]}")
    return rules


@dataclass(frozen=True, eq=False)
class RunData:
    """A run's counts, summed over its completed chunks.

    dists: {bet: NetDistribution} per-round net (money), bets plus ``main`` and ``total``.
    events: {bet: {event: count}}; wagers: {bet: {placed, wagered, returned, ...}} (ints).
    meters: (H,) int64 meter paid at each Jackpot royal; chunk_wagers: per-chunk rows and
    progress: within-chunk checkpoints (round_end, bet, wagered, returned), for convergence.
    """

    path: str
    manifest: dict
    rules: object
    summary: dict
    rounds: int
    bets: tuple[str, ...]
    dists: dict[str, NetDistribution]
    events: dict[str, dict[str, int]]
    wagers: dict[str, dict[str, int]]
    moments: pl.DataFrame
    outcomes: pl.DataFrame
    chunk_wagers: pl.DataFrame
    meters: np.ndarray
    stakes: dict[str, int] = field(default_factory=dict)
    progress: pl.DataFrame | None = None

    @property
    def complete(self) -> bool:
        return self.rounds == self.manifest.get("rounds")

    @property
    def ante(self) -> int:
        return int(self.stakes["ante"])


def load_run_data(run) -> RunData:
    """Collect a run's tables once (``run``: a :class:`gpusim.Run` or a run-folder path)."""
    from gpusim.runs.run import Run

    if not isinstance(run, Run):
        run = Run(run)
    if run.rounds_done == 0:
        raise AnalysisError(f"run: {str(run.path)!r} has no completed chunks yet; nothing to "
                            "analyse")
    manifest = run.manifest
    rules = rules_from_manifest(manifest)
    from gpusim.games import bets as offered

    bets = tuple(offered(rules))
    outcomes = run.outcomes().collect()
    dists = {k: v for k, v in _dists(outcomes).items()}
    ev = run.events().collect().group_by(["bet", "event"]).agg(pl.col("count").sum())
    events: dict[str, dict[str, int]] = {}
    for b, e, c in ev.sort(["bet", "event"]).iter_rows():
        events.setdefault(b, {})[e] = int(c)
    _fill_not_placed(events, bets, run.rounds_done)
    w = run.wagers().collect()
    wagers = {row["bet"]: {k: int(v) for k, v in row.items() if k != "bet"}
              for row in w.group_by("bet").agg(pl.exclude("chunk").sum()).iter_rows(named=True)}
    chunk_wagers = w.sort("chunk")
    meters = run.jackpot().collect().sort("round")["meter"].to_numpy().astype(np.int64)
    ante = int(manifest["config"]["stakes"]["ante"])
    stakes = {b: (ante * _MULTIPLES[b] if b in _MULTIPLES else
                  int(manifest["config"]["stakes"].get(b, ante))) for b in bets}
    stakes["ante"] = ante
    return RunData(
        path=str(run.path), manifest=manifest, rules=rules, summary=run.summary(),
        rounds=run.rounds_done, bets=bets, dists=dists, events=events, wagers=wagers,
        moments=run.moments().collect(), outcomes=outcomes, chunk_wagers=chunk_wagers,
        meters=meters, stakes=stakes, progress=run.progress().collect())


def _fill_not_placed(events: dict[str, dict[str, int]], bets, rounds: int) -> None:
    """Add the rounds in which an optional bet was not placed (the run records placed bets'
    events only): ``fold`` after a fold (the Ante's ``fold`` count), ``check`` otherwise, so a
    return table's probabilities are per round, as in the exact analysis."""
    folds = events.get("ante", {}).get("fold", 0)
    for bet, kinds in _NOT_PLACED.items():
        if bet not in bets:
            continue
        ev = events.setdefault(bet, {})
        missing = rounds - sum(ev.values())
        if missing <= 0 or any(ev.get(k) for k in kinds):
            continue
        fold = min(folds, missing)
        if fold:
            ev["fold"] = fold
        if missing - fold and "check" in kinds:
            ev["check"] = missing - fold


def _dists(outcomes: pl.DataFrame) -> dict[str, NetDistribution]:
    agg = outcomes.group_by(["bet", "net"]).agg(pl.col("count").sum())
    out = {}
    for bet in sorted(set(agg["bet"].to_list())):
        sub = agg.filter(pl.col("bet") == bet)
        out[bet] = NetDistribution.from_counts(sub["net"].to_numpy(), sub["count"].to_numpy())
    return out


def _f(x) -> float | None:
    """A JSON-safe float (None for NaN or infinity)."""
    if x is None:
        return None
    v = float(x)
    return v if math.isfinite(v) else None


# --- 1. return tables ------------------------------------------------------------------------


def bet_pays(rules, bet: str, meters=None) -> tuple[dict[str, Fraction], dict[str, int]]:
    """({event: net pay per unit stake}, {event: stake in bet units}) of one bet of ``rules``.

    The Jackpot royal pays the meter: its pay is the mean meter paid per unit stake minus 1 over
    ``meters`` (the run's recorded hits), or the reset value when there were none.
    """
    from gpusim.games import event_names, event_returns

    names = event_names(rules)[bet]
    rets = event_returns(rules)[bet]
    pays: dict[str, Fraction] = {}
    for e, r in zip(names, rets, strict=True):
        if r is None:  # Jackpot royal: the meter
            stake = rules.stakes["jackpot"]
            if meters is not None and len(meters):
                r = Fraction(int(np.sum(meters, dtype=np.int64)), len(meters) * stake)
            else:
                r = Fraction(rules.jackpot.reset, stake)
        pays[e] = Fraction(r) - 1
    stakes = {e: (0 if e in _NOT_PLACED.get(bet, ()) else 1) for e in names}
    return pays, stakes


def _exact_cached(rules, strategy: str) -> bool:
    """Whether the exact analysis takes seconds, not minutes (see gpusim.exact.tables)."""
    try:
        from gpusim.exact.tables import is_cached

        return is_cached(rules, strategy)
    except Exception:
        return False


def _side_bet_exact(rules) -> dict[str, dict[str, Fraction]]:
    """Exact event probabilities of the side bets that no decision touches (combinatorics)."""
    from gpusim.cards import class_combos
    from gpusim.games import bets as offered
    from gpusim.games.holdem_bonus import BONUS_HANDS

    out: dict[str, dict[str, Fraction]] = {}
    b = offered(rules)
    if "bonus" in b:
        # player hole (1326) x dealer hole (C(50,2) = 1225); a dealer AA behind a player AA is
        # the one pair of the two remaining aces
        p = {}
        for hand in BONUS_HANDS:
            if hand == "AA_vs_AA":
                p[hand] = Fraction(6, 1326 * 1225)
            elif hand == "AA":
                p[hand] = Fraction(6 * 1224, 1326 * 1225)
            elif hand != "other":
                p[hand] = Fraction(class_combos(hand), 1326)
        p["other"] = 1 - sum(p.values(), Fraction(0))
        out["bonus"] = p
    if "jackpot" in b:
        table = _FIVE_CARD if rules.jackpot.cards == "hole_and_flop" else _SEVEN_CARD
        tot = sum(table.values())
        out["jackpot"] = {k: Fraction(v, tot) for k, v in table.items()}
    return out


def shipped_exact_report(rules, strategy: str) -> dict | None:
    """The shipped ``gpusim exact --json`` report of this config and strategy
    (gpusim/data/exact), or None: only when the config's hash and the file's sha256 match its
    provenance record, so an edited config never borrows another's figures."""
    import hashlib
    import json
    from pathlib import Path

    d = Path(__file__).parent.parent / "data" / "exact"
    name = f"{rules.name}.{strategy}.json"
    try:
        prov = json.loads((d / "provenance.json").read_text())[name]
        raw = (d / name).read_bytes()
    except (OSError, KeyError, ValueError):
        return None
    if prov.get("config_hash") != rules.config_hash or \
            hashlib.sha256(raw).hexdigest() != prov.get("sha256"):
        return None
    return json.loads(raw)


def exact_figures(rules, strategy: str, mode: str = "auto") -> dict:
    """Exact event probabilities to set beside the simulated ones.

    mode: ``auto`` - the shipped exact report of a shipped config and strategy, or the full
    exact analysis when its enumeration counts are cached (seconds),
    else the side bets that combinatorics gives at once (Bonus, Jackpot); ``always`` - the full
    analysis even when it must first be solved (minutes); ``never`` - side bets only.
    Returns {"source": {bet: text}, "events": {bet: {event: p}}, "rtp": {bet: float},
    "main": exact main-game figures or None, "note": text or None}.
    """
    if mode not in ("auto", "always", "never"):
        raise AnalysisError(f"--exact: got {mode!r}; allowed: auto, always, never")
    events: dict[str, dict[str, Fraction]] = {}
    source: dict[str, str] = {}
    rtp: dict[str, float | None] = {}
    main = None
    note = None
    for bet, p in _side_bet_exact(rules).items():
        events[bet] = p
        source[bet] = "combinatorics"
    shipped = shipped_exact_report(rules, strategy) if mode != "never" else None
    full = shipped is not None or mode == "always" or (
        mode == "auto" and _exact_cached(rules, strategy))
    if full:
        from gpusim.exact import exact_report
        from gpusim.strategy import StrategyError

        rep = shipped
        if rep is None:
            try:
                rep = exact_report(rules, strategy, progress=False)
            except (StrategyError, ValueError) as exc:
                note = f"exact analysis unavailable: {exc}"
        if rep is not None:
            main = rep.get("main")
            for bet, info in rep.get("bets", {}).items():
                # combinatorics already gave the side bets, in the run's own event names
                if bet.endswith("_always_settled") or source.get(bet) == "combinatorics":
                    continue
                events[bet] = {e["event"]: Fraction(repr(float(e["probability"])))
                               for e in info["events"]}
                source[bet] = "gpusim exact"
                rtp[bet] = _f(info.get("rtp"))
    else:
        note = (f"main-game exact figures: run `gpusim exact {rules.name} --strategy {strategy}` "
                "(the enumeration is cached after the first run)")
    return {"source": source, "events": events, "rtp": rtp, "main": main, "note": note}


def return_tables(data: RunData, exact: dict | None = None) -> dict[str, dict]:
    """PAR sheet per bet: event, pays, count, probability, return; exact figures and z-scores
    beside them where ``exact`` (from :func:`exact_figures`) has the bet."""
    out = {}
    for bet in data.bets:
        counts = data.events.get(bet, {})
        if not counts:
            continue
        pays, stakes = bet_pays(data.rules, bet, data.meters)
        tab = return_table(counts, pays, stakes=stakes, bet=bet)
        rows = [{"event": r.event, "pays": _f(r.pays), "stake": int(r.stake), "count": r.count,
                 "probability": _f(r.probability), "return": _f(r.ret)} for r in tab.rows]
        entry = {"bet": bet, "stake": data.stakes[bet], "rounds": tab.rounds,
                 "placed": sum(r.count for r in tab.rows if r.stake),
                 "rtp": _f(tab.rtp), "expected_net_per_round": _f(tab.expected_net),
                 "rows": rows, "exact": None}
        ex = (exact or {}).get("events", {}).get(bet)
        if ex is not None and set(ex) <= set(pays):
            cmp = compare_with_exact(counts, ex, pays, stakes=stakes)
            for row, c in zip(rows, cmp.events, strict=True):
                row["exact_probability"] = _f(c.exact_probability)
                row["z"] = _f(c.z)
            meter_bet = bet == "jackpot"
            entry["exact"] = {
                "source": exact["source"].get(bet),
                # the Jackpot's exact RTP depends on the meter, so only its events compare
                "rtp": None if meter_bet else _f(exact["rtp"].get(bet, cmp.rtp_exact)),
                "z_rtp": None if meter_bet else _f(cmp.z_rtp),
                "chi2": _f(cmp.chi2), "dof": cmp.dof,
            }
        out[bet] = entry
    return out


# --- 2. volatility ---------------------------------------------------------------------------


def _vol_dict(v, wagered: int | None = None) -> dict:
    return {"stake": _f(v.stake), "mean_net_per_round": _f(v.mean), "house_edge": _f(v.house_edge),
            "element_of_risk": _f(v.element_of_risk), "rtp": _f(v.rtp), "sd": _f(v.sd),
            "vi90": _f(v.vi90), "vi95": _f(v.vi95), "n0": _f(v.n0), "wagered": wagered}


def volatility_figures(data: RunData, hold_rounds=DEFAULT_HOLD_ROUNDS) -> dict:
    """House edge, element of risk, SD, VI 90/95 %, N0 per bet and for main/total; the
    covariance of the bets in one round; the hold's 95 % CI after N rounds."""
    bets = {}
    for bet in [*data.bets, "main", "total"]:
        d = data.dists.get(bet)
        if d is None:
            continue
        stake = data.ante if bet in ("main", "total") else data.stakes[bet]
        wag = data.wagers.get(bet, {}).get("wagered")
        v = volatility(d, stake=stake, wagered=wag if wag else None, bet=bet)
        bets[bet] = _vol_dict(v, wag)
    names = [b for b in data.bets if b in data.dists]
    cov = None
    if not data.moments.is_empty():
        try:
            jm = JointMoments.from_tables(data.moments, data.outcomes, names=names)
            c, r = jm.covariance(), jm.correlation()
            cov = {"names": names, "covariance": [[_f(x) for x in row] for row in c],
                   "correlation": [[_f(x) for x in row] for row in r]}
        except ValueError:
            cov = None
    holds = {}
    for bet in ("main", "total"):
        if bet in data.dists:
            holds[bet] = [{"rounds": h.rounds, "hold": h.hold, "low": h.low, "high": h.high}
                          for h in hold_table(data.dists[bet], hold_rounds, stake=data.ante)]
    return {"bets": bets, "covariance": cov, "hold_ci95": holds,
            "z90": z_two_sided(0.90), "z95": z_two_sided(0.95)}


def convergence(data: RunData, bet: str = "main", exact_rtp: float | None = None) -> dict:
    """Cumulative RTP of ``bet`` at each checkpoint of the run (every compute batch, 2^18
    rounds on the CPU; each chunk's end for runs without a ``progress`` table), with the 95 %
    CI funnel around the centre (the exact RTP when given, else the final simulated RTP)."""
    w = data.chunk_wagers.filter(pl.col("bet") == bet).sort("chunk")
    recs = {int(r["chunk"]): r for r in data.manifest.get("chunks_done", [])}
    chunks = w["chunk"].to_list()
    n = [int(recs[c]["n_rounds"]) if c in recs else 0 for c in chunks]
    cw = np.cumsum(w["wagered"].to_numpy()).tolist()
    cr = np.cumsum(w["returned"].to_numpy()).tolist()
    rounds, wag, ret = np.cumsum(n).tolist(), cw, cr
    pr = data.progress
    if pr is not None and not pr.is_empty():
        pr = pr.filter(pl.col("bet") == bet).sort(["chunk", "round_end"])
        before = dict(zip(chunks, [0, *cw[:-1]], strict=True))
        before_r = dict(zip(chunks, [0, *cr[:-1]], strict=True))
        if pr.height and set(pr["chunk"].to_list()) == set(chunks):
            rounds = pr["round_end"].to_list()
            wag = [before[c] + x for c, x in zip(pr["chunk"].to_list(), pr["wagered"].to_list(),
                                                 strict=True)]
            ret = [before_r[c] + x for c, x in zip(pr["chunk"].to_list(),
                                                   pr["returned"].to_list(), strict=True)]
    rtp = [r / x if x else None for r, x in zip(ret, wag, strict=True)]
    s = data.summary["bets"].get(bet, {})
    final = s.get("rtp")
    lo, hi = (s.get("rtp_ci95") or [None, None])
    # per-round SD of the ratio estimator, back from the summary's delta-method interval
    sd1 = None if lo is None or not data.rounds else (hi - lo) / 2 / z_two_sided(0.95) \
        * math.sqrt(data.rounds)
    centre = exact_rtp if exact_rtp is not None else final
    return {"bet": bet, "rounds": rounds, "rtp": rtp, "centre": centre,
            "centre_is_exact": exact_rtp is not None, "sd_per_sqrt_round": sd1, "final": final}


# --- 3./4. sessions and risk of ruin -----------------------------------------------------------


def _dist(data: RunData, bet: str) -> NetDistribution:
    if bet not in data.dists:
        raise AnalysisError(f"--bet: got {bet!r}; allowed: "
                            + ", ".join(b for b in [*data.bets, "main", "total"]
                                        if b in data.dists))
    return data.dists[bet]


def _cap_gains(dist: NetDistribution, cap: int) -> NetDistribution:
    """Wins above ``cap`` set to ``cap``: exact for ruin from bankrolls b with b + cap beyond
    any loss the horizon allows (a jackpot meter would otherwise blow up the lattice)."""
    if int(dist.values[-1]) <= cap:
        return dist
    return NetDistribution.from_counts(np.minimum(dist.values, cap), dist.counts)


def session_with_pmf(data: RunData, rounds: int, bet: str = "total",
                     percentiles=(1, 5, 10, 25, 50, 75, 90, 95, 99)):
    """(figures, LatticePMF) of the session result after ``rounds`` rounds.

    A progressive meter can make single wins hundreds of thousands of units, which would
    stretch the convolution lattice to millions of points. Wins above a cap C are set to C:
    a session holding such a win is then still above T = C - (rounds - 1) L (L = the largest
    loss of one round), so the distribution below T, hence every percentile below T and
    P(ahead/even/behind), is unchanged. C grows until the highest percentile is below T.
    figures["exact_below"] is T (None when nothing was capped); mean and SD are always the
    uncapped ones (exact, from the per-round moments).
    """
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise AnalysisError(f"--rounds: got {rounds!r}; must be a whole number >= 1")
    dist = _dist(data, bet)
    loss = max(0, -int(dist.values[0]))
    top = int(dist.values[-1])
    cap = 4 * (rounds * loss + 1)
    q_hi = max(percentiles) / 100.0
    while True:
        if cap >= top:
            pmf, exact_below = session_distribution(dist, rounds), None
            break
        pmf = session_distribution(_cap_gains(dist, cap), rounds)
        exact_below = cap - (rounds - 1) * loss
        if exact_below > 0 and int(pmf.quantile(q_hi)) < exact_below:
            break
        cap *= 4
    s = session_summary(dist, rounds, percentiles=percentiles, pmf=pmf)
    fig = {"bet": bet, "rounds": rounds, "mean": s.mean, "sd": s.sd,
           "percentiles": {str(k): v for k, v in s.percentiles.items()},
           "p_ahead": s.p_ahead, "p_even": s.p_even, "p_behind": s.p_behind,
           "error_bound": s.error, "resolution": s.resolution, "exact_below": exact_below}
    return fig, pmf


def session_figures(data: RunData, rounds: int, bet: str = "total",
                    percentiles=(1, 5, 10, 25, 50, 75, 90, 95, 99)) -> dict:
    """Exact session result after ``rounds`` rounds (FFT convolution of the per-round net);
    see :func:`session_with_pmf`."""
    return session_with_pmf(data, rounds, bet, percentiles)[0]


def ruin_with_curve(data: RunData, bankroll: int, rounds: int, *, bet: str = "total",
                    targets=DEFAULT_TARGETS, paths: int = 20_000, seed: int = 1,
                    level: float = 0.99):
    """(figures, curve) of the risk of ruin over ``rounds`` rounds; curve is the
    :class:`~gpusim.stats.ruin.RuinCurve` for bankrolls 1..B, B covering ``bankroll`` and every
    target's bankroll: one backward recursion gives them all."""
    if isinstance(bankroll, bool) or not isinstance(bankroll, int) or bankroll <= 0:
        raise AnalysisError(f"--bankroll: got {bankroll!r}; must be a whole number of money "
                            "units >= 1")
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise AnalysisError(f"--rounds: got {rounds!r}; must be a whole number >= 1")
    for t in targets:
        if not 0 < t < 1:
            raise AnalysisError(f"--target-ror: got {t}; must be a probability in (0, 1)")
    dist = _dist(data, bet)
    loss = max(0, -int(dist.values[0]))
    mu, sd = float(dist.mean), float(dist.sd)
    # the bankroll a target needs is below mean drift + 3 SD over the horizon (else doubled)
    b_max = max(bankroll, 10, min(rounds * loss + 1, int(rounds * max(0.0, -mu)
                                                          + 3 * sd * math.sqrt(rounds))
                                  + loss + 1))
    while True:
        capped = _cap_gains(dist, max(b_max, rounds * loss + 1) + rounds * loss)
        curve = ruin_curve(capped, b_max, rounds)
        if all(np.any(curve.high <= t) for t in targets) or not loss:
            break
        b_max *= 2
    lo, hi = curve.at(bankroll)
    ulo, uhi = ruin_probability(capped, bankroll, None) if dist.mean <= 0 else \
        ruin_probability(dist, bankroll, None)
    need = []
    for t in targets:
        ok = np.flatnonzero(curve.high <= t)
        b = int(ok[0]) + 1 if ok.size else 1
        rl, rh = curve.at(b)
        need.append({"target": t, "bankroll": b, "ruin_low": rl, "ruin_high": rh})
    unl = []
    if dist.mean > 0 and loss:
        for t in targets:
            b = bankroll_for_risk(dist, t, None)
            unl.append({"target": t, "bankroll": b.bankroll, "ruin_low": b.ruin_low,
                        "ruin_high": b.ruin_high})
    sim = simulate_ruin(dist, bankroll, rounds, paths=paths, seed=seed, level=level)
    est = (lo + hi) / 2
    fig = {
        "bet": bet, "bankroll": bankroll, "rounds": rounds, "largest_loss": loss,
        "finite": {"low": lo, "high": hi, "estimate": est},
        "unlimited": {"low": ulo, "high": uhi,
                      "note": "certain ruin: the expected result per round is <= 0"
                      if dist.mean <= 0 and loss else None},
        "bankroll_for_risk": need, "bankroll_for_risk_unlimited": unl,
        "simulated": {"paths": sim.paths, "ruined": sim.ruined, "estimate": sim.estimate,
                      "low": sim.low, "high": sim.high, "level": sim.level, "seed": seed},
        "simulation_agrees": bool(sim.low <= hi and lo <= sim.high),
    }
    return fig, curve


def ruin_figures(data: RunData, bankroll: int, rounds: int, *, bet: str = "total",
                 targets=DEFAULT_TARGETS, paths: int = 20_000, seed: int = 1,
                 level: float = 0.99) -> dict:
    """Risk of ruin from ``bankroll`` over ``rounds`` rounds and unlimited, the bankroll for each
    target risk (exact, integer lattice), and the simulated-paths cross-check."""
    return ruin_with_curve(data, bankroll, rounds, bet=bet, targets=targets, paths=paths,
                           seed=seed, level=level)[0]


def ruin_curve_points(data: RunData, rounds: int, max_bankroll: int, *,
                      bet: str = "total") -> dict:
    """Ruin probability over ``rounds`` rounds for bankrolls 1..max_bankroll (for plots)."""
    dist = _dist(data, bet)
    loss = max(0, -int(dist.values[0]))
    capped = _cap_gains(dist, max(max_bankroll, rounds * loss + 1) + rounds * loss)
    c = ruin_curve(capped, max_bankroll, rounds)
    return {"bankrolls": c.bankrolls.tolist(), "ruin": c.estimate.tolist()}


def risk_figures(data: RunData, bankroll: int, rounds: int, *, bet: str = "total",
                 targets=DEFAULT_TARGETS, paths: int = 20_000, seed: int = 1) -> dict:
    """What ``gpusim risk`` prints: the session after N rounds and the risk of ruin."""
    return risk_with_detail(data, bankroll, rounds, bet=bet, targets=targets, paths=paths,
                            seed=seed)[0]


def risk_with_detail(data: RunData, bankroll: int, rounds: int, *, bet: str = "total",
                     targets=DEFAULT_TARGETS, paths: int = 20_000, seed: int = 1):
    """(risk figures, session LatticePMF, RuinCurve): the figures of :func:`risk_figures` and
    the full distributions behind them (the report plots them and writes them with --data)."""
    sess, pmf = session_with_pmf(data, rounds, bet)
    ruin, curve = ruin_with_curve(data, bankroll, rounds, bet=bet, targets=targets,
                                  paths=paths, seed=seed)
    fig = {"run": data.path, "rounds_in_run": data.rounds, "complete": data.complete,
           "bet": bet, "session": sess, "ruin": ruin}
    return fig, pmf, curve


# --- 5. progressive jackpot --------------------------------------------------------------------


def jackpot_figures(data: RunData, meters_for_rtp=None, rates=None) -> dict | None:
    """Hit frequency, meter at a hit, break-even meter, RTP by meter and by contribution rate.

    None when the config has no Jackpot. The exact hit probability and fixed-prize return come
    from the published hand-category counts; the simulated ones from the run.
    """
    if "jackpot" not in data.bets or data.rules.jackpot is None:
        return None
    jr = data.rules.jackpot
    stake = int(data.stakes["jackpot"])
    placed = data.wagers.get("jackpot", {}).get("placed", 0)
    ev = data.events.get("jackpot", {})
    hits = int(len(data.meters))
    exact_p = _side_bet_exact(data.rules)["jackpot"]
    p_hit = exact_p["royal_flush"]
    prizes = jr.prizes.as_dict()
    fixed_exact = sum((exact_p[k] * v for k, v in prizes.items()), Fraction(0))
    fixed_sim = (Fraction(sum(ev.get(k, 0) * v for k, v in prizes.items()), placed)
                 if placed else None)
    rate = Fraction(jr.contribution_bp, 10_000)
    reset = jr.reset
    be = break_even_meter(fixed_exact, p_hit, stake)
    if meters_for_rtp is None:
        meters_for_rtp = sorted({0, reset, int(be // 2), int(be), int(be * 3 // 2),
                                 int(expected_meter_at_hit(p_hit, rate, reset, stake))})
    if rates is None:
        rates = [Fraction(k, 100) for k in range(0, 75, 5)]
    out = {
        "stake": stake, "contribution_rate": float(rate), "reset": reset, "cards": jr.cards,
        "wagers": placed, "hits": hits,
        "hit_frequency": None, "p_hit_exact": float(p_hit), "one_in_exact": float(1 / p_hit),
        "fixed_prize_rtp_exact": float(fixed_exact),
        "fixed_prize_rtp_sim": _f(fixed_sim),
        "break_even_meter": float(be),
        "long_run_rtp": float(long_run_rtp(fixed_exact, p_hit, rate, reset, stake)),
        "expected_meter_at_hit": float(expected_meter_at_hit(p_hit, rate, reset, stake)),
        "meter_at_hit_quantiles_model": {str(k): v for k, v in meter_at_hit_quantiles(
            p_hit, rate, reset, stake).items()},
        "meter_at_hit": None,
        "meters": [int(m) for m in data.meters[:10_000]],
        "realised_rtp": data.summary["bets"].get("jackpot", {}).get("rtp"),
        "rtp_by_meter": [{"meter": int(m), "rtp": float(jackpot_rtp(fixed_exact, p_hit, m, stake))}
                         for m in meters_for_rtp],
        "long_run_rtp_by_contribution": [
            {"contribution_rate": float(r),
             "long_run_rtp": float(long_run_rtp(fixed_exact, p_hit, r, reset, stake))}
            for r in rates],
        "contribution_for_100pct": float(contribution_for_rtp(1, fixed_exact, p_hit, reset,
                                                              stake)),
    }
    if placed:
        h = hit_frequency(hits, placed)
        out["hit_frequency"] = {"rate": h.rate, "one_in": _f(h.one_in), "low": h.low,
                                "high": h.high}
    if hits:
        m = meter_summary(data.meters)
        out["meter_at_hit"] = {"hits": m.hits, "mean": m.mean, "sd": m.sd, "min": m.minimum,
                               "max": m.maximum,
                               "percentiles": {str(k): v for k, v in m.percentiles.items()}}
    return out


# --- 6. what-if paytables ----------------------------------------------------------------------


def _paytable_lines(rules) -> dict[str, tuple[str, ...]]:
    """{bet: allowed line names} of the paytables a what-if may change."""
    from gpusim.config import AA_BONUS_LINES, ANTE_LINES, BONUS_LINES, JACKPOT_LINES
    from gpusim.games import bets as offered

    lines = {"ante": ANTE_LINES, "aa_bonus": AA_BONUS_LINES} if rules.game == "casino_holdem" \
        else {"bonus": BONUS_LINES, "jackpot": JACKPOT_LINES}
    return {b: ls for b, ls in lines.items() if b in offered(rules)}


def _allowed_text(rules) -> str:
    return ", ".join(f"{b}.{ln}" for b, ls in _paytable_lines(rules).items() for ln in ls)


def _parse_line(rules, text: str, field: str = "--set") -> tuple[str, str]:
    bet, _, line = text.partition(".")
    lines = _paytable_lines(rules)
    if bet not in lines or line not in lines[bet]:
        raise AnalysisError(f"{field}: unknown paytable line {text!r}; allowed: "
                            f"{_allowed_text(rules)}")
    return bet, line


def _with_pays(data: RunData, changes: dict[tuple[str, str], int]):
    from gpusim.config import ConfigError, parse_config

    doc = copy.deepcopy(data.manifest["config"])
    doc.pop("source", None)
    doc["rules"] = {k: v for k, v in doc.get("rules", {}).items() if not k.endswith("_multiple")}
    for (bet, line), pay in changes.items():
        doc.setdefault("paytables", {}).setdefault(_PAYTABLE_OF[bet], {})[line] = pay
    try:
        return parse_config(doc, source="--set", default_name=data.rules.name)
    except ConfigError as exc:
        raise AnalysisError(str(exc).replace("--set: ", "--set ")) from None


def _strategy_note(data: RunData, bet: str) -> str | None:
    strat = data.manifest.get("strategy", "")
    main = bet in _MAIN_BETS[data.rules.game]
    forfeits = bet == "aa_bonus" and getattr(data.rules, "fold_forfeits_bonus", False)
    if not (main or forfeits):
        return None
    cfg = data.rules.name
    if strat.startswith("optimal") or strat == "side-bet-optimal":
        return (f"{bet}: the run's {strat!r} decisions were optimised for the old paytable; this "
                f"is their return under the new one (a lower bound for the new optimal strategy). "
                f"For the new optimum run `gpusim exact` on a config with the new paytable.")
    return (f"{bet}: exact for the run's fixed {strat!r} strategy; a changed {bet} paytable may "
            f"change the optimal strategy: see `gpusim exact {cfg}` with the new paytable.")


def whatif_figures(data: RunData, settings: list[str]) -> dict:
    """RTP of each changed bet under ``settings`` (``["bonus.AKs=30", ...]``), exactly from the
    run's event counts, with the old RTP beside it."""
    if not settings:
        raise AnalysisError("--set: give at least one BET.LINE=PAY, e.g. --set "
                            + _allowed_text(data.rules).split(", ")[0] + "=30")
    changes: dict[tuple[str, str], int] = {}
    for s in settings:
        key, eq, val = s.partition("=")
        if not eq:
            raise AnalysisError(f"--set: got {s!r}; expected BET.LINE=PAY, e.g. bonus.AKs=30")
        bet, line = _parse_line(data.rules, key.strip())
        try:
            pay = int(val.strip().replace("_", ""))
        except ValueError:
            raise AnalysisError(f"--set {key}: got pay {val!r}; pays are whole numbers "
                                "(X means X:1; Jackpot prizes X for 1)") from None
        changes[(bet, line)] = pay
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
    pt = {"ante": "ante_paytable", "aa_bonus": "aa_bonus_paytable", "bonus": "bonus_paytable"}
    if bet == "jackpot":
        return rules.jackpot.prizes.as_dict()
    return getattr(rules, pt[bet]).as_dict()


def solve_line(data: RunData, line: str, target_rtp) -> dict:
    """Pay of one paytable line (``bonus.AKs``) that gives the bet ``target_rtp`` (exact, from
    the run's counts), with the whole pays either side and their RTPs."""
    from gpusim.stats.distribution import to_fraction

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


# --- 7. live-table exposure --------------------------------------------------------------------


def parse_stake_dist(text: str | None) -> dict[int, Fraction]:
    """``"1:50,5:30,25:20"`` (stake in antes : weight) -> {stake: weight}; None -> {1: 1}."""
    if text is None or not text.strip():
        return {1: Fraction(1)}
    out: dict[int, Fraction] = {}
    for part in text.split(","):
        s, colon, w = part.partition(":")
        try:
            stake = int(s.strip())
            weight = Fraction(w.strip()) if colon else Fraction(1)
        except (ValueError, ZeroDivisionError):
            stake, weight = 0, Fraction(-1)
        if stake < 1 or weight <= 0:
            raise AnalysisError(f"--stake-dist: got {part.strip()!r}; expected STAKE:WEIGHT "
                                "pairs like 1:50,5:30,25:20 (whole stakes >= 1, weights > 0)")
        out[stake] = out.get(stake, Fraction(0)) + weight
    return out


def live_figures(data: RunData, seats: int, rounds_per_day: int, stakes: dict | None = None, *,
                 bet: str = "total", levels=(0.95, 0.99)) -> dict:
    """Operator's result per round and per day: M seats on one dealt round vs independent rounds.

    stakes: {stake multiple of the run's stake: weight}; the run's per-round net of ``bet`` is
    the result per unit.
    """
    for name, v in (("--live-seats", seats), ("--rounds-per-day", rounds_per_day)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise AnalysisError(f"{name}: got {v!r}; must be a whole number >= 1")
    stakes = stakes or {1: Fraction(1)}
    tot = sum(stakes.values(), Fraction(0))
    w = {int(k): float(v / tot) for k, v in stakes.items()}
    ex = live_exposure(_dist(data, bet), w, seats, rounds_per_day, levels=levels)

    def summ(e):
        return {"mean": e.mean, "sd": e.sd, "var": {str(k): v for k, v in e.var.items()},
                "error_bound": e.error, "resolution": e.resolution}

    return {"bet": bet, "seats": seats, "rounds_per_day": rounds_per_day,
            "stakes": {str(k): v for k, v in w.items()},
            "live_round": summ(ex.live_round), "independent_round": summ(ex.independent_round),
            "live_day": summ(ex.live_day), "independent_day": summ(ex.independent_day),
            "daily_sd_ratio": ex.daily_sd_ratio,
            "daily_var99_ratio": _ratio(ex.live_day.var.get(0.99),
                                        ex.independent_day.var.get(0.99))}


def _ratio(a, b):
    return None if a is None or not b else a / b


def session_pmf(data: RunData, rounds: int, bet: str = "total") -> tuple[np.ndarray, np.ndarray]:
    """(values, probabilities) of the session result after ``rounds`` rounds (for plots); wins
    above ``figures["exact_below"]`` of :func:`session_with_pmf` are capped there."""
    return session_with_pmf(data, rounds, bet)[1].nonzero()
