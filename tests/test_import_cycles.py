"""No two modules of ``gpusim`` import each other, directly or through others.

The layer contract (import-linter, ``make test``) orders the layers, but modules inside one layer
(or one game package) may still form a cycle, which makes import order matter and hides which
module owns a name. This check builds the import graph with grimp (import-linter's own graph:
imports inside functions count too) and lists every strongly connected component of more than
one module. ``python tests/test_import_cycles.py`` prints them.
"""

from __future__ import annotations

import sys

import grimp


def import_cycles(package: str) -> list[list[str]]:
    """Every set of modules of ``package`` that import each other in a cycle, sorted."""
    graph = grimp.build_graph(package, include_external_packages=False, cache_dir=None)
    edges = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    # Tarjan's strongly connected components, iteratively (no recursion limit to meet)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            if i < len(edges[node]):
                work.append((node, i + 1))
                nxt = edges[node][i]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if low[node] == index[node]:
                comp = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    comp.append(m)
                    if m == node:
                        break
                if len(comp) > 1:
                    cycles.append(sorted(comp))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return sorted(cycles)


def test_gpusim_has_no_import_cycle():
    assert import_cycles("gpusim") == []


def test_a_planted_cycle_is_found(tmp_path, monkeypatch):
    pkg = tmp_path / "planted"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from planted import b\n")
    (pkg / "b.py").write_text("def f():\n    from planted.sub import c  # inside a function\n")
    (pkg / "sub" / "c.py").write_text("import planted.a\n")
    (pkg / "d.py").write_text("from planted import a\n")  # imports the cycle, not part of it
    (pkg / "e.py").write_text("from planted import f\n")
    (pkg / "f.py").write_text("from planted import e\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert import_cycles("planted") == [
        ["planted.a", "planted.b", "planted.sub.c"], ["planted.e", "planted.f"]]


if __name__ == "__main__":
    found = import_cycles("gpusim")
    for cycle in found:
        print(" <-> ".join(cycle))
    sys.exit(1 if found else 0)
