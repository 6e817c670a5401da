"""``evalscore import inspect`` end to end through click's runner, on real Inspect logs."""

from __future__ import annotations

import functools
import json
import zipfile
from pathlib import Path

import jsonschema
import orjson
import pytest
from click.testing import CliRunner, Result

from evalscore.cli import common, importing
from evalscore.cli.import_command import import_group
from evalscore.cli.main import main
from evalscore.cli.progress import Progress
from evalscore.contract.builder import build_schema
from evalscore.inputs.yaml_loader import load_yaml
from evalscore.models import Run

SUITE_YAML = """\
suite:
  id: refund_desk
  version: "3"
  description: Refund desk
  target_agent_type: support
  dimensions_in_scope: []
  tasks:
    - id: approve
      initial_purpose: refund
      overall_goal: refund
      steps:
        - n: 1
          prompt: refund
          golden_truth: refunded
"""


def invoke(*args: str) -> Result:
    return CliRunner().invoke(import_group, ["inspect", *args], catch_exceptions=False)


def lines(path: Path) -> list[dict[str, object]]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


def test_both_formats_become_one_valid_run_line_each(inspect_logs: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    result = invoke(str(inspect_logs["eval"]), str(inspect_logs["json"]), "-o", str(out))
    assert result.exit_code == 0, result.output
    documents = lines(out)
    assert len(documents) == 2
    schema = build_schema("run")
    for document in documents:
        jsonschema.validate(document, schema)
        run = Run.model_validate(document)
        gates = [gate for task in run.task_results for step in task.step_results for gate in step.gate_events]
        assert len(gates) == 8
        assert all((g.opened_at, g.decision_latency_ms, g.overseers) == (None, None, []) for g in gates)
        assert all(step.auto_score is None for task in run.task_results for step in task.step_results)
    assert "wrote 2 run(s)" in result.output
    assert "16 gate event(s)" in result.output


def test_human_approver_option_is_repeatable(inspect_logs: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    result = invoke(
        str(inspect_logs["eval"]), "-o", str(out), "--human-approver", "human", "--human-approver", "triage"
    )
    assert result.exit_code == 0, result.output
    (document,) = lines(out)
    run = Run.model_validate(document)
    assert run.adapter.config["human_approvers"] == ["human", "triage"]
    assert sum(len(step.gate_events) for task in run.task_results for step in task.step_results) == 9


@pytest.mark.parametrize("name", ["auto", "policy", " "])
def test_an_automatic_or_empty_approver_name_is_a_usage_error(
    name: str, inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    out = tmp_path / "runs.jsonl"
    result = invoke(str(inspect_logs["eval"]), "-o", str(out), "--human-approver", name)
    assert result.exit_code == 2
    assert not out.exists()


def test_an_unreadable_log_exits_2_with_one_line_and_writes_nothing(
    inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    out = tmp_path / "runs.jsonl"
    out.write_text("previous content\n")
    missing = tmp_path / "missing.eval"
    result = invoke(str(inspect_logs["eval"]), str(missing), "-o", str(out))
    assert result.exit_code == 2
    assert f"{missing}: cannot open" in result.output
    assert "Traceback" not in result.output
    assert out.read_text() == "previous content\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["runs.jsonl"]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"", "the file is empty"),
        (b"not a log", "neither a .eval (zip) nor a .json Inspect log"),
        (b'{"eval": ', "not valid JSON"),
        (b'{"samples": []}', "not an Inspect log: its header has no eval object"),
        (b"[1, 2]", "neither a .eval (zip) nor a .json Inspect log"),
        (b"PK\x03\x04 truncated", "not a readable .eval (zip) log"),
    ],
)
def test_a_corrupt_file_is_named_with_its_reason(content: bytes, reason: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    result = invoke(str(bad), "-o", str(tmp_path / "out.jsonl"))
    assert result.exit_code == 2
    assert f"{bad}: " in result.output
    assert reason in result.output
    assert not (tmp_path / "out.jsonl").exists()


def test_an_eval_log_with_a_corrupt_sample_is_unreadable(inspect_logs: dict[str, Path], tmp_path: Path) -> None:
    broken = tmp_path / "broken.eval"
    data = bytearray(inspect_logs["eval"].read_bytes())
    with zipfile.ZipFile(inspect_logs["eval"]) as archive:
        info = next(info for info in archive.infolist() if info.filename.startswith("samples/"))
    middle = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra) + info.compress_size // 2
    data[middle] ^= 0xFF
    broken.write_bytes(bytes(data))
    result = invoke(str(broken), "-o", str(tmp_path / "out.jsonl"))
    assert result.exit_code == 2
    assert info.filename in result.output


def test_a_log_that_cannot_be_mapped_exits_3(inspect_logs: dict[str, Path], tmp_path: Path) -> None:
    document = orjson.loads(inspect_logs["json"].read_bytes())
    del document["samples"][0]["total_time"]
    bad = tmp_path / "no-time.json"
    bad.write_bytes(orjson.dumps(document))
    result = invoke(str(bad), "-o", str(tmp_path / "out.jsonl"))
    assert result.exit_code == 3
    assert "records no total_time" in result.output
    assert "Traceback" not in result.output


def test_a_log_without_samples_exits_3(inspect_logs: dict[str, Path], tmp_path: Path) -> None:
    document = orjson.loads(inspect_logs["json"].read_bytes())
    document["samples"] = []
    bad = tmp_path / "empty.json"
    bad.write_bytes(orjson.dumps(document))
    result = invoke(str(bad), "-o", str(tmp_path / "out.jsonl"))
    assert result.exit_code == 3
    assert "holds no samples" in result.output


def test_unreadable_wins_over_unmappable(inspect_logs: dict[str, Path], tmp_path: Path) -> None:
    document = orjson.loads(inspect_logs["json"].read_bytes())
    document["samples"] = []
    empty = tmp_path / "empty.json"
    empty.write_bytes(orjson.dumps(document))
    result = invoke(str(empty), str(tmp_path / "missing.json"), "-o", str(tmp_path / "out.jsonl"))
    assert result.exit_code == 2
    assert "2 of 2 log(s) failed" in result.output


def test_with_a_suite_the_written_runs_carry_rederived_scores(inspect_logs: dict[str, Path], tmp_path: Path) -> None:
    suite = Path(__file__).resolve().parents[2] / "fixtures" / "valid" / "eval-suite" / "inspect-refund-desk.yaml"
    out = tmp_path / "runs.jsonl"
    result = invoke(str(inspect_logs["eval"]), "-o", str(out), "--suite", str(suite))
    assert result.exit_code == 0, result.output
    (document,) = lines(out)
    run = Run.model_validate(document)
    assert run.scoring_model == "v3"
    steps = [step for task in run.task_results for step in task.step_results]
    assert len(steps) == 7
    assert all(step.auto_score is not None for step in steps)


def test_a_suite_the_log_does_not_answer_writes_nothing(inspect_logs: dict[str, Path], tmp_path: Path) -> None:
    suite = tmp_path / "suite.yaml"
    suite.write_text(SUITE_YAML)
    out = tmp_path / "runs.jsonl"
    result = invoke(str(inspect_logs["eval"]), "-o", str(out), "--suite", str(suite))
    assert result.exit_code == 3
    assert "is not in suite" in result.output
    assert not out.exists()


def test_an_invalid_suite_is_a_usage_error(inspect_logs: dict[str, Path], tmp_path: Path) -> None:
    suite = tmp_path / "suite.yaml"
    suite.write_text("suite: {id: x}\n")
    result = invoke(str(inspect_logs["eval"]), "-o", str(tmp_path / "out.jsonl"), "--suite", str(suite))
    assert result.exit_code == 2
    assert "not a valid suite" in result.output


def test_an_output_in_a_missing_directory_is_an_error(inspect_logs: dict[str, Path], tmp_path: Path) -> None:
    result = invoke(str(inspect_logs["eval"]), "-o", str(tmp_path / "nowhere" / "out.jsonl"))
    assert result.exit_code == 2
    assert "cannot write" in result.output


def test_the_written_file_has_ordinary_permissions(inspect_logs: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    assert invoke(str(inspect_logs["eval"]), "-o", str(out)).exit_code == 0
    assert out.stat().st_mode & 0o044  # readable by others as umask allows, not mkstemp's 0600


def test_scoring_an_imported_log_says_latency_and_overseers_are_unknown_for_every_gate(
    inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    out = tmp_path / "runs.jsonl"
    assert invoke(str(inspect_logs["eval"]), "-o", str(out)).exit_code == 0
    result = CliRunner().invoke(main, ["score", str(out), "--format", "json"])
    assert result.exit_code == 4, result.output  # no suite: no step is scored, and nothing scored never passes
    report = orjson.loads(result.output)
    assert report["decision"]["reasons"][0].startswith("nothing was scored: none of the")
    signals = report["signals"]
    assert signals["resolved_gates"] > 0
    assert signals["approvals"] > 0
    assert signals["denials"] > 0
    assert signals["latency_unavailable"] == signals["resolved_gates"]
    assert signals["without_overseer"] == signals["resolved_gates"]
    assert signals["fast_approvals"] == 0
    assert signals["four_eyes"] == 0


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("suite: " + "[" * 1000 + "]" * 1000 + "\n", "nested deeper than 200"),
        ("suite: !!binary aGVsbG8=\n", "the tag !!binary is not allowed"),
        ("suite: {id: a, id: b}\n", "the mapping at /suite repeats the key 'id'"),
    ],
    ids=["nested-1000-deep", "binary-tag", "repeated-key"],
)
def test_a_hostile_suite_is_one_line_and_exit_2_before_anything_is_written(
    text: str, reason: str, inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    suite = tmp_path / "suite.yaml"
    suite.write_text(text)
    out = tmp_path / "out.jsonl"
    result = invoke(str(inspect_logs["eval"]), "-o", str(out), "--suite", str(suite))
    assert result.exit_code == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"evalscore import inspect: {suite}: not a valid suite: syntax ES0")
    assert reason in line
    assert sorted(path.name for path in tmp_path.iterdir()) == ["suite.yaml"]


# -- --suite is read exactly as `score --suite` reads it ----------------------------------------------

SUITE_FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "valid" / "eval-suite" / "inspect-refund-desk.yaml"
DESCRIPTION = '"description": "Refund desk'


def suite_as_json(tmp_path: Path, name: str, edit: tuple[str, str] = ("", "")) -> Path:
    """The fixture suite as JSON, written as Python's json.dumps writes it, with one text replacement."""
    text = json.dumps(load_yaml(SUITE_FIXTURE.read_bytes()), indent=2)
    assert text.count(edit[0]) >= 1
    path = tmp_path / name
    path.write_text(text.replace(*edit, 1), encoding="utf-8")
    return path


SUITES = {
    "valid-yaml": lambda tmp_path: SUITE_FIXTURE,
    "json-with-an-escaped-emoji-pair": lambda tmp_path: suite_as_json(
        tmp_path, "emoji.json", (DESCRIPTION, DESCRIPTION.replace("Refund", json.dumps("\U0001f600")[1:-1] + " Refund"))
    ),
    "json-with-a-raw-tab-in-a-string": lambda tmp_path: suite_as_json(
        tmp_path, "tab.json", (DESCRIPTION, DESCRIPTION.replace(" desk", "\tdesk"))
    ),
}


@pytest.mark.parametrize(
    ("suite_name", "valid"),
    [("valid-yaml", True), ("json-with-an-escaped-emoji-pair", True), ("json-with-a-raw-tab-in-a-string", False)],
)
def test_a_suite_import_takes_is_exactly_one_score_takes(
    suite_name: str, valid: bool, inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    suite = SUITES[suite_name](tmp_path)
    runs = tmp_path / "runs.jsonl"
    assert invoke(str(inspect_logs["eval"]), "-o", str(runs)).exit_code == 0
    scored = CliRunner().invoke(main, ["score", str(runs), "--suite", str(suite), "--format", "json"])
    out = tmp_path / "with-suite.jsonl"
    imported = invoke(str(inspect_logs["eval"]), "-o", str(out), "--suite", str(suite))
    assert (scored.exit_code not in (2, 3)) is valid, scored.output
    assert (imported.exit_code == 0) is valid, imported.output
    if not valid:
        assert imported.exit_code == 2
        (line,) = imported.stderr.splitlines()
        assert line.startswith(
            f"evalscore import inspect: {suite}: not a valid suite: syntax ES002 /: control character"
        )
        assert "(line 5 column" in line
        assert not out.exists()


def test_a_suite_that_breaks_a_coherence_rule_is_refused_with_its_code_and_pointer(
    inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    suite = suite_as_json(tmp_path, "twice.json", ('"id": "reject"', '"id": "approve"'))
    result = invoke(str(inspect_logs["eval"]), "-o", str(tmp_path / "out.jsonl"), "--suite", str(suite))
    assert result.exit_code == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith(
        f"evalscore import inspect: {suite}: not a valid suite: coherence ES141 /suite/tasks/1/id: duplicate task id"
    )


@pytest.mark.parametrize("name", ["suite.txt", "suite"])
@pytest.mark.parametrize("form", ["json", "yaml"])
def test_a_suite_file_whose_suffix_names_no_format_is_sniffed_as_score_sniffs_it(
    name: str, form: str, inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    suite = tmp_path / name
    if form == "json":
        suite.write_text(json.dumps(load_yaml(SUITE_FIXTURE.read_bytes())))
    else:
        suite.write_bytes(SUITE_FIXTURE.read_bytes())
    out = tmp_path / "out.jsonl"
    result = invoke(str(inspect_logs["eval"]), "-o", str(out), "--suite", str(suite))
    assert result.exit_code == 0, result.output
    assert Run.model_validate_json(out.read_bytes()).scoring_model == "v3"


def test_a_suite_path_that_is_a_directory_or_holds_two_suites_is_refused(
    inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    two = tmp_path / "two.jsonl"
    line = orjson.dumps(load_yaml(SUITE_FIXTURE.read_bytes()))
    two.write_bytes(line + b"\n" + line + b"\n")
    for suite, reason in ((tmp_path, "it is a directory"), (two, "the file holds 2 suites")):
        result = invoke(str(inspect_logs["eval"]), "-o", str(tmp_path / "out.jsonl"), "--suite", str(suite))
        assert result.exit_code == 2
        (message,) = result.stderr.splitlines()
        assert message.startswith(f"evalscore import inspect: {suite}: ")
        assert reason in message


@pytest.mark.parametrize("epochs", ["absent", "two", 1.5])
def test_a_log_that_records_no_integer_epoch_count_is_imported_with_epochs_null_not_one(
    epochs: object, inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    document = orjson.loads(inspect_logs["json"].read_bytes())
    assert document["eval"]["config"]["epochs"] == 1
    if epochs == "absent":
        del document["eval"]["config"]["epochs"]
    else:
        document["eval"]["config"]["epochs"] = epochs
    log = tmp_path / "epochs.json"
    log.write_bytes(orjson.dumps(document))
    out = tmp_path / "out.jsonl"
    result = invoke(str(log), "-o", str(out))
    assert result.exit_code == 0, result.output
    run = Run.model_validate_json(out.read_bytes())
    assert run.adapter.config["epochs"] is None
    assert "approve" in [task.task_id for task in run.task_results]  # one epoch by the samples' own: plain ids


def test_on_a_terminal_the_samples_read_are_counted_on_stderr(
    inspect_logs: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(common, "stream_is_terminal", lambda stream: True)
    monkeypatch.setattr(importing, "Progress", functools.partial(Progress, every=1))
    out = tmp_path / "runs.jsonl"
    result = CliRunner().invoke(import_group, ["inspect", str(inspect_logs["eval"]), "-o", str(out)])
    assert result.exit_code == 0, result.output
    (run,) = lines(out)
    samples = len(run["task_results"])  # type: ignore[arg-type]  # a list in a valid run
    assert samples >= 2
    assert f"{samples} samples read" in result.stderr
    assert result.stderr.index(f"{samples} samples read") < result.stderr.index("wrote 1 run(s)")


def test_the_help_says_steps_are_scored_only_with_a_suite() -> None:
    result = CliRunner().invoke(main, ["import", "inspect", "--help"], terminal_width=200)
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "Without --suite steps carry auto_score null" in text
    assert "with it each step's auto score is re-derived from the evidence under v3" in text
    assert "re-derived by `evalscore score`" not in text
