"""The four games described in TOML only, settled again by an independent reference.

Three Card Poker, Mississippi Stud, Let It Ride and Caribbean Stud have no Python of their
own: ``gpusim play --json`` deals, decides and settles them from their config's ``[game]``
table. Here a few hundred rounds of each are settled again, bet by bet, by the plain Python
below: its own 5-card and 3-card rankers and the rules as the configs state them, with the pays
read from each config's ``[paytables]``. Nothing of gpusim is used but its CLI, so a mistake in
the described-game engine (a rule read wrongly, a pay off by a line, a stake off by a multiple)
shows up as a disagreement naming the round.

The decisions come from the record (the strategy is not under test), but they must be legal
and the stakes must match them. Besides each config's own strategies, Mississippi Stud and Let
It Ride (one strategy each) are also played with a strategy added to a copy of their config,
so that folds at every street, every multiple and every pull/ride combination occur.
"""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from functools import cache
from itertools import combinations
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gpusim.cli import app

CONFIGS = Path(__file__).resolve().parents[1] / "configs"
SEED = 7
ROUNDS = 400
FORMAT = "gpusim-play/2"

RANKS = "23456789TJQKA"
SUITS = "cdhs"
ACE, KING, QUEEN = 14, 13, 12
POKER_CATEGORIES = ("high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush",
                    "full_house", "four_of_a_kind", "straight_flush", "royal_flush")
THREE_CARD_CATEGORIES = ("high_card", "pair", "flush", "straight", "three_of_a_kind",
                         "straight_flush")


# --------------------------------------------------------------------------- rankers


def parse_card(text: str) -> tuple[int, str]:
    """``"Td"`` -> ``(10, "d")``; ranks 2..14 (ace high)."""
    if not (isinstance(text, str) and len(text) == 2 and text[0] in RANKS and text[1] in SUITS):
        raise ValueError(f"not a card: {text!r}")
    return RANKS.index(text[0]) + 2, text[1]


def _by_count(ranks: list[int]) -> tuple[int, ...]:
    """Distinct ranks, the most frequent first, then the highest first."""
    counts = Counter(ranks)
    return tuple(sorted(counts, key=lambda r: (counts[r], r), reverse=True))


def rank_five(cards: list[tuple[int, str]]) -> tuple[tuple, str]:
    """Exactly five cards -> (comparable key, category name). Ace low only in A-2-3-4-5."""
    assert len(cards) == 5
    ranks = sorted((r for r, _ in cards), reverse=True)
    shape = sorted(Counter(ranks).values(), reverse=True)
    flush = len({s for _, s in cards}) == 1
    straight_high = 0
    if len(set(ranks)) == 5:
        if ranks[0] - ranks[4] == 4:
            straight_high = ranks[0]
        elif ranks == [ACE, 5, 4, 3, 2]:
            straight_high = 5
    if straight_high and flush:
        cat = "royal_flush" if straight_high == ACE else "straight_flush"
        tie = (straight_high,)
    elif shape == [4, 1]:
        cat, tie = "four_of_a_kind", _by_count(ranks)
    elif shape == [3, 2]:
        cat, tie = "full_house", _by_count(ranks)
    elif flush:
        cat, tie = "flush", tuple(ranks)
    elif straight_high:
        cat, tie = "straight", (straight_high,)
    elif shape == [3, 1, 1]:
        cat, tie = "three_of_a_kind", _by_count(ranks)
    elif shape == [2, 2, 1]:
        cat, tie = "two_pair", _by_count(ranks)
    elif shape == [2, 1, 1, 1]:
        cat, tie = "pair", _by_count(ranks)
    else:
        cat, tie = "high_card", tuple(ranks)
    return (POKER_CATEGORIES.index(cat), *tie), cat


def rank_poker(cards: list[tuple[int, str]]) -> tuple[tuple, str]:
    """The best five of five or more cards."""
    return max((rank_five(list(five)) for five in combinations(cards, 5)), key=lambda x: x[0])


