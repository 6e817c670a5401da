"""What a mapped Run line cannot carry, and numbers that are not finite, found without recursion."""

from __future__ import annotations

from typing import Any

import pytest

from evalscore.importers.shared.value_checks import first_unwritable, walk, writable


def nested(depth: int) -> Any:
    """A scalar inside ``depth`` arrays."""
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


def test_a_value_inside_the_limit_of_arrays_and_objects_is_writable_and_one_more_is_not() -> None:
    assert first_unwritable({"a": nested(199)}, 200) is None
    assert first_unwritable({"a": nested(200)}, 200) == (
        "the value at /a" + "/0" * 200 + " is nested deeper than 200 arrays and objects"
    )


def test_an_empty_array_counts_as_a_value_inside_its_arrays() -> None:
    innermost_inside_200: Any = []
    for _ in range(200):
        innermost_inside_200 = [innermost_inside_200]
    assert first_unwritable(innermost_inside_200, 200) is None
    assert first_unwritable([innermost_inside_200], 200) == "the value at " + "/0" * 201 + (
        " is nested deeper than 200 arrays and objects"
    )


def test_depth_is_measured_without_recursion_however_deep() -> None:
    assert first_unwritable(nested(100_000), 200) is not None


@pytest.mark.parametrize("number", [2**64 - 1, -(2**63), 0, True, 1.5e308])
def test_integers_orjson_writes_and_other_numbers_are_writable(number: object) -> None:
    assert first_unwritable({"n": [number]}, 200) is None


@pytest.mark.parametrize("number", [2**64, -(2**63) - 1, 10**400])
def test_an_integer_beyond_64_bits_is_not_writable_and_is_named(number: int) -> None:
    assert first_unwritable({"n": [1, number]}, 200) == (
        "the integer at /n/1 needs more than 64 bits, which the JSONL writer cannot hold"
    )


@pytest.mark.parametrize("number", [float("inf"), float("-inf"), float("nan")])
def test_a_number_that_is_not_finite_is_not_writable_and_is_named(number: float) -> None:
    assert first_unwritable({"a": [1.0, {"b~/": number}]}, 200) == (
        "the number at /a/1/b~0~1 is not finite (beyond the range of a double), which the JSONL writer would make null"
    )


def test_finite_numbers_and_text_are_writable() -> None:
    assert first_unwritable({"a": [1.0, 2, -1e308, 5e-324, "inf", None, False]}, 200) is None


@pytest.mark.parametrize(
    "value",
    [nested(201), {"a": float("nan")}, [[2**64]], {"a": [1, {"b": -(2**63) - 1}]}],
    ids=["deep", "nan", "big", "small"],
)
def test_the_fast_path_and_the_named_walk_agree(value: Any) -> None:
    assert not writable(value, 200)
    assert first_unwritable(value, 200) is not None


def test_the_walk_visits_every_value_in_document_order_with_its_path_and_depth() -> None:
    assert list(walk({"a": [1, {"b": 2}], "c": 3})) == [
        ((), {"a": [1, {"b": 2}], "c": 3}, 0),
        (("a",), [1, {"b": 2}], 1),
        (("a", 0), 1, 2),
        (("a", 1), {"b": 2}, 2),
        (("a", 1, "b"), 2, 3),
        (("c",), 3, 1),
    ]
