"""The suite reader on hostile YAML: each refusal at its boundary, with its code, line, column and pointer."""

from __future__ import annotations

import inspect
import json
import math
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from evalscore.finding_codes import REPEATED_KEY
from evalscore.inputs import yaml_loader
from evalscore.inputs.strict_json import MAX_DEPTH, loads
from evalscore.inputs.syntax_error import DocumentSyntaxError
from evalscore.inputs.yaml_loader import MAX_EXPANDED_NODES, YamlTooLargeError, load_yaml

ROOT = Path(__file__).resolve().parents[2]
FULL_SUITE = (ROOT / "fixtures" / "valid" / "eval-suite" / "full.yaml").read_bytes()


def error_of(data: bytes) -> DocumentSyntaxError:
    with pytest.raises(DocumentSyntaxError) as raised:
        load_yaml(data)
    return raised.value


def where(error: DocumentSyntaxError) -> tuple[str, int | None, int | None, str]:
    return error.code, error.line, error.column, error.pointer


def zeros(count: int) -> str:
    return "/0" * count


# --- Depth: no value inside more than MAX_DEPTH sequences and mappings, as in JSON -----------------


def flow_sequences(depth: int, inner: bytes = b"1") -> bytes:
    return b"[" * depth + inner + b"]" * depth


def block_sequences(depth: int) -> bytes:
    return b"- " * depth + b"x\n"


def block_mappings(depth: int) -> bytes:
    return b"".join(b" " * level + b"a:\n" for level in range(depth)) + b" " * depth + b"x\n"


def test_the_depth_limit_is_the_json_readers() -> None:
    assert MAX_DEPTH == 200


def test_a_value_inside_200_flow_sequences_is_read() -> None:
    value = load_yaml(flow_sequences(200))
    for _ in range(200):
        (value,) = value
    assert value == 1


def test_a_value_inside_201_flow_sequences_is_too_deep_at_its_place() -> None:
    assert where(error_of(flow_sequences(201))) == ("ES012", 1, 202, zeros(201))


def test_an_empty_collection_inside_200_others_is_read_as_json_reads_it() -> None:
    for document in (flow_sequences(201, b""), b'{"a": ' * 200 + b"{}" + b"}" * 200):
        assert load_yaml(document) == loads(document)


def test_flow_mappings_201_deep_are_too_deep() -> None:
    assert load_yaml(b"{a: " * 200 + b"1" + b"}" * 200) is not None
    assert where(error_of(b"{a: " * 201 + b"1" + b"}" * 201)) == ("ES012", 1, 805, "/a" * 201)


@pytest.mark.parametrize("depth", [1000, 100_000])
def test_flow_nesting_1000_deep_is_too_deep_without_recursion(depth: int) -> None:
    # The scanner refuses the bracket opened inside 201 others; the pointer is still the value's.
    assert where(error_of(b"[" * depth)) == ("ES012", 1, 202, zeros(201))
    assert where(error_of(b"a:\n  - x\n  - " + b"[" * depth)) == ("ES012", 3, 204, "/a/1" + zeros(199))


def test_block_sequences_at_the_depth_limit() -> None:
    value = load_yaml(block_sequences(200))
    for _ in range(200):
        (value,) = value
    assert value == "x"
    assert where(error_of(block_sequences(201))) == ("ES012", 1, 403, zeros(201))
    assert where(error_of(block_sequences(1000))) == ("ES012", 1, 403, zeros(201))


def test_block_mappings_at_the_depth_limit() -> None:
    value = load_yaml(block_mappings(200))
    for _ in range(200):
        value = value["a"]
    assert value == "x"
    assert where(error_of(block_mappings(201))) == ("ES012", 202, 202, "/a" * 201)
    assert where(error_of(block_mappings(1000))) == ("ES012", 202, 202, "/a" * 201)


def test_an_alias_counts_the_depth_of_what_it_names() -> None:
    anchor = b"a: &a [[[[1]]]]\n"  # its 1 sits inside 4 sequences
    assert load_yaml(anchor + b"b: " + flow_sequences(195, b"*a"))["a"] == [[[[1]]]]
    error = error_of(anchor + b"b: " + flow_sequences(196, b"*a"))
    assert where(error) == ("ES012", 2, 200, "/b" + zeros(196))
    assert "deeper than 200" in error.reason


def test_an_alias_to_an_empty_collection_adds_no_depth() -> None:
    assert load_yaml(b"a: &a []\nb: " + flow_sequences(199, b"*a")) is not None
    assert where(error_of(b"a: &a [1]\nb: " + flow_sequences(199, b"*a"))) == ("ES012", 2, 203, "/b" + zeros(199))


