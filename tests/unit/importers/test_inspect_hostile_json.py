"""Hostile ``.json`` logs: repeated keys at any depth, deep nesting and numbers beyond a double are refused."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from evalscore.importers.inspect import UnreadableLogError
from evalscore.importers.inspect._json_format import JsonLogReader, streaming_available
from evalscore.importers.inspect._strict_stream import (
    Event,
    Refused,
    StreamSyntaxError,
    array_starts,
    build_value,
    check_value,
    locate_refusal,
)
from evalscore.inputs.strict_json import MAX_DEPTH

EVAL = b'"eval": {"task": "t", "model": "m"}'
MODES = [
    pytest.param(True, id="streamed", marks=pytest.mark.skipif(not streaming_available(), reason="no ijson")),
    pytest.param(False, id="whole"),
]


def log(tmp_path: Path, text: bytes) -> Path:
    path = tmp_path / "log.json"
    path.write_bytes(text)
    return path


def read(path: Path, stream: bool) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    reader = JsonLogReader(path, stream=stream)
    try:
        return reader.header(), list(reader.samples())
    finally:
        reader.close()


def header_refusal(path: Path, stream: bool) -> str:
    """The reason the header pass refuses the log: before any sample is mapped."""
    reader = JsonLogReader(path, stream=stream)
    try:
        with pytest.raises(UnreadableLogError) as caught:
            reader.header()
    finally:
        reader.close()
    assert "\n" not in str(caught.value)
    return caught.value.reason


def nested(depth: int) -> bytes:
    """A sample whose deepest value sits inside ``depth`` arrays and objects, counting the log and ``samples``."""
    return b'{"id": 1, "x": ' + b"[" * (depth - 3) + b"0" + b"]" * (depth - 3) + b"}"


# -- repeated keys ------------------------------------------------------------------------------------


@pytest.mark.parametrize("stream", MODES)
def test_a_second_samples_array_is_refused_not_imported_twice(stream: bool, tmp_path: Path) -> None:
    path = log(tmp_path, b"{" + EVAL + b', "samples": [{"id": 1}], "samples": [{"id": 2}]}')
    assert header_refusal(path, stream).startswith("the top-level object repeats the key 'samples'")


@pytest.mark.parametrize("stream", MODES)
def test_a_second_eval_header_after_the_samples_is_refused_by_the_header_pass(stream: bool, tmp_path: Path) -> None:
    path = log(tmp_path, b"{" + EVAL + b', "samples": [{"id": 1}], "eval": {"task": "other"}}')
    assert header_refusal(path, stream).startswith("the top-level object repeats the key 'eval'")


@pytest.mark.parametrize("stream", MODES)
def test_a_repeated_key_inside_a_sample_names_the_object_and_the_key(stream: bool, tmp_path: Path) -> None:
    sample = b'{"id": 2, "events": [{}, {"decision": "reject", "decision": "approve"}]}'
    path = log(tmp_path, b"{" + EVAL + b', "samples": [{"id": 1}, ' + sample + b"]}")
    assert header_refusal(path, stream).startswith(
        "the object at /samples/1/events/1 repeats the key 'decision' (readers disagree"
    )


@pytest.mark.parametrize("stream", MODES)
def test_a_repeated_key_inside_the_header_names_the_object_and_the_key(stream: bool, tmp_path: Path) -> None:
    path = log(tmp_path, b'{"eval": {"task": "t", "config": {"epochs": 1, "epochs": 5}}, "samples": []}')
    assert header_refusal(path, stream).startswith("the object at /eval/config repeats the key 'epochs'")


@pytest.mark.parametrize("stream", MODES)
def test_a_repeated_key_inside_reductions_is_refused_though_reductions_are_not_read(
    stream: bool, tmp_path: Path
) -> None:
    path = log(tmp_path, b"{" + EVAL + b', "samples": [], "reductions": [{"a": 1, "a": 2}]}')
    assert header_refusal(path, stream).startswith("the object at /reductions/0 repeats the key 'a'")


@pytest.mark.parametrize("stream", MODES)
def test_the_same_key_in_sibling_objects_is_not_a_repetition(stream: bool, tmp_path: Path) -> None:
    path = log(tmp_path, b"{" + EVAL + b', "samples": [{"id": 1, "x": {"id": 1}}, {"id": 2}]}')
    assert read(path, stream) == ({"eval": {"task": "t", "model": "m"}}, [{"id": 1, "x": {"id": 1}}, {"id": 2}])


# -- depth and numbers --------------------------------------------------------------------------------


@pytest.mark.parametrize("stream", MODES)
def test_a_value_may_sit_inside_max_depth_arrays_and_objects_and_not_one_more(stream: bool, tmp_path: Path) -> None:
    fine = log(tmp_path, b"{" + EVAL + b', "samples": [' + nested(MAX_DEPTH) + b"]}")
    assert len(read(fine, stream)[1]) == 1
    deeper = log(tmp_path, b"{" + EVAL + b', "samples": [' + nested(MAX_DEPTH + 1) + b"]}")
    assert "deeper than 200 arrays and objects" in header_refusal(deeper, stream)


@pytest.mark.parametrize("stream", MODES)
def test_values_after_one_at_the_depth_limit_are_read(stream: bool, tmp_path: Path) -> None:
    at_the_limit = b"[" * (MAX_DEPTH - 2) + b"]" * (MAX_DEPTH - 2)  # its innermost (empty) array sits inside 200
    sample = b'{"id": 1, "x": ' + at_the_limit + b', "after": [1, {"a": 2}]}'
    path = log(tmp_path, b"{" + EVAL + b', "samples": [' + sample + b', {"id": 2}], "stats": {}}')
    header, samples = read(path, stream)
    assert [item["id"] for item in samples] == [1, 2]
    assert samples[0]["after"] == [1, {"a": 2}]
    assert header["stats"] == {}


def test_the_streamed_depth_refusal_names_where_the_value_is(tmp_path: Path) -> None:
    if not streaming_available():
        pytest.skip("no ijson")
    deeper = log(tmp_path, b"{" + EVAL + b', "samples": [' + nested(MAX_DEPTH + 1) + b"]}")
    assert header_refusal(deeper, True) == (
        "the value at /samples/0/x" + "/0" * (MAX_DEPTH - 2) + " is nested deeper than 200 arrays and objects, "
        "evalscore's limit"
    )


@pytest.mark.parametrize("stream", MODES)
def test_nesting_a_hundred_thousand_deep_is_refused_quickly_without_recursion(stream: bool, tmp_path: Path) -> None:
    depth = 100_000
    path = log(tmp_path, b"{" + EVAL + b', "samples": [' + b"[" * depth + b"]" * depth + b"]}")
    started = time.monotonic()
    assert "deeper than 200" in header_refusal(path, stream)
    assert time.monotonic() - started < 5


def test_a_streamed_number_beyond_a_double_is_refused_by_the_parser(tmp_path: Path) -> None:
    if not streaming_available():
        pytest.skip("no ijson")
    path = log(tmp_path, b"{" + EVAL + b', "samples": [{"id": 1, "total_time": 1e400}]}')
    assert header_refusal(path, True) == "not valid JSON: parse error: numeric (floating point) overflow"


def events(*items: Event) -> Iterator[Event]:
    return iter(items)


NOT_FINITE = (("map_key", "a"), ("number", float("inf")), ("end_map", None))


@pytest.mark.parametrize("walk", [check_value, build_value], ids=["check", "build"])
def test_the_fast_walks_refuse_a_number_that_is_not_finite_whichever_backend_sent_it(walk: Any) -> None:
    with pytest.raises(Refused):
        walk(events(*NOT_FINITE), ("start_map", None), 2)
    with pytest.raises(Refused):
        walk(events(), ("number", float("nan")), 2)


def test_the_locating_walk_names_a_number_that_is_not_finite() -> None:
    with pytest.raises(StreamSyntaxError, match=r"^the number at /samples/3/a is beyond the range of a double$"):
        locate_refusal(events(*NOT_FINITE), ("start_map", None), ("samples", 3))


def test_checking_builds_nothing_and_building_builds_the_value() -> None:
    stream = (("map_key", "a"), ("start_array", None), ("number", 1), ("end_array", None), ("end_map", None))
    check_value(events(*stream), ("start_map", None), 1)
    assert build_value(events(*stream), ("start_map", None), 1) == {"a": [1]}


def test_the_locating_walk_names_array_positions() -> None:
    stream = events(
        ("number", 1),
        ("start_map", None),
        ("map_key", "k"),
        ("string", "v"),
        ("map_key", "k"),
        ("end_array", None),
    )
    starts = enumerate(array_starts(stream, ("start_array", None), ("s",)))
    index, item = next(starts)
    locate_refusal(stream, item, ("s", index))
    index, item = next(starts)
    with pytest.raises(StreamSyntaxError, match=r"^the object at /s/1 repeats the key 'k'"):
        locate_refusal(stream, item, ("s", index))


@pytest.mark.parametrize("walk", [check_value, build_value], ids=["check", "build"])
def test_a_stream_that_ends_inside_a_value_is_refused(walk: Any) -> None:
    with pytest.raises(Refused):
        walk(events(("map_key", "a")), ("start_map", None), 0)
    with pytest.raises(StreamSyntaxError, match="ends inside the value at /x"):
        locate_refusal(events(("map_key", "a")), ("start_map", None), ("x",))


# -- shape --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("stream", MODES)
def test_null_samples_are_no_samples_and_samples_that_are_not_an_array_are_refused(
    stream: bool, tmp_path: Path
) -> None:
    assert read(log(tmp_path, b"{" + EVAL + b', "samples": null}'), stream)[1] == []
    not_an_array = log(tmp_path, b"{" + EVAL + b', "samples": {"id": 1}}')
    with pytest.raises(UnreadableLogError, match=r"/samples is not an array"):
        read(not_an_array, stream)


@pytest.mark.parametrize("stream", MODES)
@pytest.mark.parametrize("text", [b'{"eval": {}} {"eval": {}}', b'{"eval": {}} x', b"[1]", b'"log"'])
def test_anything_but_one_object_is_refused(text: bytes, stream: bool, tmp_path: Path) -> None:
    assert header_refusal(log(tmp_path, text), stream)


def test_ijson_messages_are_cut_to_their_first_line_without_the_logs_bytes(tmp_path: Path) -> None:
    if not streaming_available():
        pytest.skip("no ijson")
    reason = header_refusal(log(tmp_path, b'{"eval": {"task": "\x1b[2J\x1b]8;;http://x\x07'), True)
    assert reason.startswith("not valid JSON: ")
    assert "\x1b" not in reason
    assert "\x07" not in reason


# -- one pass: samples first, then the header ---------------------------------------------------------


def test_a_repeated_key_after_the_samples_ends_the_samples_iteration_with_the_refusal(tmp_path: Path) -> None:
    if not streaming_available():
        pytest.skip("no ijson")
    path = log(tmp_path, b"{" + EVAL + b', "samples": [{"id": 1}, {"id": 2}], "eval": {"task": "x"}}')
    reader = JsonLogReader(path, stream=True)
    try:
        samples = reader.samples()
        assert [next(samples), next(samples)] == [{"id": 1}, {"id": 2}]
        with pytest.raises(UnreadableLogError, match="the top-level object repeats the key 'eval'"):
            next(samples)
    finally:
        reader.close()


def test_after_the_samples_are_read_the_header_needs_no_second_pass(tmp_path: Path) -> None:
    if not streaming_available():
        pytest.skip("no ijson")
    path = log(tmp_path, b'{"samples": [{"id": 1}], ' + EVAL + b', "stats": {"started_at": "t0"}}')
    reader = JsonLogReader(path, stream=True)
    try:
        assert list(reader.samples()) == [{"id": 1}]
        path.write_bytes(b"not json any more")  # same file, truncated: a second pass would fail
        assert reader.header() == {"eval": {"task": "t", "model": "m"}, "stats": {"started_at": "t0"}}
    finally:
        reader.close()


@pytest.mark.parametrize("stream", MODES)
def test_a_top_level_key_named_like_ijsons_prefix_of_a_sample_is_not_a_sample(stream: bool, tmp_path: Path) -> None:
    path = log(tmp_path, b"{" + EVAL + b', "samples.item": {"id": "injected"}, "samples": [{"id": 1}]}')
    header, samples = read(path, stream)
    assert samples == [{"id": 1}]
    assert header["samples.item"] == {"id": "injected"}


# -- text: surrogate escapes and bytes that are not UTF-8 ---------------------------------------------

TEXT_PREFIX = b"{" + EVAL + b',\n "samples": [{"id": 1, "x": "'
"""The text before a sample string: the string's first character is at byte ``len(TEXT_PREFIX)``, line 2."""


