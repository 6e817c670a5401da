"""Inputs named by fsspec URLs (issue 10): ``memory://`` stands for ``s3://`` and ``gs://`` here (no
network in tests); ``file://`` is the local path it names."""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import fsspec
import pytest
from click.testing import CliRunner, Result

from evalscore.cli.main import main
from evalscore.inputs.paths import is_url
from evalscore.inputs.urls import NEEDS_FSSPEC

ROOT: Final = Path(__file__).resolve().parents[2]
LOG: Final = ROOT / "examples" / "partner-log.jsonl"
SUITE: Final = ROOT / "examples" / "partner-suite.yaml"
RUN: Final = ROOT / "fixtures" / "valid" / "run" / "full-v3.json"
MEMORY: Final = fsspec.filesystem("memory")


def invoke(*args: object) -> Result:
    result = CliRunner().invoke(main, [str(arg) for arg in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def report(*args: object) -> tuple[int, dict[str, Any]]:
    result = invoke(*args, "--format", "json", "-j", "1")
    return result.exit_code, json.loads(result.stdout)


def corpus_files() -> dict[str, bytes]:
    """A corpus with files in a subfolder and at the top (a walk takes the top's first), a gzipped
    JSONL, an invalid line, a line over the size limit with lines after it, and a file evalscore
    does not read."""
    lines = LOG.read_bytes().splitlines(keepends=True)
    return {
        "b/runs.jsonl": b"".join(lines),
        "b/c/more.jsonl.gz": gzip.compress(b"".join(lines[:2])),
        "a.jsonl": lines[0] + b'{"run_id": 3}\n' + b'"' + b"x" * 70_000 + b'"\n' + lines[1],
        "run.json": RUN.read_bytes(),
        "notes.txt": b"not a log",
    }


@pytest.fixture
def on_disk(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    for name, data in corpus_files().items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return folder


@pytest.fixture
def in_memory(tmp_path: Path) -> Iterator[str]:
    """The same corpus in fsspec's in-memory file system, removed after the test."""
    root = f"/{tmp_path.name}"
    for name, data in corpus_files().items():
        MEMORY.pipe(f"{root}/{name}", data)
    yield f"memory://{tmp_path.name}"
    MEMORY.rm(root, recursive=True)


def named_as_local(report: dict[str, Any], url: str, folder: Path) -> str:
    """The report's text with the URL's prefix written as the local folder's."""
    return json.dumps(report).replace(url, str(folder))


def test_a_url_folder_gives_the_report_of_the_same_folder_on_disk(in_memory: str, on_disk: Path) -> None:
    code, there = report("validate", "--max-document-bytes", 65_536, in_memory)
    local_code, here = report("validate", "--max-document-bytes", 65_536, on_disk)
    assert named_as_local(there, in_memory, on_disk) == json.dumps(here)
    assert code == local_code == 1
    sources = [item["path"] for item in there["inputs"]]
    assert sources == [f"{in_memory}/{name}" for name in ("a.jsonl", "run.json", "b/runs.jsonl", "b/c/more.jsonl.gz")]
    lines_of_a = [artifact["line"] for artifact in there["artifacts"] if artifact["source"].endswith("/a.jsonl")]
    assert lines_of_a == [1, 2, 3, 4]  # the line after the one over the limit is still read


def test_a_url_input_is_hashed_like_the_file(in_memory: str) -> None:
    _, there = report("validate", f"{in_memory}/b/runs.jsonl")
    (record,) = there["inputs"]
    assert record["sha256"] == hashlib.sha256(LOG.read_bytes()).hexdigest()
    assert record["complete"] is True


def test_score_reads_url_runs_as_it_reads_files(in_memory: str, on_disk: Path) -> None:
    code, there = report("score", "--suite", SUITE, f"{in_memory}/b")
    local_code, here = report("score", "--suite", SUITE, on_disk / "b")
    renamed = json.loads(named_as_local(there, in_memory, on_disk))
    by_path = sorted(renamed.pop("inputs"), key=lambda record: record["path"])  # listed in order of their names
    assert by_path == here.pop("inputs")
    assert renamed == here
    assert code == local_code
    assert len(by_path) == 3  # two logs and the suite
    assert there["counts"]["total_steps"] > 0


def test_a_file_url_is_the_local_path_it_names(on_disk: Path) -> None:
    assert report("validate", on_disk.as_uri()) == report("validate", on_disk)


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("memory://no-such-corpus", "no such file or directory"),
        ("nosuchprotocol://bucket/log.jsonl", "protocol not known: nosuchprotocol"),
    ],
)
def test_a_url_that_cannot_be_read_is_a_finding_on_it(url: str, reason: str) -> None:
    code, there = report("validate", url, RUN)
    assert code == 2  # unreadable input
    assert [artifact["source"] for artifact in there["artifacts"]] == [url, str(RUN)]
    (finding,) = there["artifacts"][0]["findings"]
    assert (finding["code"], finding["message"]) == ("ES001", reason)
    assert there["artifacts"][1]["valid"] is True


def test_without_fsspec_a_url_says_which_extra_to_install_and_paths_still_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "fsspec", None)  # import fsspec raises ImportError
    monkeypatch.setitem(sys.modules, "fsspec.core", None)
    code, there = report("validate", "s3://bucket/logs/", RUN)
    assert code == 2
    (finding,) = there["artifacts"][0]["findings"]
    assert finding["message"] == NEEDS_FSSPEC
    assert there["artifacts"][1]["valid"] is True


def test_a_local_name_that_only_resembles_a_url_stays_a_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert [is_url(name) for name in ("s3://b/k", "simplecache::s3://b/k", "gs://b", "memory://x")] == [True] * 4
    assert [is_url(name) for name in ("C://logs", "s3:/b", "./s3://b", "logs/s3://b", "-")] == [False] * 5
    shutil.copy(RUN, tmp_path / "C:")
    monkeypatch.chdir(tmp_path)
    assert report("validate", "C:")[0] == 0
