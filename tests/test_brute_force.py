"""The brute-force oracle of described games (tests/_brute_force.py) against the exact solver,
and on the hold'em games the solver does not count.

1. On a reduced deck the oracle's joint counts equal the exact solver's
   (``solve(rules, strategy, deck=deck).joint``) exactly, for ``optimal`` and every rule
   strategy of Three Card Poker, Caribbean Stud, Mississippi Stud, Let It Ride and Double Down
   Stud; so do the summed nets. The decks make the games' hands reachable (pairs, straights,
   flushes, full houses, the royal), which a test asserts.
2. The comparisons can fail: one information set's decision changed, or ties broken to the
   last best action, and the joint counts differ from the solver's.
3. Hold'em (dealer hidden cards with a board, which the solver refuses today): the oracle runs
   the small descriptions of :func:`_brute_force.holdem_description` and the shipped configs,
   deals exactly the deals the deck convention says, and its ``optimal`` is the best play: no
   rule strategy and no single changed decision nets more. Texas Hold'em Bonus's
   AA-vs-dealer-AA line (which reads the dealer's hidden cards) is counted as dealt by hand.
"""

from __future__ import annotations

from functools import cache
from math import comb

import numpy as np
import pytest
from _brute_force import (
    BONUS_DECK,
    HOLDEM_CONFIGS,
    HOLDEM_DECK,
    HOLDEM_VARIANTS,
    brute_force,
    deal_count,
    deals,
    deck_of,
    holdem_description,
    optimal_decisions,
    reduced,
)

from gpusim.config import load_config
from gpusim.games.described.layout import layout, tree
from gpusim.games.described.solver import solve
from gpusim.strategy.tree import reached

# Reduced decks of 13 to 17 cards, several suits and ranks: each makes its game's pays and its
# rule strategies' thresholds reachable (REACHED lists the hands), and its optimal play takes
# ties (Mississippi Stud, Caribbean Stud, Double Down Stud), which a tie-break must settle.
SOLVED = {
    "three_card_poker": deck_of("2346JQKA", "346QKA", "QA"),
    "caribbean_stud": deck_of("9TJQKA", "9TJQKA", "A"),
    "mississippi_stud": deck_of("2345TJQKA", "5TJQKA", "5", "5"),
    "let_it_ride": deck_of("2349TJQKA", "49TJQKA", "4"),
    "double_down_stud": deck_of("2349TJQKA", "49TJQKA", "4", "4"),
}
ABOVE_PAIR = {"two_pair", "three_of_a_kind", "straight", "flush", "full_house",
              "straight_flush", "royal_flush"}
REACHED = {  # per hand a paytable reads: the classes (categories, rank lines) the deck deals
    "three_card_poker": {"player": {"high_card", "pair", "flush", "straight", "three_of_a_kind",
                                    "straight_flush"}},
    "caribbean_stud": {"player": ABOVE_PAIR | {"high_card", "pair"}},
    "mississippi_stud": {"final": ABOVE_PAIR | {"high_card", "pair_2_to_5", "pair_6_to_10",
                                                "pair_jacks_or_better", "four_of_a_kind"}},
    "let_it_ride": {"final": ABOVE_PAIR | {"high_card", "pair_below_tens",
                                           "pair_tens_or_better"}},
    "double_down_stud": {"final": ABOVE_PAIR | {"high_card", "pair_2_to_5", "pair_6_to_10",
                                                "pair_jacks_or_better", "four_of_a_kind"}},
}
CASES = [(name, s) for name in SOLVED
         for s in ("optimal", *(x[0] for x in load_config(name).game_def.strategies))]

HOLDEM_DEALS = {  # on 12 cards: C(12, 2) * the streets in order * C(rest, 2) hidden
    (3, 2): comb(12, 2) * comb(10, 3) * comb(7, 2) * comb(5, 2),
    (3, 1, 1): comb(12, 2) * comb(10, 3) * comb(7, 1) * comb(6, 1) * comb(5, 2),
}


@cache
def oracle(rules, strategy: str, deck: tuple[int, ...]):
    return brute_force(rules, strategy, deck)


@cache
def solved(name: str, strategy: str):
    return solve(load_config(name), strategy, deck=SOLVED[name])


def solver_net(s) -> int:
    """The solver's summed net of every deal (1/scale units): the root's chosen action's."""
    return int(s.root_ev[np.arange(len(s.root_ev)), s.root_action].sum())


def classes_reached(rules, joint: np.ndarray) -> dict[str, set[str]]:
    lay = layout(rules.game_def)
    _, _, cls = lay.decode(np.arange(lay.n_codes))
    return {h: {lay.class_names[h][k][0] for k in range(len(lay.class_names[h]))
                if joint[c == k].sum() > 0} for h, c in zip(lay.class_hands, cls, strict=True)}


