"""House edge, element of risk, standard deviation, covariance and confidence of the hold.

Conventions: a distribution holds the *player's* net result per round in money units; ``stake``
is the unit the figures are quoted per (the ante for the main game, the side-bet stake for a side
bet). House edge = -E[net] / stake; element of risk = -E[net] / E[amount wagered]; the hold after
N rounds is the house's average win per round, -mean(net), per stake.

Volatility index (as on slot and table-game PAR sheets): VI = z * SD per unit stake, with z the
two-sided normal quantile (1.645 at 90 %, 1.960 at 95 %). N0 = (SD / edge)^2 is the number of
rounds after which the expected loss equals one standard deviation of the result.

Joint statistics for the covariance of bets played in the same round
---------------------------------------------------------------------
Per-bet distributions do not give cross-moments. For the per-round vector y of B bets' nets
the sufficient statistics are n (rounds), S_a = sum_i y_a,i and P_ab = sum_i y_a,i * y_b,i for
a <= b (B (B + 1) / 2 sums, int64 per chunk: |y_a y_b| <= 1e6 even with a 1000:1 line). The run
folder's ``outcomes`` rows give n and S_a; its ``moments`` rows (chunk, bet_a, bet_b,
sum_product) give P_ab. :class:`JointMoments` merges chunks exactly (Python ints):
``JointMoments.from_tables(moments, outcomes)``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist

import numpy as np

from gpusim.stats.distribution import NetDistribution, to_fraction
from gpusim.stats.rows import distributions_from_rows, table_column

__all__ = [
    "DEFAULT_HOLD_ROUNDS",
    "HoldInterval",
    "JointMoments",
    "Volatility",
    "Z90",
    "Z95",
    "hold_interval",
    "hold_table",
    "joint_moments",
    "ratio_hold_interval",
    "volatility",
    "volatility_table",
    "z_two_sided",
]

DEFAULT_HOLD_ROUNDS = tuple(10 ** k for k in range(3, 10))

# The two-sided 90 % and 95 % normal quantiles, correctly rounded. z_two_sided's inverse CDF
# can land an ulp or two away from them; each figure keeps the z it has always used, so that
# no number a user has already seen changes in its last digit.
Z90 = 1.6448536269514722
Z95 = 1.959963984540054


def z_two_sided(level: float) -> float:
    """z with P(|Z| <= z) = level for a standard normal Z (1.6449 at 0.90, 1.9600 at 0.95)."""
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level}")
    return NormalDist().inv_cdf(0.5 + level / 2.0)


@dataclass(frozen=True)
class Volatility:
    """Risk figures of one bet.

    mean: expected net per round (money, exact); house_edge: -mean / stake (exact);
    element_of_risk: -mean / E[wagered] (exact; None without ``wagered``);
    variance: per round (money^2, exact); sd: per round per unit stake;
    vi90, vi95: volatility index z * sd; n0: (sd / house_edge)^2 (inf when the edge is 0).
    """

    bet: str
    rounds: int
    stake: Fraction
    mean: Fraction
    house_edge: Fraction
    element_of_risk: Fraction | None
    variance: Fraction
    sd: float
    vi90: float
    vi95: float
    n0: float

    @property
    def rtp(self) -> Fraction:
        """Return to player per unit stake: 1 - house edge (= per wagered for a fixed stake)."""
        return 1 - self.house_edge


def volatility(dist: NetDistribution, *, stake=1, wagered: int | None = None,
               bet: str = "") -> Volatility:
    """Volatility figures of one bet from its exact per-round net distribution.

    dist: per-round net results (money units) with counts.
    stake: money per unit the figures are quoted in (> 0).
    wagered: total amount wagered over all of ``dist.rounds`` rounds (for the element of risk).
    """
    if not isinstance(dist, NetDistribution):
        raise ValueError(f"dist must be a NetDistribution, got {type(dist).__name__}")
    s = to_fraction(stake, "stake")
    if s <= 0:
        raise ValueError(f"stake must be > 0, got {stake}")
    mean = dist.mean
    edge = -mean / s
    eor = None
    if wagered is not None:
        if int(wagered) <= 0:
            raise ValueError(f"wagered must be > 0, got {wagered}")
        eor = Fraction(-dist.total, int(wagered))
    var = dist.variance
    sd = math.sqrt(var / (s * s))
    n0 = math.inf if edge == 0 else float(Fraction(var) / (mean * mean))
    return Volatility(bet=bet, rounds=dist.rounds, stake=s, mean=mean, house_edge=edge,
                      element_of_risk=eor, variance=var, sd=sd,
                      vi90=z_two_sided(0.90) * sd, vi95=z_two_sided(0.95) * sd, n0=n0)


def volatility_table(dists: Mapping[str, NetDistribution], *,
                     stakes: Mapping[str, object] | None = None,
                     wagered: Mapping[str, int] | None = None) -> list[Volatility]:
    """:func:`volatility` for each bet in ``dists`` (e.g. ante, flop, ..., total).

    stakes, wagered: optional per-bet values (default stake 1, no element of risk).
    """
    stakes = stakes or {}
    wagered = wagered or {}
    return [volatility(d, stake=stakes.get(name, 1), wagered=wagered.get(name), bet=name)
            for name, d in dists.items()]


@dataclass(frozen=True)
class HoldInterval:
    """Confidence interval of the hold (house win per round per unit) after ``rounds`` rounds."""

    rounds: int
    level: float
    hold: float
    low: float
    high: float

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2.0


def _check_rounds(rounds) -> int:
    if isinstance(rounds, bool) or not isinstance(rounds, (int, np.integer)) or rounds < 1:
        raise ValueError(f"rounds must be an integer >= 1, got {rounds!r}")
    return int(rounds)


def hold_interval(mean, sd, rounds: int, level: float = 0.95) -> HoldInterval:
    """Normal-approximation CI of the house's average win per round after ``rounds`` rounds.

    mean, sd: the player's expected net and SD per round (any one unit); the hold is -mean and
    the interval is -mean +- z * sd / sqrt(rounds).
    """
    n = _check_rounds(rounds)
    sd = float(sd)
    if not sd >= 0:
        raise ValueError(f"sd must be >= 0, got {sd}")
    hold = -float(mean)
    half = z_two_sided(level) * sd / math.sqrt(n)
    return HoldInterval(n, level, hold, hold - half, hold + half)


def hold_table(dist: NetDistribution, rounds: Sequence[int] = DEFAULT_HOLD_ROUNDS, *,
               level: float = 0.95, stake=1) -> list[HoldInterval]:
    """:func:`hold_interval` per unit stake for each N in ``rounds`` (default 10^3..10^9)."""
    v = volatility(dist, stake=stake)
    return [hold_interval(v.mean / v.stake, v.sd, n, level) for n in rounds]


@dataclass(frozen=True)
class JointMoments:
    """Exact first and second moments of named per-round columns (see module docstring).

    names: (B,) column names; rounds: n; sums: (B,) S_a; products: (B, B) symmetric P_ab.
    Sums are Python ints, so merged chunks never overflow.
    """

    names: tuple[str, ...]
    rounds: int
    sums: tuple[int, ...]
    products: tuple[tuple[int, ...], ...]

    def __post_init__(self):
        b = len(self.names)
        if len(set(self.names)) != b or any(not n for n in self.names):
            raise ValueError(f"names must be distinct and non-empty, got {self.names}")
        if len(self.sums) != b or len(self.products) != b or any(len(r) != b
                                                                 for r in self.products):
            raise ValueError(f"sums must have {b} entries and products {b}x{b}")
        if self.rounds < 0:
            raise ValueError(f"rounds must be >= 0, got {self.rounds}")

    def __add__(self, other: JointMoments) -> JointMoments:
        if not isinstance(other, JointMoments):
            return NotImplemented
        if other.names != self.names:
            raise ValueError(f"cannot merge moments of {other.names} into {self.names}")
        return JointMoments(
            self.names, self.rounds + other.rounds,
            tuple(a + b for a, b in zip(self.sums, other.sums, strict=True)),
            tuple(tuple(a + b for a, b in zip(ra, rb, strict=True))
                  for ra, rb in zip(self.products, other.products, strict=True)))

    def index(self, name: str) -> int:
        try:
            return self.names.index(name)
        except ValueError:
            raise ValueError(f"no column {name!r}; columns: {', '.join(self.names)}") from None

    def mean(self, name: str) -> Fraction:
        """Exact mean per round of one column."""
        self._need_rounds()
        return Fraction(self.sums[self.index(name)], self.rounds)

    def _need_rounds(self):
        if self.rounds == 0:
            raise ValueError("no rounds recorded")

    def covariance_exact(self, a: str, b: str) -> Fraction:
        """Exact covariance per round of two columns (population form)."""
        self._need_rounds()
        i, j = self.index(a), self.index(b)
        n = self.rounds
        return Fraction(n * self.products[i][j] - self.sums[i] * self.sums[j], n * n)

    def covariance(self) -> np.ndarray:
        """(B, B) float64 covariance matrix per round."""
        b = len(self.names)
        out = np.empty((b, b))
        for i in range(b):
            for j in range(b):
                out[i, j] = float(self.covariance_exact(self.names[i], self.names[j]))
        return out

    def correlation(self) -> np.ndarray:
        """(B, B) float64 correlation matrix (NaN where a column is constant)."""
        c = self.covariance()
        d = np.sqrt(np.diag(c))
        with np.errstate(divide="ignore", invalid="ignore"):
            return c / np.outer(d, d)

    def to_rows(self, chunk: int = 0) -> dict[str, list]:
        """The run folder's ``moments`` rows: chunk, bet_a, bet_b, sum_product for a <= b.

        (n and S_a are not repeated there: the ``outcomes`` rows give them.)
        """
        rows: dict[str, list] = {"chunk": [], "bet_a": [], "bet_b": [], "sum_product": []}
        for i, a in enumerate(self.names):
            for j in range(i, len(self.names)):
                rows["chunk"].append(int(chunk))
                rows["bet_a"].append(a)
                rows["bet_b"].append(self.names[j])
                rows["sum_product"].append(int(self.products[i][j]))
        return rows

    @classmethod
    def from_tables(cls, moments, outcomes, names: Sequence[str] | None = None
                    ) -> JointMoments:
        """Merge a run's ``moments`` rows (chunk, bet_a, bet_b, sum_product) with the first
        moments and round count from its ``outcomes`` rows (chunk, bet, net, count).

        moments, outcomes: anything indexable by column name (polars DataFrame, dict of lists).
        names: column order (default: order of first appearance in ``moments``).
        """
        col_a = [str(x) for x in table_column(moments, "bet_a").tolist()]
        col_b = [str(x) for x in table_column(moments, "bet_b").tolist()]
        vals = [int(x) for x in table_column(moments, "sum_product").tolist()]
        if names is None:
            names = tuple(dict.fromkeys(x for pair in zip(col_a, col_b, strict=True)
                                        for x in pair))
        names = tuple(names)
        pos = {n: i for i, n in enumerate(names)}
        b = len(names)
        prods: list[list[int | None]] = [[None] * b for _ in range(b)]
        for a, bb, v in zip(col_a, col_b, vals, strict=True):
            if a not in pos or bb not in pos:
                continue
            i, j = pos[a], pos[bb]
            prods[i][j] = (prods[i][j] or 0) + v
            if i != j:
                prods[j][i] = prods[i][j]
        missing = [(names[i], names[j]) for i in range(b) for j in range(b) if prods[i][j] is None]
        if missing:
            raise ValueError(f"moments rows lack the pair {missing[0]}")
        dists = distributions_from_rows(outcomes)
        absent = [n for n in names if n not in dists]
        if absent:
            raise ValueError(f"outcomes rows lack bet {absent[0]!r}")
        rounds = {n: dists[n].rounds for n in names}
        if len(set(rounds.values())) > 1:
            raise ValueError(f"bets cover different numbers of rounds: {rounds}")
        return cls(names, next(iter(rounds.values())) if names else 0,
                   tuple(dists[n].total for n in names),
                   tuple(tuple(int(v) for v in row) for row in prods))


def joint_moments(values, names: Sequence[str]) -> JointMoments:
    """Reference implementation of the per-chunk sufficient statistics.

    values: (N, B) integer per-round results (one column per name); names: (B,) column names.
    """
    y = np.asarray(values)
    if y.ndim != 2 or y.shape[1] != len(names):
        raise ValueError(f"values must have shape (N, {len(names)}), got {y.shape}")
    if y.size and not np.issubdtype(y.dtype, np.integer):
        raise ValueError(f"values must be integers, got dtype {y.dtype}")
    y = y.astype(np.int64)
    sums = tuple(int(s) for s in y.sum(axis=0, dtype=np.int64))
    prods = y.T @ y  # int64 matmul: exact while |sum| < 2**63
    return JointMoments(tuple(names), int(y.shape[0]), sums,
                        tuple(tuple(int(v) for v in row) for row in prods))


def ratio_hold_interval(moments: JointMoments, rounds: int, *, net: str = "total",
                        wagered: str = "wagered", level: float = 0.95) -> HoldInterval:
    """CI of the hold as a share of the amount wagered (house win / handle) after N rounds.

    Delta method for the ratio R = -sum(net) / sum(wagered):
    Var(R_N) ~= Var(net + R * wagered) / (N * E[wagered]^2), with the moments' exact means.
    """
    n = _check_rounds(rounds)
    ew = moments.mean(wagered)
    if ew <= 0:
        raise ValueError(f"mean of {wagered!r} must be > 0, got {float(ew)}")
    r = -moments.mean(net) / ew
    var_d = (moments.covariance_exact(net, net) + 2 * r * moments.covariance_exact(net, wagered)
             + r * r * moments.covariance_exact(wagered, wagered))
    sd = math.sqrt(max(float(var_d), 0.0)) / float(ew)
    half = z_two_sided(level) * sd / math.sqrt(n)
    return HoldInterval(n, level, float(r), float(r) - half, float(r) + half)