def rank_three(cards: list[tuple[int, str]]) -> tuple[tuple, str]:
    """Three Card Poker: straight flush > trips > straight > flush > pair > high card;
    A-2-3 is the lowest straight (3-high), A-K-Q the highest."""
    assert len(cards) == 3
    ranks = sorted((r for r, _ in cards), reverse=True)
    flush = len({s for _, s in cards}) == 1
    straight_high = 0
    if len(set(ranks)) == 3:
        if ranks[0] - ranks[2] == 2:
            straight_high = ranks[0]
        elif ranks == [ACE, 3, 2]:
            straight_high = 3
    if straight_high and flush:
        cat, tie = "straight_flush", (straight_high,)
    elif len(set(ranks)) == 1:
        cat, tie = "three_of_a_kind", (ranks[0],)
    elif straight_high:
        cat, tie = "straight", (straight_high,)
    elif flush:
        cat, tie = "flush", tuple(ranks)
    elif len(set(ranks)) == 2:
        cat, tie = "pair", _by_count(ranks)
    else:
        cat, tie = "high_card", tuple(ranks)
    return (THREE_CARD_CATEGORIES.index(cat), *tie), cat


def _pair_rank(cards: list[tuple[int, str]]) -> int:
    return next(r for r, n in Counter(r for r, _ in cards).items() if n == 2)


# --------------------------------------------------------------------------- the games


def _paid(stake: int, pays: dict, line: str) -> int:
    """A paytable bet: X:1 on a listed line (0 pushes), lost otherwise."""
    return stake * pays[line] if line in pays else -stake


def _cards(rec: dict, key: str, n: int, problems: list[str]) -> list[tuple[int, str]]:
    cards = rec.get(key)
    if not isinstance(cards, list) or len(cards) != n:
        problems.append(f"{key}: expected {n} cards, got {cards!r}")
        return []
    try:
        return [parse_card(c) for c in cards]
    except ValueError as exc:
        problems.append(f"{key}: {exc}")
        return []


def _decisions(rec: dict, points: dict[str, tuple[str, ...]], fold: str | None,
               problems: list[str]) -> dict[str, str] | None:
    """The record's decisions, checked: the points in order, each action legal, nothing after
    a fold and every point reached when there is no fold."""
    dec = rec.get("decisions")
    if not isinstance(dec, dict):
        problems.append(f"decisions: not an object: {dec!r}")
        return None
    names = list(points)
    if list(dec) != names[: len(dec)] or not dec:
        problems.append(f"decisions: points {list(dec)} are not a prefix of {names}")
        return None
    for point, action in dec.items():
        if action not in points[point]:
            problems.append(f"decisions: {point}={action!r} not one of {points[point]}")
            return None
    folded_at = [p for p, a in dec.items() if a == fold]
    if folded_at and folded_at[0] != list(dec)[-1]:
        problems.append(f"decisions: a point after the fold at {folded_at[0]}: {dec}")
        return None
    if not folded_at and len(dec) != len(names):
        problems.append(f"decisions: stopped at {list(dec)[-1]} without a fold: {dec}")
        return None
    return dec


def settle_three_card_poker(rec: dict, cfg: dict, problems: list[str], tags: Counter) -> dict:
    ante, pp = cfg["stakes"]["ante"], cfg["stakes"]["pair_plus"]
    bonus_pays, pp_pays = cfg["paytables"]["ante_bonus"], cfg["paytables"]["pair_plus"]
    player = _cards(rec, "player", 3, problems)
    dealer = _cards(rec, "dealer", 3, problems)
    dec = _decisions(rec, {"play": ("fold", "play")}, "fold", problems)
    if not player or not dealer or dec is None:
        return {}
    pkey, pcat = rank_three(player)
    dkey, dcat = rank_three(dealer)
    _check_category(rec, "player_category", pcat, problems)
    _check_category(rec, "dealer_category", dcat, problems)
    bets = {"pair_plus": (pp, _paid(pp, pp_pays, pcat))}
    tags["pair_plus_win" if pcat in pp_pays else "pair_plus_loss"] += 1
    if dec["play"] == "fold":
        tags["fold"] += 1
        bets["ante"] = (ante, -ante)
        return bets
    play = 1 * ante
    qualified = dcat != "high_card" or max(r for r, _ in dealer) >= QUEEN
    if not qualified:
        outcome, a_net, p_net = "dealer_not_qualified", ante, 0
    elif pkey > dkey:
        outcome, a_net, p_net = "win", ante, play
    elif pkey == dkey:
        outcome, a_net, p_net = "tie", 0, 0
    else:
        outcome, a_net, p_net = "loss", -ante, -play
    tags[outcome] += 1
    if pcat in bonus_pays:  # on top of the Ante when the player plays, whatever the dealer holds
        tags["ante_bonus"] += 1
        a_net += ante * bonus_pays[pcat]
    bets["ante"] = (ante, a_net)
    bets["play"] = (play, p_net)
    return bets


