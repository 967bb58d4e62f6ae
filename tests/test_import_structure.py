"""The import structure of the first-party packages: no import circles, hidden or not.

Every import statement of the source trees counts, function-level ones included (an
import moved into a function to break a circle still makes one); imports under
``if TYPE_CHECKING:`` do not. Edges from a module into its own package's ``__init__``
are left out (a package importing its submodules is not a circle).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def source_roots() -> list[Path]:
    """The top-level package directories of every distribution in the repository."""
    inits = [*ROOT.glob("*/src/*/__init__.py"), *ROOT.glob("environments/*/src/*/__init__.py")]
    return sorted(p.parent for p in inits)


def modules() -> dict[str, Path]:
    """``{dotted module name: file}`` for every first-party module."""
    found: dict[str, Path] = {}
    for root in source_roots():
        for path in root.rglob("*.py"):
            parts = list(path.relative_to(root.parent).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _statements(nodes: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in nodes:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt):
                yield from _statements([child])


def imported_names(module: str, path: Path) -> Iterator[tuple[str, int]]:
    """Each ``(dotted name, line)`` that ``module`` imports (``from a import b``: ``a.b``)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in _statements(ast.parse(path.read_text(encoding="utf-8")).body):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
            continue
        base = node.module or ""
        if node.level:
            parts = package.split(".")[: len(package.split(".")) - node.level + 1]
            base = ".".join([*parts, *([node.module] if node.module else [])])
        for alias in node.names:
            yield f"{base}.{alias.name}", node.lineno
        yield base, node.lineno


def _first_party(name: str, known: dict[str, Path]) -> str | None:
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def import_graph() -> dict[str, set[str]]:
    """``{module: first-party modules it imports}``."""
    known = modules()
    graph: dict[str, set[str]] = {}
    for module, path in known.items():
        targets = {_first_party(name, known) for name, _ in imported_names(module, path)}
        graph[module] = {
            t for t in targets if t and t != module and not module.startswith(t + ".")
        }
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_scan_sees_every_package() -> None:
    names = {p.name for p in source_roots()}
    assert {"mcpgym_server", "mcpgym_grading", "mcpgym_clients"} <= names


def test_the_detector_finds_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_circles() -> None:
    assert circles(import_graph()) == []
