"""The reporters each command offers, by ``--format`` name."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from evalscore.reporters.score_json import render_score_json
from evalscore.reporters.score_text import render_score_text
from evalscore.reporters.validation_json import render_validation_json
from evalscore.reporters.validation_text import render_validation_text
from evalscore.scoring.report import ScoreReport
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

ScoreReporter = Callable[[ScoreReport, ReportStyle], str]

SCORE_REPORTERS: Final[dict[str, ScoreReporter]] = {
    "text": lambda report, style: render_score_text(report, color=style.color, width=style.width),
    "json": lambda report, style: render_score_json(report),
}
