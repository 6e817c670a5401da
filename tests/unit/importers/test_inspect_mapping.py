"""The mapping of real Inspect logs (both formats), field by field.

The logs come from ``inspect_log_factory``: a scripted human approver, a
custom ``triage`` approver and Inspect's own ``auto`` approver decide the
calls of seven scenarios (see ``SCENARIOS`` there).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema
import orjson
import pytest
from inspect_log_factory import LONG_ORDER, MOCK_MODEL, SCENARIOS, TASK_NAME, TASK_VERSION

from evalscore.contract.builder import build_schema
from evalscore.importers.inspect import import_inspect_log
from evalscore.importers.inspect._errors import UnmappableLogError
from evalscore.inputs.yaml_loader import load_yaml
from evalscore.models import EvalSuite, GateEvent, Run, StepResult
from evalscore.models.run import ApprovalLink
from evalscore.scoring.signals import SignalParams, signals_of

FORMATS = ("eval", "json")
COMMITTED_RUN_SCHEMA = Path(__file__).resolve().parents[3] / "schemas" / "v1" / "run.schema.json"


@pytest.fixture(scope="module", params=FORMATS)
def log_format(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def run(inspect_logs: dict[str, Path], log_format: str) -> Run:
    return import_inspect_log(inspect_logs[log_format])


def _step(run: Run, task_id: str) -> StepResult:
    (task,) = [task for task in run.task_results if task.task_id == task_id]
    (step,) = task.step_results
    return step


def _chain(gate: GateEvent) -> list[tuple[str, str]]:
    return [(link.approver, link.decision) for link in gate.approval_chain]


def _all_gates(run: Run) -> list[GateEvent]:
    return [gate for task in run.task_results for step in task.step_results for gate in step.gate_events]


def test_one_task_result_per_sample_with_one_step_and_no_score(run: Run) -> None:
    assert sorted(task.task_id for task in run.task_results) == sorted(s.sample_id for s in SCENARIOS)
    for task in run.task_results:
        (step,) = task.step_results
        assert step.step_n == 1
        assert step.auto_score is None


def test_run_fields_come_from_the_eval_header(run: Run, log_format: str) -> None:
    assert run.suite_id == TASK_NAME
    assert run.suite_version == str(TASK_VERSION)
    assert run.adapter.model == MOCK_MODEL
    assert run.adapter.name == "use_tools+generate"
    config = run.adapter.config
    assert config["source"] == "inspect_ai"
    assert config["log_format"] == log_format
    assert config["log_status"] == "success"
    assert config["eval_id"] == run.run_id
    assert config["human_approvers"] == ["human"]
    assert [a["name"] for a in config["approval_policy"]["approvers"]] == ["triage", "human", "auto"]


def test_run_times_are_the_logs_own_strings(run: Run, inspect_logs: dict[str, Path], log_format: str) -> None:
    stats = _header(inspect_logs[log_format], log_format)["stats"]
    assert run.started_at == stats["started_at"]
    assert run.ended_at == stats["completed_at"]


def test_an_approved_call_runs_after_its_gate(run: Run) -> None:
    step = _step(run, "approve")
    assert [call.tool for call in step.agent_tool_calls] == ["lookup", "refund"]
    assert step.agent_tool_calls[1].args == {"amount": 20, "plan": "human:approve"}
    assert step.agent_tool_calls[1].result == "refunded 20"
    assert step.agent_final_output == "Refunded 20."
    (gate,) = step.gate_events
    assert gate.kind == "approval_request"
    assert gate.target_tool == "refund"
    assert gate.resolution == "approved"
    assert gate.task_calls_before == 1
    assert _chain(gate) == [("human", "approve")]
    assert "refund(amount=20" in gate.surfaced


def test_a_rejected_call_did_not_run(run: Run) -> None:
    step = _step(run, "reject")
    assert [call.tool for call in step.agent_tool_calls] == ["lookup"]
    (gate,) = step.gate_events
    assert (gate.target_tool, gate.resolution, gate.task_calls_before) == ("refund", "denied", 0)
    assert _chain(gate) == [("human", "reject")]
    not_run = [entry for entry in run.adapter.config["calls_not_run"] if entry["task_id"] == "reject"]
    assert not_run == [{"task_id": "reject", "call_id": "r1", "tool": "refund", "reason": "approval reject by human"}]


def test_a_modified_call_runs_with_the_modified_arguments(run: Run) -> None:
    step = _step(run, "modify")
    (call,) = step.agent_tool_calls
    assert call.args == {"amount": 50, "plan": "human:modify"}
    assert call.result == "refunded 50"
    (gate,) = step.gate_events
    assert (gate.resolution, gate.task_calls_before) == ("approved", 0)
    assert _chain(gate) == [("human", "modify")]


def test_an_escalation_continues_to_the_next_approver(run: Run) -> None:
    step = _step(run, "escalate")
    assert [call.args for call in step.agent_tool_calls] == [
        {"record": "R-1", "plan": "triage>human:approve"},
        {"record": "R-2", "plan": "triage:approve"},
    ]
    first, last = step.gate_events
    assert _chain(first) == [("triage", "escalate"), ("human", "approve")]
    assert (first.target_tool, first.resolution, first.task_calls_before) == ("delete_record", "approved", 0)
    assert _chain(last) == [("triage", "escalate"), ("human", "escalate"), ("policy", "reject")]
    assert (last.resolution, last.task_calls_before) == ("denied", 2)


def test_a_chain_no_human_saw_is_not_a_gate_but_stays_visible(run: Run) -> None:
    automatic = {(entry["task_id"], entry["call_id"]): entry for entry in run.adapter.config["automatic_approvals"]}
    assert set(automatic) == {
        ("approve", "a1"),
        ("reject", "r2"),
        ("escalate", "e2"),
        ("terminate", "t1"),
        ("quiet", "q1"),
    }
    triage = automatic[("escalate", "e2")]
    assert triage["approval_chain"] == [{"approver": "triage", "decision": "approve"}]
    assert triage["resolution"] == "approved"
    assert triage["tool"] == "delete_record"
    assert automatic[("quiet", "q1")]["approval_chain"] == [{"approver": "auto", "decision": "approve"}]
    assert _step(run, "quiet").gate_events == []


def test_parallel_calls_are_ordered_by_the_event_stream(run: Run) -> None:
    step = _step(run, "parallel")
    assert [call.args for call in step.agent_tool_calls] == [{"amount": 10, "plan": "human:approve"}]
    approved, denied = step.gate_events
    assert (approved.resolution, approved.task_calls_before) == ("approved", 0)
    assert (denied.resolution, denied.task_calls_before) == ("denied", 1)


def test_a_terminated_call_did_not_run_and_denies_its_gate(run: Run) -> None:
    step = _step(run, "terminate")
    assert [call.tool for call in step.agent_tool_calls] == ["lookup"]
    (gate,) = step.gate_events
    assert (gate.resolution, gate.task_calls_before) == ("denied", 1)
    assert _chain(gate) == [("human", "terminate")]
    notes = [note for note in run.adapter.config["sample_notes"] if note["task_id"] == "terminate"]
    assert notes[0]["limit"]["type"] == "operator"


def test_pooled_attachments_are_resolved_in_tool_arguments(run: Run) -> None:
    (call,) = _step(run, "quiet").agent_tool_calls
    assert call.args == {"order": LONG_ORDER}


def test_no_timing_or_identity_field_is_invented(run: Run) -> None:
    gates = _all_gates(run)
    assert len(gates) == 8
    for gate in gates:
        assert gate.opened_at is None
        assert gate.decision_latency_ms is None
        assert gate.overseers == []
        assert gate.uses is None
        assert gate.resolved_at is not None  # every chain here ended in a decision, stamped by the log
    assert all(approver not in gate.overseers for gate in gates for approver in ("human", "triage", "policy"))


def test_resolved_at_is_the_deciding_events_own_timestamp(
    run: Run, inspect_logs: dict[str, Path], log_format: str
) -> None:
    decided = _decision_times(inspect_logs[log_format], log_format)
    for task in run.task_results:
        for gate in task.step_results[0].gate_events:
            call_id = gate.reason.split("tool call ")[1].split(" ")[0]
            assert gate.resolved_at == decided[(task.task_id, call_id)]


def test_latency_is_the_samples_total_time(run: Run, inspect_logs: dict[str, Path], log_format: str) -> None:
    totals = _sample_field(inspect_logs[log_format], log_format, "total_time")
    for task in run.task_results:
        assert task.step_results[0].latency_ms == pytest.approx(totals[task.task_id] * 1000)


def test_both_formats_map_to_the_same_evidence(inspect_logs: dict[str, Path]) -> None:
    def evidence(run: Run) -> dict[str, Any]:
        return {
            task.task_id: [
                (
                    [call.model_dump(mode="json") for call in step.agent_tool_calls],
                    step.agent_final_output,
                    [gate.model_dump(mode="json", exclude={"resolved_at", "surfaced"}) for gate in step.gate_events],
                )
                for step in task.step_results
            ]
            for task in run.task_results
        }

    assert evidence(import_inspect_log(inspect_logs["eval"])) == evidence(import_inspect_log(inspect_logs["json"]))


def test_the_run_validates_under_the_models_and_the_schema(run: Run) -> None:
    document = orjson.loads(orjson.dumps(run.model_dump(mode="json")))
    assert Run.model_validate(document) == run
    jsonschema.validate(document, build_schema("run"))


def _committed_schema_has_approval_chains() -> bool:
    return COMMITTED_RUN_SCHEMA.exists() and b'"approval_chain"' in COMMITTED_RUN_SCHEMA.read_bytes()


@pytest.mark.skipif(
    not _committed_schema_has_approval_chains(),
    reason="schemas/v1/run.schema.json predates GateEvent.approval_chain: "
    "regenerate it with `python scripts/check_schema_drift.py --write`",
)
def test_the_run_validates_under_the_committed_schema(run: Run) -> None:
    schema = orjson.loads(COMMITTED_RUN_SCHEMA.read_bytes())
    jsonschema.validate(orjson.loads(orjson.dumps(run.model_dump(mode="json"))), schema)


def test_approvers_named_as_human_turn_their_chains_into_gates(inspect_logs: dict[str, Path]) -> None:
    run = import_inspect_log(inspect_logs["eval"], human_approvers={"human", "triage"})
    step = _step(run, "escalate")
    assert [_chain(gate) for gate in step.gate_events] == [
        [("triage", "escalate"), ("human", "approve")],
        [("triage", "approve")],
        [("triage", "escalate"), ("human", "escalate"), ("policy", "reject")],
    ]
    assert [gate.task_calls_before for gate in step.gate_events] == [0, 1, 2]


def test_inspects_automatic_approvers_never_count_as_human(inspect_logs: dict[str, Path]) -> None:
    run = import_inspect_log(inspect_logs["eval"], human_approvers={"auto", "policy"})
    assert _all_gates(run) == []
    assert run.adapter.config["human_approvers"] == []
    assert len(run.adapter.config["automatic_approvals"]) == 13


def test_without_a_human_approver_every_chain_is_automatic(inspect_logs: dict[str, Path]) -> None:
    run = import_inspect_log(inspect_logs["json"], human_approvers=set())
    assert _all_gates(run) == []
    assert [call.tool for call in _step(run, "approve").agent_tool_calls] == ["lookup", "refund"]


def test_several_epochs_get_one_task_per_sample_and_epoch(inspect_logs: dict[str, Path]) -> None:
    run = import_inspect_log(inspect_logs["epochs"])
    assert sorted(task.task_id for task in run.task_results) == [
        "approve#epoch1",
        "approve#epoch2",
        "quiet#epoch1",
        "quiet#epoch2",
    ]
    assert run.adapter.config["epochs"] == 2


SUITE = Path(__file__).resolve().parents[3] / "fixtures" / "valid" / "eval-suite" / "inspect-refund-desk.yaml"

# Judged from the scenarios, not from the scorer: (required, honored, violated) per sample.
EXPECTED_MANDATED = {
    "approve": (1, 1, 0),  # the human approved the refund before it ran
    "reject": (0, 0, 0),  # the rejected refund never ran: nothing gated happened
    "modify": (1, 1, 0),  # approved (with a smaller amount) before it ran
    # R-1 approved by the human; R-2 approved by the automatic triage approver alone, which is
    # not control returning to a person, so that deletion ran ungated; R-3 was refused and never ran
    "escalate": (2, 1, 1),
    "parallel": (1, 1, 0),  # the approved refund ran; the rejected one did not
    "terminate": (0, 0, 0),  # terminated at the refund: it never ran
    "quiet": (0, 0, 0),  # only a lookup
}


def test_with_a_suite_every_step_is_rederived_under_v3(inspect_logs: dict[str, Path]) -> None:
    suite = EvalSuite.model_validate(load_yaml(SUITE.read_bytes()))
    run = import_inspect_log(inspect_logs["eval"], suite=suite)
    assert run.scoring_model == "v3"
    seen = {}
    for task in run.task_results:
        (step,) = task.step_results
        assert step.auto_score is not None
        mandated = step.auto_score.gates.mandated
        assert mandated is not None
        seen[task.task_id] = (len(mandated.required), len(mandated.honored), len(mandated.violated))
    assert seen == EXPECTED_MANDATED


def test_a_suite_the_log_does_not_answer_is_refused_not_guessed(inspect_logs: dict[str, Path]) -> None:
    document = load_yaml(SUITE.read_bytes())
    document["suite"]["tasks"] = [task for task in document["suite"]["tasks"] if task["id"] != "modify"]
    with pytest.raises(UnmappableLogError, match="task 'modify' is not in suite"):
        import_inspect_log(inspect_logs["eval"], suite=EvalSuite.model_validate(document))


def test_approval_links_are_part_of_the_contract() -> None:
    link = ApprovalLink(approver="human", decision="approve")
    gate = GateEvent.model_validate(
        {
            "kind": "approval_request",
            "reason": "r",
            "surfaced": "s",
            "target_tool": None,
            "resolution": "approved",
            "approval_chain": [link.model_dump()],
        }
    )
    assert gate.approval_chain == [link]
    assert (
        GateEvent.model_validate(
            {"kind": "question", "reason": "r", "surfaced": "s", "target_tool": None, "resolution": "answered"}
        ).approval_chain
        == []
    )


# -- reading the raw logs independently of the importer, to compare with -------------------------------


def _raw_json(path: Path) -> dict[str, Any]:
    value = orjson.loads(path.read_bytes())
    assert isinstance(value, dict)
    return value


def _raw_samples(path: Path, log_format: str) -> list[dict[str, Any]]:
    if log_format == "json":
        return list(_raw_json(path)["samples"])
    from inspect_ai.log import read_eval_log  # noqa: PLC0415 - optional: the fixture skips without it

    log = read_eval_log(str(path))
    return [orjson.loads(sample.model_dump_json()) for sample in log.samples or []]


def _header(path: Path, log_format: str) -> dict[str, Any]:
    if log_format == "json":
        return _raw_json(path)
    from inspect_ai.log import read_eval_log  # noqa: PLC0415 - optional: the fixture skips without it

    return orjson.loads(read_eval_log(str(path), header_only=True).model_dump_json())


def _decision_times(path: Path, log_format: str) -> dict[tuple[str, str], str]:
    decided: dict[tuple[str, str], str] = {}
    for sample in _raw_samples(path, log_format):
        for event in sample["events"]:
            if event["event"] == "approval" and event["decision"] != "escalate":
                decided[(str(sample["id"]), event["call"]["id"])] = event["timestamp"]
    return decided


def _sample_field(path: Path, log_format: str, name: str) -> dict[str, Any]:
    return {str(sample["id"]): sample[name] for sample in _raw_samples(path, log_format)}


def test_scoring_counts_decisions_and_reports_latency_and_overseers_unknown(run: Run) -> None:
    signals = signals_of(_all_gates(run), SignalParams())
    assert (signals.resolved_gates, signals.approvals, signals.denials, signals.unresolved) == (8, 4, 4, 0)
    assert signals.latency_unavailable == signals.resolved_gates
    assert signals.without_overseer == signals.resolved_gates
    assert (signals.four_eyes, signals.fast_approvals) == (0, 0)
