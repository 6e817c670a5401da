"""The surrogate-escape check before yajl and ``strict_json`` agree on every string: same verdict, same text.

yajl (ijson's C backend) reads a surrogate escape that is not half of a pair as ``?`` or joins it
with the next ``\\u`` escape; the check over the raw bytes must refuse exactly what ``strict_json``
(the ``.eval`` reader) refuses, and what it lets through yajl must read as ``strict_json`` does.
Strings are generated from fragments that are each valid JSON string text, so only their
surrogate escapes and backslashes can make a string invalid.
"""

from __future__ import annotations

import io
import json

import ijson
from hypothesis import example, given
from hypothesis import strategies as st

from evalscore.importers.inspect._raw_text import surrogate_escape_problem
from evalscore.inputs import strict_json
from evalscore.inputs.syntax_error import DocumentSyntaxError

FRAGMENTS = st.sampled_from(
    [
        rb"\\",  # an escaped backslash: a "u" after it is text
        rb"\ud800",
        rb"\uDBFF",
        rb"\udc00",
        rb"\uDFFF",
        rb"\u0041",
        b"ud800",
        "\u00e9".encode(),
    ]
)
STRINGS = st.lists(FRAGMENTS, max_size=8).map(lambda parts: b'["' + b"".join(parts) + b'"]')


def strict_text(document: bytes) -> str | None:
    try:
        value = strict_json.loads(document)
    except DocumentSyntaxError:
        return None
    assert isinstance(value, list)
    return str(value[0])


@given(STRINGS)
@example(rb'["\\ud800"]')  # an escaped backslash, then text
@example(rb'["\\\ud800"]')  # an escaped backslash, then an escape
@example(rb'["\ud800\u0041"]')  # yajl reads U+10041
@example(rb'["\udc00\ud800"]')
@example(rb'["\ud800\udc00\udc00"]')
@example(rb'["\\ud800\udc00"]')  # text that looks like a high escape, then a lone low one
def test_the_raw_check_refuses_exactly_what_strict_json_refuses(document: bytes) -> None:
    assert (surrogate_escape_problem(document) is None) == (strict_text(document) is not None)


@given(STRINGS)
def test_what_the_raw_check_lets_through_yajl_reads_as_strict_json_does(document: bytes) -> None:
    expected = strict_text(document)
    if expected is not None:
        assert list(ijson.items(io.BytesIO(document), "item")) == [expected]


@given(st.text())
def test_any_text_written_by_json_dumps_passes_the_raw_check(text: str) -> None:
    """Honest logs: ``json.dumps`` writes a character beyond U+FFFF as an escaped pair (``\\ud83d\\ude00``)."""
    for ensure_ascii in (True, False):
        document = json.dumps([text], ensure_ascii=ensure_ascii).encode()
        assert surrogate_escape_problem(document) is None
        assert strict_text(document) == text
