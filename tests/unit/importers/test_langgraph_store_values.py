"""What the LangGraph store readers make of one decoded value (``importers/langgraph/_store.py``),
value by value: no langgraph, no database."""

from __future__ import annotations

from typing import Any

import pytest

from evalscore.importers.langgraph._store import ThreadValueError, resume_marker

NOT_A_MAP = 'versions_seen["__interrupt__"] is not a map of channel names to versions'


@pytest.mark.parametrize(
    "checkpoint", [None, [], "versions_seen", 7, {}, {"versions_seen": None}, {"versions_seen": []}]
)
def test_a_checkpoint_without_a_map_of_versions_seen_has_no_resume_marker(checkpoint: Any) -> None:
    assert resume_marker(checkpoint) is None


def test_a_map_of_channel_names_to_versions_is_the_resume_marker() -> None:
    marker = {"messages": "00000000000000000000000000000002.0", "branch:to:tools": 3, "x": 1.5}
    assert resume_marker({"versions_seen": {"__interrupt__": marker}}) == marker


@pytest.mark.parametrize(
    "marker",
    [[], "v1", {"messages": [1]}, {"messages": None}, {1: "v1"}, {"messages": {"nested": "v1"}}],
)
def test_a_marker_that_is_not_a_map_of_names_to_versions_refuses_the_thread(marker: Any) -> None:
    with pytest.raises(ThreadValueError) as raised:
        resume_marker({"versions_seen": {"__interrupt__": marker}})
    assert str(raised.value) == NOT_A_MAP
