"""The street-bets kernel (``kernels/holdem_bonus.cu``) serving a described game of its shape
(gpusim/games/holdem/streets_kernel.py), host-compiled as in ``test_kernels_settle_host.py``
(the harness of tests/_host_build.py):

- a whole chunk of Texas Hold'em Bonus (both shipped configs: the game is described), the kernel
  playing the described rule strategies it computes itself and the exact tables, its codes sent
  through :func:`code_map` to the description's joint codes, gives the JAX runner's counts
  exactly, Jackpot royals and the meter included;
- the kernel's basic strategy takes the described ``basic`` rules' action at every point;
- :func:`rule_code` knows the kernel's rule lists only; :func:`code_map` refuses, in one line,
  a description whose Bonus lines part hands the kernel merges; a description not of the shape
  gets no kernel.
"""

from __future__ import annotations

import subprocess
import zlib
from pathlib import Path

import numpy as np
import pytest
from _host_build import HARNESS, build_harness, host_decide, random_rounds, table_dir

from gpusim.compute.backends import cupy_rounds as cb
from gpusim.config import load_config
from gpusim.games.strategy_registry import get_strategy

DESCRIBED = Path(__file__).resolve().parents[1] / "configs" / "holdem_bonus.toml"
_GAMES = ("thb_kqs", "thb_not_streets")


@pytest.fixture(scope="module", autouse=True)
def _forget_described_thb():
    """Loading the variants registers their games in this process; the registry lists the
    shipped games only once this module is done (docs/config.md is made from it)."""
    yield
    from gpusim.games import SPECS

    for game in _GAMES:
        SPECS._all().pop(game, None)  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def harness(tmp_path_factory) -> Path:
    # the kernels' host harness (tests/_host_build.py; its thb modes)
    return build_harness(tmp_path_factory, "streets_host", HARNESS)


def _rules(config: str):
    return load_config(config)


def _kernel_chunk(exe: Path, rules, spec, seed, first, n, meter):
    """The kernel's loop on the host, its codes sent to the description's: ChunkCounts."""
    from gpusim.compute.bins import bin_layout, remap_codes
    from gpusim.games.holdem.streets_kernel import KERNEL, code_map

    (flags,) = KERNEL.head_args(rules)
    work = exe.parent
    subprocess.run(
        [str(exe), "chunk", "thb", str(spec.code), str(table_dir(exe, spec)), str(seed),
         str(first), str(n), str(int(flags)), str(work / "chunk.bin")],
        check=True, timeout=300,
    )  # fmt: skip
    raw = np.fromfile(work / "chunk.bin", np.uint64)
    n_max = 52 * 21 * 10
    bins, k = raw[:n_max].astype(np.int64), int(raw[n_max])
    to_joint = code_map(rules)
    assert not bins[len(to_joint):].any()
    hits = [(w >> 16, w & 0xFFFF) for w in raw[n_max + 1 : n_max + 1 + k].tolist()]
    joint, hits = remap_codes(to_joint, bin_layout(rules).n_bins, bins[: len(to_joint)], hits)
    return cb.counts_from_bins(rules, joint, hits, first, n, meter)


def _shipped_tables(rules):
    """The game's ``optimal``, from the shipped config's decision tables (bit for bit the ones
    its description solves to, tests/test_described_holdem_bonus_exact.py): nothing to solve in
    a fresh clone."""
    from gpusim.games.described.layout import tree
    from gpusim.games.holdem.streets_tables import StreetsTables
    from gpusim.strategy.tables import stored_tables

    shipped = stored_tables(rules)
    return StreetsTables(name="optimal", game=rules.game,
                         tables=StreetsTables.pack("optimal", shipped), tree=tree(rules.game_def))


def _jax_chunk(rules, strat, seed, first, n, meter):
    from gpusim.compute.chunks import ChunkRunner

    return ChunkRunner(rules, strat)(seed, first, n, meter)


CHUNKS = [
    # shipped config, strategy, seed, first round, rounds, meter (1/10,000
    # units), whether the window holds a Jackpot royal (hole cards + flop: seed 5 deals them at
    # rounds 525,824 and 785,308, tests/test_reduce.py)
    ("holdem_bonus", "always-play", 5, 520_000, 20_000, 55_555, True),
    ("holdem_bonus", "basic", 5, 780_000, 20_000, 987_654_321, True),
    ("holdem_bonus", "optimal", 5, 510_000, 30_000, 0, True),
    ("holdem_bonus_classic", "optimal", 2**64 - 1, 2**33 + 5, 20_000, 0, False),
    ("holdem_bonus_classic", "always-play", 7, 2**32 - 9_000, 20_000, 0, False),
]


