"""Imports run one way (STYLE.md, point 7): the graph of stomp_analysis's imports of its own modules, read from the
sources with ``ast``, has no cycle, and no module of the package is imported inside a function to hide one.

Every import statement counts, wherever it stands: relative (``from .runs import x``, ``from . import explain``) and
absolute (``import stomp_analysis.runs``, ``from stomp_analysis import runs``), under ``if TYPE_CHECKING:`` too (a
cycle a type checker follows is still a cycle), and inside functions (reported by the cycle test as edges, and failed
on their own by the second test).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

PACKAGE = "stomp_analysis"
PACKAGE_DIR = Path(__file__).resolve().parents[1] / "src" / PACKAGE


@dataclass(frozen=True)
class Import:
    """One import of a module of the package: who imports what, where, and whether inside a function."""

    importer: str
    imported: str
    where: str  # file:line, the file from the package's directory (stomp_analysis/runs.py:27)
    in_function: bool


def module_names(package_dir: Path = PACKAGE_DIR) -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its own name, for its ``__init__.py``)."""
    names = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = [package_dir.name, *path.relative_to(package_dir).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _package_of(module: str, path: Path) -> str:
    """The package a module's relative imports start from: itself for an ``__init__.py``, else its parent."""
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def _targets(node: ast.Import | ast.ImportFrom, module: str, path: Path, known: dict[str, Path]) -> list[str]:
    """The modules of the package an import statement imports."""
    if isinstance(node, ast.Import):
        dotted = [alias.name for alias in node.names]
    else:
        if node.level:
            base = _package_of(module, path).split(".")
            base = base[: len(base) - (node.level - 1)]
            source = ".".join([*base, node.module] if node.module else base)
        else:
            source = node.module or ""
        # `from pkg import name`: the submodule pkg.name when there is one, else a name of pkg itself
        dotted = [f"{source}.{a.name}" if f"{source}.{a.name}" in known else source for a in node.names]
    out = []
    for name in dotted:
        while name and name not in known:  # `import stomp_analysis.runs.x` imports stomp_analysis.runs
            name = name.rpartition(".")[0]
        if name and name not in out:
            out.append(name)
    return out


class _ImportFinder(ast.NodeVisitor):
    def __init__(self, module: str, path: Path, known: dict[str, Path], shown: str) -> None:
        self.module, self.path, self.known, self.shown = module, path, known, shown
        self.depth = 0  # functions (and lambdas) around the node visited
        self.imports: list[Import] = []

    def _in_function(self, node: ast.AST) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _in_function

    def _import(self, node: ast.Import | ast.ImportFrom) -> None:
        for target in _targets(node, self.module, self.path, self.known):
            self.imports.append(Import(self.module, target, f"{self.shown}:{node.lineno}", self.depth > 0))

    visit_Import = visit_ImportFrom = _import


def package_imports(package_dir: Path = PACKAGE_DIR) -> list[Import]:
    """Every import of a module of the package by a module of the package."""
    known = module_names(package_dir)
    found = []
    for module, path in known.items():
        finder = _ImportFinder(module, path, known, str(path.relative_to(package_dir.parent)))
        finder.visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
        found += finder.imports
    return found


def cycles(imports: list[Import]) -> list[list[Import]]:
    """One cycle (its imports, in order) per strongly connected group of modules that import each other."""
    edges: dict[str, dict[str, Import]] = {}
    for i in imports:
        edges.setdefault(i.importer, {}).setdefault(i.imported, i)
    found, done = [], set()
    for start in sorted(edges):
        if start in done:
            continue
        path = _cycle_from(start, edges)
        if path:
            found.append(path)
            done.update(i.importer for i in path)
    return found


def _cycle_from(start: str, edges: dict[str, dict[str, Import]]) -> list[Import]:
    """The shortest cycle through ``start`` (breadth first), or [] when none passes through it."""
    came_by: dict[str, Import] = {}
    frontier = [start]
    while frontier:
        following = []
        for module in frontier:
            for target, imp in sorted(edges.get(module, {}).items()):
                if target == start:
                    path = [imp]
                    while path[0].importer != start:
                        path.insert(0, came_by[path[0].importer])
                    return path
                if target not in came_by:
                    came_by[target] = imp
                    following.append(target)
        frontier = following
    return []


def describe(cycle: list[Import]) -> str:
    """``a -> b -> c -> a`` and where each import stands."""
    short = [i.importer.removeprefix(f"{PACKAGE}.") for i in cycle] + [cycle[-1].imported.removeprefix(f"{PACKAGE}.")]
    return " -> ".join(short) + " (" + ", ".join(i.where for i in cycle) + ")"


def test_the_graph_is_read_from_the_sources():
    """A guard against a test that passes on an empty graph: imports known to stand in the sources are found."""
    imports = {(i.importer, i.imported) for i in package_imports()}
    assert ("stomp_analysis.cli", "stomp_analysis.pipeline") in imports  # from .pipeline import ...
    assert ("stomp_analysis.cli", "stomp_analysis.explain") in imports  # from . import ..., explain
    assert ("stomp_analysis.cli", "stomp_analysis") in imports  # from . import InputError, ...
    assert ("stomp_analysis.__main__", "stomp_analysis.cli") in imports


def test_imports_run_one_way():
    found = cycles(package_imports())
    assert not found, "import cycle(s) in stomp_analysis:\n" + "\n".join(describe(c) for c in found)


def test_no_module_of_the_package_is_imported_inside_a_function():
    inside = [i for i in package_imports() if i.in_function]
    assert not inside, "stomp_analysis imported inside a function (move the name, not the import):\n" + "\n".join(
        f"{i.where}: {i.importer} imports {i.imported}" for i in inside
    )


def test_a_cycle_is_named_with_its_imports(tmp_path):
    """The finder itself, on a package of its own: a cycle through a relative, an absolute and a function's import."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from .b import x\n")
    (package / "b.py").write_text("import pkg.c\nx = 1\n")
    (package / "c.py").write_text("def f():\n    from pkg import a\n")
    (package / "d.py").write_text("from . import a, b\n")
    imports = package_imports(package)
    assert [(i.importer, i.imported, i.in_function) for i in imports if i.importer != "pkg.d"] == [
        ("pkg.a", "pkg.b", False),
        ("pkg.b", "pkg.c", False),
        ("pkg.c", "pkg.a", True),
    ]
    assert [describe(c).split(" (")[0] for c in cycles(imports)] == ["pkg.a -> pkg.b -> pkg.c -> pkg.a"]
