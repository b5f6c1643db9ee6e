"""One chunk of rounds, computed: deal, decide, settle and count into exact integer totals.

:class:`ChunkRunner` is the JAX path (CPU or GPU): batches of rounds are dealt, decided and
settled by one compiled program and reduced on the device to a histogram of joint outcome codes
(:mod:`gpusim.compute.device_reduce`) by a second (:mod:`gpusim.compute.program`, which keeps
them on disk between processes), dispatched ahead of the host (``IN_FLIGHT``, and the next chunk's
first batches before a chunk's counts are finished) so the host never waits on one batch
before queueing the next. :func:`reduce_host` is the reference reduction from per-round
arrays. :func:`chunk_runner` picks the JAX path or the CuPy kernels
(:mod:`gpusim.compute.backends.cupy_rounds`); both give the same counts for the same rounds.
Nothing here touches the run folder: :mod:`gpusim.runs.runner` owns it.

The Jackpot meter is kept in 1/BP money units (:data:`gpusim.rules.BP`); it moves only in
:meth:`gpusim.rules.JackpotRules.advance`.
"""

from __future__ import annotations

import collections
import threading
from collections.abc import Callable

import numpy as np

from gpusim.compute.counts import merge_counts
from gpusim.rules import BP

__all__ = [
    "BACKENDS",
    "BP",  # gpusim.rules.BP, the meter unit, for callers of the runner
    "CPU_BATCH",
    "DEFAULT_CHUNK",
    "GPU_BATCH",
    "ChunkRunner",
    "chunk_runner",
    "reduce_host",
    "resolve_backend",
]

BACKENDS = ("auto", "jax-cpu", "jax-gpu", "cupy")
DEFAULT_CHUNK = 1 << 24
"""Rounds per chunk (one Parquet part per table) unless --chunk says otherwise.

A chunk costs the run a fixed amount of host work besides its compute (its counts made from
the histograms, seven Parquet parts encoded, fsynced and hashed, the manifest rewritten: about
15 ms of CPU on a 2-core machine, taken from the cores computing the next chunk), so chunks of
2^22 rounds cost a 10^8-round Casino Hold'em run about 0.3 s of CPU (``python
benchmarks/whole_run.py``); 2^24 cuts it to a quarter. A kill loses at most the chunk being
computed, one waiting and the one being written: about a second of CPU compute."""
GPU_BATCH = 1 << 22
"""Rounds per compute batch on a GPU (JAX): one program call's per-round arrays."""
CPU_BATCH = 1 << 18
"""Rounds per compute batch on the CPU: past ~2^19 rounds XLA's CPU path slows down (fresh
output buffers per call), so a chunk is computed in batches of at most this many rounds."""
SHORT_BATCH_MIN = 1 << 14
"""The smallest compiled batch size of :func:`short_batch_size`."""


def short_batch_size(n: int, batch: int) -> int:
    """The compiled size of a short batch of ``n`` rounds: the next power of two, at least
    SHORT_BATCH_MIN, at most ``batch``.

    Few sizes, because each is a program to compile, seconds on a 2-core machine (then kept
    on disk: gpusim.compute.program), while the padding deals and settles at most as many rounds
    again as the short batch holds, or 2^14 in all below that (a chunk has at most two short
    batches): runs of every size and chunking share at most five programs per rules
    structure and strategy on the CPU (2^14 .. 2^18 rounds)."""
    return min(batch, max(SHORT_BATCH_MIN, 1 << (n - 1).bit_length()))


IN_FLIGHT = 4
"""Batches a chunk runner dispatches ahead of the host: the host never waits for one batch
before queueing the next, and memory stays bounded whatever the chunk size."""


def resolve_backend(backend: str, rules=None, strategy=None) -> tuple[str, str, str | None]:
    """(backend, device name, note): see
    :func:`gpusim.compute.backends.select.choose_backend` (``auto`` falls back from cupy to
    jax-gpu to jax-cpu and says why; BackendError otherwise)."""
    from gpusim.compute.backends.select import choose_backend

    return tuple(choose_backend(backend, rules, strategy))


# ------------------------------------------------------------------------------------------------
# one chunk


