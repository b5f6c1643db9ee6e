"""The run folder: manifest, atomically written Parquet parts, and resume bookkeeping.

Layout of a run folder::

    manifest.json            resolved config + hash, seed, rounds, chunk plan, backend, status,
                             and one record per completed chunk (round range, files, sha256)
    TABLE/part-NNNNNN.parquet   one Parquet part per table and chunk (NNNNNN: the chunk):
        outcomes    chunk, bet, net, count
        events      chunk, bet, event, count
        decisions   chunk, point, action, count
        wagers      chunk, bet, placed, wagered, returned, sum_stake_sq, sum_stake_net
        moments     chunk, bet_a, bet_b, sum_product
        jackpot     chunk, round, meter
        progress    chunk, round_end, bet, wagered, returned
    summary.json             written at the end; `gpusim summary` recomputes it from the parts
    .gpusim.lock             the writer's lock file, while a writer runs (gpusim.runs.lock)

The tables and their columns are :data:`PART_SCHEMAS`, which the writer
(:func:`gpusim.runs.runner.chunk_tables`) and the reader (:class:`gpusim.runs.run_api.Run`) both
use; a test checks this list and the README's against it. ``jackpot`` has one row per royal hit;
``progress`` holds the cumulative wagers within the chunk at each compute batch's end, for
convergence plots.

Crash safety: a part is written under a temporary name and renamed into place, and a chunk counts
only once the manifest (itself replaced atomically) lists it with the sha256 of each of its parts.
So a crash at any instant loses at most the chunk in flight, and finished parts are never rewritten.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gpusim.games.spec import METER_SECTION
from gpusim.runs.folder_base import LOCK_FILE, RunFolderError, now_iso
from gpusim.runs.lock import refuse_if_locked

if TYPE_CHECKING:  # polars loads on first use: a run's start-up does not wait for it
    import polars as pl

__all__ = ["LOCK_FILE", "MANIFEST", "PART_SCHEMAS", "PART_TABLES", "RunFolder", "RunFolderError",
           "part_name", "part_schema"]

MANIFEST = "manifest.json"
FORMAT = "gpusim-run/1"
PART_SCHEMAS: dict[str, dict[str, str]] = {
    "outcomes": {"chunk": "int64", "bet": "string", "net": "int64", "count": "int64"},
    "events": {"chunk": "int64", "bet": "string", "event": "string", "count": "int64"},
    "decisions": {"chunk": "int64", "point": "string", "action": "string", "count": "int64"},
    "wagers": {"chunk": "int64", "bet": "string", "placed": "int64", "wagered": "int64",
               "returned": "int64", "sum_stake_sq": "int64", "sum_stake_net": "int64"},
    "moments": {"chunk": "int64", "bet_a": "string", "bet_b": "string", "sum_product": "int64"},
    METER_SECTION: {"chunk": "int64", "round": "int64", "meter": "int64"},
    "progress": {"chunk": "int64", "round_end": "int64", "bet": "string", "wagered": "int64",
                 "returned": "int64"},
}
"""The one definition of the Parquet parts: {table: {column: type}}, types ``int64`` or
``string`` (money and counts are integers); :func:`part_schema` gives the polars schema."""
PART_TABLES = tuple(PART_SCHEMAS)


def part_schema(table: str) -> dict:
    """{column: polars dtype} of one part table (an empty table still has them)."""
    import polars as pl

    dtypes = {"int64": pl.Int64, "string": pl.String}
    return {col: dtypes[t] for col, t in PART_SCHEMAS[table].items()}


def part_name(chunk: int) -> str:
    return f"part-{chunk:06d}.parquet"


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _json_text(obj: Any) -> str:
    """``obj`` as indented JSON, each record of a ``chunks_done`` list on one line.

    The manifest is written again at every chunk. Indented, the json module encodes in Python
    (its C encoder does no indenting), so a run of n chunks would spend time growing as n^2 on
    records that never change (about 11 ms a write at 240 chunks on a 2-core machine); one
    line each, they are encoded in C, and the file still reads a chunk a line."""
    records = obj.get("chunks_done") if isinstance(obj, dict) else None
    if not isinstance(records, list) or not records:
        return json.dumps(obj, indent=2) + "\n"
    marker = f"chunks_done:{os.urandom(8).hex()}"
    head = json.dumps({**obj, "chunks_done": marker}, indent=2)
    rows = ",\n".join("    " + json.dumps(r) for r in records)
    return head.replace(json.dumps(marker), "[\n" + rows + "\n  ]", 1) + "\n"


def _write_json_atomic(path: Path, obj: Any) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    with tmp.open("w") as f:
        f.write(_json_text(obj))
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


class RunFolder:
    """One run's folder on disk. Create with :meth:`create`, reopen with :meth:`open`."""

    def __init__(self, path: Path, manifest: dict):
        self.path = Path(path)
        self.manifest = manifest

    # -- creation and opening -------------------------------------------------------------

    @staticmethod
    def check_writable(path: str | Path, *, resume: bool, force: bool) -> Path:
        """Validate ``--out`` before anything is written; returns the resolved path.

        An existing non-empty folder is refused unless ``resume`` or ``force`` is given.
        """
        if not str(path).strip():
            raise RunFolderError(f"--out: got {str(path)!r}; expected the path of a run folder")
        # resolved, so that "a/../run" never creates "a": only the run folder itself is written
        p = Path(path).expanduser().resolve()
        if p.exists() and not p.is_dir():
            raise RunFolderError(f"--out: {str(p)!r} exists and is not a folder")
        refuse_if_locked(p)  # before "already exists": the user learns who is writing it
        if p.is_dir() and _has_files(p) and not (resume or force):
            raise RunFolderError(
                f"--out: run folder {str(p)!r} already exists; pass --resume to continue it "
                "or --force to replace it"
            )
        if resume and not (p / MANIFEST).is_file():
            if p.is_dir() and _has_files(p):
                raise RunFolderError(
                    f"--out: {str(p)!r} has no {MANIFEST}; it is not a gpusim run to resume"
                )
        _probe_writable(p)
        return p

    @classmethod
    def create(cls, path: Path, manifest: dict, *, force: bool) -> RunFolder:
        path = Path(path)
        if force and path.exists():
            _clear_run(path)
        path.mkdir(parents=True, exist_ok=True)
        for table in PART_TABLES:
            (path / table).mkdir(exist_ok=True)
        manifest = {"format": FORMAT, **manifest, "status": "running", "chunks_done": []}
        manifest["created"] = now_iso()
        folder = cls(path, manifest)
        folder.save_manifest()
        return folder

    @classmethod
    def open(cls, path: str | Path) -> RunFolder:
        p = Path(path).expanduser()
        mf = p / MANIFEST
        if not mf.is_file():
            raise RunFolderError(f"run: {str(p)!r} is not a gpusim run folder (no {MANIFEST})")
        try:
            manifest = json.loads(mf.read_text())
        except json.JSONDecodeError as exc:
            raise RunFolderError(f"run: {str(mf)!r} is not valid JSON ({exc.msg})") from None
        if not isinstance(manifest, dict):
            raise RunFolderError(f"run: {str(mf)!r} is not a JSON object; expected a manifest")
        if manifest.get("format") != FORMAT:
            raise RunFolderError(
                f"run: {str(mf)!r} has format {manifest.get('format')!r}; expected {FORMAT!r}"
            )
        _check_manifest(mf, manifest)
        return cls(p, manifest)

    # -- parts ----------------------------------------------------------------------------

    def write_parts(self, chunk: int, tables: dict[str, pl.DataFrame]) -> dict[str, dict]:
        """Write one chunk's parts atomically; returns {table: {file, sha256, rows}}."""
        files = {}
        written: list[Path] = []
        try:
            for table, df in tables.items():
                final = self.path / table / part_name(chunk)
                final.parent.mkdir(exist_ok=True)  # a run resumed from before the table existed
                tmp = final.with_name(f".{final.name}.tmp")
                written.append(tmp)
                df.write_parquet(tmp, compression="zstd", statistics=True)
                with tmp.open("rb+") as f:
                    os.fsync(f.fileno())
                os.replace(tmp, final)
                written.append(final)
                files[table] = {
                    "file": f"{table}/{final.name}",
                    "sha256": sha256_file(final),
                    "rows": df.height,
                }
        except OSError:
            # a failed write (ENOSPC) must not leave this chunk's half: nothing lists it yet
            for f in written:
                f.unlink(missing_ok=True)
            raise
        return files

    def commit_chunk(self, record: dict) -> None:
        self.manifest["chunks_done"].append(record)
        self.manifest["chunks_done"].sort(key=lambda r: r["chunk"])
        self.save_manifest()

    def save_manifest(self) -> None:
        self.manifest["updated"] = now_iso()
        _write_json_atomic(self.path / MANIFEST, self.manifest)

    def completed(self) -> dict[int, dict]:
        return {r["chunk"]: r for r in self.manifest.get("chunks_done", [])}

    def discard_unfinished(self) -> list[str]:
        """Remove temporary files and parts of chunks the manifest does not list.

        Such files are what a crash leaves behind mid-chunk; the chunk will be recomputed.
        """
        done = {rec["files"][t]["file"] for rec in self.completed().values() for t in rec["files"]}
        removed = []
        for table in PART_TABLES:
            d = self.path / table
            if not d.is_dir():
                continue
            for f in d.iterdir():
                rel = f"{table}/{f.name}"
                if rel not in done:
                    f.unlink()
                    removed.append(rel)
        return removed

    def verify(self) -> list[str]:
        """Files whose sha256 no longer matches the manifest (empty list when intact)."""
        bad = []
        for rec in self.completed().values():
            for info in rec["files"].values():
                f = self.path / info["file"]
                if not f.is_file() or sha256_file(f) != info["sha256"]:
                    bad.append(info["file"])
        return bad

    def forget_corrupt_chunks(self) -> list[int]:
        """Drop from the manifest every chunk with a missing part or one whose sha256 no longer
        matches (its parts then count as unfinished); returns those chunks, to be recomputed."""
        bad = []
        for k, rec in self.completed().items():
            for info in rec["files"].values():
                f = self.path / info["file"]
                if not f.is_file() or sha256_file(f) != info["sha256"]:
                    bad.append(k)
                    break
        if bad:
            self.manifest["chunks_done"] = [r for r in self.manifest["chunks_done"]
                                            if r["chunk"] not in bad]
            self.save_manifest()
        return bad

    def part_files(self, table: str) -> list[str]:
        """Paths of the completed chunks' parts of one table, in chunk order."""
        if table not in PART_TABLES:
            raise RunFolderError(f"table: {table!r} is not one of {', '.join(PART_TABLES)}")
        out = []
        for _, rec in sorted(self.completed().items()):
            info = rec["files"].get(table)
            if info is not None:
                out.append(str(self.path / info["file"]))
        return out

    def scan(self, table: str) -> pl.LazyFrame:
        """The completed chunks' rows of one table (its columns even when there are none)."""
        import polars as pl

        files = self.part_files(table)
        if not files:
            return pl.DataFrame(schema=part_schema(table)).lazy()
        return pl.scan_parquet(files)


