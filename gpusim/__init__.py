"""gpusim: batch simulator and exact analyser for casino poker table games.

The public API is re-exported here (everything else is internal). ``deal`` and ``evaluate`` are
both functions and submodules; they are imported eagerly so that the package attribute is the
function whatever is imported later (a submodule imported first would otherwise shadow it).
Other heavy names load on first use.
"""

from __future__ import annotations

import importlib

from gpusim.cards import (
    HAND_CLASSES,
    CardError,
    format_card,
    format_cards,
    hand_class,
    parse_card,
    parse_cards,
)
from gpusim.deal import deal
from gpusim.evaluate import (
    CATEGORY_NAMES,
    best_five,
    describe,
    evaluate,
    hand_category,
    is_royal,
)

__version__ = "0.1.0"

_LAZY = {
    "threefry2x32": "gpusim.rng",
    "ConfigError": "gpusim.config",
    "load_config": "gpusim.config",
    "settle": "gpusim.games",
    "get_strategy": "gpusim.strategy",
    "Run": "gpusim.runs.run",
    "open_run": "gpusim.runs.run",
    "simulate": "gpusim.runs.run",
}

__all__ = [
    "CATEGORY_NAMES",
    "CardError",
    "ConfigError",
    "HAND_CLASSES",
    "Run",
    "__version__",
    "best_five",
    "deal",
    "describe",
    "evaluate",
    "format_card",
    "format_cards",
    "get_strategy",
    "hand_category",
    "hand_class",
    "is_royal",
    "load_config",
    "open_run",
    "parse_card",
    "parse_cards",
    "settle",
    "simulate",
    "threefry2x32",
]


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'gpusim' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
