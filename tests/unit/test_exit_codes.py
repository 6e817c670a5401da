"""One table of exit codes (src/evalscore/exit_codes.py): each command's help and README's table say it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from evalscore.cli.main import main
from evalscore.exit_codes import COMMANDS, EXIT_CODES

README = Path(__file__).resolve().parents[2] / "README.md"


def _codes_in_help(command: str) -> set[int]:
    shown = CliRunner().invoke(main, [*command.split(), "--help"], terminal_width=200)
    assert shown.exit_code == 0, shown.output
    sentence = re.search(r"Exit (.*?)\n\s*\nOptions:", shown.output, re.DOTALL)
    assert sentence is not None, shown.output
    return {int(number) for number in re.findall(r"\b\d+\b", sentence.group(1))}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_each_command_s_help_names_exactly_the_codes_the_table_gives_it(command: str) -> None:
    assert _codes_in_help(command) == set(COMMANDS[command])


def test_the_table_has_eight_distinct_codes_and_every_command_s_code_is_in_it() -> None:
    codes = [entry.code for entry in EXIT_CODES]
    assert codes == sorted(set(codes))
    assert len(codes) == 8
    assert len(COMMANDS) == 7
    assert {code for given in COMMANDS.values() for code in given} <= set(codes)


def test_readme_s_table_is_the_table() -> None:
    text = README.read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\d+)` \| (.*?) \| (.*?) \|$", text, re.MULTILINE)
    assert len(rows) == len(EXIT_CODES)
    for (code, meaning, named_by), entry in zip(rows, EXIT_CODES, strict=True):
        assert (int(code), meaning) == (entry.code, entry.meaning)
        commands = [name for name, given in COMMANDS.items() if entry.code in given]
        assert named_by == (", ".join(f"`{name}`" for name in commands) or "any command")
