"""The Three Card Poker ranking: gpusim.evaluator.evaluate_three and its CUDA twin
(gpusim_evaluate3 in kernels/evaluate.cuh).

All 22,100 three-card hands are ranked and checked against a brute force written here and
against pokerkit's Rhode Island hold'em lookup (the same 3-card ranking, an independent
implementation): same order, same ties, same categories. The header compiled for the host (g++)
must match the JAX ranks bit for bit, and it must compile as CUDA with nvcc.
"""

from __future__ import annotations

import itertools
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import jax.numpy as jnp
import numpy as np
import pytest
from _host_build import KERNELS, build_harness

from gpusim.cards import RANKS, SUITS, parse_cards
from gpusim.evaluator import (
    THREE_CARD_CATEGORY_NAMES,
    evaluate_three,
    evaluate_three_np,
    hand_category_three,
)

ALL_HANDS = np.array(list(itertools.combinations(range(52), 3)), np.int32)
KNOWN_COUNTS = {"straight_flush": 48, "three_of_a_kind": 52, "straight": 720, "flush": 1_096,
                "pair": 3_744, "high_card": 16_440}  # fmt: skip


@pytest.fixture(scope="module")
def ranks() -> np.ndarray:
    return evaluate_three_np(ALL_HANDS)


def reference_key(hand) -> tuple[int, ...]:
    """Plain-Python Three Card Poker key: (category, ranks that decide, highest first)."""
    r = sorted((c >> 2 for c in hand), reverse=True)
    flush = len({c & 3 for c in hand}) == 1
    distinct = len(set(r))
    top = None
    if distinct == 3 and r[0] - r[2] == 2:
        top = r[0]
    elif r == [12, 1, 0]:  # A-2-3: the ace plays low, the three is the top card
        top = 1
    if top is not None and flush:
        return (5, top)
    if distinct == 1:
        return (4, r[0])
    if top is not None:
        return (3, top)
    if flush:
        return (2, *r)
    if distinct == 2:  # the middle of three sorted ranks is the pair's
        pair = r[1]
        return (1, pair, r[0] if r[2] == pair else r[2])
    return (0, *r)


def dense(values) -> np.ndarray:
    """Each value's position among the distinct values, ascending: equal dense arrays mean the
    same order and the same ties."""
    return np.unique(np.asarray(values), return_inverse=True)[1].reshape(-1)


def test_all_hands_match_the_brute_force(ranks):
    keys = [reference_key(h) for h in ALL_HANDS.tolist()]
    order = {k: i for i, k in enumerate(sorted(set(keys)))}
    assert np.array_equal(dense(ranks), np.array([order[k] for k in keys]))
    assert np.array_equal(hand_category_three(ranks), np.array([k[0] for k in keys]))
    assert len(order) == len(np.unique(ranks)) == 741


def test_category_counts(ranks):
    counts = Counter(THREE_CARD_CATEGORY_NAMES[c] for c in hand_category_three(ranks).tolist())
    assert counts == KNOWN_COUNTS
    assert sum(counts.values()) == 22_100 == len(ALL_HANDS)


def test_all_hands_match_pokerkit(ranks):
    """pokerkit ranks Rhode Island hold'em's three-card hands exactly as Three Card Poker
    does (straight flush, trips, straight, flush, pair, high card; A-2-3 the lowest straight)."""
    from pokerkit.lookups import Label, RhodeIslandHoldemLookup

    lookup = RhodeIslandHoldemLookup()
    names = {Label.HIGH_CARD: "high_card", Label.ONE_PAIR: "pair", Label.FLUSH: "flush",
             Label.STRAIGHT: "straight", Label.THREE_OF_A_KIND: "three_of_a_kind",
             Label.STRAIGHT_FLUSH: "straight_flush"}  # fmt: skip
    entries = [lookup.get_entry("".join(RANKS[c >> 2] + SUITS[c & 3] for c in h))
               for h in ALL_HANDS.tolist()]  # fmt: skip
    assert np.array_equal(dense(ranks), dense([e.index for e in entries]))
    cats = hand_category_three(ranks).tolist()
    assert [THREE_CARD_CATEGORY_NAMES[c] for c in cats] == [names[e.label] for e in entries]


