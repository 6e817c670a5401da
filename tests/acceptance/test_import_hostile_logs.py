"""``import inspect`` on real Inspect logs edited as an attacker would: refused in one line, never a crash.

Each log starts as one the real ``inspect_ai`` wrote (the session's factory logs) and is then
changed the way a party who gains from a better score, or from a confused reviewer, could.
"""

from __future__ import annotations

import json
import os
import warnings
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from click.testing import CliRunner, Result

from evalscore.cli.import_command import import_group
from evalscore.cli.main import main
from evalscore.importers.inspect._zip_members import read_member
from evalscore.importers.shared.value_checks import walk
from evalscore.inputs import strict_json
from evalscore.models import Run

PROG = "evalscore import inspect"


def invoke(*args: str) -> Result:
    return CliRunner().invoke(import_group, ["inspect", *args], catch_exceptions=False)


def one_line(result: Result) -> str:
    """The one stderr line naming the log (the second line says nothing was written)."""
    lines = result.stderr.splitlines()
    assert len(lines) == 2, result.stderr
    assert "Traceback" not in result.output
    assert lines[1].endswith("was not written")
    return lines[0]


def eval_members(path: Path) -> list[tuple[str, bytes]]:
    with zipfile.ZipFile(path) as archive, path.open("rb") as raw:
        return [(info.filename, read_member(archive, raw, info)) for info in archive.infolist()]


