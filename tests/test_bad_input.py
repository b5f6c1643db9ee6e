"""Bad-input battery: malformed configs, CLI values and run folders through the real CLI.

Every case runs ``python -m gpusim ...`` as a process of its own in its own folder (forked from
one interpreter that imported the command line once; a sample also through a fresh interpreter,
which must give the same) and must end with exit code 2, exactly one line on stderr that names
the field and the value (``needles``), nothing on stdout, no traceback, and the folder exactly as
it was (no run folder, no partial file); and none may have imported JAX. Cases run
concurrently.

To add a case, append a ``Case`` to ``CASES``: an id, the arguments, the substrings the one line
must contain, and optionally a ``setup(folder)`` that writes the files it refers to.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from _cli_fork import run_cli_cases

ROOT = Path(__file__).resolve().parent.parent
# a config of the shipped Casino Hold'em game: configs/casino_holdem.toml without its [game]
# table, naming the game instead (the mistakes below are a config's, not a description's)
CH = 'game = "casino_holdem"\n' + (ROOT / "configs" / "casino_holdem.toml").read_text().split(
    "# --- the game itself")[0]
# the same for Texas Hold'em Bonus (configs/holdem_bonus.toml carries its game's description)
THB = 'game = "holdem_bonus"\n' + (ROOT / "configs" / "holdem_bonus.toml").read_text().split(
    "# --- the game itself")[0]

# Ultimate Texas Hold'em's whole config, its description included (the report keys)
UTH = (ROOT / "configs" / "ultimate_holdem.toml").read_text()
TCP = (ROOT / "configs" / "three_card_poker.toml").read_text()
CHG = (ROOT / "configs" / "casino_holdem.toml").read_text()  # with its description


@dataclass
class Case:
    id: str
    args: list[str]
    needles: tuple[str, ...]
    setup: Callable[[Path], None] | None = None
    uses_run: bool = False
    extra: dict = field(default_factory=dict)


def _write(name: str, text: str | bytes) -> Callable[[Path], None]:
    def setup(d: Path) -> None:
        p = d / name
        if isinstance(text, bytes):
            p.write_bytes(text)
        else:
            p.write_text(text)
    return setup


def _sub(base: str, old: str, new: str) -> str:
    assert old in base, old
    return base.replace(old, new, 1)


def cfg(cid: str, base: str, old: str, new: str, *needles: str) -> Case:
    """A config with one edit, checked with `gpusim games --check`."""
    return Case(f"config-{cid}", ["games", "--check", "c.toml"], needles,
                _write("c.toml", _sub(base, old, new)))


def cfg_sim(cid: str, base: str, old: str, new: str, *needles: str) -> Case:
    """A config with one edit, given to `gpusim simulate` (which must create no run folder)."""
    return Case(f"simcfg-{cid}", ["simulate", "c.toml", "--rounds", "1000", "--out", "run",
                                  "--quiet"], needles, _write("c.toml", _sub(base, old, new)))


def sim(cid: str, *args: str, needles: tuple[str, ...], setup=None) -> Case:
    base = ["simulate", "casino_holdem", "--rounds", "1000", "--strategy", "always-play",
            "--out", "run", "--quiet"]
    over = dict(zip(args[::2], args[1::2], strict=False))
    argv = []
    i = 0
    while i < len(base):
        if base[i] in over:
            argv += [base[i], over.pop(base[i])]
            i += 2
            continue
        argv.append(base[i])
        i += 1
    for k, v in over.items():
        argv += [k] if v is None else [k, v]
    return Case(f"sim-{cid}", argv, needles, setup)


def _mkdir(name: str) -> Callable[[Path], None]:
    return lambda d: (d / name).mkdir()


def _nonempty(d: Path) -> None:
    (d / "run").mkdir()
    (d / "run" / "notes.txt").write_text("mine")


def _edit_manifest(fn) -> Callable[[Path], None]:
    def setup(d: Path) -> None:
        m = d / "run" / "manifest.json"
        data = json.loads(m.read_text())
        fn(data)
        m.write_text(json.dumps(data))
    return setup


def _truncate_part(d: Path) -> None:
    p = d / "run" / "outcomes" / "part-000000.parquet"
    p.write_bytes(p.read_bytes()[:100])


def _flip_bit(d: Path) -> None:
    p = d / "run" / "wagers" / "part-000001.parquet"
    b = bytearray(p.read_bytes())
    b[len(b) // 2] ^= 0x10
    p.write_bytes(bytes(b))


def _setattr(key, value):
    def fn(m):
        m[key] = value
    return fn


def _edit_sha(m):
    m["chunks_done"][0]["files"]["events"]["sha256"] = "0" * 64


def run_case(cid, args, needles, setup=None) -> Case:
    return Case(cid, args, needles, setup, uses_run=True)


CASES: list[Case] = [
    # --- configs: keys -----------------------------------------------------------------------
    cfg("missing-game", CH, 'game = "casino_holdem"\n', "", "'game'", "missing"),
    cfg("unknown-top-key", CH, "[stakes]", 'colour = "red"\n[stakes]', "colour"),
    cfg("unknown-stakes-key", CH, "ante = 1 ", "antee = 1\nante = 1 ", "antee"),
    cfg("missing-stakes", CH, "[stakes]\nante = 1        # the Call is 2 x ante\naa_bonus = 1",
        "", "stakes"),
    cfg("missing-ante", CH, "ante = 1        # the Call is 2 x ante\n", "", "ante"),
    cfg("missing-pay-line", CH, "flush = 2\n", "", "flush"),
    # the qualifier and fold_forfeits_bonus are the game's options, with defaults: a config may
    # leave them out, not write half of one or a key the game does not have
    cfg("qualifier-missing-rank", CH, 'hand = "pair"\nrank = "4"\n', 'hand = "pair"\n', "rank"),
    cfg("unknown-rules-key", CH, "fold_forfeits_bonus = true\n",
        "fold_forfeits_bonus = true\nfold_forfeits_all = true\n", "fold_forfeits_all"),
    cfg("unknown-hand-ante", CH, "flush = 2\n", "flush = 2\nflushes = 2\n", "flushes"),
    cfg("unknown-hand-aa", CH, "pair_of_aces = 7", "pair_of_aces = 7\npair_of_kings = 7",
        "pair_of_kings"),
    cfg("unknown-hand-bonus", THB, "AKs = 25", "AKs = 25\nAKx = 25", "AKx"),
    cfg("unknown-hand-jackpot", THB, "three_of_a_kind = 3", "three_of_a_kind = 3\ntwo_pair = 1",
        "two_pair"),
    cfg("missing-jackpot-line", THB, "straight = 10\n", "", "straight"),
    cfg("missing-jackpot-table", THB, "contribution_bp = 5000", "contribution = 5000",
        "contribution"),
    # --- configs: types and values --------------------------------------------------------
    cfg("game-unknown", CH, 'game = "casino_holdem"', 'game = "blackjack"', "game", "blackjack"),
    cfg("game-int", CH, 'game = "casino_holdem"', "game = 5", "game", "5"),
    cfg("name-int", CH, 'name = "casino_holdem"', "name = 7", "name", "7"),
    cfg("ante-string", CH, "ante = 1 ", 'ante = "1" ', "ante", "'1'"),
    cfg("ante-float", CH, "ante = 1 ", "ante = 1.5 ", "ante", "1.5"),
    cfg("ante-nan", CH, "ante = 1 ", "ante = nan ", "ante", "nan"),
    cfg("ante-inf", CH, "ante = 1 ", "ante = inf ", "ante", "inf"),
    cfg("ante-negative", CH, "ante = 1 ", "ante = -1 ", "ante", "-1"),
    cfg("ante-zero", CH, "ante = 1 ", "ante = 0 ", "ante", "0"),
    cfg("ante-absurd", CH, "ante = 1 ", "ante = 1000000000000 ", "ante", "1000000000000"),
    cfg("ante-bool", CH, "ante = 1 ", "ante = true ", "ante", "true"),
    cfg("aa-stake-negative", CH, "aa_bonus = 1", "aa_bonus = -3", "aa_bonus", "-3"),
    cfg("pay-negative", CH, "royal_flush = 100", "royal_flush = -100", "royal_flush", "-100"),
    cfg("pay-absurd", CH, "royal_flush = 100", "royal_flush = 99999999999", "royal_flush",
        "99999999999"),
    cfg("pay-nan", CH, "royal_flush = 100", "royal_flush = nan", "royal_flush", "nan"),
    cfg("pay-inf", CH, "royal_flush = 100", "royal_flush = -inf", "royal_flush", "inf"),
    cfg("pay-string", CH, "full_house = 3", 'full_house = "3"', "full_house", "'3'"),
    cfg("pay-float", CH, "full_house = 3", "full_house = 2.5", "full_house", "2.5"),
    cfg("pay-array", CH, "full_house = 3", "full_house = [3]", "full_house", "array"),
    cfg("aa-pay-negative", CH, "straight = 7", "straight = -7", "straight", "-7"),
    cfg("bonus-pay-nan", THB, "AKs = 25", "AKs = nan", "AKs", "nan"),
    # how a report lays out its figures: each key refused in one line, naming the value
    cfg("report-order-string", UTH, 'report_order = ["fold", "win", "*"]',
        'report_order = "fold"', "game.bets.ante.report_order", "'fold'"),
    cfg("report-order-twice", UTH, 'report_order = ["fold", "win", "*"]',
        'report_order = ["fold", "fold"]', "game.bets.ante.report_order", "distinct"),
    cfg("report-order-glob", UTH, 'report_order = ["fold", "win", "*"]',
        'report_order = ["fo*ld"]', "game.bets.ante.report_order", "fo*ld"),
    cfg("hand-table-report-key", UTH, 'hand_table = "preflop"', 'hand_table = "bets"',
        "game.report.hand_table", "'bets'"),
    cfg("hand-table-number", UTH, 'hand_table = "preflop"', "hand_table = 3",
        "game.report.hand_table", "3"),
    cfg("hand-table-unknown-key", UTH, 'hand_table = "preflop"', 'hand_tables = "preflop"',
        "hand_tables"),
    cfg("hand-table-three-cards", TCP, "[game.showdown]", '[game.report]\nhand_table = "cards"'
        "\n\n[game.showdown]", "game.report.hand_table", "two cards"),
    cfg("always-settled-main-bet", UTH, 'report_order = ["fold", "win", "*"]',
        "report_always_settled = true", "game.bets.ante.report_always_settled", "fold_event"),
    cfg("optimal-for-side", CHG, 'optimal_for = "main"', 'optimal_for = "side"',
        "game.strategies.optimal-main.optimal_for", "'side'", "main"),
    cfg("bonus-pay-absurd", THB, "AA = 30", "AA = 2000000000000", "AA", "2000000000000"),
    cfg("jackpot-pay-negative", THB, "straight_flush = 2500", "straight_flush = -1",
        "straight_flush", "-1"),
    cfg("forfeit-string", CH, "fold_forfeits_bonus = true", 'fold_forfeits_bonus = "yes"',
        "fold_forfeits_bonus", "yes"),
    cfg("qualifier-hand", CH, 'hand = "pair"', 'hand = "pairs"', "hand", "pairs"),
    cfg("qualifier-rank", CH, 'rank = "4"', 'rank = "Z"', "rank", "Z"),
    cfg("qualifier-rank-int", CH, 'rank = "4"', "rank = 4", "rank", "4"),
    # the Ante's pays are its paytable's lines now (from a flush: straight = 0): the old
    # [rules] ante_pays_from is a key the game does not have, and a line must be a hand it pays
    cfg("ante-pays-from", THB, "[paytables.ante]",
        '[rules]\nante_pays_from = "straights"\n\n[paytables.ante]', "'rules'", "unknown key",
        "allowed keys", "paytables"),
    cfg("ante-pay-line", THB, "straight = 1\n", "straights = 1\n", "paytables.ante.straights",
        "'straights'", "straight_flush"),
    cfg("contribution-high", THB, "contribution_bp = 5000", "contribution_bp = 20000",
        "contribution_bp", "20000"),
    cfg("contribution-negative", THB, "contribution_bp = 5000", "contribution_bp = -1",
        "contribution_bp", "-1"),
    cfg("contribution-float", THB, "contribution_bp = 5000", "contribution_bp = 50.5",
        "contribution_bp", "50.5"),
    cfg("reset-negative", THB, "reset = 0", "reset = -5", "reset", "-5"),
    cfg("reset-nan", THB, "reset = 0", "reset = nan", "reset", "nan"),
    # the Jackpot hand is the game's (hole cards + flop), no longer a config's [jackpot] cards
    cfg("jackpot-cards", THB, "reset = 0 ", 'cards = "all"\nreset = 0 ', "jackpot.cards",
        "unknown key", "contribution_bp, reset"),
    cfg("stakes-not-table", CH, "[stakes]\nante = 1        # the Call is 2 x ante\naa_bonus = 1",
        "stakes = 1", "stakes", "1"),
    cfg("strategy-unknown", CH, 'default_strategy = "optimal"', 'default_strategy = "psychic"',
        "default_strategy", "psychic"),
    # --- configs: files ------------------------------------------------------------------
    cfg("duplicate-table", CH, "[rules]\n", "[stakes]\nante = 2\n[rules]\n", "stakes"),
    # TOML names the line of the repeated key: the one after the first "flush = 2"
    cfg("duplicate-key", CH, "flush = 2\n", "flush = 2\nflush = 3\n", "c.toml",
        f"line {CH[:CH.index(chr(10) + 'flush = 2')].count(chr(10)) + 3}"),
    cfg("toml-syntax", CH, "flush = 2\n", "flush = = 2\n", "c.toml", "TOML"),
    Case("config-non-utf8", ["games", "--check", "c.toml"], ("c.toml", "utf-8"),
         _write("c.toml", CH.encode().replace(b'description = "Casino Hold\'em',
                                              b'description = "Casino Hold\xe9m'))),
    Case("config-binary", ["games", "--check", "c.toml"], ("c.toml",),
         _write("c.toml", bytes(range(256)))),
    Case("config-empty", ["games", "--check", "c.toml"], ("c.toml", "game"),
         _write("c.toml", "")),
    Case("config-directory", ["games", "--check", "cfgdir.toml"], ("cfgdir.toml",),
         _mkdir("cfgdir.toml")),
    Case("config-directory-plain", ["games", "--check", "./somedir"], ("somedir",),
         _mkdir("somedir")),
    Case("config-missing-file", ["games", "--check", "missing.toml"], ("missing.toml",)),
    Case("config-unknown-name", ["games", "--check", "nonesuch"], ("nonesuch",)),
    cfg_sim("pay-nan", CH, "royal_flush = 100", "royal_flush = nan", "royal_flush", "nan"),
    cfg_sim("unknown-key", THB, "AKs = 25", "AKs = 25\nAKx = 25", "AKx"),
    Case("exact-bad-config", ["exact", "c.toml"], ("ante", "-1"),
         _write("c.toml", _sub(CH, "ante = 1 ", "ante = -1 "))),
    # --- simulate: values ----------------------------------------------------------------
    sim("rounds-1e30", "--rounds", "1e30", needles=("--rounds", "1e30")),
    sim("rounds-2^48+1", "--rounds", str(2**48 + 1), needles=("--rounds", str(2**48 + 1))),
    sim("rounds-zero", "--rounds", "0", needles=("--rounds", "0")),
    sim("rounds-negative", "--rounds", "-5", needles=("--rounds", "-5")),
    sim("rounds-fraction", "--rounds", "1.5", needles=("--rounds", "1.5")),
    sim("rounds-word", "--rounds", "many", needles=("--rounds", "many")),
    sim("rounds-empty", "--rounds", "", needles=("--rounds", "''")),
    sim("rounds-nan", "--rounds", "nan", needles=("--rounds", "nan")),
    sim("rounds-inf", "--rounds", "inf", needles=("--rounds", "inf")),
    sim("rounds-tiny", "--rounds", "1e-3", needles=("--rounds", "1e-3")),
    sim("rounds-hex", "--rounds", "0x10", needles=("--rounds", "0x10")),
    sim("seed-negative", "--seed", "-1", needles=("--seed", "-1")),
    sim("seed-2^64", "--seed", str(2**64), needles=("--seed", str(2**64))),
    sim("seed-word", "--seed", "abc", needles=("--seed", "abc")),
    sim("seed-float", "--seed", "1.5", needles=("--seed", "1.5")),
    sim("chunk-zero", "--chunk", "0", needles=("--chunk", "0")),
    sim("chunk-negative", "--chunk", "-1", needles=("--chunk", "-1")),
    sim("chunk-word", "--chunk", "big", needles=("--chunk", "big")),
    sim("chunk-fraction", "--chunk", "10.5", needles=("--chunk", "10.5")),
    sim("chunk-1e30", "--chunk", "1e30", needles=("--chunk", "1e30")),
    sim("shard-index-too-big", "--shard", "3/3", needles=("--shard", "3/3")),
    sim("shard-zero-count", "--shard", "1/0", needles=("--shard", "1/0")),
    sim("shard-negative", "--shard", "-1/2", needles=("--shard", "-1/2")),
    sim("shard-words", "--shard", "a/b", needles=("--shard", "a/b")),
    sim("shard-no-slash", "--shard", "2", needles=("--shard", "2")),
    sim("shard-three-parts", "--shard", "1/2/3", needles=("--shard", "1/2/3")),
    sim("shard-more-than-rounds", "--shard", "0/5000", needles=("--shard", "0/5000")),
    sim("shard-with-ray", "--shard", "0/2", "--ray", "local", needles=("--ray",)),
    sim("backend", "--backend", "tpu", needles=("--backend", "tpu")),
    sim("strategy", "--strategy", "psychic", needles=("strategy", "psychic")),
    sim("strategy-other-game", "--strategy", "win-over-half", needles=("win-over-half",)),
    Case("sim-config-unknown", ["simulate", "nonesuch", "--rounds", "10", "--out", "run",
                                "--quiet"], ("nonesuch",)),
    sim("out-is-a-file", needles=("--out", "run"), setup=_write("run", "x")),
    sim("out-under-a-file", "--out", "f/run", needles=("--out", "f/run"),
        setup=_write("f", "x")),
    sim("out-nonempty", needles=("--out", "run"), setup=_nonempty),
    sim("out-empty", "--out", "", needles=("--out", "''")),
    sim("resume-and-force", "--resume", None, "--force", None, needles=("--resume", "--force")),
    sim("resume-not-a-run", "--resume", None, needles=("--out", "manifest"), setup=_nonempty),
    sim("unknown-option", "--bogus", "1", needles=("--bogus",)),
    Case("sim-extra-argument", ["simulate", "casino_holdem", "extra", "--rounds", "10"],
         ("extra",)),
    Case("sim-missing-value", ["simulate", "casino_holdem", "--rounds"], ("--rounds",)),
    Case("unknown-command", ["simulat"], ("simulat",)),
    # --- eval and play: card strings and ranges -------------------------------------------
    Case("eval-4-cards", ["eval", "As", "Ks", "Qs", "Js"], ("cards", "4")),
    Case("eval-8-cards", ["eval", "As", "Ks", "Qs", "Js", "Ts", "9s", "8s", "7s"],
         ("cards", "8")),
    Case("eval-duplicate", ["eval", "As", "As", "Ks", "Qs", "Js"], ("As",)),
    Case("eval-bad-rank", ["eval", "Xs", "Ks", "Qs", "Js", "Ts"], ("Xs",)),
    Case("eval-bad-suit", ["eval", "Ax", "Ks", "Qs", "Js", "Ts"], ("Ax",)),
    Case("eval-long-token", ["eval", "Ash", "Ks", "Qs", "Js", "Ts"], ("Ash",)),
    Case("eval-empty-card", ["eval", "", "Ks", "Qs", "Js", "Ts"], ("cards", "4")),
    Case("eval-digit", ["eval", "1s", "Ks", "Qs", "Js", "Ts"], ("1s",)),
    Case("eval-unicode", ["eval", "A♠", "Ks", "Qs", "Js", "Ts"], ("A♠",)),
    Case("play-reversed", ["play", "casino_holdem", "--seed", "1", "--rounds", "5:2"],
         ("--rounds", "5:2")),
    Case("play-too-many", ["play", "casino_holdem", "--seed", "1", "--rounds", "0:2000000"],
         ("--rounds", "0:2000000")),
    Case("play-range-words", ["play", "casino_holdem", "--seed", "1", "--rounds", "a:b"],
         ("--rounds", "a:b")),
    Case("play-seed-negative", ["play", "casino_holdem", "--seed", "-1"], ("--seed", "-1")),
    Case("play-missing-seed", ["play", "casino_holdem"], ("--seed",)),
    Case("play-meter", ["play", "holdem_bonus", "--seed", "1", "--jackpot-meter", "-1"],
         ("--jackpot-meter", "-1")),
    Case("play-strategy", ["play", "holdem_bonus", "--seed", "1", "--strategy", "psychic"],
         ("--strategy", "psychic")),
    Case("exact-strategy", ["exact", "casino_holdem", "--strategy", "psychic"],
         ("--strategy", "psychic")),
    Case("bench-hands", ["bench", "evaluator", "--hands", "0"], ("--hands", "0")),
    # --- run folders ---------------------------------------------------------------------
    Case("summary-no-folder", ["summary", "nowhere"], ("nowhere",)),
    Case("summary-no-manifest", ["summary", "empty"], ("empty", "manifest"), _mkdir("empty")),
    run_case("summary-manifest-missing", ["summary", "run"], ("run", "manifest"),
             lambda d: (d / "run" / "manifest.json").unlink()),
    run_case("summary-manifest-not-json", ["summary", "run"], ("manifest.json", "JSON"),
             _write("run/manifest.json", "{not json")),
    run_case("summary-manifest-empty", ["summary", "run"], ("manifest.json",),
             _write("run/manifest.json", "")),
    run_case("summary-manifest-list", ["summary", "run"], ("manifest.json",),
             _write("run/manifest.json", "[]")),
    run_case("summary-manifest-format", ["summary", "run"], ("format", "gpusim-run/9"),
             _edit_manifest(_setattr("format", "gpusim-run/9"))),
    run_case("summary-manifest-no-chunks", ["summary", "run"], ("chunks_done",),
             _edit_manifest(_setattr("chunks_done", "all"))),
    run_case("summary-manifest-rounds", ["summary", "run"], ("rounds", "'many'"),
             _edit_manifest(_setattr("rounds", "many"))),
    run_case("summary-manifest-sha", ["summary", "run"], ("events/part-000000.parquet", "sha256"),
             _edit_manifest(_edit_sha)),
    run_case("summary-truncated-part", ["summary", "run"],
             ("outcomes/part-000000.parquet", "sha256"), _truncate_part),
    run_case("summary-flipped-bit", ["summary", "run"], ("wagers/part-000001.parquet", "sha256"),
             _flip_bit),
    run_case("summary-part-deleted", ["summary", "run"], ("outcomes/part-000001.parquet",),
             lambda d: (d / "run" / "outcomes" / "part-000001.parquet").unlink()),
    run_case("risk-truncated-part", ["risk", "run"], ("outcomes/part-000000.parquet", "sha256"),
             _truncate_part),
    run_case("resume-edited-seed", ["simulate", "casino_holdem", "--rounds", "2000", "--strategy",
                                    "always-play", "--out", "run", "--resume", "--quiet",
                                    "--chunk", "1000", "--seed", "5"],
             ("seed", "5"), _edit_manifest(_setattr("seed", 6))),
    run_case("resume-other-rounds", ["simulate", "casino_holdem", "--rounds", "3000",
                                     "--strategy", "always-play", "--out", "run", "--resume",
                                     "--quiet", "--chunk", "1000", "--seed", "5"],
             ("rounds", "3000")),
    run_case("risk-bankroll", ["risk", "run", "--bankroll", "0"], ("--bankroll", "0")),
    run_case("risk-rounds", ["risk", "run", "--rounds", "-3"], ("--rounds", "-3")),
    run_case("risk-target", ["risk", "run", "--target-ror", "1.5"], ("--target-ror", "1.5")),
    run_case("risk-target-nan", ["risk", "run", "--target-ror", "nan"], ("--target-ror", "nan")),
    run_case("risk-bet", ["risk", "run", "--bet", "insurance"], ("insurance",)),
    run_case("risk-paths", ["risk", "run", "--paths", "0"], ("--paths", "0")),
    run_case("report-format", ["report", "run", "--out", "r.pdf", "--format", "pdf"],
             ("--format", "pdf")),
    run_case("report-out-folder", ["report", "run", "--out", "nodir/r.html"],
             ("--out", "nodir")),
    run_case("report-exact", ["report", "run", "--out", "r.html", "--exact", "sometimes"],
             ("--exact", "sometimes")),
    run_case("whatif-pay-word", ["whatif", "run", "--set", "aa_bonus.flush=lots"],
             ("aa_bonus.flush", "lots")),
    run_case("whatif-line", ["whatif", "run", "--set", "aa_bonus.fives=3"], ("fives",)),
    run_case("whatif-nothing", ["whatif", "run"], ("--set",)),
    run_case("merge-no-such-folder", ["merge", "nowhere", "--out", "m"], ("nowhere",)),
    run_case("merge-flipped-bit", ["merge", "run", "--out", "m"],
             ("wagers/part-000001.parquet", "sha256"), _flip_bit),
    run_case("merge-out-exists", ["merge", "run", "--out", "run"], ("--out", "run")),
    run_case("verify-no-such-folder", ["verify", "nowhere"], ("nowhere",)),
]


def _snapshot(d: Path) -> dict[str, tuple[int, int]]:
    # folders' own mtimes are left out: the writability probe touches them and cleans up
    return {str(p.relative_to(d)): (None if p.is_dir() else (p.stat().st_size,
                                                               p.stat().st_mtime_ns))
            for p in sorted(d.rglob("*"))}


@pytest.fixture(scope="module")
def template_run(tmp_path_factory) -> Path:
    """A finished 2-chunk run (seed 5, 2000 rounds) that run-folder cases copy and damage."""
    import gpusim

    out = tmp_path_factory.mktemp("template") / "run"
    gpusim.simulate("casino_holdem", rounds=2000, seed=5, out=out, strategy="always-play",
                    chunk=1000, backend="jax-cpu")
    return out


def _prepare(case: Case, d: Path, template_run: Path) -> None:
    d.mkdir()
    if case.uses_run:
        shutil.copytree(template_run, d / "run")
    if case.setup is not None:
        case.setup(d)


def _env(tmp_path_factory) -> dict:
    return {**os.environ, "GPUSIM_CACHE_DIR": str(tmp_path_factory.mktemp("cache")),
            "JAX_PLATFORMS": "cpu", "COLUMNS": "200"}


@pytest.fixture(scope="module")
def results(tmp_path_factory, template_run):
    """{case id: (result, folder unchanged)}; every case a process of its own, forked from one
    interpreter that imported the command line once (tests/_cli_fork.py)."""
    base = tmp_path_factory.mktemp("bad-input")
    folders = [base / f"{i:03d}" for i in range(len(CASES))]
    for case, d in zip(CASES, folders, strict=True):
        _prepare(case, d, template_run)
    before = [_snapshot(d) for d in folders]
    done = run_cli_cases([(case.args, d) for case, d in zip(CASES, folders, strict=True)],
                         base / "logs", _env(tmp_path_factory))
    return {case.id: (res, _snapshot(d) == snap)
            for case, d, snap, res in zip(CASES, folders, before, done, strict=True)}


# one case per command: through a fresh ``python -m gpusim`` each, the same process, stderr and
# stdout as the forked children give (what a real start-up adds, e.g. a warning, shows here)
ENTRY_CASES = ("config-ante-nan", "simcfg-pay-nan", "exact-bad-config", "sim-rounds-1e30",
               "unknown-command", "eval-duplicate", "play-reversed", "bench-hands",
               "summary-manifest-sha", "risk-bankroll", "report-format", "whatif-line",
               "merge-out-exists", "verify-no-such-folder")


def test_a_fresh_interpreter_gives_what_the_forked_child_gave(results, tmp_path_factory,
                                                              template_run):
    base = tmp_path_factory.mktemp("entry")
    env = _env(tmp_path_factory)
    cases = [c for c in CASES if c.id in ENTRY_CASES]
    assert len(cases) == len(ENTRY_CASES)

    def one(i_case):
        i, case = i_case
        d = base / f"{i:03d}"
        _prepare(case, d, template_run)
        return subprocess.run([sys.executable, "-m", "gpusim", *case.args], cwd=d, env=env,
                              capture_output=True, text=True, timeout=300)

    with ThreadPoolExecutor(max_workers=2) as pool:
        fresh = list(pool.map(one, enumerate(cases)))
    for case, res in zip(cases, fresh, strict=True):
        forked = results[case.id][0]
        assert (res.returncode, res.stdout, res.stderr) == (
            forked.returncode, forked.stdout, forked.stderr), case.id


def test_no_refusal_imports_jax(results):
    # every case is refused before the engine loads: a mistyped command costs no JAX import
    # (two seconds of a 2-core machine); cases that read a run folder may load Polars
    assert [cid for cid, (res, _) in results.items() if "jax" in res.heavy] == []
    assert any("polars" in res.heavy for res, _ in results.values())  # the record works


def test_battery_is_large_and_ids_are_unique():
    assert len(CASES) >= 80
    assert len({c.id for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input_is_one_line_exit_2_and_leaves_nothing(results, case):
    res, unchanged = results[case.id]
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert res.returncode == 2, (res.returncode, res.stderr[-2000:])
    assert "Traceback" not in res.stderr and "Traceback" not in res.stdout
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("gpusim: error: "), lines[0]
    assert res.stdout == "", res.stdout
    for needle in case.needles:
        assert needle.lower() in lines[0].lower(), (needle, lines[0])
    assert unchanged, "the case's folder changed"
