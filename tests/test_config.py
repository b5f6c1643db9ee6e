"""Config loading: the shipped configs say what the operators' rules say; bad configs give one-line
errors naming the file, the key, the bad value and what is allowed."""

import json

import pytest

from gpusim.config import (
    ConfigError,
    load_config,
    shipped_configs,
)
from gpusim.games import bets, spec_for

CH_TOML = """\
game = "casino_holdem"
description = "test config"
default_strategy = "basic"

[stakes]
ante = 1
aa_bonus = 1

[rules]
fold_forfeits_bonus = true

[rules.dealer_qualifier]
hand = "pair"
rank = "4"

[paytables.ante]
royal_flush = 100
straight_flush = 20
four_of_a_kind = 10
full_house = 3
flush = 2
straight_or_less = 1

[paytables.aa_bonus]
royal_flush = 25
straight_flush = 25
four_of_a_kind = 25
full_house = 25
flush = 25
straight = 7
three_of_a_kind = 7
two_pair = 7
pair_of_aces = 7
"""

THB_TOML = """\
game = "holdem_bonus"

[stakes]
ante = 1
bonus = 1
jackpot = 1

[paytables.ante]
royal_flush = 1
straight_flush = 1
four_of_a_kind = 1
full_house = 1
flush = 1
straight = 1

[paytables.bonus]
AA_vs_dealer_AA = 1000
AA = 30
AKs = 25
AQs_AJs = 20
AKo = 15
KK_QQ_JJ = 10
AQo_AJo = 5
TT_to_22 = 3

[jackpot]
contribution_bp = 5000
reset = 0

[paytables.jackpot]
straight_flush = 2500
four_of_a_kind = 250
full_house = 50
flush = 25
straight = 10
three_of_a_kind = 3
"""


def _write(tmp_path, text, name="bad.toml"):
    p = tmp_path / name
    p.write_text(text)
    return p


# --- shipped configs -----------------------------------------------------------------------------


def test_shipped_configs():
    assert set(shipped_configs()) >= {
        "casino_holdem",
        "casino_holdem_evolution",
        "holdem_bonus",
        "holdem_bonus_classic",
    }
    for name in shipped_configs():
        r = load_config(name)
        # a game without an exact solver (the described ones, for now) defaults to a rule strategy
        default = "optimal" if spec_for(r).exact_solver is not None else r.default_strategy
        assert r.name == name and r.description and r.default_strategy == default
        assert r.default_strategy in spec_for(r).strategy_names
        json.dumps(r.to_dict())


def test_casino_holdem_seed_002():
    r = load_config("casino_holdem")
    assert r.game == "casino_holdem"
    assert r.stakes.as_dict() == {"ante": 1, "aa_bonus": 1}
    assert r.pays()["ante"] == {
        "royal_flush": 100, "straight_flush": 20, "four_of_a_kind": 10, "full_house": 3,
        "flush": 2, "straight_or_less": 1,
    }
    aa = r.pays()["aa_bonus"]
    assert [aa[k] for k in ("royal_flush", "straight_flush", "four_of_a_kind", "full_house",
                            "flush")] == [25] * 5
    assert [aa[k] for k in ("straight", "three_of_a_kind", "two_pair", "pair_of_aces")] == [7] * 4
    # the game's options: a fold forfeits the AA Bonus; the dealer qualifies with a pair of 4s
    assert dict(r.game_def.chosen) == {"fold_forfeits_bonus": True,
                                       "dealer_qualifier": ("pair", "4")}
    evo = load_config("casino_holdem_evolution")
    assert [evo.pays()["aa_bonus"][k] for k in ("royal_flush", "straight_flush", "four_of_a_kind",
                                               "full_house", "flush", "straight")] == [
        100, 50, 40, 30, 20, 7]
    assert dict(evo.game_def.chosen)["fold_forfeits_bonus"] is False