def action_counts(rules, joint: np.ndarray) -> dict[str, dict[str, int]]:
    lay = layout(rules.game_def)
    return {p.name: {a.name: int(joint[lay.action_of[p.name] == i].sum())
                     for i, a in enumerate(p.actions)} for p in tree(rules.game_def)}


def outcomes(rules, joint: np.ndarray) -> np.ndarray:
    """The deals per outcome (showdown x classes), whatever the path: the same under every
    strategy."""
    return joint.reshape(len(layout(rules.game_def).paths), -1).sum(axis=0)


# --- 1. the oracle is the solver where the solver counts ------------------------------------------


@pytest.mark.parametrize(("name", "strategy"), CASES)
def test_matches_the_solver(name, strategy):
    rules = load_config(name)
    got, want = oracle(rules, strategy, SOLVED[name]), solved(name, strategy)
    assert got.deals == want.deals == deal_count(rules.game_def, len(SOLVED[name]))
    assert got.joint.shape == want.joint.shape
    diff = np.flatnonzero(got.joint != want.joint)
    assert len(diff) == 0, f"{name}/{strategy}: {len(diff)} codes differ, first {diff[:5]}"
    assert (got.scale, got.net) == (want.scale, solver_net(want))


@pytest.mark.parametrize("name", list(SOLVED))
def test_the_decks_reach_the_hands(name):
    rules = load_config(name)
    got = classes_reached(rules, oracle(rules, "optimal", SOLVED[name]).joint)
    for hand, want in REACHED[name].items():
        assert want <= got[hand], f"{name}: {hand} never {sorted(want - got[hand])}"
    # the optimal play takes two actions or more at every point (Mississippi Stud's 2x is never
    # best, as on the full deck)
    best = oracle(rules, "optimal", SOLVED[name])
    for point, counts in action_counts(rules, best.joint).items():
        assert sum(n > 0 for n in counts.values()) >= 2, (name, point, counts)


def test_the_deck_is_a_set_of_cards():
    rules = load_config("three_card_poker")
    deck = SOLVED["three_card_poker"]
    shuffled = tuple(reversed(deck))
    assert (brute_force(rules, "optimal", shuffled).joint == solved("three_card_poker",
                                                                    "optimal").joint).all()
    other = tuple(sorted(set(deck) - {max(deck)} | {min(set(range(52)) - set(deck))}))
    assert not (brute_force(rules, "optimal", other).joint
                == solved("three_card_poker", "optimal").joint).all()


# --- 2. the comparisons can fail -----------------------------------------------------------------


def test_one_changed_decision_is_caught():
    """Three Card Poker: folding three aces (one information set) instead of playing them."""
    name = "three_card_poker"
    rules, deck = load_config(name), SOLVED[name]
    cards = deals(rules, deck)
    best = optimal_decisions(rules, deck, cards=cards)
    aces = ((cards[:, :3] >> 2) == 12).all(axis=1)
    assert aces.sum() > 0 and (best["play"][aces] == 1).all()
    changed = {"play": np.where(aces, 0, best["play"])}
    got = brute_force(rules, lambda c: changed, deck)
    assert got.deals == solved(name, "optimal").deals
    assert (got.joint != solved(name, "optimal").joint).any()
    assert got.net < solver_net(solved(name, "optimal"))


def _last_best(sums: np.ndarray) -> np.ndarray:
    return sums.shape[1] - 1 - np.argmax(sums[:, ::-1], axis=1)


@pytest.mark.parametrize("name", ["mississippi_stud", "caribbean_stud", "double_down_stud"])
def test_a_wrong_tie_break_is_caught(name):
    """Ties broken to the last best action: the same net (ties are ties), other joint counts."""
    rules = load_config(name)
    got = brute_force(rules, "optimal", SOLVED[name], tie_break=_last_best)
    want = solved(name, "optimal")
    assert (got.joint != want.joint).any()
    assert got.net == solver_net(want)


# --- 3. hold'em ----------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", HOLDEM_VARIANTS)
def test_holdem_descriptions(variant):
    rules = holdem_description(variant)
    d = rules.game_def
    deck = BONUS_DECK if variant == "bonus" else HOLDEM_DECK
    best = oracle(rules, "optimal", deck)
    assert best.deals == deal_count(d, 12) == HOLDEM_DEALS[d.streets]
    assert best.joint.shape == (layout(d).n_codes,)
    counts = action_counts(rules, best.joint)
    assert sum(counts[tree(d)[0].name].values()) == best.deals
    assert all(sum(c.values()) > 0 for c in counts.values())
    for name, _, _ in d.strategies:
        rule = oracle(rules, name, deck)
        assert rule.deals == best.deals
        assert (outcomes(rules, rule.joint) == outcomes(rules, best.joint)).all()
        assert rule.net <= best.net, name
    made = {"two_pair", "straight", "full_house", "royal_flush"}
    made |= {"four_of_a_kind"} if deck == BONUS_DECK else {"three_of_a_kind", "flush"}
    for hand, got in classes_reached(rules, best.joint).items():
        if d.hand(hand).ranking == "poker":
            assert made <= got, (hand, made - got)
    if d.showdown[2] is not None:
        # the dealer fails to qualify (a pair of 4s) on some deals: the deck has 2s and 3s
        _, sd, _ = layout(d).decode(np.arange(layout(d).n_codes))
        assert best.joint[sd < 3].sum() > 0


