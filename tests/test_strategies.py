"""Strategies: the registry, the information contract, the rule lists on hand-built hands,
and the exact win counting behind ``win-over-half``. Texas Hold'em Bonus's strategies are its
description's (configs/holdem_bonus.toml), checked against the hand-written references of
tests/thb_reference.py on the same hands and round by round."""

import itertools

import eval7
import jax.numpy as jnp
import numpy as np
import pytest
from ch_reference import ch_basic, ch_side_bet_optimal
from thb_reference import TREE as THB_TREE
from thb_reference import thb_always_play, thb_basic, thb_preflop_play, thb_win_over_half

import gpusim.games.strategy_registry as registry
import gpusim.strategy
from gpusim.cards import class_members, format_card, hand_class, parse_cards
from gpusim.config import load_config
from gpusim.games import spec_for
from gpusim.games.strategy_registry import (
    get_strategy,
    register_strategy,
    resolve_strategy,
    strategy_names,
)
from gpusim.strategy import PointRules, RuleStrategy, StrategyError
from gpusim.strategy.equity import showdown_counts

CH = load_config("casino_holdem")
THB = load_config("holdem_bonus")


def _thb(name):
    """The description's strategy ``name`` as a function of the cards (the references' shape)."""
    return get_strategy(name, THB).decide


def _round(text: str) -> np.ndarray:
    """ "player | flop turn river" -> one (1, 9) round; dealer cards are the lowest unused."""
    player, board = (parse_cards(p) for p in text.split("|"))
    board = board + [c for c in range(52) if c not in player + board][: 5 - len(board)]
    used = player + board
    dealer = [c for c in range(52) if c not in used][:2]
    return np.asarray([player + dealer + board], dtype=np.int32)


# --- registry ------------------------------------------------------------------------------------


def test_registry_lists_rule_strategies():
    assert {"always-play", "basic", "side-bet-optimal"} <= set(strategy_names("casino_holdem"))
    assert {"always-play", "basic", "win-over-half"} <= set(strategy_names("holdem_bonus"))
    s = get_strategy("basic", CH)
    assert (s.name, s.game) == ("basic", "casino_holdem")
    assert isinstance(s, gpusim.strategy.Strategy)


def test_unknown_strategy_is_one_line_error():
    with pytest.raises(StrategyError) as e:
        get_strategy("bogus", CH)
    msg = str(e.value)
    assert "\n" not in msg and "'bogus'" in msg and "basic" in msg


def test_register_strategy_and_fallback(monkeypatch):
    strategy_names("casino_holdem")  # load the registry before copying it
    entries = dict(registry._REGISTRY["casino_holdem"])
    monkeypatch.setitem(registry._REGISTRY, "casino_holdem", entries)

    def never(cards):
        return {"call": np.zeros(len(cards), bool)}

    register_strategy(
        "casino_holdem", "never", lambda rules: RuleStrategy("never", "casino_holdem", never)
    )
    s = get_strategy("never", CH)
    assert not np.asarray(s.decide(_round("As Ad | Ah Kc 2d"))["call"]).any()
    # The config's default ("optimal") unavailable: fall back to basic, and say so.
    registry._REGISTRY["casino_holdem"].pop("optimal", None)
    s, note = resolve_strategy(None, CH)
    assert s.name == "basic" and "optimal" in note and "basic" in note
    with pytest.raises(StrategyError, match="optimal"):
        resolve_strategy("optimal", CH)


# --- information contract ------------------------------------------------------------------------

# Cards each decision may see (columns of the (N, 9) layout).
SEEN = {
    "call": (0, 1, 4, 5, 6),
    "flop": (0, 1),
    "turn": (0, 1, 4, 5, 6),
    "river": (0, 1, 4, 5, 6, 7),
}


def _reshuffle_unseen(cards, seen, rng):
    """Same seen cards, fresh unseen ones (still 9 distinct cards per round)."""
    out = cards.copy()
    unseen = [j for j in range(9) if j not in seen]
    for i in range(len(out)):
        pool = np.setdiff1d(np.arange(52), out[i, list(seen)])
        out[i, unseen] = rng.choice(pool, size=len(unseen), replace=False)
    return out


def _deal(rng, n):
    return np.argsort(rng.random((n, 52)), axis=1)[:, :9].astype(np.int32)


CONTRACT = [
    (CH, "always-play", 400),
    (CH, "basic", 400),
    (CH, "side-bet-optimal", 400),
    (THB, "always-play", 400),
    (THB, "basic", 400),
]


