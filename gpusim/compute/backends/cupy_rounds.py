"""The CuPy/CUDA fast path: one fused kernel per game (``kernels/<game>.cu``).

Each kernel deals, decides, evaluates and settles its rounds and counts each round's *joint
outcome code* (the events of all its bets in mixed radix, see ``kernels/settle_common.cuh``) in a
shared-memory histogram, flushed to a global 64-bit histogram once per block. A Jackpot royal
flush is not counted there: its net depends on the progressive meter, so the kernel lists its
round and the host pays it in round order, exactly as the JAX runner (:mod:`gpusim.compute.chunks`)
does.

:func:`counts_from_bins` turns that histogram into a :class:`~gpusim.compute.counts.ChunkCounts`
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

Launch size: one wave of resident blocks, ``blocks per SM x SMs``, where blocks per SM comes
from the driver's occupancy query for the compiled kernel (registers and shared memory decide
it: 6 blocks of 256 for Casino Hold'em at 38-40 registers, 5 for Texas Hold'em Bonus at 43,680
bytes of shared memory), falling back to the game spec's
``KernelSpec.fallback_blocks_per_sm`` only when the query is unavailable.

Why the backend is unusable, when it is, is kept as one line: :func:`unavailable_reason` (CuPy
missing, a driver too old for it, no device, no CUDA headers for NVRTC) and
:func:`compile_reason` (the NVRTC compile of one kernel). Running out of device memory halves
the rounds per launch and retries, down to ``MIN_LAUNCH_ROUNDS``, then fails in one line
(:class:`~gpusim.compute.backends.BackendError`).

Strategies: ``always-play``, ``basic``, ``side-bet-optimal`` (rule lists, coded in
``kernels/strategy_*.cuh``) and the table strategies of :mod:`gpusim.strategy.table_strategy` (their
tables are uploaded as device arrays and indexed exactly as the Python lookup does). Anything
else (the per-round exact ``win-over-half``, user strategies) raises a one-line error.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from gpusim.compute.backends import BackendError
from gpusim.compute.bins import BinLayout, bin_layout, counts_from_bins, remap_codes
from gpusim.cuda import STDINT_PRELUDES, kernel_dir, kernel_source, one_line, unavailable_reason

__all__ = [
    "BinLayout",
    "StrategySpec",
    "available",
    "bin_layout",
    "compile_reason",
    "counts_from_bins",
    "device_name",
    "kernel_resources",
    "launch_grid",
    "resident_blocks",
    "kernel_dir",
    "kernel_source",
    "make_chunk_runner",
    "strategy_spec",
    "unavailable_reason",
]


# Strategy codes of kernels/strategy_common.cuh.
STRAT_ALWAYS, STRAT_BASIC, STRAT_SIDE_BET, STRAT_TABLE = 0, 1, 2, 3

# Launch tuning: threads per block (a #define of the kernel). Resident blocks per SM come from
# the driver's occupancy query; these are used only where the query is unavailable (the
# register-limited counts at 256 threads on a 64K-register SM, from ptxas' report).
BLOCK = 256
_MAX_LAUNCH_ROUNDS = 1 << 30  # the kernels index rounds in 32 bits
MIN_LAUNCH_ROUNDS = 1 << 16
"""Out of device memory at this many rounds per launch, the run fails instead of shrinking."""
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
    from gpusim.games import spec_for
    from gpusim.games.spec import load
    from gpusim.strategy import StrategyError

    name = getattr(strategy, "name", repr(strategy))
    if getattr(strategy, "game", rules.game) != rules.game:
        raise StrategyError(
            f"strategy {name!r} is for {strategy.game}, but the config's game is {rules.game}"
        )
    kernel = spec_for(rules).kernel
    if kernel is None:
        raise StrategyError(f"game {rules.game!r} has no CUDA kernel; use --backend jax-cpu or "
                            "jax-gpu")
    # the rule lists the game's kernel computes itself (kernels/strategy_<game>.cuh)
    rule_codes = {load(path): code for path, code in kernel.rule_strategies.items()}
    fn = getattr(strategy, "fn", None)
    if fn is not None and fn in rule_codes:
        return StrategySpec(name, rule_codes[fn], {})
    code = load(kernel.rule_code)(rules, strategy) if kernel.rule_code else None
    if code is not None:
        return StrategySpec(name, code, {})
    tables = _table_arrays(rules, strategy)
    if tables is not None:
        return StrategySpec(name, STRAT_TABLE, tables)
    raise StrategyError(
        f"strategy {name!r} is not supported by the cupy backend (it has no kernel form); "
        "supported: its rule lists with a kernel form and its table strategies; "
        "use --backend jax-cpu or jax-gpu for it"
    )


def _table_arrays(rules, strategy) -> dict | None:
    from gpusim.strategy.table_strategy import TableStrategy

    if not isinstance(strategy, TableStrategy):
        return None
    return strategy.kernel_tables()


# ------------------------------------------------------------------------------------------------
# the CuPy runner




def available() -> bool:
    """True when the cupy backend can run here (see :func:`unavailable_reason`)."""
    return unavailable_reason() is None


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
    for stdint in STDINT_PRELUDES:
        module = cupy.RawModule(code=kernel_source(game, stdint), options=options)
        try:
            module.compile()
            return module
        except Exception as exc:  # a CompileException names the NVRTC log; keep the first
            errors.append(exc)
    raise errors[0]


def compile_reason(rules, strategy, *, block: int = BLOCK) -> str | None:
    """None when the kernel for ``rules`` and ``strategy`` compiles and loads on the current
    device (the module is then cached for the run); else one line saying why not: the backend
    is unavailable, the strategy has no kernel form, or NVRTC / the module load failed."""
    from gpusim.games import spec_for
    from gpusim.strategy import StrategyError

    reason = unavailable_reason()
    if reason:
        return reason
    try:
        spec = strategy_spec(rules, strategy)
    except StrategyError as exc:
        return str(exc)
    try:
        import cupy

        source = spec_for(rules).kernel.source
        _module(source, spec.code, block, cupy.cuda.Device().id).get_function(
            f"gpusim_{source}_chunk"
        )
    except Exception as exc:
        return f"the {source} kernel did not compile: {one_line(exc)}"
    return None


# ------------------------------------------------------------------------------------------------
# occupancy and launch size

# CUfunction_attribute values (cuda.h; stable across CUDA versions).
_FUNC_ATTRIBUTES = {
    "max_threads_per_block": 0,
    "shared_bytes": 1,
    "const_bytes": 2,
    "local_bytes": 3,
    "registers": 4,
}


def kernel_resources(function, driver=None) -> dict:
    """Registers per thread, static shared / constant / local bytes and the most threads per
    block of a loaded kernel (``cupy`` ``Function``), read with ``cuFuncGetAttribute``."""
    if driver is None:
        from cupy.cuda import driver
    return {k: int(driver.funcGetAttribute(v, function.ptr)) for k, v in _FUNC_ATTRIBUTES.items()}


def resident_blocks(function, block: int, fallback: int, driver=None) -> tuple[int, str]:
    """(resident blocks per SM, where the number came from) for ``function`` launched with
    ``block`` threads: the driver's occupancy query, else ``fallback`` (the game's
    ``KernelSpec.fallback_blocks_per_sm``)."""
    try:
        if driver is None:
            from cupy.cuda import driver
        n = int(driver.occupancyMaxActiveBlocksPerMultiprocessor(function.ptr, block, 0))
        if n > 0:
            return n, "cuOccupancyMaxActiveBlocksPerMultiprocessor"
        reason = "the occupancy query returned 0"
    except Exception as exc:
        reason = f"the occupancy query failed ({one_line(exc)})"
    return fallback, f"fallback blocks per SM ({reason})"


def launch_grid(n_rounds: int, block: int, blocks_per_sm: int, n_sm: int) -> int:
    """Blocks to launch for ``n_rounds``: one full wave of resident blocks (the kernels stride
    over the rounds), fewer when the rounds do not fill it; at least 1."""
    return max(1, min(math.ceil(n_rounds / block), blocks_per_sm * n_sm))


# ------------------------------------------------------------------------------------------------
# out of device memory


def is_out_of_memory(exc: BaseException) -> bool:
    """True for CuPy's OutOfMemoryError and the runtime / driver out-of-memory statuses."""
    text = str(exc)
    return (type(exc).__name__ == "OutOfMemoryError" or "cudaErrorMemoryAllocation" in text
            or "CUDA_ERROR_OUT_OF_MEMORY" in text)  # fmt: skip


