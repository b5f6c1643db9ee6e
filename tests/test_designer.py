"""The paytable designer (``gpusim design``): complete against brute force, and its bad input.
That its candidates are what a fresh ``gpusim exact`` gives is tested with the other fresh
solves, in tests/test_exact_truth.py.

Brute force here prices every paytable of a small space by another path: a side bet through the
config parser and the deals counted one by one (the Bonus's starting hands); Casino Hold'em's
Ante through the exact solver's own ``optimal_decisions`` and ``ante_pays`` on a slice of the
counts (a few flop classes enumerated here, so the test takes seconds).
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

from gpusim.config import load_config
from gpusim.designer import DesignError, search, write_config
from gpusim.designer.models import current_paytable, with_paytable

CLI = [sys.executable, "-m", "gpusim"]


def _space(rules, bet, free: dict[str, range], monotone=True, cap=None):
    """Every paytable of the space as {tuple of pays in line order}, brute force."""
    cur = current_paytable(rules, bet)
    names = list(cur)
    for combo in itertools.product(*free.values()):
        p = dict(cur)
        p.update(zip(free, combo, strict=True))
        vals = tuple(p[n] for n in names)
        if monotone and any(vals[i] < vals[i + 1] for i in range(len(vals) - 1)):
            continue
        if cap is not None and max(vals) > cap:
            continue
        yield dict(zip(names, vals, strict=True)), vals


def _found(res) -> set[tuple[int, ...]]:
    return {tuple(int(v) for v in row) for row in res.table.select(list(res.lines)).rows()}


def _found_rows(table, lines) -> set[tuple[int, ...]]:
    return {tuple(int(v) for v in row) for row in table.select(list(lines)).rows()}


_RANKS = "23456789TJQKA"


def _hole_class(a: int, b: int) -> str:
    """A starting hand's class ("AA", "AKs", "T9o") from two card codes (rank = code >> 2)."""
    hi, lo = sorted((a >> 2, b >> 2), reverse=True)
    if hi == lo:
        return _RANKS[hi] * 2
    return _RANKS[hi] + _RANKS[lo] + ("s" if a & 3 == b & 3 else "o")


def _bonus_rows(rules) -> dict[str, int]:
    """{Bonus line or "other": deals}, brute force over the C(52,2) x C(50,2) (player hole, dealer
    hole) deals: each player hole's class (tests/thb_reference.py names each line's classes); for
    the player's aces, every dealer hole of the 50 cards left, counting the dealer's aces."""
    from thb_reference import BONUS_LINE_CLASSES

    line_of = {cls: ln for ln, classes in BONUS_LINE_CLASSES.items() for cls in classes}
    has_vs = "AA_vs_dealer_AA" in rules.pays()["bonus"]
    rows = dict.fromkeys([*(["AA_vs_dealer_AA"] if has_vs else []), *BONUS_LINE_CLASSES,
                          "other"], 0)
    for a, b in itertools.combinations(range(52), 2):
        line = line_of.get(_hole_class(a, b), "other")
        if line == "AA" and has_vs:
            rest = [c for c in range(52) if c not in (a, b)]
            aces = sum(c >> 2 == 12 and d >> 2 == 12 for c, d in itertools.combinations(rest, 2))
            rows["AA_vs_dealer_AA"] += aces
            rows["AA"] += 1225 - aces
        else:
            rows[line] += 1225
    assert sum(rows.values()) == 1326 * 1225
    return rows


_BONUS_ROWS: dict[bool, dict[str, int]] = {}


def _bonus_rtp(rules) -> Fraction:
    """The Bonus's RTP from the config parser's paytable (X:1) and :func:`_bonus_rows`."""
    pays = rules.pays()["bonus"]
    key = "AA_vs_dealer_AA" in pays
    if key not in _BONUS_ROWS:
        _BONUS_ROWS[key] = _bonus_rows(rules)
    rows = _BONUS_ROWS[key]
    net = sum(Fraction(pays[ln]) * n for ln, n in rows.items() if ln != "other") - rows["other"]
    return 1 + net / (1326 * 1225)


def _aa_rtp(rules) -> Fraction:
    from _call_once import aa_bonus_pays
    from _call_once import five_card_aa_classes as _five_card_aa_classes

    n = np.array(_five_card_aa_classes(), dtype=object)
    return 1 + Fraction(int((aa_bonus_pays(rules).astype(object) * n).sum()), int(n.sum()))


