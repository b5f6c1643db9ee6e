"""The four described games (configs with a ``[game]`` table) simulated against counts
enumerated here, by brute force, with no gpusim code; then through every command.

Until the exact solver of described games exists, the check is what a brute-force count gives
in seconds and a strategy does not change: the final five-card hand of Mississippi Stud (every
bet at 1x) and of Let It Ride's bet that always rides, Three Card Poker's Pair Plus and its
play rate under Q-6-4, Caribbean Stud's raise rate under pair-or-better. Each is a chi-square or
a z-test at a stated false-failure rate, on a fixed seed (so a pass is reproducible).
"""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from pathlib import Path

import polars as pl
import pytest
from scipy import stats
from typer.testing import CliRunner

import gpusim
from gpusim.cli import app

ROUNDS = 200_000
ALPHA = 1e-4  # a correct engine fails a test with this probability (fixed seed: never, in fact)
RANKS = "23456789TJQKA"


def _five_card_classes() -> Counter:
    """Category of every one of the 2,598,960 five-card hands, a pair split by its rank
    (``pair_R``), by rank pattern: C(13, k) rank sets times the suit choices, no evaluator."""
    c: Counter = Counter()
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        mult = Counter(ranks)
        if max(mult.values()) > 4:
            continue
        shape = sorted(mult.values(), reverse=True)
        ways = math.prod(math.comb(4, k) for k in mult.values())
        if shape == [1, 1, 1, 1, 1]:
            r = sorted(ranks)
            straight = r == list(range(r[0], r[0] + 5)) or r == [0, 1, 2, 3, 12]
            flush, other = 4, ways - 4
            if straight:
                royal = r == [8, 9, 10, 11, 12]
                c["royal_flush" if royal else "straight_flush"] += flush
                c["straight"] += other
            else:
                c["flush"] += flush
                c["high_card"] += other
        else:
            name = {(4, 1): "four_of_a_kind", (3, 2): "full_house", (3, 1, 1): "three_of_a_kind",
                    (2, 2, 1): "two_pair"}.get(tuple(shape))
            if name is None:  # one pair: split by its rank
                name = "pair_" + RANKS[next(r for r, k in mult.items() if k == 2)]
            c[name] += ways
    assert sum(c.values()) == math.comb(52, 5)
    return c


FIVE = _five_card_classes()


def _three_card_classes() -> tuple[Counter, int]:
    """Three Card Poker categories of all 22,100 hands, and how many rank Q-6-4 or better."""
    c: Counter = Counter()
    q64 = 0
    for hand in itertools.combinations(range(52), 3):
        r = sorted((x >> 2 for x in hand), reverse=True)
        suited = len({x & 3 for x in hand}) == 1
        straight = (r[0] - r[2] == 2 and len(set(r)) == 3) or r == [12, 1, 0]
        if straight and suited:
            cat = "straight_flush"
        elif len(set(r)) == 1:
            cat = "three_of_a_kind"
        elif straight:
            cat = "straight"
        elif suited:
            cat = "flush"
        elif len(set(r)) == 2:
            cat = "pair"
        else:
            cat = "high_card"
        c[cat] += 1
        q64 += cat != "high_card" or r >= [10, 4, 2]
    return c, q64


def _events(run, bet: str) -> dict[str, int]:
    df = run.events().filter(pl.col("bet") == bet).group_by("event").agg(pl.col("count").sum())
    df = df.collect()
    return dict(zip(df["event"].to_list(), df["count"].to_list(), strict=True))


def _taken(run, point: str, action: str) -> int:
    df = run.decisions().filter((pl.col("point") == point) & (pl.col("action") == action))
    return int(df.collect()["count"].sum())


def _chi2(observed: dict[str, int], expected_p: dict[str, float]) -> float:
    names = sorted(expected_p)
    n = sum(observed.get(k, 0) for k in names)
    assert n == sum(observed.values()), (observed, names)
    obs = [observed.get(k, 0) for k in names]
    exp = [n * expected_p[k] for k in names]
    return float(stats.chisquare(obs, exp).pvalue)