def write_eval(path: Path, members: list[tuple[str, bytes]]) -> Path:
    """An .eval archive (deflated) holding ``members`` in order; a name may repeat, as Inspect's re-runs do."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive, warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Duplicate name:", category=UserWarning)
        for name, data in members:
            archive.writestr(zipfile.ZipInfo(name), data)
    return path


def edited_eval(source: Path, target: Path, edit: Callable[[list[tuple[str, bytes]]], None]) -> Path:
    members = eval_members(source)
    edit(members)
    return write_eval(target, members)


def sample_member(members: list[tuple[str, bytes]], sample_id: str) -> tuple[int, dict[str, Any]]:
    for index, (name, data) in enumerate(members):
        if name == f"samples/{sample_id}_epoch_1.json":
            return index, orjson.loads(data)
    raise AssertionError(f"no member for {sample_id}")


def nested(arrays: int) -> Any:
    value: Any = "leaf"
    for _ in range(arrays):
        value = [value]
    return value


def deepest(value: Any) -> int:
    return max(depth for _, _, depth in walk(value))


# -- .eval: repeated and unsafe member names ----------------------------------------------------------


def test_a_superseded_sample_member_is_read_from_its_last_entry_and_reported(
    inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    def rerun(members: list[tuple[str, bytes]]) -> None:
        _, sample = sample_member(members, "approve")
        sample["output"]["completion"] = "the re-run's answer"
        members.append(("samples/approve_epoch_1.json", orjson.dumps(sample)))

    log = edited_eval(inspect_logs["eval"], tmp_path / "rerun.eval", rerun)
    out = tmp_path / "out.jsonl"
    result = invoke(str(log), "-o", str(out))
    assert result.exit_code == 0, result.output
    run = Run.model_validate_json(out.read_bytes())
    (approve,) = [task for task in run.task_results if task.task_id == "approve"]
    assert approve.step_results[0].agent_final_output == "the re-run's answer"
    assert len(run.task_results) == 7
    assert run.adapter.config["superseded_members"] == [
        {"member": "samples/approve_epoch_1.json", "superseded_entries": 1}
    ]
    assert "1 superseded sample member entry skipped" in result.stderr


@pytest.mark.parametrize("name", ["header.json", "_journal/start.json"])
def test_a_second_header_member_is_refused_as_ambiguous(
    name: str, inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    def second_header(members: list[tuple[str, bytes]]) -> None:
        header = orjson.loads(dict(members)[name])
        header["eval"]["task_version"] = 99
        members.append((name, orjson.dumps(header)))

    log = edited_eval(inspect_logs["eval"], tmp_path / "two-headers.eval", second_header)
    out = tmp_path / "out.jsonl"
    result = invoke(str(log), "-o", str(out))
    assert result.exit_code == 2
    assert one_line(result) == (
        f"{PROG}: {log}: {name}: the archive holds 2 entries of that name; which one is the log's header is ambiguous"
    )
    assert not out.exists()


def test_a_member_that_climbs_out_of_samples_is_refused(inspect_logs: dict[str, Path], tmp_path: Path) -> None:
    def climb(members: list[tuple[str, bytes]]) -> None:
        _, sample = sample_member(members, "approve")
        members.append(("samples/../approve_epoch_1.json", orjson.dumps(sample)))

    log = edited_eval(inspect_logs["eval"], tmp_path / "climb.eval", climb)
    result = invoke(str(log), "-o", str(tmp_path / "out.jsonl"))
    assert result.exit_code == 2
    assert one_line(result).startswith(f"{PROG}: {log}: member 'samples/../approve_epoch_1.json': not a sample member")


def test_a_sample_member_that_repeats_a_key_is_refused_naming_member_pointer_and_key(
    inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    def repeat(members: list[tuple[str, bytes]]) -> None:
        index, _ = sample_member(members, "reject")
        name, data = members[index]
        members[index] = (name, data.replace(b'"decision":"reject"', b'"decision":"reject","decision":"approve"', 1))

    log = edited_eval(inspect_logs["eval"], tmp_path / "repeat.eval", repeat)
    result = invoke(str(log), "-o", str(tmp_path / "out.jsonl"))
    assert result.exit_code == 2
    line = one_line(result)
    assert line.startswith(f"{PROG}: {log}: samples/reject_epoch_1.json: the object at /events/")
    assert "repeats the key 'decision'" in line


def test_a_deflated_member_that_declares_100_megabytes_and_inflates_to_less_is_unreadable(
    inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    log = edited_eval(inspect_logs["eval"], tmp_path / "sizes.eval", lambda members: None)
    name = "samples/approve_epoch_1.json"
    raw = bytearray(log.read_bytes())
    central = raw.find(b"PK\x01\x02")  # the central directory entries, until the one naming the member
    while raw[central + 46 : central + 46 + len(name)] != name.encode():
        central = raw.find(b"PK\x01\x02", central + 1)
    actual = int.from_bytes(raw[central + 24 : central + 28], "little")
    raw[central + 24 : central + 28] = (10**8).to_bytes(4, "little")  # within --max-document-bytes
    log.write_bytes(bytes(raw))
    out = tmp_path / "out.jsonl"
    result = invoke(str(log), "-o", str(out))
    assert result.exit_code == 2
    assert one_line(result) == (
        f"{PROG}: {log}: {name}: member '{name}' decompresses to {actual} bytes, the archive says 100000000"
    )
    assert not out.exists()


def test_a_member_beyond_max_document_bytes_is_refused_before_it_is_decompressed(
    inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    log = inspect_logs["eval"]
    with zipfile.ZipFile(log) as archive:
        largest = max(archive.infolist(), key=lambda info: info.file_size)
    out = tmp_path / "out.jsonl"
    result = invoke(str(log), "-o", str(out), "--max-document-bytes", str(largest.file_size - 1))
    assert result.exit_code == 2
    line = one_line(result)
    assert line == (
        f"{PROG}: {log}: {largest.filename}: member '{largest.filename}' declares {largest.file_size:,} bytes "
        f"uncompressed, more than {largest.file_size - 1:,}; raise --max-document-bytes to read it"
    )
    assert not out.exists()
    assert invoke(str(log), "-o", str(out), "--max-document-bytes", str(largest.file_size)).exit_code == 0


# -- .json: repeated keys anywhere --------------------------------------------------------------------


def test_a_json_log_with_a_second_samples_array_after_the_first_is_refused(
    inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    data = inspect_logs["json"].read_bytes().rstrip()
    assert data.endswith(b"}")
    log = tmp_path / "two-samples.json"
    log.write_bytes(data[:-1] + b', "samples": []}')
    result = invoke(str(log), "-o", str(tmp_path / "out.jsonl"))
    assert result.exit_code == 2
    assert one_line(result).startswith(f"{PROG}: {log}: the top-level object repeats the key 'samples'")


def test_a_json_log_whose_gate_decision_is_repeated_is_refused(inspect_logs: dict[str, Path], tmp_path: Path) -> None:
    data = inspect_logs["json"].read_bytes()
    decision = b'"decision": "reject"'
    assert decision in data
    log = tmp_path / "repeat.json"
    log.write_bytes(data.replace(decision, decision + b', "decision": "approve"', 1))
    result = invoke(str(log), "-o", str(tmp_path / "out.jsonl"))
    assert result.exit_code == 2
    line = one_line(result)
    assert line.startswith(f"{PROG}: {log}: the object at /samples/")
    assert "repeats the key 'decision'" in line


# -- .json: text that is not text ---------------------------------------------------------------------

PLACEHOLDER_ANSWER = "PLACEHOLDER-ANSWER"


def json_log_with_completion(inspect_logs: dict[str, Path], path: Path, text: bytes) -> int:
    """Write the factory's .json log with the approved sample's final answer spelled as ``text`` (JSON
    string source) at ``path``; return the byte offset of ``text`` in the log."""
    document = orjson.loads(inspect_logs["json"].read_bytes())
    (sample,) = (sample for sample in document["samples"] if sample["id"] == "approve")
    sample["output"]["completion"] = PLACEHOLDER_ANSWER
    data = orjson.dumps(document)
    assert data.count(PLACEHOLDER_ANSWER.encode()) == 1
    path.write_bytes(data.replace(PLACEHOLDER_ANSWER.encode(), text))
    return data.index(PLACEHOLDER_ANSWER.encode())


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(rb"Refunded \udc00\ud800 20.", id="escapes-low-then-high"),
        pytest.param(rb"Refunded \ud800 20.", id="lone-high-escape-yajl-reads-as-question-mark"),
        pytest.param(rb"Refunded \ud800\u0041 20.", id="high-escape-yajl-joins-with-the-next"),
        pytest.param(rb"Refunded \udc00 20.", id="lone-low-escape"),
        pytest.param(b"Refunded \xed\xb3\xbf 20.", id="cesu8-bytes"),
    ],
)
def test_broken_surrogates_in_a_json_log_make_it_unreadable_in_one_line_not_a_crash_or_other_text(
    text: bytes, inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    log = tmp_path / "surrogates.json"
    offset = json_log_with_completion(inspect_logs, log, text) + len(b"Refunded ")
    out = tmp_path / "out.jsonl"
    result = invoke(str(log), "-o", str(out))
    assert result.exit_code == 2
    line = one_line(result)
    assert line.startswith(f"{PROG}: {log}: not valid JSON: ")
    assert f"at byte offset {offset} (line " in line
    assert not out.exists()


def test_emoji_written_as_escaped_pairs_import_as_the_same_text_as_raw_utf8(
    inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    answer = "Refunded 20 \U0001f600 \U0001f44d\U0001f3fd."
    escaped = json.dumps(answer)[1:-1].encode()  # as Python's json.dumps writes them: \ud83d\ude00 ...
    assert escaped.count(rb"\ud83") == 3
    runs = []
    for name, text in (("escaped", escaped), ("raw", answer.encode())):
        log = tmp_path / f"{name}.json"
        json_log_with_completion(inspect_logs, log, text)
        out = tmp_path / f"{name}.jsonl"
        result = invoke(str(log), "-o", str(out))
        assert result.exit_code == 0, result.output
        runs.append(Run.model_validate_json(out.read_bytes()))
    finals = {task.task_id: task.step_results[0].agent_final_output for task in runs[0].task_results}
    assert finals["approve"] == answer
    assert runs[0].task_results == runs[1].task_results


# -- deep tool arguments: refused, never a crash, and never written too deep to read back -------------


PLACEHOLDER = b'"order":"DEEP-ARGUMENTS"'


def with_placeholder_arguments(document: dict[str, Any]) -> bytes:
    """The log with the ``quiet`` sample's lookup call (which ran) given a placeholder argument to replace."""
    samples = document["samples"]
    (quiet,) = [sample for sample in samples if sample["id"] == "quiet"]
    (event,) = [event for event in quiet["events"] if event.get("event") == "tool"]
    event["arguments"] = {"order": "DEEP-ARGUMENTS"}
    return orjson.dumps(document)


