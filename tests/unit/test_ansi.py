"""Colour in the text reports: ``--color``, ``NO_COLOR``, ``FORCE_COLOR`` and whether stdout is a terminal."""

from __future__ import annotations

import pytest
from _terminals import NotATerminal, Terminal

from evalscore.cli.common import colour_wanted, report_style, report_width
from evalscore.reporters.ansi import painted
from evalscore.reporters.validation_text import render_validation_text
from evalscore.validation.summary import ValidationSummary


def set_env(monkeypatch: pytest.MonkeyPatch, name: str, value: str | None) -> None:
    if value is None:
        monkeypatch.delenv(name, raising=False)
    else:
        monkeypatch.setenv(name, value)


@pytest.mark.parametrize(
    ("choice", "no_color", "force_color", "terminal", "wanted"),
    [
        ("auto", None, None, True, True),
        ("auto", None, None, False, False),
        ("auto", "1", None, True, False),
        ("auto", "0", None, True, False),  # NO_COLOR set to anything but empty turns colour off
        ("auto", "", None, True, True),  # an empty NO_COLOR counts as unset
        ("auto", None, "1", False, True),
        ("auto", None, "", False, False),
        ("auto", "1", "1", True, False),  # NO_COLOR wins over FORCE_COLOR
        ("always", "1", None, False, True),  # the command line wins over the environment
        ("never", None, "1", True, False),
    ],
)
def test_colour_follows_the_option_then_no_color_then_force_color_then_the_terminal(
    monkeypatch: pytest.MonkeyPatch,
    choice: str,
    no_color: str | None,
    force_color: str | None,
    terminal: bool,
    wanted: bool,
) -> None:
    set_env(monkeypatch, "NO_COLOR", no_color)
    set_env(monkeypatch, "FORCE_COLOR", force_color)
    stream = Terminal() if terminal else NotATerminal()
    assert colour_wanted(choice, stream) is wanted  # type: ignore[arg-type]


@pytest.mark.parametrize(("columns", "width"), [("60", 60), ("137", 137), ("", 100), ("x", 100), ("5", 100)])
def test_the_width_of_a_report_not_on_a_terminal_follows_columns(
    monkeypatch: pytest.MonkeyPatch, columns: str, width: int
) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    assert report_width(NotATerminal()) == width


def test_only_the_text_format_is_styled_and_every_format_keeps_the_verbosity(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "77")
    assert report_style("json", "always", 1).color is False
    assert report_style("json", "always", 1).verbosity == 1
    text = report_style("text", "auto", -1)
    assert (text.color, text.width, text.verbosity) == (True, 77, -1)


def test_a_painted_span_is_wrapped_in_its_code_and_a_reset() -> None:
    assert painted("INVALID", "bold red", True) == "\x1b[1;31mINVALID\x1b[0m"
    assert painted("ok", "green", True) == "\x1b[32mok\x1b[0m"
    assert painted("ok", "green", False) == "ok"


def test_the_validate_report_is_coloured_only_when_asked() -> None:
    summary = ValidationSummary(strict=False, max_findings=3)
    assert render_validation_text(summary, color=True).startswith("\x1b[1;31mNO ARTIFACT FOUND\x1b[0m")
    assert render_validation_text(summary, color=False).startswith("NO ARTIFACT FOUND (no .json")