def _z(hits: int, n: int, p: float) -> float:
    return abs(hits - n * p) / math.sqrt(n * p * (1 - p))


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    out = tmp_path_factory.mktemp("described")
    return {g: gpusim.simulate(g, rounds=ROUNDS, seed=11, out=out / g, strategy=RULE[g])
            for g in ("mississippi_stud", "let_it_ride", "three_card_poker", "caribbean_stud")}


def _grouped(lines: dict[str, list[str]]) -> dict[str, float]:
    total = math.comb(52, 5)
    return {event: sum(FIVE[k] for k in keys) / total for event, keys in lines.items()}


def test_mississippi_stud_final_hands(runs):
    pairs = {"pair_jacks_or_better": "JQKA", "pair_6_to_10": "6789T"}
    lines = {k: [k] for k in ("royal_flush", "straight_flush", "four_of_a_kind", "full_house",
                              "flush", "straight", "three_of_a_kind", "two_pair")}
    lines |= {name: [f"pair_{r}" for r in rs] for name, rs in pairs.items()}
    lines["other"] = ["high_card", *(f"pair_{r}" for r in "2345")]
    for bet in ("ante", "third", "fourth", "fifth"):  # always-1x: every bet on the final hand
        assert _chi2(_events(runs["mississippi_stud"], bet), _grouped(lines)) > ALPHA, bet


def test_let_it_ride_final_hands(runs):
    lines = {k: [k] for k in ("royal_flush", "straight_flush", "four_of_a_kind", "full_house",
                              "flush", "straight", "three_of_a_kind", "two_pair")}
    lines["pair_tens_or_better"] = [f"pair_{r}" for r in "TJQKA"]
    lines["other"] = ["high_card", *(f"pair_{r}" for r in "23456789")]
    assert _chi2(_events(runs["let_it_ride"], "third"), _grouped(lines)) > ALPHA


def test_three_card_poker_pair_plus_and_play_rate(runs):
    cats, q64 = _three_card_classes()
    p = {k: v / 22_100 for k, v in cats.items()}
    pp = _events(runs["three_card_poker"], "pair_plus")
    pp["other"] = pp.pop("other", 0)
    assert _chi2({("other" if k == "other" else k): v for k, v in pp.items()},
                 {("other" if k == "high_card" else k): v for k, v in p.items()}) > ALPHA
    plays = _taken(runs["three_card_poker"], "play", "play")
    assert _z(plays, ROUNDS, q64 / 22_100) < stats.norm.isf(ALPHA / 2)


def test_caribbean_stud_raise_rate(runs):
    p_pair_or_better = 1 - FIVE["high_card"] / math.comb(52, 5)
    raises = _taken(runs["caribbean_stud"], "raise", "raise")
    assert _z(raises, ROUNDS, p_pair_or_better) < stats.norm.isf(ALPHA / 2)


def test_the_brute_force_counts_are_the_known_ones():
    assert FIVE["royal_flush"] == 4 and FIVE["straight_flush"] == 36
    assert FIVE["four_of_a_kind"] == 624 and FIVE["full_house"] == 3_744
    assert FIVE["flush"] == 5_108 and FIVE["straight"] == 10_200
    assert FIVE["three_of_a_kind"] == 54_912 and FIVE["two_pair"] == 123_552
    assert all(FIVE[f"pair_{r}"] == 84_480 for r in RANKS)
    cats, _ = _three_card_classes()
    assert cats == {"straight_flush": 48, "three_of_a_kind": 52, "straight": 720, "flush": 1_096,
                    "pair": 3_744, "high_card": 16_440}


def test_a_wrong_distribution_fails_the_check():
    """The check can fail: Mississippi's hands with the pair split moved by one rank."""
    lines = {"pair_jacks_or_better": [f"pair_{r}" for r in "TJQKA"],
             "rest": ["high_card", *(f"pair_{r}" for r in "23456789"), "two_pair"]}
    p = _grouped(lines)
    n = 100_000
    observed = {"pair_jacks_or_better": round(n * sum(FIVE[f"pair_{r}"] for r in "JQKA")
                                              / math.comb(52, 5))}
    observed["rest"] = round(n * p["rest"])
    observed["pair_jacks_or_better"] = n - observed["rest"]
    p = {k: v / sum(p.values()) for k, v in p.items()}
    assert _chi2(observed, p) < ALPHA