def deep_value(arrays: int) -> bytes:
    """``nested(arrays)`` as JSON text (orjson itself refuses to write more than 255 levels)."""
    return b"[" * arrays + b'"leaf"' + b"]" * arrays


def with_argument(text: bytes, value: bytes) -> bytes:
    assert text.count(PLACEHOLDER) == 1
    return text.replace(PLACEHOLDER, b'"order":' + value)


def deep_json_log(inspect_logs: dict[str, Path], tmp_path: Path, arrays: int) -> Path:
    text = with_placeholder_arguments(orjson.loads(inspect_logs["json"].read_bytes()))
    path = tmp_path / f"deep-{arrays}.json"
    path.write_bytes(with_argument(text, deep_value(arrays)))
    return path


def eval_log_with_argument(inspect_logs: dict[str, Path], path: Path, value: bytes) -> Path:
    def deepen(members: list[tuple[str, bytes]]) -> None:
        index, sample = sample_member(members, "quiet")
        text = with_placeholder_arguments({"samples": [sample]})
        member = text[len(b'{"samples":[') : -len(b"]}")]
        members[index] = (members[index][0], with_argument(member, value))

    return edited_eval(inspect_logs["eval"], path, deepen)


def deep_eval_log(inspect_logs: dict[str, Path], tmp_path: Path, arrays: int) -> Path:
    return eval_log_with_argument(inspect_logs, tmp_path / f"deep-{arrays}.eval", deep_value(arrays))