@pytest.mark.parametrize("case", [
    # THB Bonus, three free lines, monotone on
    ("holdem_bonus", "bonus", {"AKs": range(18, 33), "AKo": range(8, 21), "TT_to_22": range(1, 6)},
     "0.925:0.945", True, None, _bonus_rtp),
    # Casino Hold'em AA Bonus, three free lines, monotone off, a top-prize cap; a fold forfeits
    # it, so it is priced under the strategy and needs the whole enumeration (about 40 s from
    # an empty cache): slow suite (tests/test_design_rules.py prices it in the default one)
    pytest.param(("casino_holdem", "aa_bonus", {"royal_flush": range(20, 220, 20),
                                                "flush": range(5, 31),
                                                "pair_of_aces": range(3, 12)},
                  "0.90:0.96", False, 150, _aa_rtp), marks=pytest.mark.slow, id="ch-aa-bonus"),
], ids=["thb-bonus", "ch-aa-bonus"])
def test_side_bet_search_is_exactly_the_brute_force_set(case):
    config, bet, free, band, monotone, cap, rtp_of = case
    rules = load_config(config)
    lines = [f"{k}={r.start}:{r.stop - 1}:{r.step}" for k, r in free.items()]
    lo, hi = (Fraction(x) for x in band.split(":"))
    want = {}
    for pays, vals in _space(rules, bet, free, monotone, cap):
        r = rtp_of(with_paytable(rules, bet, pays)[1])
        if lo <= r <= hi:
            want[vals] = r
    res = search(rules, bet, rtp=band, lines=lines, monotone=monotone, cap=cap, top=10**6)
    assert 0 < len(want) < res.space_size  # the band cuts the space: the test can fail
    assert res.count == len(want)
    assert _found(res) == set(want)
    for row in res.table.iter_rows(named=True):
        vals = tuple(int(row[n]) for n in res.lines)
        assert Fraction(row["rtp_exact"]) == want[vals]
        assert row["rtp"] == float(want[vals])
    # --top cuts the table, never the count; the kept rows are the nearest the band's middle
    cut = search(rules, bet, rtp=band, lines=lines, monotone=monotone, cap=cap, top=5)
    assert cut.count == len(want) and cut.table.height == 5
    mid = (lo + hi) / 2
    dist = sorted(abs(r - mid) for r in want.values())
    assert [abs(Fraction(x) - mid) for x in cut.table["rtp_exact"]] == dist[:5]


@pytest.mark.parametrize("config", ["holdem_bonus", "holdem_bonus_classic"])
def test_bonus_counts_are_the_brute_force_ones(config):
    from gpusim.designer.models import side_bet_model

    rules = load_config(config)
    m = side_bet_model(rules, "bonus")
    rows = _bonus_rows(rules)
    assert dict(zip(m.lines, m.hits.tolist(), strict=True)) | {"other": m.lose} == rows
    assert m.total == sum(rows.values())


def test_side_bet_filters_on_hit_frequency_sd_and_vi_match_brute_force(thb):
    free = {"AKs": range(20, 31), "TT_to_22": range(0, 6)}
    lines = [f"{k}={r.start}:{r.stop - 1}" for k, r in free.items()]
    base = search(thb, "bonus", rtp="0.85:0.99", lines=lines, top=10**6)
    t = base.table
    sd_mid = float(t["sd"].median())
    res = search(thb, "bonus", rtp="0.85:0.99", lines=lines, top=10**6,
                 hit_frequency="0.08:", sd=f":{sd_mid}", vi=":100")
    want = t.filter((t["hit_frequency"] >= 0.08) & (t["sd"] <= sd_mid))
    assert 0 < res.count == want.height < t.height
    assert _found(res) == {tuple(r) for r in want.select(list(res.lines)).rows()}


@pytest.fixture(scope="module")
def ch_slice():
    """Casino Hold'em counts of 6 flop classes, sliced to those rows (a small, real game)."""
    from _call_once import qualifier_rank, solve_counts

    from gpusim.games.holdem.call_once_counts import ChCounts

    rules = load_config("casino_holdem")
    ids = np.arange(0, 1755, 300)
    c = solve_counts(qualifier_rank(rules), flop_ids=ids)
    return ChCounts(c.flops[ids], c.weights[ids], c.counts[ids], c.valid[ids],
                    c.bonus_rank[ids], c.qualifier)