# --- every command ----------------------------------------------------------------------------

COMMANDS = ["games", "play", "simulate", "shards", "merge", "verify", "summary", "report",
            "whatif", "risk"]


@pytest.mark.parametrize("game", ["three_card_poker", "mississippi_stud", "let_it_ride",
                                  "caribbean_stud"])
def test_every_command(game, tmp_path):
    cli = CliRunner()

    def ok(*args: str) -> str:
        res = cli.invoke(app, list(args))
        assert res.exit_code == 0, (args, res.output)
        return res.stdout

    assert game in json.loads(ok("games", "--json"))["games"]
    records = [json.loads(x) for x in ok("play", game, "--seed", "3", "--rounds", "0:20",
                                         "--json").splitlines()]
    assert len(records) == 20
    common = ["--rounds", "40000", "--seed", "5", "--chunk", "20000", "--quiet"]
    ok("simulate", game, *common, "--out", str(tmp_path / "full"))
    for k in (0, 1):
        ok("simulate", game, *common, "--shard", f"{k}/2", "--out", str(tmp_path / f"s{k}"))
    ok("merge", str(tmp_path / "s0"), str(tmp_path / "s1"), "--out", str(tmp_path / "merged"))
    assert "sound" in ok("verify", str(tmp_path / "merged"))
    full, merged = (json.loads(ok("summary", str(tmp_path / d), "--json"))
                    for d in ("full", "merged"))
    assert merged["bets"] == full["bets"] and merged["decisions"] == full["decisions"]
    for suffix in ("html", "xlsx"):
        ok("report", str(tmp_path / "full"), "--out", str(tmp_path / f"report.{suffix}"))
        assert (tmp_path / f"report.{suffix}").stat().st_size > 0
    bet, lines = next((b, v) for b, v in gpusim.games.spec_for(game).paytables.items())
    whatif = json.loads(ok("whatif", str(tmp_path / "full"), "--set", f"{bet}.{lines[0]}=7",
                           "--json"))
    assert whatif
    assert json.loads(ok("risk", str(tmp_path / "full"), "--json"))
    assert Path(tmp_path / "full" / "manifest.json").is_file()


RULE = {"mississippi_stud": "always-1x", "let_it_ride": "ride-on-a-paying-hand",
        "three_card_poker": "q64", "caribbean_stud": "pair-or-better"}
"""The rule strategy each game's checks here play (the configs' default is ``optimal``, whose
decisions tests/test_described_exact*.py check)."""


def _records(game: str, n: int = 600) -> list[dict]:
    res = CliRunner().invoke(app, ["play", game, "--seed", "9", "--rounds", f"0:{n}", "--json",
                                   "--strategy", RULE[game]])
    assert res.exit_code == 0, res.output
    return [json.loads(x) for x in res.stdout.splitlines()]


def _ranks(cards: list[str]) -> list[int]:
    return sorted((RANKS.index(c[0]) for c in cards), reverse=True)


def test_rule_strategies_do_what_they_say():
    """Each shipped rule strategy's decisions, recomputed from the cards its point sees."""
    seen_any = set()
    for rec in _records("let_it_ride"):  # ride only on a pair of 10s or better already made
        seen = {"first": rec["player"], "second": rec["player"] + rec["board"][:1]}
        for point, cards in seen.items():
            counts = Counter(_ranks(cards))
            paying = any(k >= 3 for k in counts.values()) or sum(
                k == 2 for k in counts.values()) >= 2 or any(
                k == 2 and r >= RANKS.index("T") for r, k in counts.items())
            assert rec["decisions"][point] == ("ride" if paying else "pull"), (point, rec)
            seen_any.add((point, paying))
    assert len(seen_any) == 4  # both answers at both points
    for rec in _records("three_card_poker"):  # Q-6-4 or better
        r = _ranks(rec["player"])
        made = len(set(r)) < 3 or rec["player_category"] != "high_card"
        assert rec["decisions"]["play"] == ("play" if made or r >= [10, 4, 2] else "fold"), rec
    for rec in _records("caribbean_stud"):  # any pair or better
        assert rec["decisions"]["raise"] == (
            "raise" if rec["player_category"] != "high_card" else "fold"), rec


