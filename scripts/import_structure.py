"""Measure the package's import structure from its own imports: what runs up a layer, what imports in a circle.

Usage: python scripts/import_structure.py [SRC]        (SRC defaults to this checkout's src/)

Every ``import evalscore...`` and ``from evalscore... import`` in ``src/evalscore`` counts, at the top
of a module or inside a function or a ``TYPE_CHECKING`` block alike: a lazy import is still a
dependency. Each module sits on a floor of ``LAYERS`` and may import its own floor and those below.
Prints each import that runs up, each circle of modules, and the names from below the command line
that ``cli/score_command.py`` handles (how often score's data passes through the command); exits 1
when an import runs up or a circle exists. ``tests/unit/test_import_structure.py`` holds both at none.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

PACKAGE: Final = "evalscore"
LAYERS: Final[tuple[frozenset[str], ...]] = (
    frozenset({"<leaf>"}),
    frozenset({"inputs", "coherence"}),
    frozenset({"models"}),
    frozenset({"validation"}),
    frozenset({"running", "distributed"}),
    frozenset({"scoring"}),
    frozenset({"importers", "reporters", "ledger"}),
    frozenset({"contract"}),
    frozenset({"<face>"}),
    frozenset({"cli", "<main>"}),
)
"""The floors from the ground up. ``<leaf>``: the modules directly in the package (small parts every
floor uses); ``<face>``: the package's ``__init__`` (the public names); ``<main>``: ``__main__``.
``distributed`` is where the Dask half of ``running`` lived before (so that older trees measure too)."""
SCORE_COMMAND: Final = f"{PACKAGE}.cli.score_command"


@dataclass(frozen=True, slots=True)
class Import:
    importer: str
    imported: str
    names: tuple[str, ...]
    line: int


def module_name(src: Path, path: Path) -> str:
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(src: Path) -> Iterator[Import]:
    """Every import of the package's own modules, by every module under ``src/evalscore``."""
    for path in sorted((src / PACKAGE).rglob("*.py")):
        importer = module_name(src, path)
        for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module == PACKAGE or node.module.startswith(f"{PACKAGE}."):
                    names = tuple(alias.name for alias in node.names)
                    yield Import(importer, _resolved(src, node.module, names), names, node.lineno)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith(f"{PACKAGE}."):
                        yield Import(importer, alias.name, (), node.lineno)


def _resolved(src: Path, module: str, names: tuple[str, ...]) -> str:
    """``from evalscore.x import y`` imports the module ``evalscore.x.y`` when y is one."""
    if len(names) == 1:
        candidate = f"{module}.{names[0]}"
        as_path = src / candidate.replace(".", "/")
        if as_path.with_suffix(".py").exists() or (as_path / "__init__.py").exists():
            return candidate
    return module


def floor_of(module: str) -> int:
    parts = module.split(".")
    if len(parts) == 1:
        room = "<face>"
    elif parts[1] == "__main__":
        room = "<main>"
    elif len(parts) == 2 and parts[1] not in set().union(*LAYERS):
        room = "<leaf>"
    else:
        room = parts[1]
    floor = next((number for number, rooms in enumerate(LAYERS) if room in rooms), None)
    if floor is None:
        raise SystemExit(f"{module}: its package {room} is on no floor; put it on one in LAYERS")
    return floor


def upward(imports: list[Import]) -> list[Import]:
    """The imports from a floor to a higher one."""
    return [item for item in imports if floor_of(item.imported) > floor_of(item.importer)]


def circles(imports: list[Import]) -> list[list[str]]:
    """The groups of modules that import each other, directly or through others (Tarjan's algorithm)."""
    graph: dict[str, set[str]] = {}
    for item in imports:
        if item.imported != item.importer:
            graph.setdefault(item.importer, set()).add(item.imported)
            graph.setdefault(item.imported, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for successor in sorted(graph[node]):
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def names_from_below(imports: list[Import], module: str) -> list[str]:
    """The classes and functions ``module`` takes from outside its own package (constants aside):
    each is a place where another floor's data or work passes through it."""
    package = module.rsplit(".", 1)[0]
    return sorted(
        {
            name
            for item in imports
            if item.importer == module and not item.imported.startswith(f"{package}.")
            for name in item.names
            if not name.isupper()
        }
    )


def main() -> int:
    src = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "src"
    imports = list(imports_of(src))
    modules = {item.importer for item in imports}
    running_up = upward(imports)
    groups = circles(imports)
    through = names_from_below(imports, SCORE_COMMAND)
    for item in running_up:
        print(f"runs up: {item.importer} (line {item.line}) imports {item.imported}")
    for group in groups:
        print(f"circle: {' <-> '.join(group)}")
    print(f"{len(imports)} imports among {len(modules)} modules: {len(running_up)} run up, {len(groups)} circle(s)")
    print(f"{SCORE_COMMAND} handles {len(through)} names from below the command line: {', '.join(through)}")
    return 1 if running_up or groups else 0


if __name__ == "__main__":
    sys.exit(main())