MS_STREETS = ("third", "fourth", "fifth")
MS_ACTIONS = ("fold", "bet_1x", "bet_2x", "bet_3x")


def _mississippi_line(cat: str, cards: list[tuple[int, str]]) -> str:
    if cat != "pair":
        return cat
    r = _pair_rank(cards)
    return "pair_jacks_or_better" if r >= 11 else "pair_6_to_10" if r >= 6 else "pair_2_to_5"


def settle_mississippi_stud(rec: dict, cfg: dict, problems: list[str], tags: Counter) -> dict:
    ante, pays = cfg["stakes"]["ante"], cfg["paytables"]["main"]
    player = _cards(rec, "player", 2, problems)
    board = _cards(rec, "board", 3, problems)
    dec = _decisions(rec, {p: MS_ACTIONS for p in MS_STREETS}, "fold", problems)
    if not player or not board or dec is None:
        return {}
    _, cat = rank_poker(player + board)
    _check_category(rec, "player_category", cat, problems)
    stakes = {"ante": ante}
    for street, action in dec.items():
        if action != "fold":
            stakes[street] = int(action[len("bet_"):-1]) * ante  # bet_kx: k x ante
            tags[action] += 1
    if dec[list(dec)[-1]] == "fold":
        tags[f"fold_at_{list(dec)[-1]}"] += 1
        return {bet: (s, -s) for bet, s in stakes.items()}
    line = _mississippi_line(cat, player + board)
    tags["push" if pays.get(line) == 0 else "win" if line in pays else "loss"] += 1
    return {bet: (s, _paid(s, pays, line)) for bet, s in stakes.items()}


def settle_let_it_ride(rec: dict, cfg: dict, problems: list[str], tags: Counter) -> dict:
    unit, pays = cfg["stakes"]["third"], cfg["paytables"]["main"]
    player = _cards(rec, "player", 3, problems)
    board = _cards(rec, "board", 2, problems)
    dec = _decisions(rec, {"first": ("pull", "ride"), "second": ("pull", "ride")}, None,
                     problems)
    if not player or not board or dec is None:
        return {}
    _, cat = rank_poker(player + board)
    _check_category(rec, "player_category", cat, problems)
    line = cat
    if cat == "pair":
        line = "pair_tens_or_better" if _pair_rank(player + board) >= 10 else "pair_below_tens"
    tags["win" if line in pays else "loss"] += 1
    placed = ["third"] + [bet for bet in ("first", "second") if dec[bet] == "ride"]
    for bet in ("first", "second"):
        tags[f"{dec[bet]}_{bet}"] += 1
    return {bet: (unit, _paid(unit, pays, line)) for bet in placed}


