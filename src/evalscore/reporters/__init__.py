"""Reporters render a result value to a string; the registry feeds ``--format``."""

from evalscore.reporters.registry import SCORE_REPORTERS, VALIDATION_REPORTERS, ReportStyle

__all__ = ["SCORE_REPORTERS", "VALIDATION_REPORTERS", "ReportStyle"]
