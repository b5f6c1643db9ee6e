"""Time the paytable designer from cached counts, each figure beside brute force in the same run.

Usage: python benchmarks/design.py [--part side|main|both] [--repeat N] [--json]

- side: Texas Hold'em Bonus's Bonus, seven free lines (a box of 107,575,776 paytables), RTP
  band 0.93:0.935, every paytable that meets it counted and the best 10 ranked. Brute force
  prices every paytable of the box (numpy, in batches of whole rows: the sum of the pays times
  the counts), with no bound; it also checks the count. Target: the search <= 10 s.
- main: Casino Hold'em's Ante, five free lines (2,304 paytables), RTP band 0.975:0.98, each
  candidate under the optimal strategy re-optimised from the cached counts. Brute force prices
  candidates one by one with the exact solver's public functions (``optimal_decisions`` then
  ``analyse``), on the first 8 paytables of the box. Target: >= 100 candidates/s.

The main part needs the Casino Hold'em counts cached (``gpusim exact casino_holdem
--recompute`` once; several minutes on two cores). Figures are medians of ``--repeat`` runs;
the machine's load average is printed with them.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import time

import numpy as np

SIDE_LINES = ["AA_vs_dealer_AA=500:1000:50", "AA=20:40", "AKs=15:35", "AQs_AJs=10:30",
              "AKo=5:20", "KK_QQ_JJ=5:15", "AQo_AJo=3:8"]
SIDE_BAND = "0.93:0.935"
MAIN_LINES = ["royal_flush=50:200:50", "straight_flush=15:30:5", "four_of_a_kind=6:13",
              "full_house=2:7", "flush=1:4"]
MAIN_BAND = "0.975:0.98"


def _load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def bench_side(repeat: int) -> dict:
    from gpusim.config import load_config
    from gpusim.designer import search
    from gpusim.designer.models import side_bet_model
    from gpusim.designer.ranking import int_band
    from gpusim.designer.space import parse_band, parse_space

    rules = load_config("holdem_bonus")
    search(rules, "bonus", rtp=SIDE_BAND, lines=SIDE_LINES[:1], top=1)  # imports, warm caches
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        res = search(rules, "bonus", rtp=SIDE_BAND, lines=SIDE_LINES, top=10)
        times.append(time.perf_counter() - t0)
    # brute force: every paytable of the box, monotone rule and band checked in numpy
    model = side_bet_model(rules, "bonus")
    space = parse_space("bonus", res.current, lines=SIDE_LINES)
    band = parse_band(SIDE_BAND, "--rtp")
    s_lo, s_hi = int_band(band.lo, band.hi, model.total)
    vals = [ln.values for ln in space.lines]
    t0 = time.perf_counter()
    found = 0
    # the last five lines vary inside a batch (22,176 paytables), the others outside
    inner = np.array(list(itertools.product(*vals[-5:])), dtype=np.int64)
    for head in itertools.product(*vals[:-5]):
        pays = np.empty((len(inner), len(vals)), dtype=np.int64)
        pays[:, :-5] = head
        pays[:, -5:] = inner
        s = pays @ model.hits - model.lose
        mono = (np.diff(pays, axis=1) <= 0).all(axis=1)
        found += int(((s >= s_lo) & (s <= s_hi) & mono).sum())
    brute = time.perf_counter() - t0
    assert found == res.count, (found, res.count)
    med = statistics.median(times)
    return {"part": "side", "space": res.space_size, "meeting": res.count,
            "search_s": round(med, 3), "search_rate": res.space_size / med,
            "brute_force_s": round(brute, 2), "brute_force_rate": res.space_size / brute,
            "speedup": brute / med, "runs": [round(t, 3) for t in times]}


def bench_main(repeat: int) -> dict:
    from gpusim.config import load_config
    from gpusim.designer import search
    from gpusim.designer.models import with_paytable
    from gpusim.games import spec_for
    from gpusim.games.holdem import call_once
    from gpusim.games.holdem.call_once_shape import prices_of

    def optimal_decisions(counts, rules, *, with_side_bet):
        return call_once.optimal_decisions(counts, prices_of(rules), with_side_bet=with_side_bet)

    def analyse(counts, rules, decisions, strategy):
        return call_once.analyse(counts, prices_of(rules), decisions, strategy, game=rules.game,
                                 config=rules.name)

    rules = load_config("casino_holdem")
    t0 = time.perf_counter()
    counts = spec_for(rules).solver().counts(rules, progress=False)
    load_s = time.perf_counter() - t0
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        res = search(rules, "ante", rtp=MAIN_BAND, lines=MAIN_LINES, top=10, counts=counts)
        times.append(time.perf_counter() - t0)
    med = statistics.median(times)
    # brute force: the exact solver's own pricing, one candidate at a time
    cur = dict(res.current)
    grid = [cur | {"royal_flush": r, "four_of_a_kind": q} for r in (50, 100) for q in (6, 7, 8, 9)]
    t0 = time.perf_counter()
    for pays in grid:
        cand = with_paytable(rules, "ante", pays)[1]
        dec = optimal_decisions(counts, cand, with_side_bet=True)
        analyse(counts, cand, dec, "optimal")
    brute = (time.perf_counter() - t0) / len(grid)
    return {"part": "main", "space": res.space_size, "meeting": res.count,
            "counts_load_s": round(load_s, 2), "search_s": round(med, 3),
            "priced": res.stats["priced"], "candidates_per_s": res.stats["priced"] / med,
            "space_per_s": res.space_size / med,
            "brute_force_s_per_candidate": round(brute, 3),
            "brute_force_candidates_per_s": 1 / brute,
            "speedup": brute * res.stats["priced"] / med,
            "runs": [round(t, 3) for t in times]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", choices=["side", "main", "both"], default="both")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    out = []
    if a.part in ("side", "both"):
        out.append(bench_side(a.repeat))
    if a.part in ("main", "both"):
        out.append(bench_main(a.repeat))
    if a.json:
        print(json.dumps(out, indent=2))
        return
    print(_load())
    for r in out:
        if r["part"] == "side":
            print(f"side bet (holdem_bonus bonus, 7 free lines): {r['space']:,} paytables, "
                  f"{r['meeting']:,} meet {SIDE_BAND}")
            print(f"  search      {r['search_s']:8.3f} s  ({r['search_rate']:,.0f} paytables/s; "
                  f"runs {r['runs']})")
            print(f"  brute force {r['brute_force_s']:8.2f} s  ({r['brute_force_rate']:,.0f} "
                  f"paytables/s); search is {r['speedup']:.1f}x faster")
        else:
            print(f"main game (casino_holdem ante, 5 free lines): {r['space']:,} paytables, "
                  f"{r['meeting']:,} meet {MAIN_BAND} (counts loaded in {r['counts_load_s']} s)")
            print(f"  search      {r['search_s']:8.3f} s  ({r['priced']:,} candidates priced, "
                  f"{r['candidates_per_s']:,.0f} candidates/s; the rest of the box bounded "
                  f"out: {r['space_per_s']:,.0f} paytables/s; runs {r['runs']})")
            print(f"  brute force {r['brute_force_s_per_candidate']:8.3f} s per candidate "
                  f"({r['brute_force_candidates_per_s']:.2f} candidates/s); pricing is "
                  f"{r['speedup']:.0f}x faster per candidate")
    print(_load())


if __name__ == "__main__":
    main()