def settle_caribbean_stud(rec: dict, cfg: dict, problems: list[str], tags: Counter) -> dict:
    ante, pays = cfg["stakes"]["ante"], cfg["paytables"]["raise"]
    player = _cards(rec, "player", 5, problems)
    dealer = _cards(rec, "dealer", 5, problems)
    dec = _decisions(rec, {"raise": ("fold", "raise")}, "fold", problems)
    if not player or not dealer or dec is None:
        return {}
    if rec.get("face_up") != rec["dealer"][:1]:
        problems.append(f"face_up {rec.get('face_up')!r} is not the dealer's first card")
    pkey, pcat = rank_poker(player)
    dkey, dcat = rank_poker(dealer)
    _check_category(rec, "player_category", pcat, problems)
    _check_category(rec, "dealer_category", dcat, problems)
    if dec["raise"] == "fold":
        tags["fold"] += 1
        return {"ante": (ante, -ante)}
    raise_ = 2 * ante
    top_two = sorted((r for r, _ in dealer), reverse=True)[:2]
    qualified = dcat != "high_card" or top_two == [ACE, KING]
    if not qualified:
        outcome, a_net, r_net = "dealer_not_qualified", ante, 0
    elif pkey > dkey:
        outcome, a_net, r_net = "win", ante, raise_ * pays[pcat]
        if pays[pcat] > 1:
            tags["raise_pays_more_than_1"] += 1
    elif pkey == dkey:
        outcome, a_net, r_net = "tie", 0, 0
    else:
        outcome, a_net, r_net = "loss", -ante, -raise_
    tags[outcome] += 1
    return {"ante": (ante, a_net), "raise": (raise_, r_net)}


def _check_category(rec: dict, key: str, expected: str, problems: list[str]) -> None:
    if rec.get(key) != expected:
        problems.append(f"{key}: record {rec.get(key)!r}, reference {expected!r}")


GAMES = {
    # game: (settle, has a dealer, has a board)
    "three_card_poker": (settle_three_card_poker, True, False),
    "mississippi_stud": (settle_mississippi_stud, False, True),
    "let_it_ride": (settle_let_it_ride, False, True),
    "caribbean_stud": (settle_caribbean_stud, True, False),
}


def check_record(game: str, rec: dict, cfg: dict, tags: Counter | None = None) -> list[str]:
    """Every way the record differs from the reference (empty when it agrees)."""
    settle, has_dealer, has_board = GAMES[game]
    problems: list[str] = []
    tags = Counter() if tags is None else tags
    if rec.get("format") != FORMAT:
        problems.append(f"format {rec.get('format')!r}")
    if ("dealer" in rec) != has_dealer or ("dealer_category" in rec) != has_dealer:
        problems.append(f"dealer/dealer_category present: {'dealer' in rec}, expected "
                        f"{has_dealer}")
    if ("board" in rec) != has_board:
        problems.append(f"board present: {'board' in rec}, expected {has_board}")
    if ("face_up" in rec) != (game == "caribbean_stud"):
        problems.append(f"face_up present: {'face_up' in rec}")
    seen = [c for key in ("player", "dealer", "board") for c in rec.get(key) or []]
    if len(set(seen)) != len(seen):
        problems.append(f"a card dealt twice: {seen}")
    expected = settle(rec, cfg, problems, tags)
    got = rec.get("bets")
    if not isinstance(got, dict):
        return [*problems, f"bets: not an object: {got!r}"]
    if expected and set(got) != set(expected):
        problems.append(f"bets placed: record {sorted(got)}, reference {sorted(expected)}")
    for bet, (stake, net) in expected.items():
        g = got.get(bet)
        if g is None:
            continue
        if g.get("stake") != stake:
            problems.append(f"{bet}.stake: record {g.get('stake')!r}, reference {stake}")
        if g.get("net") != net:
            problems.append(f"{bet}.net: record {g.get('net')!r}, reference {net}")
    if expected and rec.get("net") != sum(net for _, net in expected.values()):
        problems.append(f"net: record {rec.get('net')!r}, reference "
                        f"{sum(net for _, net in expected.values())}")
    if rec.get("net") != sum(b.get("net", 0) for b in got.values() if isinstance(b, dict)):
        problems.append("net: not the sum of the record's bet nets")
    return problems


# --------------------------------------------------------------------------- the runs

