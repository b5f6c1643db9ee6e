"""Monte Carlo agrees with the exact analysis: every shipped config, its default strategy.

Each config is simulated for 10^7 rounds with a fixed seed, and every bet's simulated RTP (and
the main game's total-bet RTP) must lie within the 99.9 % confidence interval (z = 3.29, the
run's own delta-method standard error) of the exact value. The exact values are the shipped
`gpusim exact` reports in gpusim/data/exact/ (their sha256 and the command that regenerates them
are in provenance.json; test_exact_reports_match_a_fresh_solve, marked slow, recomputes them).

False-failure rate: 0.1 % per comparison, about 2 % for the 21 comparisons together if the seeds
were drawn at random; the seeds are fixed, so the outcome is reproducible.

The Jackpot's exact RTP is its long-run value (every contribution paid back through the meter);
a finite run ends with an unpaid meter, a bias far inside its very wide interval.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import gpusim
from gpusim.config import load_config
from gpusim.games import bets

EXACT = Path(gpusim.__file__).parent / "data" / "exact"
Z999 = 3.2905267314919255
ROUNDS = 10_000_000
CONFIGS = ["casino_holdem", "casino_holdem_evolution", "holdem_bonus", "holdem_bonus_classic"]


def _exact(config: str, strategy: str) -> dict:
    return json.loads((EXACT / f"{config}.{strategy}.json").read_text())


def test_shipped_exact_reports_match_provenance():
    prov = json.loads((EXACT / "provenance.json").read_text())
    assert set(prov) == {f"{c}.optimal.json" for c in CONFIGS}
    for name, p in prov.items():
        data = (EXACT / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == p["sha256"], name
        assert load_config(p["config"]).config_hash == p["config_hash"], name
        assert json.loads(data)["strategy"] == p["strategy"]


@pytest.mark.parametrize("seed, config", list(enumerate(CONFIGS, start=101)))
def test_simulated_rtp_within_exact_ci(tmp_path, seed, config):
    rules = load_config(config)
    strategy = rules.default_strategy
    exact = _exact(config, strategy)
    run = gpusim.simulate(config, rounds=ROUNDS, seed=seed, out=tmp_path / "run")
    s = run.summary()
    assert s["rounds"] == ROUNDS and s["strategy"] == strategy
    compared = []
    for bet, b in s["bets"].items():
        if bet in ("main", "total"):
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


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS)
def test_exact_reports_match_a_fresh_solve(config):
    from gpusim.exact import exact_report

    fresh = json.loads(json.dumps(exact_report(load_config(config), strategy="optimal")))
    shipped = _exact(config, "optimal")
    fresh.pop("generated", None), shipped.pop("generated", None)
    assert fresh == shipped
