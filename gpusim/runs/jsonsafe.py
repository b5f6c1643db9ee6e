"""JSON clean-up of a result dict: ``json.dumps`` writes NaN and infinity as bare words that
strict JSON readers refuse, and cannot write numpy scalars at all."""

from __future__ import annotations

import math

__all__ = ["json_safe"]


def json_safe(obj):
    """The same structure with non-finite floats as None, numpy scalars as Python numbers and
    keys as strings."""
    if isinstance(obj, dict):
        return {str(k): json_safe(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [json_safe(v) for v in obj]
    if hasattr(obj, "item") and not isinstance(obj, str):  # numpy scalar
        obj = obj.item()
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    return obj