def test_the_trees_points_see_what_the_rules_say():
    """The decision trees' ``sees`` are the cards each point may see (the dealer's never)."""
    for rules in (CH, THB):
        spec = spec_for(rules)
        assert {p.name: p.sees for p in spec.decisions} == {p: SEEN[p] for p in
                                                            spec.decision_points}
    # the description's tree is the hand-written game's: points, actions, stakes, sees
    assert spec_for(THB).decisions == THB_TREE


@pytest.mark.parametrize("rules", [CH, THB], ids=["casino_holdem", "holdem_bonus"])
def test_rule_functions_are_handed_only_their_points_columns(rules):
    """By construction: a PointRules function receives exactly ``cards[:, point.sees]``, so it
    cannot read a card its point does not see."""
    handed = {}

    def spy(point):
        def fn(visible):
            handed[point] = np.asarray(visible)
            return np.zeros(len(visible), bool)

        return fn

    points = spec_for(rules).decision_points
    cards = _deal(np.random.default_rng(5), 7)
    out = PointRules(spec_for(rules).decisions, {p: spy(p) for p in points})(cards)
    for p in points:
        assert (handed[p] == cards[:, list(SEEN[p])]).all(), p
        assert out[p].dtype == np.int8 and (out[p] == 0).all()


@pytest.mark.parametrize("rules, name, n", CONTRACT, ids=[f"{r.game}-{n}" for r, n, _ in CONTRACT])
def test_decisions_ignore_unseen_cards(rules, name, n):
    rng = np.random.default_rng(11)
    strategy = get_strategy(name, rules)
    cards = _deal(rng, n)
    base = {k: np.asarray(v) for k, v in strategy.decide(cards).items()}
    assert set(base) == set(spec_for(rules).decision_points)
    points = {p.name: p for p in spec_for(rules).decisions}
    for key, decision in base.items():
        assert ((decision >= 0) & (decision < len(points[key].actions))).all(), key
        other = _reshuffle_unseen(cards, SEEN[key], rng)
        again = np.asarray(strategy.decide(other)[key])
        assert (again == decision).all(), key


@pytest.mark.parametrize("decide", [thb_win_over_half, _thb("win-over-half")],
                         ids=["reference", "described"])
def test_win_over_half_ignores_unseen_cards(decide):
    rng = np.random.default_rng(12)
    cards = _deal(rng, 6)
    base = {k: np.asarray(v) for k, v in decide(cards).items()}
    for key in ("turn", "river"):
        other = _reshuffle_unseen(cards, SEEN[key], rng)
        assert (np.asarray(decide(other)[key]) == base[key]).all(), key


# --- rule lists on hand-built hands ------------------------------------------------------------


@pytest.mark.parametrize(
    "text, call",
    [
        ("Th 2c | 8d 5s 3h", True),  # a ten in the hole
        ("9h 2c | Kd 5s 3h", False),  # 9-high, nothing with the hole cards
        ("9h 2c | 9d 5s 3h", True),  # a hole card paired
        ("7h 2h | Kh 9h 4c", True),  # four hearts with two hole cards
        ("7c 6d | 5h 4s Kc", True),  # 4-5-6-7
        ("5c 2d | Ah 3s 4h", True),  # the wheel, made
        ("8c 2d | Kh Ks 5h", False),  # only the board pairs
        ("7c 2d | Ah As 9c", False),  # the board's aces: no call for basic...
    ],
)
def test_ch_basic(text, call):
    assert bool(np.asarray(ch_basic(_round(text))["call"])[0]) is call


def test_ch_side_bet_optimal_calls_every_aa_bonus_win():
    # ...but the pair of aces wins the AA Bonus, so side-bet-optimal calls.
    assert bool(np.asarray(ch_side_bet_optimal(_round("7c 2d | Ah As 9c"))["call"])[0])
    # Without an AA Bonus win it plays basic.
    assert not bool(np.asarray(ch_side_bet_optimal(_round("9h 2c | Kd 5s 3h"))["call"])[0])


