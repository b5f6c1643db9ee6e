"""The space a paytable search runs over, and the targets it must meet, read from the user's
options with one-line errors (:class:`DesignError`).

A space is one value set per paytable line, in the game's line order (best hand first, as in
``GameSpec.paytables``): a fixed line has its current pay only; a free line every multiple of its
step between its bounds, capped by the top-prize cap. Pays are whole numbers (X means X:1 in
money units of the bet's stake); the monotone rule (on by default) asks that a better hand never
pays less than a worse one. Targets are closed bands ``[lo, hi]`` (either end may be open) on
the RTP, hit frequency, SD per unit and volatility index.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from gpusim.rules import MAX_PAY
from gpusim.stats.distribution import to_fraction

__all__ = ["Band", "DesignError", "Line", "Space", "Targets", "parse_band", "parse_space"]


class DesignError(ValueError):
    """Bad design input; the message is one line naming the field, the value and what is
    allowed."""


@dataclass(frozen=True)
class Band:
    """Closed band ``lo <= x <= hi``; ``None`` is an open end. Exact (fractions)."""

    lo: Fraction | None = None
    hi: Fraction | None = None

    def contains(self, x) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        ok = np.ones(x.shape, dtype=bool)
        if self.lo is not None:
            ok &= x >= float(self.lo)
        if self.hi is not None:
            ok &= x <= float(self.hi)
        return ok

    def text(self) -> str:
        def f(v):
            return "" if v is None else f"{float(v):g}"
        return f"{f(self.lo)}:{f(self.hi)}"

    @property
    def open(self) -> bool:
        return self.lo is None and self.hi is None


def parse_band(text: str | None, field: str, *, percent_above: float | None = None) -> Band:
    """``"LO:HI"`` (either side may be empty) as a :class:`Band`. With ``percent_above``, a
    value above it is read as a percentage (``96.5`` -> 0.965)."""
    if text is None:
        return Band()
    lo_t, colon, hi_t = str(text).partition(":")
    if not colon:
        raise DesignError(f"{field}: got {text!r}; give a band LO:HI, e.g. 0.965:0.970 "
                          "(either side may be left empty)")

    def value(t: str) -> Fraction | None:
        t = t.strip()
        if not t:
            return None
        try:
            v = to_fraction(t, field)
        except ValueError:
            raise DesignError(f"{field}: got {text!r}; {t!r} is not a number") from None
        if percent_above is not None and v > percent_above:
            v /= 100
        if v < 0:
            raise DesignError(f"{field}: got {text!r}; the band must be >= 0")
        return v

    band = Band(value(lo_t), value(hi_t))
    if band.lo is not None and band.hi is not None and band.lo > band.hi:
        raise DesignError(f"{field}: got {text!r}; the low end is above the high end")
    return band


@dataclass(frozen=True)
class Targets:
    """What a candidate must meet: RTP (exact), hit frequency, SD per unit, and the volatility
    index z x SD at ``confidence`` (two-sided)."""

    rtp: Band
    hit_frequency: Band = Band()
    sd: Band = Band()
    vi: Band = Band()
    confidence: float = 0.90


@dataclass(frozen=True)
class Line:
    """One paytable line: its current pay and the pays the search may give it (ascending)."""

    name: str
    current: int
    values: np.ndarray
    free: bool


@dataclass(frozen=True)
class Space:
    """The search space of one bet's paytable: lines best hand first, the monotone rule, the
    top-prize cap. ``size`` counts the box (every combination of the lines' values) before the
    monotone rule."""

    bet: str
    lines: tuple[Line, ...]
    monotone: bool = True
    cap: int | None = None

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(ln.name for ln in self.lines)

    @property
    def current(self) -> np.ndarray:
        return np.array([ln.current for ln in self.lines], dtype=np.int64)

    @property
    def size(self) -> int:
        return math.prod(len(ln.values) for ln in self.lines)

    @property
    def free(self) -> tuple[int, ...]:
        return tuple(i for i, ln in enumerate(self.lines) if ln.free)


def _int(text: str, field: str, what: str) -> int:
    t = text.strip().replace("_", "")
    try:
        return int(t)
    except ValueError:
        pass
    try:
        v = float(t)
    except ValueError:
        raise DesignError(f"{field}: got {text!r}; {what} must be a whole number") from None
    if what == "the step" and v > 0:
        raise DesignError(f"{field}: got step {text!r}; pays are whole numbers (X:1 in money "
                          "units of the stake) and no shipped game's money unit pays a "
                          "fraction of a unit; allowed: a whole number >= 1")
    raise DesignError(f"{field}: got {text!r}; {what} must be a whole number")


def _values(lo: int, hi: int, step: int, cap: int | None) -> np.ndarray:
    top = hi if cap is None else min(hi, cap)
    return np.arange(lo, top + 1, step, dtype=np.int64) if top >= lo else np.zeros(0, np.int64)


def parse_space(bet: str, current: dict[str, int], *, lines: list[str] | None = None,
                free: list[str] | None = None, step: str | int = 1, monotone: bool = True,
                cap: int | None = None) -> Space:
    """The space of ``bet``'s paytable ``current`` ({line: pay}, best hand first).

    lines: ``["NAME=LO:HI", "NAME=LO:HI:STEP", ...]``; free: line names free between half and
    twice their current pay; step: the default step; cap: no line pays more than this.
    """
    step_d = _int(str(step), "--step", "the step")
    if step_d < 1:
        raise DesignError(f"--step: got {step!r}; allowed: a whole number >= 1")
    if cap is not None and not 0 <= cap <= MAX_PAY:
        raise DesignError(f"--cap: got {cap}; allowed: 0 .. {MAX_PAY:,}")
    allowed = ", ".join(current)
    bounds: dict[str, tuple[int, int, int]] = {}
    for name in free or []:
        name = name.strip()
        if name not in current:
            raise DesignError(f"--free: unknown line {bet}.{name}; lines of {bet}: {allowed}")
        c = current[name]
        bounds[name] = (c // 2, max(2 * c, c + 1), step_d)
    for text in lines or []:
        name, eq, rng = text.partition("=")
        name = name.strip()
        field = f"--line {text}"
        if not eq:
            raise DesignError(f"--line: got {text!r}; expected NAME=LO:HI or NAME=LO:HI:STEP")
        if name not in current:
            raise DesignError(f"--line: unknown line {bet}.{name}; lines of {bet}: {allowed}")
        parts = rng.split(":")
        if len(parts) not in (2, 3):
            raise DesignError(f"--line: got {text!r}; expected NAME=LO:HI or NAME=LO:HI:STEP")
        lo, hi = _int(parts[0], field, "the low bound"), _int(parts[1], field, "the high bound")
        st = _int(parts[2], field, "the step") if len(parts) == 3 else step_d
        if st < 1:
            raise DesignError(f"{field}: step {st}; allowed: a whole number >= 1")
        if not 0 <= lo <= hi <= MAX_PAY:
            raise DesignError(f"{field}: bounds {lo}:{hi}; allowed: 0 <= LO <= HI <= "
                              f"{MAX_PAY:,}")
        bounds[name] = (lo, hi, st)
    if not bounds:
        raise DesignError("--line: name the lines that may change, e.g. --line "
                          f"{next(iter(current))}=LO:HI (or --free NAME); lines of {bet}: "
                          f"{allowed}")
    out = []
    for name, c in current.items():
        if name in bounds:
            out.append(Line(name, c, _values(*bounds[name], cap), True))
        else:
            if cap is not None and c > cap:
                raise DesignError(f"--cap: got {cap}; the fixed line {bet}.{name} pays {c}; "
                                  f"free it with --line {name}=LO:HI or raise the cap")
            out.append(Line(name, c, np.array([c], dtype=np.int64), False))
    return Space(bet, tuple(out), monotone, cap)


def monotone_bounds(space: Space) -> tuple[np.ndarray, np.ndarray] | None:
    """(lowest, highest) feasible pay per line under the monotone rule, or None if no paytable
    of the space is monotone. Without the rule: each line's own min and max."""
    n = len(space.lines)
    if any(len(ln.values) == 0 for ln in space.lines):
        return None
    lo = np.array([ln.values[0] for ln in space.lines], dtype=np.int64)
    hi = np.array([ln.values[-1] for ln in space.lines], dtype=np.int64)
    if not space.monotone:
        return lo, hi
    # a line pays at most what the line above it pays, and at least what the line below pays
    for i in range(1, n):
        v = space.lines[i].values
        ok = v[v <= hi[i - 1]]
        if len(ok) == 0:
            return None
        hi[i] = ok[-1]
    for i in range(n - 2, -1, -1):
        v = space.lines[i].values
        ok = v[v >= lo[i + 1]]
        if len(ok) == 0:
            return None
        lo[i] = ok[0]
    if (lo > hi).any():
        return None
    return lo, hi
