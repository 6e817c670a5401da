"""The reporters each command offers, by ``--format`` name.

Each reporter's module is imported when that format is asked for: a text report need not load
the JSON report's machinery, nor ``validate`` the score reports'.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from evalscore.scoring.report import ScoreReport
    from evalscore.validation.summary import ValidationSummary

# ruff: noqa: PLC0415 - every import below is deferred to the format's use, as the docstring says


@dataclass(frozen=True, slots=True)
class ReportStyle:
    """How a text report may look: colour (``--color``), width (the terminal's or ``COLUMNS``), how much
    it says (``-q`` -1, the default 0, ``-v`` 1)."""

    color: bool = False
    width: int = 100
    verbosity: int = 0


ValidationReporter = Callable[["ValidationSummary", ReportStyle], str]
ScoreReporter = Callable[["ScoreReport", ReportStyle], str]


def _validation_text(summary: ValidationSummary, style: ReportStyle) -> str:
    from evalscore.reporters.validation_text import render_validation_text

    return render_validation_text(summary, color=style.color, width=style.width, verbosity=style.verbosity)


def _validation_json(summary: ValidationSummary, style: ReportStyle) -> str:
    from evalscore.reporters.validation_json import render_validation_json

    return render_validation_json(summary)


def _score_text(report: ScoreReport, style: ReportStyle) -> str:
    from evalscore.reporters.score_text import render_score_text

    return render_score_text(report, color=style.color, width=style.width, verbosity=style.verbosity)


def _score_json(report: ScoreReport, style: ReportStyle) -> str:
    from evalscore.reporters.score_json import render_score_json

    return render_score_json(report)


def _validation_junit(summary: ValidationSummary, style: ReportStyle) -> str:
    from evalscore.reporters.validation_junit import render_validation_junit

    return render_validation_junit(summary)


def _validation_github(summary: ValidationSummary, style: ReportStyle) -> str:
    from evalscore.reporters.validation_github import render_validation_github

    return render_validation_github(summary)


def _validation_markdown(summary: ValidationSummary, style: ReportStyle) -> str:
    from evalscore.reporters.validation_markdown import render_validation_markdown

    return render_validation_markdown(summary)


def _validation_sarif(summary: ValidationSummary, style: ReportStyle) -> str:
    from evalscore.reporters.validation_sarif import render_validation_sarif

    return render_validation_sarif(summary)


def _score_junit(report: ScoreReport, style: ReportStyle) -> str:
    from evalscore.reporters.score_junit import render_score_junit

    return render_score_junit(report)


def _score_github(report: ScoreReport, style: ReportStyle) -> str:
    from evalscore.reporters.score_github import render_score_github

    return render_score_github(report)


def _score_markdown(report: ScoreReport, style: ReportStyle) -> str:
    from evalscore.reporters.score_markdown import render_score_markdown

    return render_score_markdown(report)


VALIDATION_REPORTERS: Final[dict[str, ValidationReporter]] = {
    "text": _validation_text,
    "json": _validation_json,
    "junit": _validation_junit,
    "github": _validation_github,
    "markdown": _validation_markdown,
    "sarif": _validation_sarif,
}
VALIDATION_FORMATS_WITH_DIGESTS: Final = frozenset({"json", "sarif"})
"""The ``validate`` reports that show each input's SHA-256: for the others it is not computed."""


def _score_sarif(report: ScoreReport, style: ReportStyle) -> str:
    from evalscore.reporters.score_sarif import render_score_sarif

    return render_score_sarif(report)


SCORE_REPORTERS: Final[dict[str, ScoreReporter]] = {
    "text": _score_text,
    "json": _score_json,
    "junit": _score_junit,
    "github": _score_github,
    "markdown": _score_markdown,
    "sarif": _score_sarif,
}