@pytest.mark.parametrize("name", ["reference", "basic", "win-over-half"])
def test_thb_preflop_fold_list_is_23o_to_27o(name):
    # every hole-card pair once, the other seven cards the lowest unused
    holes = np.asarray(list(itertools.combinations(range(52), 2)), dtype=np.int32)
    cards = np.asarray([[*h, *[c for c in range(52) if c not in h][:7]] for h in holes.tolist()],
                       dtype=np.int32)
    if name == "reference":
        play = np.asarray(thb_preflop_play(cards))
    else:  # the description's strategy: the Flop point's action 1 is the bet, 0 the fold
        play = np.asarray(_thb(name)(cards)["flop"]) == 1
    folded = {hand_class(a, b) for (a, b), p in zip(holes, play, strict=True) if not p}
    assert folded == {"32o", "42o", "52o", "62o", "72o"}
    assert (~play).sum() == 5 * len(class_members("72o"))


@pytest.mark.parametrize(
    "text, turn, river",
    [
        ("Kc 5d | Kh 9s 2c 3d", True, True),  # pair of kings with a hole card
        ("Ac 5d | Kh 9s 2c 3d", False, False),  # ace high, no draw
        ("Ah 5h | Kh 9h 2c 3d", True, False),  # four hearts: turn bet; no flush by the river
        ("6c 5d | 7h 8s Kc 2d", True, False),  # 5-6-7-8: turn bet; no straight by the river
        ("6c 5d | 7h 8s Kc 4d", True, True),  # ... the 4 makes the straight
        ("5c 5d | Kh 9s 2c 3d", True, False),  # pair of fives: turn bet, river below sixes
        ("6c 6d | Kh 9s 2c 3d", True, True),  # pair of sixes
        ("Kc 2d | Kh 9s 2c 3d", True, True),  # two pair with the hole cards
        ("Ah 5h | Kh 9h 3h 7h", True, True),  # flush by the turn
    ],
)
@pytest.mark.parametrize("decide", [thb_basic, _thb("basic")], ids=["reference", "described"])
def test_thb_basic(decide, text, turn, river):
    d = {k: int(np.asarray(v)[0]) for k, v in decide(_round(text)).items()}
    assert d == {"flop": 1, "turn": int(turn), "river": int(river)}  # 1 bet, 0 fold / check


@pytest.mark.parametrize("decide", [thb_win_over_half, _thb("win-over-half")],
                         ids=["reference", "described"])
def test_thb_win_over_half_extremes(decide):
    # Royal flush made on the flop: no dealer hand beats or ties it (P(win) = 1): bet both.
    d = decide(_round("Ah Kh | Qh Jh Th 2c 3d"))
    assert bool(np.asarray(d["turn"])[0]) and bool(np.asarray(d["river"])[0])
    # 7-2 offsuit against three aces on the board and a K-Q turn: every dealer card beats or
    # ties it far more than half the time.
    d = decide(_round("7c 2d | Ah Ad As Kc 3h"))
    assert not bool(np.asarray(d["turn"])[0]) and not bool(np.asarray(d["river"])[0])
    # 2-3 offsuit folds preflop: the later points are not reached, so no bets at all.
    from gpusim.strategy.tree import placed_multiples

    d = decide(_round("3c 2d | Ah Ad As Kc 3h"))
    assert int(np.asarray(d["flop"])[0]) == 0
    placed = placed_multiples(spec_for(THB).decisions, {k: np.asarray(v) for k, v in d.items()})
    assert not any(int(v[0]) for v in placed.values())


# --- exact win counting --------------------------------------------------------------------------


def _eval7_counts(hole, board):
    """Brute force with eval7 over every completion and dealer hand."""
    seen = list(hole) + list(board)
    rest = [c for c in range(52) if c not in seen]
    cards = {c: eval7.Card(format_card(c)) for c in range(52)}
    win = tie = total = 0
    for extra in itertools.combinations(rest, 5 - len(board)):
        full = [cards[c] for c in list(board) + list(extra)]
        p = eval7.evaluate([cards[hole[0]], cards[hole[1]], *full])
        left = [c for c in rest if c not in extra]
        for d in itertools.combinations(left, 2):
            v = eval7.evaluate([cards[d[0]], cards[d[1]], *full])
            win += p > v
            tie += p == v
            total += 1
    return win, tie, total - win - tie, total


@pytest.mark.parametrize(
    "hole, board",
    [
        ("Ah Kd", "Qs 7h 2c 9d 3s"),
        ("7c 7d", "7h 2s 9c Jd"),
        ("5h 4h", "6h 7c Kh 2d"),
    ],
)
def test_showdown_counts_match_eval7(hole, board):
    h, b = parse_cards(hole), parse_cards(board)
    assert showdown_counts(h, b) == _eval7_counts(h, b)


