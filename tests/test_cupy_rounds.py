"""The CuPy backend counts every chunk exactly as the JAX path does (GPU only).

Each test plays the same rounds through
:func:`gpusim.compute.backends.cupy_rounds.make_chunk_runner` and through the JAX runner
(``gpusim.runs.runner``, on whatever device JAX has) and requires
identical ChunkCounts: net distributions, events, decisions, wagers, moments and Jackpot hits.
Skipped, naming :func:`~gpusim.compute.backends.cupy_rounds.unavailable_reason`, unless the cupy
backend can run. Run by ``benchmarks/gpu_check.sh``, which fails when any test here skips.

polars (used only by the run-folder writer) may be absent on a GPU box; it is then stubbed so
that the runner module imports.
"""

from __future__ import annotations

import numpy as np
import pytest
import thb_reference
from _variants import variant
from thb_reference import thb_all_seven

from gpusim.board_index import board_classes
from gpusim.compute.backends import cupy_rounds as cb
from gpusim.compute.counts import merge_counts
from gpusim.config import load_config
from gpusim.games.strategy_registry import get_strategy

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not cb.available(),
                       reason=f"needs CuPy and an NVIDIA GPU: {cb.unavailable_reason()}"),
]


_forget_all_seven = thb_reference.forget_all_seven  # the fixture


def _jax_counts(rules, strat, seed, first, n, meter):
    from gpusim.compute.chunks import ChunkRunner

    return ChunkRunner(rules, strat)(seed, first, n, meter)


def _both(config, strategy, seed, first, n, meter=0):
    rules = load_config(config) if isinstance(config, str) else config
    strat = get_strategy(strategy, rules)  # every shipped strategy must be there: no skip
    got = cb.make_chunk_runner(rules, strat)(seed, first, n, meter)
    return got, _jax_counts(rules, strat, seed, first, n, meter)


CASES = [
    # config, strategy, seed, first round, rounds
    ("casino_holdem", "basic", 1, 0, 1),
    ("casino_holdem", "basic", 1, 0, 1_000),
    ("casino_holdem", "basic", 1, 12_345, (1 << 20) + 7),
    ("casino_holdem", "optimal", 2, 2**40, 65_537),
    ("casino_holdem", "optimal-main", 3, 0, 100_003),
    ("casino_holdem_evolution", "side-bet-optimal", 4, 77, 100_000),
    ("casino_holdem_evolution", "always-play", 2**64 - 1, 2**32 - 50_000, 100_000),
    ("holdem_bonus", "basic", 5, 0, 1_000),
    ("holdem_bonus", "optimal", 6, 2**33, (1 << 20) + 1),
    ("holdem_bonus", "always-play", 7, 0, 65_536),
    ("holdem_bonus_classic", "win-over-half-ev", 8, 999, 100_000),
    ("holdem_bonus_classic", "basic", 9, 0, 4_097),
    ("ultimate_holdem", "always-check", 10, 0, 100_003),
    ("ultimate_holdem", "basic", 11, 2**32 - 50_000, 100_000),
    ("ultimate_holdem", "optimal", 12, 2**40, (1 << 20) + 3),
    ("ultimate_holdem_must_beat", "optimal", 15, 999, 100_000),
]


@pytest.mark.parametrize(("config", "strategy", "seed", "first", "n"), CASES)
def test_cupy_counts_equal_jax(config, strategy, seed, first, n):
    got, want = _both(config, strategy, seed, first, n, meter=31_415)
    assert got == want


def test_uth_tables_equal_jax_on_random_tables():
    """UTH's table path on random decision tables: Play 3x occurs, which the optimal tables
    never choose."""
    from gpusim.games import spec_for
    from gpusim.games.holdem.play_once_shape import play_tree_of
    from gpusim.games.holdem.play_once_tables import PlayOnceTables

    rng = np.random.default_rng(20)
    tables = {"preflop": rng.choice(3, 169, p=[0.5, 0.1, 0.4]).astype(np.uint8),
              "flop": np.packbits(rng.random(board_classes(3).n_classes * 1326) < 0.3),
              "river": np.packbits(rng.random(board_classes(5).n_classes * 1326) < 0.6)}
    rules = load_config("ultimate_holdem")
    strat = PlayOnceTables(name="random", game="ultimate_holdem", tables=tables,
                           tree=spec_for(rules).decisions, play_tree=play_tree_of(rules.game_def))
    seed, first, n = 12, 2**40 - 100_000, (1 << 20) + 3
    got = cb.make_chunk_runner(rules, strat)(seed, first, n, 0)
    assert got == _jax_counts(rules, strat, seed, first, n, 0)


def test_uth_dealer_qualifier_variant_equals_jax():
    """The kernel takes the dealer's qualifying rank from the rules (here a pair of jacks)."""
    rules = variant("ultimate_holdem", {"rules.dealer_qualifier.hand": "pair",
                                        "rules.dealer_qualifier.rank": "J"})
    got, want = _both(rules, "basic", 13, 777, 200_000)
    assert got == want


def test_jackpot_royals_and_meter_equal_jax():
    """Seven-card Jackpot hand: ~30 royal hits in 2^20 rounds, the meter restarting each time."""
    rules = thb_all_seven()
    got, want = _both(rules, "basic", 4, 0, 1 << 20, meter=987_654_321)
    assert len(want[0].jackpot_hits) >= 10
    assert got == want


def test_royal_buffer_overflow_reruns(monkeypatch):
    """A royal buffer of one slot overflows; the launch is rerun and the counts stay exact."""
    monkeypatch.setattr(cb, "ROYAL_CAP_BASE", 1)
    monkeypatch.setattr(cb, "ROYAL_CAP_ROUNDS", 1 << 40)
    rules = thb_all_seven()
    got, want = _both(rules, "basic", 4, 118_000, 14_000, meter=5)
    assert len(want[0].jackpot_hits) >= 2
    assert got == want


def test_chunk_split_into_launches(monkeypatch):
    """A chunk longer than one launch is split; offsets of later launches are kept."""
    monkeypatch.setattr(cb, "_MAX_LAUNCH_ROUNDS", 9_973)
    rules = load_config("holdem_bonus")
    got, want = _both(rules, "always-play", 8, 40_000, 8_000 + 9_973 * 2)
    assert want[0].jackpot_hits  # seed 8 has a hole-and-flop royal near round 43,800
    assert got == want


def test_chunking_does_not_change_totals():
    rules = load_config("casino_holdem")
    run = cb.make_chunk_runner(rules, get_strategy("basic", rules))
    whole, _ = run(11, 0, 300_000, 0)
    parts = [run(11, s, n, 0)[0] for s, n in ((0, 100_000), (100_000, 150_001), (250_001, 49_999))]
    assert merge_counts(parts) == whole


def test_device_name_and_availability():
    assert cb.available()
    assert isinstance(cb.device_name(), str) and cb.device_name()
