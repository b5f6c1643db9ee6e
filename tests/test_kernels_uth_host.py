"""Ultimate Texas Hold'em's CUDA kernel logic compiled for the host (g++), checked against
independent references and against the JAX path.

A C++ harness (built in a temporary folder; skipped without g++) includes the same header as
``kernels/ultimate_holdem.cu`` and

- codes given rounds and paths: compared with a numpy reference of the kernel code (the
  evaluator's ranks, the qualifier) and, sent to the description's joint code
  (:func:`gpusim.games.holdem.play_once_kernel.code_map`), with the description's JAX
  settlement (every bet's event and stake) on random rounds of every shipped UTH config and
  rule variant, and on hand-built rounds;
- decides given rounds: always-check and basic compared with the description's rule strategies
  and the hand-written reference (tests/uth_reference.py), the basic pre-flop rule with the
  published list of 4x hands, and the optimal tables' lookup (synthetic random tables) with a
  numpy lookup on :mod:`gpusim.board_index` (``board_classes(3)`` / ``(5)``, ``hole_index``,
  ``hand_class_index``) and with the game's JAX table strategy reading the same tables;
- plays a whole chunk with the kernel's per-round function: its histogram equals a numpy
  pipeline (``deal_numpy``, the numpy lookup, the numpy code) and, reduced by
  :func:`~gpusim.compute.backends.cupy_rounds.counts_from_bins`, the JAX runner's ChunkCounts.

The kernel is also compile-checked with ``nvcc -x cu -c`` (skipped without nvcc); NVRTC compiles
the self-contained source the backend hands it in ``tests/test_nvrtc_kernels.py``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from _host_build import KERNELS, build_harness, random_rounds

from gpusim.board_index import board_classes, hole_index, permute_cards
from gpusim.cards import HAND_CLASSES, RANKS, class_members, hand_class_index, parse_cards
from gpusim.compute.backends import cupy_rounds as cb
from gpusim.compute.bins import bin_layout, remap_codes
from gpusim.dealing_numpy import deal_numpy
from gpusim.evaluator import evaluate_np, hand_category, is_royal
from gpusim.games.base import qualifier_threshold
from gpusim.games.holdem.play_once_kernel import KERNEL, N_KERNEL_CODES, code_map, rule_code
from gpusim.rules import Qualifier

N_BINS = N_KERNEL_CODES
# the tables' layouts (kernels/strategy_ultimate_holdem.cuh), by name: file dtype
TABLE_DTYPES = {"preflop": np.uint8, "flop": np.uint8, "river": np.uint8,
                "raw3_class": np.int32, "raw3_perm": np.int8, "raw5_class": np.int32,
                "raw5_perm": np.int8, "new_suit": np.int8}  # fmt: skip

HARNESS = r"""
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include "host_io.h"
#include "settle_ultimate_holdem.cuh"

struct UthTableFiles {
  std::vector<uint8_t> preflop, flop, river;
  std::vector<int32_t> raw3_class, raw5_class;
  std::vector<int8_t> raw3_perm, raw5_perm, new_suit;
  GpusimUthTables t;
  explicit UthTableFiles(const std::string& d) {
    preflop = load<uint8_t>(d + "/preflop.bin");
    flop = load<uint8_t>(d + "/flop.bin");
    river = load<uint8_t>(d + "/river.bin");
    raw3_class = load<int32_t>(d + "/raw3_class.bin");
    raw3_perm = load<int8_t>(d + "/raw3_perm.bin");
    raw5_class = load<int32_t>(d + "/raw5_class.bin");
    raw5_perm = load<int8_t>(d + "/raw5_perm.bin");
    new_suit = load<int8_t>(d + "/new_suit.bin");
    t = {preflop.data(), flop.data(), river.data(), raw3_class.data(), raw3_perm.data(),
         raw5_class.data(), raw5_perm.data(), new_suit.data()};
  }
};

