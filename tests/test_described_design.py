"""``gpusim design`` on described games (gpusim.games.described.design): a settled side bet's hit
counts and a main-game paytable re-optimised per candidate, against independent counts.

- Three Card Poker's Pair Plus: the hit counts per line are the exact report's event counts,
  and the search finds exactly the paytables a brute force over the counts finds, its current
  paytable at the exact report's RTP.
- Three Card Poker's Ante Bonus: the search finds exactly the paytables that a fresh solve of
  each candidate's config puts in the band, with the same figures.
- A candidate that ``gpusim design`` writes (Three Card Poker's Ante Bonus, Let It Ride's main
  paytable) gets exactly the designer's figures from a fresh ``gpusim exact``.
- Let It Ride (several decision points): the search, with its boxes bounded by their corners,
  finds exactly the paytables each priced alone puts in the band.
- Every bet a shared paytable pays designs it whole; a side bet a fold forfeits is priced as
  it plays (a fresh solve's figures); a search past its cap says so.

Caribbean Stud's outcome counts take a minute and Mississippi Stud's several seconds: they are
not counted here (docs/design.md gives their search times).
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from gpusim.config import load_config
from gpusim.designer import search
from gpusim.designer.models import current_paytable, with_paytable

CLI = [sys.executable, "-m", "gpusim"]
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module", autouse=True)
def cache(tmp_path_factory):
    """A cache folder of this module's own: every solve and count is done again here."""
    mp = pytest.MonkeyPatch()
    mp.setenv("GPUSIM_CACHE_DIR", str(tmp_path_factory.mktemp("design-cache")))
    yield
    mp.undo()


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, env=os.environ)


def _report(rules) -> dict:
    from gpusim.games.described.exact_report import analyse
    from gpusim.games.described.solver import solve

    return analyse(solve(rules))


@pytest.fixture(scope="module")
def tcp():
    rules = load_config("three_card_poker")
    return rules, _report(rules)


def test_pair_plus_hits_are_the_exact_reports_event_counts(tcp):
    from gpusim.games.described.design import side_hits

    rules, rep = tcp
    hits, total = side_hits(rules, "pair_plus")
    events = {e["event"]: e["count"] for e in rep["bets"]["pair_plus"]["events"]}
    assert total == rep["deals_counted"]
    assert hits == {ln: events[ln] for ln in current_paytable(rules, "pair_plus")}
    assert total - sum(hits.values()) == events["other"]


def test_pair_plus_search_is_the_brute_force_set(tcp):
    rules, rep = tcp
    events = {e["event"]: e["count"] for e in rep["bets"]["pair_plus"]["events"]}
    n = rep["deals_counted"]
    p = _cli("design", "three_card_poker", "--bet", "pair_plus", "--rtp", "0.95:0.99",
             "--line", "straight=5:7", "--line", "flush=3:5", "--line", "pair=1:2", "--top",
             "100", "--json")
    assert p.returncode == 0, p.stderr
    res = json.loads(p.stdout)
    cur = current_paytable(rules, "pair_plus")
    want = set()
    for s, f, pr in itertools.product(range(5, 8), range(3, 6), range(1, 3)):
        pays = {**cur, "straight": s, "flush": f, "pair": pr}
        rtp = 1 + Fraction(sum(events[ln] * v for ln, v in pays.items()) - events["other"], n)
        if Fraction("0.95") <= rtp <= Fraction("0.99"):
            want.add((s, f, pr))
    got = {(c["straight"], c["flush"], c["pair"]) for c in res["candidates"]}
    assert res["count"] == len(want) and got == want
    now = next(c for c in res["candidates"] if c["changes"] == 0)
    assert now["rtp"] == rep["bets"]["pair_plus"]["rtp"]
    assert Fraction(now["rtp_exact"]) == 1 + Fraction(sum(
        e["count"] * e["pays"] for e in rep["bets"]["pair_plus"]["events"]), n)


def test_ante_bonus_search_is_what_fresh_solves_find(tcp):
    rules, _ = tcp
    free = {"straight_flush": range(3, 8), "three_of_a_kind": range(2, 6), "straight": (0, 1, 2)}
    lo, hi = Fraction("0.963"), Fraction("0.968")
    res = search("three_card_poker", "ante", rtp="0.963:0.968", top=1000,
                 lines=[f"{k}={r[0]}:{r[-1]}" for k, r in free.items()])
    want = {}
    for combo in itertools.product(*free.values()):
        if list(combo) != sorted(combo, reverse=True):
            continue
        pays = {**current_paytable(rules, "ante"), **dict(zip(free, combo, strict=True))}
        _, cand = with_paytable(rules, "ante", pays)
        main = _report(cand)["main"]
        if lo <= Fraction(main["ante_rtp"]) <= hi:  # a float: at the band's edge, check it
            want[combo] = main
    got = {tuple(r[k] for k in free): r for r in res.table.iter_rows(named=True)}
    assert res.count == len(got) == len(want) > 3 and set(got) == set(want)
    for combo, main in want.items():
        row = got[combo]
        assert (row["rtp"], row["house_edge"], row["sd"], row["element_of_risk"],
                row["hit_frequency"]) == (main["ante_rtp"], main["house_edge_per_ante"],
                                          main["sd_per_round"], main["element_of_risk"],
                                          main["hit_frequency"])
        assert float(Fraction(row["rtp_exact"])) == row["rtp"]


