"""The play-once kernel's place in the described engine, without a GPU: which descriptions it
plays, how its codes reach the description's joint codes, which described strategies it plays
itself. (The kernel's logic against the description's settlement is
tests/test_kernels_uth_host.py, compiled for the host.)"""

from __future__ import annotations

import numpy as np
import pytest

from gpusim.compute.backends import cupy_rounds as cb
from gpusim.compute.bins import bin_layout, remap_codes
from gpusim.config import editable_doc, load_config, parse_config
from gpusim.games import spec_for
from gpusim.games.holdem.play_once_kernel import KERNEL, N_KERNEL_CODES, code_map, rule_code
from gpusim.games.strategy_registry import get_strategy
from gpusim.strategy import StrategyError


@pytest.fixture(autouse=True, scope="module")
def _forget_the_variants():
    """The variants register their games in this process; the registry lists the shipped
    games only once this module is done (docs/config.md is made from it)."""
    yield
    from gpusim.games import SPECS

    for name in [n for n in SPECS if n.startswith("uth_kernel_")]:
        SPECS._all().pop(name)  # type: ignore[attr-defined]


def _variant(name: str, edit) -> object:
    """The standard game's config with its [game] table edited and named ``uth_kernel_<name>``."""
    doc = editable_doc(load_config("ultimate_holdem").to_dict())
    doc["game"]["name"] = f"uth_kernel_{name}"
    edit(doc)
    return parse_config(doc)


def test_the_kernel_serves_the_shape_not_a_name():
    assert spec_for(load_config("ultimate_holdem")).kernel == KERNEL
    assert spec_for(load_config("ultimate_holdem_must_beat")).kernel == KERNEL
    # 3x at most pre-flop: not the kernel's tree, so jax-gpu plays it
    assert spec_for(load_config("ultimate_holdem_3x_open")).kernel is None

    def rename(doc):  # the same game under other action names is still the kernel's
        for p in doc["game"]["decisions"]:
            for a in p["actions"]:
                a["name"] = "bet_" + a["name"]
        for s in doc["game"]["strategies"].values():
            for point in s.values():
                for rule in point if isinstance(point, list) else ():
                    rule["action"] = "bet_" + rule["action"]

    renamed = _variant("renamed", rename)
    assert spec_for(renamed).kernel == KERNEL
    assert rule_code(renamed, get_strategy("basic", renamed)) == cb.STRAT_BASIC
    assert rule_code(renamed, get_strategy("always-check", renamed)) == cb.STRAT_ALWAYS


def test_every_joint_code_is_reached_and_merges_settle_alike():
    for name in ("ultimate_holdem", "ultimate_holdem_must_beat"):
        rules = load_config(name)
        m = code_map(rules)
        lay = bin_layout(rules)
        assert m.shape == (N_KERNEL_CODES,) and m.min() >= 0 and m.max() < lay.n_bins
        # a histogram moved onto the joint codes keeps every round
        bins = np.arange(N_KERNEL_CODES, dtype=np.int64)
        joint, hits = remap_codes(m, lay.n_bins, bins, np.array([[7, 61]]))
        assert joint.sum() == bins.sum() and hits.tolist() == [[7, int(m[61])]]


def test_a_description_that_settles_a_merged_outcome_apart_is_refused():
    """An unqualified tie named apart from a tie: the kernel does not tell them apart."""
    rules = _variant("tie_apart",
                     lambda doc: doc["game"]["showdown"].update(unqualified_tie="no_qualify"))
    assert spec_for(rules).kernel == KERNEL  # the shape is the kernel's ...
    with pytest.raises(ValueError, match="does not tell apart differently") as info:
        code_map(rules)  # ... but this config's bets settle what it merges apart
    assert "\n" not in str(info.value) and "jax-gpu" in str(info.value)


def test_a_strategy_runs_in_the_kernel_only_with_the_kernels_rules():
    rules = load_config("ultimate_holdem")
    assert cb.strategy_spec(rules, get_strategy("basic", rules)).code == cb.STRAT_BASIC
    assert cb.strategy_spec(rules, get_strategy("always-check", rules)).code == \
        cb.STRAT_ALWAYS

    def looser(doc):  # one outs threshold moved: no longer the kernel's rule list
        river = doc["game"]["strategies"]["basic"]["river"]
        next(r for r in river if "dealer_outs_below" in r)["dealer_outs_below"] = 22

    edited = _variant("looser", looser)
    assert rule_code(edited, get_strategy("always-check", edited)) == cb.STRAT_ALWAYS
    assert rule_code(edited, get_strategy("basic", edited)) is None
    with pytest.raises(StrategyError, match="no kernel form"):
        cb.strategy_spec(edited, get_strategy("basic", edited))
