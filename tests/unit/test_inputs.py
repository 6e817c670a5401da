"""Bad input becomes findings with a position, never a traceback, and never stops the other inputs."""

from __future__ import annotations

import gzip
import os
import time
from pathlib import Path

import orjson
import pytest

from evalscore.inputs.expansion import expand_paths
from evalscore.inputs.yaml_loader import load_yaml
from evalscore.running.pipeline import check_paths
from evalscore.validation import CheckedArtifact

ROOT = Path(__file__).resolve().parents[2]
VALID_RUN = (ROOT / "fixtures" / "valid" / "run" / "minimal.json").read_bytes()
VALID_LINE = b"".join(VALID_RUN.split())  # one line, same document (no string holds white space)
VALID_SUITE_YAML = (ROOT / "fixtures" / "valid" / "eval-suite" / "nine-steps.yml").read_bytes()


def check(*paths: Path | str, **options: int) -> list[CheckedArtifact]:
    return list(check_paths([str(path) for path in paths], **options))  # type: ignore[arg-type]


def codes(artifact: CheckedArtifact) -> list[str]:
    return [finding.code for finding in artifact.findings]


def test_the_one_line_run_used_below_is_valid() -> None:
    assert b"\n" not in VALID_LINE.strip()
    assert [a.valid for a in check(ROOT / "fixtures" / "valid" / "run" / "minimal.json")] == [True]


def test_truncated_json_is_a_syntax_finding_with_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "cut.json"
    path.write_bytes(b'{\n  "suite_id": "s",\n  "task_results": [\n')
    (artifact,) = check(path)
    (finding,) = artifact.findings
    assert (finding.layer, finding.code) == ("syntax", "ES002")
    assert finding.line == 4
    assert "line 4 column" in finding.message


