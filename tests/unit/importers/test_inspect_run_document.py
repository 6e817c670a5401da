"""The Run assembled from a hand-written Inspect header: what is copied, what is derived, what stays empty.

Part of the mutation-testing selection of the importer (see test_inspect_guards.py): the header is
a plain dict, the samples go through ``map_sample``, so no Inspect log has to be written.
"""

from __future__ import annotations

from typing import Any

import pytest

from evalscore.importers.inspect._errors import SampleMappingError
from evalscore.importers.inspect._run import run_document
from evalscore.importers.inspect._sample import MappedSample, map_sample

HUMAN = frozenset({"human"})
POLICY = {"approvers": [{"name": "human", "tools": ["refund"]}, {"name": "auto", "tools": ["lookup"]}]}


def header(**eval_fields: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "task": "refund_desk",
        "task_version": 3,
        "task_id": "T1",
        "run_id": "R1",
        "eval_id": "E1",
        "model": "mockllm/model",
        "config": {"epochs": 1, "approval": POLICY},
        "packages": {"inspect_ai": "0.3.285"},
    }
    spec.update(eval_fields)
    return {
        "eval": spec,
        "plan": {"steps": [{"solver": "use_tools"}, {"solver": "generate"}]},
        "stats": {"started_at": "2025-01-01T10:00:00+00:00", "completed_at": "2025-01-01T10:05:00+00:00"},
        "status": "success",
    }


def mapped_sample(sample_id: object = "s-1", epoch: object = 1, *events: dict[str, Any], **fields: Any) -> MappedSample:
    sample: dict[str, Any] = {
        "id": sample_id,
        "epoch": epoch,
        "events": list(events),
        "output": {"completion": "done"},
        "total_time": 1.5,
    }
    sample.update(fields)
    return map_sample(sample, HUMAN)


def approval(call_id: str, approver: str, decision: str, tool: str) -> dict[str, Any]:
    return {
        "event": "approval",
        "timestamp": "2025-01-01T10:01:00+00:00",
        "call": {"id": call_id, "function": tool},
        "approver": approver,
        "decision": decision,
    }


def document(head: dict[str, Any], *samples: MappedSample, approvers: frozenset[str] = HUMAN) -> dict[str, Any]:
    return run_document(head, list(samples), log_format="eval", human_approvers=approvers)


def test_the_run_copies_the_eval_header_and_keeps_what_it_cannot_hold_for_a_reviewer() -> None:
    sample = mapped_sample(
        "s-1",
        1,
        approval("l1", "auto", "approve", "lookup"),
        {"event": "tool", "id": "l1", "function": "lookup"},
        approval("r1", "human", "reject", "refund"),
        {"event": "tool", "id": "r1", "function": "refund"},
        limit={"type": "operator", "limit": 1},
    )
    assert document(header(), sample, approvers=frozenset({"human", "desk"})) == {
        "suite_id": "refund_desk",
        "suite_version": "3",
        "run_id": "E1",
        "started_at": "2025-01-01T10:00:00+00:00",
        "ended_at": "2025-01-01T10:05:00+00:00",
        "adapter": {
            "name": "use_tools+generate",
            "model": "mockllm/model",
            "config": {
                "source": "inspect_ai",
                "inspect_version": "0.3.285",
                "log_format": "eval",
                "log_status": "success",
                "eval_id": "E1",
                "inspect_run_id": "R1",
                "inspect_task_id": "T1",
                "epochs": 1,
                "approval_policy": POLICY,
                "human_approvers": ["desk", "human"],
                "automatic_approvals": [
                    {
                        "task_id": "s-1",
                        "call_id": "l1",
                        "tool": "lookup",
                        "resolution": "approved",
                        "decided_at": "2025-01-01T10:01:00+00:00",
                        "approval_chain": [{"approver": "auto", "decision": "approve"}],
                    }
                ],
                "calls_not_run": [
                    {"task_id": "s-1", "call_id": "r1", "tool": "refund", "reason": "approval reject by human"}
                ],
                "sample_notes": [{"task_id": "s-1", "limit": {"type": "operator", "limit": 1}}],
                "superseded_members": [],
            },
        },
        "task_results": [{"task_id": "s-1", "step_results": [sample.step]}],
    }