// code CARDS PATHS QUALIFIER OUT: per round (n x 9 int32 cards, n uint8 paths) the joint code.
// decide STRATEGY TABLEDIR CARDS OUT: per round the path (uint8).
// outs CARDS OUT: per round the dealer outs against the player's hand (int32).
// chunk STRATEGY TABLEDIR SEED FIRST N QUALIFIER OUT: the kernel's loop on the host, its
//   GPUSIM_UTH_MAX_BINS uint64 counts.
int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const std::string mode = argv[1];
  if (mode == "code" && argc == 6) {
    const std::vector<int32_t> cards = load<int32_t>(argv[2]);
    const std::vector<uint8_t> paths = load<uint8_t>(argv[3]);
    const uint32_t qualifier = (uint32_t)std::strtoul(argv[4], nullptr, 10);
    std::vector<int32_t> out(paths.size());
    for (size_t i = 0; i < paths.size(); ++i) {
      const int* c = &cards[9 * i];
      out[i] = gpusim_uth_code(c, paths[i], gpusim_uth_player_rank(c), qualifier);
    }
    save(argv[5], out);
    return 0;
  }
  if (mode == "decide" && argc == 6) {
    const int strategy = std::atoi(argv[2]);
    UthTableFiles tf(argv[3]);
    const std::vector<int32_t> cards = load<int32_t>(argv[4]);
    std::vector<uint8_t> out(cards.size() / 9);
    for (size_t i = 0; i < out.size(); ++i) {
      const int* c = &cards[9 * i];
      out[i] = (uint8_t)gpusim_uth_decide(strategy, c, gpusim_uth_player_rank(c), tf.t);
    }
    save(argv[5], out);
    return 0;
  }
  if (mode == "outs" && argc == 4) {
    const std::vector<int32_t> cards = load<int32_t>(argv[2]);
    std::vector<int32_t> out(cards.size() / 9);
    for (size_t i = 0; i < out.size(); ++i) {
      const int* c = &cards[9 * i];
      out[i] = gpusim_uth_dealer_outs(c, gpusim_uth_player_rank(c));
    }
    save(argv[3], out);
    return 0;
  }
  if (mode == "chunk" && argc == 9) {
    const int strategy = std::atoi(argv[2]);
    UthTableFiles tf(argv[3]);
    const unsigned long long seed = std::strtoull(argv[4], nullptr, 10);
    const unsigned long long first = std::strtoull(argv[5], nullptr, 10);
    const unsigned long long n = std::strtoull(argv[6], nullptr, 10);
    const uint32_t qualifier = (uint32_t)std::strtoul(argv[7], nullptr, 10);
    std::vector<unsigned long long> bins(GPUSIM_UTH_MAX_BINS, 0ull);
    for (unsigned long long i = 0; i < n; ++i) {
      bins[gpusim_uth_play_round((uint32_t)seed, (uint32_t)(seed >> 32), first + i, strategy,
                                 qualifier, tf.t)]++;
    }
    save(argv[8], bins);
    return 0;
  }
  std::fprintf(stderr, "bad arguments\n");
  return 2;
}
"""


@pytest.fixture(scope="module")
def harness(tmp_path_factory) -> Path:
    return build_harness(tmp_path_factory, "uth_host", HARNESS)


def _run(exe: Path, *args) -> None:
    subprocess.run([str(exe), *map(str, args)], check=True, timeout=300)


def _host_codes(exe: Path, cards: np.ndarray, paths: np.ndarray, qualifier: int) -> np.ndarray:
    work = exe.parent
    np.ascontiguousarray(cards, np.int32).tofile(work / "cards.bin")
    np.ascontiguousarray(paths, np.uint8).tofile(work / "paths.bin")
    _run(exe, "code", work / "cards.bin", work / "paths.bin", qualifier, work / "codes.bin")
    return np.fromfile(work / "codes.bin", np.int32)


def _table_dir(exe: Path, tables: dict, tag: str) -> Path:
    d = exe.parent / f"tables_{tag}"
    d.mkdir(exist_ok=True)
    for key, dtype in TABLE_DTYPES.items():
        np.ascontiguousarray(tables.get(key, np.zeros(1)), dtype).tofile(d / f"{key}.bin")
    return d


def _host_paths(exe: Path, code: int, tables: dict, cards: np.ndarray, tag: str) -> np.ndarray:
    work = exe.parent
    np.ascontiguousarray(cards, np.int32).tofile(work / "dcards.bin")
    _run(exe, "decide", code, _table_dir(exe, tables, tag), work / "dcards.bin", work / "dp.bin")
    return np.fromfile(work / "dp.bin", np.uint8).astype(np.int64)


STANDARD = qualifier_threshold(Qualifier("pair", 0))


# --- the joint code -------------------------------------------------------------------------


def _reference_codes(cards: np.ndarray, paths: np.ndarray, qualifier: int) -> np.ndarray:
    """The contract's joint code from the evaluator's numpy ranks (independent of the kernel)."""
    pr = evaluate_np(cards[:, [0, 1, 4, 5, 6, 7, 8]]).astype(np.int64)
    dr = evaluate_np(cards[:, [2, 3, 4, 5, 6, 7, 8]]).astype(np.int64)
    cat = np.where(is_royal(pr), 9, hand_category(pr))
    q = dr >= qualifier
    outcome = np.select([paths == 4, pr > dr, pr == dr], [0, np.where(q, 1, 2), 3],
                        np.where(q, 4, 5))  # fmt: skip
    return (paths * 6 + outcome) * 10 + cat


@pytest.mark.parametrize("qualifier", [Qualifier("pair", 0), Qualifier("high_card", 11)])
def test_host_codes_match_the_numpy_reference(harness, qualifier):
    n = 100_000
    cards = random_rounds(n, seed=qualifier.rank)
    paths = np.random.default_rng(3).integers(0, 5, n)
    rank = qualifier_threshold(qualifier)
    got = _host_codes(harness, cards, paths, rank)
    want = _reference_codes(cards, paths, rank)
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, f"{bad.size} rounds differ, first {cards[bad[0]]}: {got[bad[0]]}"
    # every path, outcome and (nearly) every category occurs: the comparison is not vacuous
    assert set(got // 60) == set(range(5)) and set(got // 10 % 6) == set(range(6))
    assert len(set(got % 10)) >= 9


def _uth_rules() -> dict:
    from gpusim.config import editable_doc, load_config, parse_config, shipped_configs

    names = [n for n in shipped_configs() if load_config(n).game == "ultimate_holdem"]
    rules = {n: load_config(n) for n in names}

    def variant(**options):
        doc = editable_doc(rules["ultimate_holdem"].to_dict())
        doc["rules"].update(options)
        return parse_config(doc)

    rules["uth_qualifier_jacks"] = variant(dealer_qualifier={"hand": "pair", "rank": "J"})
    rules["uth_qualifier_none"] = variant(dealer_qualifier={"hand": "high_card", "rank": "2"})
    return rules


# Path -> the action index at each point (pre-flop: 0 check, 1 play 3x, 2 play 4x; flop: 0
# check, 1 play 2x; river: 0 fold, 1 play 1x); -1: not reached, any action will do.
PATH_ACTIONS = np.array([[2, -1, -1], [1, -1, -1], [0, 1, -1], [0, 0, 1], [0, 0, 0]])


def _actions(paths: np.ndarray, seed: int = 0) -> dict:
    """Decisions that take these paths; a point a round did not reach gets a random action
    (settlement must ignore it)."""
    a = PATH_ACTIONS[paths]
    noise = np.random.default_rng(seed).integers(0, 2, a.shape)
    a = np.where(a < 0, noise, a)
    return {p: a[:, i].astype(np.int32) for i, p in enumerate(("preflop", "flop", "river"))}


def _assert_settles_as_jax(rules, kernel_codes, cards: np.ndarray, paths: np.ndarray) -> None:
    """The kernel's codes, sent to the description's joint codes, give every bet the event and
    stake the description's JAX settlement gives, and the player's category is the same."""
    from gpusim.games import bets, settle

    s = settle(cards, _actions(paths), rules)
    joint = code_map(rules)[np.asarray(kernel_codes, np.int64)]
    lay = bin_layout(rules)
    for bet in bets(rules):
        for what, table, settled in (("event", lay.events, s.events), ("stake", lay.stakes,
                                                                      s.stakes)):
            got, want = table[bet][joint], np.asarray(settled[bet])
            bad = np.flatnonzero(got != want)
            assert bad.size == 0, f"{rules.name} {bet} {what}: {bad.size} rounds differ, " \
                f"first {cards[bad[0]]}"  # fmt: skip
    np.testing.assert_array_equal(np.asarray(kernel_codes) % 10,
                                  np.asarray(s.player_category), err_msg="category")


def test_host_codes_settle_as_the_jax_settlement(harness):
    n = 50_000
    for name, rules in _uth_rules().items():
        cards = random_rounds(n, seed=len(name))
        paths = np.random.default_rng(len(name)).integers(0, 5, n)
        got = _host_codes(harness, cards, paths, int(KERNEL.head_args(rules)[0]))
        _assert_settles_as_jax(rules, got, cards, paths)


# Hand-built rounds: (player, dealer, board, path, outcome, category), outcome and category
# worked out by hand from the contract.
HAND_BUILT = [
    # royal flush against the dealer's pair: win, dealer qualifies
    ("As Ks", "2d 2c", "Qs Js Ts 7h 3c", 0, 1, 9),
    # the board plays for both (a straight): tie
    ("2c 3d", "4h 5s", "6c 7d 8h 9s Tc", 1, 3, 4),
    # ace high beats king high; the dealer does not qualify
    ("Ad 3c", "Kh 4s", "2c 7d 9h Js 8c", 2, 2, 0),
    # dealer's flush beats trips
    ("9c 9d", "Ah Kh", "9h 2h 5h Jc 3s", 3, 4, 3),
    # a fold: outcome 0, the player's category still counted (Trips settles)
    ("7c 7d", "Ah Kh", "7h 2s 5d Jc 3s", 4, 0, 3),
    # queen high loses to the dealer's pair of deuces, which qualifies
    ("Qc 5d", "2h 3s", "2c 8d 9h Js 4c", 3, 4, 0),
    # dealer king high does not qualify and loses to a pair
    ("4c 4d", "Kh 6s", "2c 8d 9h Js 3c", 0, 2, 1),
    # two pair each, the player's higher: win against a qualifying dealer
    ("Ac Td", "Kh 9s", "Ah Kd Tc 9c 2s", 1, 1, 2),
    # quads on board, the dealer's ace kicker beats the player's king
    ("Kc 3d", "Ah 4s", "8c 8d 8h 8s 2c", 2, 4, 7),
]


def _hand_built():
    cards = np.array([parse_cards(f"{p} {d} {b}") for p, d, b, *_ in HAND_BUILT], np.int32)
    paths = np.array([row[3] for row in HAND_BUILT])
    want = np.array([(path * 6 + o) * 10 + c for _, _, _, path, o, c in HAND_BUILT])
    return cards, paths, want


def test_host_codes_on_hand_built_rounds(harness):
    cards, paths, want = _hand_built()
    np.testing.assert_array_equal(_host_codes(harness, cards, paths, STANDARD), want)


def test_hand_built_codes_settle_as_the_jax_settlement():
    from gpusim.config import load_config

    cards, paths, want = _hand_built()
    for name in ("ultimate_holdem", "ultimate_holdem_must_beat"):
        _assert_settles_as_jax(load_config(name), want, cards, paths)


# --- decisions ------------------------------------------------------------------------------


def _published_4x(name: str) -> bool:
    """The published basic pre-flop list: any pair except 2-2, any suited ace or king, Q6s+, J8s+,
    any offsuit ace, K5o+, Q8o+, JTo."""
    hi, lo = RANKS.index(name[0]), RANKS.index(name[1])
    if len(name) == 2:
        return name != "22"
    least = {"A": "2", "K": "2", "Q": "6", "J": "8"} if name[2] == "s" else \
        {"A": "2", "K": "5", "Q": "8", "J": "T"}  # fmt: skip
    return name[0] in least and lo >= RANKS.index(least[name[0]]) and hi > lo


def test_basic_preflop_is_the_published_list(harness):
    holes = np.array([class_members(name)[0] for name in HAND_CLASSES], np.int32)
    free = [[c for c in range(52) if c not in h][:7] for h in holes.tolist()]
    cards = np.concatenate([holes, np.array(free, np.int32)], axis=1)
    got = _host_paths(harness, cb.STRAT_BASIC, {}, cards, "none") == 0
    want = np.array([_published_4x(n) for n in HAND_CLASSES])
    # 12 pairs; suited 12 aces, 11 kings, Q6s-QJs 6, J8s-JTs 3; offsuit 12 aces, K5o-KQo 8,
    # Q8o-QJo 4, JTo
    assert want.sum() == 12 + 32 + 25
    bad = [n for n, g, w in zip(HAND_CLASSES, got, want, strict=True) if g != w]
    assert not bad, f"basic pre-flop differs from the published list at {bad}"


def _rule_code(rules, strat) -> int:
    code = rule_code(rules, strat)
    assert code is not None, f"{strat.name}: its rules are not the kernel's"
    return code


def _python_paths(rules, strat, cards) -> np.ndarray:
    """The Python strategy's decisions as paths (the action taken at each reached point)."""
    from gpusim.games import spec_for
    from gpusim.strategy.tree import taken

    t = taken(spec_for(rules).decisions,
              {k: np.asarray(v).astype(np.int32) for k, v in strat.decide(cards).items()})
    pre, flop, river = t["preflop"], t["flop"], t["river"]
    return np.select([pre == 2, pre == 1, flop == 1, river == 1], [0, 1, 2, 3], 4)


