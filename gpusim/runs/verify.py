"""Checking a finished run folder before its figures are used.

:func:`verify_run` lists every problem it finds (empty list: the run is sound):

- every part the manifest lists exists and has the sha256 and row count the manifest records;
- no part file exists that the manifest does not list (a stray or half-written part);
- the chunks' round ranges cover the run (or its shard) exactly once;
- per chunk, every bet's outcome counts add up to the chunk's rounds, its event counts to the
  rounds it was placed, and the first decision's counts to the rounds;
- the manifest's config hash is the hash of the config it records.

:func:`require_intact` is the cheap gate the analysis commands use: sha256 only.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from gpusim.games import SPECS
from gpusim.runs.manifest import ManifestError, rules_from_manifest
from gpusim.runs.runfolder import (
    PART_TABLES,
    RunFolder,
    RunFolderError,
    part_schema,
    sha256_file,
)

__all__ = ["expected_range", "require_intact", "verify_run"]



def expected_range(manifest: dict) -> tuple[int, int]:
    """[first, stop) of the rounds a run folder should hold (its shard's, or all of them)."""
    sh = manifest.get("shard")
    if sh:
        return int(sh["first_round"]), int(sh["first_round"]) + int(sh["n_rounds"])
    return 0, int(manifest["rounds"])


def require_intact(path: str | Path) -> RunFolder:
    """Open a run folder and check every listed part's sha256; one-line RunFolderError if not."""
    folder = RunFolder.open(path)
    bad = folder.verify()
    if bad:
        raise RunFolderError(
            f"run: part {bad[0]!r} of {str(folder.path)!r} is missing or does not match its "
            f"sha256 ({len(bad)} bad part(s)); run `gpusim verify {folder.path}` for details"
        )
    return folder


def verify_run(path: str | Path) -> list[str]:
    """Every problem of the run folder ``path``, one line each (RunFolderError if it is not
    a run folder at all)."""
    folder = RunFolder.open(path)
    m = folder.manifest
    problems: list[str] = []
    try:
        chunks = sorted(m["chunks_done"], key=lambda r: (r["first_round"], r["chunk"]))
        first, stop = expected_range(m)
        bets = list(m["bets"])
        game = m["game"]
    except (KeyError, TypeError, ValueError) as exc:
        return [f"manifest.json lacks or garbles a required field ({exc})"]

    listed: set[str] = set()
    intact: dict[int, bool] = {}
    for rec in chunks:
        ok = True
        for table in PART_TABLES:
            info = rec.get("files", {}).get(table)
            if info is None:
                problems.append(f"chunk {rec['chunk']}: the manifest lists no {table} part")
                ok = False
                continue
            listed.add(info["file"])
            f = folder.path / info["file"]
            if not f.is_file():
                problems.append(f"missing part {info['file']} (chunk {rec['chunk']})")
                ok = False
            elif sha256_file(f) != info["sha256"]:
                problems.append(f"part {info['file']} does not match its sha256 in the manifest")
                ok = False
            elif _rows(f) != info.get("rows"):
                problems.append(f"part {info['file']} has {_rows(f)} rows; the manifest says "
                                f"{info.get('rows')}")
            elif (got := _columns(pl.read_parquet_schema(f))) != _columns(part_schema(table)):
                problems.append(f"part {info['file']} has columns {got}; a {table} part has "
                                f"{_columns(part_schema(table))}")
                ok = False
        intact[rec["chunk"]] = ok
    for table in PART_TABLES:
        d = folder.path / table
        if d.is_dir():
            for f in sorted(d.iterdir()):
                if f"{table}/{f.name}" not in listed:
                    problems.append(f"extra file {table}/{f.name} is not listed in the manifest")

    at = first
    for rec in chunks:
        a, n = int(rec["first_round"]), int(rec["n_rounds"])
        if a > at:
            problems.append(f"rounds {at:,}..{a - 1:,} are in no chunk (gap before chunk "
                            f"{rec['chunk']})")
        elif a < at:
            problems.append(f"chunk {rec['chunk']} (rounds {a:,}..{a + n - 1:,}) overlaps "
                            f"rounds counted before it")
        at = max(at, a + n)
    if at < stop:
        problems.append(f"rounds {at:,}..{stop - 1:,} are in no chunk (the run is unfinished "
                        f"or a chunk record is missing)")
    elif at > stop:
        problems.append(f"the chunks reach round {at - 1:,}, past the run's last round "
                        f"{stop - 1:,}")
    if len({r["chunk"] for r in chunks}) != len(chunks):
        problems.append("two chunk records share a chunk number")

    for rec in chunks:
        if intact.get(rec["chunk"]):
            problems.extend(_chunk_count_problems(folder, rec, bets, game))

    try:
        rules_from_manifest(m)
        if not m.get("config_hash"):
            problems.append("manifest.json records no config_hash")
    except ManifestError as exc:
        problems.append(str(exc).removeprefix("run: "))
    return problems


def _columns(schema: dict) -> str:
    return ", ".join(f"{col} {dtype}" for col, dtype in schema.items())


def _rows(f: Path) -> int:
    return pl.scan_parquet(f).select(pl.len()).collect().item()


def _chunk_count_problems(folder: RunFolder, rec: dict, bets: list[str], game: str) -> list[str]:
    out = []
    k, n = rec["chunk"], int(rec["n_rounds"])
    files = {t: folder.path / rec["files"][t]["file"] for t in PART_TABLES}
    o = pl.read_parquet(files["outcomes"]).group_by("bet").agg(pl.col("count").sum())
    per_bet = dict(o.iter_rows())
    for bet in [*bets, "main", "total"]:
        if per_bet.get(bet) != n:
            out.append(f"chunk {k}: {bet}'s outcome counts add up to {per_bet.get(bet, 0):,}, "
                       f"not the chunk's {n:,} rounds")
    w = pl.read_parquet(files["wagers"])
    placed = {b: p for b, p in w.select("bet", "placed").iter_rows()}
    e = pl.read_parquet(files["events"]).group_by("bet").agg(pl.col("count").sum())
    for bet, c in e.iter_rows():
        if c != placed.get(bet):
            out.append(f"chunk {k}: {bet}'s event counts add up to {c:,}, not the "
                       f"{placed.get(bet, 0):,} rounds it was placed")
    for bet, p in placed.items():
        if not 0 <= p <= n:
            out.append(f"chunk {k}: {bet} placed in {p:,} of {n:,} rounds")
    # the root of the decision tree is reached by every round
    point = SPECS[game].decisions[0].name if game in SPECS else None
    if point:
        d = pl.read_parquet(files["decisions"]).filter(pl.col("point") == point)
        if d["count"].sum() != n:
            out.append(f"chunk {k}: the {point} decisions add up to {d['count'].sum():,}, not "
                       f"the chunk's {n:,} rounds")
    return out
