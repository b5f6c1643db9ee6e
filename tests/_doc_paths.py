"""Check that a doc names only things that exist: repository paths, ``gpusim.`` names, and (for
docs/architecture.md) a layer table that covers every top-level module of the package.

``python tests/_doc_paths.py [DOC ...]`` prints each problem on a line (default: the
architecture doc) and exits 1 if there is any; ``tests/test_architecture.py`` runs the same
:func:`doc_problems`. Rules, so that the check can be strict:

- a path is written from the repository root and starts with one of :data:`REPO_DIRS`
  (``gpusim/compute/bins.py``, ``kernels/``); ``<game>``-style placeholders and ``*`` match any
  name, and at least one file or folder must match;
- a Python or CUDA source named any other way (``compute/bins.py``) is a problem: write it from the
  root, so that a moved module cannot hide from the check;
- a backticked ``gpusim.a.b`` must import (the longest module prefix) and resolve attribute by
  attribute;
- with ``layers=True``, every backticked name in the second column of the "Layers" table is a
  top-level module or package of ``gpusim/``, and every one of those is named.
"""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REPO_DIRS = ("gpusim", "kernels", "tests", "benchmarks", "docs", "configs", "notebooks")
_SOURCE = (".py", ".cu", ".cuh", ".h")

_PATH = re.compile(r"(?<![\w./<>*-])((?:[\w<>*-]+/)+[\w<>*.-]*)")
_DOTTED = re.compile(r"`(gpusim(?:\.\w+)+)")


def _exists(root: Path, path: str) -> bool:
    pattern = re.sub(r"<[\w-]+>", "*", path.rstrip("/"))
    return any(True for _ in root.glob(pattern)) if "*" in pattern else (root / pattern).exists()


def path_problems(text: str, root: Path = ROOT) -> list[str]:
    out = []
    for m in _PATH.finditer(text):
        path = m.group(1)
        first = path.split("/")[0]
        if first in REPO_DIRS:
            if not _exists(root, path):
                out.append(f"{path}: no such file or folder in the repository")
        elif path.endswith(_SOURCE):
            out.append(f"{path}: write source paths from the repository root (gpusim/...)")
    return out


def _resolve(name: str) -> bool:
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        module = ".".join(parts[:i])
        try:
            obj = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name and module.startswith(exc.name):  # not a module: try a shorter prefix
                continue
            raise  # a module that exists but cannot import is a real failure
        for attr in parts[i:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


def name_problems(text: str) -> list[str]:
    return [f"{name}: does not resolve" for name in dict.fromkeys(_DOTTED.findall(text))
            if not _resolve(name)]


def _layer_table(text: str) -> list[str]:
    """The backticked names of the modules column of the "Layers" table."""
    section = text.split("## Layers", 1)[1] if "## Layers" in text else ""
    names = []
    for line in section.splitlines():
        if line.startswith("## "):
            break
        cells = line.split("|")
        if line.startswith("|") and len(cells) > 3 and not set(cells[2].strip()) <= {"-"}:
            names += re.findall(r"`([^`]+)`", cells[2])
    return names


def layer_problems(text: str, root: Path = ROOT) -> list[str]:
    pkg = root / "gpusim"
    modules = {p.stem for p in pkg.glob("*.py") if p.stem not in ("__init__", "__main__")}
    modules |= {p.parent.name for p in pkg.glob("*/__init__.py")}
    named = _layer_table(text)
    if not named:
        return ["no Layers table with a modules column"]
    out = []
    for name in named:
        path = name if name.endswith((".py", "/")) else None
        if path is None and name not in modules:
            out.append(f"layer table: `{name}` is not a top-level module of gpusim/")
        elif path is not None and not (pkg / path).exists():
            out.append(f"layer table: gpusim/{name} does not exist")
    listed = {n.removesuffix(".py").split("/")[0] for n in named}
    out += [f"layer table: gpusim/{m} is in no layer" for m in sorted(modules - listed)]
    return out


def doc_problems(text: str, root: Path = ROOT, *, layers: bool = False) -> list[str]:
    out = path_problems(text, root) + name_problems(text)
    return out + layer_problems(text, root) if layers else out


def main(argv: list[str]) -> int:
    docs = argv or ["docs/architecture.md"]
    bad = 0
    for doc in docs:
        text = (ROOT / doc).read_text()
        for problem in doc_problems(text, layers=doc.endswith("architecture.md")):
            print(f"{doc}: {problem}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
