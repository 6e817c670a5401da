"""The one table of ``scripts/bench.py``: a row per command and data shape, each with its target."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

RULE_CHAR = "-"


@dataclass(frozen=True, slots=True)
class Target:
    """A bound on a row's ratio: ``>=`` for speed against a floor, ``<=`` for cost ratios."""

    sense: Literal[">=", "<="]
    bound: float

    def met(self, ratio: float) -> bool:
        return ratio >= self.bound if self.sense == ">=" else ratio <= self.bound

    def __str__(self) -> str:
        return f"{self.sense}{self.bound:g}"


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the table; ``None`` prints as a dash, ``skipped`` replaces the figures."""

    command: str
    shape: str
    against: str
    seconds: float | None = None
    megabytes: float | None = None
    ratio: float | None = None
    target: Target | None = None
    rss_mb: float | None = None
    speedup: str = ""
    skipped: str = ""

    @property
    def verdict(self) -> str:
        if self.target is None or self.ratio is None:
            return ""
        return "pass" if self.target.met(self.ratio) else "FAIL"


COLUMNS: tuple[tuple[str, int], ...] = (
    ("command", -15),
    ("data shape", -40),
    ("time s", 8),
    ("MB/s", 8),
    ("against", -14),
    ("ratio", 7),
    ("target", 7),
    ("", -5),
    ("peak RSS MB", 12),
    ("-j1/all", 8),
)


def _cell(text: str, width: int) -> str:
    return f"{text:<{-width}}" if width < 0 else f"{text:>{width}}"


def _line(cells: list[str]) -> str:
    return " ".join(_cell(text, width) for text, (_, width) in zip(cells, COLUMNS, strict=True)).rstrip()


def _number(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _speed(row: Row) -> float | None:
    if row.seconds is None or row.megabytes is None or row.seconds <= 0:
        return None
    return row.megabytes / row.seconds


def cells(row: Row) -> list[str]:
    if row.skipped:
        return [row.command, row.shape, "", "", row.against, "", str(row.target or ""), "", "", row.skipped]
    return [
        row.command,
        row.shape,
        _number(row.seconds, 2 if (row.seconds or 0) >= 1 else 3),
        _number(_speed(row), 1),
        row.against,
        _number(row.ratio, 2),
        str(row.target or ""),
        " " + row.verdict,
        _number(row.rss_mb, 0),
        row.speedup,
    ]


def render(rows: list[Row]) -> str:
    """Header, rule, one line per row, rule; then a line counting the targets met."""
    header = _line([name for name, _ in COLUMNS])
    rule = RULE_CHAR * len(header)
    judged = [row for row in rows if row.verdict]
    met = sum(1 for row in judged if row.verdict == "pass")
    summary = f"targets met: {met} of {len(judged)}" + ("" if met == len(judged) else " (FAIL marks the others)")
    return "\n".join([header, rule, *(_line(cells(row)) for row in rows), rule, summary])
