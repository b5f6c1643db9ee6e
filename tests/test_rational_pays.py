"""Rational pays (a 3:2 Blind) stay exact: a game's returns per unit may be Fractions, and
every consumer counts integer money from them (``gpusim.games.return_numerators``, the
compiled settlement's ``payout`` and the joint code's nets)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from gpusim.compute.bins import BinLayout
from gpusim.games import event_returns, payout, return_numerators


def test_numerators_over_the_least_common_denominator():
    num, scale = return_numerators((0, 1, Fraction(5, 2), Fraction(4, 3), None, 501))
    assert scale == 6
    assert num.tolist() == [0, 6, 15, 8, 0, 3006] and num.dtype == np.int64
    num, scale = return_numerators((0, 2, 1, None))
    assert (num.tolist(), scale) == ([0, 2, 1, 0], 1)


def _layout(returns, stakes):
    ev = np.arange(len(returns), dtype=np.int64)
    return BinLayout(len(returns), {"b": ev}, {"b": np.asarray(stakes, np.int64)},
                     {"b": tuple(returns)}, {"b": tuple(f"e{i}" for i in ev)},
                     {"p": np.zeros(len(returns), np.int64)})


def test_bin_nets_are_exact_for_a_3_to_2_pay():
    # stakes of 2 and 4 units: lose, push, 3:2, 1:1, 500:1
    lay = _layout((0, 1, Fraction(5, 2), 2, 501), (2, 2, 4, 2, 2))
    assert lay.nets()["b"].tolist() == [-2, 0, 6, 2, 1000]


def test_bin_nets_refuse_a_fraction_of_a_unit():
    with pytest.raises(ValueError, match="not a whole number of money units"):
        _layout((0, Fraction(5, 2)), (1, 1)).nets()


def test_payout_holds_every_return_exactly_and_whole_pays_keep_scale_one(shipped_rules):
    for rules in shipped_rules.values():
        pay = payout(rules)
        assert set(pay) == {"returns", "scale", "stakes"}
        for bet, rets in event_returns(rules).items():
            scale = int(pay["scale"][bet])
            assert [Fraction(int(n), scale) for n in pay["returns"][bet]] == \
                [Fraction(r or 0) for r in rets], (rules.name, bet)
            if all(Fraction(r or 0).denominator == 1 for r in rets):
                assert scale == 1 and pay["returns"][bet].tolist() == [r or 0 for r in rets]
            else:
                assert scale > 1
