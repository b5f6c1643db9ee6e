"""The compiled per-board pass (``kernels/exact_cpu_boards.cpp`` through
:mod:`gpusim.exact._native`) against the numpy passes it replaces: every field of
:func:`gpusim.exact.boards.sorted_counts`, on boards of 3, 4 and 5 cards, with and without a
dealer qualifier. The full solves in ``tests/test_exact_truth.py`` run whichever form this
machine builds and must reproduce the shipped tables bit for bit either way.

Where no C++ compiler is installed the comparison is skipped (the solver then runs the numpy
form); the fallback itself is tested here with a compiler that fails.
"""

from __future__ import annotations

import numpy as np
import pytest

from gpusim.board_index import board_classes
from gpusim.cards import parse_cards
from gpusim.exact import _native
from gpusim.exact.boards import PAIR_I, PAIR_J, board_counts, sorted_counts
from gpusim.exact.fives import HOLE_CLASS, binned_sums, hole_permutation_table

FIELDS = ("order", "cards", "hole", "rank", "below", "equal", "not_qualified")
PAIR = 1 << 27  # the lowest rank of a pair (any category boundary exercises the count)


@pytest.fixture()
def compiled():
    if _native.loaded_library() is None:
        if _native._compiler() is None:
            pytest.skip("no C++ compiler (c++, g++ or clang++) on this machine")
        pytest.fail(f"the compiled pass did not load: {_native.status()}")


@pytest.fixture()
def fresh_load(monkeypatch, tmp_path):
    """A fresh load of the library in an empty cache folder, restored afterwards."""
    monkeypatch.setenv("GPUSIM_CACHE_DIR", str(tmp_path))
    _native._load.cache_clear()
    yield
    _native._load.cache_clear()


def _boards(k: int, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.int32)


def _same(a, b) -> None:
    for f in FIELDS:
        x, y = getattr(a, f), getattr(b, f)
        if x is None or y is None:
            assert x is None and y is None, f
            continue
        assert x.dtype == y.dtype and x.shape == y.shape, f
        np.testing.assert_array_equal(x, y, err_msg=f)


@pytest.mark.parametrize("k", [5, 4, 3])
@pytest.mark.parametrize("qualifier", [None, PAIR, (3 << 27)])
def test_compiled_equals_numpy_on_random_boards(compiled, k, qualifier):
    b = _boards(k, 96, seed=k * 7 + (qualifier or 0) % 5)
    _same(sorted_counts(b, qualifier, native=False), sorted_counts(b, qualifier, native=True))


def test_compiled_equals_numpy_on_board_classes(compiled):
    """Real board classes, the tie-heavy ones first (quads, full houses, straight flushes on
    the board: few distinct ranks, long tie runs in every card's list)."""
    reps = board_classes(5).reps
    pick = np.r_[0:64, np.linspace(64, len(reps) - 1, 192).astype(int)]
    special = np.array([parse_cards(t) for t in ("Tc Jc Qc Kc Ac", "2c 2d 2h 2s 3c",
                                                 "5h 6h 7h 8h 9h", "Ks Kd 7c 7h 7s")],
                       dtype=np.int32)
    b = np.concatenate([reps[pick], special])
    for q in (None, PAIR):
        _same(sorted_counts(b, q, native=False), sorted_counts(b, q, native=True))


def test_counts_add_up(compiled):
    """Independent of the numpy form: no dealer hand ranks below the weakest hole, none above
    the strongest, and no count exceeds the 990 dealer hands."""
    c = board_counts(_boards(5, 32, seed=3))
    assert (c.below >= 0).all() and (c.equal >= 0).all()
    assert (c.below + c.equal <= 990).all()
    worst = c.rank == c.rank.min(axis=1, keepdims=True)
    best = c.rank == c.rank.max(axis=1, keepdims=True)
    assert (c.below[worst] == 0).all()
    assert (c.below[best] + c.equal[best] == 990).all()


