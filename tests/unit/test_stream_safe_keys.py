"""A run of combining characters is cut every 30, as UAX #15's Stream-Safe Text Format cuts it, before
NFKC orders it: the ordering is quadratic in the run's length, and an overseer id or a tool name of
one letter and 160,000 marks took 28 s to score. Text with shorter runs keeps the key it had."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalscore import visible_text
from evalscore.visible_text import COMBINING_GRAPHEME_JOINER, non_starters, stream_safe, visible_key


def longest_run(text: str) -> int:
    """The most combining characters in a row in ``text``'s NFKD decomposition."""
    longest = run = 0
    for char in unicodedata.normalize("NFKD", text):
        run = run + 1 if unicodedata.combining(char) else 0
        longest = max(longest, run)
    return longest


HOSTILE = [
    pytest.param("a" + "\u0301\u0316" * 5_000, id="marks of alternating classes"),
    pytest.param("a" + "\u0f73\u0f75" * 5_000, id="characters that are no marks but decompose to marks"),
    pytest.param("\u0301" * 10_000, id="marks with no letter before them"),
    pytest.param(("x" + "\u0316\u0301" * 40) * 300, id="many runs just past the bound"),
]


@pytest.mark.parametrize("text", HOSTILE)
def test_what_nfkc_is_given_never_holds_more_than_30_combining_characters_in_a_row(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    given_to_nfkc: list[str] = []
    real_normalize = unicodedata.normalize

    def recording(form: Any, value: str) -> str:
        if form == "NFKC":
            given_to_nfkc.append(value)
        return real_normalize(form, value)

    monkeypatch.setattr(visible_text.unicodedata, "normalize", recording)
    visible_key(text)
    assert len(given_to_nfkc) == 1
    assert longest_run(text) > 60
    assert longest_run(given_to_nfkc[0]) <= visible_text.NON_STARTERS_IN_A_ROW
    assert given_to_nfkc[0].replace(COMBINING_GRAPHEME_JOINER, "") == text


def test_a_run_of_exactly_30_is_left_as_it_is_and_31_is_cut_before_the_31st() -> None:
    thirty = "a" + "\u0301" * 30
    assert stream_safe(thirty) == thirty
    assert stream_safe(thirty + "\u0316") == thirty + COMBINING_GRAPHEME_JOINER + "\u0316"
    assert stream_safe("a" + "\u0f73" * 15) == "a" + "\u0f73" * 15  # 30 marks once decomposed
    assert stream_safe("a" + "\u0f73" * 16) == "a" + "\u0f73" * 15 + COMBINING_GRAPHEME_JOINER + "\u0f73"


def test_the_combining_characters_at_each_end_of_a_decomposition_are_counted() -> None:
    assert non_starters("a") == (0, 0, False)
    assert non_starters("\u0301") == (1, 1, True)
    assert non_starters("\u0f73") == (2, 2, True)  # no mark itself (class 0), two once decomposed
    assert non_starters("\u1e09") == (0, 2, False)  # c with cedilla and acute: c, then two marks
    assert non_starters("\u0344") == (2, 2, True)


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=40))
def test_text_without_a_long_run_keeps_the_key_plain_nfkc_gives(text: str) -> None:
    if longest_run(text) <= visible_text.NON_STARTERS_IN_A_ROW:
        assert stream_safe(text) == text


@pytest.mark.parametrize(
    ("one", "other"),
    [("alice", "Alice\u200b "), ("\uff41lice", "alice"), ("e\u0301", "\u00e9"), ("\u1100\u1161", "\uac00")],
)
def test_keys_a_reader_cannot_tell_apart_are_still_one(one: str, other: str) -> None:
    assert visible_key(one) == visible_key(other)
