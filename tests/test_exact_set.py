"""`gpusim exact CONFIG --set BET.LINE=PAY`: another paytable priced without writing a config.

It must equal `gpusim exact` on a config file written with those pays, to the last digit: for a
side-bet line (the strategy unchanged) and for a main-game line (the optimal strategy solved
again for the new pays). Each solve counts into its own empty cache, so neither answer is the
other read back.
"""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from gpusim.cli import app
from gpusim.config import shipped_configs

runner = CliRunner()


def _exact(args: list[str], cache, monkeypatch) -> dict:
    monkeypatch.setenv("GPUSIM_CACHE_DIR", str(cache))
    result = runner.invoke(app, ["exact", *args, "--recompute", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _written(tmp_path, config: str, table: str, line: str, pay: str):
    """The shipped config's TOML with one line of ``[paytables.<table>]`` changed."""
    text = shipped_configs()[config].read_text()
    head, sep, rest = text.partition(f"[paytables.{table}]\n")
    assert sep, f"{config} has no [paytables.{table}]"
    body, n = re.subn(rf"(?m)^{line} = [^\n#]*", f"{line} = {pay}", rest, count=1)
    assert n == 1, f"{config}: no line {line} in [paytables.{table}]"
    path = tmp_path / f"{config}.toml"
    path.write_text(head + sep + body)
    return path


@pytest.mark.parametrize(("config", "bet", "table", "line", "pay", "main"), [
    ("three_card_poker", "pair_plus", "pair_plus", "flush", "3", False),
    # the three bets' paytable: whether to let a bet ride weighs it
    ("let_it_ride", "third", "main", "two_pair", "4", True),
    # a side bet a fold forfeits: Casino Hold'em's optimal call weighs the AA Bonus it keeps
    # (a straight's 7 -> 8 moves no call decision, so the shares are not compared)
    pytest.param("casino_holdem", "aa_bonus", "aa_bonus", "straight", "8", None,
                 marks=pytest.mark.slow),
])
def test_set_equals_exact_on_the_written_config(tmp_path, monkeypatch, config, bet, table, line,
                                                pay, main):
    by_set = _exact([config, "--set", f"{bet}.{line}={pay}"], tmp_path / "a", monkeypatch)
    written = _written(tmp_path, config, table, line, pay)
    by_file = _exact([str(written)], tmp_path / "b", monkeypatch)
    assert by_set.pop("paytable_changes") == {f"{bet}.{line}": pay}
    by_set.pop("config_hash")
    assert by_set == by_file
    shipped = _exact([config], tmp_path / "c", monkeypatch)
    # the change is priced, not ignored: the bet's return moves, and a main-game line moves
    # the optimal decisions too
    assert by_set["bets"][bet]["rtp"] != shipped["bets"][bet]["rtp"]
    if main is not None:
        assert (by_set["decisions"] != shipped["decisions"]) == main


@pytest.mark.parametrize(("args", "needles"), [
    (["--set", "pair_plus.flushes=3"], ["--set", "'pair_plus.flushes'",
                                        "allowed: ", "pair_plus.flush"]),
    (["--set", "pair_plus.flush=three"], ["--set pair_plus.flush", "'three'"]),
    (["--set", "pair_plus.flush"], ["--set", "BET.LINE=PAY"]),
    (["--set", "pair_plus.flush=-3"], ["pair_plus", "flush"]),
])
def test_bad_set_is_one_line_exit_2(args, needles):
    result = runner.invoke(app, ["exact", "three_card_poker", *args])
    assert result.exit_code == 2
    text = result.stderr if result.stderr_bytes is not None else result.output
    lines = [ln for ln in text.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("gpusim: error: "), lines
    for n in needles:
        assert n in lines[0], (n, lines[0])
