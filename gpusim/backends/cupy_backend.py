"""The CuPy/CUDA fast path: one fused kernel per game (``kernels/<game>.cu``).

Each kernel deals, decides, evaluates and settles its rounds and counts each round's *joint
outcome code* (the events of all its bets in mixed radix, see ``kernels/settle_common.cuh``) in a
shared-memory histogram, flushed to a global 64-bit histogram once per block. A Jackpot royal
flush is not counted there: its net depends on the progressive meter, so the kernel lists its
round and the host pays it in round order, exactly as the JAX runner (:mod:`gpusim.sim.runner`)
does.

:func:`counts_from_bins` turns that histogram into a :class:`~gpusim.sim.aggregate.ChunkCounts`
(net distributions incl. ``main`` and ``total``, events, decisions, wagers, moments, jackpot
hits) identical to the JAX runner's for the same rounds. It is pure numpy, so the CPU tests check
it through a host-compiled emulation of the kernel loop (``tests/test_kernels_settle_host.py``).

Why one joint histogram rather than per-bet net histograms and moment sums on the device: a
round's nets, stakes and events are all functions of its joint code (a few hundred codes for
Casino Hold'em, 10,920 for Texas Hold'em Bonus), so one shared-memory increment per round
carries everything, including the joint distribution of ``main`` and ``total`` and every cross
moment, and the money arithmetic happens once per code on the host in int64, as in the JAX path.

Kernels are compiled lazily with ``cupy.RawModule`` (NVRTC), once per (game, strategy, block
size) and device; the strategy and block size are injected as ``#define`` s. The headers are
inlined into one source string so that CuPy's on-disk cache is keyed by their contents.

Strategies: ``always-play``, ``basic``, ``side-bet-optimal`` (rule lists, coded in
``kernels/strategy_*.cuh``) and the table strategies of :mod:`gpusim.strategy.optimal` (their
tables are uploaded as device arrays and indexed exactly as the Python lookup does). Anything
else (the per-round exact ``win-over-half``, user strategies) raises a one-line error.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from gpusim.sim.aggregate import ChunkCounts

__all__ = [
    "BP",
    "BinLayout",
    "StrategySpec",
    "available",
    "bin_layout",
    "counts_from_bins",
    "device_name",
    "kernel_dir",
    "kernel_source",
    "make_chunk_runner",
    "strategy_spec",
]

BP = 10_000
"""Jackpot meter sub-units per money unit (as in :mod:`gpusim.sim.runner`)."""

MAIN_BETS = {"casino_holdem": ("ante", "call"), "holdem_bonus": ("ante", "flop", "turn", "river")}

# Strategy codes of kernels/strategy_common.cuh.
STRAT_ALWAYS, STRAT_BASIC, STRAT_SIDE_BET, STRAT_TABLE = 0, 1, 2, 3

# Launch tuning: threads per block (a #define of the kernel) and resident blocks per SM. The
# Hold'em Bonus histogram takes 43,680 bytes of shared memory per block, so 4 blocks fill 171 KB.
BLOCK = 256
BLOCKS_PER_SM = {"casino_holdem": 8, "holdem_bonus": 4}
_MAX_LAUNCH_ROUNDS = 1 << 30  # the kernels index rounds in 32 bits
_ROYAL_SHIFT = 16
# Royal-hit buffer per launch: ROYAL_CAP_BASE + n_rounds // ROYAL_CAP_ROUNDS slots.
ROYAL_CAP_BASE, ROYAL_CAP_ROUNDS = 64, 8192

# Joint-code radices of kernels/settle_*.cuh.
_CH_ANTE_EVENTS, _CH_AA_EVENTS = 23, 22
_THB_MAIN_CODES, _THB_BONUS_EVENTS, _THB_JACKPOT_EVENTS = 13 * 4, 21, 10


# ------------------------------------------------------------------------------------------------
# strategies


@dataclass(frozen=True)
class StrategySpec:
    """What a kernel needs to play a strategy: its code and (table strategies) its tables.

    tables (numpy, layouts of kernels/strategy_common.cuh): Casino Hold'em ``call``; Texas
    Hold'em Bonus ``preflop``, ``grid``, ``turn``, ``river``, ``raw4_class``, ``raw4_perm``;
    both ``raw3_class``, ``raw3_perm``, ``new_suit``. Empty for rule-list strategies.
    """

    name: str
    code: int
    tables: dict


def strategy_spec(rules, strategy) -> StrategySpec:
    """The kernel form of ``strategy`` for ``rules``; a one-line StrategyError if it has none."""
    from gpusim.strategy import StrategyError
    from gpusim.strategy import basic as b

    name = getattr(strategy, "name", repr(strategy))
    if getattr(strategy, "game", rules.game) != rules.game:
        raise StrategyError(
            f"strategy {name!r} is for {strategy.game}, but the config's game is {rules.game}"
        )
    rule_codes = {
        b.ch_always_play: STRAT_ALWAYS,
        b.ch_basic: STRAT_BASIC,
        b.ch_side_bet_optimal: STRAT_SIDE_BET,
        b.thb_always_play: STRAT_ALWAYS,
        b.thb_basic: STRAT_BASIC,
    }
    fn = getattr(strategy, "fn", None)
    if fn is not None and fn in rule_codes:
        return StrategySpec(name, rule_codes[fn], {})
    tables = _table_arrays(rules, strategy)
    if tables is not None:
        return StrategySpec(name, STRAT_TABLE, tables)
    raise StrategyError(
        f"strategy {name!r} is not supported by the cupy backend (it has no kernel form); "
        "supported: always-play, basic, side-bet-optimal and the table strategies "
        "(optimal, optimal-main, win-over-half-ev); use --backend jax-cpu or jax-gpu for it"
    )


def _table_arrays(rules, strategy) -> dict | None:
    try:
        from gpusim.strategy.optimal import TableStrategy
    except ModuleNotFoundError:
        return None
    if not isinstance(strategy, TableStrategy):
        return None
    from gpusim.cards import _GRID
    from gpusim.index import PERMUTATIONS, board_classes

    b3 = board_classes(3)
    out = {
        "raw3_class": np.ascontiguousarray(b3.raw_class, np.int32),
        "raw3_perm": np.ascontiguousarray(b3.raw_perm, np.int8),
        "new_suit": np.ascontiguousarray(PERMUTATIONS.ravel(), np.int8),
    }
    t = strategy.tables
    if rules.game == "casino_holdem":
        out["call"] = np.ascontiguousarray(t["call"], np.uint8)
        return out
    b4 = board_classes(4)
    out.update(
        preflop=np.ascontiguousarray(np.asarray(t["preflop"]).astype(np.uint8)),
        grid=np.ascontiguousarray(np.asarray(_GRID).ravel(), np.int32),
        turn=np.ascontiguousarray(t["turn"], np.uint8),
        river=np.ascontiguousarray(t["river"], np.uint8),
        raw4_class=np.ascontiguousarray(b4.raw_class, np.int32),
        raw4_perm=np.ascontiguousarray(b4.raw_perm, np.int8),
    )
    return out


# ------------------------------------------------------------------------------------------------
# joint outcome codes -> ChunkCounts (host side, pure numpy)


@dataclass(frozen=True)
class BinLayout:
    """Per joint outcome code (``n_bins`` of them): each offered bet's event and stake.

    events / stakes: {bet: (n_bins,) int64}, bets in :func:`gpusim.games.bets` order. Codes no
    round can produce (a fold with a Turn bet) decode to something harmless; they count 0.
    """

    n_bins: int
    events: dict
    stakes: dict
    returns: dict
    names: dict

    def nets(self) -> dict:
        """{bet: (n_bins,) int64 net}; the Jackpot royal returns nothing here (see hits)."""
        out = {}
        for bet, ev in self.events.items():
            ret = np.array([0 if r is None else r for r in self.returns[bet]], np.int64)
            out[bet] = self.stakes[bet] * (ret[ev] - 1)
        return out


@lru_cache(maxsize=32)
def bin_layout(rules) -> BinLayout:
    """Decode every joint outcome code of ``rules.game`` (kernels/settle_*.cuh)."""
    from gpusim.games import bets, event_names, event_returns

    offered = bets(rules)
    ante = rules.stakes.ante
    i64 = np.int64
    if rules.game == "casino_holdem":
        n_aa = _CH_AA_EVENTS if "aa_bonus" in offered else 1
        codes = np.arange(_CH_ANTE_EVENTS * n_aa, dtype=i64)
        ante_ev = codes // n_aa
        call_of_ante = np.array([0] + [1] * 10 + [2] * 10 + [3, 4], i64)
        events = {"ante": ante_ev, "call": call_of_ante[ante_ev]}
        stakes = {"ante": np.full(codes.size, ante, i64), "call": (ante_ev != 0) * i64(2 * ante)}
        if "aa_bonus" in offered:
            events["aa_bonus"] = codes % n_aa
            stakes["aa_bonus"] = np.full(codes.size, rules.stakes["aa_bonus"], i64)
    else:
        nb = _THB_BONUS_EVENTS if "bonus" in offered else 1
        nj = _THB_JACKPOT_EVENTS if "jackpot" in offered else 1
        codes = np.arange(_THB_MAIN_CODES * nb * nj, dtype=i64)
        main = codes // (nb * nj)
        ante_ev = main // 4
        played = ante_ev != 0
        turn_bet = played & ((main >> 1) & 1).astype(bool)
        river_bet = played & (main & 1).astype(bool)
        # 0 win (ante events 1..10), 1 tie (11), 2 loss (12)
        result = np.where(ante_ev <= 10, 0, ante_ev - 10)
        showdown = 2 + result
        events = {
            "ante": ante_ev,
            "flop": np.where(played, 1 + result, 0),
            "turn": np.where(played, np.where(turn_bet, showdown, 1), 0),
            "river": np.where(played, np.where(river_bet, showdown, 1), 0),
        }
        stakes = {
            "ante": np.full(codes.size, ante, i64),
            "flop": played * i64(ante * rules.FLOP_MULTIPLE),
            "turn": turn_bet * i64(ante * rules.TURN_MULTIPLE),
            "river": river_bet * i64(ante * rules.RIVER_MULTIPLE),
        }
        if "bonus" in offered:
            events["bonus"] = (codes // nj) % nb
            stakes["bonus"] = np.full(codes.size, rules.stakes["bonus"], i64)
        if "jackpot" in offered:
            events["jackpot"] = codes % nj
            stakes["jackpot"] = np.full(codes.size, rules.stakes["jackpot"], i64)
    events = {bet: events[bet].astype(i64) for bet in offered}
    stakes = {bet: stakes[bet].astype(i64) for bet in offered}
    return BinLayout(codes.size, events, stakes, event_returns(rules), event_names(rules))


def counts_from_bins(
    rules, bins, royal_hits, first_round: int, n_rounds: int, meter: int
) -> tuple[ChunkCounts, int]:
    """Exact ChunkCounts of a chunk from its joint-outcome histogram and its Jackpot royals.

    bins: (n_bins,) integer counts of the rounds that did not hit the Jackpot royal.
    royal_hits: (k, 2) int (round offset within the chunk, joint code) of the rounds that did.
    meter: the Jackpot meter before the chunk, in 1/10,000 money units. Returns (counts, meter
    after), equal to the JAX runner's for the same rounds.
    """
    lay = bin_layout(rules)
    bins = np.asarray(bins, np.int64).reshape(-1)
    if bins.size != lay.n_bins:
        raise ValueError(f"bins: got {bins.size} counts; {rules.game} needs {lay.n_bins}")
    hits = np.asarray(royal_hits, np.int64).reshape(-1, 2)
    hits = hits[np.argsort(hits[:, 0], kind="stable")]
    if int(bins.sum()) + len(hits) != n_rounds:
        raise ValueError(
            f"bins: {int(bins.sum())} rounds counted plus {len(hits)} royal hits, "
            f"but the chunk has {n_rounds} rounds"
        )
    # One row per non-empty code, then one per royal hit (weight 1, its own Jackpot net).
    codes = np.concatenate([np.flatnonzero(bins), hits[:, 1]])
    weight = np.concatenate([bins[bins != 0], np.ones(len(hits), np.int64)])
    all_nets = lay.nets()
    nets = {bet: v[codes] for bet, v in all_nets.items()}
    stakes = {bet: v[codes] for bet, v in lay.stakes.items()}
    events = {bet: v[codes] for bet, v in lay.events.items()}

    paid: list[tuple[int, int]] = []
    if "jackpot" in nets and rules.jackpot is not None and len(hits):
        jp = rules.jackpot
        contrib = int(rules.stakes["jackpot"]) * jp.contribution_bp  # per round, constant
        start = 0
        base = len(codes) - len(hits)
        for k, off in enumerate(hits[:, 0].tolist()):
            meter += contrib * (off + 1 - start)
            prize = meter // BP
            nets["jackpot"][base + k] = prize - int(rules.stakes["jackpot"])
            paid.append((first_round + off, prize))
            meter = jp.reset * BP
            start = off + 1
        meter += contrib * (n_rounds - start)
    elif "jackpot" in nets and rules.jackpot is not None:
        meter += int(rules.stakes["jackpot"]) * rules.jackpot.contribution_bp * n_rounds

    out = ChunkCounts(rounds=n_rounds, jackpot_hits=paid)
    main_bets = [b for b in MAIN_BETS[rules.game] if b in nets]
    bets = list(nets)
    nets["main"] = sum(nets[b] for b in main_bets)
    nets["total"] = sum(nets[b] for b in bets)
    stakes["main"] = sum(stakes[b] for b in main_bets)
    stakes["total"] = sum(stakes[b] for b in bets)
    for bet, v in nets.items():
        vals, inverse = np.unique(v, return_inverse=True)
        counts = np.zeros(len(vals), np.int64)
        np.add.at(counts, inverse.reshape(-1), weight)
        keep = counts != 0
        out.outcomes[bet] = dict(zip(vals[keep].tolist(), counts[keep].tolist(), strict=True))
        st = stakes[bet]
        wagered = int(np.sum(weight * st))
        out.wagers[bet] = (
            int(np.sum(weight * (st > 0))), wagered, wagered + int(np.sum(weight * v)),
            int(np.sum(weight * st * st)), int(np.sum(weight * st * v)),
        )  # fmt: skip
    for bet, codes_b in events.items():
        names = lay.names[bet]
        c = np.zeros(len(names), np.int64)
        placed = stakes[bet] > 0
        np.add.at(c, codes_b[placed], weight[placed])
        out.events[bet] = {names[i]: int(c[i]) for i in np.flatnonzero(c)}
    out.decisions = _decisions(rules.game, events, stakes, weight, n_rounds)
    names = list(nets)
    for i, a in enumerate(names):
        for b in names[i:]:
            out.moments[(a, b)] = int(np.sum(weight * nets[a] * nets[b]))
    return out, meter


def _decisions(game, events, stakes, weight, n) -> dict[str, dict[str, int]]:
    if game == "casino_holdem":
        n_call = int(np.sum(weight * (events["ante"] != 0)))
        return {"call": {"call": n_call, "fold": n - n_call}}
    played = int(np.sum(weight * (events["ante"] != 0)))
    n_turn = int(np.sum(weight * (stakes["turn"] > 0)))
    n_river = int(np.sum(weight * (stakes["river"] > 0)))
    return {
        "flop": {"bet": played, "fold": n - played},
        "turn": {"bet": n_turn, "check": played - n_turn},
        "river": {"bet": n_river, "check": played - n_river},
    }


# ------------------------------------------------------------------------------------------------
# kernel sources


def kernel_dir() -> Path:
    """Folder of the CUDA sources: ``gpusim/kernels`` in a wheel, else the checkout's
    top-level ``kernels/``."""
    here = Path(__file__).resolve().parent.parent
    for d in (here / "kernels", here.parent / "kernels"):
        if (d / "casino_holdem.cu").is_file():
            return d
    raise FileNotFoundError("the CUDA kernel sources (kernels/*.cu) are not installed")


_INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]\s*$', re.MULTILINE)

# NVRTC ships no C library headers; the kernels need only these fixed-width types. "cupy" is the
# fallback: CuPy >= 13.3 provides them (and std:: coverage) through its own workaround header.
_STDINT_PRELUDES = {
    "typedefs": """\