@pytest.mark.parametrize("case", [
    ("three_card_poker", "ante", "0.955:0.975", ["straight_flush=3:7", "three_of_a_kind=2:5"]),
    ("let_it_ride", "third", "0.95:0.975", ["full_house=9:12", "flush=6:9"]),
], ids=["tcp-ante-bonus", "let-it-ride"])
def test_written_candidate_is_what_a_fresh_exact_gives(case, tmp_path):
    config, bet, band, lines = case
    cfg = tmp_path / f"{config}_design.toml"
    p = _cli("design", config, "--bet", bet, "--rtp", band, *(f"--line={ln}" for ln in lines),
             "--near", "--top", "3", "--pick", "2", "--json", "--write-config", str(cfg))
    assert p.returncode == 0, p.stderr
    row = json.loads(p.stdout)["candidates"][1]
    rules = load_config(cfg)
    assert current_paytable(rules, bet) == {k: row[k] for k in current_paytable(rules, bet)}
    e = _cli("exact", str(cfg), "--json")
    assert e.returncode == 0, e.stderr
    rep = json.loads(e.stdout)
    main = rep["main"]
    assert (row["rtp"], row["house_edge"], row["sd"], row["element_of_risk"],
            row["hit_frequency"]) == (main["ante_rtp"], main["house_edge_per_ante"],
                                      main["sd_per_round"], main["element_of_risk"],
                                      main["hit_frequency"])
    stay = 1 - sum(d.get("fold", 0) for d in rep["decisions"].values())
    assert row["call_rate"] == pytest.approx(stay, abs=1e-15)


def test_let_it_ride_search_is_each_paytable_priced_alone():
    # several decision points: the bound on a box (its corners) must never drop a candidate
    from gpusim.designer.priced import priced_figures
    from gpusim.games.described.design import main_model

    rules = load_config("let_it_ride")
    free = {"four_of_a_kind": range(40, 61, 5), "full_house": range(9, 13),
            "flush": range(6, 10), "straight": range(4, 7)}
    res = search(rules, "third", rtp="0.962:0.968", top=1000,
                 lines=[f"{k}={r[0]}:{r[-1]}:{r.step}" for k, r in free.items()])
    model = main_model(rules, "third")
    cur = current_paytable(rules, "third")
    want = {}
    for combo in itertools.product(*free.values()):
        pays = {**cur, **dict(zip(free, combo, strict=True))}
        if list(pays.values()) != sorted(pays.values(), reverse=True):
            continue
        fig = priced_figures(model.price([tuple(pays.values())])[0], 1, 1.0)
        if Fraction("0.962") <= Fraction(fig["rtp_exact"]) <= Fraction("0.968"):
            want[combo] = fig["rtp_exact"]
    got = {tuple(r[k] for k in free): r["rtp_exact"] for r in res.table.iter_rows(named=True)}
    assert res.count == len(want) > 10 and got == want
    assert res.stats["pruned"] > 0


def test_every_bet_on_a_shared_paytable_designs_it_whole():
    # Let It Ride's one paytable pays its three bets: any of them names the same search
    third = search("let_it_ride", "third", rtp="0.95:0.975", lines=["full_house=9:12"], top=20)
    for bet in ("first", "second"):
        res = search("let_it_ride", bet, rtp="0.95:0.975", lines=["full_house=9:12"], top=20)
        assert res.table.equals(third.table) and res.count == third.count > 0
        assert res.note == "paytable main pays third, first, second"


def test_a_side_bet_a_fold_forfeits_is_priced_as_it_plays(tmp_path):
    # Three Card Poker with a Pair Plus that a fold loses: the optimal strategy counts it, so
    # each candidate is re-solved; its figures are a fresh exact report's bets.pair_plus
    text = (ROOT / "configs" / "three_card_poker.toml").read_text()
    text = text.replace('fold = "settle"', 'fold = "lose"').replace(
        '"three_card_poker"', '"tcp_forfeit"')
    cfg = tmp_path / "tcp_forfeit.toml"
    cfg.write_text(text)
    res = search(cfg, "pair_plus", rtp="0.9:1", lines=["pair=1:2", "flush=3:5"], top=10)
    assert res.strategy == "optimal" and "a fold forfeits it" in res.strategy_text
    assert res.current_figures["rtp"] == _report(load_config(cfg))["bets"]["pair_plus"]["rtp"]
    assert 1 <= res.count < res.space_size
    row = next(r for r in res.table.iter_rows(named=True) if r["changes"])
    _, cand = with_paytable(load_config(cfg), "pair_plus",
                            {**current_paytable(load_config(cfg), "pair_plus"),
                             **{k: row[k] for k in res.lines}})
    rep = _report(cand)
    assert row["rtp"] == rep["bets"]["pair_plus"]["rtp"]
    assert float(Fraction(row["rtp_exact"])) == row["rtp"]
    # the strategy moved: the forfeited deals are those it folds
    played = 1 - rep["decisions"]["play"]["fold"]
    assert row["call_rate"] == pytest.approx(played, abs=1e-15)


def test_a_capped_search_says_so(monkeypatch):
    import gpusim.games.described.design as design

    monkeypatch.setattr(design, "WORK", 0)  # the least cap: a batch past 100 paytables
    res = search("three_card_poker", "ante", rtp="0:2", top=3, monotone=False,
                 lines=["straight_flush=1:20", "three_of_a_kind=1:20"])
    assert 100 <= res.stats["priced"] < res.space_size and res.count < res.space_size
    assert res.note is not None and res.note.startswith("capped:")
