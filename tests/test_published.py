"""Published figures (gpusim/data/published.toml), each checked against `gpusim exact` to the digit
it was printed with, and docs/gallery.md, written from them, kept current."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from typer.testing import CliRunner

from gpusim.cli import app
from gpusim.config import shipped_configs
from gpusim.report import gallery
from gpusim.report.gallery import Figure, check_figure, load_published

FIGURES, UNPUBLISHED = load_published()


def _exact(config: str, strategy: str | None) -> dict:
    args = ["exact", config, "--json"] + (["--strategy", strategy] if strategy else [])
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


@pytest.mark.parametrize("fig", FIGURES, ids=lambda f: f"{f.config}-{f.figure}-{f.printed}")
def test_published_figure_is_reproduced_to_the_printed_digit(fig: Figure):
    ours, same = check_figure(fig, _exact(fig.config, fig.strategy))
    if fig.explained:
        # an explanation stands only while the figure does not round to the printed one
        assert not same, f"{fig.config} {fig.figure}: now reproduced ({ours}); drop 'explained'"
    else:
        assert same, f"{fig.config} {fig.figure}: printed {fig.printed}, exact {ours}"


def test_every_shipped_config_is_in_the_table():
    listed = {f.config for f in FIGURES} | set(UNPUBLISHED)
    assert listed == set(shipped_configs())
    assert not {f.config for f in FIGURES} & set(UNPUBLISHED)


def test_every_figure_names_its_source():
    for f in FIGURES:
        assert f.source["url"].startswith("http") and f.source["title"] and f.source["quote"]


def test_the_check_rounds_to_the_printed_digits():
    report = {"main": {"house_edge_per_ante": 0.0218497}, "bets": {"x": {"rtp": 0.97683}}}
    fig = Figure("c", "house_edge_per_ante", "2.18 %", {})
    assert check_figure(fig, report) == (Decimal("2.18"), True)
    assert check_figure(Figure("c", "house_edge_per_ante", "2.19 %", {}), report)[1] is False
    assert check_figure(Figure("c", "house_edge_per_ante", "2.1850 %", {}), report)[1]
    assert check_figure(Figure("c", "return_per_ante", "-0.0218", {}), report)[1]
    assert check_figure(Figure("c", "bet_house_edge:x", "2.317 %", {}), report)[1]
    assert check_figure(Figure("c", "bet_rtp:x", "97.68 %", {}), report)[1]


@pytest.mark.parametrize(("field", "value", "words"), [
    ("figure", "house_edge", "key 'figure': value 'house_edge' is not allowed"),
    ("printed", "about 3 %", "key 'printed': value 'about 3 %' is not a number"),
    ("source", None, "key 'source' is missing"),
])
def test_a_malformed_row_is_refused_in_one_line(tmp_path, field, value, words):
    row = {"config": "three_card_poker", "figure": "house_edge_per_ante", "printed": "3.37 %",
           "source": {"url": "u", "title": "t", "date": "", "quote": "q"}}
    if value is None:
        del row[field]
    else:
        row[field] = value
    lines = ["[[figure]]"] + [f"{k} = {json.dumps(v)}" for k, v in row.items()
                              if not isinstance(v, dict)]
    if "source" in row:
        lines += [f"source.{k} = {json.dumps(v)}" for k, v in row["source"].items()]
    path = tmp_path / "published.toml"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(gallery.PublishedError, match=words) as exc:
        load_published(path)
    assert "\n" not in str(exc.value)


def test_gallery_is_current():
    text = gallery.gallery(gallery.reports(), gallery.load_times())
    assert gallery.DOC.is_file() and gallery.DOC.read_text() == text, \
        f"docs/gallery.md is stale; run {gallery.COMMAND}"


def test_mississippi_stud_ties_explain_the_published_average_bet():
    """The explanation of the Mississippi Stud rows, checked: on fifth street after 1x, 1x (3
    units in), the deals whose last card leaves an expected -3/4 per unit tie folding with 1x;
    the optimal strategy folds them, and betting them instead gives WoO's 3.59 and 1.37 %."""
    import itertools

    import numpy as np

    from gpusim.config import load_config
    from gpusim.evaluator import evaluate_np
    from gpusim.games.strategy_registry import get_strategy

    sets = np.array(list(itertools.combinations(range(52), 4)), np.int32)
    left = np.ones((len(sets), 52), bool)
    left[np.arange(len(sets))[:, None], sets] = False
    rest = np.nonzero(left)[1].reshape(len(sets), 48).astype(np.int32)
    five = np.concatenate([np.repeat(sets[:, None, :], 48, axis=1), rest[:, :, None]], axis=2)
    rank = evaluate_np(five.reshape(-1, 5), check=False).astype(np.int64)
    cat, primary = rank >> 27, (rank >> 13) & 0x1FFF
    pair = np.floor(np.log2(np.maximum(primary, 1))).astype(np.int64)
    # the config's paytable, to one: royal 500 ... a pair of jacks or better 1, 6s to 10s 0
    pay = np.select([(cat == 8) & (primary == 1 << 12), cat == 8, cat == 7, cat == 6, cat == 5,
                     cat == 4, cat == 3, cat == 2, (cat == 1) & (pair >= 9),
                     (cat == 1) & (pair >= 4)], [500, 100, 40, 10, 6, 4, 3, 2, 1, 0], -1)
    tied_cards = pay.reshape(-1, 48).sum(axis=1) == -36  # mean -3/4 over the 48 last cards
    rules = load_config("mississippi_stud")
    strategy = get_strategy("optimal", rules)
    fold, bet_1x = 0, 1
    tied = folded = 0
    # every order of the four cards: which two are the player's, then third and fourth street
    for order in (p for p in itertools.permutations(range(4)) if p[0] < p[1]):
        cards = np.concatenate([sets[:, list(order)], rest[:, :1]], axis=1)
        taken = {k: np.asarray(v) for k, v in strategy.decide(cards).items()}
        t = tied_cards & (taken["third"] == bet_1x) & (taken["fourth"] == bet_1x)
        tied += int(t.sum())
        folded += int((t & (taken["fifth"] == fold)).sum())
    deals = 12 * len(sets)
    assert (tied, folded) == (345_024, 345_024)
    rep = _exact("mississippi_stud", None)["main"]
    played = rep["avg_total_wager"] + tied / deals
    assert round(played, 2) == 3.59
    assert round(rep["house_edge_per_ante"] / played * 100, 2) == 1.37
    assert round(rep["avg_total_wager"], 2) != 3.59