@pytest.mark.parametrize("strategy", ["always-check", "basic"])
def test_host_decisions_match_python_strategy(harness, strategy):
    """The kernel's rule list against the description's rules and the hand-written
    reference."""
    from uth_reference import uth_always_check, uth_basic

    from gpusim.config import load_config
    from gpusim.games.strategy_registry import get_strategy
    from gpusim.strategy import RuleStrategy

    rules = load_config("ultimate_holdem")
    strat = get_strategy(strategy, rules)
    reference = RuleStrategy(strategy, rules.game,
                             {"basic": uth_basic, "always-check": uth_always_check}[strategy])
    n = 100_000
    cards = random_rounds(n, seed=len(strategy))
    got = _host_paths(harness, _rule_code(rules, strat), {}, cards, "none")
    for against in (strat, reference):
        want = _python_paths(rules, against, cards)
        bad = np.flatnonzero(got != want)
        assert bad.size == 0, f"{bad.size} rounds differ, e.g. cards {cards[bad[0]]}: " \
            f"kernel path {got[bad[0]]}, python {want[bad[0]]}"  # fmt: skip
    expected_paths = {3, 4} if strategy == "always-check" else {0, 2, 3, 4}
    assert set(np.unique(got).tolist()) == expected_paths


# Hand-built basic decisions: (cards as player, dealer, flop, turn, river; the path).
BASIC_HAND_BUILT = [
    ("Ts 2d", "3c 3d", "As 7s 4s Kh 9c", 2),  # four to a flush with a hidden ten of the suit
    ("9s 2d", "3c 3d", "As 7s 4s Kh Jc", 4),  # ... a hidden nine: not on the flop; river folds
    ("2c 2d", "3c 3h", "Ks 8h 5d Jc 9s", 3),  # pocket deuces: no 2x, but a hidden pair at the river
    ("7c 4d", "3c 3h", "7s 8h 2d Jc Qs", 2),  # a hidden pair of sevens on the flop
    ("Kd 3c", "5h 6h", "2c 7d 9h Js Ac", 3),  # ace high: 15 dealer outs (pairs of the board)
    ("4d 3c", "5h 6h", "2c 7d 9h Js Kc", 4),  # king high: 39 dealer outs
]


