"""A test may skip only for a reason of the machine (no GPU, no compiler, no chromium, not
Linux), never for something the project's own files should provide: a shipped strategy, a game
package, a kernel, a dependency of the ``dev`` extra. Those fail.

Every ``pytest.skip``, ``pytest.importorskip``, ``pytest.xfail`` and ``pytest.mark.skip`` /
``skipif`` / ``xfail`` under ``tests/`` is found in the source (AST) and its reason read: a
string literal, or the literal parts of an f-string. Each reason must name one of
:data:`MACHINE_CONDITIONS`. ``python tests/test_skip_reasons.py`` lists them all.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent

MACHINE_CONDITIONS = ("GPU", "nvcc", "g++", "C++ compiler", "chromium", "Linux", "/proc")
"""What a skip reason may name: hardware and system tools the project cannot install itself."""

_SKIPS = {"skip", "importorskip", "xfail", "skipif"}


def _name(node: ast.expr) -> str:
    """``pytest.mark.skipif`` -> "pytest.mark.skipif"; anything else -> ""."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


def _reason_text(node: ast.expr | None) -> str | None:
    """The literal text of a reason (f-string holes left out); None if it has no literal."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        text = "".join(v.value for v in node.values
                       if isinstance(v, ast.Constant) and isinstance(v.value, str))  # fmt: skip
        return text or None
    return None


def skips_in(source: str, filename: str = "<test>") -> list[tuple[str, int, str, str | None]]:
    """Every skip of a test module: (file, line, what, reason text or None)."""
    tree = ast.parse(source, filename)
    called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            what, args = _name(node.func), node.args
        elif isinstance(node, ast.Attribute) and id(node) not in called:
            what, args = _name(node), []  # a bare @pytest.mark.skip / xfail
        else:
            continue
        if not what.startswith("pytest.") or what.rsplit(".", 1)[-1] not in _SKIPS:
            continue
        kw = {k.arg: k.value for k in getattr(node, "keywords", [])}
        if what.endswith(("skipif", "importorskip", "mark.xfail")):
            reason = kw.get("reason")
        else:  # pytest.skip / pytest.xfail / pytest.mark.skip: the first argument or reason=
            reason = args[0] if args else kw.get("reason") or kw.get("msg")
        out.append((filename, node.lineno, what, _reason_text(reason)))
    return sorted(out)


def problems(skips) -> list[str]:
    """The skips whose reason names no machine condition, one line each."""
    bad = []
    for filename, line, what, reason in skips:
        if reason is None or not any(c in reason for c in MACHINE_CONDITIONS):
            bad.append(f"{filename}:{line}: {what}({reason!r}) names no machine condition "
                       f"({', '.join(MACHINE_CONDITIONS)})")
    return bad


def all_skips() -> list[tuple[str, int, str, str | None]]:
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        found += skips_in(path.read_text(), str(path.relative_to(TESTS.parent)))
    return found


def test_every_skip_names_a_machine_condition():
    skips = all_skips()
    assert skips, "the scan found no skip at all: it is broken"
    assert problems(skips) == []


def test_the_scan_catches_a_skip_of_the_projects_own():
    planted = '''
import pytest

pytestmark = pytest.mark.skipif(True, reason="needs a GPU")
ray = pytest.importorskip("ray")

@pytest.mark.skip
def test_a():
    pass

def test_b():
    try:
        strat = get_strategy("optimal", rules)
    except StrategyError as exc:
        pytest.skip(f"strategy not available here: {exc}")
    pytest.skip(str(strat))

@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")
def test_c():
    pass
'''
    found = skips_in(planted, "planted.py")
    assert [(line, what) for _, line, what, _ in found] == [
        (4, "pytest.mark.skipif"), (5, "pytest.importorskip"), (7, "pytest.mark.skip"),
        (15, "pytest.skip"), (16, "pytest.skip"), (18, "pytest.mark.skipif")]
    assert [p.split(":")[1] for p in problems(found)] == ["5", "7", "15", "16"]


if __name__ == "__main__":
    for filename, line, what, reason in all_skips():
        print(f"{filename}:{line}: {what}: {reason}")
    sys.exit(1 if problems(all_skips()) else 0)
