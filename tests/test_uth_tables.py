"""Ultimate Texas Hold'em's table strategy reads the shipped decision tables at the situation's
suit class: its decisions on random rounds equal the tables looked up through
:func:`gpusim.board_index.situation_class` (brute-force canonical classes), at all three points."""

from __future__ import annotations

import numpy as np

from gpusim.board_index import situation_class
from gpusim.cards import hand_class_index
from gpusim.config import load_config
from gpusim.games.strategy_registry import get_strategy
from gpusim.strategy.tables import stored_tables


def test_optimal_reads_every_point_at_its_situation_class():
    rules = load_config("ultimate_holdem")
    rng = np.random.default_rng(0)
    cards = np.argsort(rng.random((4096, 52)), axis=1)[:, :9].astype(np.int32)
    got = {k: np.asarray(v) for k, v in get_strategy("optimal", rules).decide(cards).items()}
    tables = stored_tables(rules)
    pre = np.argmax(tables["preflop/optimal"], axis=1)[hand_class_index(cards[:, 0],
                                                                        cards[:, 1])]
    np.testing.assert_array_equal(got["preflop"], pre)
    for point, board in (("flop", cards[:, 4:7]), ("river", cards[:, 4:9])):
        cls, hole = situation_class(cards[:, :2], board)
        np.testing.assert_array_equal(got[point].astype(bool),
                                      tables[f"{point}/optimal"][cls, hole], err_msg=point)
        assert 0 < got[point].mean() < 1  # both answers occur
