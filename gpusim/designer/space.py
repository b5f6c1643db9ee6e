"""The space a paytable search runs over, and the targets it must meet, read from the user's
options with one-line errors (:class:`DesignError`).

A space is one value set per paytable line, in the game's line order (best hand first, as in
``GameSpec.paytables``): a fixed line has its current pay only; a free line every multiple of its
step from its low bound up to its high bound, capped by the top-prize cap. A pay is X:1 (X per
unit staked): a whole number, or a ratio such as 3/2 (3:2) where the config's stake makes it a
whole number of money units (the search checks that the config accepts it). The space holds
every pay as an integer in units of ``1 / denom`` (``denom``: the least common denominator of
the current pays, the bounds and the steps; 1 for whole pays), so the searches stay in integer
arithmetic. The monotone rule (on by default) asks that a better hand never pays less than a
worse one. Targets are closed bands ``[lo, hi]`` (either end may be open) on the RTP, hit
frequency, SD per unit, volatility index and, for a main-game bet, the total-bet RTP.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from gpusim.rules import MAX_PAY
from gpusim.stats.distribution import to_fraction

__all__ = ["Band", "DesignError", "Line", "Space", "Targets", "monotone_bounds", "narrowed",
           "pay_text", "parse_band", "parse_pay", "parse_space"]


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
    """What a candidate must meet: RTP (exact), hit frequency, SD per unit, the volatility
    index z x SD at ``confidence`` (two-sided) and, for a main-game bet, the total-bet RTP
    (1 - element of risk)."""

    rtp: Band
    hit_frequency: Band = Band()
    sd: Band = Band()
    vi: Band = Band()
    confidence: float = 0.90
    total_rtp: Band = Band()

    @property
    def filtered(self) -> bool:
        """Whether a band other than the RTP's rules candidates out."""
        return not (self.hit_frequency.open and self.sd.open and self.vi.open
                    and self.total_rtp.open)

    def keep(self, fig: dict) -> np.ndarray:
        """(K,) bool: the candidates whose figures (``fig``: name -> (K,) floats) meet every
        band but the RTP's (which the searches check exactly on the integer sums)."""
        ok = (self.hit_frequency.contains(fig["hit_frequency"]) & self.sd.contains(fig["sd"])
              & self.vi.contains(fig["vi"]))
        if not self.total_rtp.open:
            ok &= self.total_rtp.contains(fig["total_rtp"])
        return ok


@dataclass(frozen=True)
class Line:
    """One paytable line: its current pay and the pays the search may give it (ascending),
    integers in units of the space's ``1 / denom``."""

    name: str
    current: int
    values: np.ndarray
    free: bool


@dataclass(frozen=True)
class Space:
    """The search space of one bet's paytable: lines best hand first, the monotone rule, the
    top-prize cap (whole units). ``size`` counts the box (every combination of the lines'
    values) before the monotone rule. ``denom``: the pays' unit is ``1 / denom`` (1: whole
    pays)."""

    bet: str
    lines: tuple[Line, ...]
    monotone: bool = True
    cap: int | None = None
    denom: int = 1

    def pay(self, value) -> Fraction:
        """A pay of the space (in ``1 / denom``) as the exact pay per unit staked."""
        return Fraction(int(value), self.denom)

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


def pay_text(pay) -> int | str:
    """A pay as a config writes it: X (an int) for X:1, ``"A:B"`` for a ratio."""
    p = Fraction(pay)
    return int(p) if p.denominator == 1 else f"{p.numerator}:{p.denominator}"


def parse_pay(value) -> Fraction:
    """A pay as a config holds it (an int, a Fraction, or the text ``"A:B"``) as a Fraction."""
    if isinstance(value, str):
        a, _, b = value.partition(":")
        return Fraction(int(a), int(b or 1))
    return Fraction(value)


_NUMBER = ("a whole number, a ratio A/B (3/2 pays 3 for every 2 staked) or a decimal such as "
           "1.5")


def _num(text: str, field: str, what: str) -> Fraction:
    """A bound or step as an exact, non-negative number."""
    t = text.strip().replace("_", "")
    try:
        v = Fraction(t)
    except (ValueError, ZeroDivisionError):
        hint = "; for a ratio such as 3:2 write 3/2" if what == "the high bound" else ""
        raise DesignError(f"{field}: got {text!r}; {what} must be {_NUMBER}{hint}") from None
    if v < 0:
        raise DesignError(f"{field}: got {text!r}; {what} must be >= 0")
    return v


def _values(lo: int, hi: int, step: int, cap: int | None) -> np.ndarray:
    top = hi if cap is None else min(hi, cap)
    return np.arange(lo, top + 1, step, dtype=np.int64) if top >= lo else np.zeros(0, np.int64)