def _check_manifest(mf: Path, m: dict) -> None:
    """The fields every reader relies on, with their types (an edited manifest fails here)."""
    def bad(key: str, value, allowed: str) -> RunFolderError:
        return RunFolderError(f"run: {str(mf)!r}: {key} is {value!r}; expected {allowed}")

    for key in ("rounds", "seed", "n_chunks", "chunk_rounds"):
        v = m.get(key)
        if type(v) is not int or v < 0:
            raise bad(key, v, "a whole number >= 0")
    chunks = m.get("chunks_done")
    if not isinstance(chunks, list):
        raise bad("chunks_done", chunks, "a list of chunk records")
    for i, rec in enumerate(chunks):
        ok = (isinstance(rec, dict) and type(rec.get("chunk")) is int
              and type(rec.get("n_rounds")) is int and isinstance(rec.get("files"), dict)
              and all(isinstance(f, dict) and isinstance(f.get("file"), str)
                      and isinstance(f.get("sha256"), str) for f in rec["files"].values()))
        if not ok:
            raise bad(f"chunks_done[{i}]", rec, "chunk, n_rounds and files with file and sha256")
        for info in rec["files"].values():
            # parts live inside the run folder: a manifest cannot point readers elsewhere
            rel = Path(info["file"])
            if rel.is_absolute() or ".." in rel.parts or len(rel.parts) != 2 or \
                    rel.parts[0] not in PART_TABLES:
                raise bad(f"chunks_done[{i}].files", info["file"], "TABLE/part-NNNNNN.parquet")


def _has_files(p: Path) -> bool:
    """Whether the folder holds anything but a lock file left by a killed writer."""
    return any(f.name != LOCK_FILE for f in p.iterdir())


def _probe_writable(p: Path) -> None:
    """Create the folder and a probe file for real, then undo it; OS refusals become one line."""
    existing = p
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise RunFolderError(f"--out: {str(p)!r} is not writable ({str(existing)!r} is a file)")
    created = []
    try:
        for d in reversed([p, *p.parents]):
            if not d.exists():
                d.mkdir()
                created.append(d)
        probe = p / ".gpusim-write-probe"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise RunFolderError(
            f"--out: {str(p)!r} is not writable ({exc.strerror or exc})"
        ) from None
    finally:
        for d in reversed(created):
            try:
                d.rmdir()
            except OSError:
                pass


def _clear_run(path: Path) -> None:
    """Delete what a previous run wrote (only gpusim's own files), for --force."""
    for table in PART_TABLES:
        d = path / table
        if d.is_dir():
            for f in d.iterdir():
                f.unlink()
            d.rmdir()
    for name in (MANIFEST, "summary.json", f".{MANIFEST}.tmp"):
        f = path / name
        if f.exists():
            f.unlink()
