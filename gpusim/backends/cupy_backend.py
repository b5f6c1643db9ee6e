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

from gpusim.sim.joint import BP, BinLayout, bin_layout, counts_from_bins

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

"""Jackpot meter sub-units per money unit (as in :mod:`gpusim.sim.runner`)."""


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