def _ante_rtp_brute(counts, rules, with_side_bet: bool) -> Fraction:
    """Ante RTP (1 - house edge per ante) with the exact solver's optimal decisions."""
    from _call_once import ante_pays, optimal_decisions

    from gpusim.games.holdem.call_once_counts import CH_OUTCOMES

    d = optimal_decisions(counts, rules, with_side_bet=with_side_bet)
    w = counts.weights.astype(np.int64)[:, None]
    call_w = np.where(d & counts.valid, w, 0)
    ev = np.einsum("fh,fhe->e", call_w, counts.counts.astype(np.int64)).astype(object)
    a = ante_pays(rules).astype(object)
    folds = int(np.where(~d & counts.valid, w, 0).sum()) * CH_OUTCOMES
    n = int(np.where(counts.valid, w, 0).sum()) * CH_OUTCOMES
    net = int((ev[:10] * a).sum() + (ev[10:20] * (a + 2)).sum()) - 3 * int(ev[-1]) - folds
    return 1 + Fraction(net, n)


@pytest.mark.parametrize("strategy", ["optimal", "optimal-main"])
def test_main_game_search_is_exactly_the_brute_force_set(ch_slice, ch, strategy):
    free = {"royal_flush": range(50, 201, 50), "full_house": range(2, 6),
            "flush": range(1, 5)}
    lines = [f"{k}={r.start}:{r.stop - 1}:{r.step}" for k, r in free.items()]
    band = "0.95:0.96"
    want = {}
    for pays, vals in _space(ch, "ante", free):
        r = _ante_rtp_brute(ch_slice, with_paytable(ch, "ante", pays)[1],
                            strategy == "optimal")
        if Fraction(95, 100) <= r <= Fraction(96, 100):
            want[vals] = r
    res = search(ch, "ante", rtp=band, lines=lines, top=1000, counts=ch_slice,
                 strategy=strategy)
    assert 0 < len(want) < res.space_size
    assert res.count == len(want) and _found(res) == set(want)
    for row in res.table.iter_rows(named=True):
        assert Fraction(row["rtp_exact"]) == want[tuple(int(row[n]) for n in res.lines)]
    assert res.table["call_rate"].is_between(0.5, 1).all()
    # the SD and hit-frequency bands filter the same set
    sd_mid = float(res.table["sd"].median())
    cut = search(ch, "ante", rtp=band, lines=lines, top=1000, counts=ch_slice,
                 strategy=strategy, sd=f"{sd_mid}:", hit_frequency="0.3:")
    t = res.table.filter(res.table["sd"] >= sd_mid)
    assert 0 < cut.count == t.height < res.count and _found(cut) == _found_rows(t, res.lines)


def test_five_card_aa_bonus_classes_add_up():
    import math

    from _call_once import five_card_aa_classes as _five_card_aa_classes

    n = _five_card_aa_classes()
    assert sum(n) == math.comb(52, 5)
    assert n[10] == math.comb(4, 2) * math.comb(12, 3) * 4**3  # a pair of aces
    assert n[9] == 4 and n[8] == 36  # royal and other straight flushes


def test_ante_lines_pay_the_classes_ante_pays_reads(ch):
    from _call_once import ante_line_matrix, ante_pays

    lines = tuple(current_paytable(ch, "ante"))
    pays = {ln: 7 + 13 * i for i, ln in enumerate(lines)}
    rules = with_paytable(ch, "ante", pays)[1]
    matrix = ante_line_matrix(rules, lines)
    assert (matrix @ np.array(list(pays.values())) == ante_pays(rules)).all()


def test_write_config_gives_a_config_with_that_paytable(thb, tmp_path):
    res = search(thb, "bonus", rtp="0.92:0.95", lines=["AKs=20:30", "TT_to_22=2:5"], top=3)
    path = write_config(res, tmp_path / "my_bonus.toml", rank=2)
    rules = load_config(path)
    row = res.table.row(1, named=True)
    assert rules.name == "my_bonus"
    assert rules.pays()["bonus"] == {ln: row[ln] for ln in res.lines}
    assert rules.stakes == thb.stakes and rules.meter == thb.meter
    assert rules.pays()["jackpot"] == thb.pays()["jackpot"]
    assert _bonus_rtp(rules) == Fraction(row["rtp_exact"])


