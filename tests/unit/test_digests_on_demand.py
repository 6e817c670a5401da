"""Work a report does not show is not done: the inputs' SHA-256 is computed only for the
``validate`` reports that print it, and the line breaks of a long JSONL file are counted the
cheap way for its long lines without costing more than one pass for short ones."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, SupportsIndex

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from evalscore.cli.main import main
from evalscore.inputs.documents import InputRecord, read_file_documents
from evalscore.inputs.expansion import expand_paths
from evalscore.inputs.jsonl_ranges import LineRange, line_breaks, line_ranges
from evalscore.reporters.registry import VALIDATION_FORMATS_WITH_DIGESTS, VALIDATION_REPORTERS, ReportStyle
from evalscore.running import parallel, pipeline
from evalscore.validation.checker import CheckedArtifact
from evalscore.validation.summary import ValidationSummary

ROOT = Path(__file__).resolve().parents[2]
RUN_LINES = (ROOT / "examples" / "partner-log.jsonl").read_bytes().splitlines()


@given(st.lists(st.sampled_from([b"\n", b"\r\n", b"x", b"{}", b"\n\n\n", b"\x00"]), max_size=2000))
def test_line_breaks_are_the_newline_bytes_of_the_chunk(pieces: list[bytes]) -> None:
    chunk = b"".join(pieces)
    assert line_breaks(chunk) == chunk.count(b"\n")


@pytest.mark.parametrize("breaks", [0, 1, 511, 512, 513, 5000])
def test_line_breaks_count_past_the_one_by_one_limit(breaks: int) -> None:
    assert line_breaks(b"ab\n" * breaks + b"tail") == breaks


class CountedFinds(bytes):
    """Bytes that count how often ``find`` is called on them."""

    finds = 0

    def find(self, sub: Any, start: SupportsIndex | None = None, end: SupportsIndex | None = None) -> int:
        CountedFinds.finds += 1
        return super().find(sub, start, end)


@pytest.mark.parametrize(("breaks", "most_finds"), [(100, 101), (1_000_000, 512)])
def test_a_chunk_of_short_lines_is_counted_in_one_pass_after_a_bounded_number_of_finds(
    breaks: int, most_finds: int
) -> None:
    CountedFinds.finds = 0
    assert line_breaks(CountedFinds(b"\n" * breaks)) == breaks
    assert CountedFinds.finds == most_finds


def jsonl_file(tmp_path: Path, lines: int = 12) -> Path:
    path = tmp_path / "runs.jsonl"
    path.write_bytes(b"\n".join(RUN_LINES[index % len(RUN_LINES)] for index in range(lines)) + b"\n")
    return path


def test_ranges_cut_without_a_digest_are_the_same_and_the_record_says_none_was_made(tmp_path: Path) -> None:
    path = jsonl_file(tmp_path)
    (file,) = expand_paths([str(path)])
    hashed, hashed_record = line_ranges(file, 2 * len(RUN_LINES[0]))
    plain, plain_record = line_ranges(file, 2 * len(RUN_LINES[0]), digest=False)
    hashed_ranges, plain_ranges = list(hashed), list(plain)
    assert len(plain_ranges) >= 4
    assert all(isinstance(piece, LineRange) for piece in plain_ranges)
    assert plain_ranges == hashed_ranges
    data = path.read_bytes()
    assert hashed_record() == InputRecord(str(path), hashlib.sha256(data).hexdigest(), True, len(data))
    assert plain_record() == InputRecord(str(path), None, True, 0)


def test_a_file_read_without_a_digest_gives_the_same_documents_and_no_digest(tmp_path: Path) -> None:
    path = jsonl_file(tmp_path)
    (file,) = expand_paths([str(path)])
    hashed, hashed_record = read_file_documents(file)
    plain, plain_record = read_file_documents(file, digest=False)
    hashed_documents, plain_documents = list(hashed), list(plain)
    assert len(plain_documents) == 12
    assert plain_documents == hashed_documents
    data = path.read_bytes()
    assert hashed_record() == InputRecord(str(path), hashlib.sha256(data).hexdigest(), True, len(data))
    assert plain_record() == InputRecord(str(path), None, True, 0)


def test_a_gzip_stream_cut_short_without_a_digest_is_incomplete_and_undigested(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl.gz"
    path.write_bytes(b"\x1f\x8b\x08\x00not gzip at all")
    (file,) = expand_paths([str(path)])
    items, record = read_file_documents(file, digest=False)
    (document,) = list(items)
    assert document.syntax is not None
    assert record() == InputRecord(str(path), None, False, 0)


def test_the_formats_said_to_show_digests_are_exactly_those_that_print_one() -> None:
    digest = "ab" * 32
    summary = ValidationSummary(strict=False, max_findings=3)
    summary.inputs.append(InputRecord("runs.jsonl", digest, True, 10))
    summary.add(CheckedArtifact("runs.jsonl", 1, "run", ()))
    printing = {name for name, render in VALIDATION_REPORTERS.items() if digest in render(summary, ReportStyle())}
    assert len(VALIDATION_REPORTERS) == 6
    assert printing == VALIDATION_FORMATS_WITH_DIGESTS == {"json", "sarif"}


@pytest.fixture
def long_jsonl_in_ranges(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every JSONL file cut into ranges for the workers, as a long one is."""
    if not parallel.can_parallelize(2):
        pytest.skip("no fork: the parallel path is never taken")
    monkeypatch.setattr(pipeline, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(pipeline, "RANGE_BYTES", 2 * len(RUN_LINES[0]))


@pytest.mark.parametrize("output_format", sorted(VALIDATION_REPORTERS))
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_validate_hashes_its_inputs_only_for_a_report_that_shows_the_digest(
    output_format: str, jobs: str, tmp_path: Path, digests_made: list[int], long_jsonl_in_ranges: None
) -> None:
    path = jsonl_file(tmp_path)
    single = tmp_path / "run.json"
    single.write_bytes(RUN_LINES[0])
    result = CliRunner().invoke(
        main, ["validate", "--format", output_format, "-j", jobs, str(path), str(single)], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    shown = output_format in VALIDATION_FORMATS_WITH_DIGESTS
    assert len(digests_made) == (2 if shown else 0)
    for data in (path.read_bytes(), single.read_bytes()):
        assert (hashlib.sha256(data).hexdigest() in result.output) is shown


def test_score_always_hashes_its_inputs(tmp_path: Path, digests_made: list[int]) -> None:
    path = jsonl_file(tmp_path, lines=2)
    result = CliRunner().invoke(main, ["score", "--allow-empty", "--format", "json", str(path)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert len(digests_made) == 1
    (entry,) = json.loads(result.output)["inputs"]
    assert entry["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