def parse_space(bet: str, current: dict, *, lines: list[str] | None = None,
                free: list[str] | None = None, step: str | int = 1, monotone: bool = True,
                cap: int | None = None) -> Space:
    """The space of ``bet``'s paytable ``current`` ({line: pay}, best hand first; a pay an int,
    a Fraction or ``"A:B"``).

    lines: ``["NAME=LO:HI", "NAME=LO:HI:STEP", "NAME=PAY", ...]`` (each number whole, ``A/B`` or
    a decimal; ``NAME=PAY`` sets the line to that one pay); free: line names free between half
    and twice their current pay; step: the default step; cap: no line pays more than this.
    """
    step_d = _num(str(step), "--step", "the step")
    if step_d <= 0:
        raise DesignError(f"--step: got {step!r}; allowed: a number > 0, e.g. 1 or 1/2")
    if cap is not None and not 0 <= cap <= MAX_PAY:
        raise DesignError(f"--cap: got {cap}; allowed: 0 .. {MAX_PAY:,}")
    cur = {name: parse_pay(p) for name, p in current.items()}
    allowed = ", ".join(cur)
    bounds: dict[str, tuple[Fraction, Fraction, Fraction]] = {}
    for name in free or []:
        name = name.strip()
        if name not in cur:
            raise DesignError(f"--free: unknown line {bet}.{name}; lines of {bet}: {allowed}")
        c = cur[name]
        # half (rounded down to a whole pay) to twice the pay, on the step's lattice
        bounds[name] = (Fraction(math.floor(c / 2)), max(2 * c, c + 1), step_d)
    for text in lines or []:
        name, eq, rng = text.partition("=")
        name = name.strip()
        field = f"--line {text}"
        if not eq:
            raise DesignError(f"--line: got {text!r}; expected NAME=LO:HI, NAME=LO:HI:STEP or "
                              "NAME=PAY")
        if name not in cur:
            raise DesignError(f"--line: unknown line {bet}.{name}; lines of {bet}: {allowed}")
        parts = rng.split(":")
        if len(parts) not in (1, 2, 3):
            raise DesignError(f"--line: got {text!r}; expected NAME=LO:HI, NAME=LO:HI:STEP or "
                              "NAME=PAY")
        if len(parts) == 1:
            lo = hi = _num(parts[0], field, "the pay")
        else:
            lo, hi = _num(parts[0], field, "the low bound"), _num(parts[1], field,
                                                                  "the high bound")
        st = _num(parts[2], field, "the step") if len(parts) == 3 else step_d
        if st <= 0:
            raise DesignError(f"{field}: step {parts[2]}; allowed: a number > 0, e.g. 1 or 1/2")
        if not lo <= hi <= MAX_PAY:
            hint = (f"; for the ratio {parts[0]}:{parts[1]} write {parts[0]}/{parts[1]}"
                    if len(parts) == 2 and lo > hi else "")
            raise DesignError(f"{field}: bounds {parts[0]}:{parts[1]}; allowed: 0 <= LO <= HI "
                              f"<= {MAX_PAY:,}{hint}")
        bounds[name] = (lo, hi, st)
    if not bounds:
        raise DesignError("--line: name the lines that may change, e.g. --line "
                          f"{next(iter(cur))}=LO:HI (or --free NAME); lines of {bet}: "
                          f"{allowed}")
    # one unit for every pay of the space: the lattices' points and the current pays
    denom = math.lcm(1, *(v.denominator for v in cur.values()),
                     *(v.denominator for lo, _, st in bounds.values() for v in (lo, st)))
    if denom > 1_000_000:
        raise DesignError(f"--line: the pays need a unit of 1/{denom:,}; allowed: ratios whose "
                          "denominators share a unit of at most 1/1,000,000")
    cap_s = None if cap is None else cap * denom
    out = []
    for name, c in cur.items():
        c_s = int(c * denom)
        if name in bounds:
            lo, hi, st = bounds[name]
            out.append(Line(name, c_s, _values(int(lo * denom), math.floor(hi * denom),
                                               int(st * denom), cap_s), True))
        else:
            if cap is not None and c > cap:
                raise DesignError(f"--cap: got {cap}; the fixed line {bet}.{name} pays "
                                  f"{pay_text(c)}; free it with --line {name}=LO:HI or raise "
                                  "the cap")
            out.append(Line(name, c_s, np.array([c_s], dtype=np.int64), False))
    return Space(bet, tuple(out), monotone, cap, denom)


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


def narrowed(space: Space) -> Space:
    """The space with each line's values cut to those the monotone rule leaves (the same
    paytables; what a model that solves per pay needs to know). A space with no monotone
    paytable keeps no value."""
    import dataclasses

    mb = monotone_bounds(space)
    lines = tuple(dataclasses.replace(ln, values=ln.values[:0] if mb is None else ln.values[
        (ln.values >= mb[0][i]) & (ln.values <= mb[1][i])]) for i, ln in enumerate(space.lines))
    return dataclasses.replace(space, lines=lines)
