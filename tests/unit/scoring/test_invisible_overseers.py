"""An overseer id a reader cannot see is nobody, and two ids a reader cannot tell apart are one person."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalscore.scoring.signals import SignalParams, distinct_overseers, signals_of
from evalscore.visible_text import visible_key

from .builders import approval

INVISIBLE = ["\u200b", "\u00ad", "\u2060", "\ufeff", "\u3164", "\u115f", "\u200d\u200c", "\u200e"]


@pytest.mark.parametrize("invisible", INVISIBLE)
def test_an_id_of_invisible_characters_is_nobody(invisible: str) -> None:
    assert distinct_overseers([invisible]) == 0
    signals = signals_of([approval(overseers=[invisible])], SignalParams())
    assert (signals.without_overseer, signals.four_eyes) == (1, 0)


@pytest.mark.parametrize("invisible", INVISIBLE)
def test_an_id_with_an_invisible_character_is_the_same_person(invisible: str) -> None:
    assert distinct_overseers(["alice", f"ali{invisible}ce", f"alice{invisible}"]) == 1
    assert signals_of([approval(overseers=["alice", f"alice{invisible}"])], SignalParams()).four_eyes == 0


def test_visible_differences_still_make_two_people() -> None:
    assert distinct_overseers(["alice", "alice2", "al ice"]) == 3
    assert visible_key(" \uff21lice\u200b ") == "alice"


def reference_key(text: str) -> str:
    """The key spelled out step by step, with no shortcut for ASCII."""
    normalized = unicodedata.normalize("NFKC", text)
    shown = "".join(c for c in normalized if unicodedata.category(c) != "Cf" and c not in "\u115f\u1160\u3164\uffa0")
    return shown.strip().casefold()


@given(st.text(alphabet=st.characters(max_codepoint=0x7F)) | st.text())
def test_the_key_of_any_text_ascii_or_not_is_the_step_by_step_one(text: str) -> None:
    assert visible_key(text) == reference_key(text)


@pytest.mark.parametrize("text", [" Alice\x1f", "ALICE\t", "\x1c\x1dbob ", "Carol"])
def test_an_ascii_id_is_trimmed_of_white_space_and_case_folded(text: str) -> None:
    assert visible_key(text) == text.strip().lower()
    assert visible_key(text) == reference_key(text)