@pytest.mark.parametrize("args, message", [
    (["--bet", "flop", "--rtp", "0.9:0.95", "--line", "AKs=20:30"], "--bet: got 'flop'"),
    (["--bet", "bonus", "--rtp", "0.9:0.95", "--line", "AKz=20:30"], "unknown line bonus.AKz"),
    (["--bet", "bonus", "--rtp", "0.9:0.95", "--line", "AKs=20:30:0.5"],
     "--line AKs=20:30:0.5: bonus.AKs = 41:2 cannot be paid in holdem_bonus"),
    (["--bet", "bonus", "--rtp", "0.9:0.95", "--step", "0.5", "--line", "AKs=20:30"],
     "--step 0.5: bonus.AKs = 41:2 cannot be paid in holdem_bonus"),
    (["--bet", "bonus", "--rtp", "0.9:0.95", "--line", "AKs=3:2"], "write 3/2"),
    (["--bet", "bonus", "--rtp", "0.9:0.95", "--line", "AKs=20:30", "--sort", "best"],
     "--sort: got 'best'"),
    (["--bet", "bonus", "--rtp", "0.9:0.95", "--line", "AKs=20:30", "--total-rtp", "0.9:1"],
     "the total-bet RTP is a main-game figure"),
    (["--bet", "bonus", "--rtp", "0.9:0.95", "--line", "AKs=20:30", "--strategy", "optimal"],
     "no strategy touches it"),
    (["--bet", "bonus", "--rtp", "0.95:0.9", "--line", "AKs=20:30"], "low end is above"),
    (["--bet", "bonus", "--line", "AKs=20:30"], "give exactly one band"),
    (["--bet", "bonus", "--rtp", "0.9:0.95"], "name the lines that may change"),
])
def test_bad_input_is_one_line_and_exit_2(args, message):
    p = subprocess.run([*CLI, "design", "holdem_bonus", *args], capture_output=True, text=True)
    assert p.returncode == 2, p.stderr
    assert p.stderr.count("\n") == 1 and message in p.stderr, p.stderr
    assert p.stdout == ""


def _cli(args: list[str]):
    """``gpusim ARGS`` in this process (the exit-2 paths run as a subprocess above)."""
    from typer.testing import CliRunner

    from gpusim.cli import app

    return CliRunner().invoke(app, args)


def test_impossible_band_is_one_line_with_the_nearest_rtp():
    p = _cli(["design", "holdem_bonus", "--bet", "bonus", "--rtp", "0.99:1.0",
              "--line", "AKs=20:40", "--line", "TT_to_22=1:4"])
    assert p.exit_code == 0, p.output
    assert p.stdout.count("\n") == 1 and "no paytable" in p.stdout
    # the greatest reachable: AKs at AA's 30 (monotone), TT-22 at 4
    best = with_paytable(load_config("holdem_bonus"), "bonus",
                         {**current_paytable(load_config("holdem_bonus"), "bonus"),
                          "AKs": 30, "TT_to_22": 4})[1]
    assert f"{100 * float(_bonus_rtp(best)):.4f} %" in p.stdout


def test_cli_json_and_python_agree(thb):
    args = ["--bet", "bonus", "--rtp", "96.5:97", "--line", "AA_vs_dealer_AA=500:1000:100",
            "--line", "AKs=20:30", "--near", "--top", "4", "--json"]
    p = _cli(["design", "holdem_bonus", *args])
    assert p.exit_code == 0, p.output
    out = json.loads(p.stdout)
    res = search(thb, "bonus", rtp="0.965:0.97", lines=["AA_vs_dealer_AA=500:1000:100",
                                                       "AKs=20:30"], near=True, top=4)
    assert out["count"] == res.count and out["candidates"] == res.table.to_dicts()
    # --near: the fewest lines changed come first
    assert [c["changes"] for c in out["candidates"]] == sorted(c["changes"]
                                                              for c in out["candidates"])


def test_gpusim_design_returns_a_dataframe():
    import polars as pl

    import gpusim

    df = gpusim.design("holdem_bonus", "bonus", rtp="0.9:0.95", lines=["TT_to_22=1:6"])
    assert isinstance(df, pl.DataFrame) and df.height > 0
    # a house-edge band is the RTP band 1 - HI .. 1 - LO
    he = gpusim.design("holdem_bonus", "bonus", house_edge="5:10", lines=["TT_to_22=1:6"])
    assert he.equals(df)
    with pytest.raises(DesignError, match="--rtp"):
        gpusim.design("holdem_bonus", "bonus", rtp="0.95:0.9", lines=["TT_to_22=1:6"])