def test_holdem_bonus_seeds():
    r = load_config("holdem_bonus")
    assert r.game == "holdem_bonus"
    assert r.pays()["bonus"] == {
        "AA_vs_dealer_AA": 1000, "AA": 30, "AKs": 25, "AQs_AJs": 20, "AKo": 15, "KK_QQ_JJ": 10,
        "AQo_AJo": 5, "TT_to_22": 3,
    }
    jackpot = {"straight_flush": 2500, "four_of_a_kind": 250, "full_house": 50, "flush": 25,
               "straight": 10, "three_of_a_kind": 3}
    assert r.pays()["jackpot"] == r.meter.prizes.as_dict() == jackpot
    assert (r.meter.contribution_bp, r.meter.reset) == (5000, 0)
    # the Ante pays 1:1 from a straight up (below it a win pushes)
    assert r.pays()["ante"] == {"royal_flush": 1, "straight_flush": 1, "four_of_a_kind": 1,
                                "full_house": 1, "flush": 1, "straight": 1}
    # the Jackpot hand: the hole cards and the flop (columns 0, 1 and 4..6)
    hand = {p.name: p.hand for p in r.game_def.paytables}["jackpot"]
    assert hand == r.meter.cards == "first_five"
    assert r.game_def.hand(hand).columns == (0, 1, 4, 5, 6)
    classic = load_config("holdem_bonus_classic")
    assert classic.game == "holdem_bonus"
    # no 1000:1 line of its own: AA-vs-dealer-AA pays as AA does
    assert classic.pays()["bonus"]["AA_vs_dealer_AA"] == classic.pays()["bonus"]["AA"] == 30
    assert classic.pays()["ante"] == r.pays()["ante"]
    assert classic.meter is None and classic.stakes["jackpot"] == 0
    assert "jackpot" not in bets(classic)


def test_hash_is_stable_and_follows_the_rules(tmp_path):
    a = load_config(_write(tmp_path, CH_TOML, "a.toml"))
    b = load_config(_write(tmp_path, CH_TOML.replace("test config", "other words"), "b.toml"))
    assert a.config_hash == b.config_hash  # name, description and file do not count
    assert len(a.config_hash) == 64
    c = load_config(_write(tmp_path, CH_TOML.replace("flush = 2\n", "flush = 3\n"), "c.toml"))
    assert c.config_hash != a.config_hash
    d = load_config(_write(tmp_path, CH_TOML.replace("aa_bonus = 1", "aa_bonus = 2"), "d.toml"))
    assert d.config_hash != a.config_hash
    assert load_config("casino_holdem").config_hash != load_config(
        "casino_holdem_evolution").config_hash


def test_name_path_and_passthrough():
    by_name = load_config("holdem_bonus")
    by_path = load_config(shipped_configs()["holdem_bonus"])
    assert by_name == by_path
    assert load_config(by_name) is by_name


def test_side_bet_absent_or_zero_is_not_offered(tmp_path):
    r = load_config(_write(tmp_path, CH_TOML.replace("aa_bonus = 1\n", "", 1)))
    assert r.stakes["aa_bonus"] == 0
    text = THB_TOML.replace("jackpot = 1\n", "jackpot = 0\n", 1)
    assert load_config(_write(tmp_path, text)).stakes["jackpot"] == 0


# --- bad configs ----------------------------------------------------------------------------------