def _make_step(rules, strategy) -> Callable:
    """jit-compiled (cards (N,9)) -> (decisions, settlement) for this config and strategy; the
    pays and stakes are arguments (:func:`gpusim.games.payout`), only the structure is traced."""
    import jax

    from gpusim.compute.program import untraceable_errors
    from gpusim.games import payout, settle

    structure = rules.structure()
    pay = jax.device_put(payout(rules))

    def step(cards, pay):
        decisions = strategy.decide(cards)
        return decisions, settle(cards, decisions, structure, payout=pay)

    fused = jax.jit(step)
    state = {"fused": True}

    def run(cards):
        if state["fused"]:
            try:
                return fused(cards, pay)
            except untraceable_errors():
                # a strategy that computes on the host (exact per-round counting) cannot be
                # traced; run it eagerly and keep the settlement compiled (once per structure)
                state["fused"] = False
        decisions = strategy.decide(cards)
        return decisions, settle(cards, decisions, structure, payout=pay)

    return run


def _apply_jackpot(
    rules,
    first_round: int,
    nets_jp: np.ndarray,
    stakes_jp: np.ndarray,
    royal: np.ndarray,
    meter: int,
) -> tuple[np.ndarray, int, list[tuple[int, int]]]:
    """Pay one chunk's Jackpot royals from per-round arrays (:meth:`JackpotRules.advance`).

    nets_jp, stakes_jp, royal: (N,) per round. ``meter`` is in 1/BP money units. Returns
    (nets with the royals paid, meter after, [(round, paid)]).
    """
    from gpusim.games import spec_for

    hits = np.flatnonzero(royal).tolist()
    meter, prizes = spec_for(rules).meter_rules(rules).advance(meter, stakes_jp, len(nets_jp),
                                                               hits)
    nets = nets_jp.astype(np.int64)
    for i, prize in zip(hits, prizes, strict=True):
        nets[i] = prize - int(stakes_jp[i])
    return nets, meter, [(first_round + i, prize) for i, prize in zip(hits, prizes, strict=True)]


def reduce_host(rules, decisions_j, s, first_round: int, n_rounds: int, meter: int):
    """Reference reduction of one settled chunk from its per-round arrays (numpy): one row per
    round into :func:`gpusim.compute.bins.counts_from_rows`, without the joint code that the
    device path (gpusim.compute.device_reduce) counts.

    decisions_j: the strategy's answers {point: (N,) int}; the game's decision tree says
    which of them a round reached. Returns (ChunkCounts, meter after the chunk).
    """
    from gpusim.compute.bins import counts_from_rows
    from gpusim.games import bets, spec_for
    from gpusim.strategy.tree import taken

    spec = spec_for(rules)
    answers = {p: np.asarray(decisions_j[p]).astype(np.int32) for p in spec.decision_points}
    actions = {p: np.asarray(a, np.int64) for p, a in taken(spec.decisions, answers).items()}
    names = s.event_names
    # the config's bet order, not the settlement dict's (jit returns dicts with sorted keys)
    order = [b for b in bets(rules) if b in s.nets]
    nets = {b: np.asarray(s.nets[b]).astype(np.int64) for b in order}
    stakes = {b: np.asarray(s.stakes[b]).astype(np.int64) for b in order}
    events = {b: np.asarray(s.events[b]).astype(np.int64) for b in order}
    hits: list[tuple[int, int]] = []
    if spec.meter_active(rules):
        bet = spec.meter_bet
        hit_code = names[bet].index(spec.meter_event)
        nets[bet], meter, hits = _apply_jackpot(
            rules, first_round, nets[bet], stakes[bet],
            (events[bet] == hit_code) & (stakes[bet] > 0), meter,
        )
    weight = np.ones(n_rounds, np.int64)
    return counts_from_rows(rules, nets, stakes, events, actions, weight, n_rounds, hits), meter