def test_off_switch_and_bad_value(monkeypatch, fresh_load):
    monkeypatch.setenv(_native.ENV, "0")
    assert _native.loaded_library() is None
    assert _native.status() == f"numpy ({_native.ENV}=0)"
    _native._load.cache_clear()
    monkeypatch.setenv(_native.ENV, "yes")
    allowed = rf"^{_native.ENV}: 'yes' is not allowed; use auto, 0 or 1$"
    with pytest.raises(ValueError, match=allowed):
        _native.status()


def test_failed_build_falls_back_or_fails_when_required(monkeypatch, fresh_load, tmp_path):
    # a "compiler" that fails: the solver keeps the numpy form and says why
    fake = tmp_path / "broken-c++"
    fake.write_text("#!/bin/sh\necho 'broken-c++: cannot compile' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("CXX", str(fake))
    monkeypatch.setenv(_native.ENV, "auto")
    assert _native.loaded_library() is None
    assert "broken-c++ could not build exact_cpu_boards.cpp: broken-c++: cannot compile" in (
        _native.status())
    assert not list((tmp_path / "native").glob("*"))  # nothing half-written is left
    b = _boards(5, 4, seed=1)
    _same(sorted_counts(b, PAIR), sorted_counts(b, PAIR, native=False))  # numpy, same counts
    _native._load.cache_clear()
    monkeypatch.setenv(_native.ENV, "1")
    with pytest.raises(_native.NativeError, match=rf"^{_native.ENV}=1: broken-c\+\+ could not"):
        _native.loaded_library()


def test_no_compiler(monkeypatch, fresh_load):
    monkeypatch.setattr(_native, "_compiler", lambda: None)
    monkeypatch.setenv(_native.ENV, "auto")
    assert _native.loaded_library() is None
    assert "no C++ compiler" in _native.status()


def test_build_is_cached(compiled, monkeypatch, fresh_load, tmp_path):
    monkeypatch.setenv(_native.ENV, "1")
    assert _native.loaded_library() is not None
    built = sorted((tmp_path / "native").glob("*.so"))
    assert len(built) == 1
    stamp = built[0].stat().st_mtime_ns
    _native._load.cache_clear()
    assert _native.loaded_library() is not None  # a second process loads the same file, no rebuild
    assert sorted((tmp_path / "native").glob("*")) == built
    assert built[0].stat().st_mtime_ns == stamp


@pytest.mark.parametrize("with_code", [True, False])
def test_binned_sums_compiled_equals_numpy(compiled, with_code):
    rng = np.random.default_rng(11)
    rows = 40
    tables = [rng.integers(-500, 990, (rows, 1326)).astype(np.int16),
              rng.integers(0, 1 << 30, (rows, 1326)).astype(np.int32),
              rng.integers(0, 1 << 38, (rows, 1326)).astype(np.float64),  # sums < 2**53
              rng.integers(0, 1 << 40, (rows, 1326)).astype(np.int64)]
    code = rng.integers(0, 20, (rows, 1326)).astype(np.uint8) if with_code else None
    base = np.argsort(hole_permutation_table(), axis=1) * 20
    m = 300
    cls, perm = rng.integers(0, rows, m), rng.integers(0, 24, m)
    weight = rng.integers(1, 25, m)
    offset = np.sort(rng.integers(0, 3, m)) * (1326 * 20)  # three groups of bins
    args = (code, cls, perm, weight, base, 3 * 1326 * 20)
    for pair in (tables[:2], tables[2:], tables[3:]):
        got = binned_sums(pair, *args, offset=offset, native=True)
        # numpy: float64 bincounts (int64 tables in two halves), exact below 2**53
        np.testing.assert_array_equal(got, binned_sums(pair, *args, offset=offset, native=False))
    # the int64 table, by brute force: every board's every cell into its bin
    brute = np.zeros(3 * 1326 * 20, dtype=np.int64)
    key = offset[:, None] + base[perm] + (code[cls] if code is not None else 0)
    np.add.at(brute, key.ravel(), (tables[3][cls] * weight[:, None]).ravel())
    np.testing.assert_array_equal(got[0], brute)


def test_binned_sums_refuses_bad_rows(compiled):
    t = [np.zeros((3, 1326), dtype=np.int32)]
    base = np.zeros((24, 1326), dtype=np.int64)
    with pytest.raises(ValueError, match="^cls: a row index outside the tables"):
        binned_sums(t, None, np.array([3]), np.array([0]), np.array([1]), base, 10)
    with pytest.raises(ValueError, match=r"^base: a bin key falls outside 0\.\.9$"):
        binned_sums(t, None, np.array([0]), np.array([0]), np.array([1]), base + 10, 10)
    with pytest.raises(ValueError, match="^values: 3 tables is not allowed; use 1 or 2$"):
        binned_sums(t * 3, None, np.array([0]), np.array([0]), np.array([1]), base, 10)
    with pytest.raises(ValueError, match="^values: int8"):
        binned_sums([t[0].astype(np.int8)], None, np.array([0]), np.array([0]), np.array([1]),
                    base, 10)


@pytest.mark.parametrize("game", ["casino_holdem", "ultimate_holdem", "holdem_bonus"])
def test_solves_agree_compiled_and_numpy(compiled, monkeypatch, game):
    """The second stage end to end, one worker, on three flops (one symmetric in three suits,
    whose orbit weights and spreading the sums back are exercised; Texas Hold'em Bonus: three
    4-card classes): the compiled and the numpy forms give the same counts, every array."""
    from gpusim.config import load_config

    ids = np.array([0, 900, 1754])
    rules = load_config(game)
    names = ("counts", "valid", "flops", "weights")
    if game == "holdem_bonus":
        from gpusim.games.holdem.streets_counts import solve_river

        ids = np.array([0, 7000, 16431])
        names = ("W", "L", "WX", "valid", "class_wins", "class_ties", "class_losses",
                 "class_hands")

        def solve():
            return solve_river(4, board_ids=ids)
    elif game == "casino_holdem":
        from _call_once import qualifier_rank, solve_counts

        def solve():
            return solve_counts(qualifier_rank(rules), flop_ids=ids)
    else:
        from gpusim.games.holdem.play_once_counts import solve_counts
        from gpusim.games.holdem.play_once_described import prices_of, qualifier_rank

        def solve():
            return solve_counts(qualifier_rank(rules.game_def), prices_of(rules), flop_ids=ids)

    results = {}
    for mode in ("1", "0"):
        monkeypatch.setenv(_native.ENV, mode)
        _native._load.cache_clear()
        results[mode] = solve()
    _native._load.cache_clear()
    a, b = results["1"], results["0"]
    assert getattr(a, names[0])[ids].any()
    for name in names:
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)


