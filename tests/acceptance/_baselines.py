"""Earlier score reports made from a current one, for the tests of ``--baseline``."""

from __future__ import annotations

import copy
from typing import Any

from evalscore.scoring.report import RATE_NAMES


def earlier_report(report: dict[str, Any], *, only: bool = False, **counts: tuple[float, float]) -> dict[str, Any]:
    """A copy of ``report`` with the given rates' counts (numerator, denominator) and the rates that
    agree with them (a baseline must agree with itself); ``only``: every other rate made null (0/0),
    so that it is not compared."""
    earlier = copy.deepcopy(report)
    if only:
        for name in RATE_NAMES:
            earlier["rates"][name] = None
            earlier["counts"][name].update(numerator=0, denominator=0, interval=None)
    for name, (numerator, denominator) in counts.items():
        earlier["rates"][name] = numerator / denominator
        earlier["counts"][name].update(numerator=numerator, denominator=denominator)
    return earlier
