"""``gpusim simulate ... --ray [ADDRESS]``: one run as shards on a Ray cluster.

The run's chunk plan is cut into contiguous shards, one Ray task each: ``num_gpus=1`` per task
when the cluster has GPUs (so a server with several GPUs uses them all, each task on its own
device), one CPU per task otherwise. Without ``--chunk`` the chunk size is lowered so that every
GPU (or CPU) gets a shard.

Storage: **the counts are sent back to the driver**, which alone writes the run folder. A task
returns its chunks' integer counts (a few kilobytes a chunk), so workers need no shared
filesystem and nothing a worker writes can be half-finished. The driver writes a shard's parts
as soon as every shard before it is in (the progressive Jackpot is settled in round order, see
:mod:`gpusim.runs.shards`), keyed by chunk and round range: a chunk already in the manifest with
the same range is never written again.

Faults: a task whose worker dies is retried by Ray (``max_retries``) from its shard's first
round; a killed attempt returns nothing, so no round is counted twice. One progress bar covers
all shards: each attempt reports the rounds it has done to a small actor, and a retried shard's
count restarts from zero.

No silent wait: ``ray.init`` is watched by a separate process (:mod:`gpusim.runs.ray_watchdog`;
when workers cannot start it blocks inside Ray, out of reach of this process), and once Ray is
up a run in which no shard starts, advances or finishes for ``timeout`` seconds (counted from
the start of ``ray.init``) fails with the cause read from the workers' logs. A local cluster
this run started is shut down on every way out, and what is left of it (Ray's agents can
outlive the raylet) is ended by pid.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

from gpusim.games import spec_for
from gpusim.runs.interrupt import interruption_in, kept_through
from gpusim.runs.lock import RunLock
from gpusim.runs.ray_watchdog import TOKEN, descendants, stall_cause, sweep
from gpusim.runs.runner import (
    BACKENDS,
    DEFAULT_CHUNK,
    Progress,
    SimulationError,
    parse_rounds,
    plan_chunks,
)
from gpusim.runs.shards import ChunkResult, JackpotSettler, Segment

__all__ = ["DEFAULT_TIMEOUT", "MAX_RETRIES", "simulate_ray"]

MAX_RETRIES = 3
DEFAULT_TIMEOUT = 120.0
"""Seconds a Ray run may go without a shard starting, advancing or finishing."""
_POLL_S = 0.1


def _run_shard(rules, strategy_name: str, backend: str, seed: int, shard: int,
               chunks: list[tuple[int, int, int]], meter0: int, tracker) -> dict:
    """Ray task: count the shard's chunks [(chunk, first_round, n_rounds)] from meter0."""
    import ray

    from gpusim.compute.chunks import chunk_runner, resolve_backend
    from gpusim.games.strategy_registry import get_strategy
    from gpusim.runs.exact_on_demand import prepare_strategy

    ray.get(tracker.start.remote(shard, os.getpid()))
    backend_name, device, _ = resolve_backend(backend)
    prepare_strategy(strategy_name, rules)  # a worker on another node may lack the cached tables
    runner = chunk_runner(backend_name, rules, get_strategy(strategy_name, rules))
    meter, out = meter0, []
    for i, (k, first, n) in enumerate(chunks):
        t0 = time.perf_counter()
        following = chunks[i + 1][1:] if i + 1 < len(chunks) else None
        counts, meter = runner(seed, first, n, meter, next_chunk=following,
                               advance=lambda m: tracker.advance.remote(shard, m))
        out.append((k, ChunkResult(first, n, counts, meter, time.perf_counter() - t0)))
    return {"chunks": out, "backend": backend_name, "device": device}


class _Tracker:
    """Ray actor: rounds done per shard in its current attempt, and attempts per shard."""

    def __init__(self):
        self.done: dict[int, int] = {}
        self.attempts: dict[int, int] = {}
        self.pids: dict[int, int] = {}

    def start(self, shard: int, pid: int) -> None:
        self.done[shard] = 0
        self.attempts[shard] = self.attempts.get(shard, 0) + 1
        self.pids[shard] = pid

    def advance(self, shard: int, n: int) -> None:
        self.done[shard] = self.done.get(shard, 0) + n

    def state(self) -> dict:
        return {"done": sum(self.done.values()), "attempts": dict(self.attempts),
                "pids": dict(self.pids)}