# Strategies added to a copy of the configs whose game has only one, to reach more paths.
EXTRA_STRATEGIES = {
    "mississippi_stud": ("street-mix", """
[game.strategies.street-mix]
description = "folds at every street, bets every multiple (a test strategy)"
third = [{ hidden_pair = true, action = "fold" }, { suited = 2, action = "bet_3x" },
         { action = "bet_1x" }]
fourth = [{ suited = 3, action = "fold" }, { at_least = "pair", action = "bet_2x" },
          { action = "bet_1x" }]
fifth = [{ at_least = "pair", action = "bet_3x" }, { suited = 4, action = "bet_2x" },
         { action = "fold" }]
"""),
    "let_it_ride": ("ride-mix", """
[game.strategies.ride-mix]
description = "every pull/ride combination (a test strategy)"
first = [{ suited = 2, action = "ride" }, { action = "pull" }]
second = [{ at_least = "pair", action = "ride" }, { action = "pull" }]
"""),
}


@cache
def _toml(path: str) -> dict:
    return tomllib.loads(Path(path).read_text(encoding="utf-8"))


@cache
def play(path: str, strategy: str | None) -> tuple[dict, ...]:
    args = ["play", path, "--seed", str(SEED), "--rounds", f"0:{ROUNDS}", "--json"]
    result = CliRunner().invoke(app, args + (["--strategy", strategy] if strategy else []))
    assert result.exit_code == 0, result.output
    records = tuple(json.loads(line) for line in result.stdout.splitlines())
    assert [r.get("round") for r in records] == list(range(ROUNDS))
    return records


@pytest.fixture(scope="module")
def extra_configs(tmp_path_factory) -> dict[str, tuple[str, str]]:
    """{game: (path of a copy with one more strategy, its name)}; the copy's game gets a name
    of its own (a described game's name belongs to one description)."""
    folder = tmp_path_factory.mktemp("described")
    out = {}
    for game, (strategy, text) in EXTRA_STRATEGIES.items():
        original = (CONFIGS / f"{game}.toml").read_text(encoding="utf-8")
        assert original.count(f'name = "{game}"\n') == 2  # the config's and the game's
        copy = original.replace(f'name = "{game}"\n', f'name = "{game}_settlement_check"\n')
        path = folder / f"{game}_settlement_check.toml"
        path.write_text(copy + text, encoding="utf-8")
        out[game] = (str(path), strategy)
    return out


def _runs(game: str, extra_configs) -> list[tuple[str, str | None]]:
    """(config path, strategy) pairs: each of the config's own strategies, plus an added one."""
    path = str(CONFIGS / f"{game}.toml")
    own = [(path, name) for name in _toml(path)["game"]["strategies"]]
    return own + ([extra_configs[game]] if game in extra_configs else [])


def _check_rules_as_assumed(game: str, cfg: dict) -> None:
    """The reference codes the rules the configs state; a config that changes them must fail
    here, not be settled by rules it no longer has."""
    g = cfg["game"]
    bets = g["bets"]
    if game == "three_card_poker":
        assert g["showdown"]["qualifier"] == "Q"
        assert bets["ante"]["showdown"] == {"no_qualify": "1:1", "win": "1:1", "tie": "push",
                                            "lose": "lose"}
        assert (bets["ante"]["bonus"], bets["ante"]["bonus_requires"]) == ("ante_bonus", "stay")
        assert bets["play"]["showdown"] == {"no_qualify": "push", "win": "1:1", "tie": "push",
                                            "lose": "lose"}
        assert (bets["pair_plus"]["fold"], bets["pair_plus"]["paytable"]) == ("settle",
                                                                              "pair_plus")
    elif game == "caribbean_stud":
        assert g["showdown"]["qualifier"] == "A-K"
        assert g["cards"]["dealer_up"] == 1
        assert bets["ante"]["showdown"] == {"no_qualify": "1:1", "win": "1:1", "tie": "push",
                                            "lose": "lose"}
        assert bets["raise"]["showdown"] == {"no_qualify": "push", "win": "paytable",
                                             "tie": "push", "lose": "lose"}
    elif game == "mississippi_stud":
        assert g["cards"] == {"player": 2, "streets": [1, 1, 1]}
        assert g["lines"]["pair_jacks_or_better"]["ranks"] == "J-A"
        assert g["lines"]["pair_6_to_10"]["ranks"] == "6-10"
        assert all(bets[b]["paytable"] == "main" for b in ("ante", *MS_STREETS))
    elif game == "let_it_ride":
        assert g["cards"] == {"player": 3, "streets": [1, 1]}
        assert g["lines"]["pair_tens_or_better"]["ranks"] == "10-A"
        assert all(bets[b]["paytable"] == "main" for b in ("first", "second", "third"))
    for table in g["paytables"].values():
        assert set(table["lines"]) <= set(POKER_CATEGORIES) | set(g.get("lines", {}))


