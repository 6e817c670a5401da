"""The output-target guards of ``evalscore.output_file`` (used by ``import``; meant for ``--output`` too)."""

from __future__ import annotations

import os
import signal
import stat
from pathlib import Path
from types import FrameType

import pytest

from evalscore.output_file import (
    AtomicOutput,
    OutputRefusedError,
    Terminated,
    check_output,
    non_regular_kind,
    sigterm_raises,
)


def test_the_target_is_checked_again_just_before_the_rename(tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl"
    with AtomicOutput(check_output(str(target), [])) as output:
        output.write(b"line\n")
        os.mkfifo(target)  # swapped in after the first check
        with pytest.raises(OutputRefusedError, match="is a named pipe"):
            output.commit()
    assert stat.S_ISFIFO(os.lstat(target).st_mode)
    assert [path.name for path in tmp_path.iterdir()] == ["out.jsonl"]


def test_a_target_linked_to_an_input_after_the_first_check_is_refused_at_the_rename(tmp_path: Path) -> None:
    source = tmp_path / "log.json"
    source.write_bytes(b"{}")
    target = tmp_path / "out.jsonl"
    with AtomicOutput(check_output(str(target), [str(source)]), [str(source)]) as output:
        output.write(b"line\n")
        os.link(source, target)
        with pytest.raises(OutputRefusedError, match="is the input"):
            output.commit()
    assert source.read_bytes() == b"{}"


def test_discarding_removes_the_temporary_file_and_leaves_the_target(tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl"
    target.write_text("kept\n")
    with AtomicOutput(check_output(str(target), [])) as output:
        output.write(b"new\n")
        assert len(list(tmp_path.iterdir())) == 2
    assert target.read_text() == "kept\n"
    assert [path.name for path in tmp_path.iterdir()] == ["out.jsonl"]


def test_the_temporary_file_is_hidden_beside_the_real_target_and_ends_in_tmp(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    link = tmp_path / "out.jsonl"
    link.symlink_to(tmp_path / "real" / "runs.jsonl")
    with AtomicOutput(check_output(str(link), [])):
        (temp,) = (tmp_path / "real").iterdir()
        assert temp.name.startswith(".runs.jsonl.")
        assert temp.name.endswith(".tmp")


@pytest.mark.parametrize(
    ("mode", "kind"),
    [
        (stat.S_IFREG, None),
        (stat.S_IFDIR, "is a directory"),
        (stat.S_IFIFO, "is a named pipe (FIFO)"),
        (stat.S_IFSOCK, "is a socket"),
        (stat.S_IFCHR, "is a character device"),
        (stat.S_IFBLK, "is a block device"),
        (stat.S_IFLNK, "is a symbolic link that does not resolve (a loop)"),
    ],
)
def test_every_kind_of_file_but_a_regular_one_is_named(mode: int, kind: str | None) -> None:
    assert non_regular_kind(mode | 0o644) == kind


def test_a_symbolic_link_loop_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    with pytest.raises(OutputRefusedError, match="a loop"):
        check_output(str(tmp_path / "a"), [])


def test_sigterm_inside_the_block_raises_and_the_previous_handler_comes_back() -> None:
    def previous(signum: int, frame: FrameType | None) -> None:
        raise AssertionError("the block's own handler should have run")

    saved = signal.signal(signal.SIGTERM, previous)
    try:
        with pytest.raises(Terminated), sigterm_raises():
            signal.raise_signal(signal.SIGTERM)
        assert signal.getsignal(signal.SIGTERM) is previous
    finally:
        signal.signal(signal.SIGTERM, saved)


def test_a_file_the_user_may_not_write_is_refused_though_a_rename_could_replace_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "out.jsonl"
    target.write_text("kept\n")
    monkeypatch.setattr(os, "access", lambda path, mode: mode != os.W_OK)  # as for a non-root user and a 0444 file
    with pytest.raises(OutputRefusedError, match="not writable"):
        check_output(str(target), [])


@pytest.mark.parametrize(
    "name", ["new/", "existing.jsonl/", "existing.jsonl//", "existing.jsonl/.", "new/.", "new/..", ".", ".."]
)
def test_a_name_ending_with_a_slash_a_dot_or_two_names_a_directory_and_is_refused(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "existing.jsonl").write_text("kept\n")
    with pytest.raises(OutputRefusedError, match=r"names a directory \(it ends with (a slash|'\.'|'\.\.')\)"):
        check_output(name, [])
    assert sorted(path.name for path in tmp_path.iterdir()) == ["existing.jsonl"]
    assert (tmp_path / "existing.jsonl").read_text() == "kept\n"


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("missing/../out.jsonl", "cannot write: missing/..: No such file or directory"),
        ("existing.jsonl/../out.jsonl", "cannot write: existing.jsonl/..: Not a directory"),
        ("existing.jsonl/out.jsonl", "cannot write: existing.jsonl is not a directory"),
    ],
)
def test_a_directory_part_the_system_cannot_open_as_written_is_refused_not_resolved_as_text(
    name: str, reason: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "existing.jsonl").write_text("kept\n")
    with pytest.raises(OutputRefusedError) as caught:
        check_output(name, [])
    assert caught.value.reason == reason
    assert sorted(path.name for path in tmp_path.iterdir()) == ["existing.jsonl"]


def test_an_empty_output_name_is_refused(tmp_path: Path) -> None:
    with pytest.raises(OutputRefusedError, match="is empty"):
        check_output("", [])