def text_log(tmp_path: Path, inside: bytes) -> Path:
    return log(tmp_path, TEXT_PREFIX + inside + b'"}]}')


@pytest.mark.parametrize("stream", MODES)
@pytest.mark.parametrize(
    ("inside", "escape", "at"),
    [
        pytest.param(rb"\ud800", r"\ud800", 0, id="high-alone"),
        pytest.param(rb"\ud800x", r"\ud800", 0, id="high-then-text"),
        pytest.param(rb"\ud800\ud800", r"\ud800", 0, id="high-then-high"),
        pytest.param(rb"\ud800\u0041", r"\ud800", 0, id="high-then-another-escape"),
        pytest.param(rb"\ud800\\udc00", r"\ud800", 0, id="high-then-escaped-backslash"),
        pytest.param(rb"\uDBFF", r"\uDBFF", 0, id="high-upper-case"),
        pytest.param(rb"\udc00", r"\udc00", 0, id="low-alone"),
        pytest.param(rb"\udc00\ud800", r"\udc00", 0, id="low-then-high"),
        pytest.param(rb"ab\\\udfff", r"\udfff", 4, id="low-after-escaped-backslash"),
        pytest.param(rb"\\ud800\udc00", r"\udc00", 7, id="low-after-text-that-looks-like-a-high-escape"),
        pytest.param(rb"\ud83d\ude00\ude00", r"\ude00", 12, id="low-after-a-pair"),
    ],
)
def test_a_lone_surrogate_escape_is_refused_with_where_it_is_never_read_as_other_text(
    inside: bytes, escape: str, at: int, stream: bool, tmp_path: Path
) -> None:
    reason = header_refusal(text_log(tmp_path, inside), stream)
    if stream:  # yajl reads these as "?" or joins them with the next escape: the bytes are checked first
        half = "high" if escape[3] in "89abAB" else "low"
        assert reason.startswith(
            f"not valid JSON: the escape {escape} at byte offset {len(TEXT_PREFIX) + at} (line 2) is a {half} surrogate"
        )
    else:
        assert reason.startswith("not valid JSON: ")
        assert "surrogate" in reason or "hex escape" in reason


