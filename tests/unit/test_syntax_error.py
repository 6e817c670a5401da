"""The readers' one exception: its message says the reason and, when known, the line and column."""

from __future__ import annotations

import pytest

from evalscore.inputs.syntax_error import DocumentSyntaxError


@pytest.mark.parametrize(
    ("line", "column", "shown"),
    [(None, None, "bad"), (3, None, "bad (line 3)"), (3, 7, "bad (line 3 column 7)"), (None, 7, "bad")],
)
def test_the_message_says_as_much_of_the_place_as_is_known(line: int | None, column: int | None, shown: str) -> None:
    assert str(DocumentSyntaxError("ES003", "bad", line, column)) == shown


def test_a_syntax_error_is_a_value_error_carrying_its_reason() -> None:
    error = DocumentSyntaxError("ES002", "expected value", 1, 1, "/a")
    assert isinstance(error, ValueError)
    assert error.args == ("expected value",)
    assert (error.code, error.reason, error.line, error.column, error.pointer) == (
        "ES002",
        "expected value",
        1,
        1,
        "/a",
    )
    assert DocumentSyntaxError("ES002", "x").pointer == ""
