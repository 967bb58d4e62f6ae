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
        graph[module] = {t for t in targets if t and t != module and not module.startswith(t + ".")}
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


# -- faces ---------------------------------------------------------------------------

FACES = {
    "mcpgym_server": {
        "mcpgym_server",
        "mcpgym_server.authoring",
        "mcpgym_server.bundles",
        "mcpgym_server.lock",
        "mcpgym_server.runtime",
    },
}
"""The public faces of each package; every other module of it is private (``_x``)."""

INSIDE = {"mcpgym_server": ("server/src/mcpgym_server/", "tests/server/")}
"""Where a package's private modules may be imported: its own tree and its own tests."""

EXEMPT = {
    "bench/memory.py": "sets episode.SANDBOX_CACHE_KIB to measure the cache it sizes",
    "bench/grading.py": "patches the snapshot module to time grading without its cache",
    "bench/campaign.py": "patches the MCP server builder to time the path before its schema lookup",
}
"""Files outside a package allowed to reach behind its faces, with the reason."""


def _all_files() -> list[Path]:
    skip = {".venv", "runs", "node_modules", ".git"}
    return [p for p in ROOT.rglob("*.py") if not skip & set(p.relative_to(ROOT).parts)]


def imports_around_faces() -> list[str]:
    """``path:line: module`` for each import of a non-face module from outside its package."""
    bad = []
    for path in _all_files():
        rel = path.relative_to(ROOT).as_posix()
        if rel in EXEMPT:
            continue
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for name, line in imported_names(module, path):
            package = name.split(".")[0]
            faces = FACES.get(package)
            if faces is None or rel.startswith(INSIDE[package]):
                continue
            parts = name.split(".")
            # `from mcpgym_server import X`: X is a name of the face unless it is a module
            target = ".".join(parts[:2]) if len(parts) > 1 else name
            if target in faces or target == package:
                continue
            if len(parts) == 2 and not (ROOT / "server/src" / parts[0] / f"{parts[1]}.py").exists():
                continue  # a name exported by the package face
            bad.append(f"{rel}:{line}: {name}")
    return sorted(set(bad))


def test_faces_have_all() -> None:
    import importlib

    for faces in FACES.values():
        for face in faces:
            module = importlib.import_module(face)
            assert isinstance(getattr(module, "__all__", None), list), f"{face} has no __all__"
            for name in module.__all__:
                assert getattr(module, name, None) is not None, f"{face}.{name} is missing"


def test_nothing_imports_around_a_face() -> None:
    assert imports_around_faces() == [], (
        "import these from a face (mcpgym_server, .runtime, .lock, .bundles, .authoring)"
    )