@pytest.mark.parametrize("stream", MODES)
def test_a_lone_surrogate_escape_in_a_key_or_the_header_is_refused_too(stream: bool, tmp_path: Path) -> None:
    in_key = b"{" + EVAL + rb', "samples": [{"id": 1, "\ud800": 2}]}'
    reason = header_refusal(log(tmp_path, in_key), stream)
    assert reason.startswith("not valid JSON: ")
    if stream:
        offset = in_key.index(rb"\ud800")
        assert f"the escape \\ud800 at byte offset {offset} (line 1) is a high surrogate" in reason
    in_header = rb'{"eval": {"task": "\udc00"}, "samples": []}'
    assert header_refusal(log(tmp_path, in_header), stream).startswith("not valid JSON: ")


@pytest.mark.parametrize("stream", MODES)
@pytest.mark.parametrize(
    ("inside", "text"),
    [
        pytest.param(rb"\ud83d\ude00", "\U0001f600", id="escaped-pair"),
        pytest.param(rb"\uDBFF\uDFFF", "\U0010ffff", id="upper-case-pair"),
        pytest.param(rb"\\ud800", "\\ud800", id="escaped-backslash-then-text"),
        pytest.param(rb"\\\\ud800\\udc00", "\\\\ud800\\udc00", id="two-escaped-backslashes-then-text"),
        pytest.param(rb"\\\ud83d\ude00", "\\\U0001f600", id="escaped-backslash-then-a-pair"),
    ],
)
def test_surrogate_pairs_and_escaped_backslashes_are_read_as_the_text_they_spell(
    inside: bytes, text: str, stream: bool, tmp_path: Path
) -> None:
    assert read(text_log(tmp_path, inside), stream)[1] == [{"id": 1, "x": text}]