def _host_outs(exe: Path, cards: np.ndarray) -> np.ndarray:
    np.ascontiguousarray(cards, np.int32).tofile(exe.parent / "ocards.bin")
    _run(exe, "outs", exe.parent / "ocards.bin", exe.parent / "outs.bin")
    return np.fromfile(exe.parent / "outs.bin", np.int32)


def test_host_dealer_outs_match_jax(harness):
    """The count itself (counted by rank on the device), not only its side of 21; every
    other round's board holds four or five of a suit, where a card's suit matters."""
    from uth_reference import dealer_outs

    cards = random_rounds(40_000, seed=21)
    suited = cards[::2].copy()
    for i, row in enumerate(suited):  # recolour the board into one suit where it is free
        s = i % 4
        for j in range(4, 9 - i % 2):
            card = (row[j] & ~3) | s
            if card not in row:
                row[j] = card
    cards[::2] = suited
    got = _host_outs(harness, cards)
    want = np.asarray(dealer_outs(cards[:, [0, 1, 4, 5, 6, 7, 8]]))
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, f"{bad.size} rounds differ, e.g. cards {cards[bad[0]]}"
    assert (got < 21).any() and (got >= 21).any()


def test_basic_on_hand_built_rounds(harness):
    cards = np.array([parse_cards(f"{p} {d} {b}") for p, d, b, _ in BASIC_HAND_BUILT], np.int32)
    got = _host_paths(harness, cb.STRAT_BASIC, {}, cards, "none")
    np.testing.assert_array_equal(got, [row[3] for row in BASIC_HAND_BUILT])
    # the dealer outs worked out in the comments
    np.testing.assert_array_equal(_host_outs(harness, cards[-2:]), [15, 39])


