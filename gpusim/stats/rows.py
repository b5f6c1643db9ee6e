"""Per-bet distributions and event counts from a run folder's long rows (chunk, bet, net,
count) and (chunk, bet, event, count), summed over chunks.

A table is anything indexable by column name: a polars or pandas DataFrame, a pyarrow Table or
a dict of arrays.
"""

from __future__ import annotations

import numpy as np

from gpusim.stats.distribution import NetDistribution, as_int_array

__all__ = ["distributions_from_rows", "event_counts_from_rows", "table_column"]


def table_column(table, name: str) -> np.ndarray:
    """Column ``name`` of a table indexable by column name (polars/pandas DataFrame, pyarrow
    Table, dict of arrays) as a numpy array."""
    try:
        col = table[name]
    except (KeyError, IndexError, TypeError, ValueError):
        raise ValueError(f"table has no column {name!r}") from None
    if hasattr(col, "to_numpy"):  # polars/pandas Series, pyarrow ChunkedArray
        return np.asarray(col.to_numpy())
    return np.asarray(col)


def distributions_from_rows(table, *, bet: str = "bet", value: str = "net",
                            count: str = "count") -> dict[str, NetDistribution]:
    """Per-bet distributions from long rows (chunk, bet, net, count), summed over chunks.

    table: anything indexable by column name (polars/pandas DataFrame, pyarrow Table, dict of
    arrays). Returns {bet name: NetDistribution}, bets in sorted order.
    """
    bets = table_column(table, bet)
    vals = table_column(table, value)
    cnts = table_column(table, count)
    out: dict[str, NetDistribution] = {}
    names = np.asarray(bets).astype(str)
    for name in sorted(set(names.tolist())):
        sel = names == name
        out[name] = NetDistribution.from_counts(vals[sel], cnts[sel])
    return out


def event_counts_from_rows(table, bet_name: str, *, bet: str = "bet", event: str = "event",
                           count: str = "count") -> dict[str, int]:
    """{event: count} of one bet from long rows (chunk, bet, event, count), summed over chunks."""
    names = np.asarray(table_column(table, bet)).astype(str)
    events = np.asarray(table_column(table, event)).astype(str)
    cnts = as_int_array(table_column(table, count), count)
    sel = names == bet_name
    if not np.any(sel):
        known = ", ".join(sorted(set(names.tolist()))) or "none"
        raise ValueError(f"bet {bet_name!r} has no event rows; bets present: {known}")
    out: dict[str, int] = {}
    for e, c in zip(events[sel].tolist(), cnts[sel].tolist(), strict=True):
        out[e] = out.get(e, 0) + int(c)
    return out