#if defined(__CUDACC_RTC__)
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
#else
#include <stdint.h>
#endif
""",
    "cupy": "#include <cupy/cuda_workaround.h>\n",
}


def kernel_source(game: str, stdint: str = "typedefs") -> str:
    """``kernels/<game>.cu`` with its headers inlined (each once) and ``<stdint.h>`` replaced
    by a prelude (``stdint``: "typedefs" or "cupy", see ``_STDINT_PRELUDES``), for NVRTC."""
    root = kernel_dir()
    seen: set[str] = set()

    def expand(path: Path) -> str:
        def sub(m: re.Match) -> str:
            kind, name = m.group(1), m.group(2)
            if kind == "<":
                if name not in ("stdint.h", "cstdint"):
                    raise ValueError(f"{path.name}: #include <{name}> is not available to NVRTC")
                if "<stdint>" in seen:
                    return ""
                seen.add("<stdint>")
                return _STDINT_PRELUDES[stdint]
            if name in seen:
                return ""
            seen.add(name)
            return expand(root / name)

        return _INCLUDE.sub(sub, path.read_text(encoding="utf-8"))

    return expand(root / f"{game}.cu")


# ------------------------------------------------------------------------------------------------
# the CuPy runner


def available() -> bool:
    """True when CuPy imports and sees at least one CUDA device."""
    try:
        import cupy

        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


def device_name() -> str:
    """Name of the current CUDA device, e.g. ``"NVIDIA H200"``."""
    import cupy

    props = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)
    name = props["name"]
    return name.decode() if isinstance(name, bytes) else str(name)


@lru_cache(maxsize=32)
def _module(game: str, strategy_code: int, block: int, device_id: int):
    import cupy

    del device_id  # part of the cache key: a module is loaded per device
    options = ("-std=c++17", f"-DGPUSIM_STRATEGY={strategy_code}", f"-DGPUSIM_BLOCK={block}")
    errors = []
    for stdint in _STDINT_PRELUDES:
        module = cupy.RawModule(code=kernel_source(game, stdint), options=options)
        try:
            module.compile()
            return module
        except Exception as exc:  # a CompileException names the NVRTC log; keep the first
            errors.append(exc)
    raise errors[0]


def make_chunk_runner(rules, strategy, *, block: int = BLOCK, blocks_per_sm: int | None = None):
    """A callable ``(seed, first_round, n_rounds, meter) -> (ChunkCounts, meter_after)`` that
    plays a chunk on the current CUDA device; its counts equal the JAX runner's
    (``gpusim.sim.runner.ChunkRunner``). Raises StrategyError (one line) for a strategy
    without a kernel form, RuntimeError when no CUDA device is usable."""
    spec = strategy_spec(rules, strategy)
    if not available():
        raise RuntimeError("cupy backend: CuPy with an NVIDIA GPU is required and was not found")
    if block not in (64, 128, 256, 512, 1024):
        raise ValueError(f"block: got {block}; allowed: 64, 128, 256, 512, 1024")
    return _CupyChunkRunner(rules, spec, block, blocks_per_sm or BLOCKS_PER_SM[rules.game])


class _CupyChunkRunner:
    def __init__(self, rules, spec: StrategySpec, block: int, blocks_per_sm: int):
        import cupy

        self.rules = rules
        self.spec = spec
        self.block = block
        dev = cupy.cuda.Device()
        self.device_id = dev.id
        try:
            self.n_sm = int(dev.attributes["MultiProcessorCount"])
        except (KeyError, AttributeError):
            props = cupy.cuda.runtime.getDeviceProperties(dev.id)
            self.n_sm = int(props["multiProcessorCount"])
        self.max_blocks = self.n_sm * blocks_per_sm
        self.layout = bin_layout(rules)
        self.kernel = _module(rules.game, spec.code, block, dev.id).get_function(
            f"gpusim_{rules.game}_chunk"
        )
        dummy = cupy.zeros(1, cupy.uint8)
        t = {k: cupy.asarray(v) for k, v in spec.tables.items()}
        self.tables = t
        self.dummy = dummy
        from gpusim.games import bets

        offered = bets(rules)
        if rules.game == "casino_holdem":
            from gpusim.games.casino_holdem import qualifier_threshold

            self.head = (
                np.uint32(qualifier_threshold(rules.dealer_qualifier)),
                np.int32("aa_bonus" in offered),
            )
            self.table_args = tuple(
                t.get(k, dummy) for k in ("call", "raw3_class", "raw3_perm", "new_suit")
            )
        else:
            jp = rules.jackpot
            flags = (
                int("bonus" in offered)
                | int("jackpot" in offered) << 1
                | int(jp is not None and jp.cards == "all_seven") << 2
            )
            self.head = (np.int32(flags),)
            self.table_args = tuple(
                t.get(k, dummy)
                for k in ("preflop", "grid", "turn", "river", "raw3_class", "raw3_perm",
                          "raw4_class", "raw4_perm", "new_suit")
            )  # fmt: skip

    def __call__(self, seed: int, first_round: int, n_rounds: int, meter: int):
        import cupy

        from gpusim.deal import _check_args

        k0, k1, first, n, _ = _check_args(seed, first_round, n_rounds, 9)
        with cupy.cuda.Device(self.device_id):
            hist = cupy.zeros(self.layout.n_bins, cupy.uint64)
            hits = []
            for start in range(0, n, _MAX_LAUNCH_ROUNDS):
                m = min(_MAX_LAUNCH_ROUNDS, n - start)
                for off, code in self._launch(hist, k0, k1, first + start, m):
                    hits.append((start + off, code))
            bins = cupy.asnumpy(hist).astype(np.int64)
        return counts_from_bins(self.rules, bins, hits, first, n, meter)

    def _launch(self, hist, k0, k1, first, n) -> list[tuple[int, int]]:
        import cupy

        grid = max(1, min(math.ceil(n / self.block), self.max_blocks))
        head = (np.uint32(k0), np.uint32(k1), np.uint64(first), np.uint32(n))
        if self.rules.game == "casino_holdem":
            args = head + self.head + self.table_args + (hist,)
            self.kernel((grid,), (self.block,), args)
            return []
        # Expected royal hits are ~1.5e-6 (hole cards + flop) or ~3.2e-5 (seven cards) per
        # round; a buffer that overflows is resized and the launch rerun (results are exact).
        cap = ROYAL_CAP_BASE + n // ROYAL_CAP_ROUNDS
        while True:
            part = cupy.zeros_like(hist)
            buf = cupy.zeros(cap, cupy.uint64)
            count = cupy.zeros(1, cupy.uint32)
            args = head + self.head + self.table_args + (part, buf, count, np.uint32(cap))
            self.kernel((grid,), (self.block,), args)
            k = int(count.get()[0])
            if k <= cap:
                break
            cap = k
        hist += part
        words = cupy.asnumpy(buf[:k]).tolist()
        return [(w >> _ROYAL_SHIFT, w & ((1 << _ROYAL_SHIFT) - 1)) for w in words]
