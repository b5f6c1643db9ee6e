"""A batch of rounds as two compiled programs, kept on disk between processes.

On the JAX path a batch is deal -> decide -> settle -> reduce (:mod:`gpusim.compute.device_reduce`).
:class:`BatchProgram` compiles them as two programs: deal, decide and settle, which hands on
only each bet's event and stake; then the joint-code histogram. The split is measured, not
style (``python benchmarks/program_split.py``): on XLA's CPU backend (jax 0.10) this pair ran a
Casino Hold'em batch about 1.5x faster than three programs (deal | decide and settle | reduce),
and about 2x faster than one program or than computing the joint codes in the first (XLA
fuses the histogram's inputs into the settlement and computes them more than once). The
compiled executables are saved in the user's cache folder.

Why a cache of our own beside JAX's persistent compilation cache: JAX keys its cache by the
lowered program, so every process first traces and lowers the whole Python pipeline (about a
second for one game's batch on a 2-core machine, the largest fixed cost of a run) only to find
the executable on disk. This cache is keyed by what the program is made of, so a warm process
loads the executable without tracing anything. The key is the sha256 of:

- :data:`FORMAT`, the JAX and jaxlib versions, the platform, its version and the device kind;
- the CPU's feature flags: an executable built for one instruction set must not load on a
  machine without it (a cache folder on a cluster's shared home directory is common);
- the sha256 of every ``.py`` file of the installed gpusim package (any code change misses);
- the rules' ``structure_hash`` (not their ``config_hash``), the strategy's
  :func:`strategy_fingerprint`, the batch size, and whether 64-bit mode is on.

Paytables are numbers, not code: the settle program takes the config's pays and stakes
(:func:`gpusim.games.payout`) as arguments beside the round indices, so configs that differ
only in them (a paytable sweep, a what-if) share one key and one executable. Within a process
the executables are also kept in memory by key (:data:`BUILDS` counts how each build was had),
so the second such config neither compiles nor reads the disk.

The disk is used on the CPU platform only; a GPU process keeps JAX's cache (a GPU executable
holds a device assignment, and that path has not been run on a GPU yet). A strategy without a
fingerprint (a caller's own Python function) is traced in every process, as before.

File: ``<compile cache>/programs/<key>-<part>.xla``: one JSON header line (format, the
payload's sha256, the shapes of the argument and result trees) and the serialized executable.
A file that is short, fails its checksum, does not load or does not run (every loaded program
runs one masked batch first) is compiled again and rewritten: the cache only ever saves time.
A fresh compile is saved only after its serialized copy has been loaded back and run.
Files are written to a temporary name and renamed, so a crash leaves no half file. Loading a
file runs code from it (as JAX's own cache does): the folder must be writable by its user only.
"""

from __future__ import annotations

import collections
import contextlib
import hashlib
import json
import os
import platform
import tempfile
from functools import cache
from pathlib import Path

import numpy as np

from gpusim.compute.device_reduce import SettledBets

__all__ = [
    "BUILDS",
    "FORMAT",
    "BatchProgram",
    "program_cache_dir",
    "strategy_fingerprint",
    "untraceable_errors",
]

FORMAT = "gpusim-batch-program-1"
BUILDS: collections.Counter = collections.Counter()
"""How many batch programs this process has had, by :attr:`BatchProgram.origin`: ``compiled``,
``unsaved`` and ``jit`` were XLA compiles; ``disk`` and ``memory`` were not."""
_MEMORY_SIZE = 16
_memory: dict[tuple, tuple] = {}  # (key, folder) -> (settle, reduce), the newest _MEMORY_SIZE