def test_showdown_counts_sizes_and_turn_sum():
    h, f = parse_cards("Ah Kd"), parse_cards("Qs 7h 2c")
    flop = showdown_counts(h, f)
    assert flop[3] == 1_070_190  # C(47, 2) x C(45, 2)
    assert showdown_counts(h, f + parse_cards("9d"))[3] == 45_540  # 46 x C(45, 2)
    assert showdown_counts(h, f + parse_cards("9d 3s"))[3] == 990  # C(45, 2)
    # Summing the turn counts over all 47 turn cards counts every flop outcome twice
    # (turn a then river b, and turn b then river a).
    rest = [c for c in range(52) if c not in h + f]
    summed = np.sum([showdown_counts(h, f + [t]) for t in rest], axis=0)
    assert tuple(int(x) for x in summed) == tuple(2 * x for x in flop)


def test_showdown_counts_rejects_bad_cards():
    with pytest.raises(ValueError, match="distinct"):
        showdown_counts([0, 0], [1, 2, 3])
    with pytest.raises(ValueError, match="board"):
        showdown_counts([0, 1], [2, 3])


def test_win_over_half_tables_equal_per_round_counting():
    """The simulation-scale `win-over-half` (exact tables) decides exactly as the per-round
    exact counting of the Swedish rules' rule text, round by round."""
    from gpusim.dealing import deal

    rules = load_config("holdem_bonus_classic")
    cards = np.asarray(deal(77, 0, 120, 9))
    from gpusim.strategy.tree import taken

    tree = spec_for(rules).decisions
    as_np = lambda d: {k: np.asarray(v).astype(np.int32) for k, v in d.items()}  # noqa: E731
    table = taken(tree, as_np(get_strategy("win-over-half", rules).decide(cards)))
    direct = taken(tree, as_np(thb_win_over_half(cards)))
    for key in ("flop", "turn", "river"):  # where the round reached the point
        assert (table[key] == direct[key]).all(), key


def test_thb_always_play_equals_the_reference():
    cards = _deal(np.random.default_rng(3), 2_000)
    got, want = _thb("always-play")(cards), thb_always_play(cards)
    for key in ("flop", "turn", "river"):
        assert (np.asarray(got[key]) == np.asarray(want[key])).all(), key
        assert (np.asarray(got[key]) == 1).all(), key  # the bet, at every point


def _thb_basic_by_features(cards):
    """The Texas Hold'em Bonus basic rule list written on the generic _features, as it was
    first implemented: the reference for the bit-mask version."""
    from gpusim.strategy.features import features as _features

    c = jnp.asarray(cards, jnp.int32)
    flop = np.asarray(thb_preflop_play(c))
    f4 = _features(c[:, jnp.array([0, 1, 4, 5, 6])])
    f5 = _features(c[:, jnp.array([0, 1, 4, 5, 6, 7])])
    turn = f4["hole_pair"] | f4["flush4"] | f4["run4"]
    river = (
        (f5["hole_pair_rank"] >= 4) | f5["two_pair_with_hole"] | f5["hole_trips"] | f5["sf4"]
        | f5["straight"] | f5["flush5"]
    )  # fmt: skip
    return flop, np.asarray(turn), np.asarray(river)


def test_thb_basic_equals_the_feature_rule_list():
    """The reference's bit-mask rule list, its first feature version and the description's
    ``basic`` decide alike at every point, round by round (reached or not)."""
    rng = np.random.default_rng(2024)
    cards = _deal(rng, 200_000)
    # plus rounds rich in the rare features: hole cards and board from two suits, low ranks
    low = np.argsort(rng.random((50_000, 24)), axis=1)[:, :9].astype(np.int32)
    low = (low // 2) * 4 + (low % 2)  # ranks 2..K, clubs and diamonds only
    described = _thb("basic")
    for batch in (cards, low):
        got = thb_basic(batch)
        want = _thb_basic_by_features(batch)
        desc = described(batch)
        for key, w in zip(("flop", "turn", "river"), want, strict=True):
            g = np.asarray(got[key])
            bad = np.flatnonzero(g != w)
            assert bad.size == 0, f"{key}: {bad.size} rounds differ, first {batch[bad[0]]}"
            bad = np.flatnonzero(np.asarray(desc[key]) != g)
            assert bad.size == 0, f"described {key}: {bad.size} differ, first {batch[bad[0]]}"
        assert 0 < np.asarray(got["river"]).mean() < 1
