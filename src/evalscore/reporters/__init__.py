"""Reporters render a result value to a string; the registry feeds ``--format``."""

from evalscore.reporters.registry import VALIDATION_REPORTERS, ReportStyle

__all__ = ["VALIDATION_REPORTERS", "ReportStyle"]
