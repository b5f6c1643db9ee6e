"""The CUDA kernels' per-round logic compiled for the host (g++), checked against the JAX path.

A C++ harness (tests/_host_build.py ``HARNESS``, built in a temporary folder; skipped without
g++) includes the same headers as ``kernels/casino_holdem.cu`` and ``kernels/holdem_bonus.cu``
(the street-bets kernel, which plays the described Texas Hold'em Bonus) and

- settles given rounds and decisions (events, stakes, nets): compared with the description's
  :func:`gpusim.games.settle` on random rounds of every shipped config and rule variant (the
  kernel's events matched to the description's by name), and with the hand-worked scenario
  hands of ``test_scenarios_*.py``;
- decides given rounds: compared with every strategy the CuPy backend supports, and the
  street-bets kernel's own rule lists with the hand-written strategies (tests/thb_reference.py);
- plays a whole chunk with the kernel's per-round function and histogram: reduced by
  :func:`gpusim.compute.backends.cupy_rounds.counts_from_bins` it must equal the JAX runner's
  ChunkCounts (:mod:`gpusim.runs.runner`; Jackpot royal rounds and the meter too).

Both kernels are also compile-checked with ``nvcc -x cu -c`` (skipped without nvcc), as files
and as the self-contained source the backend hands to NVRTC (NVRTC itself, with the headers
CuPy uses: ``tests/test_nvrtc_kernels.py``).
"""

from __future__ import annotations

import shutil
import subprocess
import zlib
from pathlib import Path

import numpy as np
import pytest
import thb_reference
from _host_build import HARNESS, KERNELS, build_harness, host_decide, random_rounds, table_dir
from _variants import variant
from thb_reference import thb_all_seven

from gpusim.cards import CATEGORY_KEYS
from gpusim.compute.backends import cupy_rounds as cb
from gpusim.config import load_config
from gpusim.games import bets, event_names, event_returns, settle, spec_for
from gpusim.games.holdem.call_once_shape import qualifier_rank
from gpusim.games.holdem.streets_kernel import BONUS_CLASSES
from gpusim.games.strategy_registry import get_strategy
from gpusim.strategy import StrategyError

CONFIGS = {n: load_config(n) for n in ("casino_holdem", "casino_holdem_evolution",
                                       "holdem_bonus", "holdem_bonus_classic")}
CH, CH_EVO, THB, THB_CLASSIC = CONFIGS.values()


_forget_all_seven = thb_reference.forget_all_seven  # the fixture


# Rule variants beyond the shipped configs: other stakes, no side bet, the flush Ante line
# (the Ante's straight line paying 0), the seven-card Jackpot hand, a stricter dealer qualifier.
VARIANTS = {
    "ch_stakes_3_2": lambda: variant("casino_holdem", {"stakes.ante": 3, "stakes.aa_bonus": 2}),
    "ch_no_aa": lambda: variant("casino_holdem", {"stakes.aa_bonus": 0}),
    "ch_qualifier_jacks": lambda: variant("casino_holdem", {"rules.dealer_qualifier.rank": "J"}),
    "thb_flush_ante": lambda: variant("holdem_bonus", {"paytables.ante.straight": 0}),
    "thb_all_seven": thb_all_seven,
    "thb_stakes_2_3_5": lambda: variant("holdem_bonus", {"stakes.ante": 2, "stakes.bonus": 3,
                                                         "stakes.jackpot": 5}),
    "thb_no_side_bets": lambda: variant("holdem_bonus_classic", {"stakes.bonus": 0}),
}
ALL_RULES = {**{n: (lambda r=r: r) for n, r in CONFIGS.items()}, **VARIANTS}  # made when used


@pytest.fixture(scope="module")
def harness(tmp_path_factory) -> Path:
    return build_harness(tmp_path_factory, "settle_host", HARNESS)


def _game(rules) -> str:
    return "ch" if rules.game == "casino_holdem" else "thb"


