"""An overseer id a reader cannot see is nobody, and two ids a reader cannot tell apart are one person."""

from __future__ import annotations

import pytest

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
