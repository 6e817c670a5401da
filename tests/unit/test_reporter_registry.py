"""The reporter tables (reporters/registry.py): every entry names a render function that exists, and
each command offers exactly its table's formats."""

from __future__ import annotations

import importlib

import pytest
from click.testing import CliRunner

from evalscore.cli.main import main
from evalscore.reporters.registry import SCORE_FORMATS, VALIDATION_FORMATS, Format


@pytest.mark.parametrize("entry", [*VALIDATION_FORMATS.values(), *SCORE_FORMATS.values()], ids=repr)
def test_each_format_names_a_render_function_of_its_module(entry: Format) -> None:
    module = importlib.import_module(f"evalscore.reporters.{entry.module}")
    assert callable(getattr(module, entry.function))


@pytest.mark.parametrize(("command", "table"), [("validate", VALIDATION_FORMATS), ("score", SCORE_FORMATS)])
def test_each_command_offers_exactly_its_table_s_formats(command: str, table: dict[str, Format]) -> None:
    shown = CliRunner().invoke(main, [command, "--help"], terminal_width=200)
    assert f"--format [{'|'.join(sorted(table))}]" in shown.output
    assert len(table) == 6
