"""The Monte Carlo batch runner: deal, decide, settle and count, chunk by chunk, into a run folder.

Determinism: round r's cards depend only on (seed, r) (see :mod:`gpusim.dealing`), decisions and
settlement are pure functions of the cards, and every stored statistic is an integer sum. So the
totals of a run do not depend on the chunk size, on resuming, or on the backend. The one piece of
state carried from round to round is the progressive Jackpot meter; it is advanced in round order
and saved with every chunk, so a resumed run continues it exactly. Its arithmetic is exact
integers, in one place: :meth:`gpusim.rules.JackpotRules.advance`.
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Callable, Sequence
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

import gpusim
from gpusim.compute.chunks import (
    BACKENDS,
    DEFAULT_CHUNK,
    chunk_runner,
    resolve_backend,
)
from gpusim.compute.counts import ChunkCounts
from gpusim.games import spec_for
from gpusim.games.spec import METER_SECTION
from gpusim.runs.interrupt import Interrupted
from gpusim.runs.lock import RunLock
from gpusim.runs.runfolder import PART_TABLES, RunFolder, RunFolderError, part_schema
from gpusim.runs.writer import BackgroundWriter

if TYPE_CHECKING:  # polars loads on first use: a run's start-up does not wait for it
    import polars as pl

__all__ = [
    "BACKENDS",
    "DEFAULT_ROUNDS",
    "MAX_ROUNDS",
    "SimulationError",
    "parse_rounds",
    "plan_chunks",
    "run_identity",
    "run_simulation",
]

DEFAULT_ROUNDS = 10_000_000
MAX_ROUNDS = 2**48
"""Largest --rounds: the generator's round-index space (:data:`gpusim.dealing.MAX_ROUND`)."""



class SimulationError(ValueError):
    """Bad simulation input; the message is one line naming the field, value and what is allowed."""


def parse_rounds(text: str | int, field: str = "--rounds") -> int:
    """Parse a positive round count: ``2000000``, ``2_000_000``, ``2e6`` or ``1e9``.

    At most :data:`MAX_ROUNDS`; larger values are refused before any integer of their size is
    built (``1e1000000000`` would otherwise allocate gigabytes just to be parsed).
    """
    if isinstance(text, bool):
        raise SimulationError(f"{field}: got {text!r}; expected a positive whole number")
    bad = f"{field}: got {text!r}; expected a positive whole number like 2_000_000 or 1e9"
    too_big = (
        f"{field}: got {text!r}; at most 2^48 = {MAX_ROUNDS:,} rounds (the generator's "
        "round-index space)"
    )
    if isinstance(text, int):
        value = text
    else:
        s = str(text).strip().replace("_", "")
        if not re.fullmatch(r"[+-]?\d+(\.\d+)?([eE][+]?\d+)?", s):
            raise SimulationError(bad)
        d = Decimal(s)
        if d.is_finite() and d.adjusted() > len(str(MAX_ROUNDS)):
            raise SimulationError(too_big)
        if d != d.to_integral_value():
            raise SimulationError(bad)
        value = int(d)
    if value <= 0:
        raise SimulationError(f"{field}: got {text!r}; must be at least 1")
    if value > MAX_ROUNDS:
        raise SimulationError(too_big)
    return value