BAD = [
    # (base, old, new, key, value text, allowed text)
    ("ch", 'description = "test config"', 'colour = "red"', "colour", "unknown key",
     "allowed keys"),
    ("ch", "fold_forfeits_bonus = true", "fold_forfeit_bonus = true",
     "rules.fold_forfeit_bonus", "unknown key", "fold_forfeits_bonus"),
    ("ch", "flush = 2\n", "", "paytables.ante.flush", "missing paytable line",
     "straight_or_less"),
    ("ch", "flush = 2\n", "flush = -2\n", "paytables.ante.flush", "-2", "X >= 0"),
    ("ch", "flush = 2\n", "flush = 2.5\n", "paytables.ante.flush", "2.5", "whole number"),
    ("ch", "flush = 2\n", "flush = nan\n", "paytables.ante.flush", "nan", "whole number"),
    ("ch", "flush = 2\n", 'flush = "two"\n', "paytables.ante.flush", "'two'", "whole number"),
    ("ch", "flush = 2\n", "flush = true\n", "paytables.ante.flush", "true", "whole number"),
    ("ch", "pair_of_aces = 7", "pair_of_kings = 7", "paytables.aa_bonus.pair_of_kings",
     "'pair_of_kings'", "pair_of_aces"),
    ("ch", 'game = "casino_holdem"', 'game = "blackjack"', "game", "'blackjack'",
     "holdem_bonus"),
    ("ch", "ante = 1", "ante = 0", "stakes.aa_bonus", "1", "needs an ante"),
    ("ch", 'hand = "pair"', 'hand = "pairs"', "rules.dealer_qualifier.hand", "'pairs'",
     "'two_pair'"),
    ("ch", 'rank = "4"', 'rank = "1"', "rules.dealer_qualifier.rank", "'1'", "'A'"),
    ("ch", "ante = 1", 'ante = "1"', "stakes.ante", "'1'", "whole number"),
    ("ch", "ante = 1", "ante = 0", "stakes.aa_bonus", "0", "stakes.ante"),
    ("ch", 'default_strategy = "basic"', 'default_strategy = "psychic"', "default_strategy",
     "'psychic'", "basic"),
    ("thb", "AKs = 25\n", "", "paytables.bonus.AKs", "missing paytable line", "AQs_AJs"),
    ("thb", "AKs = 25\n", "AKs = 25\nAZs = 3\n", "paytables.bonus.AZs", "'AZs'",
     "TT_to_22"),
    ("thb", "contribution_bp = 5000", "contribution_bp = 12000", "jackpot.contribution_bp",
     "12000", "0..10000"),
    # the Ante's pays are [paytables.ante] lines (the old [rules] ante_pays_from is no key of
    # the game's), and the Jackpot hand is the game's (no [jackpot] cards)
    ("thb", "[paytables.ante]\n", '[rules]\nante_pays_from = "royal"\n\n[paytables.ante]\n',
     "rules", "unknown key", "paytables"),
    ("thb", "straight = 1\n", "straights = 1\n", "paytables.ante.straights", "'straights'",
     "straight_flush"),
    ("thb", "straight = 1\n", "straight = -1\n", "paytables.ante.straight", "-1", "X >= 0"),
    ("thb", "reset = 0\n", "reset = 0\ncards = \"seven\"\n", "jackpot.cards", "unknown key",
     "contribution_bp, reset"),
    ("thb", "straight = 10\n", "straight = 10\nroyal_flush = 5\n",
     "paytables.jackpot.royal_flush", "'royal_flush'", "three_of_a_kind"),
]


@pytest.mark.parametrize("base, old, new, key, value, allowed", BAD,
                         ids=[f"{b[0]}-{b[3]}-{b[4]}" for b in BAD])
def test_bad_config(tmp_path, base, old, new, key, value, allowed):
    text = CH_TOML if base == "ch" else THB_TOML
    assert old in text
    path = _write(tmp_path, text.replace(old, new, 1))
    with pytest.raises(ConfigError) as e:
        load_config(path)
    msg = str(e.value)
    assert "\n" not in msg
    assert str(path) in msg and f"'{key}'" in msg and value in msg and allowed in msg, msg


def test_jackpot_stake_needs_jackpot_table(tmp_path):
    text = THB_TOML.replace("[jackpot]\ncontribution_bp = 5000\nreset = 0\n", "")
    with pytest.raises(ConfigError, match="'jackpot'"):
        load_config(_write(tmp_path, text))


def test_not_toml_and_missing_files(tmp_path):
    path = _write(tmp_path, "game = \n")
    with pytest.raises(ConfigError, match="not valid TOML") as e:
        load_config(path)
    assert "\n" not in str(e.value) and str(path) in str(e.value)
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "missing.toml")
    with pytest.raises(ConfigError, match="shipped configs: .*casino_holdem"):
        load_config("no_such_game")


def test_huge_stake_rejected_for_int32(tmp_path):
    with pytest.raises(ConfigError, match="int32"):
        load_config(_write(tmp_path, CH_TOML.replace("ante = 1", "ante = 100000000")))