def test_a_header_without_the_optional_provenance_leaves_it_null() -> None:
    head = header(config=None, packages="0.3.285")
    del head["status"]
    config = document(head, mapped_sample())["adapter"]["config"]
    assert (config["inspect_version"], config["log_status"], config["approval_policy"]) == (None, None, None)
    assert config["epochs"] is None  # not 1: the log does not say how many epochs ran
    assert (config["automatic_approvals"], config["calls_not_run"], config["sample_notes"]) == ([], [], [])
    assert config["superseded_members"] == []


def test_superseded_sample_members_are_listed_by_name_with_how_many_entries_were_skipped() -> None:
    run = run_document(
        header(),
        [mapped_sample()],
        log_format="eval",
        human_approvers=HUMAN,
        superseded_members={"samples/b_epoch_1.json": 2, "samples/a_epoch_1.json": 1},
    )
    assert run["adapter"]["config"]["superseded_members"] == [
        {"member": "samples/a_epoch_1.json", "superseded_entries": 1},
        {"member": "samples/b_epoch_1.json", "superseded_entries": 2},
    ]


@pytest.mark.parametrize(
    "stats",
    [None, {}, {"started_at": None, "completed_at": 17}],
    ids=["no-stats", "empty-stats", "not-text"],
)
def test_run_times_the_log_does_not_hold_are_empty_never_invented(stats: object) -> None:
    head = header()
    head["stats"] = stats
    run = document(head, mapped_sample())
    assert (run["started_at"], run["ended_at"]) == ("", "")


def test_run_times_are_the_logs_own_strings_even_without_an_offset() -> None:
    head = header()
    head["stats"] = {"started_at": "2025-01-01T10:00:00", "completed_at": "later"}
    run = document(head, mapped_sample())
    assert (run["started_at"], run["ended_at"]) == ("2025-01-01T10:00:00", "later")


@pytest.mark.parametrize("eval_id", [None, ""])
def test_the_run_id_falls_back_to_the_task_id_for_logs_without_an_eval_id(eval_id: object) -> None:
    assert document(header(eval_id=eval_id), mapped_sample())["run_id"] == "T1"