@pytest.mark.parametrize(
    ("document", "place"),
    [(b"a: &a [*a]\n", (1, 8, "/a/0")), (b"a: &a\n  b: [1, *a]\n", (2, 10, "/a/b/1"))],
)
def test_an_alias_inside_what_it_names_is_endless_nesting(document: bytes, place: tuple[int, int, str]) -> None:
    error = error_of(document)
    assert where(error) == ("ES012", *place)
    assert "*a" in error.reason


@contextmanager
def recursion_headroom(frames: int) -> Iterator[None]:
    """Only ``frames`` more Python frames than the caller has: a reader that recursed per level would fail."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack(0)) + frames)
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


def test_reading_nests_no_python_calls_per_level() -> None:
    with recursion_headroom(100):
        assert load_yaml(flow_sequences(200)) is not None
        assert load_yaml(block_mappings(200)) is not None
        assert error_of(block_sequences(1000)).code == "ES012"
        assert error_of(b"[" * 1000).code == "ES012"


@pytest.mark.parametrize("opener", [b"[", b"{a: "])
def test_a_too_deep_line_is_refused_at_the_limit_not_scanned_to_its_end(
    opener: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What a refusal costs, counted instead of timed: the collections the scanner opens. The valid
    # prefix is read twice (once to find the refusal, once to build what comes before it), so a
    # line 5,000 deep costs what two 200-deep twins cost, not 5,000 openings.
    opened: list[int] = []
    real = yaml.scanner.Scanner.fetch_flow_collection_start

    def counted(self: yaml.scanner.Scanner, token_class: type[yaml.tokens.Token]) -> None:
        opened.append(1)
        real(self, token_class)

    monkeypatch.setattr(yaml.scanner.Scanner, "fetch_flow_collection_start", counted)
    load_yaml(flow_sequences(MAX_DEPTH))
    twin = len(opened)
    assert twin == MAX_DEPTH
    opened.clear()
    assert error_of(opener * 5000).code == "ES012"
    assert MAX_DEPTH < len(opened) <= 2 * twin + 2


def test_a_too_deep_bracket_where_a_key_belongs_is_refused_at_the_mapping() -> None:
    assert where(error_of(b"[" * 200 + b"{[")) == ("ES012", 1, 202, zeros(200))


def test_a_problem_before_the_too_deep_bracket_is_the_one_reported() -> None:
    # The scanner sees the deep bracket first (it looks ahead on a line); what comes before is read again.
    repeated = error_of(b"{a: 1, a: 2, b: " + b"[" * 300)
    assert where(repeated) == ("ES011", 1, 8, "")
    broken = error_of(b"[a, , " + b"[" * 300)
    assert where(broken) == ("ES003", 1, 5, "")
    assert "expected the node content" in broken.reason


# --- Repeated keys -------------------------------------------------------------------------------


def test_a_repeated_top_level_key_is_refused_with_its_name() -> None:
    error = error_of(b"a: 1\nb: 2\na: 3\n")
    assert where(error) == ("ES011", 3, 1, "")
    assert "'a'" in error.reason
    assert "repeats" in error.reason


def test_a_suite_task_repeating_mandated_gates_is_refused_at_the_task() -> None:
    gates = b"      mandated_gates:\n        - id: refund-approval\n"
    assert gates in FULL_SUITE
    document = FULL_SUITE.replace(gates, b"      mandated_gates: []\n" + gates)
    assert load_yaml(FULL_SUITE)["suite"]["tasks"][0]["mandated_gates"]
    error = error_of(document)
    assert where(error) == ("ES011", 27, 7, "/suite/tasks/0")
    assert "'mandated_gates'" in error.reason


@pytest.mark.parametrize(
    ("document", "place"),
    [
        (b'a: 1\n"a": 2\n', (2, 1, "")),
        (b"a: 1\n'a': 2\n", (2, 1, "")),
        (b"{a: 1, b: 2, a: 3}", (1, 14, "")),
        (b"m:\n  - {x: 1}\n  - {x: 1, x: 2}\n", (3, 12, "/m/1")),
        (b"k: &k a\nm:\n  *k : 1\n  a: 2\n", (4, 3, "/m")),
        (b"m:\n  a: 1\n  ? a\n  : 2\n", (3, 5, "/m")),
        (b"a/b:\n  c~d:\n    e: 1\n    !!str e: 2\n", (4, 5, "/a~1b/c~0d")),
    ],
)
def test_a_key_repeated_as_the_same_string_is_refused(document: bytes, place: tuple[int, int, str]) -> None:
    assert where(error_of(document)) == ("ES011", *place)


def test_a_repeated_key_inside_an_anchor_is_reported_where_the_anchor_is() -> None:
    assert where(error_of(b"first: &m {a: 1, a: 2}\nsecond: *m\n")) == ("ES011", 1, 18, "/first")


def test_the_same_key_in_sibling_mappings_is_not_a_repeat() -> None:
    assert load_yaml(b"a: {k: 1}\nb: {k: 2}\nc: [{k: 3}, {k: 4}]\n") == {
        "a": {"k": 1},
        "b": {"k": 2},
        "c": [{"k": 3}, {"k": 4}],
    }


def test_merge_keys_do_not_exist() -> None:
    assert load_yaml(b"base: &b {x: 1}\nm:\n  <<: *b\n  y: 2\n") == {"base": {"x": 1}, "m": {"<<": {"x": 1}, "y": 2}}


@pytest.mark.parametrize(
    ("document", "shown"),
    [(b"1: x\n", "'1'"), (b"~: x\n", "'~'"), (b"true: x\n", "'true'"), (b"a: &n null\n*n : x\n", "*n")],
)
def test_a_mapping_key_that_is_not_a_string_is_refused(document: bytes, shown: str) -> None:
    error = error_of(document)
    assert error.code == "ES003"
    assert f"key {shown} is not a string" in error.reason


def test_a_collection_as_key_is_refused_where_it_starts() -> None:
    assert where(error_of(b"m:\n  ? [a]\n  : x\n")) == ("ES003", 2, 5, "/m")
    assert where(error_of(b"{[a]: x}")) == ("ES003", 1, 2, "")


# --- Tags: JSON's data model only ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (b"!!binary aGVsbG8=", "!!binary"),
        (b"!!set {x: }", "!!set"),
        (b"!!timestamp 2024-01-01", "!!timestamp"),
        (b"!!omap [a: 1]", "!!omap"),
        (b"!!pairs [a: 1]", "!!pairs"),
        (b"!!merge <<", "!!merge"),
        (b"!!value =", "!!value"),
        (b"!custom x", "!custom"),
        (b"!!python/object/apply:os.system [echo]", "!!python/object/apply:os.system"),
        (b"!!python/name:os.system", "!!python/name:os.system"),
        (b"!<tag:example.com,2000:app/x> y", "tag:example.com,2000:app/x"),
    ],
)
def test_a_tag_outside_json_is_refused_at_the_node(value: bytes, shown: str) -> None:
    error = error_of(b"a: 1\nb:\n  - " + value + b"\n")
    assert where(error) == ("ES003", 3, 5, "/b/0")
    assert f"the tag {shown} is not allowed" in error.reason
    assert "JSON data" in error.reason


def test_a_tag_outside_json_on_a_key_is_refused_at_the_key() -> None:
    error = error_of(b"m:\n  !!binary aGk=: 1\n")
    assert where(error) == ("ES003", 2, 3, "/m")
    assert "!!binary" in error.reason


def test_a_redefined_secondary_handle_names_another_tag() -> None:
    error = error_of(b"%TAG !! tag:example.com,2000:\n---\na: !!int 1\n")
    assert where(error) == ("ES003", 3, 4, "/a")
    assert "tag:example.com,2000:int" in error.reason


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        (b"!!int abc", "'abc' is not an integer"),
        (b"!!int 1.5", "'1.5' is not an integer"),
        (b"!!int 1_000", "'1_000' is not an integer"),
        (b"!!int 017_", "'017_' is not an integer"),
        (b"!!bool yes", "'yes' is not a boolean"),
        (b"!!bool 1", "'1' is not a boolean"),
        (b"!!float x", "'x' is not a float"),
        (b"!!float 0x1F", "'0x1F' is not a float"),
        (b"!!null text", "'text' is not a null"),
        (b"!!null 0", "'0' is not a null"),
        (b"!!str {b: 1}", "!!str does not fit a mapping"),
        (b"!!map [1]", "!!map does not fit a sequence"),
        (b"!!seq x", "!!seq does not fit a scalar"),
        (b"!!map x", "!!map does not fit a scalar"),
    ],
)
def test_a_value_that_does_not_fit_its_json_tag_is_refused(value: bytes, reason: str) -> None:
    error = error_of(b"a: " + value + b"\n")
    assert where(error) == ("ES003", 1, 4, "/a")
    assert reason in error.reason


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (b"!!int 0x1F", 31),
        (b"!!int 017", 17),
        (b'!!int "12"', 12),
        (b"!!float 1", 1.0),
        (b"!!str 12", "12"),
        (b"!!str", ""),
        (b"!!bool TRUE", True),
        (b"!!null ~", None),
        (b"!!null", None),
        (b"!!seq [1]", [1]),
        (b"!!map {b: 1}", {"b": 1}),
        (b"! 12", "12"),
        (b"! [1]", [1]),
        (b"!<tag:yaml.org,2002:int> 7", 7),
    ],
)
def test_a_json_tag_that_fits_is_read(value: bytes, expected: object) -> None:
    read = load_yaml(b"a: " + value + b"\n")["a"]
    assert read == expected
    assert type(read) is type(expected)


def test_a_handle_for_the_core_tags_is_the_same_tag() -> None:
    assert load_yaml(b"%TAG !e! tag:yaml.org,2002:\n---\na: !e!int 12\n") == {"a": 12}


# --- The YAML 1.2 core schema --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("017", 17),
        ("-017", -17),
        ("+12", 12),
        ("-0", 0),
        ("0o17", 15),
        ("0x1F", 31),
        ("0xff", 255),
        ("0" * 5000 + "1", 1),
        ("1e3", 1000.0),
        ("-.5", -0.5),
        ("1.", 1.0),
        (".5", 0.5),
        ("+1.5E-3", 0.0015),
        ("-0.0", -0.0),
        ("true", True),
        ("True", True),
        ("TRUE", True),
        ("false", False),
        ("False", False),
        ("FALSE", False),
        ("null", None),
        ("Null", None),
        ("NULL", None),
        ("~", None),
        ("", None),
        ("1_000", "1_000"),
        ("1:30", "1:30"),
        ("0b101", "0b101"),
        ("0O17", "0O17"),
        ("0X1F", "0X1F"),
        ("-0x1", "-0x1"),
        ("+0o7", "+0o7"),
        ("0o8", "0o8"),
        ("0x", "0x"),
        ("1e", "1e"),
        (".e3", ".e3"),
        ("1.0.0", "1.0.0"),
        ("yes", "yes"),
        ("No", "No"),
        ("on", "on"),
        ("y", "y"),
        ("tRUE", "tRUE"),
        ("nULL", "nULL"),
        (".Nan", ".Nan"),
        ("+.nan", "+.nan"),
        ("2024-01-01", "2024-01-01"),
        ("١٢", "١٢"),
    ],
)
def test_plain_scalars_follow_the_yaml_1_2_core_schema(text: str, expected: object) -> None:
    read = load_yaml(f"a: {text}\n".encode())["a"]
    assert read == expected
    assert type(read) is type(expected)
    if isinstance(expected, float):
        assert math.copysign(1, read) == math.copysign(1, expected)


@pytest.mark.parametrize("text", ["017", "true", "null", "~", "0x1F", "1.5"])
def test_a_quoted_scalar_is_a_string(text: str) -> None:
    assert load_yaml(f"a: '{text}'\nb: \"{text}\"\nc: |\n  {text}\n".encode()) == {
        "a": text,
        "b": text,
        "c": text + "\n",
    }


@pytest.mark.parametrize("text", [".inf", "-.Inf", "+.INF", ".nan", ".NaN", ".NAN", "1e400", "-1e400", "!!float .inf"])
def test_a_float_json_cannot_hold_is_refused_at_its_place(text: str) -> None:
    error = error_of(f"a: 1\nb: [x, {text}]\n".encode())
    assert where(error) == ("ES003", 2, 8, "/b/1")
    assert "no JSON value" in error.reason


def test_the_longest_integer_is_the_json_readers() -> None:
    longest = "9" * yaml_loader.MAX_INT_DIGITS
    assert load_yaml(f"a: {longest}\n".encode()) == {"a": int(longest)}
    for too_long in (
        "9" * (yaml_loader.MAX_INT_DIGITS + 1),
        "-1" + "0" * yaml_loader.MAX_INT_DIGITS,
        "0x" + "f" * 3600,
    ):
        error = error_of(f"a: {too_long}\n".encode())
        assert where(error) == ("ES003", 1, 4, "/a")
        assert "more than 4300 digits" in error.reason


# --- Encoding and characters ---------------------------------------------------------------------


def test_bytes_that_are_not_utf8_are_located_at_the_first_bad_byte() -> None:
    error = error_of(b"a: b\nc: d\xff\n")
    assert where(error) == ("ES004", 2, 5, "")
    assert "0xff" in error.reason


def test_a_truncated_utf8_sequence_is_located_at_its_first_byte() -> None:
    assert where(error_of(b"a: b\nc: \xc3\xa9\xc3(\n")) == ("ES004", 2, 6, "")


def test_one_byte_order_mark_is_read_past_and_not_counted() -> None:
    bom = b"\xef\xbb\xbf"
    assert load_yaml(bom + b"a: 1\n") == {"a": 1}
    assert where(error_of(bom + b"a: !!binary x\n")) == ("ES003", 1, 4, "/a")
    assert where(error_of(bom + b"a: \xff\n")) == ("ES004", 1, 4, "")
    assert where(error_of(bom + bom + b"a: 1\n")) == ("ES003", 1, 1, "")


def test_columns_count_characters() -> None:
    assert where(error_of("é€😀: !!binary x\n".encode())) == ("ES003", 1, 6, "/é€😀")


@pytest.mark.parametrize("character", ["\x01", "\x00", "\x7f", "\x1b", "\ufffe"])
def test_a_character_yaml_forbids_is_located(character: str) -> None:
    error = error_of(f"a: b\nc: d{character}\n".encode())
    assert where(error) == ("ES003", 2, 5, "")
    assert f"U+{ord(character):04X}" in error.reason


@pytest.mark.parametrize("line_end", [b"\r\n", b"\r", b"\n"])
def test_lines_are_counted_as_yaml_counts_them(line_end: bytes) -> None:
    assert where(error_of(b"a: b" + line_end + b"c: \x01" + line_end)) == ("ES003", 2, 4, "")
    assert where(error_of(b"a: b" + line_end + b"c: !!set {}" + line_end)) == ("ES003", 2, 4, "/c")


@pytest.mark.parametrize(
    ("document", "place"),
    [
        (b'a: "\\ud800"\n', (1, 5, "/a")),
        (b'a:\n  - "x \\\\ud800 \\ud83d\\ude00"\n', (2, 16, "/a/0")),
        (b'a: "\\U0000DC00"\n', (1, 5, "/a")),
        (b'm:\n  "k\\udfff": 1\n', (2, 5, "/m")),
        (b'a: "one\n  line \\uD800"\n', (2, 8, "/a")),
    ],
)
def test_a_surrogate_escape_is_refused_where_it_is(document: bytes, place: tuple[int, int, str]) -> None:
    error = error_of(document)
    assert where(error) == ("ES003", *place)
    assert "surrogate" in error.reason


@pytest.mark.parametrize(
    ("document", "escape"),
    [(b'a: "\\ud800"\n', "\\ud800"), (b'a: "x\\U0000DC00y"\n', "\\U0000DC00"), (b'a: "\\uDbFf\\uDC00"\n', "\\uDbFf")],
)
def test_a_surrogate_escape_is_refused_showing_the_whole_escape(document: bytes, escape: str) -> None:
    assert error_of(document).reason == (
        f"the escape {escape} is a surrogate, not a character: no JSON text can hold it"
        " (write a character beyond U+FFFF as one \\U escape of 8 digits)"
    )


def test_escapes_that_name_characters_are_read() -> None:
    assert load_yaml(b'a: "\\\\ud800 \\U0001F600 \\u00e9 \\x41"\n') == {"a": "\\ud800 😀 é A"}


def test_an_escape_beyond_the_last_character_is_refused_where_it_is() -> None:
    error = error_of(b'a: [1, "x\\U00110000"]\n')
    assert (type(error), *where(error)) == (DocumentSyntaxError, "ES003", 1, 10, "/a")
    assert "\\U00110000" in error.reason
    assert where(error_of(b'"\\U0011FFFF"')) == ("ES003", 1, 2, "")


# --- Syntax errors and documents -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("document", "place"),
    [
        (b"a: [1, 2\n", (2, 1, "/a")),
        (b"a: 'x\n", (2, 1, "")),
        (b"a:\n\t- x\n", (2, 1, "")),
        (b"a: 1\n- b\n", (2, 1, "")),
        (b"a: *nowhere\n", (1, 4, "/a")),
        (b"a: &x 1\nb: &x 2\n", (2, 4, "/b")),
        (b"a: 1\n---\nb: 2\n", (2, 1, "")),
        (b"a: 1\n--- x\n", (2, 1, "")),
    ],
)
def test_yaml_that_does_not_parse_is_es003_at_its_place(document: bytes, place: tuple[int, int, str]) -> None:
    assert where(error_of(document)) == ("ES003", *place)


def test_only_yaml_1_2_is_read() -> None:
    assert load_yaml(b"%YAML 1.2\n---\na: yes\n") == {"a": "yes"}
    for version in (b"1.1", b"1.3"):
        error = error_of(b"# rules\n%YAML " + version + b"\n---\na: yes\n")
        assert where(error) == ("ES003", 2, 1, "")
        assert f"%YAML {version.decode()}" in error.reason


@pytest.mark.parametrize("document", [b"", b"\n  \n", b"# only a comment\n", b"---\n", b"--- ~\n...\n"])
def test_an_empty_document_is_none(document: bytes) -> None:
    assert load_yaml(document) is None


# --- The alias bomb ------------------------------------------------------------------------------


def alias_bomb() -> bytes:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for previous, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{previous}"] * 9) + "]")
    return ("\n".join(lines) + "\n").encode()


def test_an_alias_bomb_is_refused_at_the_alias_that_crosses_the_limit() -> None:
    started = time.perf_counter()
    error = error_of(alias_bomb())
    assert time.perf_counter() - started < 1.0
    assert isinstance(error, YamlTooLargeError)
    assert where(error) == ("ES006", 7, 8, "/g/0")
    assert f"{MAX_EXPANDED_NODES:,}" in error.reason


def test_the_node_limit_counts_every_node_an_alias_repeats(monkeypatch: pytest.MonkeyPatch) -> None:
    document = b"[&x [1, 2], *x]"  # the outer sequence, [1, 2] twice and its two items twice: 7 nodes
    monkeypatch.setattr(yaml_loader, "MAX_EXPANDED_NODES", 7)
    assert load_yaml(document) == [[1, 2], [1, 2]]
    monkeypatch.setattr(yaml_loader, "MAX_EXPANDED_NODES", 6)
    assert where(error_of(document)) == ("ES006", 1, 13, "/1")


def test_the_node_limit_counts_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yaml_loader, "MAX_EXPANDED_NODES", 5)
    assert load_yaml(b"{a: 1, b: 2}") == {"a": 1, "b": 2}
    assert where(error_of(b"{a: 1, b: 2, c: 3}")) == ("ES006", 1, 14, "")


# --- Properties ----------------------------------------------------------------------------------

YAML_ALPHABET = [*"[]{}:,-?&*!|>'\"%@#\\ \n\t\rabux0189.eE~+_", "\x01", "\x85", "\u2028", "é", "\ud800"]


@given(st.text(alphabet=st.sampled_from(YAML_ALPHABET), max_size=60))
def test_any_text_is_read_or_refused_with_a_place(text: str) -> None:
    try:
        value = load_yaml(text.encode("utf-8", "surrogatepass"))
    except DocumentSyntaxError as error:
        refusal = error
    else:
        json.dumps(value, allow_nan=False, ensure_ascii=False).encode("utf-8")  # JSON data, UTF-8 text
        return
    assert refusal.code in {"ES003", "ES004", "ES006", "ES011", "ES012"}
    assert refusal.line is not None
    assert refusal.line >= 1
    assert refusal.column is not None
    assert refusal.column >= 1


JSON_TEXT = st.text(
    st.characters(max_codepoint=0xFFFF, exclude_categories=("Cs",), exclude_characters="\x7f\ufffe\uffff"),
    max_size=12,
)
"""Text JSON escapes to ASCII (``json.dumps``) and YAML allows: no DEL, no non-characters, no surrogates."""
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | JSON_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(JSON_TEXT, inner, max_size=4),
    max_leaves=20,
)


@given(JSON_VALUES)
def test_json_text_reads_as_the_json_reader_reads_it(value: Any) -> None:
    document = json.dumps(value).encode()
    assert load_yaml(document) == loads(document)


@pytest.mark.parametrize("character", ["\x85", "\u2028", "\u2029"])
def test_a_raw_yaml_1_1_line_break_is_refused_where_it_is(character: str) -> None:
    # PyYAML and libyaml (YAML 1.1) break the line there, a YAML 1.2 reader does not: two readings.
    with pytest.raises(DocumentSyntaxError) as caught:
        load_yaml(f"a: 1\r\nb: x{character}y\n".encode())
    assert (caught.value.code, caught.value.line, caught.value.column) == ("ES003", 2, 5)
    assert load_yaml(b'b: "x\\Ly"\n') == {"b": "x\u2028y"}


# --- What each refusal says ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("document", "place", "reason"),
    [
        (b"{a: 1, a: 2}", (1, 8, ""), "the top mapping repeats the key 'a'"),
        (b"m: {a: 1, a: 2}", (1, 11, "/m"), "the mapping at /m repeats the key 'a'"),
        (b"m: {n: {a: 1, a: 2}}", (1, 15, "/m/n"), "the mapping at /m/n repeats the key 'a'"),
        (b"m: [{n: {a: 1, a: 2}}]", (1, 16, "/m/0/n"), "the mapping at /m/0/n repeats the key 'a'"),
    ],
)
def test_a_repeated_key_names_the_mapping_that_repeats_it(
    document: bytes, place: tuple[int, int, str], reason: str
) -> None:
    error = error_of(document)
    assert where(error) == ("ES011", *place)
    assert error.reason == reason + " (readers disagree on which of its values counts)"


@pytest.mark.parametrize(
    ("document", "reason"),
    [
        (b"k: &s [1]\n*s : x\n", "mapping key *s is not a string (it names a sequence)"),
        (b"k: &m {a: 1}\n*m : x\n", "mapping key *m is not a string (it names a mapping)"),
        (b"k: &i 1\n*i : x\n", "mapping key *i is not a string (it names a int)"),
        (b"k: &f 1.5\n*f : x\n", "mapping key *f is not a string (it names a float)"),
        (b"k: &b true\n*b : x\n", "mapping key *b is not a string (it names a bool)"),
        (b"k: &n ~\n*n : x\n", "mapping key *n is not a string (it names a NoneType)"),
        (b"1: x\n", "mapping key '1' is not a string (quote it)"),
        (b"{[a]: x}", "a mapping key is a sequence, not a string (JSON keys are strings)"),
        (b"{{a: 1}: x}", "a mapping key is a mapping, not a string (JSON keys are strings)"),
        (b"a: *nowhere\n", "the alias *nowhere names no anchor defined before it"),
        (b"a: &x 1\nb: &x 2\n", "the anchor &x is defined twice (readers disagree on which one an alias names)"),
        (
            b"a: !!binary x\n",
            "the tag !!binary is not allowed: a suite is JSON data (only !!str, !!int, !!float, !!bool, !!null, !!seq"
            " and !!map)",
        ),
        (b'a: [1, "x\\U00110000"]\n', "the escape \\U00110000 names no character (beyond U+10FFFF)"),
        (b"[" * 201 + b"1" + b"]" * 201, "nested deeper than 200 sequences and mappings, evalscore's limit"),
        (b"[" * 1000, "nested deeper than 200 sequences and mappings, evalscore's limit"),  # found by the scanner
        (b"a: 1\n---\nb: 2\n", "a second document starts here (a suite is one YAML document)"),
        (b"\xef\xbb\xbf\xef\xbb\xbfa: 1\n", "a second byte order mark starts the text"),
        (
            "a: x\u2028y\n".encode(),
            "a raw U+2028 is a line break to a YAML 1.1 reader and a plain character to YAML 1.2, readers disagree;"
            " write it as an escape (\\N, \\L, \\P) in a double-quoted string",
        ),
    ],
)
def test_each_refusal_says_exactly_what_is_wrong(document: bytes, reason: str) -> None:
    assert error_of(document).reason == reason


@pytest.mark.parametrize(
    ("document", "reason"),
    [
        (
            b"a: [1, 2\n",
            "expected ',' or ']', but got '<stream end>', while parsing a flow sequence that starts at line 1 column 4",
        ),
        (b"a: 'x\n", "found unexpected end of stream, while scanning a quoted scalar that starts at line 1 column 4"),
        (
            b"m:\n  a: 1\n  - b\n",
            "expected <block end>, but found '-', while parsing a block mapping that starts at line 2 column 3",
        ),
    ],
)
def test_a_syntax_error_names_the_construct_it_interrupts_and_where_that_starts(document: bytes, reason: str) -> None:
    assert error_of(document).reason == reason


def test_only_an_alias_bomb_is_a_too_large_error() -> None:
    assert isinstance(error_of(alias_bomb()), YamlTooLargeError)
    for document in (b"a: !!binary x\n", b"{a: 1, a: 2}", b"[" * 201 + b"]" * 201 + b"x", b"a: *x\n"):
        assert type(error_of(document)) is DocumentSyntaxError, document


def test_a_line_break_before_a_forbidden_character_counts_as_a_line() -> None:
    assert where(error_of(b"\nc: \x01\n")) == ("ES003", 2, 4, "")
    assert where(error_of(b"\r\n\r\nc: \x01\n")) == ("ES003", 3, 4, "")


# --- Anchored keys, and aliases of mappings -------------------------------------------------------


def test_an_anchored_key_can_be_named_by_an_alias_as_a_value() -> None:
    assert load_yaml(b"{&k a: 0, b: *k}") == {"a": 0, "b": "a"}
    assert load_yaml(b"m:\n  &k a: 0\nn: [*k, *k]\n") == {"m": {"a": 0}, "n": ["a", "a"]}


def test_an_alias_of_an_anchored_key_counts_one_node(monkeypatch: pytest.MonkeyPatch) -> None:
    document = b"{&k a: 0, b: *k}"  # the mapping, two keys, two values: 5 nodes
    monkeypatch.setattr(yaml_loader, "MAX_EXPANDED_NODES", 5)
    assert load_yaml(document) == {"a": 0, "b": "a"}
    monkeypatch.setattr(yaml_loader, "MAX_EXPANDED_NODES", 4)
    assert where(error_of(document)) == ("ES006", 1, 14, "/b")


def test_an_alias_of_an_anchored_key_adds_no_depth() -> None:
    inner = b"*k" + b"]" * 199
    assert load_yaml(b"{&k a: 0, b: " + b"[" * 199 + inner + b"}")["a"] == 0
    assert where(error_of(b"{&k a: 0, b: " + b"[" * 200 + inner + b"]}")) == ("ES012", 1, 214, "/b" + zeros(200))


def test_an_alias_of_a_mapping_counts_its_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    document = b"[&m {a: 1, b: 2}, *m]"  # the sequence, then the mapping with two keys and two values twice: 11
    monkeypatch.setattr(yaml_loader, "MAX_EXPANDED_NODES", 11)
    assert load_yaml(document) == [{"a": 1, "b": 2}, {"a": 1, "b": 2}]
    monkeypatch.setattr(yaml_loader, "MAX_EXPANDED_NODES", 10)
    assert where(error_of(document)) == ("ES006", 1, 19, "/1")


# --- Where a surrogate escape is -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("document", "place"),
    [
        (b'a: "\\n\\ud800"\n', (1, 7)),
        (b'a: "\\uE000 \\ud800"\n', (1, 12)),
        (b'a: "\\u00e9\\\\\\ud800"\n', (1, 13)),
        (b'a:    \\ud800x\nb: "\\u00e9\\ud800"\n', (2, 11)),
        (b'a: \\uZZZZ\nb: "\\ud800"\n', (2, 5)),
    ],
)
def test_a_surrogate_escape_is_placed_after_the_escapes_before_it_in_its_scalar(
    document: bytes, place: tuple[int, int]
) -> None:
    error = error_of(document)
    assert (error.code, error.line, error.column) == ("ES003", *place)


def test_a_surrogate_escape_is_looked_for_only_in_the_scalar_named() -> None:
    text = '"\\u00e9" "\\ud800"'
    assert yaml_loader._surrogate_escape(text, 0, 8) is None
    assert yaml_loader._surrogate_escape(text, 9, 17) == 10
    assert yaml_loader._surrogate_escape(text, 0, 17) == 10


def test_the_readers_own_exceptions_say_what_they_carry_if_one_ever_escapes() -> None:
    assert str(yaml_loader._RefusedError("a reason", REPEATED_KEY, 3)) == "a reason"
    assert str(yaml_loader._FlowTooDeepError(7)) == "7"
    assert str(yaml_loader._NoCharacterError(9)) == "9"


# --- PyYAML's errors as findings ------------------------------------------------------------------


def test_a_reader_error_names_the_character_and_keeps_the_pointer() -> None:
    text = "ab\ncd"
    as_int = yaml_loader._yaml_error(yaml.reader.ReaderError("<suite>", 4, 0x1B, "utf-8", "special"), text, "/a")
    assert (as_int.code, as_int.reason, as_int.line, as_int.column, as_int.pointer) == (
        "ES003",
        "the character U+001B is not allowed in YAML (a control character)",
        2,
        2,
        "/a",
    )
    as_text = yaml_loader._yaml_error(yaml.reader.ReaderError("<suite>", 1, "\x1b", "utf-8", "special"), text, "")
    assert as_text.reason == "the character '\\x1b' is not allowed in YAML (a control character)"


def test_a_marked_error_without_a_problem_says_its_context_or_that_it_is_not_yaml() -> None:
    mark = yaml.Mark("<suite>", 5, 2, 3, None, None)
    context_only = yaml_loader._yaml_error(yaml.MarkedYAMLError(context="while reading", context_mark=mark), "", "/m")
    assert (context_only.reason, context_only.line, context_only.column, context_only.pointer) == (
        "while reading",
        3,
        4,
        "/m",
    )
    bare = yaml_loader._yaml_error(yaml.MarkedYAMLError(), "", "")
    assert (bare.code, bare.reason, bare.line, bare.column) == ("ES003", "not valid YAML", None, None)


def test_any_other_yaml_error_is_its_first_line_with_no_place() -> None:
    error = yaml_loader._yaml_error(yaml.YAMLError("first line\nsecond line"), "text", "/a")
    assert (error.code, error.reason, error.line, error.column, error.pointer) == (
        "ES003",
        "first line",
        None,
        None,
        "",
    )
    empty = yaml_loader._yaml_error(yaml.YAMLError(), "text", "/a")
    assert (empty.code, empty.reason, empty.line, empty.column) == ("ES003", "not valid YAML", None, None)


def test_an_event_that_is_no_value_is_refused_by_its_name() -> None:
    builder = yaml_loader._Builder(yaml_loader._Events("a"))
    mark = yaml.Mark("<suite>", 0, 0, 0, None, None)
    with pytest.raises(DocumentSyntaxError) as raised:
        builder._node(yaml.events.DocumentEndEvent(mark, mark))
    assert (raised.value.reason, raised.value.line, raised.value.column) == (
        "unexpected DocumentEndEvent where a value belongs",
        1,
        1,
    )


def test_a_scalar_event_without_marks_is_read() -> None:
    builder = yaml_loader._Builder(yaml_loader._Events("a"))
    assert builder._scalar(yaml.events.ScalarEvent(None, None, (True, False), "12")) == 12
    assert yaml_loader._line_column(None) == (None, None)