# Outcomes the sample must hold, so that agreement is not vacuous.
REQUIRED = {
    "three_card_poker": {"fold", "dealer_not_qualified", "win", "loss", "pair_plus_win",
                         "pair_plus_loss", "ante_bonus"},
    "mississippi_stud": {"fold_at_third", "fold_at_fourth", "fold_at_fifth", "bet_1x",
                         "bet_2x", "bet_3x", "win", "push", "loss"},
    "let_it_ride": {"pull_first", "ride_first", "pull_second", "ride_second", "win", "loss"},
    "caribbean_stud": {"fold", "dealer_not_qualified", "win", "loss",
                       "raise_pays_more_than_1"},
}


@pytest.mark.parametrize("game", list(GAMES))
def test_play_settles_as_the_reference(game, extra_configs):
    tags: Counter = Counter()
    runs = _runs(game, extra_configs)
    assert len(runs) >= 2
    for path, strategy in runs:
        cfg = _toml(path)
        _check_rules_as_assumed(game, cfg)
        for rec in play(path, strategy):
            problems = check_record(game, rec, cfg, tags)
            assert not problems, (f"{game} --strategy {strategy} round {rec.get('round')}: "
                                  f"{problems}\n{json.dumps(rec)}")
    missing = REQUIRED[game] - set(tags)
    assert not missing, f"{game}: the sample never had {sorted(missing)}: {dict(tags)}"


# --------------------------------------------------------------------------- the reference


def _c(text: str) -> list[tuple[int, str]]:
    return [parse_card(c) for c in text.split()]


def test_rankers():
    assert rank_five(_c("Ah Kh Qh Jh Th"))[1] == "royal_flush"
    assert rank_five(_c("5d 4d 3d 2d Ad"))[1] == "straight_flush"
    assert rank_five(_c("5d 4d 3d 2d Ad"))[0] < rank_five(_c("6d 5d 4d 3d 2d"))[0]
    assert rank_five(_c("5d 4c 3d 2d Ad"))[1] == "straight"
    assert rank_five(_c("Kd Ac Qd Jd Td"))[0] > rank_five(_c("9d Kc Qd Jd Td"))[0]
    assert rank_five(_c("Kd Ac Qd Jd 2d"))[1] == "high_card"  # no wrap-around straight
    assert rank_five(_c("9c 9d 4s 4h Ah"))[0] < rank_five(_c("9c 9d 8s 8h Kh"))[0]
    assert rank_five(_c("Ac Ad 4s 4h 4c"))[0] < rank_five(_c("5c 5d 5s 2h 2c"))[0]
    assert rank_five(_c("Ac Kd 7s 4h 3c"))[0] > rank_five(_c("Ac Qd Js Th 8c"))[0]
    assert rank_poker(_c("Ah Kh 2c 2d Qh Jh Th"))[1] == "royal_flush"
    assert rank_three(_c("Ah 2c 3d"))[1] == "straight"
    assert rank_three(_c("Ah 2c 3d"))[0] < rank_three(_c("2h 3c 4d"))[0]
    assert rank_three(_c("Ah Kc Qd"))[0] > rank_three(_c("Kh Qc Jd"))[0]
    assert rank_three(_c("Ah Kc Qh"))[1] == "straight"
    assert rank_three(_c("Ah Kh Qh"))[1] == "straight_flush"
    assert rank_three(_c("2h 2c 2d"))[0] > rank_three(_c("Ah Kc Qd"))[0]
    assert rank_three(_c("Ah Kc Qd"))[0] > rank_three(_c("Ah Kh 9h"))[0]  # straight > flush
    assert rank_three(_c("2h 2c 3d"))[0] > rank_three(_c("Ah Kh Jd"))[0]
    assert rank_three(_c("Ah 2h 4h"))[0] > rank_three(_c("Ac Ad Kh"))[0]  # flush > pair
    assert Counter(rank_three(list(h))[1] for h in combinations(
        [(r, s) for r in range(2, 15) for s in SUITS], 3)) == Counter(
        straight_flush=48, three_of_a_kind=52, straight=720, flush=1096, pair=3744,
        high_card=16440)


