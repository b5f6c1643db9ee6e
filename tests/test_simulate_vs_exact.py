"""Monte Carlo agrees with the exact analysis: every shipped config, its default strategy.

Each config is simulated for 10^7 rounds (10^8 for each game's main config, 10^6 for the
described games) with a fixed seed,
and every bet's simulated RTP (and the main game's total-bet RTP) must lie within the 99.9 %
confidence interval (z = 3.29, the run's own delta-method standard error) of the exact value.
The exact values are the shipped `gpusim exact` reports in gpusim/data/exact/ (their sha256 and
the command that regenerates them are in provenance.json; tests/test_exact_truth.py recomputes
them from scratch).

False-failure rate: 0.1 % per comparison, about 2 % for the 21 comparisons together if the seeds
were drawn at random; the seeds are fixed, so the outcome is reproducible.

The Jackpot's long-run RTP is not compared: at 10^8 rounds (about 150 royals) its interval is
still several points wide. Its fixed-prize RTP (31.84 %, standard error 0.3 points here) and the
frequency of every Jackpot hand, the royal included, are compared instead.

Return-table events: for every bet, the simulated count of every event of its exact return
table (a round where the bet is not placed counts as its "fold" or "check" event) must pass a
chi-square goodness-of-fit test at 0.1 %. The main game's total-bet RTP has a standard
error of 0.03 points at 10^7 rounds, so each game's main config runs 10^8 rounds (standard error
0.01 points): an error of 0.05 points is then caught with probability 95 % or more
(test_main_game_check_catches_a_five_hundredths_point_error). Every simulated event's
pays also reproduce the simulated net result of its bet exactly (integers), so a paytable error
of any size fails.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from scipy.stats import chi2
from thb_reference import BONUS_LINE_CLASSES

import gpusim
from gpusim.config import load_config
from gpusim.games import bets, spec_for

EXACT = Path(gpusim.__file__).parent / "data" / "exact"
Z999 = 3.2905267314919255
DESCRIBED = ["three_card_poker", "mississippi_stud", "let_it_ride", "caribbean_stud",
             "ultimate_holdem_3x_open", "double_down_stud", "three_card_poker_6card",
             "casino_holdem_turn"]
CONFIGS = ["casino_holdem", "casino_holdem_evolution", "holdem_bonus", "holdem_bonus_classic",
           "ultimate_holdem", "ultimate_holdem_must_beat", *DESCRIBED]
MAIN_CONFIGS = ("casino_holdem", "holdem_bonus")
# 10^8 rounds for each game's main config: the main game's check then has a 95 % chance to
# catch an error of 0.05 points in the total-bet RTP (standard error 0.01 points); the described
# games' optimal table strategy runs 10^6 (their solver is checked against a brute force
# too, tests/test_described_exact_bruteforce.py)
ROUNDS = {c: 100_000_000 if c in MAIN_CONFIGS else 1_000_000 if c in DESCRIBED else 10_000_000
          for c in CONFIGS}
SLOW = {"ultimate_holdem_must_beat"}  # the same code path as ultimate_holdem: slow suite


def _exact(config: str, strategy: str) -> dict:
    return json.loads((EXACT / f"{config}.{strategy}.json").read_text())


def test_shipped_exact_reports_match_provenance():
    prov = json.loads((EXACT / "provenance.json").read_text())
    # every config's optimal report, and the strategies shipped beside them (Ultimate Texas
    # Hold'em's basic, Casino Hold'em's optimal-main: the README quotes them)
    assert set(prov) == {f"{c}.optimal.json" for c in CONFIGS} | {
        "ultimate_holdem.basic.json", "casino_holdem.optimal-main.json"}
    for name, p in prov.items():
        data = (EXACT / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == p["sha256"], name
        assert load_config(p["config"]).config_hash == p["config_hash"], name
        assert json.loads(data)["strategy"] == p["strategy"]


@pytest.mark.parametrize("seed, config", [
    pytest.param(seed, config, marks=pytest.mark.slow if config in SLOW else ())
    for seed, config in enumerate(CONFIGS, start=101)])
def test_simulated_rtp_within_exact_ci(tmp_path, seed, config):
    rules = load_config(config)
    strategy = rules.default_strategy
    exact = _exact(config, strategy)
    run = gpusim.simulate(config, rounds=ROUNDS[config], seed=seed, out=tmp_path / "run")
    s = run.summary()
    assert s["rounds"] == ROUNDS[config] and s["strategy"] == strategy
    compared = []
    for bet, b in s["bets"].items():
        if bet in ("main", "total"):
            continue
        _check_events(run, s, exact, bet, config)
        if bet == "jackpot":
            _check_jackpot_fixed_prizes(s, exact, config)
            compared.append(bet)
            continue
        lo, hi = b["rtp_ci95"]
        se = (hi - lo) / 2 / 1.959963984540054
        want = exact["bets"][bet]["rtp"]
        assert abs(b["rtp"] - want) <= Z999 * se, (
            f"{config} {bet}: simulated {b['rtp']:.6f} vs exact {want:.6f} (se {se:.6f})"
        )
        compared.append(bet)
    main = s["bets"]["main"]
    lo, hi = main["rtp_ci95"]
    se = (hi - lo) / 2 / 1.959963984540054
    assert abs(main["rtp"] - exact["main"]["total_bet_rtp"]) <= Z999 * se
    assert set(compared) == set(bets(rules))
    print(f"{config}: " + ", ".join(f"{b} {s['bets'][b]['rtp']:.5f}" for b in compared))


ALPHA_EVENTS = 0.001
POOLED = {"jackpot": "no_win", "bonus": "other"}  # simulated hands the exact table lumps together
_BONUS_LINE_OF = {"AA_vs_AA": "AA_vs_dealer_AA",
                  **{c: line for line, cs in BONUS_LINE_CLASSES.items() for c in cs}}


def _event_counts(run, s: dict, exact: dict, bet: str) -> tuple[list[str], np.ndarray]:
    """(exact event names, simulated counts over every round) for one bet."""
    table = exact["bets"][bet]
    names = [e["event"] for e in table["events"]]
    sim = dict(s["events"].get(bet, {}))
    for ev in list(sim):
        if ev in names:
            continue
        if ev.startswith("fold:") and ev[5:] in names:
            into = ev[5:]  # a side bet settled after a fold (not forfeited) pays like a call
        elif bet == "bonus" and ev in _BONUS_LINE_OF:
            into = _BONUS_LINE_OF[ev]  # starting hands -> the paytable line that pays them
            if into not in names:  # no AA-vs-dealer-AA line: AA pays AA
                into = "AA"
        else:
            assert bet in POOLED, f"{bet}: simulated event {ev!r} is not in the exact table"
            into = POOLED[bet]
        sim[into] = sim.get(into, 0) + sim.pop(ev)
    dec = (run.decisions().collect().group_by(["point", "action"]).agg(pl.col("count").sum()))
    dcount = {(p, a): c for p, a, c in dec.iter_rows()}
    # a bet not placed in a round records no event there: its fold/check rounds
    if "fold" in names and "fold" not in sim:
        sim["fold"] = sum(c for (_, a), c in dcount.items() if a == "fold")
    if "check" in names and "check" not in sim:  # the checks at the point that offers it
        point = next(p.name for p in spec_for(load_config(exact["config"])).decisions
                     if any(bet in a.stakes for a in p.actions))
        sim["check"] = dcount[(point, "check")]
    counts = np.array([sim.get(n, 0) for n in names], dtype=np.int64)
    unplaced = s["rounds"] - counts.sum()
    if unplaced and names != list(sim):
        # a described game names a round without the bet after what happened instead: the
        # fold, or the action that left it off the table (Let It Ride's "pull")
        actions = {a.name for p in spec_for(load_config(exact["config"])).decisions
                   for a in p.actions}
        into = "fold" if "fold" in names else next(n for n in names if n in actions)
        counts[names.index(into)] += unplaced
    assert counts.sum() == s["rounds"], (bet, counts.sum())
    return names, counts


def events_p_value(counts: np.ndarray, probs: np.ndarray) -> float:
    """Chi-square goodness of fit; cells with expected counts below 5 are pooled."""
    n = counts.sum()
    exp = probs / probs.sum() * n
    keep = exp >= 5
    obs_c = np.concatenate([counts[keep], [counts[~keep].sum()]])
    exp_c = np.concatenate([exp[keep], [exp[~keep].sum()]])
    if exp_c[-1] < 5:  # too rare even pooled: fold into the smallest kept cell
        i = int(np.argmin(exp_c[:-1]))
        obs_c[i] += obs_c[-1]
        exp_c[i] += exp_c[-1]
        obs_c, exp_c = obs_c[:-1], exp_c[:-1]
    stat = float(((obs_c - exp_c) ** 2 / exp_c).sum())
    return float(chi2.sf(stat, len(obs_c) - 1))


def _check_events(run, s: dict, exact: dict, bet: str, config: str) -> None:
    names, counts = _event_counts(run, s, exact, bet)
    table = exact["bets"][bet]
    probs = np.array([e["probability"] for e in table["events"]])
    p = events_p_value(counts, probs)
    assert p > ALPHA_EVENTS, f"{config} {bet}: events chi-square p = {p:.2e}"
    # pays x events reproduce the bet's net exactly (the Jackpot royal pays the meter instead)
    stake = load_config(config).stakes[bet] if bet in ("ante", "aa_bonus", "bonus", "jackpot",
                                                      "blind", "trips") else None
    if stake and bet != "jackpot":
        net = sum(int(c) * stake * e["pays"] for c, e in zip(counts, table["events"],
                                                            strict=True))
        assert net == s["bets"][bet]["net"], (config, bet, net, s["bets"][bet]["net"])


def _check_jackpot_fixed_prizes(s: dict, exact: dict, config: str) -> None:
    table = exact["bets"]["jackpot"]["events"]
    rounds = s["rounds"]
    sim = s["events"]["jackpot"]
    pays = {e["event"]: e["pays"] for e in table}
    # returned per unit staked by the fixed prizes ("X for 1": pays + 1 returned)
    ret = sum(n * (pays[ev] + 1) for ev, n in sim.items() if ev in pays and ev != "royal_flush")
    probs = {e["event"]: e["probability"] for e in table if e["event"] != "royal_flush"}
    mean = sum(p * (pays[e] + 1) for e, p in probs.items())
    var = sum(p * (pays[e] + 1) ** 2 for e, p in probs.items()) - mean**2
    se = (var / rounds) ** 0.5
    want = exact["jackpot"]["fixed_prize_rtp"]
    assert abs(mean - want) < 1e-12
    assert abs(ret / rounds - want) <= Z999 * se, (config, ret / rounds, want, se)


def test_main_game_check_catches_a_five_hundredths_point_error():
    # the power of the main game's total-bet RTP check against an error of 0.05 points, from
    # the exact SD per round: the two main configs run enough rounds for 95 % power
    from scipy.stats import norm

    for config in MAIN_CONFIGS:
        m = _exact(config, "optimal")["main"]
        se = m["sd_per_round"] / m["avg_total_wager"] / ROUNDS[config] ** 0.5
        power = norm.sf(Z999 - 0.0005 / se) + norm.cdf(-Z999 - 0.0005 / se)
        assert power >= 0.95, (config, se, power)


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS)
def test_exact_reports_match_a_fresh_solve(config):
    from gpusim.runs.exact_on_demand import exact_report

    fresh = json.loads(json.dumps(exact_report(load_config(config), strategy="optimal")))
    shipped = _exact(config, "optimal")
    fresh.pop("generated", None), shipped.pop("generated", None)
    assert fresh == shipped
