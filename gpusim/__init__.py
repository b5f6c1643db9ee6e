"""gpusim: batch simulator and exact analyser for casino poker table games.

The public API is re-exported here (everything else is internal). Every name loads on first use,
so ``import gpusim`` (and the command line's start-up) costs no JAX import.

``deal`` and ``evaluate`` are both functions and submodules. Python binds a submodule on its
package once it is imported, which would make ``gpusim.deal`` the module after any
``import gpusim.deal``; the package's class below refuses that binding for those two names, so
``gpusim.deal`` and ``gpusim.evaluate`` are the functions whatever was imported before or after
(the modules stay reachable through ``sys.modules`` and ``from gpusim.deal import ...``).
"""

from __future__ import annotations

import importlib
import sys
import types

__version__ = "0.1.0"

_LAZY = {
    "HAND_CLASSES": "gpusim.cards",
    "CardError": "gpusim.cards",
    "format_card": "gpusim.cards",
    "format_cards": "gpusim.cards",
    "hand_class": "gpusim.cards",
    "parse_card": "gpusim.cards",
    "parse_cards": "gpusim.cards",
    "deal": "gpusim.deal",
    "CATEGORY_NAMES": "gpusim.evaluate",
    "best_five": "gpusim.evaluate",
    "describe": "gpusim.evaluate",
    "evaluate": "gpusim.evaluate",
    "hand_category": "gpusim.evaluate",
    "is_royal": "gpusim.evaluate",
    "threefry2x32": "gpusim.rng",
    "ConfigError": "gpusim.config",
    "load_config": "gpusim.config",
    "settle": "gpusim.games",
    "get_strategy": "gpusim.games.registry",
    "Run": "gpusim.runs.run",
    "open_run": "gpusim.runs.run",
    "simulate": "gpusim.runs.run",
    "design": "gpusim.designer",
}

# public functions that share their name with the submodule defining them
_FUNCTION_NOT_MODULE = frozenset({"deal", "evaluate"})
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


class _Package(types.ModuleType):
    """The gpusim package: ignores the import system binding the ``deal`` and ``evaluate``
    submodules over the functions of the same names."""

    def __setattr__(self, name: str, value) -> None:
        if name in _FUNCTION_NOT_MODULE and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


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
