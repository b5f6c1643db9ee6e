"""Confidence levels: the two-sided normal quantile of a level, the interval it gives, and how a
level is named in text ("99 % CI") and in JSON keys (``rtp_ci99``).

A level is a float c with 0 < c < 1; the interval estimate +- z * se has P(|Z| <= z) = c for a
standard normal Z, so z = Phi^-1(1/2 + c/2) (``scipy.stats.norm.ppf``).
"""

from __future__ import annotations

import math

from gpusim.stats.moments import Z90, Z95

__all__ = [
    "DEFAULT_CONFIDENCE",
    "check_confidence",
    "ci_key",
    "confidence_label",
    "normal_interval",
    "z_of",
]

DEFAULT_CONFIDENCE = 0.95

# scipy.stats takes about a second to import on a 2-core machine, and the default level is asked
# for at the end of every run (its summary): the two published levels answer without it. Both
# constants are exactly what norm.ppf gives (tests/test_confidence.py checks), so no figure
# depends on which path computed its z.
_KNOWN_Z = {0.90: Z90, 0.95: Z95}


def check_confidence(confidence, field: str = "confidence") -> float:
    """``confidence`` as a float, or ValueError naming ``field``, the value and what is allowed
    (a number strictly between 0 and 1, e.g. 0.95)."""
    try:
        c = float(confidence)
    except (TypeError, ValueError):
        c = math.nan
    if isinstance(confidence, bool) or not 0.0 < c < 1.0:
        raise ValueError(f"{field}: got {confidence!r}; must be a number strictly between 0 "
                         "and 1, e.g. 0.95 or 0.99")
    return c


def z_of(confidence: float) -> float:
    """z with P(|Z| <= z) = ``confidence`` for a standard normal Z: 1.6449 at 0.90, 1.9600 at
    0.95, 2.5758 at 0.99. ValueError outside 0 < confidence < 1."""
    c = check_confidence(confidence)
    if c in _KNOWN_Z:
        return _KNOWN_Z[c]
    from scipy.stats import norm

    return float(norm.ppf(0.5 + c / 2.0))


def normal_interval(estimate: float, se: float, confidence: float = DEFAULT_CONFIDENCE
                    ) -> tuple[float, float]:
    """(low, high) = estimate -+ z_of(confidence) * se: the normal-approximation interval of an
    estimate with standard error ``se`` (>= 0)."""
    se = float(se)
    if not se >= 0:
        raise ValueError(f"se must be >= 0, got {se}")
    half = z_of(confidence) * se
    return float(estimate) - half, float(estimate) + half


def _percent(confidence: float) -> str:
    # 10 significant digits: 0.999 * 100 is 99.89999999999999 in binary, and is meant as 99.9
    return f"{check_confidence(confidence) * 100:.10g}"


def confidence_label(confidence: float) -> str:
    """The level as people read it: ``"95 %"``, ``"99 %"``, ``"99.9 %"``."""
    return f"{_percent(confidence)} %"


def ci_key(confidence: float) -> str:
    """The level in a JSON key: ``"ci95"``, ``"ci99"``, ``"ci99_9"`` (no dot, so that a dotted
    path such as the HTML report's ``data-key`` still names one key)."""
    return "ci" + _percent(confidence).replace(".", "_")
