"""Where a JSON Pointer's value starts in a document's text: the line and column a finding is shown at."""

from __future__ import annotations

import json

import pytest

from evalscore.inputs import positions
from evalscore.inputs.positions import LOCATE_LIMIT, json_positions, yaml_positions

DOCUMENT = b"""{
  "a": 1,
  "list": [10, {"x": "y"}, [true]],
  "a/b": {"~": "tilde"},
  "nested": {"deep": {"deeper": null}},
  "caf\\u00e9": "\xc3\xa9t\xc3\xa9", "last": 2
}
"""


@pytest.mark.parametrize(
    ("pointer", "position"),
    [
        ("", (1, 1)),
        ("/a", (2, 8)),
        ("/list", (3, 11)),
        ("/list/0", (3, 12)),
        ("/list/1", (3, 16)),
        ("/list/1/x", (3, 22)),
        ("/list/2/0", (3, 29)),
        ("/a~1b", (4, 10)),
        ("/a~1b/~0", (4, 16)),
        ("/nested/deep/deeper", (5, 33)),
        ("/café", (6, 16)),
        ("/last", (6, 31)),  # columns count characters, not bytes: é is one, its escape six
    ],
)
def test_each_pointer_is_placed_where_its_value_starts(pointer: str, position: tuple[int, int]) -> None:
    assert json.loads(DOCUMENT) is not None
    assert json_positions(DOCUMENT, [pointer]) == {pointer: position}


def test_a_missing_property_is_placed_at_the_object_that_lacks_it() -> None:
    assert json_positions(DOCUMENT, ["/nested/deep/absent", "/list/9"]) == {
        "/nested/deep/absent": (5, 22),
        "/list/9": (3, 11),
    }


def test_several_pointers_are_placed_in_one_reading() -> None:
    found = json_positions(DOCUMENT, ["/last", "/a", "/list/1/x"])
    assert found == {"/last": (6, 31), "/a": (2, 8), "/list/1/x": (3, 22)}


def test_a_jsonl_line_is_placed_by_column() -> None:
    line = b'{"run_id": "r", "task_results": [{"task_id": "t", "step_results": []}]}\n'
    assert json_positions(line, ["/task_results/0/task_id"]) == {"/task_results/0/task_id": (1, 46)}


def test_strings_holding_brackets_quotes_and_colons_do_not_move_anything() -> None:
    data = b'{"k": "a]}\\":,{[", "v": [1, "x\\\\"], "w": 3}'
    assert json_positions(data, ["/w", "/v/1"]) == {"/w": (1, 42), "/v/1": (1, 29)}


YAML = b"""suite:
  id: s
  tasks:
    - id: t1
      steps:
        - {n: 1, prompt: a}
        - n: 2
          prompt: b
"""


@pytest.mark.parametrize(
    ("pointer", "position"),
    [
        ("/suite/id", (2, 7)),
        ("/suite/tasks/0/id", (4, 11)),
        ("/suite/tasks/0/steps/0/n", (6, 15)),
        ("/suite/tasks/0/steps/1/prompt", (8, 19)),
        ("/suite/tasks/0/steps/1/absent", (7, 11)),
    ],
)
def test_each_pointer_is_placed_in_a_yaml_document(pointer: str, position: tuple[int, int]) -> None:
    assert yaml_positions(YAML, [pointer]) == {pointer: position}


def test_locating_is_kept_for_documents_of_a_few_mebibytes() -> None:
    assert LOCATE_LIMIT == 4 * 1024 * 1024


def counted_descents(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The pointers whose values the locator reads member by member or steps over, in order."""
    entered: list[str] = []
    real = positions._descend

    def counting(text: str, index: int, pointer: str, wanted: set[str], starts: dict[str, int]) -> int:
        entered.append(pointer)
        return real(text, index, pointer, wanted, starts)

    monkeypatch.setattr(positions, "_descend", counting)
    return entered


def test_values_off_the_way_to_a_pointer_are_stepped_over_in_one_call(monkeypatch: pytest.MonkeyPatch) -> None:
    entered = counted_descents(monkeypatch)
    document = json.dumps({"a": [{"x": [1, 2]}] * 10_000, "b": {"c": 1, "d": 2}}).encode()
    assert json_positions(document, ["/b/d"]) == {"/b/d": (1, len(document) - 2)}
    assert entered == ["", "/a", "/b", "/b/c", "/b/d"]


def test_reading_stops_once_every_pointer_is_placed(monkeypatch: pytest.MonkeyPatch) -> None:
    entered = counted_descents(monkeypatch)
    document = json.dumps({"a": [7] * 10_000, "b": 1}).encode()
    assert json_positions(document, ["/a/0"]) == {"/a/0": (1, 8)}
    assert entered == ["", "/a", "/a/0"]


def test_an_integer_past_int_s_digit_limit_does_not_stop_the_placing() -> None:
    document = b'{"huge": ' + b"9" * 5_000 + b', "after": true}'
    assert json_positions(document, ["/after"]) == {"/after": (1, 5_021)}
