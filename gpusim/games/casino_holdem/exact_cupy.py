"""Casino Hold'em's exact outcome counts as a CUDA kernel: the call-once hold'em shape's
(:mod:`gpusim.games.holdem.call_once_cupy`)."""

from __future__ import annotations

from gpusim.games.holdem.call_once_cupy import ch_counts_from_rows, solve_counts_cupy

__all__ = ["ch_counts_from_rows", "solve_counts_cupy"]
