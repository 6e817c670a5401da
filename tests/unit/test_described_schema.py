"""The published schemas describe each field by its attribute docstring, read when a schema is built,
never while the models are made (pydantic's ``use_attribute_docstrings`` costs every command's start-up)."""

from __future__ import annotations

from typing import Generic, TypeVar

import pydantic
from pydantic import BaseModel, Field

import evalscore.ledger.record
import evalscore.models
import evalscore.scoring.report
import evalscore.validation.report
from evalscore.described_schema import DescribedJsonSchema, attribute_docstrings, field_docstring


class Parent(BaseModel):
    """A parent."""

    plain: int
    """What plain is."""
    undocumented: int
    told: int = Field(description="said in Field")
    """not this one"""
    redeclared: int
    """the parent's word"""
    _private = 3
    """not a field: no description"""


class Child(Parent):
    """A child."""

    redeclared: int
    extra: str
    """
        An extra,
        over two lines.
    """


T = TypeVar("T")


class Box(BaseModel, Generic[T]):
    item: T
    """The boxed item."""


class Holder(BaseModel):
    inner: Child
    """What it holds."""
    boxed: Box[int]
    """A box of one number."""


class ReadHere(BaseModel):
    inner: Child
    """What it holds."""
    more: int
    """One more."""
    told: int = Field(description="said in Field")
    """not this one"""
    boxed: Box[int] | None = None
    """Maybe a box."""


class ReadByPydantic(BaseModel):
    model_config = pydantic.ConfigDict(use_attribute_docstrings=True)

    inner: Child
    """What it holds."""
    more: int
    """One more."""
    told: int = Field(description="said in Field")
    """not this one"""
    boxed: Box[int] | None = None
    """Maybe a box."""


def test_a_docstring_under_an_annotated_attribute_describes_it_as_pydantic_would() -> None:
    assert attribute_docstrings(Parent) == {
        "plain": "What plain is.",
        "told": "not this one",
        "redeclared": "the parent's word",
    }
    assert attribute_docstrings(Child) == {"extra": "An extra,\nover two lines."}
    assert field_docstring(Child, "plain") == "What plain is."
    assert field_docstring(Child, "redeclared") is None  # redeclared without a word: pydantic gives none
    assert field_docstring(Box[int], "item") == "The boxed item."


def test_the_schema_carries_each_description_where_pydantic_puts_it() -> None:
    schema = Holder.model_json_schema(schema_generator=DescribedJsonSchema)
    child = schema["$defs"]["Child"]["properties"]
    assert child["plain"]["description"] == "What plain is."
    assert child["told"]["description"] == "said in Field"
    assert "description" not in child["undocumented"]
    assert "description" not in child["redeclared"]
    assert child["extra"]["description"] == "An extra,\nover two lines."
    assert schema["properties"]["inner"] == {"$ref": "#/$defs/Child", "description": "What it holds."}
    assert schema["$defs"]["Box_int_"]["properties"]["item"]["description"] == "The boxed item."
    assert len(child) == 5


def test_the_same_schema_pydantic_gives_when_it_reads_the_docstrings_itself() -> None:
    ours = ReadHere.model_json_schema(schema_generator=DescribedJsonSchema)
    theirs = ReadByPydantic.model_json_schema()
    assert theirs["properties"]["more"]["description"] == "One more."  # pydantic found it through the frames
    assert ours["properties"] == theirs["properties"]  # the nested models are not pydantic's to read here
    assert len(ours["properties"]) == 4


def test_no_model_reads_its_docstrings_while_it_is_made() -> None:
    bases = [
        evalscore.models.Run,
        evalscore.scoring.report.ScoreReport,
        evalscore.validation.report.ValidationReport,
        evalscore.ledger.record.LedgerRecord,
    ]
    assert [base.model_config.get("use_attribute_docstrings", False) for base in bases] == [False] * 4
    assert evalscore.models.Run.model_fields["run_id"].description is None
