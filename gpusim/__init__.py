"""gpusim: batch simulator and exact analyser for casino poker table games.

The public API is re-exported here (everything else is internal). Every name loads on first use,
so ``import gpusim`` (and the command line's start-up) costs no JAX import. ``gpusim.deal`` and
``gpusim.evaluate`` are functions; the modules that define them are :mod:`gpusim.dealing` and
:mod:`gpusim.evaluator`.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping
from typing import Any

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
    "RunFolderError": "gpusim.runs.folder_base",
    "StrategyError": "gpusim.strategy",
}

# functions whose RunFolderError names the settings as Python spells them (``force=True``): the
# message the run folder raises names them as the command line does (``--force``)
_PYTHON_SPELLING = frozenset({"simulate"})

# submodules that ``import gpusim`` once loaded as a side effect: still reachable as attributes
_SUBMODULES = frozenset({"cards", "exact", "rng"})

__all__ = [
    "CATEGORY_NAMES",
    "CardError",
    "ConfigError",
    "HAND_CLASSES",
    "Run",
    "RunFolderError",
    "StrategyError",
    "__version__",
    "best_five",
    "deal",
    "describe",
    "design",
    "evaluate",
    "exact",
    "exact_report",
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


def exact_report(
    config: Any,
    strategy: str | None = None,
    *,
    pays: Mapping[str, int | str] | None = None,
    backend: str = "cpu",
    recompute: bool = False,
    progress: bool = False,
) -> dict:
    """The exact report of ``config`` under ``strategy``: what ``gpusim exact CONFIG --json``
    prints (docs/exact.md gives its JSON).

    ``config`` is a shipped config's name, a TOML path or a loaded config; ``strategy`` defaults
    to the config's ``default_strategy`` (name ``"optimal"`` to solve the game). ``pays`` prices
    other paytable lines, as ``--set`` does: ``{"pair_plus.pair": 2}``. A shipped config with a
    shipped strategy is answered from the shipped report unless ``recompute``; otherwise every
    deal is counted (cached) on ``backend`` (``"cpu"`` or ``"cupy"``), with a progress bar on
    stderr if ``progress``. Raises ConfigError or StrategyError (one-line messages), and
    ValueError for a game with no exact solver.
    """
    from gpusim.config import load_config, parse_pay_settings, with_pays
    from gpusim.exact.shipped import shipped_report
    from gpusim.games.strategy_registry import strategy_names
    from gpusim.runs.exact_on_demand import exact_report as solve_report
    from gpusim.strategy import StrategyError

    rules: Any = load_config(config)  # a game's rules object (its own dataclass)
    if pays:
        settings = [f"{line}={pay}" for line, pay in pays.items()]
        rules = with_pays(rules, parse_pay_settings(rules, settings, "pays"), field="pays")
    name = strategy or rules.default_strategy
    if name not in strategy_names(rules.game):
        raise StrategyError(f"strategy: {name!r} is not a strategy of {rules.game}; allowed: "
                            + ", ".join(strategy_names(rules.game)))
    if backend not in ("cpu", "cupy"):
        raise ValueError(f"backend: {backend!r} is not an exact backend; allowed: cpu, cupy")
    report = None if recompute or backend == "cupy" else shipped_report(rules, name)
    report = report or solve_report(rules, name, progress=progress, backend=backend)
    if pays:
        report = {**report, "paytable_changes": {k: str(v) for k, v in pays.items()},
                  "config_hash": rules.config_hash}
    return report


def _make_exact_callable() -> None:
    """``gpusim.exact(config, strategy=...)`` calls :func:`exact_report`: ``gpusim.exact`` is
    the exact-analysis package (an import of any of its modules binds the name to it again),
    so the package itself is made callable. Its ``__init__`` imports nothing."""
    import gpusim.exact as package

    class _CallablePackage(type(package)):  # type: ignore[misc]
        def __call__(self, config: Any, strategy: str | None = None, **options: Any) -> dict:
            return exact_report(config, strategy, **options)

    package.__class__ = _CallablePackage


_make_exact_callable()


def _with_python_spelling(func):
    """``func`` raising its RunFolderError as a Python caller reads it (``force=True``)."""
    from gpusim.runs.folder_base import RunFolderError

    @functools.wraps(func)
    def call(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except RunFolderError as exc:
            raise exc.for_python().with_traceback(exc.__traceback__) from None

    return call


def __getattr__(name: str):
    if name in _SUBMODULES:
        return importlib.import_module(f"gpusim.{name}")
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'gpusim' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    if name in _PYTHON_SPELLING:
        value = _with_python_spelling(value)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
