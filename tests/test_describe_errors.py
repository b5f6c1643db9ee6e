"""Broken game descriptions: each is one of the four shipped described configs with one small
textual edit, and each must be refused with one ConfigError line that names the file, the key
path and what is allowed; a sample also goes through `gpusim simulate`, which must exit 2 with
one ``gpusim: error:`` line on stderr and leave no run folder behind.

To add a case, append ``C(id, config, [(old, new), ...], key, needles...)`` to ``CASES``: the
edits are applied to the config's text in order (each ``old`` must occur), ``key`` is the key
path the message must name and ``needles`` are substrings it must also contain (the value and a
word of what is allowed). ``cli=True`` runs the case through the command line as well.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gpusim.cli import app
from gpusim.config import load_config
from gpusim.rules import ConfigError

ROOT = Path(__file__).resolve().parent.parent
TCP, MS, LIR, CS = "three_card_poker", "mississippi_stud", "let_it_ride", "caribbean_stud"
UTH = "ultimate_holdem_3x_open"
TEXTS = {n: (ROOT / "configs" / f"{n}.toml").read_text(encoding="utf-8")
         for n in (TCP, MS, LIR, CS, UTH)}

# snippets of the shipped texts the edits below hook on
TCP_PLAY = '{ name = "play", bet = "play", times = 1 }'
TCP_FOLD = '{ name = "fold", fold = true }'
TCP_Q64 = 'play = [{ at_least = "Q-6-4", action = "play" }, { action = "fold" }]'
TCP_PP_LINES = 'lines = ["straight_flush", "three_of_a_kind", "straight", "flush", "pair"]'
TCP_TITLE = 'title = "Three Card Poker"'
TCP_ANTE_SD = 'showdown = { no_qualify = "1:1", win = "1:1", tie = "push", lose = "lose" }'
TCP_PLAY_SD = 'showdown = { no_qualify = "push", win = "1:1", tie = "push", lose = "lose" }'
TCP_PP_BET = 'placed = "deal"\nside = true'
MS_PAIR610 = 'pair_6_to_10 = { category = "pair", ranks = "6-10" }'
MS_HAND = 'cards = ["player", "board"]'
MS_THIRD_1X = '{ name = "bet_1x", bet = "third", times = 1 }'
MS_FOURTH_1X = '{ name = "bet_1x", bet = "fourth", times = 1 }'
MS_CARDS = "player = 2\nstreets = [1, 1, 1]"
LIR_FIRST = '[{ name = "pull", pull = "first" }, { name = "ride" }]'
LIR_RULE = 'first = [{ at_least = "pair of 10s", action = "ride" }, { action = "pull" }]'
CS_CARDS = "player = 5\ndealer = 5\ndealer_up = 1"
CS_RULE = 'raise = [{ at_least = "pair", action = "raise" }, { action = "fold" }]'
UTH_3X = '{ name = "play_3x", bet = "play", times = 3, next = "showdown" }'
UTH_RIVER_FOLD = '{ name = "fold", fold = true }'
NEW_BET = '\n[game.bets.insurance]\nplaced = "action"\n' + TCP_PLAY_SD + "\n"


@dataclass(frozen=True)
class C:
    id: str
    base: str
    edits: tuple[tuple[str, str], ...]
    key: str
    needles: tuple[str, ...]
    cli: bool = False

    def text(self) -> str:
        text = TEXTS[self.base]
        for old, new in self.edits:
            assert old in text, (self.id, old)
            text = text.replace(old, new, 1)
        return text


def c(cid: str, base: str, edits, key: str, *needles: str, cli: bool = False) -> C:
    return C(cid, base, tuple(edits), key, needles, cli)


def after(anchor: str, extra: str) -> tuple[str, str]:
    """An edit that puts ``extra`` on a line of its own after ``anchor``."""
    return anchor, f"{anchor}\n{extra}"


CASES = [
    # --- unknown keys, at every depth ------------------------------------------------------------
    c("unknown-key-game", TCP, [after(TCP_TITLE, 'colour = "red"')], "game.colour",
      "unknown key", "cards", "strategies", cli=True),
    c("unknown-key-cards", TCP, [after("dealer = 3", "jokers = 1")], "game.cards.jokers",
      "unknown key", "dealer_up", "streets"),
    c("unknown-key-hand", TCP, [after('[game.hands.player]', "wild = true")],
      "game.hands.player.wild", "unknown key", "ranking"),
    c("unknown-key-decision", TCP, [after('name = "play"', "timeout = 3")],
      "game.decisions[0].timeout", "unknown key", "street", "actions"),
    c("unknown-key-action", TCP, [(TCP_PLAY, TCP_PLAY[:-2] + ", speed = 2 }")],
      "game.decisions[0].actions[1].speed", "unknown key", "times", "pull", "next"),
    c("unknown-key-bet", TCP, [after('[game.bets.play]', 'colour = "x"')],
      "game.bets.play.colour", "unknown key", "placed", "showdown", "paytable"),
    c("unknown-key-showdown-pay", TCP, [(TCP_PLAY_SD, TCP_PLAY_SD[:-2] + ', bad_beat = "1:1" }')],
      "game.bets.play.showdown.bad_beat", "unknown key", "no_qualify", "win", "tie", "lose",
      cli=True),
    c("unknown-key-paytable", TCP, [after("[game.paytables.pair_plus]", "max = 5")],
      "game.paytables.pair_plus.max", "unknown key", "hand", "lines", "otherwise"),
    c("unknown-key-showdown", TCP, [after("[game.showdown]", 'house_edge = "low"')],
      "game.showdown.house_edge", "unknown key", "qualifier"),
    c("unknown-key-line", MS, [(MS_PAIR610, MS_PAIR610[:-2] + ", pays = 1 }")],
      "game.lines.pair_6_to_10.pays", "unknown key", "category", "ranks"),
    c("unknown-key-strategy", TCP, [after("[game.strategies.q64]", 'author = "me"')],
      "game.strategies.q64.author", "unknown key", "description", "play"),
    c("unknown-condition", TCP, [(TCP_Q64, TCP_Q64.replace('at_least = "Q-6-4"',
                                                           "pair_or_better = true"))],
      "game.strategies.q64.play[0].pair_or_better", "unknown key", "at_least", "suited"),
    # --- wrong types, at every depth -------------------------------------------------------------
    c("type-cards-table", TCP, [("[game.cards]\nplayer = 3\ndealer = 3\n", ""),
                                after(TCP_TITLE, "cards = 6")],
      "game.cards", "6", "table", cli=True),
    c("type-player-string", TCP, [("player = 3\ndealer = 3", 'player = "three"\ndealer = 3')],
      "game.cards.player", "'three'", "whole number"),
    c("type-dealer-float", TCP, [("player = 3\ndealer = 3", "player = 3\ndealer = 3.0")],
      "game.cards.dealer", "3.0", "whole number"),
    c("type-streets-string", MS, [(MS_CARDS, 'player = 2\nstreets = "three"')],
      "game.cards.streets", "'three'", "array"),
    c("type-title", TCP, [(TCP_TITLE, "title = 5")], "game.title", "5", "string"),
    c("type-hand-table", TCP, [('[game.hands.player]\ncards = ["player"]\n'
                                'ranking = "three_card"', '[game.hands]\nplayer = "player"')],
      "game.hands.player", "table", "cards", "ranking"),
    c("type-hand-cards-string", TCP, [('cards = ["player"]', 'cards = "player"')],
      "game.hands.player.cards", "'player'", "array"),
    c("type-ranking-int", TCP, [('ranking = "three_card"', "ranking = 3")],
      "game.hands.player.ranking", "3", "'poker'", "'three_card'"),
    c("type-decisions-array-of-strings", TCP, [
        ("[[game.decisions]]\nname = \"play\"\nactions = [\n    " + TCP_FOLD + ",\n    "
         + TCP_PLAY + ",\n]\n", ""), after(TCP_TITLE, 'decisions = ["play"]')],
      "game.decisions", "[[game.decisions]]"),
    c("type-actions-string", TCP, [("actions = [\n    " + TCP_FOLD + ",\n    " + TCP_PLAY
                                    + ",\n]", 'actions = "fold"')],
      "game.decisions[0].actions", "two or more"),
    c("type-fold-int", TCP, [(TCP_FOLD, '{ name = "fold", fold = 1 }')],
      "game.decisions[0].actions[0].fold", "1", "true or false"),
    c("type-times-string", TCP, [(TCP_PLAY, '{ name = "play", bet = "play", times = "2" }')],
      "game.decisions[0].actions[1].times", "'2'", "whole number"),
    c("type-street-string", MS, [('name = "fourth"\nstreet = 1', 'name = "fourth"\nstreet = "1"')],
      "game.decisions[1].street", "'1'", "whole number"),
    c("type-side-string", TCP, [(TCP_PP_BET, 'placed = "deal"\nside = "yes"')],
      "game.bets.pair_plus.side", "'yes'", "true or false"),
    c("type-showdown-string", TCP, [(TCP_ANTE_SD, 'showdown = "1:1"')],
      "game.bets.ante.showdown", "'1:1'", "table", cli=True),
    c("type-qualifier-int", TCP, [('qualifier = "Q"', "qualifier = 12")],
      "game.showdown.qualifier", "12", "string"),
    c("type-otherwise-bool", TCP, [after("[game.paytables.pair_plus]", "otherwise = true")],
      "game.paytables.pair_plus.otherwise", "true", "'lose'", "'push'"),
    c("type-rules-string", TCP, [('play = [{ action = "play" }]', 'play = "play"')],
      "game.strategies.always-play.play", "array"),
    c("type-suited-bool", CS, [(CS_RULE, CS_RULE.replace('at_least = "pair"', "suited = true"))],
      "game.strategies.pair-or-better.raise[0].suited", "true", "2..5"),
    # --- the cases the issue names ---------------------------------------------------------------
    c("bet-nobody-places", TCP, [(TCP_PLAY_SD + "\n", TCP_PLAY_SD + "\n" + NEW_BET)],
      "game.bets.insurance", "'insurance'", "nobody places", "placed = 'deal'", cli=True),
    c("unreachable-point", MS, [
        (MS_THIRD_1X, MS_THIRD_1X[:-2] + ', next = "fifth" }'),
        ('{ name = "bet_2x", bet = "third", times = 2 }',
         '{ name = "bet_2x", bet = "third", times = 2, next = "fifth" }'),
        ('{ name = "bet_3x", bet = "third", times = 3 }',
         '{ name = "bet_3x", bet = "third", times = 3, next = "fifth" }')],
      "game.decisions[1]", "'fourth'", "unreachable", "next", cli=True),
    c("times-without-bet", TCP, [(TCP_PLAY, '{ name = "play", times = 1 }')],
      "game.decisions[0].actions[1].times", "'bet'", cli=True),
    c("point-changes-nothing", LIR, [(LIR_FIRST, '[{ name = "keep" }, { name = "ride" }]')],
      "game.decisions[0].actions", "'first'", "place, pull or fold", cli=True),
    c("three-card-two-pair-line", TCP, [(TCP_PP_LINES, TCP_PP_LINES[:-1] + ', "two_pair"]')],
      "game.paytables.pair_plus.lines", "'two_pair'", "three_card", "straight_flush", cli=True),
    c("three-card-full-house-line", TCP, [('lines = ["straight_flush", "three_of_a_kind", '
                                           '"straight"]', 'lines = ["full_house", "straight"]')],
      "game.paytables.ante_bonus.lines", "'full_house'", "three_card", "pair"),
    c("three-card-royal-flush-line", TCP, [(TCP_PP_LINES, TCP_PP_LINES.replace(
        '"straight_flush"', '"royal_flush"'))],
      "game.paytables.pair_plus.lines", "'royal_flush'", "straight_flush"),
    c("three-card-quads-line", TCP, [(TCP_PP_LINES, TCP_PP_LINES.replace(
        '"three_of_a_kind"', '"four_of_a_kind"'))],
      "game.paytables.pair_plus.lines", "'four_of_a_kind'", "three_of_a_kind"),
    c("split-gap", MS, [(MS_PAIR610, MS_PAIR610.replace("6-10", "6-9"))],
      "game.lines", "'pair'", "gap", "T", "2-A", cli=True),
    c("split-overlap", MS, [(MS_PAIR610, MS_PAIR610.replace("6-10", "5-10"))],
      "game.lines", "'pair'", "overlap", "5", "2-A"),
    # a three-card straight flush is named from a 3 (A-2-3) up: lines from 5 leave 3 and 4 out
    c("split-gap-three-card-straights", TCP,
      [after(TCP_TITLE, '[game.lines]\nsf_high = { category = "straight_flush", ranks = "Q-A" }\n'
                        'sf_low = { category = "straight_flush", ranks = "5-J" }'),
       (TCP_PP_LINES, TCP_PP_LINES.replace('"straight_flush"', '"sf_high", "sf_low"'))],
      "game.lines", "'straight_flush'", "gap", "3, 4", "3-A"),
    c("split-missing-top", LIR, [('ranks = "10-A"', 'ranks = "10-K"')],
      "game.lines", "'pair'", "gap", "A"),
    c("hand-board-too-long", MS, [(MS_HAND, 'cards = ["player", "board:4"]')],
      "game.hands.final.cards", "'board:4'", "3 cards", "board:1", cli=True),
    c("poker-hand-of-four", MS, [(MS_HAND, 'cards = ["player", "board:2"]')],
      "game.hands.final", "4 cards", "'poker'", "5 or 6 or 7"),
    c("three-card-hand-of-five", CS, [('ranking = "poker"', 'ranking = "three_card"')],
      "game.hands.player", "5 cards", "'three_card'", "3 cards"),
    c("qualifier-without-dealer", MS, [after(MS_HAND + '\nranking = "poker"',
                                             '\n[game.showdown]\nplayer = "final"\n'
                                             'dealer = "final"\nqualifier = "pair"')],
      "game.showdown", "no dealer cards", "game.cards.dealer", cli=True),
    # --- cards -----------------------------------------------------------------------------------
    c("dealer-up-above-dealer", CS, [(CS_CARDS, "player = 5\ndealer = 5\ndealer_up = 6")],
      "game.cards.dealer_up", "6", "0..5"),
    c("dealer-up-without-dealer", CS, [(CS_CARDS, "player = 5\ndealer = 0\ndealer_up = 1")],
      "game.cards.dealer_up", "1", "0..0"),
    c("too-many-cards", TCP, [("player = 3\ndealer = 3", "player = 7\ndealer = 7\nstreets = [2]")],
      "game.cards", "16 cards", "at most 15", cli=True),
    c("negative-player", TCP, [("player = 3\ndealer = 3", "player = -1\ndealer = 3")],
      "game.cards.player", "-1", "1..7"),
    c("zero-player", TCP, [("player = 3\ndealer = 3", "player = 0\ndealer = 3")],
      "game.cards.player", "0", "1..7"),
    c("zero-street", MS, [(MS_CARDS, "player = 2\nstreets = [1, 0, 1]")],
      "game.cards.streets", "[1, 0, 1]", "1..5"),
    # --- hands and lines -------------------------------------------------------------------------
    c("unknown-ranking", TCP, [('ranking = "three_card"', 'ranking = "lowball"')],
      "game.hands.player.ranking", "'lowball'", "'poker'", "'three_card'"),
    c("unknown-card-source", TCP, [('cards = ["player"]', 'cards = ["hole"]')],
      "game.hands.player.cards", "'hole'", "'board:K'"),
    c("board-colon-without-count", MS, [(MS_HAND, 'cards = ["player", "board:"]')],
      "game.hands.final.cards", "'board:'", "'board:K'"),
    c("dealer-cards-without-dealer", MS, [(MS_HAND, 'cards = ["player", "dealer"]')],
      "game.hands.final.cards", "'dealer'", "no dealer cards"),
    c("hand-cards-twice", MS, [(MS_HAND, 'cards = ["player", "board", "board:1"]')],
      "game.hands.final.cards", "'board:1'", "once"),
    c("line-named-as-category", MS, [("pair_2_to_5 = {", "pair = {")],
      "game.lines.pair", "'pair'", "category"),
    c("line-ranks-reversed", MS, [('ranks = "J-A"', 'ranks = "A-J"')],
      "game.lines.pair_jacks_or_better.ranks", "'A-J'", "low-high"),
    c("line-bad-rank", MS, [('ranks = "2-5"', 'ranks = "1-5"')],
      "game.lines.pair_2_to_5.ranks", "'1'", "2, 3"),
    c("line-unknown-category", MS, [('category = "pair", ranks = "2-5"',
                                     'category = "pairs", ranks = "2-5"')],
      "game.lines.pair_2_to_5.category", "'pairs'", "'pair'"),
    # --- showdown --------------------------------------------------------------------------------
    c("bad-qualifier-text", TCP, [('qualifier = "Q"', 'qualifier = "Queen"')],
      "game.showdown.qualifier", "'Queen'", "Q-6-4", cli=True),
    c("qualifier-not-descending", TCP, [('qualifier = "Q"', 'qualifier = "4-6-Q"')],
      "game.showdown.qualifier", "'4-6-Q'", "Q-6-4"),
    c("qualifier-five-card-category", TCP, [('qualifier = "Q"', 'qualifier = "two_pair"')],
      "game.showdown.qualifier", "'two_pair'", "three_card", "straight_flush"),
    c("showdown-unknown-hand", TCP, [('dealer = "dealer"\nqualifier', 'dealer = "house"\n'
                                                                      'qualifier')],
      "game.showdown.dealer", "'house'", "'player', 'dealer'"),
    c("showdown-same-hand", CS, [('dealer = "dealer"\nqualifier', 'dealer = "player"\n'
                                                                   'qualifier')],
      "game.showdown.dealer", "'player'", "differ"),
    c("dealer-hand-of-player-cards", CS, [('cards = ["dealer"]', 'cards = ["player"]')],
      "game.showdown.dealer", "'dealer'", "player's cards", "board"),
    c("player-hand-of-dealer-cards", CS, [('[game.hands.player]\ncards = ["player"]',
                                           '[game.hands.player]\ncards = ["dealer"]')],
      "game.showdown.player", "'player'", "dealer's cards", "board"),
    # --- decisions and actions -------------------------------------------------------------------
    c("next-to-earlier-point", MS, [(MS_FOURTH_1X, MS_FOURTH_1X[:-2] + ', next = "third" }')],
      "game.decisions[1].actions[1].next", "'third'", "later point", "fifth"),
    c("next-to-unknown-point", MS, [(MS_THIRD_1X, MS_THIRD_1X[:-2] + ', next = "sixth" }')],
      "game.decisions[0].actions[1].next", "'sixth'", "fourth", "fifth"),
    c("next-showdown-misspelt", UTH, [(UTH_3X, UTH_3X.replace('"showdown"', '"showdonw"'))],
      "game.decisions[0].actions[1].next", "'showdonw'", "'flop', 'river'", "'showdown'",
      cli=True),
    c("next-showdown-capitalised", UTH, [(UTH_3X, UTH_3X.replace('"showdown"', '"Showdown"'))],
      "game.decisions[0].actions[1].next", "'Showdown'", "'showdown'"),
    c("next-not-a-string", UTH, [(UTH_3X, UTH_3X.replace('"showdown"', "true"))],
      "game.decisions[0].actions[1].next", "true", "'showdown'"),
    c("fold-with-next-showdown", UTH, [(UTH_RIVER_FOLD, UTH_RIVER_FOLD[:-2]
                                        + ', next = "showdown" }')],
      "game.decisions[2].actions[0]", "fold", "remove bet, pull and next"),
    c("point-named-showdown", UTH, [('name = "river"\nstreet', 'name = "showdown"\nstreet')],
      "game.decisions[2].name", "'showdown'", "ends the decisions", "another"),
    c("every-action-ends-the-decisions", UTH, [('{ name = "check" },\n    ' + UTH_3X,
                                                '{ name = "check", next = "showdown" },\n    '
                                                + UTH_3X)],
      "game.decisions[1]", "'flop'", "unreachable", "next"),
    c("actions-lead-to-one-place", MS, [
        ('{ name = "fold", fold = true },\n    { name = "bet_1x", bet = "fourth"',
         '{ name = "wait", next = "fifth" },\n    { name = "bet_1x", bet = "fourth"'),
        (MS_FOURTH_1X, '{ name = "stay", next = "fifth" }'),
        ('{ name = "bet_2x", bet = "fourth", times = 2 },\n', ''),
        ('{ name = "bet_3x", bet = "fourth", times = 3 },\n', '')],
      "game.decisions[1].actions", "'fourth'", "change nothing"),
    c("duplicate-action-names", TCP, [(TCP_PLAY, TCP_PLAY.replace('name = "play"',
                                                                  'name = "fold"'))],
      "game.decisions[0].actions", "'fold'", "differ"),
    c("duplicate-point-names", MS, [('name = "fourth"', 'name = "third"')],
      "game.decisions", "'third'", "differ"),
    c("fold-with-bet", TCP, [(TCP_FOLD, '{ name = "fold", fold = true, bet = "play" }')],
      "game.decisions[0].actions[0]", "fold", "remove bet"),
    c("one-action", TCP, [("    " + TCP_FOLD + ",\n", "")],
      "game.decisions[0].actions", "two or more"),
    c("street-beyond-streets", MS, [('name = "fifth"\nstreet = 2', 'name = "fifth"\nstreet = 4')],
      "game.decisions[2].street", "4", "0..3"),
    c("street-goes-back", MS, [('name = "fifth"\nstreet = 2', 'name = "fifth"\nstreet = 0')],
      "game.decisions[2].street", "0", "at or after"),
    c("times-zero", TCP, [(TCP_PLAY, TCP_PLAY.replace("times = 1", "times = 0"))],
      "game.decisions[0].actions[1].times", "0", "1..100"),
    c("action-unknown-bet", TCP, [(TCP_PLAY, TCP_PLAY.replace('bet = "play"', 'bet = "raise"'))],
      "game.decisions[0].actions[1].bet", "'raise'", "play"),
    c("action-bad-name", TCP, [(TCP_FOLD, '{ name = "Fold!", fold = true }')],
      "game.decisions[0].actions[0].name", "'Fold!'", "lowercase"),
    c("point-named-description", TCP, [('name = "play"\nactions', 'name = "description"\n'
                                                                  'actions')],
      "game.decisions[0].name", "'description'", "another"),
    # --- bets ------------------------------------------------------------------------------------
    c("pay-dash", TCP, [(TCP_ANTE_SD, TCP_ANTE_SD.replace('win = "1:1"', 'win = "3-1"'))],
      "game.bets.ante.showdown.win", "'3-1'", "'X:1'", "'push'", cli=True),
    c("pay-word", TCP, [(TCP_ANTE_SD, TCP_ANTE_SD.replace('win = "1:1"', 'win = "two"'))],
      "game.bets.ante.showdown.win", "'two'", "'X:1'"),
    c("pay-float", TCP, [(TCP_PLAY_SD, TCP_PLAY_SD.replace('win = "1:1"', "win = 0.5"))],
      "game.bets.play.showdown.win", "0.5", "'X:1'"),
    c("pay-zero-denominator", TCP, [(TCP_ANTE_SD, TCP_ANTE_SD.replace('win = "1:1"',
                                                                      'win = "1:0"'))],
      "game.bets.ante.showdown.win", "'1:0'", "'X:1'"),
    c("pay-missing-outcome", TCP, [(TCP_ANTE_SD, TCP_ANTE_SD.replace(' tie = "push",', ""))],
      "game.bets.ante.showdown.tie", "missing", "'push'"),
    c("no-qualify-without-qualifier", CS, [('qualifier = "A-K"\n', "")],
      "game.bets.ante.showdown.no_qualify", "no qualifier"),
    c("pay-paytable-without-paytable", TCP, [(TCP_PLAY_SD, TCP_PLAY_SD.replace(
        'win = "1:1"', 'win = "paytable"'))],
      "game.bets.play.paytable", "missing", "'paytable'"),
    c("bet-unknown-paytable", TCP, [('paytable = "pair_plus"', 'paytable = "pair_plus_v2"')],
      "game.bets.pair_plus.paytable", "'pair_plus_v2'", "'ante_bonus', 'pair_plus'"),
    c("bonus-unknown-paytable", TCP, [('bonus = "ante_bonus"', 'bonus = "antebonus"')],
      "game.bets.ante.bonus", "'antebonus'", "'ante_bonus'"),
    c("bet-settles-nowhere", TCP, [("[game.bets.play]\nplaced = \"action\"\n" + TCP_PLAY_SD,
                                    "[game.bets.play]\nplaced = \"action\"")],
      "game.bets.play", "showdown", "paytable"),
    c("side-bet-placed-by-action", TCP, [(TCP_PP_BET, 'placed = "action"\nside = true')],
      "game.bets.pair_plus.placed", "'deal'"),
    c("deal-bet-placed-by-action", CS, [('[game.bets.raise]\nplaced = "action"',
                                         '[game.bets.raise]\nplaced = "deal"')],
      "game.bets.raise.placed", "'deal'", "'action'"),
    c("no-base-bet", CS, [('[game.bets.ante]\nplaced = "deal"',
                           '[game.bets.ante]\nplaced = "action"')],
      "game.bets", "'deal'"),
    c("bad-placed", TCP, [('[game.bets.play]\nplaced = "action"',
                           '[game.bets.play]\nplaced = "later"')],
      "game.bets.play.placed", "'later'", "'deal', 'action'"),
    c("bad-fold", TCP, [('fold = "settle"', 'fold = "push"')],
      "game.bets.pair_plus.fold", "'push'", "'lose', 'settle'"),
    c("bad-requires", MS, [('[game.bets.third]\nplaced = "action"',
                            '[game.bets.third]\nplaced = "action"\nrequires = "always"')],
      "game.bets.third.requires", "'always'", "'stay', 'beat_dealer'"),
    c("requires-on-showdown-bet", TCP, [after('[game.bets.play]', 'requires = "stay"')],
      "game.bets.play.requires", "showdown bet"),
    c("beat-dealer-without-dealer", MS, [('[game.bets.third]\nplaced = "action"',
                                          '[game.bets.third]\nplaced = "action"\n'
                                          'requires = "beat_dealer"')],
      "game.bets.third.requires", "'beat_dealer'", "game.showdown"),
    c("bonus-requires-without-bonus", TCP, [after("[game.bets.play]", 'bonus_requires = "stay"')],
      "game.bets.play.bonus_requires", "'bonus'"),
    c("showdown-bet-without-showdown", MS, [after('[game.bets.ante]', TCP_ANTE_SD)],
      "game.bets.ante.showdown", "game.showdown"),
    c("bet-bad-name", TCP, [("[game.bets.play]", '[game.bets."Play Bet"]')],
      "game.bets.Play Bet", "'Play Bet'", "lowercase"),
    c("pull-base-bet", LIR, [('pull = "first"', 'pull = "third"')],
      "game.decisions[0].actions[0].pull", "'third'", "base bet", "'first', 'second'",
      cli=True),
    c("pull-twice", LIR, [('pull = "second"', 'pull = "first"')],
      "game.decisions[1].actions[0].pull", "'first'", "one point"),
    c("pull-unknown-bet", LIR, [('pull = "first"', 'pull = "fourth"')],
      "game.decisions[0].actions[0].pull", "'fourth'", "'first'"),
    c("pull-action-bet", MS, [(MS_FOURTH_1X, '{ name = "bet_1x", pull = "third" }'),
                              ('{ name = "bet_2x", bet = "fourth", times = 2 }',
                               '{ name = "bet_2x", bet = "fourth", times = 1 }')],
      "game.decisions[1].actions[1].pull", "'third'", "none"),
    # --- paytables of the description ------------------------------------------------------------
    c("paytable-unknown-hand", TCP, [('[game.paytables.pair_plus]\nhand = "player"',
                                      '[game.paytables.pair_plus]\nhand = "banker"')],
      "game.paytables.pair_plus.hand", "'banker'", "'player', 'dealer'"),
    c("paytable-unused", TCP, [after(TCP_PP_LINES, '\n[game.paytables.spare]\nhand = "player"'
                                                   '\nlines = ["pair"]')],
      "game.paytables.spare", "no bet", "paytable or bonus", cli=True),
    c("paytable-whole-and-split", MS, [('"pair_6_to_10"]', '"pair_6_to_10", "pair"]')],
      "game.paytables.main.lines", "'pair'", "one or the other"),
    c("paytable-duplicate-line", TCP, [(TCP_PP_LINES, TCP_PP_LINES[:-1] + ', "pair"]')],
      "game.paytables.pair_plus.lines", "'pair'", "differ"),
    c("paytable-bad-otherwise", TCP, [after("[game.paytables.pair_plus]", 'otherwise = "win"')],
      "game.paytables.pair_plus.otherwise", "'win'", "'lose', 'push'"),
    # --- strategies ------------------------------------------------------------------------------
    c("rule-unknown-action", TCP, [(TCP_Q64, TCP_Q64.replace('{ action = "fold" }',
                                                             '{ action = "surrender" }'))],
      "game.strategies.q64.play[1].action", "'surrender'", "'fold', 'play'", cli=True),
    c("rule-without-condition-first", TCP, [(TCP_Q64, 'play = [{ action = "play" }, '
                                                      '{ action = "fold" }]')],
      "game.strategies.q64.play[0]", "must come last"),
    c("last-rule-with-condition", TCP, [(TCP_Q64, TCP_Q64.replace(
        '{ action = "fold" }', '{ at_least = "pair", action = "fold" }'))],
      "game.strategies.q64.play[1]", "no condition"),
    c("up-card-without-face-up", TCP, [(TCP_Q64, TCP_Q64.replace(
        'at_least = "Q-6-4"', 'up_card_at_least = "Q"'))],
      "game.strategies.q64.play[0].up_card_at_least", "face-up", "game.cards.dealer_up"),
    c("up-card-paired-without-face-up", TCP, [(TCP_Q64, TCP_Q64.replace(
        'at_least = "Q-6-4"', "up_card_paired = true"))],
      "game.strategies.q64.play[0].up_card_paired", "face-up", "game.cards.dealer_up"),
    c("up-card-bad-rank", CS, [(CS_RULE, CS_RULE.replace('at_least = "pair"',
                                                         'up_card_at_least = "Z"'))],
      "game.strategies.pair-or-better.raise[0].up_card_at_least", "'Z'", "2, 3"),
    c("suited-too-many", CS, [(CS_RULE, CS_RULE.replace('at_least = "pair"', "suited = 9"))],
      "game.strategies.pair-or-better.raise[0].suited", "9", "2..5"),
    c("hidden-pair-false", CS, [(CS_RULE, CS_RULE.replace('at_least = "pair"',
                                                          "hidden_pair = false"))],
      "game.strategies.pair-or-better.raise[0].hidden_pair", "false", "true"),
    c("at-least-flush-with-three-seen", LIR, [(LIR_RULE, LIR_RULE.replace('"pair of 10s"',
                                                                          '"flush"'))],
      "game.strategies.ride-on-a-paying-hand.first[0].at_least", "'flush'", "3 cards",
      "pairs"),
    c("at-least-bad-hand", CS, [(CS_RULE, CS_RULE.replace('"pair"', '"pair of 1s"'))],
      "game.strategies.pair-or-better.raise[0].at_least", "'pair of 1s'", "'pair of 4s'"),
    c("strategy-missing-point", MS, [('fifth = [{ action = "bet_1x" }]', "")],
      "game.strategies.always-1x.fifth", "missing", "array of rules"),
    c("strategy-empty-rules", MS, [('fifth = [{ action = "bet_1x" }]', "fifth = []")],
      "game.strategies.always-1x.fifth", "array of rules"),
    c("strategy-bad-name", TCP, [("[game.strategies.always-play]",
                                  "[game.strategies.Always-Play]")],
      "game.strategies.Always-Play", "'Always-Play'", "lowercase"),
    # --- the game's name -------------------------------------------------------------------------
    c("game-name-invalid", TCP, [('name = "three_card_poker"\ntitle',
                                  'name = "Three Card Poker"\ntitle')],
      "game.name", "'Three Card Poker'", "lowercase", cli=True),
    c("game-name-missing", TCP, [('name = "three_card_poker"\ntitle', "title")],
      "game.name", "missing", "lowercase"),
    c("game-name-taken", TCP, [('name = "three_card_poker"\ntitle', 'name = "casino_holdem"\n'
                                                                    'title')],
      "game.name", "'casino_holdem'", "another name"),
    # --- how a game settles: ties, unlisted hands, event names, options --------------------------
    c("unqualified-tie-without-qualifier", UTH,
      [after('dealer = "dealer"        # no qualifier: the dealer always opens',
             'unqualified_tie = "tie"')],
      "game.showdown.unqualified_tie", "no qualifier", cli=True),
    c("unqualified-tie-bad", TCP, [after('qualifier = "Q"          # Q-high or better',
                                         'unqualified_tie = "push"')],
      "game.showdown.unqualified_tie", "'push'", "'no_qualify', 'tie'"),
    c("paytable-bad-unlisted", TCP, [after("[game.paytables.pair_plus]", 'unlisted = "all"')],
      "game.paytables.pair_plus.unlisted", "'all'", "'other', 'named'"),
    c("events-rename-to-a-line", MS, [("[game.lines]", '[game.events]\nother = "pair_6_to_10"'
                                                      '\n\n[game.lines]')],
      "game.events.other", "'pair_6_to_10'", "line"),
    c("events-rename-to-a-word", TCP, [("[game.showdown]", '[game.events]\nlose = "no_qualify"'
                                                         '\n\n[game.showdown]')],
      "game.events.lose", "'no_qualify'", "no other event"),
    c("hand-option-without-showdown", MS, [(
        "[game.lines]", '[game.options.q]\ndescription = "q"\ntype = "hand"\n'
                        'default = { hand = "pair", rank = "2" }\nsets = ["showdown.qualifier"]'
                        '\n\n[game.lines]')],
      "game.options.q.sets", "[game.showdown]"),
    c("config-rules-without-options", TCP, [("[stakes]", "[rules]\nx = 1\n\n[stakes]")],
      "rules", "unknown key", "stakes"),
    # --- the config's numbers for the described game ---------------------------------------------
    c("config-paytable-missing-line", TCP, [("flush = 4\npair = 1\n", "flush = 4\n")],
      "paytables.pair_plus.pair", "missing", "straight_flush"),
    c("config-paytable-unknown-line", TCP, [after("[paytables.ante_bonus]", "royal = 100")],
      "paytables.ante_bonus.royal", "'royal'", "straight_flush", cli=True),
    c("config-paytable-negative", TCP, [("flush = 4\npair = 1\n", "flush = 4\npair = -1\n")],
      "paytables.pair_plus.pair", "-1", "whole number"),
    c("config-paytable-unknown-table", TCP, [("[paytables.ante_bonus]", "[paytables.bonus_x]\n"
                                              "pair = 1\n\n[paytables.ante_bonus]")],
      "paytables.bonus_x", "unknown key", "ante_bonus", "pair_plus"),
    c("config-ratio-pay-over-nothing", UTH, [('flush = "3:2"', 'flush = "3:0"')],
      "paytables.blind.flush", "'3:0'", '"A:B"'),
    c("config-ratio-pay-decimal", UTH, [('flush = "3:2"', 'flush = "1.5"')],
      "paytables.blind.flush", "'1.5'", "whole number"),
    c("config-ratio-pay-odd-ante", UTH, [("ante = 2 ", "ante = 3 ")],
      "stakes.ante", "3", "'blind'", "3:2", "multiple of 2", cli=True),
    c("config-stakes-unknown-bet", TCP, [("ante = 1\npair_plus = 1", "ante = 1\nplay = 1")],
      "stakes.play", "unknown key", "ante", "pair_plus"),
    c("config-stakes-missing-base", TCP, [("ante = 1\npair_plus = 1", "pair_plus = 1")],
      "stakes.ante", "missing"),
    c("config-default-strategy-unknown", TCP, [('default_strategy = "optimal"',
                                                'default_strategy = "q65"')],
      "default_strategy", "'q65'", "q64", "always-play"),
]


def _write(case: C, folder: Path) -> Path:
    path = folder / f"{case.id}.toml"
    path.write_text(case.text(), encoding="utf-8")
    return path


def test_cases_are_distinct():
    ids = [x.id for x in CASES]
    assert len(ids) == len(set(ids)) and len(ids) >= 60
    assert len({x.text() for x in CASES}) == len(CASES)
    assert sum(x.cli for x in CASES) >= 10


@pytest.mark.parametrize("case", CASES, ids=[x.id for x in CASES])
def test_load_config_refuses(case: C, tmp_path: Path):
    path = _write(case, tmp_path)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    msg = str(info.value)
    assert "\n" not in msg and msg.strip() == msg, msg
    prefix = f"{path}: key '{case.key}': "
    assert msg.startswith(prefix), msg
    for needle in case.needles:  # in the problem, not in the path (which holds the id)
        assert needle in msg[len(prefix):], (needle, msg)


CLI_CASES = [x for x in CASES if x.cli]


@pytest.mark.parametrize("case", CLI_CASES, ids=[x.id for x in CLI_CASES])
def test_simulate_refuses(case: C, tmp_path: Path):
    path = _write(case, tmp_path)
    out = tmp_path / "run"
    res = CliRunner().invoke(app, ["simulate", str(path), "--rounds", "1000", "--out", str(out)])
    assert res.exit_code == 2, (res.exit_code, res.output)
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("gpusim: error:") and f"key '{case.key}'" in lines[0], lines[0]
    assert "Traceback" not in res.output
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]
