"""The device (joint-code) chunk reduction equals the host reference reduction, count for count."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from gpusim.compute.chunks import BP, SHORT_BATCH_MIN, ChunkRunner, reduce_host
from gpusim.config import load_config
from gpusim.dealing import deal
from gpusim.games.strategy_registry import get_strategy


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


ROYAL_CHUNK = (500_000, 294_336)
"""(first round, rounds): a chunk of seed 5 with two Jackpot royals (hole + flop), at rounds
525,824 and 785,308; with 2^14-round batches its first and last batches are short, both of 7,904
rounds."""


@pytest.mark.parametrize(
    "config, strategy",
    [
        ("casino_holdem", "basic"),
        ("casino_holdem_evolution", "always-play"),
        ("holdem_bonus", "basic"),
        ("holdem_bonus_classic", "always-play"),
        ("ultimate_holdem_must_beat", "always-check"),
    ],
)
def test_device_equals_host(config, strategy):
    (dev, m_dev), (host, m_host) = _both(config, strategy, 3, 1000, 60_000, 7 * BP)
    assert m_dev == m_host
    assert dataclasses.asdict(dev) == dataclasses.asdict(host)


def test_device_equals_host_with_jackpot_royals():
    # seed 5 deals Jackpot royals (hole + flop) at rounds 525,824 and 785,308
    (dev, m_dev), (host, m_host) = _both("holdem_bonus", "always-play", 5, *ROYAL_CHUNK, 0)
    assert len(host.jackpot_hits) == 2
    assert dev.jackpot_hits == host.jackpot_hits
    assert m_dev == m_host
    assert dataclasses.asdict(dev) == dataclasses.asdict(host)
    assert np.all([m > 0 for _, m in dev.jackpot_hits])


def test_pipelined_chunk_equals_host_batch_by_batch(monkeypatch):
    # Several batches in flight, Jackpot royals in two different batches (rounds 525,824 and
    # 785,308 of seed 5), a short first and a short last batch: one chunk's counts and meter
    # must equal the host reference reduction of the same rounds. The smallest batch size
    # deals every batch, the short ones too, at one size: one program to compile, not three;
    # the two short batches are of one length, so the exact recount below traces two batch
    # lengths, not three.
    rules = load_config("holdem_bonus")
    strategy = get_strategy("always-play", rules)
    (first, n), meter = ROYAL_CHUNK, 3 * BP
    runner = ChunkRunner(rules, strategy, batch=SHORT_BATCH_MIN)
    advanced = []
    got, m_got = runner(5, first, n, meter, advance=advanced.append)
    # batches end on multiples of the batch size (500,000 = 30 x 16,384 + 8,480)
    assert advanced == [16_384 - 8_480] + [16_384] * 17 + [16_384 - 8_480]
    assert sum(advanced) == n
    assert len({start // SHORT_BATCH_MIN for start in (525_824, 785_308)}) == 2
    assert [end for end, _ in got.progress] == [
        first + sum(advanced[: i + 1]) for i in range(len(advanced))]
    got.progress = []  # the host reference records no checkpoints
    cards = deal(5, first, n, 9)
    decisions, s = runner.step(cards)
    want, m_want = reduce_host(rules, decisions, s, first, n, meter)
    assert len(want.jackpot_hits) == 2 and m_got == m_want
    assert dataclasses.asdict(got) == dataclasses.asdict(want)
    # a batch with more royals than the device buffer holds: the chunk is recounted exactly
    monkeypatch.setattr(type(runner.reducer), "fits", lambda self, res: False)
    again, m_again = runner(5, first, n, meter)
    again.progress = []
    assert m_again == m_want and dataclasses.asdict(again) == dataclasses.asdict(want)


def test_short_batches_share_a_few_compiled_sizes():
    # every batch of every chunking is dealt at a power of two from 2^14 to the full batch (each
    # size is a program to compile), never below its own rounds, and wastes at most half of
    # them above 2^14 rounds
    rules = load_config("holdem_bonus")
    runner = ChunkRunner(rules, get_strategy("always-play", rules))
    sizes = set()
    for n in (1, 1000, 7777, 16_384, 16_385, 50_000, 100_000, 262_143, 600_000, 4 << 20):
        for first in (0, 12_345, 262_000, 2**48 - n):
            plan = runner._plan(first, n)
            assert [(s, k) for s, k, _ in plan] == runner._batches(first, n)
            for _, k, size in plan:
                assert k <= size and (size < 2 * k or size == SHORT_BATCH_MIN
                                      or runner.batch - k <= n // 8)
                sizes.add(size)
    assert sizes == {1 << b for b in range(14, 19)} and runner.batch == 1 << 18


def test_the_next_chunk_dispatched_early_changes_nothing():
    # Chunks counted with ``next_chunk`` (its first batches queued before this chunk's last
    # ones are collected) equal chunks counted without, counts, meter and checkpoints alike;
    # the Jackpot royals of seed 5 (rounds 525,824 and 785,308) fall in the second chunk. A
    # hint the caller does not follow is dropped. Every batch is dealt at the one size that
    # test_pipelined_chunk_equals_host_batch_by_batch compiles too (2^14; the first chunk's last
    # batch, 8,480 rounds, is dealt at 2^14 and masked).
    rules = load_config("holdem_bonus")
    strategy = get_strategy("always-play", rules)
    plan = [(0, 500_000), (500_000, 300_000), (800_000, 13_568)]
    plain = ChunkRunner(rules, strategy, batch=SHORT_BATCH_MIN)
    early = ChunkRunner(rules, strategy, batch=SHORT_BATCH_MIN)
    m_plain = m_early = 3 * BP
    for i, (first, n) in enumerate(plan):
        want, m_plain = plain(5, first, n, m_plain)
        hint = plan[i + 1] if i + 1 < len(plan) else None
        got, m_early = early(5, first, n, m_early, next_chunk=hint)
        assert early._ahead or hint is None  # the hint was acted on
        assert m_early == m_plain and got.progress == want.progress
        assert dataclasses.asdict(got) == dataclasses.asdict(want)
    first, n = plan[1]
    early(5, *plan[0], 3 * BP, next_chunk=(0, 24_288))
    got, _ = early(5, first, n, m_plain)
    again, _ = plain(5, first, n, m_plain)
    assert dataclasses.asdict(got) == dataclasses.asdict(again)


def test_compiled_batches_equal_host_for_a_code_that_reads_the_category():
    """Ultimate Texas Hold'em's joint code reads the player's category (``JointCode.reads``):
    the compiled batch program must keep it, and its chunk equals the host reference. A cheap
    rule list (every action of every point is taken) keeps the compile short."""
    import jax.numpy as jnp

    from gpusim.games import spec_for
    from gpusim.strategy import PointRules, RuleStrategy

    rules = load_config("ultimate_holdem")
    TREE = spec_for(rules).decisions  # noqa: N806 - the game's tree, as the strategies name it
    fns = {"preflop": lambda s: jnp.select([s[:, 0] >> 2 >= 10, s[:, 0] >> 2 == 9], [2, 1], 0),
           "flop": lambda s: s[:, 2] >> 2 >= 6, "river": lambda s: (s[:, 6] & 1) == 0}
    strategy = RuleStrategy("mixed", rules.game, PointRules(TREE, fns))
    runner = ChunkRunner(rules, strategy, batch=1 << 14)
    got, _ = runner(3, 1000, 40_000, 0)
    assert runner.program(1 << 14) is not None  # the compiled path, not the host fallback
    got.progress = []  # the host reference records no checkpoints
    decisions, s = runner.step(deal(3, 1000, 40_000, 9))
    want, _ = reduce_host(rules, decisions, s, 1000, 40_000, 0)
    assert all(len(v) == len(p.actions) and all(v.values()) for p, v in
               zip(TREE, want.decisions.values(), strict=True))
    assert dataclasses.asdict(got) == dataclasses.asdict(want)
