"""Shared building blocks of the artifact models.

Every model is strict (no lax coercion: a string never becomes a number, a
number never becomes a timestamp, a bool never becomes a number) and forbids
unknown properties. Integers follow JSON Schema semantics: ``1.0`` is an
integer, ``true`` is not.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

CURRENT_SCHEMA_VERSION: Final = "1.0.1"
"""The contract version this package writes; see docs/VERSIONING.md."""

# ``(?![\s\S])`` instead of ``$``: Python's ``$`` also matches before a final
# newline, ECMA's does not; the lookahead means "end of text" in every engine
# the contract is checked with (jsonschema, jsonschema-rs, hypothesis).
END_OF_TEXT: Final = r"(?![\s\S])"
SEMVER_PATTERN: Final = r"^[0-9]+\.[0-9]+\.[0-9]+" + END_OF_TEXT
RFC3339_OFFSET_PATTERN: Final = (
    r"^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[Tt]"
    r"([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?"
    r"([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])" + END_OF_TEXT
)


def json_integer(value: Any) -> Any:
    """Accept an integral float as JSON Schema does; refuse a bool outright."""
    if isinstance(value, bool):
        raise PydanticCustomError("int_type", "Input should be a valid integer, not a boolean")
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


JsonInt = Annotated[int, BeforeValidator(json_integer)]
PositiveInt = Annotated[int, BeforeValidator(json_integer), Field(gt=0)]
NonNegativeInt = Annotated[int, BeforeValidator(json_integer), Field(ge=0)]
RubricScore = Annotated[Literal[0, 1, 2, 3], BeforeValidator(json_integer)]
ToolMatch = bool | Literal["partial"]

Dimension = Literal[
    "explainability",
    "agency_preservation",
    "long_term_capability",
    "calibration",
    "collaborative_performance",
]

# Exactly the characters ``str.isspace`` treats as white space, spelled out so
# that Python's re, Rust's regex and ECMA engines agree on the class.
WHITE_SPACE: Final = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)
HAS_NON_SPACE_PATTERN: Final = "[^" + WHITE_SPACE + "]"

OffsetTimestamp = Annotated[str, Field(pattern=RFC3339_OFFSET_PATTERN)]
OverseerId = Annotated[str, Field(pattern=HAS_NON_SPACE_PATTERN)]


class StrictModel(BaseModel):
    """Base of every artifact shape: strict, closed, self-documenting, immutable."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        frozen=True,
        use_attribute_docstrings=True,
        regex_engine="python-re",
    )
