"""Text from a log or a path, made safe for the formats CI systems read (XML, workflow commands, Markdown).

Every one starts from ``printable``: control, bidirectional and separator characters shown as escapes,
so that nothing a log says is obeyed by a terminal, a runner or a renderer. Then each format's own
escaping: XML 1.0 cannot hold a lone surrogate (a JSON ``\\ud800`` escape); a GitHub workflow command
ends at a line break and reads ``%`` escapes; Markdown turns punctuation into markup and raw HTML.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from evalscore.json_output import dumps_text
from evalscore.printable import MESSAGE_LIMIT, printable, shortened
from evalscore.sources import located

if TYPE_CHECKING:
    from evalscore.scoring.report import ScoreReport, ViolationEntry

__all__ = ["located"]


def plain(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` printable, shortened in the middle past ``limit``, lone surrogates as ``\\udXXX``."""
    return shortened(text, limit).encode("utf-8", errors="backslashreplace").decode("utf-8")


def whole(text: str) -> str:
    """``text`` printable and whole (for values a machine reads back), lone surrogates escaped."""
    return printable(text).encode("utf-8", errors="backslashreplace").decode("utf-8")


_WORKFLOW_DATA: Final = str.maketrans({"%": "%25", "\r": "%0D", "\n": "%0A"})
_WORKFLOW_PROPERTY: Final = str.maketrans({"%": "%25", "\r": "%0D", "\n": "%0A", ":": "%3A", ",": "%2C"})


def workflow_data(text: str) -> str:
    """The message of a GitHub Actions workflow command: ``%``, CR and LF escaped as the runner reads them."""
    return text.translate(_WORKFLOW_DATA)


def workflow_property(text: str) -> str:
    """A property value (``file=``, ``title=``) of a workflow command: ``:`` and ``,`` escaped too."""
    return text.translate(_WORKFLOW_PROPERTY)


_MARKDOWN_SPECIAL: Final = re.compile(r"([\\`*_\[\]<>|~&])|^([#+\-])")


def markdown_text(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """Text shown as itself in Markdown (GitHub's): every character that could start emphasis, code,
    a link, raw HTML, an entity or a table cell's end is escaped with a backslash, and so is a ``#``,
    ``+`` or ``-`` that opens the text (a heading or a list inside a list item)."""
    return _MARKDOWN_SPECIAL.sub(lambda match: "\\" + match.group(), plain(text, limit))


def decision_headline(outcome: str, exit_code: int) -> tuple[str, str]:
    """The decision as a reader sees it: ``PASS``, ``FAIL``, ``NO DECISION`` (a refusal) or ``NOT GATED``
    (no criterion was given), and the exit code in brackets."""
    if outcome == "refused":
        return "NO DECISION", f"(refused, exit {exit_code})"
    if outcome == "not-gated":
        return "NOT GATED", f"(nothing was checked, exit {exit_code})"
    return outcome.upper(), f"(exit {exit_code})"


ReasonGroup = tuple[str, str, int, list[int]]
"""A reason's rate, code, how many violations of it were found, and the positions of those listed."""


def reason_groups(report: ScoreReport, shown: int) -> list[ReasonGroup]:
    """The first ``shown`` listed violations, grouped by reason in the report's order (mandated first),
    each group with the number found of its reason, listed or not."""
    found = (
        {reason.code: reason.count for reason in report.violation_counts.by_reason} if report.violation_counts else {}
    )
    groups: dict[str, ReasonGroup] = {}
    for position, item in enumerate(report.violations[:shown]):
        group = groups.setdefault(item.code, (item.rate, item.code, found.get(item.code, 0), []))
        group[3].append(position)
    return list(groups.values())


def violations_found(report: ScoreReport) -> int:
    """Every violation the report counts (``violation_counts.total``), listed or not."""
    return report.violation_counts.total if report.violation_counts else len(report.violations)


def step_place(item: ViolationEntry) -> str:
    """``run R, task T, step N`` of a violation."""
    return f"run {item.run_id}, task {item.task_id}, step {item.step_n}"


def json_value(value: object) -> str:
    """A recorded or re-derived value as compact JSON (``["g"]``, ``true``, ``null``)."""
    return dumps_text(value, indent=False).rstrip("\n")


def interval_text(interval: object) -> str:
    """``0.300-0.903`` (with an en dash) for a rate's interval; ``-`` when it has none (no data)."""
    low, high = getattr(interval, "low", None), getattr(interval, "high", None)
    if low is None or high is None:
        return "-"
    return f"{low:.3f}\u2013{high:.3f}"
