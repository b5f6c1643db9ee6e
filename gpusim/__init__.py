"""gpusim: batch simulator and exact analyser for casino poker table games.

The public API is re-exported here (everything else is internal). Every name loads on first use,
so ``import gpusim`` (and the command line's start-up) costs no JAX import. ``gpusim.deal`` and
``gpusim.evaluate`` are functions; the modules that define them are :mod:`gpusim.dealing` and
:mod:`gpusim.evaluator`.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

_LAZY = {
    "HAND_CLASSES": "gpusim.cards",
    "CardError": "gpusim.cards",
    "format_card": "gpusim.cards",
    "format_cards": "gpusim.cards",
    "hand_class": "gpusim.cards",
    "parse_card": "gpusim.cards",
    "parse_cards": "gpusim.cards",
    "deal": "gpusim.dealing",
    "CATEGORY_NAMES": "gpusim.evaluator",
    "best_five": "gpusim.evaluator",
    "describe": "gpusim.evaluator",
    "evaluate": "gpusim.evaluator",
    "hand_category": "gpusim.evaluator",
    "is_royal": "gpusim.evaluator",
    "threefry2x32": "gpusim.rng",
    "ConfigError": "gpusim.config",
    "load_config": "gpusim.config",
    "settle": "gpusim.games",
    "get_strategy": "gpusim.games.strategy_registry",
    "Run": "gpusim.runs.run_api",
    "open_run": "gpusim.runs.run_api",
    "simulate": "gpusim.runs.run_api",
    "design": "gpusim.designer",
}

# submodules that ``import gpusim`` once loaded as a side effect: still reachable as attributes
_SUBMODULES = frozenset({"cards", "rng"})

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
    "design",
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
    if name in _SUBMODULES:
        return importlib.import_module(f"gpusim.{name}")
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'gpusim' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
