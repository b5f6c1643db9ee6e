"""The decision tree (gpusim.strategy.tree) on a toy three-point tree shaped like Ultimate Texas
Hold'em's: pre-flop Play 4x / 3x / check, then after a check Play 2x / check, then Play 1x /
fold. Reach, legal actions, stakes per way through the tree and the decisions table."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from gpusim.strategy.tree import (
    Action,
    DecisionPoint,
    action_paths,
    check_tree,
    count_taken,
    decide_points,
    legal_mask,
    placed_multiples,
    reached,
    taken,
    visible,
)

TOY = (
    DecisionPoint("pre", (Action("check", next="flop"), Action("play3", {"play": 3}),
                          Action("play4", {"play": 4})), sees=(0, 1)),
    DecisionPoint("flop", (Action("check", next="river"), Action("play2", {"play": 2})),
                  sees=(0, 1, 4, 5, 6)),
    DecisionPoint("river", (Action("fold", folds=True), Action("play1", {"play": 1})),
                  sees=(0, 1, 4, 5, 6, 7, 8)),
)

# One round per way through the tree, plus answers at unreached points that must be ignored.
ANSWERS = {
    "pre": np.array([2, 1, 0, 0, 0, 2], np.int32),
    "flop": np.array([1, 0, 1, 0, 0, 1], np.int32),
    "river": np.array([1, 1, 0, 1, 0, 0], np.int32),
}


def test_toy_tree_is_valid_and_bad_trees_are_one_line_errors():
    check_tree(TOY)
    bad = [
        (TOY[1], TOY[0], TOY[2]),  # the root's check leads to an earlier point
        (TOY[0], TOY[2]),  # "flop" missing
        (DecisionPoint("pre", (Action("only"),), sees=(0, 1)),),  # one action
        (DecisionPoint("pre", (Action("a"), Action("b")), sees=(2, 9)),),  # column 9
        (TOY[0], DecisionPoint("flop", (Action("fold", next="river", folds=True),
                                        Action("b")), sees=(0,)), TOY[2]),
        (TOY[0], DecisionPoint("orphan", (Action("a"), Action("b")), sees=(0,)), *TOY[1:]),
    ]
    for tree in bad:
        with pytest.raises(ValueError) as e:
            check_tree(tree)
        assert "\n" not in str(e.value) and str(e.value).startswith("decisions:")


def test_reach_taken_and_legal_mask():
    r = reached(TOY, ANSWERS)
    assert r["pre"].tolist() == [True] * 6
    assert r["flop"].tolist() == [False, False, True, True, True, False]
    assert r["river"].tolist() == [False, False, False, True, True, False]
    t = taken(TOY, ANSWERS)
    assert t["pre"].tolist() == [2, 1, 0, 0, 0, 2]
    assert t["flop"].tolist() == [-1, -1, 1, 0, 0, -1]
    assert t["river"].tolist() == [-1, -1, -1, 1, 0, -1]
    m = legal_mask(TOY, ANSWERS)
    assert all(v.shape == (6, 3) for v in m.values())
    assert m["pre"].all()
    assert m["flop"][:, 2].sum() == 0 and m["flop"][:, :2].sum(axis=1).tolist() == \
        [0, 0, 2, 2, 2, 0]
    assert m["river"][:, :2].sum(axis=1).tolist() == [0, 0, 0, 2, 2, 0]


def test_stakes_per_way_through_the_tree():
    assert placed_multiples(TOY, ANSWERS)["play"].tolist() == [4, 3, 2, 1, 0, 4]
    paths = action_paths(TOY)
    assert [(p["pre"], p["flop"], p["river"], s.get("play", 0)) for p, s in paths] == [
        (0, 0, 0, 0), (0, 0, 1, 1), (0, 1, -1, 2), (1, -1, -1, 3), (2, -1, -1, 4)]
    # the array form agrees with the enumeration on every path
    answers = {k: np.array([max(p[k], 0) for p, _ in paths], np.int32) for k in ANSWERS}
    assert placed_multiples(TOY, answers)["play"].tolist() == [s.get("play", 0) for _, s in paths]
    assert {k: v.tolist() for k, v in taken(TOY, answers).items()} == \
        {k: [p[k] for p, _ in paths] for k in ANSWERS}


def test_tree_arithmetic_runs_under_jit():
    got = jax.jit(lambda a: (placed_multiples(TOY, a)["play"], taken(TOY, a)["river"]))(
        {k: jnp.asarray(v) for k, v in ANSWERS.items()})
    assert np.asarray(got[0]).tolist() == [4, 3, 2, 1, 0, 4]
    assert np.asarray(got[1]).tolist() == [-1, -1, -1, 1, 0, -1]


def test_decision_counts_with_several_actions():
    t = taken(TOY, ANSWERS)
    counts = count_taken(TOY, t)
    assert counts == {"pre": {"play4": 2, "play3": 1, "check": 3},
                      "flop": {"play2": 1, "check": 2},
                      "river": {"play1": 1, "fold": 1}}
    # last (most committal) action first, every action listed
    assert list(counts["pre"]) == ["play4", "play3", "check"]
    weighted = count_taken(TOY, t, weight=np.array([10, 0, 5, 7, 1, 2]))
    assert weighted == {"pre": {"play4": 12, "play3": 0, "check": 13},
                        "flop": {"play2": 5, "check": 8},
                        "river": {"play1": 7, "fold": 1}}
    with pytest.raises(ValueError, match="answered 3"):
        count_taken(TOY, {**t, "flop": np.array([-1, -1, 3, 0, 0, -1])})


def test_decide_points_hands_each_point_its_columns():
    cards = np.arange(18, dtype=np.int32).reshape(2, 9)
    seen = {}

    def fn(name):
        def f(v):
            seen[name] = v
            return (v[:, -1] % 3).astype(np.int32)

        return f

    out = decide_points(TOY, {p.name: fn(p.name) for p in TOY}, cards)
    for p in TOY:
        assert (seen[p.name] == cards[:, list(p.sees)]).all()
        assert out[p.name].dtype == np.int8


def test_columns_are_the_same_gathered_or_sliced():
    cards = np.arange(27, dtype=np.int32).reshape(3, 9)
    for sees in [(0, 1), (0, 1, 4, 5, 6), (0, 1, 4, 5, 6, 7), (2, 3, 8)]:
        want = cards[:, list(sees)]
        for gather in (False, True):
            assert (visible(cards, sees, gather=gather) == want).all()
            got = jax.jit(lambda c, s=sees, g=gather: visible(c, s, gather=g))(cards)
            assert (np.asarray(got) == want).all()


def test_a_point_whose_actions_all_lead_on_does_not_read_its_answer():
    # Hold'em Bonus's shape: the Turn's bet and check both lead to the River
    tree = (
        DecisionPoint("flop", (Action("fold", folds=True), Action("bet", {"flop": 2}, "turn")),
                      sees=(0, 1)),
        DecisionPoint("turn", (Action("check", next="river"),
                               Action("bet", {"turn": 1}, "river")), sees=(0, 1, 4, 5, 6)),
        DecisionPoint("river", (Action("check"), Action("bet", {"river": 1})),
                      sees=(0, 1, 4, 5, 6, 7)),
    )
    flop = np.array([1, 1, 0, 1], np.int32)
    # whatever the Turn's answer, even one that is not an action (count_taken refuses it)
    for turn in (np.array([0, 1, 1, 0], np.int32), np.array([1, 5, 0, -3], np.int32)):
        r = reached(tree, {"flop": flop, "turn": turn, "river": np.ones(4, np.int32)})
        assert r["river"].tolist() == [True, True, False, True]
    # the toy tree's check and plays lead to different places: there the answer decides
    assert reached(TOY, ANSWERS)["river"].tolist() == [False, False, False, True, True, False]
