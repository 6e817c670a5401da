"""Hostile ``.json`` logs: repeated keys at any depth, deep nesting and numbers beyond a double are refused."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from evalscore.importers.inspect import UnreadableLogError
from evalscore.importers.inspect._json_format import JsonLogReader, streaming_available
from evalscore.importers.inspect._strict_stream import Event, StreamSyntaxError, array_items, build
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


@pytest.mark.parametrize("stream", MODES)
def test_a_number_beyond_a_double_is_refused(stream: bool, tmp_path: Path) -> None:
    path = log(tmp_path, b"{" + EVAL + b', "samples": [{"id": 1, "total_time": 1e400}]}')
    reason = header_refusal(path, stream)
    assert "overflow" in reason or reason == "the number at /samples/0/total_time is beyond the range of a double"


def events(*items: Event) -> Iterator[Event]:
    return iter(items)


def test_the_builder_refuses_a_number_that_is_not_finite_whichever_backend_sent_it() -> None:
    stream = events(("map_key", "a"), ("number", float("inf")), ("end_map", None))
    with pytest.raises(StreamSyntaxError, match=r"^the number at /samples/3/a is beyond the range of a double$"):
        build(stream, ("start_map", None), ("samples", 3))


def test_the_builder_checks_without_building_when_asked() -> None:
    stream = events(("map_key", "a"), ("start_array", None), ("number", 1), ("end_array", None), ("end_map", None))
    assert build(stream, ("start_map", None), ("x",), keep=False) is None


def test_the_builder_builds_nested_values_and_names_array_positions() -> None:
    stream = events(
        ("number", 1),
        ("start_map", None),
        ("map_key", "k"),
        ("string", "v"),
        ("map_key", "k"),
        ("end_array", None),
    )
    with pytest.raises(StreamSyntaxError, match=r"^the object at /s/1 repeats the key 'k'"):
        list(array_items(stream, ("start_array", None), ("s",)))


def test_a_stream_that_ends_inside_a_value_is_refused() -> None:
    with pytest.raises(StreamSyntaxError, match="ends inside a value"):
        build(events(("map_key", "a")), ("start_map", None), ())


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
