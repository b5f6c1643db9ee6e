"""Exact analysis: table entries against direct brute force over every completion.

Each check takes a random situation, enumerates every remaining deal (turn, river and the
dealer's two cards), settles it with the game engine's own ``settle`` (an independent code
path: direct 7-card comparisons, no inclusion-exclusion) and compares with the enumeration
tables of :mod:`gpusim.exact`. Suit-permuted copies of a situation must read the same entry.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from _call_once import qualifier_rank

from gpusim.board_index import board_classes, hole_index, permute_cards
from gpusim.config import load_config
from gpusim.exact.boards import board_counts
from gpusim.games import settle, spec_for
from gpusim.games.holdem.call_once import call_margin
from gpusim.games.holdem.call_once_counts import CH_OUTCOMES, N_PAY_CLASSES, solve_counts
from gpusim.games.holdem.call_once_shape import call_tree_of, prices_of
from gpusim.games.holdem.call_once_tables import CallOnceTables
from gpusim.games.holdem.streets_counts import (
    RIVER_OUTCOMES,
    TURN_OUTCOMES,
    river_rule,
    solve_river,
    turn_counts,
)


def _completions(seen: np.ndarray, n_board: int) -> np.ndarray:
    """Every deal extending hole + n_board board cards: (M, 9) rounds, M = C(unseen, 5 -
    n_board) x C(rest, 2) with the board order fixed (turn < river for the unordered pair)."""
    hole, board = seen[:2], seen[2:]
    unseen = np.setdiff1d(np.arange(52), seen)
    need = 5 - n_board
    if need == 2:
        i, j = np.triu_indices(len(unseen), 1)
        fill = np.stack([unseen[i], unseen[j]], axis=1)
    else:
        fill = unseen[:, None]
    rows = []
    for f in fill:
        rest = np.setdiff1d(unseen, f)
        a, b = np.triu_indices(len(rest), 1)
        n = len(a)
        r = np.empty((n, 9), dtype=np.int32)
        r[:, 0:2] = hole
        r[:, 2] = rest[a]
        r[:, 3] = rest[b]
        r[:, 4 : 4 + n_board] = board
        r[:, 4 + n_board :] = f
        rows.append(r)
    return np.concatenate(rows)


def _random_situation(rng, n_board):
    return rng.choice(52, 2 + n_board, replace=False).astype(np.int32)


def test_board_counts_against_pairwise_comparison():
    from gpusim.evaluator import evaluate_np

    rng = np.random.default_rng(3)
    boards = np.array([rng.choice(52, 5, replace=False) for _ in range(3)])
    q = 1 << 27 | (1 << 2) << 13
    bc = board_counts(boards, q)
    from gpusim.exact.boards import PAIR_I, PAIR_J

    for t in range(3):
        ranks = bc.rank[t]
        for k in rng.choice(1081, 20, replace=False):
            a, b = PAIR_I[k], PAIR_J[k]
            others = np.array([m for m in range(1081) if a not in (PAIR_I[m], PAIR_J[m])
                               and b not in (PAIR_I[m], PAIR_J[m])])
            assert len(others) == 990
            d = ranks[others]
            assert bc.below[t, k] == (d < ranks[k]).sum()
            assert bc.equal[t, k] == (d == ranks[k]).sum()
            assert bc.not_qualified[t, k] == (d < q).sum()
        # ranks themselves: hole + board straight from the evaluator
        hands = np.concatenate([np.broadcast_to(boards[t], (1081, 5)),
                                bc.rem[t][PAIR_I, None], bc.rem[t][PAIR_J, None]], axis=1)
        assert (evaluate_np(hands) == ranks).all()


@pytest.mark.parametrize("k", [3, 4])
def test_board_counts_of_short_boards_against_pairwise_comparison(k):
    """Boards of 3 and 4 cards (hands as they stand), ties included: a board with a pair
    makes many equal ranks, which the per-card tie runs must count exactly."""
    rng = np.random.default_rng(10 + k)
    boards = np.array([[0, 1, 8, 30][:k], rng.choice(52, k, replace=False)])
    q = 1 << 27 | (1 << 5) << 13
    bc = board_counts(boards, q)
    n = 52 - k
    i, j = np.triu_indices(n, 1)
    for t in range(2):
        ranks = bc.rank[t]
        for h in rng.choice(len(i), 25, replace=False):
            other = (i != i[h]) & (i != j[h]) & (j != i[h]) & (j != j[h])
            assert other.sum() == (n - 2) * (n - 3) // 2
            assert bc.below[t, h] == (ranks[other] < ranks[h]).sum()
            assert bc.equal[t, h] == (ranks[other] == ranks[h]).sum()
            assert bc.not_qualified[t, h] == (ranks[other] < q).sum()


@pytest.fixture(scope="module")
def ch_rules():
    return load_config("casino_holdem")


def test_casino_holdem_counts_match_settle(ch_rules):
    rng = np.random.default_rng(2024)
    b3 = board_classes(3)
    q = qualifier_rank(ch_rules)
    seen_list = [_random_situation(rng, 3) for _ in range(2)]
    ids = sorted({int(b3.lookup(s[None, 2:5])[0][0]) for s in seen_list})
    counts = solve_counts(q, flop_ids=ids)
    margin = call_margin(counts, prices_of(ch_rules), with_side_bet=False)
    for seen in seen_list:
        cls, perm = b3.lookup(seen[None, 2:5])
        hole = permute_cards(seen[None, :2], perm)[0]
        h = int(hole_index(hole[0], hole[1]))
        row = counts.counts[cls[0], h]
        rounds = _completions(seen, 3)
        assert len(rounds) == CH_OUTCOMES
        s = settle(rounds, {"call": np.ones(len(rounds), bool)}, ch_rules)
        ev = np.asarray(s.events["ante"])
        # ante events: fold, dealer_not_qualified:<10 classes>, win:<10 classes>, tie, loss
        direct = np.bincount(ev, minlength=2 * N_PAY_CLASSES + 3)[1:]
        assert (direct == row).all()
        net = int(np.asarray(s.nets["ante"]).sum() + np.asarray(s.nets["call"]).sum())
        assert margin[cls[0], h] == net + CH_OUTCOMES * ch_rules.stakes.ante
        # a suit-permuted copy reads the same entry
        p = rng.integers(24)
        moved = permute_cards(seen[None], np.array([p]))[0]
        cls2, perm2 = b3.lookup(moved[None, 2:5])
        hole2 = permute_cards(moved[None, :2], perm2)[0]
        assert cls2[0] == cls[0]
        assert hole_index(hole2[0], hole2[1]) == h


def test_table_strategy_lookup_is_suit_invariant(ch_rules):
    rng = np.random.default_rng(9)
    # A table must be a function of the situation up to suits, as solved tables are; build
    # one from suit-free features: flop class, hole ranks, flop cards sharing each hole suit.
    from gpusim.board_index import subsets

    b3 = board_classes(3)
    holes = subsets(2).astype(np.int64)
    flops = b3.reps.astype(np.int64)
    same = ((holes[None, :, :, None] & 3) == (flops[:, None, None, :] & 3)).sum(-1)
    feat = (np.arange(1755)[:, None] * 7 + (holes[None, :, 0] >> 2) * 3
            + (holes[None, :, 1] >> 2) * 5 + np.sort(same, -1) @ np.array([11, 13]))
    table = (feat * 2654435761 >> 7) % 2 == 1
    strat = CallOnceTables("t", "casino_holdem", {"call": np.packbits(table.ravel())},
                           tree=spec_for(ch_rules).decisions, roles=call_tree_of(ch_rules.game_def))
    cards = np.array([rng.choice(52, 9, replace=False) for _ in range(2000)], dtype=np.int32)
    base = strat.decide(cards)["call"]
    cls, perm = b3.lookup(cards[:, 4:7])
    hole = permute_cards(cards[:, :2], perm)
    assert (base == table[cls, hole_index(hole[:, 0], hole[:, 1])]).all()
    for p in rng.integers(24, size=4):
        moved = permute_cards(cards, np.full(len(cards), p))
        assert (strat.decide(moved)["call"] == base).all()


@pytest.fixture(scope="module")
def thb_setup():
    rng = np.random.default_rng(77)
    seen = _random_situation(rng, 3)
    b4 = board_classes(4)
    turns = np.setdiff1d(np.arange(52), seen[2:5])
    fours = np.concatenate([np.broadcast_to(seen[2:5], (49, 3)), turns[:, None]], axis=1)
    ids = np.unique(b4.lookup(fours)[0])
    river = solve_river(4, board_ids=ids)
    return seen, river


def test_holdem_bonus_river_counts_match_settle(thb_setup):
    seen, river = thb_setup
    rules = load_config("holdem_bonus")
    rng = np.random.default_rng(5)
    b4 = board_classes(4)
    for turn in rng.choice(np.setdiff1d(np.arange(52), seen), 2, replace=False):
        s6 = np.concatenate([seen, [turn]]).astype(np.int32)
        cls, perm = b4.lookup(s6[None, 2:6])
        hole = permute_cards(s6[None, :2], perm)[0]
        h = int(hole_index(hole[0], hole[1]))
        rounds = _completions(s6, 4)
        assert len(rounds) == RIVER_OUTCOMES
        ones = np.ones(len(rounds), bool)
        st = settle(rounds, {"flop": ones, "turn": ones, "river": ones}, rules)
        rnet = np.asarray(st.nets["river"])
        assert river.W[cls[0], h] == (rnet > 0).sum()
        assert river.L[cls[0], h] == (rnet < 0).sum()
        ante_paid = (np.asarray(st.nets["ante"]) > 0).sum()
        assert river.WX[cls[0], h] == ante_paid
        assert river_rule(river, "optimal")[cls[0], h] == ((rnet > 0).sum() > (rnet < 0).sum())


def test_holdem_bonus_turn_counts_match_settle(thb_setup):
    seen, river = thb_setup
    rules = load_config("holdem_bonus")
    b3 = board_classes(3)
    fcls, fperm = b3.lookup(seen[None, 2:5])
    tc = turn_counts(river, int(fcls[0]))
    hole = permute_cards(seen[None, :2], fperm)[0]
    h = int(hole_index(hole[0], hole[1]))
    rounds = _completions(seen, 3)
    # _completions takes {turn, river} unordered; the turn level counts both orders
    swapped = rounds.copy()
    swapped[:, 7], swapped[:, 8] = rounds[:, 8], rounds[:, 7]
    both = np.concatenate([rounds, swapped])
    assert len(both) == TURN_OUTCOMES
    ones = np.ones(len(both), bool)
    st = settle(both, {"flop": ones, "turn": ones, "river": ones}, rules)
    tnet = np.asarray(st.nets["turn"])
    # the flop in class suits: the same counts as the raw situation
    assert tc["W"][:, h].sum() == (tnet > 0).sum()
    assert tc["L"][:, h].sum() == (tnet < 0).sum()


def _write_square(spec, rows):
    from gpusim.exact._parallel import attach

    arrays = attach(spec)
    arrays["out"][rows] = arrays["inp"][rows] ** 2
    return len(rows)


def test_pool_workers_end_after_their_exit_handlers(tmp_path):
    """Closing a solve's pool does not wait for the workers' module teardown, but their exit
    handlers still run and their output is still flushed."""
    import os
    import re
    import subprocess
    import sys

    script = tmp_path / "pool.py"
    script.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "from _exit_note import note_exit\n"
        "from gpusim.exact._parallel import worker_pool\n"
        "if __name__ == '__main__':\n"
        "    with worker_pool(2) as pool:\n"
        f"        pids = {{pool.submit(note_exit, {str(tmp_path / 'exits.txt')!r}).result() "
        "for _ in range(8)}\n"
        "    print(f'workers={len(pids)}.')\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # buffered output
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=120, check=True, env=env).stdout
    assert 1 <= int(re.search(r"workers=(\d+)\.", out).group(1)) <= 2
    assert out.count("a line an exit handler leaves unflushed") == 8
    # one handler per task, each run as its worker ended
    assert len((tmp_path / "exits.txt").read_text().splitlines()) == 8


def test_shared_arrays_are_written_in_place_by_workers_and_removed():
    from pathlib import Path

    from gpusim.exact._parallel import SharedArrays, run_chunks

    with SharedArrays(inp=((6, 3), np.int64), out=((6, 3), np.int64)) as shared:
        shared.arrays["inp"][:] = np.arange(18).reshape(6, 3)
        chunks = [np.array([0, 1, 2]), np.array([3, 4, 5])]
        done = sum(n for _, n in run_chunks(_write_square, [(shared.spec, c) for c in chunks],
                                            chunks, workers=2))
        assert done == 6
        assert np.array_equal(shared.arrays["out"], np.arange(18).reshape(6, 3) ** 2)
        paths = [Path(p) for _, p, *_ in shared.spec]
        assert all(p.is_file() for p in paths)
    assert not any(p.exists() for p in paths)


@pytest.mark.parametrize("level", [None, 0, 1])
def test_count_cache_round_trip_and_nothing_half_written(tmp_path, level):
    import zipfile

    from gpusim.exact.cache import atomic_savez

    a = {"W": np.arange(5000, dtype=np.uint16).reshape(50, 100), "n": np.int64(7)}
    path = tmp_path / "counts.npz"
    atomic_savez(path, level=level, **a)
    with np.load(path) as z:
        assert set(z.files) == {"W", "n"}
        np.testing.assert_array_equal(z["W"], a["W"])
        assert z["n"] == 7
    with zipfile.ZipFile(path) as zf:
        stored = {i.compress_type for i in zf.infolist()} == {zipfile.ZIP_STORED}
    assert stored == (level == 0)
    # an array that fails part-way through the write: no file, no temporary left
    class Broken:
        def __array__(self, *args, **kwargs):
            raise ValueError("broken array")

    with pytest.raises(ValueError, match="broken array"):
        atomic_savez(tmp_path / "bad.npz", level=level, W=a["W"], x=Broken())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["counts.npz"]