class ChunkRunner:
    """``runner(seed, first_round, n_rounds, meter) -> (ChunkCounts, meter after)``.

    Each batch is dealt, decided, settled and reduced on the device to a histogram of joint
    outcome codes (gpusim.compute.device_reduce) by its compiled batch programs
    (gpusim.compute.program), which ``program_cache`` keeps on disk between processes (CPU only);
    ``device_reduce=False`` uses the host reference reduction instead.
    """

    def __init__(
        self, rules, strategy, *, device_reduce: bool = True, batch: int = CPU_BATCH,
        program_cache: bool = True,
    ):
        from gpusim.compute.device_reduce import JointReducer
        from gpusim.games import bets

        self.rules = rules
        self.strategy = strategy
        self._step: Callable | None = None
        self.device_reduce = device_reduce
        self.batch = batch
        self.reducer = JointReducer(rules, list(bets(rules)))
        self.program_cache = program_cache
        self._programs: dict = {}
        self._ahead: list = []  # [((seed, start, n, size), device result)] of the next chunk
        self._loading: threading.Thread | None = None

    @property
    def step(self) -> Callable:
        """jit-compiled ``cards (N, 9) -> (decisions, settlement)``, built on first use: only
        the host reduction and untraceable strategies call it, and building it makes the
        process's first device array (the backend's start) on the caller's thread."""
        if self._step is None:
            self._step = _make_step(self.rules, self.strategy)
        return self._step

    def preload(self, first_round: int, n_rounds: int) -> None:
        """Start building the programs that rounds [first_round, first_round + n_rounds) need,
        on a background thread; :meth:`program` waits for it.

        Loading a program from disk is mostly XLA's deserialization, which runs without the
        GIL (0.14 to 0.3 s on a 2-core machine): the caller's own start-up (the run folder,
        an import) goes on beside it on the other core. An error is left to the caller's own
        build, which meets it again."""
        if self._loading is not None:
            return
        sizes = list(dict.fromkeys(size for _, _, size in self._plan(first_round, n_rounds)))

        def build() -> None:
            try:
                for size in sizes:
                    self._build(size)
            except Exception:  # noqa: BLE001 -- raised again by the caller's own build
                pass

        self._loading = threading.Thread(target=build, name="gpusim-programs", daemon=True)
        self._loading.start()

    def program(self, size: int):
        """The compiled program for batches of ``size`` rounds, or None when the strategy cannot
        be traced; built once per size (:class:`gpusim.compute.program.BatchProgram`)."""
        loading = self._loading
        if loading is not None and loading is not threading.current_thread():
            loading.join()
            self._loading = None
        return self._build(size)

    def _build(self, size: int):
        from gpusim.compute.program import BatchProgram

        if size not in self._programs:
            self._programs[size] = BatchProgram.build(
                self.rules, self.strategy, self.reducer, size, use_cache=self.program_cache
            )
        return self._programs[size]

    def __call__(
        self, seed: int, first_round: int, n_rounds: int, meter: int,
        advance: Callable[[int], None] | None = None,
        next_chunk: tuple[int, int] | None = None,
    ):
        """Count rounds [first_round, first_round + n_rounds) in batches, in round order.

        ``next_chunk``: (first_round, n_rounds) of the chunk the caller will count next with the
        same seed. Its first batches are dispatched before this chunk's last ones are collected,
        so the cores stay busy while the host finishes this chunk's counts; the next call picks
        them up (or drops them, if it asks for other rounds). The counts do not change.
        """
        if self.device_reduce:
            out = self._pipelined(seed, first_round, n_rounds, meter, advance, next_chunk)
            if out is not None:
                return out
        return self._sequential(seed, first_round, n_rounds, meter, advance)

    def _batches(self, first_round: int, n_rounds: int) -> list[tuple[int, int]]:
        """(start, n) of each batch. Batches end on multiples of the batch size, so the
        convergence checkpoints fall on the same rounds whatever the chunk size."""
        end = first_round + n_rounds
        out, start = [], first_round
        while start < end:
            n = min(self.batch - start % self.batch, end - start)
            out.append((start, n))
            start += n
        return out

    def _plan(self, first_round: int, n_rounds: int) -> list[tuple[int, int, int]]:
        """(start, n, compiled size) of each batch. A short batch is dealt at the full size and
        masked (one compiled program for the whole run) unless that wastes more than 1/8 of
        the chunk; then at :func:`short_batch_size`. Padded rows past 2**48 only get other
        counters, and are dropped."""
        return [
            (start, n, self.batch if self.batch - n <= n_rounds // 8
             else short_batch_size(n, self.batch))
            for start, n in self._batches(first_round, n_rounds)
        ]

    def _dispatch(self, key: tuple, start: int, n: int, size: int):
        """One batch's reduction, queued on the device (not waited for)."""
        return self.program(size)(*key, np.uint32(start & 0xFFFFFFFF), np.uint32(start >> 32),
                                  np.int32(n))  # fmt: skip

    def _pipelined(self, seed, first_round, n_rounds, meter, advance, next_chunk=None):
        """All batches reduced to code histograms on the device, dispatched ahead of the host
        (at most IN_FLIGHT batches, plus the next chunk's first ones), summed, and turned into
        counts once per chunk.

        Returns None (nothing counted, nothing advanced) for a strategy that cannot be traced.
        """
        import jax

        from gpusim.compute.bins import batch_progress, counts_from_bins
        from gpusim.rng import seed_key

        batches = self._plan(first_round, n_rounds)
        ahead, self._ahead = self._ahead, []
        if batches and self.program(batches[0][2]) is None:
            return None
        key = tuple(np.uint32(k) for k in seed_key(seed))
        window: collections.deque = collections.deque()
        done: list[tuple[int, int, dict]] = []

        def retire():
            start, n, res = window.popleft()
            done.append((start, n, jax.device_get(res)))
            if advance is not None:
                advance(n)

        # the batches the previous call dispatched early, when they are this chunk's first
        for batch, res in ahead:
            if len(window) < len(batches) and batch == (seed, *batches[len(window)]):
                window.append((batch[1], batch[2], res))
        for start, n, size in batches[len(window):]:
            window.append((start, n, self._dispatch(key, start, n, size)))
            if len(window) > IN_FLIGHT:
                retire()
        if next_chunk is not None:
            for start, n, size in self._plan(*next_chunk)[:IN_FLIGHT]:
                self._ahead.append(((seed, start, n, size), self._dispatch(key, start, n, size)))
        while window:
            retire()
        if not all(self.reducer.fits(res) for _, _, res in done):
            # more Jackpot royals in a batch than the device buffer holds (never, in practice):
            # recount the chunk exactly on the host; its batches were already advanced
            return self._sequential(seed, first_round, n_rounds, meter, None)
        bins = np.zeros(self.reducer.n_bins, np.int64)
        hits = [np.zeros((0, 2), np.int64)]
        for start, _, res in done:
            bins += np.asarray(res["bins"], np.int64)
            if self.reducer.has_jackpot:
                k = int(res["royal_count"])
                off = np.asarray(res["royal_idx"][:k], np.int64) + (start - first_round)
                hits.append(np.stack([off, np.asarray(res["royal_code"][:k], np.int64)], 1))
        counts, meter = counts_from_bins(
            self.rules, bins, np.concatenate(hits), first_round, n_rounds, meter
        )
        counts.progress = batch_progress(self.rules, done, counts)
        return counts, meter

    def _sequential(self, seed, first_round, n_rounds, meter, advance):
        parts = []
        progress = []
        cum: dict[str, tuple[int, int]] = {}
        for start, n in self._batches(first_round, n_rounds):
            counts, meter = self._batch(seed, start, n, meter)
            parts.append(counts)
            for bet, w in counts.wagers.items():
                a, b = cum.get(bet, (0, 0))
                cum[bet] = (a + w[1], b + w[2])
            progress.append((start + n, dict(cum)))
            if advance is not None:
                advance(n)
        out = parts[0] if len(parts) == 1 else merge_counts(parts)
        out.progress = progress
        return out, meter

    def _batch(self, seed: int, first_round: int, n_rounds: int, meter: int):
        from gpusim.dealing import deal
        from gpusim.games import spec_for

        cards = deal(seed, first_round, n_rounds, spec_for(self.rules).cards_per_round)
        decisions, s = self.step(cards)
        if self.device_reduce:
            res = self.reducer.device(decisions, s)
            if self.reducer.fits(res):
                return self.reducer.finish(res, n_rounds, first_round, meter)
        return reduce_host(self.rules, decisions, s, first_round, n_rounds, meter)


def chunk_runner(backend: str, rules, strategy) -> Callable:
    """A callable(seed, first_round, n_rounds, meter, advance, next_chunk) -> (ChunkCounts,
    meter); see :meth:`ChunkRunner.__call__`."""
    if backend != "cupy":
        batch = CPU_BATCH if backend == "jax-cpu" else GPU_BATCH
        return ChunkRunner(rules, strategy, batch=batch)
    from gpusim.compute.backends.cupy_rounds import make_chunk_runner

    inner = make_chunk_runner(rules, strategy)

    def run(seed, first_round, n_rounds, meter, advance=None, next_chunk=None):
        del next_chunk  # each launch fills the GPU; nothing to overlap
        out = inner(seed, first_round, n_rounds, meter)
        if advance is not None:
            advance(n_rounds)
        return out

    return run