def _connect(address: str | None, timeout: float):
    """Import and initialise Ray; returns (ray, (the run's token, its watchdog)), or (ray, None)
    when Ray was initialised already (then it is the caller's to shut down).

    ``ray.init`` runs on the main thread: Ray's processes die with the thread that started
    them (Linux parent-death signal)."""
    try:
        import ray
    except ImportError:
        raise SimulationError("--ray: the ray package is not installed; install gpusim[ray]"
                              ) from None
    if ray.is_initialized():
        return ray, None
    addr = None if address in (None, "", "auto") else address
    # every process of a cluster this run starts inherits the token: found by it, even orphaned
    token = os.environ[TOKEN] = uuid.uuid4().hex
    # ray.init may block where no timeout of this process reaches, or Ray may abort this
    # process from C++: a watchdog process bounds the one and cleans up after the other
    dog = subprocess.Popen([sys.executable, "-m", "gpusim.runs.ray_watchdog", str(os.getpid()),
                            str(timeout), str(time.time()), token], stdin=subprocess.PIPE,
                           env={k: v for k, v in os.environ.items() if k != TOKEN})
    try:
        with kept_through():
            ray.init(address=addr, logging_level="ERROR", log_to_driver=False,
                     include_dashboard=False)
        dog.stdin.write(b"ok\n")
        dog.stdin.flush()
    except BaseException as exc:
        _stop(ray, token, dog)
        if isinstance(exc, (ConnectionError, ValueError, RuntimeError)):
            raise SimulationError(f"--ray: cannot connect to {address!r}: "
                                  f"{' '.join(str(exc).split())[:200]}") from None
        raise
    return ray, (token, dog)


def _stop(ray, token: str, dog) -> None:
    """Shut Ray down, end whatever of the cluster this run started is left (Ray's agents can
    outlive the raylet; found by the run's token), and let the watchdog go."""
    known = [p for p in descendants(os.getpid()) if p.pid != dog.pid]
    with contextlib.suppress(Exception), kept_through():
        ray.shutdown()
    sweep(token, known)
    with contextlib.suppress(OSError, subprocess.TimeoutExpired):
        dog.communicate(timeout=10)


def simulate_ray(
    config,
    *,
    address: str | None,
    rounds: int | str,
    seed: int,
    out: str | Path,
    strategy: str | None = None,
    backend: str = "auto",
    chunk: int | str | None = None,
    force: bool = False,
    progress: Progress | None = None,
    shards: int | None = None,
    timeout: float = DEFAULT_TIMEOUT,
):
    """Run a simulation as shards on Ray into the folder ``out``; returns the :class:`Run`.

    ``address``: a Ray address, ``"auto"`` / None (the cluster of ``RAY_ADDRESS`` or of this
    machine, else a new local one) or ``"local"``. ``shards``: tasks to cut the run into
    (default: the cluster's GPUs, else its CPUs). Counts are identical to a single-process run
    with the same seed.

    No silent wait: when for ``timeout`` seconds no shard starts, advances or finishes, the run
    fails with a SimulationError naming the cause found in Ray's worker logs. A local cluster
    this call started is shut down on every way out (an error, :class:`Interrupted`). The run
    folder is created when the first shard's counts arrive, so a cluster that never ran
    anything leaves no folder behind.
    """
    from gpusim.config import load_config
    from gpusim.games.strategy_registry import get_strategy
    from gpusim.runs.exact_on_demand import prepare_strategy
    from gpusim.runs.run_api import Run
    from gpusim.runs.runfolder import RunFolder

    progress = progress or Progress()
    rules = load_config(config)
    n_rounds = parse_rounds(rounds)
    chunk_given = None if chunk is None else parse_rounds(chunk, "--chunk")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
        raise SimulationError(f"--seed: got {seed!r}; expected an integer in 0..2^64-1")
    if backend not in BACKENDS:
        raise SimulationError(f"--backend: got {backend!r}; allowed: {', '.join(BACKENDS)}")
    strategy_name = strategy or rules.default_strategy
    prepare_strategy(strategy_name, rules)
    strat = get_strategy(strategy_name, rules)
    path = RunFolder.check_writable(out, resume=False, force=force)
    with RunLock(path):
        since = time.monotonic()
        ray, started = _connect(address, timeout)
        box: dict = {}  # the run folder, once made: an interruption marks it
        try:
            _run(ray, box, path, rules, strat, strategy_name, seed, n_rounds, chunk_given,
                 backend, force, progress, shards, timeout, since, address)
        except BaseException as exc:
            stop = interruption_in(exc)
            if stop is None and not isinstance(exc, KeyboardInterrupt):
                raise
            if "folder" in box:
                box["folder"].manifest["status"] = "interrupted"
                box["folder"].save_manifest()
            if stop is None or stop is exc:
                raise
            raise stop from None
        finally:
            if started is not None:
                _stop(ray, *started)
        run = Run(path)
        run.write_summary()
        return run


