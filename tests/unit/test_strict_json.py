"""The JSON reader: a repeated key, a nesting beyond the limit, NaN and bad bytes are errors with a place."""

from __future__ import annotations

import pytest

from evalscore.inputs.strict_json import MAX_DEPTH, JsonSyntaxError, loads


def error_of(data: bytes) -> JsonSyntaxError:
    with pytest.raises(JsonSyntaxError) as caught:
        loads(data)
    return caught.value


@pytest.mark.parametrize(
    ("data", "pointer", "key", "line", "column"),
    [
        (b'{"resolution": "denied", "resolution": "approved"}', "", "resolution", 1, 26),
        (b'{"x": {"b": [{"c": 1, "c" : 2}]}}', "/x/b/0", "c", 1, 23),
        (b'{\n  "a": 1,\n  "a":\n    2\n}', "", "a", 3, 3),
        (b'{"a/b~": {"k": 1, "k": 2}}', "/a~1b~0", "k", 1, 19),
        (b'[{}, {"x": [1, {"": 1, "": {}}]}]', "/1/x/1", "", 1, 24),
        (b'{"\\u0061": 1, "a": 2}', "", "a", 1, 15),
        (b'{"q\\\\": 1, "q\\\\": 2}', "", "q\\", 1, 12),
        (b'{"a\\"b": 1, "a\\"b": 2}', "", 'a"b', 1, 13),
        (b'{"\xc3\xa9": 1, "\xc3\xa9": 2}', "", "\u00e9", 1, 11),  # columns count bytes
    ],
)
def test_a_repeated_key_names_its_object_pointer_the_key_and_where_the_repeat_starts(
    data: bytes, pointer: str, key: str, line: int, column: int
) -> None:
    error = error_of(data)
    assert (error.code, error.pointer, error.line, error.column) == ("ES011", pointer, line, column)
    assert repr(key) in error.reason


def test_a_key_repeated_only_in_different_objects_is_not_a_repeat() -> None:
    assert loads(b'{"a": {"k": 1}, "b": {"k": 2}, "k": [{"k": 1}, {"k": 2}]}')["k"][1] == {"k": 2}


def test_the_locator_key_in_a_log_cannot_mislead_the_pointer() -> None:
    data = b'{"a": {"\\u0000evalscore-locator-0000000000000000": 0}, "b": {"x": 1, "x": 2}}'
    assert error_of(data).pointer == "/b"


def test_a_value_may_sit_inside_max_depth_containers_and_not_one_more() -> None:
    assert MAX_DEPTH == 200
    assert loads(b"[" * MAX_DEPTH + b"1" + b"]" * MAX_DEPTH) is not None
    assert loads(b'{"a":' * MAX_DEPTH + b"1" + b"}" * MAX_DEPTH) is not None
    for deeper in (b"[" * (MAX_DEPTH + 1) + b"1" + b"]" * (MAX_DEPTH + 1), b'{"a":' * 1000 + b"1" + b"}" * 1000):
        error = error_of(deeper)
        assert error.code == "ES012"
        assert "200" in error.reason


@pytest.mark.parametrize("data", [b"[NaN]", b"[Infinity]", b"[-Infinity]", b'{"a": nan}'])
def test_nan_and_infinity_are_not_json(data: bytes) -> None:
    assert error_of(data).code == "ES002"


def test_bytes_that_are_not_utf8_are_located_at_the_first_bad_byte() -> None:
    error = error_of(b'{\n  "a": "ren\xe9e"\n}')
    assert (error.code, error.line, error.column) == ("ES004", 2, 12)


def test_a_lone_surrogate_escape_is_not_json() -> None:
    assert error_of(b'["\\ud800"]').code == "ES002"


def test_truncated_json_says_the_line_and_a_column_past_the_start() -> None:
    error = error_of(b'{"a": [1, 2')
    assert (error.code, error.line, error.column) == ("ES002", 1, 11)


def test_integers_of_any_size_are_read_exactly() -> None:
    assert loads(b"[18446744073709551617]") == [18446744073709551617]


def test_an_integer_longer_than_pythons_digit_limit_is_not_json_we_read() -> None:
    assert loads(b"[" + b"9" * 4300 + b"]") == [int("9" * 4300)]
    assert error_of(b"[" + b"9" * 4301 + b"]").code == "ES002"