# --- the optimal tables ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def synthetic_tables() -> dict:
    """The kernel's tables with random decisions (the real ones come from the exact solver)."""
    rng = np.random.default_rng(20)
    b3, b5 = board_classes(3), board_classes(5)
    from gpusim.board_index import PERMUTATIONS

    return {
        "preflop": rng.choice(3, 169, p=[0.5, 0.1, 0.4]).astype(np.uint8),
        "flop": np.packbits(rng.random(b3.n_classes * 1326) < 0.3),
        "river": np.packbits(rng.random(b5.n_classes * 1326) < 0.6),
        "raw3_class": b3.raw_class, "raw3_perm": b3.raw_perm,
        "raw5_class": b5.raw_class, "raw5_perm": b5.raw_perm,
        "new_suit": PERMUTATIONS.ravel(),
    }  # fmt: skip


def _numpy_table_paths(t: dict, cards: np.ndarray) -> np.ndarray:
    """The tables read through gpusim.board_index (set_index, canonical boards, permute_cards)."""

    def bit(table, k, board):
        cls, perm = board_classes(k).lookup(board)
        hole = permute_cards(cards[:, :2], perm)
        idx = cls.astype(np.int64) * 1326 + hole_index(hole[:, 0], hole[:, 1])
        return np.unpackbits(t[table])[idx] == 1

    pre = t["preflop"][hand_class_index(cards[:, 0], cards[:, 1])]
    flop, river = bit("flop", 3, cards[:, 4:7]), bit("river", 5, cards[:, 4:9])
    return np.select([pre == 2, pre == 1, flop, river], [0, 1, 2, 3], 4)