def rank_of(text: str) -> int:
    return int(evaluate_three_np(parse_cards(text)))


def category_of(text: str) -> str:
    return THREE_CARD_CATEGORY_NAMES[int(hand_category_three(rank_of(text)))]


def test_hand_built_cases(ranks):
    assert category_of("Ah 2h 3h") == category_of("2h 3h 4h") == "straight_flush"
    assert rank_of("Ah 2h 3h") < rank_of("2h 3h 4h")  # A-2-3 is the lowest straight
    assert rank_of("Ac 2d 3h") < rank_of("2c 3d 4h") < rank_of("Kc Qd Jh") < rank_of("Ac Kd Qh")
    non_flush_straights = ranks[hand_category_three(ranks) == 3]
    assert rank_of("As Kd Qh") == non_flush_straights.max()  # A-K-Q, the top straight
    assert rank_of("As Ks Qs") == ranks.max()  # the best hand
    assert rank_of("Qc 6d 4h") > rank_of("Qs 6h 3d")
    assert rank_of("Qc 6c 4c") > rank_of("Qs 6s 3s")
    assert rank_of("2c 2d 3h") > rank_of("As Kd Jh")  # any pair beats any high card
    assert rank_of("2c 2d 4h") > rank_of("2h 2s 3c")  # the odd card breaks a tie of pairs
    assert rank_of("3c 3d 2h") > rank_of("2h 2s Ac")  # the pair first
    assert rank_of("2c 3c 5c") > rank_of("As Kd Jh") and rank_of("Ac Kc Jc") < rank_of("Ac 2d 3h")
    assert rank_of("2c 2d 2h") > rank_of("As Kd Qh")  # three of a kind beats any straight
    assert rank_of("As Ks Qs") > rank_of("Ac Ad Ah") > rank_of("Kc Kd Kh")
    # Suits never break ties; identical ranks tie.
    assert rank_of("Qc 6d 4h") == rank_of("Qs 6h 4d") and rank_of("Ah 2h 3h") == rank_of("As 2s 3s")


def test_rank_layout():
    def packed(cat: str, primary: int, kickers: int) -> int:
        return THREE_CARD_CATEGORY_NAMES.index(cat) << 27 | primary << 13 | kickers

    assert rank_of("Qc 6d 4h") == packed("high_card", 0, 1 << 10 | 1 << 4 | 1 << 2)
    assert rank_of("2c 2d Ah") == packed("pair", 1 << 0, 1 << 12)
    assert rank_of("Qc 6c 4c") == packed("flush", 0, 1 << 10 | 1 << 4 | 1 << 2)
    assert rank_of("Ac 2d 3h") == packed("straight", 1 << 1, 0)
    assert rank_of("Ac Kd Qh") == packed("straight", 1 << 12, 0)
    assert rank_of("7c 7d 7h") == packed("three_of_a_kind", 1 << 5, 0)
    assert rank_of("Ah 2h 3h") == packed("straight_flush", 1 << 1, 0)


def test_input_kinds_and_checks():
    batch = ALL_HANDS[:8].reshape(2, 4, 3)
    out = evaluate_three(jnp.asarray(batch, jnp.int8))
    assert out.shape == (2, 4) and out.dtype == jnp.uint32
    assert np.array_equal(np.asarray(out), evaluate_three_np(batch))
    assert hand_category_three(out).dtype == jnp.int32
    with pytest.raises(ValueError, match="must hold 3 cards"):
        evaluate_three_np(ALL_HANDS[:, :2])
    with pytest.raises(ValueError, match="dtype"):
        evaluate_three(np.zeros((1, 3), np.float32))
    with pytest.raises(ValueError, match="card code 52"):
        evaluate_three_np([[0, 1, 52]])
    with pytest.raises(ValueError, match="repeats card code 5"):
        evaluate_three_np([[0, 1, 2], [5, 9, 5]])
    assert evaluate_three_np(np.zeros((0, 3), np.int32)).shape == (0,)