def _ch_aa_order(rules) -> np.ndarray:
    """The kernel's AA Bonus event of each of the description's (the kernel's: the 11 hands,
    then the same after a fold; the description's: the folds first)."""
    names = event_names(rules)["aa_bonus"]
    hands = [n for n in names if not n.startswith("fold:")]
    kernel = hands + [f"fold:{h}" for h in hands]
    return np.array([kernel.index(n) for n in names], np.int64)


THB_BETS = ("ante", "flop", "turn", "river", "bonus", "jackpot")
THB_KERNEL_EVENTS = {
    "ante": ("fold", *(f"win:{c}" for c in CATEGORY_KEYS), "tie", "loss"),
    "flop": ("fold", "win", "tie", "loss"),
    "turn": ("fold", "check", "win", "tie", "loss"),
    "river": ("fold", "check", "win", "tie", "loss"),
    "bonus": BONUS_CLASSES,
    "jackpot": CATEGORY_KEYS,
}
"""The street-bets kernel's events of each bet, by name in its order
(kernels/settle_holdem_bonus.cuh: ante 0 fold, 1 + c a win with category c, 11 tie, 12 loss;
the Bonus's as ``gpusim_thb_bonus_event``; the Jackpot's the meter hand's category)."""


def _thb_order(rules) -> dict[str, np.ndarray]:
    """{offered bet: the kernel's event of each of the description's}, matched by name: the
    description's events of a bet must be the kernel's, in any order."""
    out = {}
    for bet, names in event_names(rules).items():
        kernel = THB_KERNEL_EVENTS[bet]
        assert sorted(names) == sorted(kernel), (bet, names)
        out[bet] = np.array([kernel.index(n) for n in names], np.int64)
    return out


def _rule_words(rules, meter: int) -> np.ndarray:
    """The GpusimChRules / GpusimThbRules struct of the headers, as int32 words."""
    offered = bets(rules)
    ret = event_returns(rules)
    if rules.game == "casino_holdem":
        aa = (0,) * 22  # Ante and Call events are in the kernel's order
        if "aa_bonus" in offered:
            aa = np.zeros(22, np.int64)
            aa[_ch_aa_order(rules)] = ret["aa_bonus"]
        stake_aa = rules.stakes["aa_bonus"] if "aa_bonus" in offered else 0
        head = [qualifier_rank(rules.game_def), rules.stakes.ante, stake_aa]
        return (
            np.array(head + list(ret["ante"]) + list(aa), np.int64).astype(np.uint32).view(np.int32)
        )
    order = _thb_order(rules)

    def kernel_returns(bet: str) -> list[int]:
        """The bet's returns in the kernel's event order (0 where not offered; the royal's
        meter, None, is the meter word's)."""
        out = np.zeros(len(THB_KERNEL_EVENTS[bet]), np.int64)
        if bet in ret:
            out[order[bet]] = [0 if r is None else int(r) for r in ret[bet]]
        return out.tolist()

    (flags,) = spec_for(rules).kernel.head_args(rules)  # 4: the meter's hand is all seven cards
    head = [
        rules.stakes.ante,
        rules.stakes["bonus"] if "bonus" in offered else 0,
        rules.stakes["jackpot"] if "jackpot" in offered else 0,
        int(flags) >> 2 & 1,
        meter,
    ]
    words = head + [w for bet in ("ante", "bonus", "jackpot") for w in kernel_returns(bet)]
    return np.array(words, np.int32)


