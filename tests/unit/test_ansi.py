"""Colour in the plain-text reports: SGR codes only when asked for, and never under NO_COLOR."""

from __future__ import annotations

import pytest

from evalscore.reporters.ansi import colour_wanted, painted
from evalscore.reporters.validation_text import render_validation_text
from evalscore.validation.summary import ValidationSummary


@pytest.mark.parametrize(("no_color", "wanted"), [(None, True), ("", True), ("1", False), ("0", False)])
def test_no_color_set_to_anything_turns_colour_off(
    monkeypatch: pytest.MonkeyPatch, no_color: str | None, wanted: bool
) -> None:
    if no_color is None:
        monkeypatch.delenv("NO_COLOR", raising=False)
    else:
        monkeypatch.setenv("NO_COLOR", no_color)
    assert colour_wanted(True) is wanted
    assert colour_wanted(False) is False


def test_a_painted_span_is_wrapped_in_its_code_and_a_reset() -> None:
    assert painted("INVALID", "bold red", True) == "\x1b[1;31mINVALID\x1b[0m"
    assert painted("ok", "green", True) == "\x1b[32mok\x1b[0m"
    assert painted("ok", "green", False) == "ok"


def test_the_validate_report_is_coloured_only_when_asked_and_no_color_is_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    summary = ValidationSummary(strict=False, max_findings=3)
    assert render_validation_text(summary, color=True).startswith("\x1b[1;31mNO ARTIFACT FOUND\x1b[0m")
    assert render_validation_text(summary, color=False).startswith("NO ARTIFACT FOUND (no .json")
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b" not in render_validation_text(summary, color=True)
