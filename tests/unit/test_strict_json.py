"""The JSON reader: a repeated key, a nesting beyond the limit, NaN and bad bytes are errors with a place."""

from __future__ import annotations

import itertools

import pytest

from evalscore.inputs import strict_json
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


# --- where a repeated key is said to be ------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (
            b'{"a": 1, "a": 2}',
            "the top-level object repeats the key 'a' (readers disagree on which of its values counts)",
        ),
        (
            b'{"x": [{"k": 1, "k": 2}]}',
            "the object at /x/0 repeats the key 'k' (readers disagree on which of its values counts)",
        ),
    ],
)
def test_a_repeated_key_says_which_object_repeats_which_key(data: bytes, reason: str) -> None:
    assert error_of(data).reason == reason


def test_a_repeated_key_after_a_leading_newline_is_located_on_its_own_line() -> None:
    error = error_of(b'\n{"a": 1, "a": 2}')
    assert (error.code, error.line, error.column) == ("ES011", 2, 10)
    error = error_of(b'{"a": 1,\n\n "b": {"k": 1,\n  "k": 2}}')
    assert (error.code, error.line, error.column, error.pointer) == ("ES011", 4, 3, "/b")


def test_the_repeated_key_locator_gives_up_on_bytes_that_hold_no_key_before_the_place() -> None:
    # Where jiter says a repeated key's value starts: past the end, before a non-colon, or after a
    # colon that follows no key in any object. The error then falls back to jiter's own words.
    assert strict_json._locate_repeated_key(b'{"a": 1}', 9) is None
    assert strict_json._locate_repeated_key(b'{"a": 1}', 0) is None
    assert strict_json._locate_repeated_key(b'{"a" 1}', 5) is None
    assert strict_json._locate_repeated_key(b'{"a": 1, 2: 3}', 11) is None
    assert strict_json._locate_repeated_key(b'{"a": 1 "b": 2}', 12) is None  # "b" follows a value, not a comma
    assert strict_json._locate_repeated_key(b'{\\"a": 1}', 6) is None  # no unescaped opening quote
    assert strict_json._locate_repeated_key(b'{"a"\x0b: 1}', 6) is None  # \x0b is no JSON white space


def test_a_repeated_key_jiter_names_but_the_bytes_do_not_place_keeps_jiters_words_and_place() -> None:
    error = strict_json._syntax_error('Detected duplicate key "a" at line 1 column 3', b'{"a": 1}')
    assert (error.code, error.reason, error.line, error.column, error.pointer) == (
        "ES011",
        'duplicate key "a": an object repeats it',
        1,
        3,
        "",
    )


def test_an_error_message_with_no_place_is_not_json_with_no_place() -> None:
    error = strict_json._syntax_error("something jiter did not place", b"[]")
    assert (error.code, error.reason, error.line, error.column) == (
        "ES002",
        "something jiter did not place",
        None,
        None,
    )


def test_a_depth_error_says_where_the_first_container_too_many_opens() -> None:
    error = error_of(b"[" * (MAX_DEPTH + 1) + b"1" + b"]" * (MAX_DEPTH + 1))
    assert (error.code, error.line, error.column) == ("ES012", 1, MAX_DEPTH + 2)
    assert error.reason == "nested deeper than 200 arrays and objects, evalscore's limit"


@pytest.mark.parametrize(
    ("data", "reason", "line", "column"),
    [
        (b"x", "expected value", 1, 1),
        (b"[1 2]", "expected `,` or `]`", 1, 4),
        # jiter counts a newline as column 0 of the line it ends; a column is at least 1
        (b'"abc\n"', "control character (\\u0000-\\u001F) found while parsing a string", 2, 1),
        (b"[\n\n", "EOF while parsing a list", 3, 1),
    ],
)
def test_not_json_gives_jiters_reason_without_its_place_and_a_column_of_at_least_1(
    data: bytes, reason: str, line: int, column: int
) -> None:
    error = error_of(data)
    assert (error.code, error.reason, error.line, error.column) == ("ES002", reason, line, column)


@pytest.mark.parametrize(
    ("data", "line", "column", "byte"),
    [(b"\n\xff", 2, 1, "ff"), (b"a\nbc\nd\xfe", 3, 2, "fe"), (b"\xff", 1, 1, "ff"), (b"ab\xc3", 1, 3, "c3")],
)
def test_a_byte_that_is_not_utf8_is_placed_by_line_and_byte_column(
    data: bytes, line: int, column: int, byte: str
) -> None:
    error = strict_json.utf8_error(data)
    assert error is not None
    assert (error.code, error.line, error.column, error.reason) == (
        "ES004",
        line,
        column,
        f"invalid UTF-8 byte 0x{byte}",
    )


def test_utf8_text_has_no_utf8_error() -> None:
    assert strict_json.utf8_error("renée \u2028 \U0001f600".encode()) is None


# --- the helpers that find a repeated key's object --------------------------------------------


def _reference_opening_quote(data: bytes, close: int) -> int | None:
    """The last quote before ``close`` that an even run of backslashes (maybe none) precedes."""
    for index in range(close - 1, -1, -1):
        if data[index] == ord('"') and (len(data[:index]) - len(data[:index].rstrip(b"\\"))) % 2 == 0:
            return index
    return None


def test_the_opening_quote_is_the_last_one_no_odd_run_of_backslashes_escapes() -> None:
    checked = 0
    for length in range(1, 7):
        for letters in itertools.product(b'"\\a', repeat=length):
            data = bytes(letters)
            for close in (index for index, byte in enumerate(data) if byte == ord('"')):
                assert strict_json._opening_quote(data, close) == _reference_opening_quote(data, close), (data, close)
                checked += 1
    assert checked == sum(length * 3 ** (length - 1) for length in range(1, 7)) == 2005


def test_the_path_to_the_locator_is_none_where_the_last_members_do_not_lead_to_it() -> None:
    locator = strict_json._LOCATOR_KEY
    assert strict_json._path_to_locator({"a": [{"b": 1, locator: 0}]}) == ["a", 0]
    assert strict_json._path_to_locator({locator: 0}) == []
    for value in ([1], {"a": 1}, [], {}, [[]], 0, None):
        assert strict_json._path_to_locator(value) is None, value
