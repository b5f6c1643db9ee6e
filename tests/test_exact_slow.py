"""Full exact solves against the seeds' published figures (slow: minutes each).

Run: pytest -m slow tests/test_exact_slow.py -s
Published figures: the Norwegian rules Casino Hold'em optimal: main game RTP 99.18 %, AA Bonus
90.9 % (forfeited on a fold), 93.60 % always settled; the Icelandic rules Texas Hold'em Bonus
optimal: Ante RTP 97.96 %, total bet RTP 99.47 %, Bonus 91.46 %, Jackpot 81.84 %.
"""

from __future__ import annotations

import pytest

from gpusim.config import load_config

TOL = 0.00005  # 0.005 percentage points


@pytest.mark.slow
def test_casino_holdem_full_solve_matches_seed_002():
    from _call_once import analyse, optimal_decisions, qualifier_rank, solve_counts

    from gpusim.exact._parallel import default_workers

    rules = load_config("casino_holdem")
    counts = solve_counts(qualifier_rank(rules), workers=default_workers())
    rep = analyse(counts, rules, optimal_decisions(counts, rules, with_side_bet=False),
                  "optimal-main")
    main = rep["main"]
    print("main RTP", main["total_bet_rtp"], "HE/ante", main["house_edge_per_ante"])
    assert abs(main["total_bet_rtp"] - 0.9918) < TOL
    aa_all = rep["bets"]["aa_bonus_always_settled"]["rtp"]
    assert abs(aa_all - 0.9360) < TOL
    # AA Bonus with folds forfeiting: 90.78 %; the published 90.9 % is matched when the
    # three-of-a-kind AA Bonus wins that optimal-main folds (trips on a board the dealer
    # shares) are not forfeited (see docs/exact.md, "Published figures").
    ev = {e["event"]: e for e in rep["bets"]["aa_bonus"]["events"]}
    aa = rep["bets"]["aa_bonus"]["rtp"]
    trips_back = 8 * ev["fold:three_of_a_kind"]["probability"]
    print("AA Bonus under optimal-main", aa, "without forfeiting folded trips", aa + trips_back)
    assert abs(aa + trips_back - 0.909) < 0.0005
    assert abs(aa - 0.909) > 0.001


@pytest.mark.slow
def test_holdem_bonus_full_solve_matches_seed_001():
    from gpusim.exact._parallel import default_workers
    from gpusim.games.holdem.streets import analyse
    from gpusim.games.holdem.streets_counts import (
        preflop_ev,
        river_rule,
        solve_river,
        turn_pass,
    )
    from gpusim.games.holdem.streets_shape import prices_of

    rules = load_config("holdem_bonus")
    river = solve_river(4, workers=default_workers())
    rb = river_rule(river, "optimal")
    tp = turn_pass(river, rb, "optimal")
    num, den = preflop_ev(tp.joint)
    # every deal of every class is counted once
    assert (tp.joint.sum(axis=(1, 2, 3)) == den).all()
    rep = analyse(river, tp, num > -den, prices_of(rules), "optimal")
    main = rep["main"]
    print("ante RTP", main["ante_rtp"], "total bet RTP", main["total_bet_rtp"])
    assert abs(main["ante_rtp"] - 0.9796) < TOL
    assert abs(main["total_bet_rtp"] - 0.9947) < TOL
    assert abs(rep["bets"]["bonus"]["rtp"] - 0.9146) < TOL
    assert abs(rep["jackpot"]["long_run_rtp"] - 0.8184) < TOL