def test_hole_is_the_sorted_hands_hole_index(compiled):
    """The hole field, independently: hole_index of each sorted hand's two cards."""
    from gpusim.board_index import hole_index

    b = _boards(5, 8, seed=5)
    for native in (False, True):
        sc = sorted_counts(b, None, native=native)
        lo = np.take_along_axis(sc.rem, sc.cards[..., 0].astype(np.intp), axis=1)
        hi = np.take_along_axis(sc.rem, sc.cards[..., 1].astype(np.intp), axis=1)
        np.testing.assert_array_equal(sc.hole, hole_index(lo, hi))


def test_thb_cells_by_brute_force(compiled):
    """Texas Hold'em Bonus's compiled cells and per-starting-hand sums, against a Python loop
    over every hand (the numpy form is compared in the end-to-end solve above)."""
    from gpusim.exact.fives import _ROYAL, pay_class

    b = np.concatenate([_boards(5, 5, seed=9),
                        np.array([parse_cards("Tc Jc Qc Kc Ac")], dtype=np.int32)])
    sc = sorted_counts(b, None)
    ids = np.array([4, 0, 7, 2, 9, 5])
    weight = np.array([3, 1, 12, 24, 4, 6])
    cells = np.zeros((10, 1326), dtype=np.int64)
    got = _native.thb_cells_native(cells, ids, sc.rank, sc.hole, sc.below, sc.equal,
                                   int(_ROYAL), 4, HOLE_CLASS, weight)
    want_cells = np.zeros_like(cells)
    want = np.zeros((3, 1690), dtype=np.int64)
    pc = pay_class(sc.rank)
    assert (pc == 9).any() and (pc < 4).any() and (pc >= 4).any()
    for i in range(len(b)):
        for s in range(1081):
            below, equal, h = int(sc.below[i, s]), int(sc.equal[i, s]), int(sc.hole[i, s])
            ante = below if pc[i, s] >= 4 else 0
            want_cells[ids[i], h] = below + equal * 2**21 + ante * 2**42
            key = HOLE_CLASS[h] * 10 + pc[i, s]
            want[:, key] += (below * weight[i], equal * weight[i], weight[i])
    np.testing.assert_array_equal(cells, want_cells)
    np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match=r"^ids, hole or rank: a row outside 0\.\.9"):
        _native.thb_cells_native(cells, ids + 4, sc.rank, sc.hole, sc.below, sc.equal,
                                 int(_ROYAL), 4, HOLE_CLASS, weight)


