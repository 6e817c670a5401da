"""The reporters each command offers, by ``--format`` name."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from evalscore.reporters.validation_json import render_validation_json
from evalscore.reporters.validation_text import render_validation_text
from evalscore.validation.summary import ValidationSummary


@dataclass(frozen=True, slots=True)
class ReportStyle:
    """How a text report may look: colour only on a terminal, a fixed width for snapshots."""

    color: bool = False
    width: int = 100


ValidationReporter = Callable[[ValidationSummary, ReportStyle], str]

VALIDATION_REPORTERS: Final[dict[str, ValidationReporter]] = {
    "text": lambda summary, style: render_validation_text(summary, color=style.color, width=style.width),
    "json": lambda summary, style: render_validation_json(summary),
}