def _host_settle(exe: Path, rules, cards: np.ndarray, dec: np.ndarray, meter: int = 0):
    work = exe.parent
    _rule_words(rules, meter).tofile(work / "rules.bin")
    np.ascontiguousarray(cards, np.int32).tofile(work / "cards.bin")
    np.ascontiguousarray(dec, np.uint8).tofile(work / "dec.bin")
    game = _game(rules)
    subprocess.run(
        [str(exe), "settle", game, *(str(work / f) for f in ("rules.bin", "cards.bin", "dec.bin",
                                                              "out.bin"))],
        check=True, timeout=300,
    )  # fmt: skip
    k = 3 if game == "ch" else 6
    out = np.fromfile(work / "out.bin", np.int32).reshape(len(cards), 3 * k + 2)
    names = ("ante", "call", "aa_bonus") if game == "ch" else THB_BETS
    events = {b: out[:, i] for i, b in enumerate(names)}
    if game == "ch" and "aa_bonus" in bets(rules):  # the description's event numbers
        events["aa_bonus"] = np.argsort(_ch_aa_order(rules))[events["aa_bonus"]].astype(np.int32)
    if game == "thb":  # the description's event numbers, by name
        for bet, order in _thb_order(rules).items():
            events[bet] = np.argsort(order)[events[bet]].astype(np.int32)
    return {
        "events": events,
        "stakes": {b: out[:, k + i] for i, b in enumerate(names)},
        "nets": {b: out[:, 2 * k + i] for i, b in enumerate(names)},
        "ranks": out[:, 3 * k :].view(np.uint32),
    }


def _decision_dict(rules, dec: np.ndarray) -> dict:
    if rules.game == "casino_holdem":
        return {"call": dec[:, 0].astype(bool)}
    return {k: dec[:, i].astype(bool) for i, k in enumerate(("flop", "turn", "river"))}


def _assert_settlement_equal(host, s, rules, label=""):
    for bet in bets(rules):
        for field in ("stakes", "nets", "events"):
            want = np.asarray(getattr(s, field)[bet])
            got = host[field][bet]
            bad = np.flatnonzero(got != want)
            assert bad.size == 0, (
                f"{label} {bet} {field}: {bad.size} rounds differ, first round {bad[0]}: "
                f"host {got[bad[0]]}, jax {want[bad[0]]}"
            )
    np.testing.assert_array_equal(host["ranks"][:, 0], np.asarray(s.player_rank))
    np.testing.assert_array_equal(host["ranks"][:, 1], np.asarray(s.dealer_rank))


# --- settlement ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(ALL_RULES))
def test_host_settle_matches_jax_onrandom_rounds(harness, name):
    rules = ALL_RULES[name]()
    n = 100_000
    cards = random_rounds(n, seed=len(name))
    # Random decisions, including a Turn/River bet after a fold (settle must ignore it).
    dec = np.random.default_rng(7).random((n, 3)) < 0.7
    meter = 123_457
    host = _host_settle(harness, rules, cards, dec, meter)
    s = settle(cards, _decision_dict(rules, dec), rules, jackpot_meter=meter)
    _assert_settlement_equal(host, s, rules, name)


def _scenario_rows():
    import test_scenarios_casino_holdem as ch_s
    import test_scenarios_holdem_bonus as thb_s

    rows = [(r, text, {"call": np.asarray([call])}, None, exp)
            for r, text, call, exp in ch_s.SCENARIOS]  # fmt: skip
    rows += [(thb_all_seven() if r == thb_s.ALL_SEVEN else r, text, thb_s._decisions(code), meter,
              exp) for r, text, code, meter, exp in thb_s.SCENARIOS]  # fmt: skip
    return rows, ch_s._round


def test_host_settle_matches_the_hand_worked_scenarios(harness):
    rows, parse_round = _scenario_rows()
    assert len(rows) >= 50
    for rules, text, decisions, meter, expected in rows:
        cards = np.asarray([parse_round(text)], np.int32)
        dec = np.zeros((1, 3), np.uint8)
        for i, key in enumerate(decisions):
            dec[0, i] = bool(decisions[key][0])
        default_meter = rules.meter.reset if rules.meter is not None else 0
        host = _host_settle(harness, rules, cards, dec, default_meter if meter is None else meter)
        got = {}
        names = {"ch": ("ante", "call", "aa_bonus"), "thb": THB_BETS}[_game(rules)]
        ev_names = event_names(rules)
        for bet in names:
            if bet not in ev_names or host["stakes"][bet][0] == 0:
                continue
            got[bet] = (int(host["nets"][bet][0]), ev_names[bet][host["events"][bet][0]])
        assert got == expected, text


