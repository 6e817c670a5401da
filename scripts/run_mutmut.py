"""``mutmut`` with one part of its type-check filter made fast: the command line is mutmut's own.

Usage: python scripts/run_mutmut.py run [MUTANT...]      (what ``mutmut run`` takes)

mutmut 3.8 checks every mutant with mypy at once (``type_check_command``, about 30 s here), then
finds the mutated function each error falls in by parsing each mutated file with libcst and its
position pass: about 4 minutes on this project's mutants, one core, with the other idle. Python's
own ``ast`` gives the same line ranges in seconds. This replaces that one search and nothing else:
the same errors, the same rule (the mutated function whose lines hold the error, its decorators
included; none found is mutmut's own error), the same result type. ``tests/unit/test_run_mutmut.py``
compares the two on a mutated file of mutmut's making.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import mutmut.__main__ as mutmut_main
from mutmut.configuration import config
from mutmut.mutation import file_mutation
from mutmut.mutation.file_mutation import FailedTypeCheckMutant, MutatedMethodLocation, group_by_path
from mutmut.type_checking import run_type_checker
from mutmut.utils.file_utils import change_cwd
from mutmut.utils.format_utils import get_mutant_name, is_mutated_method_name


def mutated_methods(path: Path, source: str) -> list[MutatedMethodLocation]:
    """Every mutated function or method of a mutated file, with its lines (decorators included), as
    mutmut's ``MutatedMethodsCollector`` finds them: anywhere but inside a function."""

    def visit(node: ast.AST) -> Iterator[MutatedMethodLocation]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                if is_mutated_method_name(child.name):
                    start = min([child.lineno, *(decorator.lineno for decorator in child.decorator_list)])
                    yield MutatedMethodLocation(path, child.name, start, child.end_lineno or child.lineno)
            else:
                yield from visit(child)

    return list(visit(ast.parse(source)))


def filter_mutants_with_type_checker() -> dict[str, FailedTypeCheckMutant]:
    """mutmut 3.8's ``filter_mutants_with_type_checker``, with ``mutated_methods`` in place of libcst."""
    with change_cwd(Path("mutants")):
        errors = run_type_checker(config().type_check_command)
        mutants_to_skip: dict[str, FailedTypeCheckMutant] = {}
        for path, errors_of_file in group_by_path(errors).items():
            methods = mutated_methods(path, path.read_text(encoding="utf-8"))
            if not methods:
                continue
            for error in errors_of_file:
                line = error.line_number
                mutant = next((m for m in methods if m.line_number_start <= line <= m.line_number_end), None)
                if mutant is None:
                    where = f"{error.file_path}:{line}"
                    raise RuntimeError(f"no mutant holds the type error {where} ({error.error_description})")
                name = get_mutant_name(path.relative_to(Path(".").absolute()), mutant.function_name)
                mutants_to_skip[name] = FailedTypeCheckMutant(method_location=mutant, name=name, error=error)
        return mutants_to_skip


def main() -> None:
    file_mutation.filter_mutants_with_type_checker = filter_mutants_with_type_checker
    mutmut_main.filter_mutants_with_type_checker = filter_mutants_with_type_checker  # type: ignore[attr-defined]
    sys.argv[0] = "mutmut"
    mutmut_main.cli()


if __name__ == "__main__":
    main()