def strategy_fingerprint(strategy) -> str | None:
    """What a compiled batch of ``strategy`` depends on, as text; None when that is unknown.

    A table strategy: its name and the sha256 of each table. A rule strategy whose function
    (or, for a ``PointRules``, every point's function) is part of gpusim: the import paths
    (the code is in the source digest), or the ``PointRules``'s ``key`` where its functions are
    made per game (a described game's rule strategy: the description itself is in the rules'
    ``structure_hash``, which the program's key holds too). Anything else, e.g. a caller's own
    function, has no fingerprint and is never cached.
    """
    tables = getattr(strategy, "tables", None)
    if isinstance(tables, dict):
        h = hashlib.sha256(f"{type(strategy).__qualname__}:{strategy.name}".encode())
        for key in sorted(tables):
            arr = np.ascontiguousarray(tables[key])
            h.update(f"|{key}:{arr.dtype.str}:{arr.shape}|".encode())
            h.update(arr.tobytes())
        return "tables:" + h.hexdigest()
    fn = getattr(strategy, "fn", None)
    # a PointRules holds one function per decision point: each must be gpusim's own
    fns = getattr(fn, "fns", None) or {"": fn}
    key = getattr(fn, "key", None)
    paths = []
    for point, f in fns.items():
        module = getattr(f, "__module__", "") or ""
        qualname = getattr(f, "__qualname__", "<")
        if f is None or not module.startswith("gpusim.") or ("<" in qualname and key is None):
            return None
        paths.append(f"{point}={module}:{qualname}" if point else f"{module}:{qualname}")
    return "rule:" + ",".join(paths) + (f"|{key}" if key is not None else "")


@cache
def _source_digest() -> str:
    root = Path(__file__).resolve().parents[1]
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode() + b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()


@cache
def _cpu_flags() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith(("flags", "Features")):
                    return " ".join(sorted(line.split(":", 1)[1].split()))
    except OSError:
        pass
    return f"{platform.machine()} {platform.processor()}"


def program_cache_dir() -> Path | None:
    """Where batch programs are kept (None: caching is off; see :mod:`gpusim.compile_cache`)."""
    from gpusim.compile_cache import cache_dir

    base = cache_dir()
    return None if base is None else base / "programs"


class BatchProgram:
    """``program(key0, key1, first_lo, first_hi, n_valid) -> reduction`` for one batch size.

    Arguments: the seed's two uint32 key words, the first round's index as two uint32 words
    (low, high), and the int32 number of leading rounds that count (the rest of a short last
    batch is dealt and masked). Returns the device reduction dict of
    :meth:`gpusim.compute.device_reduce.JointReducer.reduce`, as device arrays not yet waited for.
    The config's pays and stakes (:attr:`payout`, bound at build) go to the executable as
    arguments with every call: the executable itself is the same for every paytable.

    Build with :meth:`build`, which returns None for a strategy that cannot be traced.
    ``origin`` says how the programs were had: ``"memory"``, built earlier in this process for
    rules of the same structure; ``"disk"``; ``"compiled"`` and saved; ``"unsaved"``, compiled
    but not saved because the saved copy would not have run; or ``"jit"``, not saved on disk
    (compiled through JAX's own cache only).
    """

    def __init__(self, settle_fn, reduce_fn, origin: str, payout):
        self._settle = settle_fn
        self._reduce = reduce_fn
        self.origin = origin
        self.payout = payout

    def __call__(self, key0, key1, first_lo, first_hi, n_valid):
        return self._reduce(_for_reduce(self._settle(key0, key1, first_lo, first_hi,
                                                     self.payout)), n_valid)

    @classmethod
    def build(cls, rules, strategy, reducer, batch: int, *, cache_dir: Path | None = None,
              use_cache: bool = True) -> BatchProgram | None:  # fmt: skip
        """The programs for ``batch`` rounds; kept from an earlier build in this process or
        loaded from disk when matching ones are there.

        ``cache_dir`` overrides :func:`program_cache_dir`; ``use_cache=False`` never reads or
        writes the disk or the memory (a fresh trace and compile).
        """
        import jax

        from gpusim.games import payout

        pay = jax.device_put(payout(rules))
        key = _cache_key(rules, strategy, batch) if use_cache else None
        folder = cache_dir if cache_dir is not None else program_cache_dir()
        held = None if key is None else (key, str(folder))
        if held in _memory:
            return _keep(cls(*_memory[held], "memory", pay), held)
        paths = None
        if key is not None and folder is not None and jax.default_backend() == "cpu":
            paths = [folder / f"{key}-{part}.xla" for part in ("settle", "reduce")]
            loaded = [_deserialize(_read(p)) for p in paths]
            if None not in loaded and _runs(*loaded, pay):
                return _keep(cls(*loaded, "disk", pay), held)
        word = jax.ShapeDtypeStruct((), np.uint32)
        pay_shape = jax.tree_util.tree_map(lambda a: jax.ShapeDtypeStruct(a.shape, a.dtype), pay)
        settle_jit = jax.jit(_settle_function(rules, strategy, batch))
        reduce_jit = jax.jit(lambda part, n_valid: reducer.reduce(SettledBets(**part), n_valid))
        with _outside_jax_cache(paths is not None or not use_cache):
            try:
                lowered = settle_jit.lower(word, word, word, word, pay_shape)
            except untraceable_errors():
                return None
            n_valid = jax.ShapeDtypeStruct((), np.int32)
            compiled = [lowered.compile(),
                        reduce_jit.lower(_for_reduce(lowered.out_info), n_valid).compile()]
        if paths is None:
            return _keep(cls(*compiled, "jit", pay), held)
        # save only copies that are proven to load and run
        blobs = [_serialize(c) for c in compiled]
        copies = [_deserialize(b) for b in blobs]
        if None in copies or not _runs(*copies, pay):
            return _keep(cls(*compiled, "unsaved", pay), held)
        for path, blob in zip(paths, blobs, strict=True):
            _write(path, blob)
        return _keep(cls(*compiled, "compiled", pay), held)