# The arguments' deepest value sits inside 6 arrays and objects of a .json log (log, samples, sample,
# events, event, arguments), 4 of an .eval member (sample, events, event, arguments) and 8 of the Run
# line (run, task_results, task, step_results, step, agent_tool_calls, call, args).
LOG_OFFSET = {"json": 6, "eval": 4}
RUN_OFFSET = 8
DEEP_LOGS = {"json": deep_json_log, "eval": deep_eval_log}


@pytest.mark.parametrize("log_format", ["json", "eval"])
def test_arguments_that_keep_the_run_within_200_levels_import_and_read_back(
    log_format: str, inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    arrays = strict_json.MAX_DEPTH - RUN_OFFSET
    log = DEEP_LOGS[log_format](inspect_logs, tmp_path, arrays)
    out = tmp_path / "out.jsonl"
    result = invoke(str(log), "-o", str(out))
    assert result.exit_code == 0, result.output
    document = strict_json.loads(out.read_bytes())  # evalscore's own strict reader takes it back
    assert deepest(document) == strict_json.MAX_DEPTH
    (quiet,) = [task for task in document["task_results"] if task["task_id"] == "quiet"]
    assert quiet["step_results"][0]["agent_tool_calls"][0]["args"] == {"order": nested(arrays)}
    assert CliRunner().invoke(main, ["validate", str(out)]).exit_code == 0


@pytest.mark.parametrize("log_format", ["json", "eval"])
def test_a_log_nested_201_deep_is_unreadable_in_one_line(
    log_format: str, inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    arrays = strict_json.MAX_DEPTH + 1 - LOG_OFFSET[log_format]
    log = DEEP_LOGS[log_format](inspect_logs, tmp_path, arrays)
    out = tmp_path / "out.jsonl"
    result = invoke(str(log), "-o", str(out))
    assert result.exit_code == 2
    assert "nested deeper than 200 arrays and objects" in one_line(result)
    assert not out.exists()


@pytest.mark.parametrize("log_format", ["json", "eval"])
def test_a_log_200_deep_whose_run_would_be_deeper_is_refused_not_written_unreadable(
    log_format: str, inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    arrays = strict_json.MAX_DEPTH - LOG_OFFSET[log_format]
    log = DEEP_LOGS[log_format](inspect_logs, tmp_path, arrays)
    out = tmp_path / "out.jsonl"
    result = invoke(str(log), "-o", str(out))
    assert result.exit_code == 3
    line = one_line(result)
    assert line.startswith(f"{PROG}: {log}: the mapped run cannot be written: the value at /task_results/")
    assert line.endswith("is nested deeper than 200 arrays and objects")
    assert not out.exists()


@pytest.mark.parametrize("log_format", ["json", "eval"])
def test_arguments_300_deep_no_longer_crash_the_import(
    log_format: str, inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    log = DEEP_LOGS[log_format](inspect_logs, tmp_path, 300)
    result = CliRunner().invoke(main, ["import", "inspect", str(log), "-o", str(tmp_path / "out.jsonl")])
    assert result.exit_code == 2
    assert "nested deeper than 200" in one_line(result)


def test_an_integer_beyond_64_bits_in_the_arguments_is_refused_not_a_crash(
    inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    log = eval_log_with_argument(inspect_logs, tmp_path / "big.eval", b"9" * 30)
    result = CliRunner().invoke(main, ["import", "inspect", str(log), "-o", str(tmp_path / "out.jsonl")])
    assert result.exit_code == 3
    assert one_line(result).endswith("needs more than 64 bits, which the JSONL writer cannot hold")


# -- values the mapping refuses -----------------------------------------------------------------------


def test_a_negative_total_time_is_reported_as_negative_with_its_value(
    inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    document = orjson.loads(inspect_logs["json"].read_bytes())
    document["samples"][0]["total_time"] = -5
    log = tmp_path / "negative.json"
    log.write_bytes(orjson.dumps(document))
    result = invoke(str(log), "-o", str(tmp_path / "out.jsonl"))
    assert result.exit_code == 3
    assert "records a negative total_time (-5 s)" in one_line(result)


# -- everything printed is escaped --------------------------------------------------------------------

CLEAR = "\x1b[2J"
LINK = "\x1b]8;;https:evil.example\x07click\x1b]8;;\x07"  # no "/": a sample member name has none


def test_a_log_name_with_a_newline_and_an_escape_sequence_is_printed_escaped(tmp_path: Path) -> None:
    log = tmp_path / f"forged\nVALID: 9 artifact(s){CLEAR}.json"
    log.write_bytes(b'{"eval": ')
    result = invoke(str(log), "-o", str(tmp_path / "out.jsonl"))
    assert result.exit_code == 2
    line = one_line(result)
    assert "\x1b" not in result.stderr
    assert line.startswith(f"{PROG}: {tmp_path}/forged\\nVALID: 9 artifact(s)\\x1b[2J.json: not valid JSON")


def test_an_output_name_with_control_characters_is_printed_escaped(
    inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    out = tmp_path / f"out{CLEAR}\n.jsonl"
    result = invoke(str(inspect_logs["eval"]), "-o", str(out))
    assert result.exit_code == 0, result.output
    (line,) = result.stderr.splitlines()
    assert f"wrote 1 run(s) to {tmp_path}/out\\x1b[2J\\n.jsonl:" in line


def test_a_file_name_that_is_not_utf8_is_printed_with_its_bytes_escaped(tmp_path: Path) -> None:
    log = Path(os.fsdecode(bytes(tmp_path) + b"/bad\xff\x1b.json"))
    log.write_bytes(b"not a log")
    result = invoke(str(log), "-o", str(tmp_path / "out.jsonl"))
    assert result.exit_code == 2
    assert "bad\\xff\\x1b.json: neither a .eval (zip) nor a .json Inspect log" in one_line(result)


def test_sample_ids_with_escape_sequences_reach_the_terminal_escaped(
    inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    def hostile_id(members: list[tuple[str, bytes]]) -> None:
        index, sample = sample_member(members, "approve")
        sample["id"] = LINK
        members[index] = (f"samples/{LINK}_epoch_1.json", orjson.dumps(sample)[:-20])  # and cut short

    log = edited_eval(inspect_logs["eval"], tmp_path / "ids.eval", hostile_id)
    result = invoke(str(log), "-o", str(tmp_path / "out.jsonl"))
    assert result.exit_code == 2
    line = one_line(result)
    assert "\x1b" not in result.stderr
    assert "\x07" not in result.stderr
    assert "samples/\\x1b]8;;https:evil.example\\x07click\\x1b]8;;\\x07_epoch_1.json: not valid JSON" in line


def test_a_json_log_unmappable_early_and_unreadable_later_is_unreadable(
    inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    document = orjson.loads(inspect_logs["json"].read_bytes())
    del document["samples"][0]["total_time"]
    text = orjson.dumps(document)
    log = tmp_path / "both.json"
    log.write_bytes(text[:-1] + b',"stats":{}}')  # a second "stats" after the samples
    result = invoke(str(log), "-o", str(tmp_path / "out.jsonl"))
    assert result.exit_code == 2
    assert one_line(result).startswith(f"{PROG}: {log}: the top-level object repeats the key 'stats'")


def test_a_top_level_key_named_samples_item_does_not_inject_a_sample(
    inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    document = orjson.loads(inspect_logs["json"].read_bytes())
    forged = dict(document["samples"][0], id="forged")
    log = tmp_path / "inject.json"
    log.write_bytes(orjson.dumps({"samples.item": forged, **document}))
    out = tmp_path / "out.jsonl"
    result = invoke(str(log), "-o", str(out))
    assert result.exit_code == 0, result.output
    run = Run.model_validate_json(out.read_bytes())
    assert "forged" not in [task.task_id for task in run.task_results]
    assert len(run.task_results) == 7


def test_a_number_beyond_a_double_in_what_is_written_is_refused_not_written_as_null(
    inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    log = eval_log_with_argument(inspect_logs, tmp_path / "inf.eval", b"1e400")
    out = tmp_path / "out.jsonl"
    result = invoke(str(log), "-o", str(out))
    assert result.exit_code == 3
    line = one_line(result)
    assert line.startswith(f"{PROG}: {log}: the mapped run cannot be written: the number at /task_results/")
    assert line.endswith(
        "/agent_tool_calls/0/args/order is not finite (beyond the range of a double), "
        "which the JSONL writer would make null"
    )
    assert not out.exists()


def test_a_number_beyond_a_double_in_what_is_not_imported_changes_nothing(
    inspect_logs: dict[str, Path], tmp_path: Path
) -> None:
    def unused_infinity(members: list[tuple[str, bytes]]) -> None:
        index, _ = sample_member(members, "quiet")
        name, data = members[index]
        members[index] = (name, data[:-1] + b',"metadata_extra":1e400}')

    log = edited_eval(inspect_logs["eval"], tmp_path / "unused.eval", unused_infinity)
    plain = tmp_path / "plain.jsonl"
    assert invoke(str(inspect_logs["eval"]), "-o", str(plain)).exit_code == 0
    out = tmp_path / "out.jsonl"
    result = invoke(str(log), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert (
        Run.model_validate_json(out.read_bytes()).task_results
        == Run.model_validate_json(plain.read_bytes()).task_results
    )