@pytest.mark.parametrize(("config", "strategy", "seed", "first", "n", "meter", "royal"), CHUNKS)
def test_host_chunk_through_the_code_map_equals_the_described_jax_chunk(
        harness, config, strategy, seed, first, n, meter, royal):
    rules = _rules(config)
    strat = _shipped_tables(rules) if strategy == "optimal" else get_strategy(strategy, rules)
    spec = cb.strategy_spec(rules, strat)
    # the rule lists by the kernel's own code, the exact tables by their lookup
    assert spec.code == {"always-play": cb.STRAT_ALWAYS, "basic": cb.STRAT_BASIC,
                         "optimal": cb.STRAT_TABLE}[strategy]
    want = _jax_chunk(rules, strat, seed, first, n, meter)
    assert bool(want[0].jackpot_hits) == royal  # the window is what it is picked for
    assert _kernel_chunk(harness, rules, spec, seed, first, n, meter) == want


@pytest.mark.parametrize("config", ["holdem_bonus", "holdem_bonus_classic"])
def test_kernel_basic_takes_the_described_basic_rules_action(harness, config):
    """``gpusim_thb_basic`` (kernels/strategy_holdem_bonus.cuh) is, round by round, the described
    ``basic`` rules :func:`rule_code` sends to it."""
    from gpusim.games import spec_for
    from gpusim.strategy.tree import taken

    rules = _rules(config)
    strat = get_strategy("basic", rules)
    spec = cb.strategy_spec(rules, strat)
    n = 100_000
    cards = random_rounds(n, seed=zlib.crc32(f"{config}/basic".encode()))
    got = host_decide(harness, "thb", spec, cards)
    want = taken(spec_for(rules).decisions,
                 {k: np.asarray(v).astype(np.int32) for k, v in strat.decide(cards).items()})
    for i, point in enumerate(("flop", "turn", "river")):
        bad = np.flatnonzero(got[:, i] != (want[point] == 1))
        assert bad.size == 0, f"{point}: {bad.size} rounds differ, e.g. cards {cards[bad[0]]}"
        assert 0 < got[:, i].sum() < n


def test_rule_code_knows_the_kernels_rule_lists_only():
    from gpusim.games.holdem.streets_kernel import rule_code

    rules = _rules("holdem_bonus")
    codes = {s: rule_code(rules, get_strategy(s, rules))
             for s in ("always-play", "basic", "win-over-lose", "win-over-half-ev-rules")}
    assert codes == {"always-play": 0, "basic": 1, "win-over-lose": None,
                     "win-over-half-ev-rules": None}


def _variant(tmp_path: Path, name: str, edits: list[tuple[str, str]]):
    # the config's name and its game's
    text = DESCRIBED.read_text().replace('name = "holdem_bonus"', f'name = "{name}"')
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    return load_config(path)


def test_code_map_refuses_bonus_lines_the_kernel_merges(tmp_path):
    """A Bonus line of KQs: the kernel counts KQs with every other hand of no line of its own."""
    from gpusim.games import spec_for
    from gpusim.games.holdem.streets_kernel import KERNEL, code_map

    rules = _variant(tmp_path, "thb_kqs", [
        ("TT_to_22 = 3\n", "TT_to_22 = 3\nKQs = 2\n"),
        ('TT_to_22 = { hands = "22-TT" }\n', 'TT_to_22 = { hands = "22-TT" }\n'
                                              'KQs = { hands = "KQs" }\n'),
        ('"AQo_AJo", "TT_to_22"]', '"AQo_AJo", "TT_to_22", "KQs"]'),
    ])
    assert spec_for(rules).kernel is KERNEL  # the shape is the kernel's; its Bonus lines are not
    with pytest.raises(ValueError) as exc:
        code_map(rules)
    msg = str(exc.value)
    assert "\n" not in msg and "'bonus'" in msg and "KQs" in msg and "--backend jax-gpu" in msg


def test_kernel_of_serves_the_shape_only(tmp_path):
    from gpusim.games import spec_for
    from gpusim.games.holdem.streets_kernel import KERNEL, kernel_of

    for config in ("holdem_bonus", "holdem_bonus_classic"):
        assert kernel_of(_rules(config).game_def) is KERNEL
    # a River bet of 2 x the Ante: not Texas Hold'em Bonus's tree (nor solved: no optimal)
    rules = _variant(tmp_path, "thb_not_streets", [
        ('bet = "river", times = 1 }', 'bet = "river", times = 2 }'),
        ('default_strategy = "optimal"', 'default_strategy = "basic"'),
        ('table = "win-over-half-ev"', 'flop = [{ action = "bet" }]\nturn = [{ action = "bet" }]'
                                       '\nriver = [{ action = "bet" }]'),
    ])
    assert kernel_of(rules.game_def) is None
    assert spec_for(rules).kernel is None


def test_kernel_head_flags():
    from gpusim.games.holdem.streets_kernel import kernel_head

    # 1 the Bonus, 2 the Jackpot (hole cards + flop: no 4); the classic config has no Jackpot
    assert int(kernel_head(_rules("holdem_bonus"))[0]) == 3
    assert int(kernel_head(_rules("holdem_bonus_classic"))[0]) == 1