def test_turn_pass_by_brute_force(compiled):
    """Texas Hold'em Bonus's turn pass on made-up river counts: three flops' turn-level wins
    and losses against a loop over their 49 turns and 1,326 holes, the Turn table from them,
    and the joint counts' totals against what every (flop, hole) must add up to."""
    from gpusim.board_index import subsets
    from gpusim.games.holdem.streets_counts import (
        CLASS_COMBOS,
        OUTCOMES_PER_HOLE,
        RIVER_OUTCOMES,
        RiverCounts,
        turn_pass,
    )

    b3, b4 = board_classes(3), board_classes(4)
    holes = subsets(2)
    rng = np.random.default_rng(21)
    valid = ~(holes[None, :, :, None] == b4.reps[:, None, None, :]).any(axis=(2, 3))
    W = rng.integers(0, RIVER_OUTCOMES + 1, valid.shape)
    L = rng.integers(0, RIVER_OUTCOMES + 1 - W)
    WX = rng.integers(0, W + 1)
    W, L, WX = ((a * valid).astype(np.uint16) for a in (W, L, WX))
    zeros = np.zeros(169, dtype=np.int64)
    river = RiverCounts(boards=b4.reps, weights=b4.weights, W=W, L=L, WX=WX, valid=valid,
                        class_wins=zeros, class_ties=zeros, class_losses=zeros,
                        class_hands=zeros, ante_from=4)
    river_bet = rng.random(valid.shape) < 0.5
    seen = {}

    def rule(tw, tl):
        seen["tw"], seen["tl"] = tw, tl
        return tw > tl

    tp = turn_pass(river, river_bet, rule)
    perms = hole_permutation_table()
    for f in (0, 900, 1754):
        flop = b3.reps[f]
        tw = np.zeros(1326, dtype=np.int64)
        tl = np.zeros(1326, dtype=np.int64)
        for t in np.setdiff1d(np.arange(52), flop):
            cls, perm = b4.lookup(np.append(flop, t))
            hc = perms[perm, np.arange(1326)]  # each hole, relabelled into the class's suits
            tw += W[cls, hc]
            tl += L[cls, hc]
        np.testing.assert_array_equal(seen["tw"][f], tw)
        np.testing.assert_array_equal(seen["tl"][f], tl)
        meets = np.isin(holes, flop).any(axis=1)
        np.testing.assert_array_equal(tp.turn[f], (tw > tl) & ~meets)
    # every (hole, flop) adds 47 turns x 45,540 outcomes; those the Turn table bets, into
    # Turn bet = 1
    per_class = tp.joint.sum(axis=(1, 2, 3))
    np.testing.assert_array_equal(per_class, CLASS_COMBOS * OUTCOMES_PER_HOLE)
    bet = np.bincount(np.tile(HOLE_CLASS, 1755), weights=(tp.turn * b3.weights[:, None]).ravel(),
                      minlength=169).astype(np.int64)
    np.testing.assert_array_equal(tp.joint[:, 1].sum(axis=(1, 2)), bet * 47 * RIVER_OUTCOMES)


