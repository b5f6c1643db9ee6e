"""Record (or check) the golden counts: every shipped config x strategy, fixed seed, 10^6 rounds.

The golden file pins what users get today, bit for bit: the full outcome, event, decision, wager,
moment and Jackpot tables (summed over chunks, sorted) of a simulation. A refactor or a speed
change that alters any count fails ``tests/test_golden.py``. (The exact analysis is pinned by the
shipped reports in ``gpusim/data/exact/``, which the suite recomputes.)

    python tests/golden/record.py            # rewrite tests/golden/counts.json (deliberate change)
    python tests/golden/record.py --check    # compare against it, exit 1 on any difference
    python tests/golden/record.py --add CONFIG   # record a new config's entries, keep the rest
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

GOLDEN = Path(__file__).with_name("counts.json")
SEED = 20261130
ROUNDS = 1_000_000
# Each table's key columns; the others are integer sums over chunks (Jackpot rows are kept as is).
TABLES = {
    "outcomes": ("bet", "net"),
    "events": ("bet", "event"),
    "decisions": ("point", "action"),
    "wagers": ("bet",),
    "moments": ("bet_a", "bet_b"),
    "jackpot": None,
}


def _table_rows(run, table: str) -> list[list]:
    """The table's rows without the chunk column, summed over chunks and sorted."""
    import polars as pl

    df = getattr(run, table)().collect().drop("chunk")
    keys = TABLES[table]
    if keys is not None:
        df = df.group_by(keys).agg(pl.all().sum())
    return sorted(df.rows())


def simulation_counts(config: str, strategy: str, workdir: Path) -> dict[str, list]:
    import gpusim

    run = gpusim.simulate(
        config, rounds=ROUNDS, seed=SEED, strategy=strategy, backend="jax-cpu",
        out=workdir / f"{config}.{strategy}",
    )
    return {t: _table_rows(run, t) for t in TABLES}


def record(configs: list[str] | None = None) -> dict:
    """Every strategy of ``configs`` (default: every shipped config)."""
    from gpusim.config import load_config, shipped_configs
    from gpusim.games.strategy_registry import strategy_names

    golden: dict = {"seed": SEED, "rounds": ROUNDS, "simulation": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for config in configs or shipped_configs():
            game = load_config(config).game
            for strategy in strategy_names(game):
                key = f"{config}/{strategy}"
                golden["simulation"][key] = simulation_counts(config, strategy, Path(tmp))
    return golden


def _normalise(obj):
    """JSON round trip, so tuples and lists compare equal."""
    return json.loads(json.dumps(obj))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of rewriting")
    parser.add_argument("--add", action="append", metavar="CONFIG",
                        help="record only this config's entries (a new config), keeping every "
                             "other entry as it is; repeatable")
    args = parser.parse_args()
    if args.add:
        golden = json.loads(GOLDEN.read_text())
        golden["simulation"].update(_normalise(record(args.add))["simulation"])
        GOLDEN.write_text(json.dumps(golden, sort_keys=True) + "\n")
        print(f"wrote {GOLDEN}: {', '.join(args.add)} added")
        return 0
    now = _normalise(record())
    if not args.check:
        GOLDEN.write_text(json.dumps(now, sort_keys=True) + "\n")
        print(f"wrote {GOLDEN}")
        return 0
    before = json.loads(GOLDEN.read_text())
    bad = [k for k in sorted(set(before["simulation"]) | set(now["simulation"]))
           if before["simulation"].get(k) != now["simulation"].get(k)]
    print("golden: identical" if not bad else "golden: differs: " + ", ".join(bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
