"""The structure docs/architecture.md promises: one-way layers, game facts only in games/,
modules a reader can hold in their head, and specs that are complete."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gpusim.games import SPECS, spec_for
from gpusim.games.spec import import_path_problems, load, missing_import
from gpusim.strategy.tree import check_tree

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "gpusim"
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _lint_imports(cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=cwd, capture_output=True,
                          text=True, timeout=300, env={"PYTHONPATH": str(cwd), "PATH": ""})


def test_layer_contract_holds():
    res = _lint_imports(ROOT)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-2000:]
    assert "2 kept, 0 broken" in res.stdout


def test_layer_contract_catches_an_upward_import(tmp_path):
    """The contract can fail: a games module that imports the CLI (even inside a function)
    breaks it."""
    shutil.copytree(PACKAGE, tmp_path / "gpusim", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    spec = tmp_path / "gpusim" / "games" / "spec.py"
    spec.write_text(spec.read_text() + "\n\ndef _upward():\n    import gpusim.cli  # noqa\n")
    res = _lint_imports(tmp_path)
    assert res.returncode != 0
    assert "gpusim.games is not allowed to import gpusim.cli" in res.stdout


def test_exact_contract_catches_an_upward_import(tmp_path):
    """The contract inside exact/ can fail: the per-board counts importing the 5-card class
    solver built on them breaks it."""
    shutil.copytree(PACKAGE, tmp_path / "gpusim", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    boards = tmp_path / "gpusim" / "exact" / "boards.py"
    upward = "\n\ndef _upward():\n    import gpusim.exact.fives  # noqa\n"
    boards.write_text(boards.read_text() + upward)
    res = _lint_imports(tmp_path)
    assert res.returncode != 0
    assert "gpusim.exact.boards is not allowed to import gpusim.exact.fives" in res.stdout


def test_no_module_is_over_500_lines():
    long = {str(p.relative_to(ROOT)): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text().splitlines())) > 500}
    assert long == {}


def test_only_games_branches_on_the_game():
    pattern = re.compile(r"game\s*(==|!=)")
    hits = [f"{p.relative_to(ROOT)}:{i}" for p in PACKAGE.rglob("*.py")
            if "games" not in p.relative_to(PACKAGE).parts[:1]
            for i, line in enumerate(p.read_text().splitlines(), 1) if pattern.search(line)]
    assert hits == []


# Game facts live in gpusim/games/ (and in plugin games' own packages): no exceptions.
_NAMES_ALLOWED_IN: tuple[str, ...] = ()


def _game_and_bet_names() -> frozenset[str]:
    return frozenset(n for s in SPECS.values() for n in (s.name, *s.bets))


def _named_literals(source: str, names) -> list[tuple[int, str]]:
    """(line, text) of every string constant in ``source`` that is exactly one of ``names``;
    docstrings and other bare string statements (comments in effect) do not count."""
    tree = ast.parse(source)
    bare = {id(n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
    return sorted((n.lineno, n.value) for n in ast.walk(tree)
                  if isinstance(n, ast.Constant) and isinstance(n.value, str)
                  and n.value in names and id(n) not in bare)


def test_no_game_or_bet_name_outside_games():
    """Outside gpusim/games/, a module asks a game's spec; it never names a game or a bet."""
    names = _game_and_bet_names()
    hits = []
    for p in sorted(PACKAGE.rglob("*.py")):
        rel = p.relative_to(ROOT).as_posix()
        if rel.startswith("gpusim/games/") or rel.startswith(_NAMES_ALLOWED_IN):
            continue
        hits += [f"{rel}:{line}: {text!r}" for line, text in _named_literals(p.read_text(), names)]
    assert hits == []


def test_name_check_catches_a_literal():
    """The check can fail: a bet or a game named in code is caught, in a docstring it is not."""
    names = _game_and_bet_names()
    bet = next(b for s in SPECS.values() for b in s.side_bets)
    game = next(iter(SPECS))
    snippet = (f'"""Module text may name {bet!r}."""\n'
               f"def f(rules):\n"
               f'    """{game}: docstrings are text."""\n'
               f'    # a comment may say "{bet}"\n'
               f'    return rules.stakes["{bet}"] if rules.game != "{game}" else 0\n')
    assert _named_literals(snippet, names) == sorted([(5, bet), (5, game)])
    assert _named_literals(f'x = "{bet}_meter"\n', names) == []


