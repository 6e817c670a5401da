"""The closed sets of names the artifacts use, as plain ``Literal`` types, without pydantic.

The models declare their fields with these, and the scoring code that runs in forked workers reads
them without importing the models: a worker that scores checked dicts never needs pydantic.
"""

from __future__ import annotations

from typing import Final, Literal

ScoringModel = Literal["v1", "v2", "v3"]
"""The gate rules a run's auto scores follow (``scoring_model``)."""

DEFAULT_MODEL: Final[ScoringModel] = "v3"
"""evalscore's scoring model for re-derivation."""

ToolMatch = bool | Literal["partial"]

Dimension = Literal[
    "explainability",
    "agency_preservation",
    "long_term_capability",
    "calibration",
    "collaborative_performance",
]
"""The review dimensions a reviewer grades."""
