"""``gpusim merge``: shard run folders -> one run folder, counts identical to a single run.

Before anything is written, the inputs must agree on config hash, strategy, seed, total rounds
and gpusim version; each must be finished; their round ranges must neither overlap nor leave a
gap; and every part must match its sha256. The merged folder holds the shards' chunks in round
order, renumbered, with the progressive Jackpot settled across shards (:mod:`gpusim.runs.shards`).
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from gpusim.compute.counts import ChunkCounts
from gpusim.games import spec_for
from gpusim.games.spec import METER_SECTION
from gpusim.runs.lock import RunLock, refuse_if_locked
from gpusim.runs.manifest import ManifestError, rules_from_manifest
from gpusim.runs.runfolder import LOCK_FILE, RunFolder, RunFolderError
from gpusim.runs.shards import ChunkResult, Segment, ShardError, settle_segments
from gpusim.runs.verify import expected_range

__all__ = ["MergeError", "merge_runs", "read_chunk", "write_run"]

_AGREE = (("config_hash", "config"), ("strategy", "strategy"), ("seed", "seed"),
          ("rounds", "total rounds"), ("gpusim_version", "gpusim version"))


class MergeError(ValueError):
    """Run folders that cannot be merged; the message is one line."""


def read_chunk(folder: RunFolder, rec: dict) -> ChunkResult:
    """One completed chunk's counts, read back from its Parquet parts."""
    def part(table: str) -> pl.DataFrame:
        return pl.read_parquet(folder.path / rec["files"][table]["file"])

    c = ChunkCounts(rounds=int(rec["n_rounds"]))
    for _, bet, net, n in part("outcomes").iter_rows():
        c.outcomes.setdefault(bet, {})[net] = n
    for _, bet, ev, n in part("events").iter_rows():
        c.events.setdefault(bet, {})[ev] = n
    for _, point, action, n in part("decisions").iter_rows():
        c.decisions.setdefault(point, {})[action] = n
    for row in part("wagers").iter_rows():
        c.wagers[row[1]] = tuple(row[2:])
    for _, a, b, v in part("moments").iter_rows():
        c.moments[(a, b)] = v
    c.jackpot_hits = sorted((r, m) for _, r, m in part(METER_SECTION).iter_rows())
    if "progress" in rec["files"]:
        steps: dict[int, dict] = {}
        for _, end, bet, w, r in part("progress").sort("round_end").iter_rows():
            steps.setdefault(end, {})[bet] = (w, r)
        c.progress = list(steps.items())
    return ChunkResult(int(rec["first_round"]), int(rec["n_rounds"]), c,
                       int(rec.get("jackpot_meter_end_bp", 0)), float(rec.get("elapsed_s", 0)))


def _check(dirs: list[str | Path]) -> list[RunFolder]:
    if not dirs:
        raise MergeError("merge: give at least one run folder")
    folders = []
    for d in dirs:
        try:
            folders.append(RunFolder.open(d))
        except RunFolderError as exc:
            raise MergeError(f"merge: {exc}") from None
    f0 = folders[0]
    for f in folders[1:]:
        for key, what in _AGREE:
            if f.manifest.get(key) != f0.manifest.get(key):
                a, b = f.manifest.get(key), f0.manifest.get(key)
                if key == "config_hash":
                    a, b = str(a)[:12], str(b)[:12]
                raise MergeError(
                    f"merge: {str(f.path)!r} has {what} {a!r} but {str(f0.path)!r} has {b!r}; "
                    "shards of one run share config, strategy, seed, total rounds and version"
                )
    for f in folders:
        first, stop = expected_range(f.manifest)
        done = sum(int(r["n_rounds"]) for r in f.completed().values())
        if done != stop - first:
            raise MergeError(f"merge: {str(f.path)!r} is unfinished ({done:,} of "
                             f"{stop - first:,} rounds); finish it with --resume")
    ranges = sorted((expected_range(f.manifest), str(f.path)) for f in folders)
    at, prev = 0, None
    for (a, b), p in ranges:
        if a < at:
            raise MergeError(f"merge: {p!r} (rounds {a:,}..{b - 1:,}) overlaps {prev!r} "
                             f"(rounds up to {at - 1:,})")
        if a > at:
            raise MergeError(f"merge: rounds {at:,}..{a - 1:,} are in no folder (a gap before "
                             f"{p!r}); add the missing shard")
        at, prev = b, p
    total = int(f0.manifest["rounds"])
    if at != total:
        raise MergeError(f"merge: rounds {at:,}..{total - 1:,} are in no folder (a gap at the "
                         "end); add the missing shard")
    for f in folders:
        bad = f.verify()
        if bad:
            raise MergeError(f"merge: part {bad[0]!r} of {str(f.path)!r} is missing or does not "
                             f"match its sha256; run `gpusim verify {f.path}` for details")
    return sorted(folders, key=lambda f: expected_range(f.manifest))