HARNESS = r"""
#include <cstdio>
#include <cstring>
#include <vector>
#include "evaluate.cuh"

// usage: harness IN OUT  (IN: n*3 int32 card codes, OUT: n uint32 ranks)
//        harness --categories  (prints the category enum, low to high)
int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--categories") == 0) {
    std::printf("%d %d %d %d %d %d\n", GPUSIM_THREE_CARD_HIGH_CARD, GPUSIM_THREE_CARD_PAIR,
                GPUSIM_THREE_CARD_FLUSH, GPUSIM_THREE_CARD_STRAIGHT,
                GPUSIM_THREE_CARD_THREE_OF_A_KIND, GPUSIM_THREE_CARD_STRAIGHT_FLUSH);
    return 0;
  }
  if (argc != 3) return 2;
  FILE* in = std::fopen(argv[1], "rb");
  if (!in) return 3;
  std::vector<int32_t> cards;
  int32_t buf[4096];
  size_t got;
  while ((got = std::fread(buf, sizeof(int32_t), 4096, in)) > 0) {
    cards.insert(cards.end(), buf, buf + got);
  }
  std::fclose(in);
  const size_t n = cards.size() / 3;
  std::vector<uint32_t> ranks(n);
  for (size_t i = 0; i < n; ++i) {
    const int32_t* c = &cards[i * 3];
    ranks[i] = gpusim_evaluate3(c[0], c[1], c[2]);
  }
  FILE* out = std::fopen(argv[2], "wb");
  if (!out) return 3;
  std::fwrite(ranks.data(), sizeof(uint32_t), n, out);
  std::fclose(out);
  return 0;
}
"""

CUDA_UNIT = r"""
#include "evaluate.cuh"

extern "C" __global__ void gpusim_evaluate3_kernel(const int32_t* cards, uint32_t* ranks, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) ranks[i] = gpusim_evaluate3(cards[3 * i], cards[3 * i + 1], cards[3 * i + 2]);
}
"""


@pytest.fixture(scope="module")
def harness(tmp_path_factory) -> Path:
    return build_harness(tmp_path_factory, "eval3host", HARNESS)


def host_ranks(exe: Path, hands: np.ndarray) -> np.ndarray:
    hands = np.ascontiguousarray(hands, dtype=np.int32)
    inp, out = exe.parent / "in.bin", exe.parent / "out.bin"
    hands.tofile(inp)
    subprocess.run([str(exe), str(inp), str(out)], check=True, timeout=60)
    return np.fromfile(out, dtype=np.uint32)


def test_host_matches_jax_on_all_hands(harness, ranks):
    ours = host_ranks(harness, ALL_HANDS)
    assert np.array_equal(ours, ranks)
    # Card order within a hand does not matter to either.
    assert np.array_equal(host_ranks(harness, ALL_HANDS[:, ::-1]), ranks)


def test_host_categories_match_the_names(harness):
    res = subprocess.run([str(harness), "--categories"], capture_output=True, text=True,
                         check=True, timeout=60)  # fmt: skip
    assert res.stdout.split() == [str(i) for i in range(len(THREE_CARD_CATEGORY_NAMES))]


def test_host_harness_can_fail(harness):
    """The comparison is not vacuous: a changed card changes the host rank."""
    a, b = host_ranks(harness, np.array([parse_cards("Qs Js Ts"), parse_cards("Qs Js 9s")]))
    assert a != b


def test_nvcc_compiles_three_card_evaluator(tmp_path):
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        pytest.skip("nvcc is not installed")
    src = tmp_path / "eval3_unit.cu"
    src.write_text(CUDA_UNIT)
    cmd = [nvcc, "-x", "cu", "-c", f"-I{KERNELS}", str(src), "-o", str(tmp_path / "eval3.o")]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