def _for_reduce(part: dict) -> dict:
    """The settle program's output without the decisions it writes out only to shape XLA's
    fusions (:func:`_settle_function`): the reduction never takes them, so its executable (and
    a copy loaded from disk) has the same inputs however it was built."""
    return {k: v for k, v in part.items() if k != "decisions"}


def _keep(program: BatchProgram, held: tuple | None) -> BatchProgram:
    """Count the build and hold its executables in memory under ``held`` (the newest
    :data:`_MEMORY_SIZE` builds)."""
    BUILDS[program.origin] += 1
    if held is not None:
        _memory.pop(held, None)
        _memory[held] = (program._settle, program._reduce)
        while len(_memory) > _MEMORY_SIZE:
            del _memory[next(iter(_memory))]
    return program


@contextlib.contextmanager
def _outside_jax_cache(outside: bool):
    """Keep the compiled programs out of JAX's persistent cache while ``outside``.

    An executable JAX has loaded from its own cache serializes incomplete on the CPU (jax 0.10:
    the copy fails to run, "Function ... not found"). A program that could be saved here is
    therefore never written to JAX's cache, so compiling it again is always a fresh compile
    whose copy works. (JAX reads this setting each time it would write an entry.)
    """
    import jax

    name = "jax_persistent_cache_min_compile_time_secs"
    before = getattr(jax.config, name)
    if outside:
        jax.config.update(name, float("inf"))
    try:
        yield
    finally:
        jax.config.update(name, before)


def _runs(settle_fn, reduce_fn, pay) -> bool:
    """Whether executables run: one fully masked batch (milliseconds), False on any error."""
    import jax

    zero = np.uint32(0)
    try:
        jax.block_until_ready(reduce_fn(_for_reduce(settle_fn(zero, zero, zero, zero, pay)),
                                        np.int32(0)))
    except Exception:  # noqa: BLE001 -- a copy that does not run is only a cache miss
        return False
    return True


def untraceable_errors() -> tuple:
    """The JAX errors a strategy that computes on the host raises when traced."""
    import jax

    e = jax.errors
    return (e.TracerArrayConversionError, e.ConcretizationTypeError,
            e.TracerBoolConversionError, e.TracerIntegerConversionError)  # fmt: skip


