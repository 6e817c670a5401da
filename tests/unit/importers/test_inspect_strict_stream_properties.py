"""The streamed ``.json`` reader and ``strict_json`` agree on every document: same verdict, same value.

Two readers that disagree about a document are the parser differential issue 8 is about, so the
streaming walks (fast check, fast build, and the locating walk) are compared with
``evalscore.inputs.strict_json`` on generated JSON texts whose objects often repeat a key and whose
nesting straddles ``MAX_DEPTH``.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import ijson
import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalscore.importers.inspect._strict_stream import (
    Event,
    Refused,
    StreamSyntaxError,
    build_value,
    check_value,
    locate_refusal,
)
from evalscore.inputs import strict_json
from evalscore.inputs.syntax_error import DocumentSyntaxError

KEYS = st.sampled_from(["a", "b", "é", "\\u00e9", "a\\u0000"])
"""Few keys, so that objects often repeat one (``é`` also spelled as an escape)."""
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**63) + 1, 2**63 - 1),  # yajl refuses -2**63 itself ("integer overflow"): unreadable, not misread
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=5),
)


def _text(tree: Any) -> bytes:
    """JSON text for a tree whose objects are lists of (key, value) pairs, so keys may repeat."""
    if isinstance(tree, tuple) and tree[0] == "object":
        return b"{" + b",".join(b'"' + key.encode() + b'":' + _text(value) for key, value in tree[1]) + b"}"
    if isinstance(tree, tuple) and tree[0] == "array":
        return b"[" + b",".join(_text(item) for item in tree[1]) + b"]"
    return orjson.dumps(tree)


TREES = st.recursive(
    SCALARS,
    lambda children: st.one_of(
        st.tuples(st.just("array"), st.lists(children, max_size=3)),
        st.tuples(st.just("object"), st.lists(st.tuples(KEYS, children), max_size=3)),
    ),
    max_leaves=12,
)


@st.composite
def documents(draw: st.DrawFn) -> bytes:
    """A tree, sometimes wrapped in enough arrays and objects to sit near the depth limit, maybe with a sibling."""
    inner = _text(draw(TREES))
    wrappers = draw(st.lists(st.sampled_from(["array", "object"]), max_size=3) | st.integers(195, 202).map(_deep))
    for wrapper in reversed(wrappers):
        inner = b"[" + inner + b"]" if wrapper == "array" else b'{"w":' + inner + b"}"
    if draw(st.booleans()):  # a sibling after the deep part: the walks must climb back out correctly
        inner = b"[" + inner + b"," + _text(draw(TREES)) + b"]"
    return inner


def _deep(levels: int) -> list[str]:
    return ["array", "object"] * (levels // 2) + ["array"] * (levels % 2)


def _events(text: bytes) -> tuple[Iterator[Event], Event]:
    events = iter(ijson.basic_parse(io.BytesIO(text), use_float=True))
    return events, next(events)


def _strict(text: bytes) -> tuple[DocumentSyntaxError | None, Any]:
    """strict_json's verdict: the refusal (a repeated key or too deep: the texts are valid JSON) or the value."""
    try:
        return None, strict_json.loads(text)
    except DocumentSyntaxError as error:
        return error, None


def _drain(events: Iterator[Event]) -> None:
    for _ in events:
        pass


@given(documents())
def test_the_fast_build_accepts_exactly_what_strict_json_accepts_and_builds_the_same_value(text: bytes) -> None:
    refusal, value = _strict(text)
    events, first = _events(text)
    if refusal is None:
        assert build_value(events, first, 0) == value
        _drain(events)  # and the text after it is nothing ijson objects to
    else:
        with pytest.raises(Refused):
            build_value(events, first, 0)


@given(documents())
def test_the_fast_check_refuses_exactly_what_strict_json_refuses(text: bytes) -> None:
    refusal, _ = _strict(text)
    events, first = _events(text)
    if refusal is None:
        check_value(events, first, 0)
    else:
        with pytest.raises(Refused):
            check_value(events, first, 0)


@given(documents())
def test_the_locating_walk_refuses_what_strict_json_refuses_at_the_same_pointer(text: bytes) -> None:
    refusal, _ = _strict(text)
    events, first = _events(text)
    if refusal is None:
        locate_refusal(events, first, ())
        return
    assert refusal.code in (strict_json.REPEATED_KEY, strict_json.TOO_DEEP)
    expected = refusal.reason if refusal.code == strict_json.REPEATED_KEY else "nested deeper than 200"
    with pytest.raises(StreamSyntaxError, match=re.escape(expected)):
        locate_refusal(events, first, ())