class ChunkPlan(Sequence):
    """The chunks of rounds [first, stop): ``(first_round, n_rounds)`` pairs, computed on demand.

    A lazy sequence, so planning 2^48 rounds costs nothing; the last chunk may be short.
    """

    def __init__(self, first: int, stop: int, chunk: int):
        self.first, self.stop, self.chunk = first, stop, chunk

    def __len__(self) -> int:
        return -(-(self.stop - self.first) // self.chunk)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        n = len(self)
        if k < 0:
            k += n
        if not 0 <= k < n:
            raise IndexError(k)
        s = self.first + k * self.chunk
        return (s, min(self.chunk, self.stop - s))

    def __eq__(self, other) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            if len(self) != len(other):
                return False
            return all(a == tuple(b) for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None

    def __repr__(self) -> str:
        return f"ChunkPlan({self.first}, {self.stop}, {self.chunk})"


def plan_chunks(rounds: int, chunk: int, first: int = 0) -> ChunkPlan:
    """[(first_round, n_rounds)] covering first..first+rounds-1 in order (lazy)."""
    return ChunkPlan(first, first + rounds, chunk)


def _refuse_other_settings(path: Path, identity: dict) -> RunFolder | None:
    """The run in ``path`` to resume (None: no manifest there); RunFolderError when it was
    started with other settings than ``identity``."""
    if not (path / "manifest.json").is_file():
        return None
    folder = RunFolder.open(path)
    mismatch = [k for k, v in identity.items() if folder.manifest.get(k) != v]
    if mismatch:
        k = mismatch[0]
        raise RunFolderError(
            f"--resume: {k} is {identity[k]!r} but the run in {str(path)!r} has "
            f"{folder.manifest.get(k)!r}; resume with the same settings or use --force"
        )
    return folder


def _started_chunk(path: Path) -> int | None:
    """The chunk size of the run in ``path`` (None: no readable manifest; the resume check
    that follows says what is wrong with it)."""
    try:
        value = RunFolder.open(path).manifest.get("chunk_rounds")
    except RunFolderError:
        return None
    return value if type(value) is int and value > 0 else None


def run_identity(rules, strategy_name: str, seed: int, n_rounds: int, chunk_rounds: int,
                 n_chunks: int) -> dict:
    """The manifest keys that make a run what it is (a resumed run must match them all)."""
    from gpusim.games import bets as game_bets

    return {
        "config_name": rules.name,
        "game": rules.game,
        "config": rules.to_dict(),
        "config_hash": rules.config_hash,
        "bets": list(game_bets(rules)),
        "strategy": strategy_name,
        "seed": seed,
        "rounds": n_rounds,
        "chunk_rounds": chunk_rounds,
        "n_chunks": n_chunks,
    }


def chunk_tables(chunk: int, c: ChunkCounts,
                 first_round: int | None = None) -> dict[str, pl.DataFrame]:
    """The Parquet parts of one chunk, {table: DataFrame} with the schemas of
    :data:`gpusim.runs.runfolder.PART_SCHEMAS`.

    ``progress`` holds the chunk's cumulative wagers at each checkpoint (``c.progress``), or one
    row per bet at the chunk's end when the backend records none (``first_round`` needed)."""
    import polars as pl

    steps = c.progress or ([(first_round + c.rounds, {b: (w[1], w[2]) for b, w in
                                                       c.wagers.items()})]
                           if first_round is not None else [])
    rows = {  # each row in its table's column order
        "outcomes": [(chunk, bet, net, n) for bet, d in c.outcomes.items()
                     for net, n in sorted(d.items())],
        "events": [(chunk, bet, ev, n) for bet, d in c.events.items() for ev, n in d.items()],
        "decisions": [(chunk, p, a, n) for p, d in c.decisions.items() for a, n in d.items()],
        "wagers": [(chunk, bet, *w) for bet, w in c.wagers.items()],
        "moments": [(chunk, a, b, v) for (a, b), v in c.moments.items()],
        METER_SECTION: [(chunk, r, m) for r, m in c.jackpot_hits],
        "progress": [(chunk, end, bet, w, r) for end, d in steps for bet, (w, r) in d.items()],
    }
    return {table: pl.DataFrame(rows[table], schema=part_schema(table), orient="row")
            for table in PART_TABLES}


# ------------------------------------------------------------------------------------------------
# the whole run


@dataclasses.dataclass
class Progress:
    """Callbacks the CLI uses for its progress bar; the library stays silent by default."""

    start: Callable[[int, int], None] = lambda total, done: None
    advance: Callable[[int], None] = lambda n: None
    note: Callable[[str], None] = lambda text: None


def run_simulation(
    config,
    *,
    rounds: int | str,
    seed: int,
    out: str | Path,
    strategy: str | None = None,
    backend: str = "auto",
    chunk: int | str | None = None,
    resume: bool = False,
    force: bool = False,
    progress: Progress | None = None,
    shard: str | tuple[int, int] | None = None,
) -> Path:
    """Run (or resume) a simulation into the folder ``out``; returns the folder path.

    ``shard`` ("I/N" or (I, N)) plays only slice I of the N slices of the global round range
    (:mod:`gpusim.runs.shards`); ``gpusim merge`` combines the slices.

    All input is validated before anything is written: a bad value raises SimulationError,
    ConfigError, StrategyError or RunFolderError with a one-line message and leaves no files.
    """
    from gpusim.compile_cache import enable as enable_compile_cache
    from gpusim.compute.backends.select import check_backend_name
    from gpusim.compute.jax_import import import_jax
    from gpusim.config import load_config
    from gpusim.games.strategy_registry import check_strategy_name, get_strategy
    from gpusim.runs.exact_on_demand import prepare_strategy

    progress = progress or Progress()
    rules = load_config(config)
    n_rounds = parse_rounds(rounds)
    chunk_rounds = DEFAULT_CHUNK if chunk is None else parse_rounds(chunk, "--chunk")
    for field, given, value in (("--rounds", rounds, n_rounds), ("--chunk", chunk, chunk_rounds)):
        if value > MAX_ROUNDS:
            raise SimulationError(f"{field}: got {given!r}; at most 2**48 = {MAX_ROUNDS:,} rounds "
                                  "(the dealer's round index limit)")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
        raise SimulationError(f"--seed: got {seed!r}; expected an integer in 0..2^64-1")
    if resume and force:
        raise SimulationError("--resume and --force: give at most one of them")
    from gpusim.runs.shards import parse_shard, shard_range

    shard_ix = parse_shard(shard) if shard is not None else None
    first_round, stop_round = shard_range(n_rounds, *shard_ix) if shard_ix else (0, n_rounds)
    strategy_name = strategy or rules.default_strategy
    # Every refusal that needs no JAX comes first: a bad name, folder or resume costs no import.
    check_strategy_name(strategy_name, rules)
    check_backend_name(backend)
    path = RunFolder.check_writable(out, resume=resume, force=force)
    if resume and chunk is None:
        # a run keeps the chunk size it started with, whichever default it was started under
        chunk_rounds = _started_chunk(path) or chunk_rounds
    plan = plan_chunks(stop_round - first_round, chunk_rounds, first_round)
    identity = run_identity(rules, strategy_name, seed, n_rounds, chunk_rounds, len(plan))
    if shard_ix:
        identity["shard"] = {"index": shard_ix[0], "count": shard_ix[1],
                             "first_round": first_round, "n_rounds": stop_round - first_round}
    if resume:
        _refuse_other_settings(path, identity)
    # JAX's first import, without its scan of every installed package (gpusim.compute.jax_import)
    import_jax()
    # before anything compiles: JAX reads the setting once per process
    enable_compile_cache()
    prepare_strategy(strategy_name, rules)
    strat = get_strategy(strategy_name, rules)
    # An unusable backend or a strategy without a kernel form fails before anything is written.
    backend_name, device, note = resolve_backend(backend, rules, strat)
    with RunLock(path):
        runner = chunk_runner(backend_name, rules, strat)
        preload = getattr(runner, "preload", None)
        if preload is not None:
            # the first chunk's programs load on another thread (XLA's deserialization runs
            # without the GIL) while this one makes the run folder and loads Polars
            preload(*plan[0])
        if note:
            progress.note(note)
        if resume and (path / "manifest.json").is_file():
            # again under the lock: another process may have written the run since
            folder = _refuse_other_settings(path, identity)
            # a chunk whose parts fail their sha256 is forgotten and recomputed; the others stay
            redo = folder.forget_corrupt_chunks()
            if redo:
                progress.note(f"--resume: recomputing chunk(s) {', '.join(map(str, redo))} "
                              "whose parts do not match their sha256")
            folder.discard_unfinished()
            folder.manifest["status"] = "running"
        else:
            meter0 = spec_for(rules).start_meter(rules)
            folder = RunFolder.create(
                path,
                {
                    "gpusim_version": gpusim.__version__,
                    **identity,
                    "chunk_plan": {"first_round": first_round, "chunk_rounds": chunk_rounds,
                                   "last_chunk_rounds": plan[-1][1]},
                    "backend": backend_name,
                    "device": device,
                    "jackpot_meter_start_bp": meter0,
                    # a later shard cannot know the meter its first round inherits: it starts
                    # from the reset value and `gpusim merge` settles its first royal
                    # (gpusim.runs.shards)
                    **({"jackpot_meter_provisional": True}
                       if shard_ix and shard_ix[0] > 0 and spec_for(rules).meter_rules(rules)
                       else {}),
                },
                force=force,
            )
        folder.manifest["backend"] = backend_name
        folder.manifest["device"] = device
        folder.save_manifest()

        done = folder.completed()
        meter0 = folder.manifest.get("jackpot_meter_start_bp", 0)
        if preload is not None:
            _load_polars()
        progress.start(n_rounds, sum(r["n_rounds"] for r in done.values()))
        t_run = time.perf_counter()

        def write(item):
            k, counts, record = item
            try:
                tables = chunk_tables(k, counts, record["first_round"])
                folder.commit_chunk({**record, "files": folder.write_parts(k, tables)})
            except OSError as exc:
                raise RunFolderError(_write_failure(path, k, exc)) from None

        # Parts are written and committed on a background thread while the next chunk
        # computes; the manifest still lists a chunk only once its parts are in place
        # (gpusim.runs.writer), and a kill loses at most the chunk being computed, one waiting
        # and the one being written.
        session = [0]  # rounds this session computed

        def compute(writer: BackgroundWriter) -> None:
            for k, (first, n) in enumerate(plan):
                if k in done:
                    continue
                # the meter entering chunk k is what chunk k-1 left, whichever session computed it
                meter = done[k - 1]["jackpot_meter_end_bp"] if k - 1 in done else meter0
                t0 = time.perf_counter()
                # the next chunk this session computes, whose first batches the runner may start
                # while this chunk's counts are finished on the host
                following = next((plan[j] for j in range(k + 1, len(plan)) if j not in done), None)
                counts, meter_after = runner(seed, first, n, meter, advance=progress.advance,
                                             next_chunk=following)
                after = done.get(k + 1, {})
                if after.get("jackpot_meter_start_bp", meter_after) != meter_after:
                    raise RunFolderError(
                        f"--resume: chunk {k} recomputed ends with Jackpot meter {meter_after} but "
                        f"chunk {k + 1} started from {after['jackpot_meter_start_bp']}; use --force"
                    )
                record = {
                    "chunk": k,
                    "first_round": first,
                    "n_rounds": n,
                    "jackpot_meter_start_bp": meter,
                    "jackpot_meter_end_bp": meter_after,
                    "elapsed_s": round(time.perf_counter() - t0, 6),
                }
                writer.submit((k, counts, record))
                done[k] = record  # for the next chunk's meter; the writer commits it
                session[0] += n

        stopped: BaseException | None = None
        # Polars (the parts' encoder), when not loaded above, loads on the writer thread while
        # the first chunk computes, not after it: a run of one chunk would wait for it at its end
        with BackgroundWriter(write, max_pending=1, prepare=_load_polars) as writer:
            try:
                compute(writer)
            except (Interrupted, KeyboardInterrupt) as exc:
                # the chunk being computed is dropped; leaving the block normally still
                # writes and commits the chunks already finished (the writer's queue)
                stopped = exc
        if stopped is not None:
            folder.manifest["status"] = "interrupted"
            folder.save_manifest()
            raise stopped
        wall = time.perf_counter() - t_run
        folder.manifest["status"] = "complete"
        folder.manifest["rounds_per_s"] = _rate(folder)
        folder.manifest["last_session"] = {
            "rounds": session[0],
            "wall_s": round(wall, 3),
            "rounds_per_s": session[0] / wall if wall > 0 and session[0] else None,
        }
        try:
            folder.save_manifest()
        except OSError as exc:
            raise RunFolderError(_write_failure(path, len(plan) - 1, exc)) from None
        return path


def _load_polars() -> None:
    import polars  # noqa: F401


def _write_failure(path: Path, chunk: int, exc: OSError) -> str:
    """One line for a failed write (a full disk, a quota): the finished chunks are intact."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    return (f"--out: cannot write chunk {chunk} to {str(path)!r} ({reason}); the chunks "
            "finished before it are kept: free space and rerun with --resume")


def _rate(folder: RunFolder) -> float | None:
    recs = folder.completed().values()
    t = sum(r["elapsed_s"] for r in recs)
    n = sum(r["n_rounds"] for r in recs)
    return n / t if t > 0 else None
