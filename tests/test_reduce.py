"""The device (joint-code) chunk reduction equals the host reference reduction, count for count."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from gpusim.config import load_config
from gpusim.deal import deal
from gpusim.sim.runner import BP, ChunkRunner, reduce_host
from gpusim.strategy import get_strategy


def _both(config: str, strategy: str, seed: int, first: int, n: int, meter: int):
    rules = load_config(config)
    runner = ChunkRunner(rules, get_strategy(strategy, rules))
    cards = deal(seed, first, n, 9)
    decisions, s = runner.step(cards)
    res = runner.reducer.device(decisions, s)
    assert runner.reducer.fits(res)
    dev = runner.reducer.finish(res, n, first, meter)
    host = reduce_host(rules, decisions, s, first, n, meter)
    return dev, host


@pytest.mark.parametrize(
    "config, strategy",
    [
        ("casino_holdem", "basic"),
        ("casino_holdem_evolution", "always-play"),
        ("holdem_bonus", "basic"),
        ("holdem_bonus_classic", "always-play"),
    ],
)
def test_device_equals_host(config, strategy):
    (dev, m_dev), (host, m_host) = _both(config, strategy, 3, 1000, 60_000, 7 * BP)
    assert m_dev == m_host
    assert dataclasses.asdict(dev) == dataclasses.asdict(host)


def test_device_equals_host_with_jackpot_royals():
    # seed 5 deals Jackpot royals (hole + flop) at rounds 525,824 and 785,308
    (dev, m_dev), (host, m_host) = _both("holdem_bonus", "always-play", 5, 500_000, 300_000, 0)
    assert len(host.jackpot_hits) == 2
    assert dev.jackpot_hits == host.jackpot_hits
    assert m_dev == m_host
    assert dataclasses.asdict(dev) == dataclasses.asdict(host)
    assert np.all([m > 0 for _, m in dev.jackpot_hits])
