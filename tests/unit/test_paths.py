"""Command-line paths to the files to read: stdin, files named directly, directories walked.

A file met while walking must be a regular file (a FIFO there would block the run); a path that
cannot be read is a source with the reason, never an exception, so the other paths are still read.
"""

from __future__ import annotations

import os
import shutil
import socket
import stat
from pathlib import Path

import pytest

from evalscore.inputs import paths
from evalscore.inputs.expansion import expand_paths
from evalscore.inputs.paths import SourceFile, classify, not_regular


def test_stdin_is_sniffed_and_the_paths_after_it_are_still_expanded(tmp_path: Path) -> None:
    (tmp_path / "run.json").write_bytes(b"{}")
    assert list(expand_paths(["-", str(tmp_path / "run.json"), "-"])) == [
        SourceFile("-", "sniff", gzipped=False),
        SourceFile(str(tmp_path / "run.json"), "json", gzipped=False),
        SourceFile("-", "sniff", gzipped=False),
    ]


def test_a_missing_path_is_a_source_that_says_why_it_cannot_be_read(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.yaml")
    assert list(expand_paths([missing, "-"])) == [
        SourceFile(missing, "json", gzipped=False, problem="no such file or directory"),
        SourceFile("-", "sniff", gzipped=False),
    ]


@pytest.mark.parametrize(
    ("name", "announced"),
    [
        ("runs.log", ("sniff", False)),
        ("runs.log.gz", ("sniff", True)),
        ("RUNS.LOG.GZ", ("sniff", True)),
        ("run.JSON.Gz", ("json", True)),
        ("suite.yml", ("yaml", False)),
    ],
)
def test_a_file_named_directly_is_read_whatever_its_suffix_and_gunzipped_when_it_says_gz(
    tmp_path: Path, name: str, announced: tuple[str, bool]
) -> None:
    path = tmp_path / name
    path.write_bytes(b"{}")
    (source,) = expand_paths([str(path)])
    assert (source.format, source.gzipped, source.problem, source.walked) == (*announced, None, False)


def test_suffixes_announce_formats_case_blind_and_nothing_else_does() -> None:
    assert [classify(name) for name in ("a.jsonl", "a.YAML", "a.yml.gz", "a.json.bak", "a.gz", "a")] == [
        ("jsonl", False),
        ("yaml", False),
        ("yaml", True),
        None,
        None,
        None,
    ]


def test_a_walked_regular_file_is_marked_as_walked(tmp_path: Path) -> None:
    (tmp_path / "run.json.gz").write_bytes(b"")
    assert list(expand_paths([str(tmp_path)])) == [
        SourceFile(str(tmp_path / "run.json.gz"), "json", gzipped=True, walked=True)
    ]


def test_a_fifo_or_socket_met_while_walking_is_skipped_with_what_it_is(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "a-pipe.jsonl")
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(tmp_path / "b-socket.yaml"))
        found = list(expand_paths([str(tmp_path)]))
    assert found == [
        SourceFile(
            str(tmp_path / "a-pipe.jsonl"), "jsonl", False, problem="a FIFO, not a regular file: skipped", walked=True
        ),
        SourceFile(
            str(tmp_path / "b-socket.yaml"), "yaml", False, problem="a socket, not a regular file: skipped", walked=True
        ),
    ]


def test_a_file_that_vanishes_while_the_directory_is_walked_is_named_with_the_reason(tmp_path: Path) -> None:
    for name in ("a.json", "b.yaml.gz"):
        (tmp_path / name).write_bytes(b"{}")
    walk = expand_paths([str(tmp_path)])
    assert next(walk) == SourceFile(str(tmp_path / "a.json"), "json", gzipped=False, walked=True)
    (tmp_path / "b.yaml.gz").unlink()
    assert list(walk) == [
        SourceFile(str(tmp_path / "b.yaml.gz"), "yaml", True, problem="no such file or directory", walked=True)
    ]


def test_a_subdirectory_that_vanishes_while_walking_is_named_after_the_files_found(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_bytes(b"{}")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.json").write_bytes(b"{}")
    walk = expand_paths([str(tmp_path), "-"])
    assert next(walk) == SourceFile(str(tmp_path / "a.json"), "json", gzipped=False, walked=True)
    shutil.rmtree(tmp_path / "sub")
    assert list(walk) == [
        SourceFile(str(tmp_path / "sub"), "json", gzipped=False, problem="no such file or directory"),
        SourceFile("-", "sniff", gzipped=False),
    ]


def test_a_directory_that_cannot_be_listed_is_named_by_the_walk(tmp_path: Path) -> None:
    # What os.walk reports when the directory itself goes away between the check and the walk.
    gone = str(tmp_path / "gone")
    assert list(paths._walk(gone, frozenset())) == [
        SourceFile(gone, "json", gzipped=False, problem="no such file or directory")
    ]


@pytest.mark.parametrize(
    ("mode", "what"),
    [
        (stat.S_IFREG | 0o644, None),
        (stat.S_IFIFO | 0o644, "a FIFO"),
        (stat.S_IFCHR | 0o666, "a character device"),
        (stat.S_IFBLK | 0o660, "a block device"),
        (stat.S_IFSOCK | 0o755, "a socket"),
        (stat.S_IFDIR | 0o755, "a directory"),
        (stat.S_IFLNK | 0o777, "not a regular file"),
        (0, "not a regular file"),
    ],
)
def test_not_regular_names_what_a_file_is_when_it_is_not_a_regular_file(mode: int, what: str | None) -> None:
    assert not_regular(mode) == what


def test_an_os_error_without_a_system_reason_gives_its_own_words() -> None:
    assert paths._reason(OSError("the disk said no")) == "the disk said no"
    assert paths._reason(FileNotFoundError(2, "No such file or directory", "x")) == "no such file or directory"


def test_a_source_is_named_with_bytes_that_are_not_utf8_escaped() -> None:
    assert SourceFile(os.fsdecode(b"run-\xff.json"), "json", gzipped=False).source == "run-\\xff.json"


def test_files_to_skip_are_left_out_whether_named_walked_or_reached_by_a_link(tmp_path: Path) -> None:
    (tmp_path / "runs").mkdir()
    kept, skipped = tmp_path / "runs" / "a.json", tmp_path / "runs" / "suite.yaml"
    kept.write_text("{}")
    skipped.write_text("suite: {}")
    link = tmp_path / "link.yaml"
    link.symlink_to(skipped)
    key = paths.file_key(str(link))
    assert key == paths.file_key(str(skipped)) is not None
    found = list(expand_paths([str(tmp_path / "runs"), str(skipped), str(link), str(kept)], frozenset({key})))
    assert [file.path for file in found] == [str(kept), str(kept)]
    assert [file.path for file in expand_paths([str(tmp_path / "runs")])] == [str(kept), str(skipped)]


def test_stdin_and_a_missing_path_have_no_file_key(tmp_path: Path) -> None:
    assert paths.file_key("-") is None
    assert paths.file_key(str(tmp_path / "missing.json")) is None