@pytest.mark.parametrize("game", list(SPECS))
def test_spec_is_complete(game, shipped_rules):
    """Everything docs/architecture.md says a game must provide is there and consistent."""
    spec = SPECS[game]
    assert spec.name == game and spec.title
    assert import_path_problems(spec) == []  # what the registry checks of a plugin
    assert set(spec.main_bets) <= set(spec.bets) and set(spec.side_bets) <= set(spec.bets)
    assert set(spec.stake_multiples) == set(spec.main_bets)
    assert set(spec.paytables) <= set(spec.bets)
    check_tree(spec.decisions)  # also checked when the spec is built
    assert set(spec.labels) <= set(spec.bets) and set(spec.designs) <= set(spec.paytables)
    assert set(spec.design_refusals) <= set(spec.bets) - set(spec.designs)
    assert spec.base_bet in spec.main_bets and spec.stake_multiples[spec.base_bet] == 1
    assert (spec.meter_bet is None) == (spec.meter_event is None)
    assert spec.meter_bet is None or spec.meter_bet in spec.side_bets
    for entry in spec.designs.values():
        assert entry.kind in ("side", "main") and callable(load(entry.build)), entry
        assert (entry.kind == "main") == (entry.strategies is not None), entry
        assert set(entry.strategies or ()) <= set(spec.strategy_names), entry
    for d in spec.decisions:
        assert all(set(a.stakes) <= set(spec.main_bets) for a in d.actions)
    names = spec.strategy_names
    assert len(set(names)) == len(names)
    for entry in spec.strategies:
        if entry.source.startswith("rules:"):
            assert spec.rule_strategy is not None and entry.source.removeprefix("rules:") in [
                s[0] for s in spec.game_def.strategies], entry
        elif entry.table is None:
            assert callable(load(entry.source)), entry
        else:
            assert entry.table in spec.table_strategies, entry
    assert callable(load(spec.settle)) and callable(load(spec.joint.encoder))
    if spec.kernel is not None:  # its kernel (its shape's, or a plugin's own)
        assert (ROOT / "kernels" / f"{spec.kernel.source}.cu").is_file()
        assert callable(load(spec.kernel.head))
        assert all(callable(load(p)) for p in (spec.kernel.rule_code, spec.kernel.code_map)
                   if p)
    # a plugin (no description) may lack a kernel and a solver; a described game has a kernel
    # only where its shape has one (JAX otherwise), and is solved by an exact solver keyed by
    # its shape
    if spec.game_def is not None:
        assert names
        if spec.kernel is not None:
            assert spec.kernel.code_map, "a shape's kernel counts its own codes"
        # the one solver, or (Texas Hold'em Bonus's until it moves) the street-bets solver
        assert spec.exact_solver in ("gpusim.games.described.exact_report:SOLVER",
                                     "gpusim.games.holdem.streets_described:SOLVER")
        assert "optimal" in names and hasattr(spec.solver(), "report")
        assert hasattr(load(spec.table_strategy_class), "load")
    for rules in shipped_rules.values():
        if rules.game != game:
            continue
        assert spec_for(rules) is spec and isinstance(rules, spec.rules_type)
        offered = spec.offered_bets(rules)
        assert set(offered) <= set(spec.bets) and set(spec.main_bets) <= set(offered)
        names_, returns = spec.event_names(rules), spec.event_returns(rules)
        assert list(names_) == list(offered) == list(returns)
        assert set(spec.forfeited_by_fold(rules)) <= set(spec.side_bets) & set(offered)
        assert set(spec.side_bet_exact(rules)) <= set(spec.side_bets) & set(offered)
        if spec.meter_active(rules):
            assert spec.meter_event in names_[spec.meter_bet]
        for bet in spec.paytables:
            if bet in offered:
                assert set(spec.paytable(rules, bet)) <= set(spec.paytables[bet]), bet
        n_bins, events, stakes, actions = spec.joint.decode(rules)
        assert list(events) == list(stakes) == list(offered)
        assert list(actions) == list(spec.decision_points)
        assert all(len(v) == n_bins for v in [*events.values(), *stakes.values(),
                                              *actions.values()])
        for bet, ev in events.items():
            assert 0 <= ev.min() and ev.max() < len(names_[bet]), bet


def test_architecture_doc_names_only_what_exists():
    """Every repository path and ``gpusim.`` name in docs/architecture.md exists, and its layer
    table names every top-level module (``python tests/_doc_paths.py`` lists the problems)."""
    from _doc_paths import doc_problems

    assert doc_problems((ROOT / "docs" / "architecture.md").read_text(), layers=True) == []


def test_doc_check_catches_what_does_not_exist(tmp_path):
    from _doc_paths import doc_problems

    pkg = tmp_path / "gpusim"
    (pkg / "compute").mkdir(parents=True)
    for f in ("cards.py", "rules.py", "compute/__init__.py", "compute/bins.py"):
        (pkg / f).write_text("")
    good = ("## Layers\n\n| layer | modules | what |\n|---|---|---|\n"
            "| core | `cards`, `rules` | cards |\n| compute | `compute/` | counts |\n\n"
            "## Data flow\n\ncounts   gpusim/compute/bins.py, `gpusim/compute/`, TABLE/x.parquet\n"
            "`gpusim.rules.BP`\n")
    assert doc_problems(good, tmp_path, layers=True) == []
    bad = good.replace("| compute | `compute/` |", "| compute | `compute/`, `simulate` |").replace(
        "`cards`, ", "").replace(
        "gpusim/compute/bins.py", "gpusim/compute/bin.py compute/bins.py") + (
        "kernels/<game>.cux `gpusim.rules.NoSuchName` `gpusim.nosuchmodule`\n")
    assert doc_problems(bad, tmp_path, layers=True) == [
        "gpusim/compute/bin.py: no such file or folder in the repository",
        "compute/bins.py: write source paths from the repository root (gpusim/...)",
        "kernels/<game>.cux: no such file or folder in the repository",
        "gpusim.rules.NoSuchName: does not resolve",
        "gpusim.nosuchmodule: does not resolve",
        "layer table: `simulate` is not a top-level module of gpusim/",
        "layer table: gpusim/cards is in no layer",
    ]


def test_import_path_check_names_what_would_not_load():
    """:func:`missing_import` reads sources without importing them: each kind of typo is found."""
    assert missing_import("gpusim.games.described.engine:settle") is None
    assert "not found" in missing_import("gpusim.games.described.engin:settle")
    assert "not found" in missing_import("no_such_package_here.settlement:settle")
    assert "defines no 'setle'" in missing_import("gpusim.games.described.engine:setle")
    assert "expected" in missing_import("gpusim.games.described.engine.settle")