def test_host_settle_can_fail(harness):
    """Not vacuous: a different river changes the host's result for the same decisions."""
    a = random_rounds(1, seed=1)
    b = a.copy()
    spare = next(c for c in range(52) if c not in a[0])
    b[0, 8] = spare
    dec = np.ones((1, 3), np.uint8)
    ra = _host_settle(harness, CH, a, dec)
    rb = _host_settle(harness, CH, b, dec)
    assert ra["ranks"].tolist() != rb["ranks"].tolist()


# --- decisions ------------------------------------------------------------------------------

SUPPORTED = [
    ("casino_holdem", "always-play"),
    ("casino_holdem", "basic"),
    ("casino_holdem", "side-bet-optimal"),
    ("casino_holdem", "optimal"),
    ("casino_holdem", "optimal-main"),
    ("holdem_bonus", "always-play"),
    ("holdem_bonus", "basic"),
    ("holdem_bonus", "optimal"),
    ("holdem_bonus", "win-over-half-ev"),
    ("holdem_bonus", "win-over-half"),  # another name of the win-over-half-ev tables
    ("casino_holdem_evolution", "optimal"),
    ("holdem_bonus_classic", "optimal"),
]


def _spec(config: str, strategy: str):
    rules = CONFIGS[config]
    strat = get_strategy(strategy, rules)  # every shipped strategy must be there: no skip
    return rules, strat, cb.strategy_spec(rules, strat)


@pytest.mark.parametrize(("config", "strategy"), SUPPORTED)
def test_host_decisions_match_python_strategy(harness, config, strategy):
    rules, strat, spec = _spec(config, strategy)
    n = 100_000
    cards = random_rounds(n, seed=zlib.crc32(f"{config}/{strategy}".encode()))
    got = host_decide(harness, _game(rules), spec, cards)
    from gpusim.strategy.tree import taken

    # the kernel reports a bet placed: the action index 1 at a point the round reached
    want = taken(spec_for(rules).decisions,
                 {k: np.asarray(v).astype(np.int32) for k, v in strat.decide(cards).items()})
    keys = ("call",) if rules.game == "casino_holdem" else ("flop", "turn", "river")
    for i, key in enumerate(keys):
        w = want[key] == 1
        bad = np.flatnonzero(got[:, i] != w)
        assert bad.size == 0, f"{key}: {bad.size} rounds differ, e.g. cards {cards[bad[0]]}"
    # Both actions occur (so the comparison is not vacuous) except for always-play.
    if strategy != "always-play":
        assert 0 < got[:, len(keys) - 1].sum() < n


THB_REFERENCE = [
    ("holdem_bonus", "always-play"),
    ("holdem_bonus", "basic"),
    ("holdem_bonus_classic", "basic"),
]


@pytest.mark.parametrize(("config", "strategy"), THB_REFERENCE)
def test_host_thb_rules_take_the_hand_written_references_action(harness, config, strategy):
    """The kernel's own rule lists (kernels/strategy_holdem_bonus.cuh), to which the described
    rule strategies are sent, are round by round the hand-written strategies
    (tests/thb_reference.py)."""
    import thb_reference as ref

    from gpusim.strategy.tree import taken

    rules, _strat, spec = _spec(config, strategy)
    assert spec.code == {"always-play": cb.STRAT_ALWAYS, "basic": cb.STRAT_BASIC}[strategy]
    n = 100_000
    cards = random_rounds(n, seed=zlib.crc32(f"{config}/{strategy}/reference".encode()))
    got = host_decide(harness, "thb", spec, cards)
    hand = {"always-play": ref.thb_always_play, "basic": ref.thb_basic}[strategy]
    want = taken(ref.TREE, {k: np.asarray(v).astype(np.int32) for k, v in hand(cards).items()})
    for i, point in enumerate(("flop", "turn", "river")):
        bad = np.flatnonzero(got[:, i] != (want[point] == 1))
        assert bad.size == 0, f"{point}: {bad.size} rounds differ, e.g. cards {cards[bad[0]]}"
        if strategy != "always-play":  # both actions occur: the comparison is not vacuous
            assert 0 < got[:, i].sum() < n