@pytest.mark.parametrize(("version", "expected"), [(0, "0"), ("2b", "2b")])
def test_the_task_version_is_kept_as_text(version: object, expected: str) -> None:
    assert document(header(task_version=version), mapped_sample())["suite_version"] == expected


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        pytest.param({"task": ""}, "the log records no eval.task", id="task"),
        pytest.param({"task": None}, "the log records no eval.task", id="task-null"),
        pytest.param({"model": None}, "the log records no eval.model", id="model"),
        pytest.param({"eval_id": None, "task_id": None}, "the log records no eval.eval_id", id="ids"),
        pytest.param({"task_version": True}, "usable eval.task_version (found True)", id="version-bool"),
        pytest.param({"task_version": None}, "usable eval.task_version (found None)", id="version-null"),
    ],
)
def test_a_header_missing_what_the_run_requires_is_refused(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(SampleMappingError) as raised:
        document(header(**fields), mapped_sample())
    assert str(raised.value).endswith(message)


def test_a_header_without_an_eval_object_is_refused() -> None:
    with pytest.raises(SampleMappingError) as raised:
        run_document({"stats": {}}, [mapped_sample()], log_format="json", human_approvers=HUMAN)
    assert str(raised.value) == "the log has no eval object"


@pytest.mark.parametrize(
    ("fields", "plan", "name"),
    [
        pytest.param({"solver": "react"}, None, "react", id="named-solver"),
        pytest.param({"solver": "", "agent": "my_agent"}, None, "my_agent", id="named-agent"),
        pytest.param({"solver": ""}, {"steps": [{"solver": "generate"}]}, "generate", id="empty-name-uses-plan"),
        pytest.param({}, {"steps": ["junk", {"solver": 3}, {"solver": "generate"}]}, "generate", id="odd-steps"),
        pytest.param({}, {"steps": None}, "inspect_ai", id="no-steps"),
        pytest.param({}, "not a plan", "inspect_ai", id="no-plan"),
    ],
)
def test_the_adapter_is_the_named_solver_else_the_plans_steps_else_inspect(
    fields: dict[str, Any], plan: object, name: str
) -> None:
    head = header(**fields)
    head["plan"] = plan
    assert document(head, mapped_sample())["adapter"]["name"] == name


def _task_ids(run: dict[str, Any]) -> list[str]:
    return [task["task_id"] for task in run["task_results"]]


def test_with_several_epochs_configured_every_task_id_names_its_epoch() -> None:
    run = document(header(config={"epochs": 2}), mapped_sample("a", 1), mapped_sample("a", 2), mapped_sample(7, 1))
    assert _task_ids(run) == ["a#epoch1", "a#epoch2", "7#epoch1"]
    assert run["adapter"]["config"]["epochs"] == 2


def test_a_sample_of_a_later_epoch_makes_every_task_id_name_its_epoch() -> None:
    run = document(header(), mapped_sample("a", 1), mapped_sample("b", 2))
    assert _task_ids(run) == ["a#epoch1", "b#epoch2"]


NO_EPOCH_COUNT = [True, "2", None, 2.0, float("inf"), float("nan"), [2]]
"""Values of ``eval.config.epochs`` that are no integer count of epochs (an ``.eval`` member's 1e400 reads as inf)."""


@pytest.mark.parametrize("epochs", [1, *NO_EPOCH_COUNT])
def test_one_epoch_keeps_the_sample_ids_as_task_ids(epochs: object) -> None:
    run = document(header(config={"epochs": epochs}), mapped_sample("a", 1), mapped_sample("b", None))
    assert _task_ids(run) == ["a", "b"]


@pytest.mark.parametrize("epochs", NO_EPOCH_COUNT)
def test_an_epoch_count_the_log_does_not_record_as_an_integer_is_written_null_not_one(epochs: object) -> None:
    run = document(header(config={"epochs": epochs}), mapped_sample("a", 1))
    assert run["adapter"]["config"]["epochs"] is None


@pytest.mark.parametrize("config", [{}, {"approval": POLICY}, None, "epochs=2"])
def test_a_log_without_an_epoch_count_says_null_and_keeps_the_sample_ids(config: object) -> None:
    run = document(header(config=config), mapped_sample("a", 1), mapped_sample("b", 1))
    assert _task_ids(run) == ["a", "b"]
    assert run["adapter"]["config"]["epochs"] is None


def test_without_an_epoch_count_the_samples_own_epochs_still_name_the_task_ids() -> None:
    run = document(header(config={}), mapped_sample("a", 1), mapped_sample("a", 2))
    assert _task_ids(run) == ["a#epoch1", "a#epoch2"]
    assert run["adapter"]["config"]["epochs"] is None


@pytest.mark.parametrize("epochs", [1, 3])
def test_an_epoch_count_the_log_records_is_copied(epochs: int) -> None:
    run = document(header(config={"epochs": epochs}), *(mapped_sample("a", n) for n in range(1, epochs + 1)))
    assert run["adapter"]["config"]["epochs"] == epochs


def test_a_sample_of_a_multi_epoch_log_without_an_epoch_is_refused() -> None:
    with pytest.raises(SampleMappingError) as raised:
        document(header(config={"epochs": 2}), mapped_sample("a", 1), mapped_sample("b", None))
    assert str(raised.value) == "sample 'b' of a multi-epoch log records no epoch"


def test_provenance_names_the_task_of_each_entry_it_keeps() -> None:
    quiet = mapped_sample("q", 1)
    noisy = mapped_sample(
        "n",
        1,
        approval("l1", "auto", "approve", "lookup"),
        {"event": "tool", "id": "p1", "function": "refund", "error": {"type": "parsing", "message": "bad"}},
        error={"message": "boom"},
    )
    config = document(header(), quiet, noisy)["adapter"]["config"]
    assert [entry["task_id"] for entry in config["automatic_approvals"]] == ["n"]
    assert config["calls_not_run"] == [
        {"task_id": "n", "call_id": "p1", "tool": "refund", "reason": "parsing error: bad"}
    ]
    assert config["sample_notes"] == [{"task_id": "n", "error": "boom"}]