@pytest.mark.parametrize("stream", MODES)
@pytest.mark.parametrize(
    ("inside", "byte"),
    [
        pytest.param(b"ok \xed\xb3\xbf", 0xED, id="a-low-surrogate-as-bytes-cesu8"),
        pytest.param(b"ok \xed\xa0\xbd\xed\xb8\x80", 0xED, id="a-surrogate-pair-as-bytes"),
        pytest.param(b"ok \xc0\x80", 0xC0, id="overlong"),
        pytest.param(b"ok \xf4\x90\x80\x80", 0xF4, id="beyond-u10ffff"),
        pytest.param(b"ok \xff", 0xFF, id="never-utf8"),
    ],
)
def test_bytes_that_are_not_utf8_in_a_string_make_the_log_unreadable_naming_where(
    inside: bytes, byte: int, stream: bool, tmp_path: Path
) -> None:
    reason = header_refusal(text_log(tmp_path, inside), stream)
    if stream:  # yajl passes most of these to Python, whose decoder raised UnicodeDecodeError out of the import
        assert (
            reason == f"not valid JSON: invalid UTF-8 byte 0x{byte:02x} at byte offset {len(TEXT_PREFIX) + 3} (line 2)"
        )
    else:
        assert reason.startswith(f"not valid JSON: invalid UTF-8 byte 0x{byte:02x} (line 2")


def test_bytes_that_are_not_utf8_are_refused_when_the_samples_are_streamed_too(tmp_path: Path) -> None:
    if not streaming_available():
        pytest.skip("no ijson")
    reader = JsonLogReader(text_log(tmp_path, b"\xed\xb3\xbf"), stream=True)
    try:
        with pytest.raises(UnreadableLogError, match=r"^.*invalid UTF-8 byte 0xed at byte offset \d+ \(line 2\)$"):
            list(reader.samples())
    finally:
        reader.close()
