"""The stats library reads the run folder's tables as the runner writes them (schemas agree)."""

import numpy as np
import polars as pl

from gpusim.compute.counts import ChunkCounts, histogram
from gpusim.runs.runner import chunk_tables
from gpusim.stats import (
    JointMoments,
    distributions_from_rows,
    event_counts_from_rows,
    joint_moments,
    return_table,
)


def synthetic_chunk(rng: np.random.Generator, n: int) -> tuple[ChunkCounts, np.ndarray]:
    """A chunk of a toy game filled the way a chunk runner fills it; returns it and the (n, 3)
    nets."""
    ante = rng.choice([-1, 0, 1], size=n, p=[0.5, 0.1, 0.4]).astype(np.int64)
    bonus = rng.choice([-1, 3, 30], size=n, p=[0.9, 0.095, 0.005]).astype(np.int64)
    nets = {"ante": ante, "bonus": bonus, "total": ante + bonus}
    c = ChunkCounts(rounds=n)
    for bet, v in nets.items():
        vals, counts = histogram(v)
        c.outcomes[bet] = dict(zip(vals.tolist(), counts.tolist(), strict=True))
        c.wagers[bet] = (n, n, n + int(v.sum()), n, int(v.sum()))
    names = {-1: "lose", 3: "pair", 30: "AA"}
    c.events["bonus"] = {names[k]: int(x) for k, x in c.outcomes["bonus"].items()}
    bets = list(nets)
    for i, a in enumerate(bets):
        for b in bets[i:]:
            c.moments[(a, b)] = int(np.dot(nets[a], nets[b]))
    return c, np.stack([ante, bonus, ante + bonus], axis=1)


def test_distributions_read_runner_tables():
    rng = np.random.Generator(np.random.PCG64(8))
    parts, ys = [], []
    for chunk in range(3):
        c, y = synthetic_chunk(rng, 5000)
        parts.append(chunk_tables(chunk, c))
        ys.append(y)
    y = np.concatenate(ys)
    tables = {k: pl.concat([p[k] for p in parts]) for k in parts[0]}
    dists = distributions_from_rows(tables["outcomes"])
    assert dists["total"].rounds == 15000
    assert dists["bonus"].total == int(y[:, 1].sum())
    m = JointMoments.from_tables(tables["moments"], tables["outcomes"])
    assert m == joint_moments(y, ("ante", "bonus", "total"))
    ev = event_counts_from_rows(tables["events"], "bonus")
    t = return_table(ev, {"lose": -1, "pair": 3, "AA": 30})
    assert t.expected_net * t.rounds == dists["bonus"].total


def test_one_schema_for_writer_reader_and_docs(tmp_path):
    """PART_SCHEMAS is the one definition: the writer's parts and an empty folder's tables have
    its columns and types, and the runfolder docstring and the README list exactly its columns."""
    import re
    from pathlib import Path

    from gpusim.runs import runfolder
    from gpusim.runs.runfolder import PART_SCHEMAS, RunFolder, part_schema

    c, _ = synthetic_chunk(np.random.Generator(np.random.PCG64(3)), 50)
    c.jackpot_hits = [(7, 120)]
    written = chunk_tables(4, c, first_round=0)
    assert list(written) == list(PART_SCHEMAS)
    for table, df in written.items():
        assert df.schema == part_schema(table), table
        path = tmp_path / f"{table}.parquet"
        df.write_parquet(path)
        assert pl.read_parquet_schema(path) == part_schema(table), table
    folder = RunFolder(tmp_path, {"chunks_done": []})
    for table in PART_SCHEMAS:
        assert folder.scan(table).collect_schema() == part_schema(table), table

    want = {table: ", ".join(cols) for table, cols in PART_SCHEMAS.items()}
    doc = dict(re.findall(r"^ {8}(\w+) +(\w+(?:, \w+)*)$", runfolder.__doc__, re.M))
    assert doc == want
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    rows = dict(re.findall(r"^\| `(\w+)/part-\*\.parquet` \| ([\w, ]+) \|", readme, re.M))
    assert rows == want