def _allocate(make: Callable, release: Callable[[], None], what: str):
    """``make()``, retried once after ``release()`` if the device is out of memory."""
    for attempt in (0, 1):
        try:
            return make()
        except Exception as exc:
            if not is_out_of_memory(exc):
                raise
            if attempt:
                raise BackendError(f"cupy backend: out of GPU memory for {what}; another "
                                   "process holds the device memory (see nvidia-smi)") from None
            release()


def run_launches(launch: Callable[[int, int], list], n: int, launch_rounds: int, *,
                 release: Callable[[], None] = lambda: None,
                 min_rounds: int = MIN_LAUNCH_ROUNDS) -> tuple[list, int]:
    """Play rounds 0..n-1 as launches ``launch(start, m)`` of at most ``launch_rounds`` rounds,
    in order; returns (the launches' results concatenated, the launch size that worked).

    A launch that runs out of device memory has changed nothing (its buffers are allocated
    before the kernel runs), so it is retried at half the size after ``release()`` frees
    cached blocks; at ``min_rounds`` the run stops with a one-line BackendError. The size only
    shrinks, so the loop ends: at most log2(launch_rounds / min_rounds) retries in all."""
    out: list = []
    start = 0
    while start < n:
        m = min(launch_rounds, n - start)
        try:
            part = launch(start, m)
        except Exception as exc:
            if not is_out_of_memory(exc):
                raise
            release()
            if m <= min_rounds:
                raise BackendError(
                    f"cupy backend: out of GPU memory even at {m:,} rounds per launch "
                    f"({one_line(exc)}); another process holds the device memory (see "
                    "nvidia-smi); completed chunks are kept, rerun with --resume once it is free"
                ) from None
            launch_rounds = max(min_rounds, m // 2)
            continue
        out.extend(part)
        start += m
    return out, launch_rounds


def make_chunk_runner(rules, strategy, *, block: int = BLOCK, blocks_per_sm: int | None = None):
    """A callable ``(seed, first_round, n_rounds, meter) -> (ChunkCounts, meter_after)`` that
    plays a chunk on the current CUDA device; its counts equal the JAX runner's
    (``gpusim.compute.chunks.ChunkRunner``). Raises StrategyError (one line) for a strategy
    without a kernel form, RuntimeError when no CUDA device is usable."""
    spec = strategy_spec(rules, strategy)
    reason = unavailable_reason()
    if reason:
        raise BackendError(f"cupy backend: {reason}")
    if block not in (64, 128, 256, 512, 1024):
        raise ValueError(f"block: got {block}; allowed: 64, 128, 256, 512, 1024")
    return _CupyChunkRunner(rules, spec, block, blocks_per_sm)


class _CupyChunkRunner:
    def __init__(self, rules, spec: StrategySpec, block: int, blocks_per_sm: int | None):
        import cupy

        from gpusim.games import spec_for
        from gpusim.games.spec import load

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
        kernel = spec_for(rules).kernel
        self.layout = bin_layout(rules)
        # the game's joint code of each code the kernel counts (None: the same codes)
        self.code_map = load(kernel.code_map)(rules) if kernel.code_map else None
        self.n_kernel_bins = self.layout.n_bins if self.code_map is None else len(self.code_map)
        self.kernel = _module(kernel.source, spec.code, block, dev.id).get_function(
            f"gpusim_{kernel.source}_chunk"
        )
        if blocks_per_sm is None:
            blocks_per_sm, self.occupancy_source = resident_blocks(
                self.kernel, block, kernel.fallback_blocks_per_sm)
        else:
            self.occupancy_source = "given"
        self.blocks_per_sm = blocks_per_sm
        self.max_blocks = self.n_sm * blocks_per_sm
        self.launch_rounds = _MAX_LAUNCH_ROUNDS
        dummy = cupy.zeros(1, cupy.uint8)
        t = {k: cupy.asarray(v) for k, v in spec.tables.items()}
        self.tables = t
        self.dummy = dummy
        self.royal_buffer = kernel.royal_buffer
        self.head = kernel.head_args(rules)
        self.table_args = tuple(t.get(k, dummy) for k in kernel.tables)

    def __call__(self, seed: int, first_round: int, n_rounds: int, meter: int):
        import cupy

        from gpusim.dealing import check_args

        k0, k1, first, n, _ = check_args(seed, first_round, n_rounds, 9)
        pool = cupy.get_default_memory_pool()
        with cupy.cuda.Device(self.device_id):
            hist = _allocate(lambda: cupy.zeros(self.n_kernel_bins, cupy.uint64),
                             pool.free_all_blocks, f"the {self.n_kernel_bins * 8:,}-byte histogram")

            def launch(start, m):
                return [(start + off, code)
                        for off, code in self._launch(hist, k0, k1, first + start, m)]  # fmt: skip

            hits, self.launch_rounds = run_launches(
                launch, n, min(self.launch_rounds, _MAX_LAUNCH_ROUNDS),
                release=pool.free_all_blocks, min_rounds=min(MIN_LAUNCH_ROUNDS, _MAX_LAUNCH_ROUNDS),
            )  # fmt: skip
            bins = cupy.asnumpy(hist).astype(np.int64)
        bins, hits = remap_codes(self.code_map, self.layout.n_bins, bins, hits)
        return counts_from_bins(self.rules, bins, hits, first, n, meter)

    def _launch(self, hist, k0, k1, first, n) -> list[tuple[int, int]]:
        import cupy

        grid = launch_grid(n, self.block, self.blocks_per_sm, self.n_sm)
        head = (np.uint32(k0), np.uint32(k1), np.uint64(first), np.uint32(n))
        if not self.royal_buffer:
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
