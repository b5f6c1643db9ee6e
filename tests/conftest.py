"""Shared fixtures: the shipped configs and each game's main config.

A test that takes ``shipped_name`` runs once per shipped config (``configs/*.toml``), so a new
shipped config is tested everywhere without editing the test files (``solved_name``: once per
shipped config whose game has an exact solver); ``shipped_rules`` maps every shipped name to its
loaded rules; ``ch`` and ``thb`` are the first two games' main configs.
"""

from __future__ import annotations

import pytest

from gpusim.config import load_config, shipped_configs
from gpusim.games import spec_for

SHIPPED_CONFIGS = tuple(shipped_configs())
SOLVED_CONFIGS = tuple(n for n in SHIPPED_CONFIGS
                       if spec_for(load_config(n)).exact_solver is not None)
"""The shipped configs whose game has an exact solver (``solved_name`` runs once per each)."""

LONGEST_FIRST = ("test_exact_truth.py", "test_ray.py", "test_bad_input.py")
"""The modules that take longest (the fresh solves; two Ray runs; the bad-input battery), in order:
collected first, so that the parallel workers of `make test` start them first and the short
modules fill in around them, instead of one long module starting last and running alone."""


def pytest_collection_modifyitems(config, items):
    first = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: first.get(item.path.name, len(first)))  # stable: else as found


def pytest_generate_tests(metafunc):
    own = [m for m in metafunc.definition.iter_markers("parametrize")
           if "shipped_name" in str(m.args[0])]  # a test may parametrize it itself
    if "shipped_name" in metafunc.fixturenames and not own:
        metafunc.parametrize("shipped_name", SHIPPED_CONFIGS)
    if "solved_name" in metafunc.fixturenames:
        metafunc.parametrize("solved_name", SOLVED_CONFIGS)


@pytest.fixture(scope="session")
def shipped_rules() -> dict:
    """{shipped config name: its rules}."""
    return {name: load_config(name) for name in SHIPPED_CONFIGS}


@pytest.fixture(scope="session")
def fresh_exact_cache(tmp_path_factory):
    """An exact-count cache folder that is empty when the session starts: the first test that
    points ``GPUSIM_CACHE_DIR`` at it enumerates the counts, the later ones reuse them (one
    Casino Hold'em enumeration per run in tests/test_exact_truth.py, shared by the designer's test
    there). Its users stay in that one module: `make test` runs modules on parallel workers
    (``--dist loadfile``), each with its own session.
    """
    return tmp_path_factory.mktemp("exact-cache")


@pytest.fixture(scope="session")
def ch():
    """Casino Hold'em as shipped (the Norwegian rules and guide)."""
    return load_config("casino_holdem")


@pytest.fixture(scope="session")
def thb():
    """Texas Hold'em Bonus as shipped (the Swedish and Icelandic rules)."""
    return load_config("holdem_bonus")
