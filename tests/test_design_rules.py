"""``gpusim design``'s reading of the rules and its table: the config's own paytable priced
beside the candidates, the orders (``--sort``) and the volatility index's confidence, a band on
a main-game bet's total-bet RTP, ratio pays (3:2) where the stake pays them, a side bet a fold
forfeits priced as it plays, and every bet of every shipped config with a paytable searched.

Fast tests price against independent paths: deals counted one by one (the Bonus), the
Jackpot's long run from the rules' text and the textbook five-card counts, a brute
force over a few flop classes of Casino Hold'em's enumeration, and Ultimate Texas Hold'em's exact
report (``analyse``) on made-up strategy totals (a real solve takes minutes). The ``slow`` tests
write candidates and compare a fresh ``gpusim exact`` with the designer, to the last digit.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

from gpusim.config import load_config
from gpusim.designer import DesignError, search, write_config
from gpusim.designer.models import current_paytable, with_paytable
from gpusim.games import spec_for

CLI = [sys.executable, "-m", "gpusim"]


def _cli(args: list[str]):
    from typer.testing import CliRunner

    from gpusim.cli import app

    return CliRunner().invoke(app, args)


# --- the config's own paytable, the orders, the VI's confidence ----------------------------------


def test_current_row_is_the_config_priced_the_same_way(thb):
    from test_designer import _bonus_rtp  # the Bonus's deals counted one by one

    res = search(thb, "bonus", rtp="0.85:0.99", lines=["AKs=20:30", "TT_to_22=1:5"], top=1000)
    exact = _bonus_rtp(thb)
    cur = res.current_figures
    assert Fraction(cur["rtp_exact"]) == exact and cur["rtp"] == float(exact)
    # the candidate that changes nothing carries the same figures, all of them
    same = res.table.filter(res.table["changes"] == 0).row(0, named=True)
    assert {k: same[k] for k in cur} == cur
    assert set(cur) >= {"rtp", "house_edge", "hit_frequency", "sd", "vi"}
    out = _cli(["design", "holdem_bonus", "--bet", "bonus", "--rtp", "0.85:0.99",
                "--line", "AKs=20:30", "--top", "2"])
    row = next(ln for ln in out.stdout.splitlines() if ln.endswith("(current)"))
    assert f"{100 * cur['rtp']:.4f} %" in row and f"{cur['vi']:.4f}" in row
    assert f"{100 * cur['hit_frequency']:.2f} %" in row and f"{cur['sd']:.4f}" in row


@pytest.mark.parametrize("sort, key, descending", [
    ("rtp", "rtp", True), ("house-edge", "house_edge", True), ("vi", "vi", False),
    ("hit-frequency", "hit_frequency", True), ("changes", "changes", False)])
def test_sort_orders_every_candidate_and_top_keeps_the_first(thb, sort, key, descending):
    lines = ["AKs=20:30", "AKo=10:15", "TT_to_22=0:5"]
    full = search(thb, "bonus", rtp="0.80:0.97", lines=lines, sort=sort, top=10**6).table
    vals = full[key].to_list()
    assert vals == sorted(vals, reverse=descending) and len(set(vals)) > 1
    cut = search(thb, "bonus", rtp="0.80:0.97", lines=lines, sort=sort, top=7).table
    assert cut.drop("rank").equals(full.head(7).drop("rank"))
    back = search(thb, "bonus", rtp="0.80:0.97", lines=lines, sort=sort, reverse=True,
                  top=10**6).table[key].to_list()
    assert back == sorted(vals, reverse=not descending)
    assert search(thb, "bonus", rtp="0.80:0.97", lines=lines, near=True,
                  top=10**6).table.equals(search(thb, "bonus", rtp="0.80:0.97", lines=lines,
                                                 sort="changes", top=10**6).table)


def test_vi_header_names_its_confidence():
    args = ["design", "holdem_bonus", "--bet", "bonus", "--rtp", "0.85:0.99",
            "--line", "AKs=20:30", "--top", "2"]
    assert "VI 90 %" in _cli(args).stdout
    out = _cli([*args, "--confidence", "0.95", "--sort", "vi"]).stdout
    assert "VI 95 %" in out and "VI 90 %" not in out and "lowest VI first" in out
    assert json.loads(_cli([*args, "--confidence", "0.95", "--json"]).stdout)[
        "confidence"] == 0.95


# --- a band on the total-bet RTP ------------------------------------------------------------------


def test_total_rtp_band_filters_a_main_game_bet():
    lines = ["straight_flush=3:7", "three_of_a_kind=2:5", "straight=0:2"]
    every = search("three_card_poker", "ante", rtp="0.9:1", lines=lines, top=1000).table
    assert (every["total_rtp"] - (1 - every["element_of_risk"])).abs().max() < 1e-15
    mid = float(every["total_rtp"].median())
    res = search("three_card_poker", "ante", rtp="0.9:1", lines=lines, top=1000,
                 total_rtp=f"{mid}:")
    want = every.filter(every["total_rtp"] >= mid)
    assert 0 < res.count == want.height < every.height
    assert set(res.table.select(res.lines).rows()) == set(want.select(res.lines).rows())
    # a band on the element of risk is the same band
    eor = search("three_card_poker", "ante", rtp="0.9:1", lines=lines, top=1000,
                 element_of_risk=f":{1 - mid}")
    assert eor.count == res.count
    with pytest.raises(DesignError, match="at most one band"):
        search("three_card_poker", "ante", rtp="0.9:1", lines=lines, total_rtp="0.9:",
               element_of_risk=":0.1")


# --- Ultimate Texas Hold'em on made-up strategy totals ------------------------------------------


def _made_up_solution(seed: int, fold_classes=(0, 1, 2)):
    """A Solution whose path totals are made up (every deal counted once: they sum to
    TOTAL_DEALS), with river folds only in ``fold_classes``: what the exact report reads."""
    from gpusim.games.holdem.play_once import FIELDS, TOTAL_DEALS, Solution
    from gpusim.games.holdem.play_once_shape import play_tree_of

    rng = np.random.default_rng(seed)
    paths = np.zeros((4, FIELDS), dtype=np.int64)
    for p in range(4):
        boards = rng.integers(4 * 10**11, 6 * 10**11, 10)
        wins = boards // rng.integers(2, 5, 10)
        paths[p, :10], paths[p, 10:20] = wins, wins // rng.integers(3, 9, 10)
        paths[p, 20:30] = boards
        paths[p, 30:40], paths[p, 40:50] = boards // 50, boards // 4
    fold = np.zeros(FIELDS, dtype=np.int64)
    for c in fold_classes:
        fold[20 + c] = rng.integers(10**9, 10**10)
    fold[20] += TOTAL_DEALS - int(paths[:, 20:30].sum()) - int(fold.sum())
    return Solution(preflop=np.zeros(169, np.int8), flop=None, river=None,
                    values=np.zeros((169, 3), np.int64), values_main=np.zeros((169, 3), np.int64),
                    paths=paths, fold=fold,
                    tree=play_tree_of(load_config("ultimate_holdem").game_def), key=())


def _blind(row, lines) -> dict:
    return {k: (row[k] if isinstance(row[k], int) else str(row[k])) for k in lines}


def test_ratio_blind_pays_are_what_the_exact_report_gives(tmp_path):
    from gpusim.games.holdem.play_once_described import analyse_solution as analyse

    uth = load_config("ultimate_holdem")
    sol = _made_up_solution(1)
    res = search(uth, "blind", rtp=":", lines=["flush=1:5/2:1/2", "straight=1/2:3/2:1/2"],
                 top=100, counts=lambda rules: sol)
    assert res.table["flush"].to_list().count("3:2") > 0 and res.count == res.table.height
    assert "the same for every candidate" in res.strategy_text
    for row in [*res.table.iter_rows(named=True), {**res.current_figures, **{
            k: str(v) for k, v in res.to_json()["current"].items()}}]:
        _, rules = with_paytable(uth, "blind", {**current_paytable(uth, "blind"),
                                                **_blind(row, res.lines)})
        main = analyse(sol, rules, "optimal")["main"]
        assert (row["rtp"], row["house_edge"], row["sd"], row["element_of_risk"],
                row["total_rtp"], row["hit_frequency"]) == (
            main["ante_rtp"], main["house_edge_per_ante"], main["sd_per_round"],
            main["element_of_risk"], main["total_bet_rtp"], main["hit_frequency"])
    # a written candidate keeps its ratio as the config writes it
    pick = next(i for i, r in enumerate(res.table.iter_rows(named=True), 1)
                if r["straight"] == "1:2")
    back = load_config(write_config(res, tmp_path / "uth.toml", pick))
    assert back.pays()["blind"]["straight"] == Fraction(1, 2)


def test_a_line_that_moves_the_strategy_is_solved_pay_by_pay():
    from gpusim.games.holdem.play_once_described import analyse_solution as analyse

    uth = load_config("ultimate_holdem")
    quads = {Fraction(v): _made_up_solution(10 + v, fold_classes=(0, 1, 7)) for v in range(13)}
    calls = []

    def solve(rules):
        q = Fraction(rules.pays()["blind"]["four_of_a_kind"])
        calls.append(q)
        return quads[q]

    res = search(uth, "blind", rtp=":", lines=["four_of_a_kind=8:11", "flush=1:2"], top=100,
                 counts=solve)
    assert sorted(set(calls)) == [0, 8, 9, 10, 11]  # the zero solve, then one per pay
    assert "four_of_a_kind moves it" in res.strategy_text and res.note
    assert res.count == res.table.height == 8
    for row in res.table.iter_rows(named=True):
        _, rules = with_paytable(uth, "blind", {**current_paytable(uth, "blind"),
                                                **_blind(row, res.lines)})
        main = analyse(quads[Fraction(row["four_of_a_kind"])], rules, "optimal")["main"]
        assert (row["rtp"], row["sd"], row["total_rtp"]) == (
            main["ante_rtp"], main["sd_per_round"], main["total_bet_rtp"])
    with pytest.raises(DesignError, match="needs its own exact solve"):
        search(uth, "blind", rtp=":", lines=["four_of_a_kind=0:40"], counts=solve)


def test_must_beat_trips_is_the_exact_reports():
    from gpusim.games.holdem.play_once_described import analyse_solution as analyse

    uth = load_config("ultimate_holdem_must_beat")
    sol = _made_up_solution(3)
    res = search(uth, "trips", rtp=":", lines=["full_house=5:12", "flush=4:9"], top=100,
                 counts=lambda rules: sol)
    assert res.strategy == "optimal" and res.count == res.table.height > 5
    for row in res.table.iter_rows(named=True):
        _, rules = with_paytable(uth, "trips", {**current_paytable(uth, "trips"),
                                                **{k: row[k] for k in res.lines}})
        assert row["rtp"] == analyse(sol, rules, "optimal")["bets"]["trips"]["rtp"]


def test_ratio_pays_the_stake_cannot_pay_are_refused(tmp_path):
    from gpusim.config import shipped_configs

    cfg = tmp_path / "uth_ante1.toml"
    body = shipped_configs()["ultimate_holdem"].read_text()
    # the config's name only: its [game] stays ultimate_holdem (no game of its own left in
    # this process's registry for the next test to find)
    body = body.replace("ante = 2 ", "ante = 1 ").replace('flush = "3:2"', "flush = 2").replace(
        'name = "ultimate_holdem"', 'name = "uth_ante1"', 1)
    assert 'name = "uth_ante1"' in body and 'name = "ultimate_holdem"' in body
    cfg.write_text(body)
    with pytest.raises(DesignError) as e:
        search(cfg, "blind", rtp=":", lines=["straight=1:2:1/2"], counts=lambda r: None)
    msg = str(e.value)
    assert msg.startswith("--line straight=1:2:1/2: blind.straight = 3:2 cannot be paid in "
                          "uth_ante1") and "stakes.ante" in msg and "\n" not in msg
    # a described game takes a ratio pay where its stake can pay it: Casino Hold'em's ante of 1
    # cannot pay 3:2
    with pytest.raises(DesignError) as e:
        search("casino_holdem", "ante", rtp=":", lines=["flush=1:3:1/2"])
    msg = str(e.value)
    assert "cannot be paid in casino_holdem" in msg and "stakes.ante" in msg and "\n" not in msg


def test_uth_trips_settled_on_the_hand_is_the_spec_exact_table():
    uth = load_config("ultimate_holdem")
    side_bet_exact = spec_for(uth).side_bet_exact
    res = search(uth, "trips", rtp="0.9:1", lines=["flush=5:8"], top=10)
    p = side_bet_exact(uth)["trips"]
    pays = current_paytable(uth, "trips")
    rtp = 1 + sum(p[k] * pays.get(k, -1) for k in p)
    assert Fraction(res.current_figures["rtp_exact"]) == rtp and res.strategy is None


# --- Casino Hold'em's AA Bonus a fold forfeits --------------------------------------------------


@pytest.fixture(scope="module")
def ch_part():
    """Casino Hold'em counts of 4 flop classes, sliced to those rows (two of them a pair of
    aces with a deuce and a trey: hands the AA Bonus pays that the main game alone folds)."""
    from _call_once import qualifier_rank, solve_counts

    from gpusim.games.holdem.call_once_counts import ChCounts

    ids = np.array([3, 900, 1730, 1731])
    c = solve_counts(qualifier_rank(load_config("casino_holdem")), flop_ids=ids)
    return ChCounts(c.flops[ids], c.weights[ids], c.counts[ids], c.valid[ids],
                    c.bonus_rank[ids], c.qualifier)


def _aa_brute(counts, rules, with_side_bet: bool) -> tuple[Fraction, Fraction, Fraction]:
    """(AA Bonus RTP, Ante RTP, call rate) with the exact solver's own decisions: a fold loses
    the AA Bonus, a call settles it."""
    from _call_once import aa_bonus_class, aa_bonus_pays, ante_pays, optimal_decisions

    from gpusim.games.holdem.call_once_counts import CH_OUTCOMES

    d = optimal_decisions(counts, rules, with_side_bet=with_side_bet) & counts.valid
    w = np.where(counts.valid, counts.weights.astype(np.int64)[:, None], 0)
    n = int(w.sum())
    pays = aa_bonus_pays(rules)[aa_bonus_class(counts.bonus_rank)]
    aa = int(np.where(d, w * pays, -w).sum())
    c = counts.counts.astype(object)
    a = ante_pays(rules).astype(object)
    call_net = (c[..., :10] * a).sum(-1) + (c[..., 10:20] * (a + 2)).sum(-1) - 3 * c[..., -1]
    main = int((np.where(d, w, 0).astype(object) * call_net).sum()) \
        - CH_OUTCOMES * int(np.where(d, 0, w).sum())
    return (1 + Fraction(aa, n), 1 + Fraction(main, n * CH_OUTCOMES),
            Fraction(int(np.where(d, w, 0).sum()), n))


@pytest.mark.parametrize("strategy", ["optimal", "optimal-main"])
def test_forfeited_aa_bonus_is_priced_under_the_strategy(ch_part, ch, strategy):
    free = {"pair_of_aces": range(0, 4), "two_pair": range(0, 8, 2), "straight": (5, 7)}
    lines = [f"{k}={r[0]}:{r[-1]}:{r[1] - r[0]}" for k, r in free.items()]
    res = search(ch, "aa_bonus", rtp=":", lines=lines, monotone=False, top=1000,
                 counts=ch_part, strategy=strategy)
    assert res.count == res.space_size == res.table.height == 32
    assert res.strategy == strategy and strategy in res.strategy_text
    for row in res.table.iter_rows(named=True):
        pays = {**current_paytable(ch, "aa_bonus"), **{k: row[k] for k in res.lines}}
        aa, main, calls = _aa_brute(ch_part, with_paytable(ch, "aa_bonus", pays)[1],
                                    strategy == "optimal")
        assert Fraction(row["rtp_exact"]) == aa and row["rtp"] == float(aa)
        assert row["main_rtp"] == float(main) and row["call_rate"] == float(calls)
    # optimal counts the AA Bonus a fold gives up: it calls the hands it pays (board aces,
    # board trips) that the main game alone folds, so its AA Bonus returns more
    other = search(ch, "aa_bonus", rtp=":", lines=lines, monotone=False, top=1000,
                   counts=ch_part, strategy="optimal-main" if strategy == "optimal"
                   else "optimal")
    mine, theirs = res.table["call_rate"][0], other.table["call_rate"][0]
    assert (mine > theirs) == (strategy == "optimal")
    assert (res.table["rtp"].sum() > other.table["rtp"].sum()) == (strategy == "optimal")


def test_aa_bonus_settled_after_a_fold_needs_no_strategy():
    res = search("casino_holdem_evolution", "aa_bonus", rtp=":", lines=["flush=10:20"])
    assert res.strategy is None and res.strategy_text is None
    with pytest.raises(DesignError, match="no strategy touches it"):
        search("casino_holdem_evolution", "aa_bonus", rtp=":", lines=["flush=10:20"],
               strategy="optimal")


# --- the Jackpot and every shipped bet ----------------------------------------------------------


FIVE_CARD_HANDS = {"royal_flush": 4, "straight_flush": 36, "four_of_a_kind": 624,
                   "full_house": 3744, "flush": 5108, "straight": 10200,
                   "three_of_a_kind": 54912, "two_pair": 123552, "pair": 1098240,
                   "high_card": 1302540}
"""Five-card poker hands of each category among the C(52,5) = 2,598,960 (the textbook counts)."""


def _jackpot_long_run_rtp(rules) -> Fraction:
    """The Jackpot's long-run RTP per unit staked, from the rules' text: each fixed prize "X for
    1" times its hand's chance over the hole cards and the flop, and a royal flush's meter, which
    pays back every contribution plus the reset the house puts in."""
    total = sum(FIVE_CARD_HANDS.values())
    assert total == 2_598_960
    pays, meter = rules.pays()["jackpot"], rules.meter
    fixed = sum(Fraction(x) * FIVE_CARD_HANDS[ln] for ln, x in pays.items()) / total
    stake = rules.stakes.as_dict()["jackpot"]
    royal = Fraction(FIVE_CARD_HANDS["royal_flush"], total)
    return fixed + Fraction(meter.contribution_rate) + royal * Fraction(meter.reset, stake)


def test_jackpot_is_the_long_run_rtp_of_the_rules_text(thb):
    # the shipped config's 81.845 % (configs/holdem_bonus.toml): 827,636 / 2,598,960 + 50 %
    assert _jackpot_long_run_rtp(thb) == Fraction(827_636, 2_598_960) + Fraction(1, 2)
    res = search(thb, "jackpot", rtp="0.75:0.9", lines=["flush=20:30", "straight=5:12"], top=5)
    assert res.count > 5 and "meter" in res.note
    for row in [*res.table.iter_rows(named=True), {**current_paytable(thb, "jackpot"),
                                                   **res.current_figures}]:
        pays = {k: row[k] for k in current_paytable(thb, "jackpot")}
        priced = with_paytable(thb, "jackpot", pays)[1]
        assert priced.pays()["jackpot"] == pays
        assert Fraction(row["rtp_exact"]) == _jackpot_long_run_rtp(priced)


# The one paytable no search prices: the street-bets shape pays its Ante 1:1 from a category up
# (the threshold is priced by `gpusim exact --set`), so the designer refuses it, naming that.
REFUSED = {("holdem_bonus", "ante")}
# A hold'em game no shape fits is solved exactly by the community-card solver, but the
# designer's models read the other solvers' counts: each of its bets is refused in one line.
COMMUNITY = {"casino_holdem_turn"}


def test_every_bet_with_a_paytable_is_searched(shipped_name):
    from gpusim.designer.models import bet_kind
    from gpusim.designer.space import DesignError
    from gpusim.games import bets, spec_for

    rules = load_config(shipped_name)
    spec = spec_for(rules)
    with_table = [b for b in bets(rules) if b in spec.paytables]
    assert with_table
    if spec.name in COMMUNITY:
        for bet in with_table:
            with pytest.raises(DesignError, match="community-card game") as e:
                bet_kind(rules, bet)
            assert "\n" not in str(e.value)
        return
    for bet in with_table:
        if (spec.name, bet) in REFUSED:
            with pytest.raises(DesignError, match=rf"--set {bet}\.\w+=0\); bets the designer "
                                                  r"searches in \w+: bonus") as e:
                bet_kind(rules, bet)
            assert "\n" not in str(e.value)
            continue
        bet_kind(rules, bet)  # raises where the designer refuses it
    assert set(spec.design_refusals) & set(with_table) == {
        b for g, b in REFUSED if g == spec.name}


# --- slow: written candidates against a fresh exact ---------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("strategy", ["optimal", "optimal-main"])
def test_written_aa_bonus_candidate_is_what_exact_gives(tmp_path, strategy):
    # the whole enumeration (cached after the first solve): the AA Bonus a fold forfeits,
    # priced under the strategy, against the exact report of the written config
    from gpusim.runs.exact_on_demand import exact_report

    res = search("casino_holdem", "aa_bonus", rtp="0.5:0.97", top=30, monotone=False,
                 lines=["pair_of_aces=0:2", "two_pair=1:7:3", "flush=20:30:5"],
                 strategy=strategy)
    assert res.count > 3
    for pick in (1, res.table.height):
        row = res.table.row(pick - 1, named=True)
        rules = load_config(write_config(res, tmp_path / f"aa_{pick}.toml", pick))
        rep = exact_report(rules, strategy, progress=False)
        assert row["rtp"] == rep["bets"]["aa_bonus"]["rtp"]
        assert row["main_rtp"] == rep["main"]["ante_rtp"]
        assert row["call_rate"] == rep["decisions"]["call"]["call"]


@pytest.mark.slow
def test_written_uth_candidates_are_what_exact_gives(tmp_path):
    # each config is its own enumeration (half a minute to two on two cores)
    from gpusim.runs.exact_on_demand import exact_report

    p = subprocess.run([*CLI, "design", "ultimate_holdem", "--bet", "blind", "--rtp",
                        "0.97:1", "--line", "flush=1:2:1/2", "--line", "straight=1:3/2:1/2",
                        "--sort", "rtp", "--top", "3", "--json", "--write-config",
                        str(tmp_path / "blind.toml")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    row = json.loads(p.stdout)["candidates"][0]
    rules = load_config(tmp_path / "blind.toml")
    main = exact_report(rules, "optimal", progress=False)["main"]
    assert (row["rtp"], row["house_edge"], row["sd"], row["element_of_risk"],
            row["total_rtp"], row["hit_frequency"]) == (
        main["ante_rtp"], main["house_edge_per_ante"], main["sd_per_round"],
        main["element_of_risk"], main["total_bet_rtp"], main["hit_frequency"])
    trips = search("ultimate_holdem", "trips", rtp="0.9:1", lines=["full_house=7:10"],
                   sort="rtp", top=3)
    cfg = write_config(trips, tmp_path / "trips.toml", 1)
    rep = exact_report(load_config(cfg), "optimal", progress=False)
    assert trips.table.row(0, named=True)["rtp"] == rep["bets"]["trips"]["rtp"]
