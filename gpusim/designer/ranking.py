"""Keeping the best K candidates of a stream of batches, the order they are ranked in, and the
exact integer band on a sum.

A candidate's rank keys (:func:`sort_keys`) follow the chosen order (:data:`SORTS`): its RTP
(highest first), house edge (highest first), volatility index (lowest first), hit frequency
(highest first), or the number of lines changed from the config's paytable and the sum of the
relative changes (fewest first); by default (``target``), or after those, the distance of its
RTP from the band's target; then its pays (ascending, so that ties always fall the same way).
``reverse`` turns the first key round. Every search keeps the K best by these keys, so
``--top`` cuts the table in that order, never the count.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

__all__ = ["SORTS", "TopK", "int_band", "near_keys", "sort_keys"]

BIG = 1 << 62

SORTS = {
    "target": "nearest the RTP band's target (its middle, or its one closed end) first",
    "rtp": "highest RTP first",
    "house-edge": "highest house edge first",
    "vi": "lowest volatility index first",
    "hit-frequency": "highest hit frequency first",
    "changes": "fewest lines changed from the config's paytable first (then the smallest "
               "changes)",
}
"""The orders ``--sort`` takes, and what each puts first (``--reverse`` puts it last)."""


def near_keys(pays: np.ndarray, current: np.ndarray) -> list[np.ndarray]:
    """(lines changed, sum of relative changes) from the config's paytable."""
    diff = pays != current[None, :]
    rel = np.abs(pays - current[None, :]) / np.maximum(current, 1)[None, :]
    return [diff.sum(axis=1).astype(float), rel.sum(axis=1)]


def sort_keys(sort: str, reverse: bool, pays: np.ndarray, fig: dict, current: np.ndarray,
              distance: np.ndarray) -> list[np.ndarray]:
    """The rank keys (ascending: the best first) of candidates ``pays`` (K, L) with figures
    ``fig`` (name -> (K,) floats) and RTP ``distance`` (K,) from the band's target."""
    sign = -1.0 if reverse else 1.0
    dist = np.asarray(distance, dtype=float)
    if sort == "target":
        return [sign * dist]
    if sort == "changes":
        return [sign * k for k in near_keys(pays, current)] + [dist]
    first = {"rtp": lambda: -fig["rtp"], "house-edge": lambda: -fig["house_edge"],
             "vi": lambda: fig["vi"], "hit-frequency": lambda: -fig["hit_frequency"]}[sort]()
    return [sign * np.asarray(first, dtype=float), dist]


def int_band(lo: Fraction | None, hi: Fraction | None, total: int) -> tuple[int, int]:
    """The integers s with ``lo <= 1 + s / total <= hi`` as [s_lo, s_hi] (RTP = 1 + s / total);
    an open end is +-2^62."""
    s_lo = -BIG if lo is None else math.ceil((lo - 1) * total)
    s_hi = BIG if hi is None else math.floor((hi - 1) * total)
    return s_lo, s_hi


def target_sum(lo: Fraction | None, hi: Fraction | None, total: int) -> float:
    """The sum s whose RTP is the band's target: its middle, or its closed end."""
    ends = [(v - 1) * total for v in (lo, hi) if v is not None]
    return float(sum(ends) / len(ends)) if ends else float(BIG)


class TopK:
    """The K best rows seen so far; ``add`` takes a batch of keys (list of (n,) arrays, most
    important first) and pays (n, L), and ``extra`` columns carried along."""

    def __init__(self, k: int):
        self.k = k
        self.keys: list[np.ndarray] | None = None
        self.pays: np.ndarray | None = None
        self.extra: dict[str, np.ndarray] = {}

    def add(self, keys: list[np.ndarray], pays: np.ndarray, extra: dict[str, np.ndarray]):
        if len(pays) == 0 or self.k == 0:
            return
        if len(pays) > self.k:
            # everything tied with the K-th best on the first key stays, so ties are settled
            # by the full order below, whatever the batches were
            first = keys[0]
            kth = np.partition(first, self.k - 1)[self.k - 1]
            keep = first <= kth
            keys = [k[keep] for k in keys]
            pays = pays[keep]
            extra = {n: v[keep] for n, v in extra.items()}
        if self.keys is not None:
            keys = [np.concatenate([a, b]) for a, b in zip(self.keys, keys, strict=True)]
            pays = np.concatenate([self.pays, pays])
            extra = {n: np.concatenate([self.extra[n], v]) for n, v in extra.items()}
        order = np.lexsort([pays[:, j] for j in range(pays.shape[1] - 1, -1, -1)]
                           + list(keys[::-1]))[: self.k]
        self.keys = [k[order] for k in keys]
        self.pays = pays[order]
        self.extra = {n: v[order] for n, v in extra.items()}
