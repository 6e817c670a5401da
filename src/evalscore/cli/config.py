"""Defaults for ``evalscore score`` from ``[tool.evalscore]`` in the nearest ``pyproject.toml``.

The table's keys are the long option names without their dashes (``suite``, ``scoring-model``,
``min-mandated-compliance``, ``allow-empty``...). They become click's defaults for the command, so
an option given on the command line always wins. Paths (``suite``) are read relative to the
``pyproject.toml`` that names them. The nearest file is the first found from the working directory
upward. A key evalscore does not know, or a value of the wrong kind, is a usage error naming the
file: a typo must not silently leave a threshold unset.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Final

import click

from evalscore.printable import printable_path

NUMBER_KEYS: Final = frozenset(
    {
        "min-mandated-compliance",
        "min-ask-precision",
        "min-blocker-recall",
        "min-tool-match",
        "min-distraction-catch",
        "min-golden-truth-pass",
        "max-prefilled-ratio",
        "max-drop",
        "max-listed",
        "fast-approval-floor-ms",
        "fast-approval-ms-per-char",
        "confidence",
    }
)
"""Keys whose value is a number."""
SCORE_KEYS: Final = frozenset({*NUMBER_KEYS, "suite", "scoring-model", "allow-empty", "threshold-basis"})


def nearest_pyproject(start: Path) -> Path | None:
    """The first ``pyproject.toml`` found from ``start`` up to the root; None when there is none."""
    for directory in (start, *start.parents):
        candidate = directory / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def score_defaults(start: Path | None = None) -> dict[str, Any]:
    """The ``score`` command's defaults from ``[tool.evalscore]`` (empty without a table)."""
    path = nearest_pyproject(start or Path.cwd())
    if path is None:
        return {}
    shown = printable_path(str(path))
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8")).get("tool", {}).get("evalscore")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise click.UsageError(f"{shown}: cannot read [tool.evalscore]: {error}") from None
    if table is None:
        return {}
    if not isinstance(table, dict):
        raise click.UsageError(f"{shown}: [tool.evalscore] must be a table")
    return {_param(key, shown): _value(key, value, path.parent, shown) for key, value in table.items()}


def _param(key: str, shown: str) -> str:
    if key not in SCORE_KEYS:
        known = ", ".join(sorted(SCORE_KEYS))
        raise click.UsageError(f"{shown}: [tool.evalscore] has no key {key!r} (the keys are: {known})")
    return "suites" if key == "suite" else key.replace("-", "_")


def _value(key: str, value: Any, base: Path, shown: str) -> Any:
    if key == "suite":
        suites = [value] if isinstance(value, str) else value
        if not isinstance(suites, list) or not all(isinstance(suite, str) for suite in suites):
            raise click.UsageError(f"{shown}: [tool.evalscore] suite must be a path or a list of paths")
        return tuple(suite if suite == "-" else os.path.join(base, suite) for suite in suites)
    if key == "allow-empty":
        if not isinstance(value, bool):
            raise click.UsageError(f"{shown}: [tool.evalscore] allow-empty must be true or false")
        return value
    if key == "threshold-basis":
        if value not in ("point", "interval"):
            raise click.UsageError(f"{shown}: [tool.evalscore] threshold-basis must be point or interval")
        return value
    if key == "scoring-model":
        if value not in ("v1", "v2", "v3"):
            raise click.UsageError(f"{shown}: [tool.evalscore] scoring-model must be v1, v2 or v3")
        return value
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise click.UsageError(f"{shown}: [tool.evalscore] {key} must be a number")
    return value
