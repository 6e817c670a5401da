"""The URL reader (``inputs.urls``) on fsspec's in-process ``memory://`` store: what a URL expands to,
in which order, and what a URL that cannot be read becomes."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import fsspec
import pytest

from evalscore.inputs.paths import SourceFile, file_key
from evalscore.inputs.urls import NEEDS_FSSPEC, expand_url, open_url, url_size

MEMORY: Final = fsspec.filesystem("memory")


@pytest.fixture
def bucket(tmp_path: Path) -> Iterator[str]:
    """``memory://<unique>/`` with files at three depths, some of them named in no known format."""
    root = f"/{tmp_path.name}"
    files = {
        "b.json": b"{}",
        "a.jsonl.gz": b"",
        "notes.txt": b"x",
        "z/c.yaml": b"",
        "z/y/d.json": b"{}",
        "m/e.JSONL": b"",
        "m/README": b"",
    }
    for name, content in files.items():
        MEMORY.pipe_file(f"{root}/{name}", content)
    yield f"memory://{tmp_path.name}"
    MEMORY.rm(root, recursive=True)


def test_a_url_folder_lists_the_files_whose_names_announce_a_format_in_local_walk_order(bucket: str) -> None:
    assert list(expand_url(bucket, frozenset())) == [
        SourceFile(f"{bucket}/a.jsonl.gz", "jsonl", True),
        SourceFile(f"{bucket}/b.json", "json", False),
        SourceFile(f"{bucket}/m/e.JSONL", "jsonl", False),
        SourceFile(f"{bucket}/z/c.yaml", "yaml", False),
        SourceFile(f"{bucket}/z/y/d.json", "json", False),
    ]


def test_a_trailing_slash_names_the_same_files(bucket: str) -> None:
    assert list(expand_url(bucket + "/", frozenset())) == list(expand_url(bucket, frozenset()))


def test_a_url_that_names_a_file_is_read_whatever_its_name(bucket: str) -> None:
    assert list(expand_url(f"{bucket}/notes.txt", frozenset())) == [SourceFile(f"{bucket}/notes.txt", "sniff", False)]
    MEMORY.pipe_file(f"{bucket[len('memory:/') :]}/log.GZ", b"")
    assert list(expand_url(f"{bucket}/log.GZ", frozenset())) == [SourceFile(f"{bucket}/log.GZ", "sniff", True)]
    assert list(expand_url(f"{bucket}/a.jsonl.gz", frozenset())) == [SourceFile(f"{bucket}/a.jsonl.gz", "jsonl", True)]


def test_a_url_that_cannot_be_looked_at_is_one_source_with_the_reason() -> None:
    missing = "memory://no-such-bucket/runs.jsonl"
    assert list(expand_url(missing, frozenset())) == [
        SourceFile(missing, "json", gzipped=False, problem="no such file or directory")
    ]
    (unknown,) = expand_url("nosuchprotocol://x/y.json", frozenset())
    assert (unknown.path, unknown.problem) == ("nosuchprotocol://x/y.json", "protocol not known: nosuchprotocol")


def test_without_fsspec_a_url_is_one_source_naming_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "fsspec.core", None)
    assert list(expand_url("s3://bucket/logs/", frozenset())) == [
        SourceFile("s3://bucket/logs/", "json", gzipped=False, problem=NEEDS_FSSPEC)
    ]
    monkeypatch.setitem(sys.modules, "fsspec", None)
    with pytest.raises(OSError, match=r"^reading a URL needs fsspec: pip install 'evalscore\[dask\]'$"):
        open_url("s3://bucket/logs/a.json")


def test_a_file_url_is_the_local_path_with_its_guards(tmp_path: Path) -> None:
    log = tmp_path / "runs.jsonl"
    log.write_bytes(b"{}\n")
    assert list(expand_url(f"file://{tmp_path}", frozenset())) == [SourceFile(str(log), "jsonl", False, walked=True)]
    assert list(expand_url(f"file://{tmp_path}", frozenset({file_key(str(log))}))) == []  # the output file, say


def test_an_opened_url_gives_its_bytes_and_its_size(bucket: str) -> None:
    with open_url(f"{bucket}/b.json") as stream:
        assert url_size(stream) == 2
        assert stream.read() == b"{}"
    assert url_size(io.BytesIO(b"abc")) is None  # a stream without a size says nothing
    sized = io.BytesIO()
    sized.size = "12"  # type: ignore[attr-defined]  # a file system that says something else than a number
    assert url_size(sized) is None


def test_a_url_that_cannot_be_opened_is_an_os_error_with_the_reason() -> None:
    with pytest.raises(OSError, match=r"^no such file or directory$"):
        open_url("memory://no-such-bucket/b.json")
    with pytest.raises(OSError, match=r"^protocol not known: nosuchprotocol$"):
        open_url("nosuchprotocol://x/y.json")


def test_a_folder_name_ending_in_a_letter_the_slash_strip_could_eat_is_kept_whole() -> None:
    MEMORY.pipe_file("/logsX/runs.jsonl", b"")
    try:
        for url in ("memory://logsX", "memory://logsX/"):
            assert list(expand_url(url, frozenset())) == [SourceFile("memory://logsX/runs.jsonl", "jsonl", False)]
    finally:
        MEMORY.rm("/logsX", recursive=True)


def test_a_folder_name_ending_in_a_space_is_kept_whole() -> None:
    MEMORY.pipe_file("/logs /runs.jsonl", b"")
    try:
        assert list(expand_url("memory://logs ", frozenset())) == [
            SourceFile("memory://logs /runs.jsonl", "jsonl", False)
        ]
    finally:
        MEMORY.rm("/logs ", recursive=True)