def _run(ray, box, path, rules, strat, strategy_name, seed, n_rounds, chunk_given, backend,
         force, progress, shards, timeout, since, address) -> None:
    res = ray.cluster_resources()
    gpus, cpus = int(res.get("GPU", 0)), max(1, int(res.get("CPU", 1)))
    workers = shards or gpus or cpus
    chunk_rounds = chunk_given or min(DEFAULT_CHUNK, -(-n_rounds // workers))
    plan = plan_chunks(n_rounds, chunk_rounds)
    n_shards = min(workers, len(plan))
    cut = [len(plan) * i // n_shards for i in range(n_shards + 1)]
    groups = [[(k, *plan[k]) for k in range(cut[i], cut[i + 1])] for i in range(n_shards)]
    progress.note(f"ray: {n_shards} shards on {gpus} GPU(s) / {cpus} CPU(s)")

    meter0 = spec_for(rules).start_meter(rules)
    tracker = ray.remote(num_cpus=0)(_Tracker).remote()
    task = ray.remote(_run_shard).options(
        num_gpus=1 if gpus else 0, num_cpus=0 if gpus else 1, max_retries=MAX_RETRIES,
    )
    refs = {
        task.remote(rules, strategy_name, backend, seed, i, g, meter0, tracker): i
        for i, g in enumerate(groups)
    }
    progress.start(n_rounds, 0)
    t0 = time.perf_counter()
    shown, results, pending, next_shard = 0, {}, list(refs), 0
    devices: set[tuple[str, str]] = set()
    settler = JackpotSettler(rules, strat, seed)
    # the clock of "no silent wait": reset whenever a shard starts, advances or finishes
    watch = _Watch(ray, tracker, timeout, since)
    state: dict = {"attempts": {}}
    while pending:
        ready, pending = ray.wait(pending, num_returns=len(pending), timeout=_POLL_S)
        for ref in ready:
            try:
                results[refs[ref]] = ray.get(ref)
            except ray.exceptions.RayError as exc:
                if interruption_in(exc):
                    raise
                raise SimulationError(
                    f"--ray: shard {refs[ref]} failed (worker deaths are retried up to "
                    f"{MAX_RETRIES} times): "
                    f"{' '.join(str(exc).split())[:300]}"
                ) from None
        state = watch.poll(bool(ready), f"{len(pending)} of {n_shards} shards unfinished; "
                                        f"the cluster has {cpus} CPU(s), {gpus} GPU(s)") or state
        done = state.get("done", shown)
        if done != shown:
            progress.advance(done - shown)
            shown = done
        # the Jackpot is settled in round order: write a shard once all before it are in
        while next_shard in results:
            r = results.pop(next_shard)
            if "folder" not in box:
                box["folder"] = _create(path, rules, strategy_name, seed, n_rounds, chunk_rounds,
                                        len(plan), meter0, force)
            seg = Segment(groups[next_shard][0][1], meter0, next_shard > 0,
                          [c for _, c in r["chunks"]])
            for (k, _), c in zip(r["chunks"], settler.settle(seg), strict=True):
                _write_chunk(box["folder"], k, c)
            devices.add((r["backend"], r["device"]))
            next_shard += 1
    state = watch.final() or state
    if shown < n_rounds:  # the last reports may still be on their way: every round is in
        progress.advance(n_rounds - shown)
    wall = time.perf_counter() - t0
    folder = box["folder"]
    folder.manifest.update({
        "backend": ",".join(sorted({b for b, _ in devices})),
        "device": ",".join(sorted({d for _, d in devices})),
        "ray": {"address": address or "auto", "shards": n_shards, "gpus": gpus, "cpus": cpus,
                "num_gpus_per_task": 1 if gpus else 0,
                "attempts": {str(k): v for k, v in sorted(state["attempts"].items())}},
        # wall clock of the whole cluster run, worker start-up and compilation included
        "rounds_per_s": n_rounds / wall if wall > 0 else None,
        "last_session": {"rounds": n_rounds, "wall_s": round(wall, 3),
                         "rounds_per_s": n_rounds / wall if wall > 0 else None},
        "status": "complete",
    })
    folder.save_manifest()


class _Watch:
    """Polls the tracker without ever blocking on it (its actor may never start) and fails the
    run when nothing moved for ``timeout`` seconds."""

    def __init__(self, ray, tracker, timeout: float, since: float):
        self.ray, self.tracker, self.timeout = ray, tracker, timeout
        self.ref = None
        self.key = None
        self.t_start = time.time()
        self.last = since  # time.monotonic() when Ray's start-up began: it counts too

    def poll(self, moved: bool, situation: str) -> dict | None:
        ray, state = self.ray, None
        if self.ref is None:
            self.ref = self.tracker.state.remote()
        if ray.wait([self.ref], timeout=0)[0]:
            try:
                state = ray.get(self.ref)
            except ray.exceptions.RayError as exc:
                if interruption_in(exc):
                    raise
                cause = _stall_cause(ray, self.t_start, "the progress actor failed",
                                    " ".join(str(exc).split())[:200])
                raise SimulationError(f"--ray: {cause}") from None
            self.ref = None
            key = (state["done"], tuple(sorted(state["attempts"].items())))
            moved = moved or key != self.key
            self.key = key
        now = time.monotonic()
        if moved:
            self.last = now
        elif now - self.last > self.timeout:
            head = f"no shard started or advanced for {self.timeout:g} s"
            raise SimulationError(f"--ray: {_stall_cause(ray, self.t_start, head, situation)}")
        return state

    def final(self) -> dict | None:
        try:
            return self.ray.get(self.tracker.state.remote(), timeout=self.timeout)
        except self.ray.exceptions.RayError:
            return None


def _stall_cause(ray, since: float, head: str, situation: str | None) -> str:
    return stall_cause(_logs_dir(ray), since, head, situation)


def _logs_dir(ray) -> Path | None:
    try:
        node = ray._private.worker._global_node  # noqa: SLF001 -- no public accessor
        return Path(node.get_logs_dir_path())
    except Exception:  # noqa: BLE001 -- a diagnosis must not fail the diagnosis
        return None


def _create(path, rules, strategy_name, seed, n_rounds, chunk_rounds, n_chunks, meter0, force):
    import gpusim
    from gpusim.runs.runfolder import RunFolder
    from gpusim.runs.runner import run_identity

    last = n_rounds - (n_chunks - 1) * chunk_rounds
    return RunFolder.create(path, {
        "gpusim_version": gpusim.__version__,
        **run_identity(rules, strategy_name, seed, n_rounds, chunk_rounds, n_chunks),
        "chunk_plan": {"first_round": 0, "chunk_rounds": chunk_rounds,
                       "last_chunk_rounds": last},
        "jackpot_meter_start_bp": meter0,
    }, force=force)


def _write_chunk(folder, k: int, c: ChunkResult) -> None:
    """Write chunk k unless the manifest already holds it for the same round range."""
    from gpusim.runs.runner import chunk_tables

    have = folder.completed().get(k)
    if have is not None:
        if (have["first_round"], have["n_rounds"]) != (c.first_round, c.n_rounds):
            raise SimulationError(f"--ray: chunk {k} is already written for another round range")
        return
    files = folder.write_parts(k, chunk_tables(k, c.counts, c.first_round))
    folder.commit_chunk({"chunk": k, "first_round": c.first_round, "n_rounds": c.n_rounds,
                         "files": files, "jackpot_meter_end_bp": c.meter_end,
                         "elapsed_s": round(c.elapsed_s, 6)})