def test_host_table_lookup_matches_numpy_index(harness, synthetic_tables):
    n = 100_000
    cards = random_rounds(n, seed=99)
    got = _host_paths(harness, cb.STRAT_TABLE, synthetic_tables, cards, "synthetic")
    want = _numpy_table_paths(synthetic_tables, cards)
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, f"{bad.size} rounds differ, e.g. cards {cards[bad[0]]}"
    assert set(np.unique(got).tolist()) == {0, 1, 2, 3, 4}


def _synthetic_strategy(tables: dict):
    """The game's table strategy (JAX) reading the synthetic tables."""
    from gpusim.config import load_config
    from gpusim.games import spec_for
    from gpusim.games.holdem.play_once_shape import play_tree_of
    from gpusim.games.holdem.play_once_tables import PlayOnceTables

    rules = load_config("ultimate_holdem")
    mine = {k: tables[k] for k in ("preflop", "flop", "river")}
    return PlayOnceTables(name="synthetic", game="ultimate_holdem", tables=mine,
                          tree=spec_for(rules).decisions, play_tree=play_tree_of(rules.game_def))


def test_host_table_decisions_match_the_table_strategy(harness, synthetic_tables):
    """The kernel reads TableStrategy.kernel_tables() as the JAX table strategy reads its own."""
    from gpusim.config import load_config

    strat = _synthetic_strategy(synthetic_tables)
    cards = random_rounds(100_000, seed=98)
    got = _host_paths(harness, cb.STRAT_TABLE, strat.kernel_tables(), cards, "strategy")
    want = _python_paths(load_config("ultimate_holdem"), strat, cards)
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, f"{bad.size} rounds differ, e.g. cards {cards[bad[0]]}"