def test_unsupported_strategy_is_a_one_line_error():
    # the per-round counting form of the Swedish rules' rule (the registered name serves its
    # tables) has no kernel form; nor have the description's rules that count P(win) per round
    from thb_reference import thb_win_over_half

    from gpusim.strategy import RuleStrategy

    strats = [RuleStrategy("win-over-half-per-round", "holdem_bonus", thb_win_over_half),
              get_strategy("win-over-lose", THB), get_strategy("win-over-half-ev-rules", THB)]
    for strat in strats:
        with pytest.raises(StrategyError) as exc:
            cb.strategy_spec(THB, strat)
        assert "\n" not in str(exc.value) and strat.name in str(exc.value)


def test_strategy_of_another_game_is_rejected():
    with pytest.raises(StrategyError, match="casino_holdem"):
        cb.strategy_spec(THB, get_strategy("basic", CH))


# --- whole chunks ---------------------------------------------------------------------------


def _host_chunk(exe: Path, rules, spec, seed, first, n):
    """The kernel's loop on the host: the chunk's histogram and royal hits, in the game's
    joint codes (a described game's through its kernel's code map)."""
    from gpusim.compute.bins import remap_codes
    from gpusim.games.spec import load

    work = exe.parent
    lay = cb.bin_layout(rules)
    kernel = spec_for(rules).kernel
    arg = ",".join(str(int(x)) for x in kernel.head_args(rules))  # ch: qualifier,has_aa
    subprocess.run(
        [str(exe), "chunk", _game(rules), str(spec.code), str(table_dir(exe, spec)), str(seed),
         str(first), str(n), arg, str(work / "chunk.bin")],
        check=True, timeout=300,
    )  # fmt: skip
    raw = np.fromfile(work / "chunk.bin", np.uint64)
    n_max = 23 * 22 if rules.game == "casino_holdem" else 52 * 21 * 10
    bins, k = raw[:n_max].astype(np.int64), int(raw[n_max])
    words = raw[n_max + 1 : n_max + 1 + k].tolist()
    hits = [(w >> 16, w & 0xFFFF) for w in words]
    if kernel.code_map:
        to_joint = load(kernel.code_map)(rules)
        return remap_codes(to_joint, lay.n_bins, bins[: len(to_joint)], hits)
    assert not bins[lay.n_bins :].any()
    return bins[: lay.n_bins], hits


def _jax_chunk(rules, strat, seed, first, n, meter):
    """The JAX path's counts of a chunk: the truth the kernels must reproduce."""
    from gpusim.compute.chunks import ChunkRunner

    return ChunkRunner(rules, strat)(seed, first, n, meter)


CHUNKS = [
    # config, strategy, seed, first round, rounds, meter (1/10,000 units)
    ("casino_holdem", "basic", 11, 0, 20_000, 0),
    ("casino_holdem_evolution", "optimal", 2**64 - 1, 2**33 + 5, 20_000, 0),
    ("casino_holdem_evolution", "side-bet-optimal", 2**64 - 1, 2**33 + 5, 20_000, 0),
    ("casino_holdem", "always-play", 7, 2**32 - 9_000, 20_000, 0),
    ("holdem_bonus_classic", "optimal", 5, 1_000, 20_000, 0),
]


