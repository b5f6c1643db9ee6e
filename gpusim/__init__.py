"""gpusim: batch simulator and exact analyser for casino poker table games.

The public API is re-exported here (everything else is internal). Heavy modules (JAX) load on
first use, so ``import gpusim`` and the CLI start fast.
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

__version__ = "0.1.0"

_LAZY = {
    "CATEGORY_NAMES": "gpusim.evaluate",
    "best_five": "gpusim.evaluate",
    "describe": "gpusim.evaluate",
    "evaluate": "gpusim.evaluate",
    "hand_category": "gpusim.evaluate",
    "is_royal": "gpusim.evaluate",
    "deal": "gpusim.deal",
    "threefry2x32": "gpusim.rng",
    "ConfigError": "gpusim.config",
    "load_config": "gpusim.config",
    "settle": "gpusim.games",
    "get_strategy": "gpusim.strategy",
    "Run": "gpusim.sim.run",
    "open_run": "gpusim.sim.run",
    "simulate": "gpusim.sim.run",
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