def test_compiled_ranks_equal_the_jax_evaluator(compiled):
    """The compiled evaluator (kernels/evaluate.cuh) against gpusim.evaluator, whole hands of 5
    to 7 cards and every hand of random 3-, 4- and 5-card boards; bad cards are refused."""
    from gpusim.evaluator import evaluate_board_pairs, evaluate_np
    from gpusim.exact.boards import rank_hands, remaining_cards

    rng = np.random.default_rng(17)
    hands = np.argsort(rng.random((30000, 52)), axis=1)[:, :7]
    specials = [parse_cards(t) for t in ("Ah Kh Qh Jh Th 2c 3d", "As 2s 3s 4s 5s Kd Kc",
                                         "7c 7d 7h 7s 2c 2d 3h", "Ac Ad Kc Kd Qc Qd Jh")]
    hands = np.concatenate([hands, np.array(specials)])
    for k in (5, 6, 7):
        np.testing.assert_array_equal(rank_hands(hands[:, :k]), evaluate_np(hands[:, :k]))
    for k in (3, 4, 5):
        b = _boards(k, 40, seed=k)
        rem = remaining_cards(b)
        pi, pj = np.triu_indices(52 - k, 1)
        keys = _native.rank_keys_native(b, rem, pi, pj)
        ranks = evaluate_board_pairs(b, rem[:, pi], rem[:, pj])
        np.testing.assert_array_equal(keys >> np.uint64(11), ranks)
        np.testing.assert_array_equal(keys & np.uint64(2047),
                                      np.broadcast_to(np.arange(len(pi)), keys.shape))
    with pytest.raises(ValueError, match="^cards: 7 cards a hand, or a card outside 0..51"):
        _native.rank_native(np.array([[0, 1, 2, 3, 4, 5, 52]]))
    b = _boards(5, 2, seed=1)
    with pytest.raises(ValueError, match="^boards: 5 cards, 47 unseen, 1081 hands, or a card"):
        _native.rank_keys_native(b + 52, remaining_cards(b), PAIR_I, PAIR_J)


@pytest.mark.parametrize(("config", "strategy"), [
    ("casino_holdem", "optimal"),      # hand classes, no river decision
    ("ultimate_holdem", "optimal"),    # a river decision on the cell's counts
    ("ultimate_holdem", "basic"),      # a rule strategy on the river: the numpy form runs
    ("three_card_poker", "optimal"),   # no board: refused before any cell
])
def test_community_cells_equal_numpy(compiled, config, strategy):
    """The community solver's compiled cells (``gpusim_exact_community_cells``: showdown
    counts, high class, optimal river decisions, written into the rows) equal its numpy
    cells, on 300 five-card board classes spread over the categories."""
    from gpusim.config import load_config
    from gpusim.games.described.community_cells import CELLS, _cells, _write
    from gpusim.games.described.community_program import program

    rules = load_config(config)
    try:
        prog = program(rules, strategy, 990)
    except ValueError:
        assert config == "three_card_poker"
        return
    b5 = board_classes(5)
    ids = np.unique(np.r_[np.arange(100), np.random.default_rng(5).choice(b5.n_classes, 200)])
    sc = sorted_counts(b5.reps[ids], prog.qualifier)

    def tables():
        return {k: np.zeros((b5.n_classes, 1326), dt) for k, dt in CELLS.layout.items()}

    want, got = tables(), tables()
    for k, v in _cells(sc, None, (prog.qualifier, prog)).items():
        want[k][ids[:, None], sc.hole] = v
    wrote = _write(got, ids, sc, (prog.qualifier, prog))
    assert wrote == (strategy == "optimal")
    if wrote:
        for k in want:
            assert (got[k][ids] == want[k][ids]).all(), k
        assert not got["n"][np.setdiff1d(np.arange(200), ids)].any()
