"""Card codes, parsing/formatting and the 169 starting-hand classes."""

import itertools

import numpy as np
import pytest

from gpusim.cards import (
    HAND_CLASSES,
    RANKS,
    SUITS,
    CardError,
    class_combos,
    class_members,
    format_card,
    format_cards,
    hand_class,
    hand_class_index,
    parse_card,
    parse_cards,
)


def test_code_layout():
    # rank = c >> 2 (deuce 0 .. ace 12), suit = c & 3 in the order c, d, h, s
    assert parse_card("2c") == 0
    assert parse_card("2s") == 3
    assert parse_card("3c") == 4
    assert parse_card("Ac") == 48
    assert parse_card("As") == 51
    for c in range(52):
        text = format_card(c)
        assert RANKS.index(text[0]) == c >> 2
        assert SUITS.index(text[1]) == c & 3
        assert parse_card(text) == c


def test_parse_variants():
    assert parse_cards("As Kd Th 7c") == [51, 45, 34, 20]
    assert parse_cards("10h") == [parse_card("Th")]
    assert parse_cards("as,kd") == [51, 45]
    assert parse_cards(["As", "Kd Qh"]) == [51, 45, 42]
    assert format_cards([51, 45, 34, 20]) == "As Kd Th 7c"


@pytest.mark.parametrize("bad", ["Xx", "1s", "Az", "A", "Asd", "", "11h"])
def test_parse_rejects_unknown(bad):
    with pytest.raises(CardError) as info:
        parse_card(bad)
    msg = str(info.value)
    assert "\n" not in msg and "expected" in msg


def test_parse_rejects_duplicates():
    with pytest.raises(CardError, match="duplicate card 'As'"):
        parse_cards("As Kd as")
    assert parse_cards("As As", distinct=False) == [51, 51]


def test_format_rejects_out_of_range():
    with pytest.raises(CardError):
        format_card(52)
    with pytest.raises(CardError):
        format_card(-1)


def test_169_classes_cover_1326_combinations():
    assert len(HAND_CLASSES) == 169 == len(set(HAND_CLASSES))
    assert sum(n.endswith("s") for n in HAND_CLASSES) == 78
    assert sum(n.endswith("o") for n in HAND_CLASSES) == 78
    assert sum(len(n) == 2 for n in HAND_CLASSES) == 13
    assert sum(class_combos(n) for n in HAND_CLASSES) == 1326
    counts = dict.fromkeys(HAND_CLASSES, 0)
    for a, b in itertools.combinations(range(52), 2):
        counts[hand_class(a, b)] += 1
    assert all(counts[n] == class_combos(n) for n in HAND_CLASSES)
    assert class_combos("AA") == 6 and class_combos("AKs") == 4 and class_combos("72o") == 12


def test_grid_order():
    assert HAND_CLASSES[:3] == ("AA", "AKs", "AQs")
    assert HAND_CLASSES[13] == "AKo"
    assert HAND_CLASSES[14] == "KK"
    assert HAND_CLASSES[-1] == "22"


def test_named_hands():
    assert hand_class(parse_card("As"), parse_card("Ks")) == "AKs"
    assert hand_class(parse_card("Kd"), parse_card("As")) == "AKo"
    assert hand_class(parse_card("7c"), parse_card("2d")) == "72o"
    assert hand_class(parse_card("Th"), parse_card("Tc")) == "TT"
    with pytest.raises(CardError):
        hand_class(5, 5)


def test_vectorised_index_matches_scalar():
    a, b = np.array(list(itertools.combinations(range(52), 2))).T
    idx = hand_class_index(a, b)
    assert idx.shape == a.shape
    expected = [HAND_CLASSES.index(hand_class(x, y)) for x, y in zip(a, b, strict=True)]
    np.testing.assert_array_equal(idx, expected)
    np.testing.assert_array_equal(hand_class_index(b, a), idx)


def test_class_members():
    members = class_members("AKs")
    assert len(members) == 4
    assert all(hand_class(x, y) == "AKs" for x, y in members)
    with pytest.raises(CardError):
        class_members("AKx")
