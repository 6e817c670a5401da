"""What the LangGraph store readers make of one decoded value (``importers/langgraph/_store.py``),
value by value: no langgraph, no database."""

from __future__ import annotations

from typing import Any

import pytest

from evalscore.importers.langgraph._store import StoreReadError, ThreadValueError, resume_marker, threads_in_order

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


class ThreadsOnly:
    """A store that answers which threads it holds, and nothing else."""

    def __init__(self, ids: list[str]) -> None:
        self.ids = ids

    def thread_ids(self) -> list[str]:
        return list(self.ids)


def test_without_names_every_thread_is_imported_in_the_store_s_order() -> None:
    assert list(threads_in_order(ThreadsOnly(["a", "b", "c"]), ())) == ["a", "b", "c"]


def test_named_threads_come_in_the_order_named_each_once() -> None:
    store = ThreadsOnly(["a", "b", "c"])
    assert list(threads_in_order(store, ("c", "a", "c"))) == ["c", "a"]


def test_a_named_thread_the_store_does_not_hold_is_refused_by_name() -> None:
    with pytest.raises(StoreReadError, match=r"^the store holds no thread 'd'$"):
        list(threads_in_order(ThreadsOnly(["a"]), ("a", "d")))
