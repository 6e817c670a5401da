"""The reporters each command offers, by ``--format`` name: one table per command.

Each reporter's module is imported when that format is asked for: a text report need not load
the JSON report's machinery, nor ``validate`` the score reports'.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from evalscore.scoring.report import ScoreReport
    from evalscore.validation.summary import ValidationSummary


@dataclass(frozen=True, slots=True)
class ReportStyle:
    """How a text report may look: colour (``--color``), width (the terminal's or ``COLUMNS``), how much
    it says (``-q`` -1, the default 0, ``-v`` 1)."""

    color: bool = False
    width: int = 100
    verbosity: int = 0


ValidationReporter = Callable[["ValidationSummary", ReportStyle], str]
ScoreReporter = Callable[["ScoreReport", ReportStyle], str]


@dataclass(frozen=True, slots=True)
class Format:
    """One ``--format``: the reporter module under ``evalscore.reporters`` and its render function,
    which takes the report's style (``styled``: the text reports) or the value alone."""

    module: str
    function: str
    styled: bool = False


VALIDATION_FORMATS: Final[dict[str, Format]] = {
    "text": Format("validation_text", "render_validation_text", styled=True),
    "json": Format("validation_json", "render_validation_json"),
    "junit": Format("validation_junit", "render_validation_junit"),
    "github": Format("validation_github", "render_validation_github"),
    "markdown": Format("validation_markdown", "render_validation_markdown"),
    "sarif": Format("validation_sarif", "render_validation_sarif"),
}
SCORE_FORMATS: Final[dict[str, Format]] = {
    "text": Format("score_text", "render_score_text", styled=True),
    "json": Format("score_json", "render_score_json"),
    "junit": Format("score_junit", "render_score_junit"),
    "github": Format("score_github", "render_score_github"),
    "markdown": Format("score_markdown", "render_score_markdown"),
    "sarif": Format("score_sarif", "render_score_sarif"),
}
"""``score``'s formats; the HTML page is not one of them: it is a file of its own (``--html``,
``evalscore report``), written by ``reporters.score_html`` and needing the ``html`` extra."""
VALIDATION_FORMATS_WITH_DIGESTS: Final = frozenset({"json", "sarif"})
"""The ``validate`` reports that show each input's SHA-256: for the others it is not computed."""


def _deferred(entry: Format) -> Callable[[Any, ReportStyle], str]:
    """The format's render function, its module imported at the first report in that format."""

    def render(value: Any, style: ReportStyle) -> str:
        function = getattr(importlib.import_module(f"evalscore.reporters.{entry.module}"), entry.function)
        if entry.styled:
            rendered = function(value, color=style.color, width=style.width, verbosity=style.verbosity)
        else:
            rendered = function(value)
        assert isinstance(rendered, str)
        return rendered

    return render


VALIDATION_REPORTERS: Final[dict[str, ValidationReporter]] = {
    name: _deferred(entry) for name, entry in VALIDATION_FORMATS.items()
}
SCORE_REPORTERS: Final[dict[str, ScoreReporter]] = {name: _deferred(entry) for name, entry in SCORE_FORMATS.items()}
