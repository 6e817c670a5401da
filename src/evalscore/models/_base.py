"""Shared building blocks of the artifact models.

Every model is strict (no lax coercion: a string never becomes a number, a
number never becomes a timestamp, a bool never becomes a number) and forbids
unknown properties. Integers follow JSON Schema semantics: ``1.0`` is an
integer, ``true`` is not.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import PydanticCustomError, core_schema

from evalscore.instants import END_OF_TEXT, RFC3339_OFFSET_PATTERN

CURRENT_SCHEMA_VERSION: Final = "1.1.0"
"""The contract version this package writes; see docs/VERSIONING.md."""

SEMVER_PATTERN: Final = r"^[0-9]+\.[0-9]+\.[0-9]+" + END_OF_TEXT


def json_integer(value: Any) -> Any:
    """Accept an integral float as JSON Schema does; refuse a bool outright."""
    if isinstance(value, bool):
        raise PydanticCustomError("int_type", "Input should be a valid integer, not a boolean")
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _integral_float(value: float) -> int:
    if value.is_integer():
        return int(value)
    raise PydanticCustomError("int_from_float", "Input should be a valid integer, got a number with a fractional part")


@dataclass(frozen=True, slots=True)
class JsonInteger:
    """A JSON Schema ``integer``: an int, or a float with no fractional part; never a bool or a string.

    Built as a core-schema union so that the common case (an int) is checked in
    pydantic-core without a call into Python.
    """

    ge: int | None = None
    gt: int | None = None

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.union_schema(
            [
                core_schema.int_schema(strict=True, ge=self.ge, gt=self.gt),
                core_schema.chain_schema(
                    [
                        core_schema.float_schema(strict=True, ge=self.ge, gt=self.gt),
                        core_schema.no_info_plain_validator_function(_integral_float),
                    ]
                ),
            ],
            mode="left_to_right",
            custom_error_type="int_type",
        )

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        json_schema: dict[str, Any] = {"type": "integer"}
        if self.ge is not None:
            json_schema["minimum"] = self.ge
        if self.gt is not None:
            json_schema["exclusiveMinimum"] = self.gt
        return json_schema


@dataclass(frozen=True, slots=True)
class JsonNumber:
    """A JSON Schema ``number``: an int (kept exact, however large) or a finite float; never a bool.

    Pydantic's strict ``float`` turns an int into a float and so refuses one beyond the float
    range, which JSON Schema accepts; ints are therefore checked first and kept as ints.
    """

    ge: float | None = None
    le: float | None = None

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.union_schema(
            [
                core_schema.int_schema(
                    strict=True,
                    ge=None if self.ge is None else math.ceil(self.ge),
                    le=None if self.le is None else math.floor(self.le),
                ),
                core_schema.float_schema(strict=True, ge=self.ge, le=self.le, allow_inf_nan=False),
            ],
            mode="left_to_right",
            custom_error_type="float_type",
        )

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        json_schema: dict[str, Any] = {"type": "number"}
        if self.ge is not None:
            json_schema["minimum"] = self.ge
        if self.le is not None:
            json_schema["maximum"] = self.le
        return json_schema


Number = Annotated[float, JsonNumber()]
NonNegativeNumber = Annotated[float, JsonNumber(ge=0)]
PositiveInt = Annotated[int, JsonInteger(gt=0)]
NonNegativeInt = Annotated[int, JsonInteger(ge=0)]
RubricScore = Annotated[Literal[0, 1, 2, 3], BeforeValidator(json_integer)]

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
        regex_engine="python-re",
    )