def merge_runs(dirs: list[str | Path], out: str | Path, *, force: bool = False,
               progress=None) -> Path:
    """Merge shard folders into the run folder ``out``; returns its path.

    ``progress``: a :class:`gpusim.runs.runner.Progress`, advanced by the rounds written.
    ``out`` is locked for the merge (:mod:`gpusim.runs.lock`)."""
    folders = _check(dirs)
    outp = Path(out).expanduser()
    for f in folders:
        if outp.resolve() == f.path.resolve():
            raise MergeError(f"--out: {str(outp)!r} is one of the folders being merged")
    try:
        refuse_if_locked(outp.resolve())
        if outp.is_dir() and any(f.name != LOCK_FILE for f in outp.iterdir()) and not force:
            raise MergeError(f"--out: {str(outp)!r} already exists; pass --force to replace it")
        path = RunFolder.check_writable(outp, resume=False, force=force)
        lock = RunLock(path)
    except RunFolderError as exc:
        raise MergeError(str(exc)) from None
    with lock:
        return _merge_into(path, folders, force, progress)


def _merge_into(path: Path, folders: list[RunFolder], force: bool, progress) -> Path:
    from gpusim.games.strategy_registry import get_strategy
    from gpusim.runs.exact_on_demand import prepare_strategy

    m0 = folders[0].manifest
    try:
        rules = rules_from_manifest(m0)
    except ManifestError as exc:
        raise MergeError(f"merge: {exc}") from None
    prepare_strategy(m0["strategy"], rules)
    strategy = get_strategy(m0["strategy"], rules)
    segments = []
    for f in folders:
        first, _ = expected_range(f.manifest)
        recs = sorted(f.completed().values(), key=lambda r: r["first_round"])
        segments.append(Segment(first, int(f.manifest.get("jackpot_meter_start_bp", 0)),
                                bool(f.manifest.get("jackpot_meter_provisional")),
                                [read_chunk(f, r) for r in recs]))
    try:
        chunks = settle_segments(rules, strategy, int(m0["seed"]), segments)
    except ShardError as exc:
        raise MergeError(str(exc)) from None
    sources = [{"path": str(f.path), "shard": f.manifest.get("shard"),
                "backend": f.manifest.get("backend"), "device": f.manifest.get("device")}
               for f in folders]
    return write_run(path, m0, chunks, rules, force=force, progress=progress,
                     extra={"merged_from": sources,
                            "backend": ",".join(sorted({s["backend"] or "?" for s in sources})),
                            "device": ",".join(sorted({s["device"] or "?" for s in sources}))})


def write_run(path: Path, like: dict, chunks: list[ChunkResult], rules, *, force: bool,
              extra: dict, progress=None) -> Path:
    """Write settled chunks (round order) as a complete run folder with ``like``'s identity."""
    from gpusim.runs.run_api import Run
    from gpusim.runs.runner import chunk_tables

    keys = ("gpusim_version", "config_name", "game", "config", "config_hash", "bets",
            "strategy", "seed", "rounds", "chunk_rounds")
    manifest = {k: like[k] for k in keys if k in like}
    manifest.update({
        "n_chunks": len(chunks),
        "chunk_plan": {"first_round": 0, "chunk_rounds": like.get("chunk_rounds"),
                       "chunks": "as merged: each source's chunks in round order"},
        "jackpot_meter_start_bp": spec_for(rules).start_meter(rules),
        **extra,
    })
    folder = RunFolder.create(path, manifest, force=force)
    if progress is not None:
        progress.start(sum(c.n_rounds for c in chunks), 0)
    for k, c in enumerate(chunks):
        files = folder.write_parts(k, chunk_tables(k, c.counts, c.first_round))
        folder.commit_chunk({"chunk": k, "first_round": c.first_round, "n_rounds": c.n_rounds,
                             "files": files, "jackpot_meter_end_bp": c.meter_end,
                             "elapsed_s": c.elapsed_s})
        if progress is not None:
            progress.advance(c.n_rounds)
    folder.manifest["status"] = "complete"
    folder.save_manifest()
    Run(path).write_summary()
    return path