@pytest.mark.parametrize(("config", "strategy", "seed", "first", "n", "meter"), CHUNKS)
def test_host_chunk_counts_equal_jax_chunk(harness, config, strategy, seed, first, n, meter):
    rules, strat, spec = _spec(config, strategy)
    bins, hits = _host_chunk(harness, rules, spec, seed, first, n)
    got = cb.counts_from_bins(rules, bins, hits, first, n, meter)
    assert got == _jax_chunk(rules, strat, seed, first, n, meter)


def test_host_chunk_with_jackpot_royals_equals_jax_chunk(harness):
    """Seven-card Jackpot hand (royal ~3e-5 per round): two meter hits in one chunk.

    The window (seed 4, rounds 118,000 ..) was picked because it holds two royals; that it does
    is checked on the JAX side, so the choice is not an expected value of the code under test.
    """
    rules = thb_all_seven()
    strat = get_strategy("basic", rules)
    spec = cb.strategy_spec(rules, strat)
    seed, first, n, meter = 4, 118_000, 14_000, 987_654_321
    want = _jax_chunk(rules, strat, seed, first, n, meter)
    assert len(want[0].jackpot_hits) >= 2  # the meter restarts between hits
    bins, hits = _host_chunk(harness, rules, spec, seed, first, n)
    assert cb.counts_from_bins(rules, bins, hits, first, n, meter) == want


def test_host_chunk_hole_and_flop_royal_equals_jax_chunk(harness):
    """The shipped Jackpot (hole cards + flop, ~1.5e-6 per round) around a royal round
    (seed 8 has one near round 43,800; checked on the JAX side)."""
    rules = THB
    strat = get_strategy("always-play", rules)
    spec = cb.strategy_spec(rules, strat)
    seed, first, n, meter = 8, 40_000, 8_000, 55_555
    want = _jax_chunk(rules, strat, seed, first, n, meter)
    assert want[0].jackpot_hits
    bins, hits = _host_chunk(harness, rules, spec, seed, first, n)
    assert cb.counts_from_bins(rules, bins, hits, first, n, meter) == want


def test_counts_from_bins_rejects_a_wrong_total():
    lay = cb.bin_layout(CH)
    with pytest.raises(ValueError, match="rounds"):
        cb.counts_from_bins(CH, np.ones(lay.n_bins, np.int64), [], 0, 5, 0)


# --- CUDA compile checks --------------------------------------------------------------------


def _nvcc():
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        pytest.skip("nvcc is not installed")
    return nvcc


@pytest.mark.parametrize("game", ["casino_holdem", "holdem_bonus"])
def test_kernels_compile_with_nvcc(tmp_path, game):
    nvcc = _nvcc()
    # Each strategy folds to different code: compile the rule list and the table lookup.
    for code in (cb.STRAT_BASIC, cb.STRAT_TABLE):
        proc = subprocess.run(
            [nvcc, "-x", "cu", "-std=c++17", f"-I{KERNELS}", f"-DGPUSIM_STRATEGY={code}", "-c",
             str(KERNELS / f"{game}.cu"), "-o", str(tmp_path / f"{game}{code}.o")],
            capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        assert "warning" not in proc.stderr.lower(), proc.stderr


@pytest.mark.parametrize("game", ["casino_holdem", "holdem_bonus"])
def test_nvrtc_source_is_self_contained(tmp_path, game):
    """The backend's inlined source compiles with no include path at all."""
    nvcc = _nvcc()
    text = cb.kernel_source(game)
    assert '#include "' not in text
    src = tmp_path / f"{game}_inlined.cu"
    src.write_text(text)
    proc = subprocess.run(
        [nvcc, "-x", "cu", "-std=c++17", "-DGPUSIM_STRATEGY=1", "-c", str(src), "-o",
         str(tmp_path / "inlined.o")],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr


def test_runner_needs_a_gpu_or_says_so():
    if cb.available():
        pytest.skip("a GPU is present")
    with pytest.raises(RuntimeError, match="cupy backend"):
        cb.make_chunk_runner(CH, get_strategy("basic", CH))
