"""scripts/run_mutmut.py finds the mutated functions of a mutated file exactly where mutmut's own
libcst pass does (the one search it replaces), on a file of mutmut's own making."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
from mutmut.mutation.file_mutation import MutatedMethodsCollector, mutate_file_contents

from module_files import load_module

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "run_mutmut.py"
SOURCE = """
import functools


def limit(value: int, cap: int = 10) -> bool:
    return value > cap and value != 0


class Box:
    def size(self, items: list[int]) -> int:
        return len(items) + 1

    @property
    def empty(self) -> bool:
        return False

    async def wait(self) -> int:
        return 3


if True:
    def inside_if(text: str) -> str:
        return text + "!"


def outer() -> int:
    def inner() -> int:
        return 1 + 2

    return inner() * 2
"""


def test_the_ast_search_finds_every_mutated_function_and_its_lines_as_libcst_does(tmp_path: Path) -> None:
    mutated = mutate_file_contents("pkg/mod.py", SOURCE).code
    path = tmp_path / "mod.py"
    collector = MutatedMethodsCollector(path)
    cst.MetadataWrapper(cst.parse_module(mutated)).visit(collector)
    run_mutmut = load_module("run_mutmut", SCRIPT)
    found = run_mutmut.mutated_methods(path, mutated)
    assert found == collector.found_mutants
    assert len(found) == 17
    assert {location.function_name.partition("__mutmut_")[0] for location in found} == {
        "x_limit",
        "xǁBoxǁsize",
        "xǁBoxǁwait",
        "x_outer",
    }