def test_configs_that_differ_only_in_numbers_share_a_compiled_program(tmp_path):
    """Pays and stakes are arguments of the compiled settlement; whether a side bet is offered
    is part of its structure."""
    from gpusim.config import load_config

    text = (Path(__file__).resolve().parents[1] / "configs" / "three_card_poker.toml").read_text()
    pays = text.replace("pair = 1\n", "pair = 2\n").replace("ante = 1\n", "ante = 5\n")
    variants = {"pays": pays,
                "no_side_bet": text.replace("pair_plus = 1\n", "pair_plus = 0\n", 1)}
    base = load_config("three_card_poker")
    rules = {}
    for name, body in variants.items():
        (tmp_path / f"{name}.toml").write_text(body)
        rules[name] = load_config(tmp_path / f"{name}.toml")
    assert rules["pays"].config_hash != base.config_hash
    assert rules["pays"].structure_hash == base.structure_hash
    assert rules["no_side_bet"].structure_hash != base.structure_hash


def _sorted_keys(doc):
    """A parsed TOML document with every table's keys sorted, as a formatter sorting keys
    writes it; arrays keep their order."""
    if isinstance(doc, dict):
        return {k: _sorted_keys(doc[k]) for k in sorted(doc)}
    if isinstance(doc, list):
        return [_sorted_keys(v) for v in doc]
    return doc


def test_a_description_is_its_meaning_not_the_order_of_its_keys(tmp_path):
    """A copy of a shipped config whose keys are reordered (``player`` and ``dealer`` of
    ``[game.cards]`` swapped; every table sorted) is the shipped game, under its own name as
    under a new one, with the shipped config hash; a copy that changes the game is refused."""
    import tomllib

    from gpusim.config import ConfigError, load_config
    from gpusim.designer import toml_text

    path = Path(__file__).resolve().parents[1] / "configs" / "three_card_poker.toml"
    text = path.read_text()
    base = load_config("three_card_poker")
    swapped = text.replace("player = 3\ndealer = 3\n", "dealer = 3\nplayer = 3\n")
    assert swapped != text
    formatted = toml_text(_sorted_keys(tomllib.loads(text)))
    assert "hands = {dealer = " in formatted  # the dealer's hand now first
    for name, body in {"swapped": swapped, "formatted": formatted}.items():
        (tmp_path / "three_card_poker.toml").write_text(body)
        rules = load_config(tmp_path / "three_card_poker.toml")
        assert rules.config_hash == base.config_hash, name
        assert gpusim.games.spec_for(rules).name == rules.game, name
    hashes = set()  # a new game's name: the same hash whichever order its keys come in
    for i, body in enumerate((text, swapped, formatted)):
        (tmp_path / f"renamed_{i}.toml").write_text(
            body.replace('name = "three_card_poker"', 'name = "tcp_renamed"'))
        hashes.add(load_config(tmp_path / f"renamed_{i}.toml").config_hash)
    assert len(hashes) == 1 and base.config_hash not in hashes
    changed = swapped.replace('qualifier = "Q"', 'qualifier = "K"')
    (tmp_path / "three_card_poker.toml").write_text(changed)
    with pytest.raises(ConfigError, match="'three_card_poker' is taken by another game"):
        load_config(tmp_path / "three_card_poker.toml")


def test_rounds_of_another_width_are_refused_in_one_line():
    """A round missing a column must not be settled: a gather would read it clamped, a slice
    not at all (the hands are sliced from the dealt round where no point sees them whole)."""
    import numpy as np

    from gpusim.config import load_config
    from gpusim.games import settle

    rules = load_config("caribbean_stud")  # ten cards a round
    for width in (9, 11):
        with pytest.raises(ValueError, match=r"cards: shape \(4, \d+\) is not allowed; "
                                             r"caribbean_stud deals \(N, 10\)") as e:
            settle(np.zeros((4, width), np.int32), {"raise": np.ones(4, np.int8)}, rules)
        assert "\n" not in str(e.value)