# --- whole chunks ---------------------------------------------------------------------------


def _host_chunk(exe: Path, code: int, tables: dict, tag: str, seed: int, first: int, n: int,
                qualifier: int) -> np.ndarray:
    out = exe.parent / "chunk.bin"
    _run(exe, "chunk", code, _table_dir(exe, tables, tag), seed, first, n, qualifier, out)
    bins = np.fromfile(out, np.uint64).astype(np.int64)
    assert len(bins) == N_BINS and bins.sum() == n
    return bins


def test_host_chunk_equals_the_numpy_pipeline(harness, synthetic_tables):
    """Deal (the numpy dealer), table lookup and code, across the counter's high word."""
    seed, first, n = 2**64 - 3, 2**32 - 10_000, 20_000
    got = _host_chunk(harness, cb.STRAT_TABLE, synthetic_tables, "synthetic", seed, first, n,
                      STANDARD)  # fmt: skip
    cards = np.asarray(deal_numpy(seed, first, n, 9), np.int32)
    codes = _reference_codes(cards, _numpy_table_paths(synthetic_tables, cards), STANDARD)
    np.testing.assert_array_equal(got, np.bincount(codes, minlength=N_BINS))


# One case in CI (the JAX runner's compile is most of a case's time, about 15 s cold); the
# table lookups are compared with the JAX table strategy round by round above.
_SLOW = pytest.mark.slow
CHUNKS = [
    # strategy, seed, first round, rounds
    ("basic", 11, 0, 20_000),
    pytest.param("always-check", 2**64 - 1, 2**33 + 5, 20_000, marks=_SLOW),
    pytest.param("synthetic-tables", 7, 2**32 - 9_000, 20_000, marks=_SLOW),
    # where the exact solver's tables are stored
    pytest.param("optimal", 5, 1_000, 20_000, marks=_SLOW),
]