def test_bad_utf8_is_a_not_utf8_finding(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes('{"run_id": "renée"}'.encode("latin-1"))
    (artifact,) = check(path)
    assert codes(artifact) == ["ES004"]


def test_bad_utf8_is_located_at_the_line_that_holds_the_bad_byte(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{\n  "suite_id": "s",\n  "run_id": "ren\xe9e"\n}\n')
    (artifact,) = check(path)
    (finding,) = artifact.findings
    assert finding.code == "ES004"
    assert finding.line == 3
    assert "line 3" in finding.message


def test_a_utf16_file_is_an_encoding_finding_not_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "utf16.json"
    path.write_bytes(VALID_RUN.decode().encode("utf-16"))
    (artifact,) = check(path)
    assert codes(artifact) == ["ES004"]
    assert not artifact.valid


def test_an_empty_file_holds_no_artifact(tmp_path: Path) -> None:
    for name in ("empty.json", "blank.yaml", "empty.jsonl"):
        (tmp_path / name).write_bytes(b"" if name != "blank.yaml" else b"\n  \n")
    checked = check(tmp_path / "empty.json", tmp_path / "blank.yaml", tmp_path / "empty.jsonl")
    assert [codes(a) for a in checked] == [["ES008"], ["ES008"], ["ES008"]]


def test_a_bad_jsonl_line_is_named_and_the_lines_after_it_are_still_checked(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_bytes(VALID_LINE + b"\n" + b'{"suite_id": \n' + b"\n" + VALID_LINE + b"\n" + b'{"task_results": 1}\n')
    checked = check(path)
    assert [a.line for a in checked] == [1, 2, 4, 5]
    assert [a.valid for a in checked] == [True, False, True, False]
    assert codes(checked[1]) == ["ES002"]
    assert checked[1].findings[0].line == 2
    assert all(f.line == 5 and f.source == str(path) for f in checked[3].findings)
    assert "schema.type" in codes(checked[3])


def test_a_jsonl_line_longer_than_the_limit_is_refused_and_the_next_lines_are_still_checked(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    long_line = b'{"run_id": "' + b"x" * 5000 + b'"}'
    path.write_bytes(VALID_LINE + b"\n" + long_line + b"\n" + VALID_LINE + b"\n")
    checked = check(path, max_document_bytes=len(VALID_LINE) + 10)
    assert [a.line for a in checked] == [1, 2, 3]
    assert [codes(a) for a in checked] == [[], ["ES006"], []]


def test_a_whole_document_larger_than_the_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    path.write_bytes(VALID_RUN)
    (artifact,) = check(path, max_document_bytes=100)
    assert codes(artifact) == ["ES006"]


def test_a_yaml_alias_bomb_is_refused_quickly(tmp_path: Path) -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for previous, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{previous}"] * 9) + "]")
    path = tmp_path / "bomb.yaml"
    path.write_text("\n".join(lines) + "\n")
    started = time.perf_counter()
    (artifact,) = check(path)
    assert time.perf_counter() - started < 2.0
    assert codes(artifact) == ["ES006"]


def test_yaml_yes_and_dates_stay_strings() -> None:
    loaded = load_yaml(b"a: yes\nb: no\nc: on\nd: 2024-01-01\ne: 2024-01-01T10:00:00Z\nf: true\ng: 1.0.0\nh: 12\n")
    assert loaded == {
        "a": "yes",
        "b": "no",
        "c": "on",
        "d": "2024-01-01",
        "e": "2024-01-01T10:00:00Z",
        "f": True,
        "g": "1.0.0",
        "h": 12,
    }


def test_a_yaml_suite_with_yes_and_a_date_in_text_fields_is_valid(tmp_path: Path) -> None:
    path = tmp_path / "suite.yaml"
    path.write_bytes(
        VALID_SUITE_YAML.replace(b"description: The most steps a task may have.", b"description: yes").replace(
            b'version: "1"', b"version: 2024-01-01"
        )
    )
    (artifact,) = check(path)
    assert artifact.findings == ()


def test_a_number_too_large_for_a_double_is_a_finding_not_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    path.write_bytes(VALID_RUN.replace(b'"latency_ms": 12', b'"latency_ms": 1e400'))
    (artifact,) = check(path)
    assert codes(artifact) == ["ES002"]
    assert artifact.findings[0].pointer == "/task_results/0/step_results/0/latency_ms"


def test_a_number_too_large_for_a_double_in_free_form_arguments_is_a_finding_too(tmp_path: Path) -> None:
    # Free-form values accept anything JSON; infinity is not JSON (a writer would turn it into null).
    path = tmp_path / "huge.json"
    document = orjson.loads(VALID_RUN)
    document["adapter"]["config"] = {"knobs": [1, {"x": "1e400 here"}]}
    path.write_bytes(orjson.dumps(document).replace(b'"1e400 here"', b"-1e400"))
    (artifact,) = check(path)
    assert codes(artifact) == ["ES002"]
    assert artifact.findings[0].pointer == "/adapter/config/knobs/1/x"


def test_gzip_compressed_json_and_jsonl_are_read(tmp_path: Path) -> None:
    (tmp_path / "run.json.gz").write_bytes(gzip.compress(VALID_RUN))
    (tmp_path / "runs.jsonl.gz").write_bytes(gzip.compress(VALID_LINE + b"\n" + VALID_LINE + b"\n"))
    checked = check(tmp_path / "run.json.gz", tmp_path / "runs.jsonl.gz")
    assert [(a.kind, a.line, a.valid) for a in checked] == [("run", None, True), ("run", 1, True), ("run", 2, True)]


def test_a_corrupt_gzip_is_a_finding_and_the_next_file_is_still_checked(tmp_path: Path) -> None:
    (tmp_path / "a-bad.json.gz").write_bytes(b"this is not gzip at all")
    (tmp_path / "b-cut.json.gz").write_bytes(gzip.compress(VALID_RUN)[:30])
    (tmp_path / "c-good.json").write_bytes(VALID_RUN)
    checked = check(tmp_path)
    assert len(checked) == 3
    assert not checked[0].valid
    assert not checked[1].valid
    assert [(a.findings[0].layer, a.findings[0].code) for a in checked[:2]] == [
        ("syntax", "ES007"),
        ("syntax", "ES007"),
    ]
    assert checked[2].valid


def test_an_unreadable_file_is_a_finding_and_the_next_file_is_still_checked(tmp_path: Path) -> None:
    locked = tmp_path / "a-locked.json"
    locked.write_bytes(VALID_RUN)
    locked.chmod(0)
    try:
        if os.access(locked, os.R_OK):
            pytest.skip("running with privileges that read a file with mode 000 (root)")
        (tmp_path / "b-good.json").write_bytes(VALID_RUN)
        checked = check(tmp_path)
        assert [codes(a) for a in checked] == [["ES001"], []]
    finally:
        locked.chmod(0o600)


def test_a_path_through_a_regular_file_is_unreadable_and_the_next_path_is_still_checked(tmp_path: Path) -> None:
    (tmp_path / "plain.json").write_bytes(VALID_RUN)
    checked = check(tmp_path / "plain.json" / "child.json", tmp_path / "plain.json")
    assert [codes(a) for a in checked] == [["ES001"], []]
    assert checked[0].readable is False


def test_a_nonexistent_path_is_an_unreadable_input(tmp_path: Path) -> None:
    (artifact,) = check(tmp_path / "missing.json")
    assert codes(artifact) == ["ES001"]
    assert "no such file" in artifact.findings[0].message


def test_a_directory_is_walked_recursively_for_the_artifact_suffixes_only(tmp_path: Path) -> None:
    names = [
        "a.json",
        "b.jsonl",
        "c.yaml",
        "d.yml",
        "e.json.gz",
        "f.jsonl.gz",
        "g.yaml.gz",
        "sub/h.JSON",
        "sub/deeper/i.json",
    ]
    ignored = ["notes.txt", "j.json.bak", "k.gz", "sub/l.md"]
    for name in names + ignored:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(b"{}")
    found = sorted(Path(f.path).relative_to(tmp_path).as_posix() for f in expand_paths([str(tmp_path)]))
    assert found == sorted(names)
    formats = {Path(f.path).name: (f.format, f.gzipped) for f in expand_paths([str(tmp_path)])}
    assert formats["g.yaml.gz"] == ("yaml", True)
    assert formats["b.jsonl"] == ("jsonl", False)
    assert len(formats) == len(names)


def test_a_file_named_directly_is_read_whatever_its_suffix(tmp_path: Path) -> None:
    path = tmp_path / "run.txt"
    path.write_bytes(VALID_RUN)
    assert [a.valid for a in check(path)] == [True]


def test_a_yaml_mapping_key_that_is_not_a_string_is_a_yaml_finding(tmp_path: Path) -> None:
    path = tmp_path / "suite.yaml"
    path.write_bytes(b"suite:\n  1: x\n")
    (artifact,) = check(path)
    assert codes(artifact) == ["ES003"]
    assert artifact.findings[0].line == 2
    assert "not a string" in artifact.findings[0].message


def test_a_quoted_numeric_yaml_key_stays_a_string() -> None:
    assert load_yaml(b'"1": x\n') == {"1": "x"}


def test_a_jsonl_line_of_exactly_the_limit_passes_whether_it_ends_in_lf_or_crlf(tmp_path: Path) -> None:
    limit = len(VALID_LINE)
    for ending in (b"\n", b"\r\n"):
        path = tmp_path / "runs.jsonl"
        path.write_bytes(VALID_LINE + ending + VALID_LINE + b" " + ending + VALID_LINE + ending)
        checked = check(path, max_document_bytes=limit)
        assert [codes(a) for a in checked] == [[], ["ES006"], []], ending


def test_a_vertical_tab_or_form_feed_is_not_json_white_space(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_bytes(VALID_LINE + b"\n\x0b\n\x0c\n" + VALID_LINE + b"\n")
    checked = check(path)
    assert [(a.line, codes(a)) for a in checked] == [(1, []), (2, ["ES002"]), (3, ["ES002"]), (4, [])]
    lone = tmp_path / "run.json"
    lone.write_bytes(b"\x0c")
    assert [codes(a) for a in check(lone)] == [["ES002"]]