def test_holdem_optimal_is_locally_best():
    """Ultimate Texas Hold'em's tree: changing the optimal action of one information set, at each
    point, to each other action never nets more, and changes the joint counts."""
    rules = holdem_description("uth")
    d = rules.game_def
    cards = deals(rules, HOLDEM_DECK)
    best = optimal_decisions(rules, HOLDEM_DECK, cards=cards)
    base = oracle(rules, "optimal", HOLDEM_DECK)
    on = reached(tree(d), best)
    rng = np.random.default_rng(5)
    strict = 0
    for p in tree(d):
        i = rng.choice(np.flatnonzero(on[p.name]))
        same = on[p.name] & (cards[:, list(p.sees)] == cards[i, list(p.sees)]).all(axis=1)
        for a in range(len(p.actions)):
            if a == best[p.name][i]:
                continue
            changed = {**best, p.name: np.where(same, a, best[p.name])}
            got = brute_force(rules, lambda c, changed=changed: changed, HOLDEM_DECK)
            assert got.net <= base.net, (p.name, p.actions[a].name)
            assert (got.joint != base.joint).any()
            strict += got.net < base.net
    assert strict > 0


@pytest.mark.parametrize("name", HOLDEM_CONFIGS)
def test_shipped_holdem_configs(name):
    rules = reduced(name)
    d = rules.game_def
    deck = BONUS_DECK if name == "holdem_bonus" else HOLDEM_DECK
    best = oracle(rules, "optimal", deck)
    assert best.deals == HOLDEM_DEALS[d.streets]
    rule = oracle(rules, d.strategies[0][0], deck)
    assert rule.net <= best.net
    assert (outcomes(rules, rule.joint) == outcomes(rules, best.joint)).all()


def test_a_dealer_hands_line_reads_the_dealer_cards():
    """Texas Hold'em Bonus's AA-vs-dealer-AA line: player AA (6 ways of 4 aces) and the dealer's
    hidden cards the other two aces, the board the 8 other cards (3 + 1 + 1 in order): 6720."""
    rules = reduced("holdem_bonus")
    lay = layout(rules.game_def)
    ev = lay.event_of["bonus"]
    names = lay.events["bonus"]
    vs = [i for i, n in enumerate(names) if "vs" in n]
    assert len(vs) == 1, names
    best = oracle(rules, "optimal", BONUS_DECK)
    assert best.joint[ev == vs[0]].sum() == comb(4, 2) * comb(8, 3) * 5 * 4
    aa = names.index("AA")
    assert best.joint[ev == aa].sum() == comb(4, 2) * comb(10, 3) * 7 * 6 * comb(5, 2) - 6720


# --- slow: 13 cards, every strategy, larger decks ---------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("game", [*HOLDEM_VARIANTS, *HOLDEM_CONFIGS])
def test_holdem_on_13_cards(game):
    rules = holdem_description(game) if game in HOLDEM_VARIANTS else reduced(game)
    d = rules.game_def
    deck = deck_of("23TJQKA", "23A", "AKQ") if game not in ("bonus", "holdem_bonus") \
        else deck_of("TJQKA", "TJQKA", "A", "AK")
    assert len(deck) == 13
    best = brute_force(rules, "optimal", deck)
    assert best.deals == (comb(13, 2) * comb(11, 3) * (comb(8, 2) if d.streets == (3, 2)
                                                       else 8 * 7) * comb(6, 2))
    for name, _, _ in d.strategies:
        rule = brute_force(rules, name, deck)
        assert rule.net <= best.net, name
        assert (outcomes(rules, rule.joint) == outcomes(rules, best.joint)).all()
    try:
        want = solve(rules, "optimal", deck=deck)
    except ValueError:
        return
    assert (best.joint == want.joint).all()


@pytest.mark.slow
@pytest.mark.parametrize(("name", "deck"), [
    ("three_card_poker", deck_of("2346JQKA", "2346JQKA", "QKA", "A")),
    ("caribbean_stud", deck_of("9TJQKA", "9TJQKA", "A", "A")),
    ("mississippi_stud", deck_of("2345TJQKA", "2345TJQKA", "5", "5")),
    ("let_it_ride", deck_of("2349TJQKA", "2349TJQKA", "4", "4")),
])
def test_matches_the_solver_on_larger_decks(name, deck):
    rules = load_config(name)
    for strategy in ("optimal", *(x[0] for x in rules.game_def.strategies)):
        got, want = brute_force(rules, strategy, deck), solve(rules, strategy, deck=deck)
        assert (got.joint == want.joint).all(), (name, strategy)
        assert got.net == solver_net(want)