@pytest.mark.parametrize(("strategy", "seed", "first", "n"), CHUNKS)
def test_host_chunk_counts_equal_jax_chunk(harness, synthetic_tables, strategy, seed, first, n):
    from gpusim.compute.chunks import ChunkRunner
    from gpusim.config import load_config
    from gpusim.games.strategy_registry import get_strategy

    rules = load_config("ultimate_holdem")
    # every shipped strategy must be there: a missing one fails, it does not skip
    strat = (_synthetic_strategy(synthetic_tables) if strategy == "synthetic-tables"
             else get_strategy(strategy, rules))  # fmt: skip
    tables = strat.kernel_tables() if hasattr(strat, "kernel_tables") else {}
    code = cb.STRAT_TABLE if tables else _rule_code(rules, strat)
    qualifier = int(KERNEL.head_args(rules)[0])
    bins = _host_chunk(harness, code, tables, strategy, seed, first, n, qualifier)
    joint, _ = remap_codes(code_map(rules), bin_layout(rules).n_bins, bins, [])
    got = cb.counts_from_bins(rules, joint, [], first, n, 0)
    assert got == ChunkRunner(rules, strat)(seed, first, n, 0)


# --- the spec and the CUDA compile ----------------------------------------------------------


def test_kernel_spec_matches_the_kernel_signature():
    """The KernelSpec's head and tables are the kernel's parameters, in order."""
    text = (KERNELS / "ultimate_holdem.cu").read_text()
    sig = re.search(r"gpusim_ultimate_holdem_chunk\((.*?)\)\s*\{", text, re.S).group(1)
    params = [p.split()[-1].lstrip("*") for p in sig.split(",")]
    assert params[:4] == ["k0", "k1", "first_round", "n_rounds"]
    assert params[4:] == ["qualifier", *KERNEL.tables, "hist"]
    assert KERNEL.source == "ultimate_holdem" and not KERNEL.royal_buffer
    assert set(KERNEL.tables) == set(TABLE_DTYPES)


def test_kernel_head_is_the_qualifier_and_the_spec_carries_the_kernel():
    from itertools import combinations

    from gpusim.config import load_config
    from gpusim.games import spec_for
    from gpusim.games.holdem.play_once_described import qualifier_rank

    # every rank a best five can have: a threshold is a set of qualifying hands
    ranks = np.unique(evaluate_np(np.array(list(combinations(range(52), 5)), np.int32)))
    for name, rules in _uth_rules().items():
        head = KERNEL.head_args(rules)
        assert head == (qualifier_rank(rules.game_def),), name
        assert head[0].dtype == np.uint32  # the kernel's unsigned int
        # the hands that qualify are the ones the rules' text names (the hand-written
        # threshold, independently of the description's)
        hand, rank = rules.to_dict()["rules"]["dealer_qualifier"].values()
        want = qualifier_threshold(Qualifier(hand, RANKS.index(rank)))
        np.testing.assert_array_equal(ranks >= head[0], ranks >= want, err_msg=name)
        assert spec_for(rules).kernel == KERNEL
    # a described game of another tree has no kernel: it runs through jax-gpu
    assert spec_for(load_config("ultimate_holdem_3x_open")).kernel is None


def _nvcc():
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        pytest.skip("nvcc is not installed")
    return nvcc


def test_kernel_compiles_with_nvcc(tmp_path):
    nvcc = _nvcc()
    # each strategy folds to different code: the rule lists (always-check is basic's river
    # rule) and the table lookup
    for code in (cb.STRAT_BASIC, cb.STRAT_TABLE):
        proc = subprocess.run(
            [nvcc, "-x", "cu", "-std=c++17", f"-I{KERNELS}", f"-DGPUSIM_STRATEGY={code}", "-c",
             str(KERNELS / "ultimate_holdem.cu"), "-o", str(tmp_path / f"uth{code}.o")],
            capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        assert "warning" not in proc.stderr.lower(), proc.stderr


def test_nvrtc_source_is_self_contained():
    """The backend's inlined source names no header (NVRTC compiles it:
    tests/test_nvrtc_kernels.py)."""
    text = cb.kernel_source("ultimate_holdem")
    assert '#include "' not in text and "gpusim_ultimate_holdem_chunk" in text