def test_the_checker_can_fail():
    """A record changed by one unit, a stake, a category or an illegal decision is reported."""
    cfg = _toml(str(CONFIGS / "caribbean_stud.toml"))
    good = {"format": FORMAT, "round": 0, "player": ["Ah", "Ad", "7c", "4s", "2d"],
            "dealer": ["Kh", "Qd", "9c", "8s", "3d"], "face_up": ["Kh"],
            "decisions": {"raise": "raise"}, "player_category": "pair",
            "dealer_category": "high_card",
            "bets": {"ante": {"stake": 1, "net": 1, "event": "no_qualify"},
                     "raise": {"stake": 2, "net": 0, "event": "no_qualify"}}, "net": 1}
    assert check_record("caribbean_stud", good, cfg) == []

    def changed(edit) -> list[str]:
        rec = json.loads(json.dumps(good))
        edit(rec)
        return check_record("caribbean_stud", rec, cfg)

    def net_plus_one(rec):
        rec["net"] += 1
        rec["bets"]["ante"]["net"] += 1

    assert any("ante.net" in p for p in changed(net_plus_one))
    assert any(p.startswith("net:") for p in changed(lambda r: r.update(net=2)))
    assert any("raise.stake" in p for p in changed(lambda r: r["bets"]["raise"].update(stake=1)))
    assert any("player_category" in p for p in changed(lambda r: r.update(
        player_category="two_pair")))
    assert any("face_up" in p for p in changed(lambda r: r.update(face_up=["Qd"])))
    assert any("bets placed" in p for p in changed(lambda r: r["bets"].pop("raise")))

    ms = _toml(str(CONFIGS / "mississippi_stud.toml"))
    folded = {"format": FORMAT, "round": 0, "player": ["Ks", "5d"], "board": ["6c", "8h", "Tc"],
              "decisions": {"third": "bet_2x", "fourth": "fold"}, "player_category": "high_card",
              "bets": {"ante": {"stake": 1, "net": -1, "event": "fold"},
                       "third": {"stake": 2, "net": -2, "event": "fold"}}, "net": -3}
    assert check_record("mississippi_stud", folded, ms) == []
    after_fold = json.loads(json.dumps(folded))
    after_fold["decisions"]["fifth"] = "bet_1x"
    assert any("after the fold" in p for p in check_record("mississippi_stud", after_fold, ms))
    paid = json.loads(json.dumps(folded))  # a pair of 8s pushes, a pair of 4s loses
    paid.update(board=["8c", "8h", "Tc"], decisions={"third": "bet_2x", "fourth": "bet_1x",
                                                    "fifth": "bet_3x"}, player_category="pair")
    paid["bets"] = {b: {"stake": s, "net": 0, "event": "pair_6_to_10"}
                    for b, s in (("ante", 1), ("third", 2), ("fourth", 1), ("fifth", 3))}
    paid["net"] = 0
    assert check_record("mississippi_stud", paid, ms) == []
    paid["board"] = ["4c", "4h", "Tc"]
    assert any("fifth.net" in p for p in check_record("mississippi_stud", paid, ms))
