"""The convergence checkpoints (``progress``) are the same whichever reduction path counts a
chunk: the device histograms (priced linearly per batch) and the host reference."""

from __future__ import annotations

import pytest

from gpusim.compute.chunks import ChunkRunner
from gpusim.config import load_config
from gpusim.games.strategy_registry import get_strategy


@pytest.mark.parametrize("config", ["holdem_bonus", "casino_holdem"])
def test_device_and_host_paths_give_identical_progress(config):
    rules = load_config(config)
    strategy = get_strategy("always-play", rules)
    # an unaligned start, several batches, and (Texas Hold'em Bonus) Jackpot royals inside
    first, n, meter = 400_001, 400_000, 123_456_789  # seed 20261130: 3 royals
    kwargs = {"batch": 65_536}
    dev, meter_dev = ChunkRunner(rules, strategy, device_reduce=True, **kwargs)(
        20261130, first, n, meter)
    host, meter_host = ChunkRunner(rules, strategy, device_reduce=False, **kwargs)(
        20261130, first, n, meter)
    assert meter_dev == meter_host
    assert dev.wagers == host.wagers
    assert dev.progress == host.progress
    ends = [end for end, _ in dev.progress]
    assert ends[-1] == first + n and all(e % 65_536 == 0 for e in ends[:-1])
    if config == "holdem_bonus":
        assert dev.jackpot_hits, "pick a range with at least one Jackpot royal"
