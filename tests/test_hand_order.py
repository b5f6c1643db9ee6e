"""Strategy charts list starting hands strongest first, and fold a run of hands that decide
alike into one row (:mod:`gpusim.report.hand_order`): the order is checked against the
evaluators on every hand of a size (the labels the exact reports write, ranked here by label
alone, must never put a weaker hand above a stronger one), the folded rows against the shipped
Caribbean Stud report as the exact HTML page and the certification pack's chart show it."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import numpy as np
import pytest

from gpusim.games.described.exact_report import starting_label
from gpusim.report.hand_order import by_strength, run_label, runs, strength

SHIPPED = Path(__file__).resolve().parents[1] / "gpusim" / "data" / "exact"


def _rank_ranges(labels, ranks) -> dict[str, tuple[int, int]]:
    out: dict[str, tuple[int, int]] = {}
    for lab, r in zip(labels.tolist(), ranks.tolist(), strict=True):
        lo, hi = out.get(lab, (r, r))
        out[lab] = (min(lo, r), max(hi, r))
    return out


def _assert_ordered(ranges: dict[str, tuple[int, int]]) -> None:
    """Strongest first: every hand of a label outranks every hand of the labels below it."""
    order = by_strength(list(ranges), str)
    assert sorted(order) == sorted(ranges)
    for above, below in itertools.pairwise(order):
        assert ranges[above][0] > ranges[below][1], (above, below)


def test_five_card_labels_in_the_evaluator_order():
    from gpusim.evaluator import evaluate_np

    rng = np.random.default_rng(5)
    hands = np.argsort(rng.random((200_000, 52)), axis=1)[:, :5].astype(np.int32)
    ranks = evaluate_np(hands).astype(np.int64)
    labels = starting_label(hands)
    ranges = _rank_ranges(labels, ranks)
    assert len(ranges) > 60  # every category and most high-card pairs of ranks
    _assert_ordered(ranges)


def test_three_card_labels_in_the_three_card_order():
    """Every three-card hand: a label (``Q64``, ``Q64s``, ``QQ4``) groups hands of one
    Three Card Poker rank, and the labels come in that ranking's order."""
    from gpusim.evaluator import evaluate_three_np

    hands = np.array(list(itertools.combinations(range(52), 3)), np.int32)
    ranges = _rank_ranges(starting_label(hands), evaluate_three_np(hands).astype(np.int64))
    assert len(ranges) == 741
    assert all(lo == hi for lo, hi in ranges.values())
    _assert_ordered(ranges)


def test_two_card_and_four_card_labels():
    two = ["32", "AKs", "22", "AA", "AQs", "AKo", "KK", "T9s", "AK"]
    random.Random(1).shuffle(two)
    ordered = by_strength(two, str)
    assert ordered[:4] == ["AA", "KK", "22", "AKs"]
    assert ordered.index("AKo") < ordered.index("AQs") < ordered.index("T9s") < ordered.index("32")
    four = ["high card A-K", "four to a flush", "pair of 2s", "four to an inside straight",
            "three of a kind", "two pair", "four to a straight flush", "high card K-Q",
            "four of a kind", "four to an outside straight", "pair of As"]
    assert by_strength(four, str) == [
        "four of a kind", "three of a kind", "two pair", "pair of As", "pair of 2s",
        "four to a straight flush", "four to a flush", "four to an outside straight",
        "four to an inside straight", "high card A-K", "high card K-Q"]


def test_an_unknown_label_keeps_the_order_given():
    hands = ["high card 7-5", "a hand of another kind", "pair of As"]
    assert strength("a hand of another kind") is None
    assert by_strength(hands, str) == hands


def test_runs_and_their_names():
    labels = ["pair of As", "pair of Ks", "high card A-K", "high card A-Q", "high card A-J",
              "high card K-Q"]
    decided = ["raise", "raise", None, "fold", "fold", "fold"]
    cut = runs(decided)
    assert cut == [(0, 2), (2, 3), (3, 6)]
    assert [run_label(labels, a, b) for a, b in cut] == [
        "pair of Ks or better", "high card A-K", "high card below A-K"]
    assert run_label(labels, 0, 6) == "every hand"
    assert run_label(labels, 3, 5) == "high card A-Q to A-J"
    assert run_label(labels, 1, 3) == "pair of Ks to high card A-K"
    assert run_label(["AA", "KK", "QQ"], 1, 3) == "KK or worse"
    assert runs([None, None]) == [(0, 1), (1, 2)]  # undecided rows are never folded


def test_caribbean_stud_chart_rows():
    """The pack's chart of Caribbean Stud: pairs and better raise, A-K is mixed by up card,
    everything below it folds; the table behind it keeps every hand, strongest first."""
    from gpusim.cards import RANKS
    from gpusim.report.strategy_chart import strategy_table, up_rows

    rep = json.loads((SHIPPED / "caribbean_stud.optimal.json").read_text())
    table = strategy_table(rep)
    assert len(table) == len(rep["first_decision"]["hands"])
    hands = list(dict.fromkeys(r["hand"] for r in table))
    assert hands == by_strength(hands, str)
    assert hands.index("high card A-Q") < hands.index("high card A-T") < hands.index(
        "high card K-Q") < hands.index("high card 7-5")
    for hand in hands:  # each hand's up cards low to high
        ups = [r["up"] for r in table if r["hand"] == hand]
        assert ups == sorted(ups, key=RANKS.index)
    labels, ups, grid = up_rows(table)
    assert ups == list(RANKS)
    assert labels == ["pair of 2s or better", "high card A-K", "high card below A-K"]
    assert grid[0] == [1.0] * 13 and grid[2] == [0.0] * 13
    assert all(0 < s < 1 for s in grid[1])


@pytest.mark.parametrize("name", ["three_card_poker", "let_it_ride", "mississippi_stud"])
def test_every_shipped_strategy_table_is_strongest_first(name):
    from gpusim.report.strategy_chart import strategy_table

    rep = json.loads((SHIPPED / f"{name}.optimal.json").read_text())
    hands = [r["hand"] for r in strategy_table(rep)]
    assert len(hands) == len(rep["first_decision"]["hands"])
    keys = [strength(h) for h in hands]
    assert all(k is not None for k in keys)
    assert all(a >= b for a, b in itertools.pairwise(keys)), name  # type: ignore[operator]