def _settle_function(rules, strategy, batch: int):
    import jax
    import jax.numpy as jnp

    from gpusim.dealing import deal_rounds
    from gpusim.games import settle, spec_for

    # only the structure is traced in; the pays and stakes are the argument ``pay``
    structure = rules.structure()
    spec = spec_for(rules)
    n_cards = spec.cards_per_round
    reads = spec.joint.reads
    # a settlement that computes its joint code itself (a described game) is reduced from the
    # code alone (a Jackpot royal too, JointReducer): its events and stakes are left for XLA to
    # drop (each is a gather a round: returned, they cost Texas Hold'em Bonus's described
    # simulation 0.4x the hand-written game's rate, benchmarks/described_vs_package.py)
    code_only = "joint" in reads

    def run(key0, key1, first_lo, first_hi, pay):
        # the same round indices as gpusim.dealing.deal: 64-bit index = hi * 2**32 + lo
        lo = first_lo + jnp.arange(batch, dtype=jnp.uint32)
        hi = first_hi + (lo < first_lo).astype(jnp.uint32)
        cards = deal_rounds(key0, key1, lo, hi, n_cards)
        # written once as C contiguous columns (column-major): left to itself, XLA keeps the
        # dealt round row-major for its many readers, and every per-card read is then strided
        # (measured: Hold'em Bonus's rule strategies 4-15 % slower)
        cards = jax.lax.optimization_barrier(cards.T).T
        decisions = strategy.decide(cards)
        s = settle(cards, decisions, structure, payout=pay)
        # only what the joint code reads: XLA then drops the nets and hand ranks
        if code_only:
            # the decisions are returned (and dropped) so that XLA writes them out: read by the
            # joint code alone, their table lookups were fused into its loop, and a gather in a
            # CPU loop fusion keeps the whole loop, the hand evaluators too, from being
            # vectorized (Ultimate Texas Hold'em's described ``optimal``: 0.86x the
            # hand-written game's rate before, benchmarks/described_vs_package.py)
            out = {"events": {}, "stakes": {}, "joint": s.joint}
            # table lookups, and rule lists that look up large tables or count many cards
            # (Ultimate Texas Hold'em's described ``basic`` 1.45x, ``always-check`` 1.3x with
            # their decisions written out; Casino Hold'em's ``basic`` and Three Card Poker's
            # ``q64``, light rules, 5-10 % slower: they are left fused)
            if isinstance(getattr(strategy, "tables", None), dict) or getattr(
                    getattr(strategy, "fn", None), "write_out", False):
                out["decisions"] = decisions
            return out
        return {"events": s.events, "stakes": s.stakes, **{f: getattr(s, f) for f in reads}}

    return run


def _cache_key(rules, strategy, batch: int) -> str | None:
    import jax
    import jaxlib

    fingerprint = strategy_fingerprint(strategy)
    if fingerprint is None:
        return None
    device = jax.devices()[0]
    parts = [
        FORMAT, jax.__version__, jaxlib.version.__version__, device.platform,
        getattr(device.client, "platform_version", ""), device.device_kind, _cpu_flags(),
        _source_digest(), rules.structure_hash, fingerprint, str(batch),
        str(bool(jax.config.jax_enable_x64)),
    ]  # fmt: skip
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _skeleton(tree) -> object:
    """A tree of tuples and dicts as JSON-able data (leaves None), to rebuild its structure."""
    if isinstance(tree, dict):
        return {"dict": {k: _skeleton(v) for k, v in tree.items()}}
    if isinstance(tree, tuple):
        return {"tuple": [_skeleton(v) for v in tree]}
    return None


def _unskeleton(data) -> object:
    if data is None:
        return 0
    if "dict" in data:
        return {k: _unskeleton(v) for k, v in data["dict"].items()}
    return tuple(_unskeleton(v) for v in data["tuple"])


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def _deserialize(data: bytes | None):
    """The executable in ``data`` (a header line and the payload), or None if it is damaged
    or refused by JAX."""
    import jax
    from jax.experimental.serialize_executable import deserialize_and_load

    if data is None:
        return None
    try:
        line, _, payload = data.partition(b"\n")
        header = json.loads(line)
        if header.get("format") != FORMAT:
            return None
        if hashlib.sha256(payload).hexdigest() != header.get("sha256"):
            return None
        trees = [jax.tree_util.tree_structure(_unskeleton(header[k])) for k in ("in", "out")]
        return deserialize_and_load(payload, *trees)
    except Exception:  # noqa: BLE001 -- any unreadable entry is only a cache miss
        return None


def _serialize(compiled) -> bytes | None:
    """A header line (format, sha256, tree shapes) and the serialized executable."""
    import jax
    from jax.experimental.serialize_executable import serialize

    try:
        payload, in_tree, out_tree = serialize(compiled)
    except Exception:  # noqa: BLE001 -- not serializable: nothing is saved
        return None
    header = {"format": FORMAT, "sha256": hashlib.sha256(payload).hexdigest()}
    for name, tree in (("in", in_tree), ("out", out_tree)):
        header[name] = _skeleton(jax.tree_util.tree_unflatten(tree, [0] * tree.num_leaves))
    return json.dumps(header).encode() + b"\n" + payload


def _write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically; a folder that cannot be written is skipped."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".xla")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        return
