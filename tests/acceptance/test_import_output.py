"""``import inspect -o``: standard output, and never destroying what the target path points to."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from evalscore.cli.import_command import import_group
from evalscore.cli.main import main


def invoke(*args: str) -> Result:
    return CliRunner().invoke(import_group, ["inspect", *args], catch_exceptions=False)


def error_lines(result: Result) -> list[str]:
    return result.stderr.splitlines()


def temp_files(directory: Path) -> list[str]:
    return sorted(path.name for path in directory.iterdir() if path.name.endswith(".tmp"))


@pytest.fixture
def log(inspect_logs: dict[str, Path], tmp_path: Path) -> Path:
    """A private copy of the .eval log: a test that broke the guard must not destroy the shared one."""
    copy = tmp_path / "logs" / "run.eval"
    copy.parent.mkdir()
    shutil.copyfile(inspect_logs["eval"], copy)
    return copy


# -- standard output ----------------------------------------------------------------------------------


def test_dash_writes_the_jsonl_to_standard_output_and_no_file_named_dash(
    log: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    to_file = invoke(str(log), "-o", "runs.jsonl")
    assert to_file.exit_code == 0, to_file.output
    result = invoke(str(log), "-o", "-")
    assert result.exit_code == 0, result.output
    assert result.stdout_bytes == (tmp_path / "runs.jsonl").read_bytes()
    assert not (tmp_path / "-").exists()
    assert "wrote 1 run(s) to standard output" in result.stderr


def test_dash_writes_nothing_to_standard_output_when_a_log_fails(log: Path, tmp_path: Path) -> None:
    result = invoke(str(log), str(tmp_path / "missing.eval"), "-o", "-")
    assert result.exit_code == 2
    assert result.stdout_bytes == b""
    assert "standard output was not written" in result.stderr


def test_dash_refuses_a_standard_output_appending_to_an_input(log: Path, tmp_path: Path) -> None:
    before = log.read_bytes()
    with log.open("ab") as appended:
        done = subprocess.run(
            [sys.executable, "-m", "evalscore", "import", "inspect", str(log), "-o", "-"],
            stdout=appended,
            stderr=subprocess.PIPE,
            cwd=tmp_path,  # a broken guard writes a file named "-" there, not in the checkout
            check=False,
            timeout=120,
        )
    assert done.returncode == 2
    assert log.read_bytes() == before
    (line,) = done.stderr.decode().splitlines()
    assert f"standard output is the input {log}" in line


# -- targets that are not regular files ---------------------------------------------------------------


def make_device(path: Path) -> None:
    """A character device like /dev/null, made where a broken guard can only destroy a copy."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, OSError) as error:
        pytest.skip(f"cannot make a device node here: {error}")


@pytest.mark.parametrize(
    ("make", "kind", "test"),
    [
        (make_device, "is a character device", stat.S_ISCHR),
        (os.mkfifo, "is a named pipe (FIFO)", stat.S_ISFIFO),
        (os.mkdir, "is a directory", stat.S_ISDIR),
    ],
    ids=["device", "fifo", "directory"],
)
def test_a_target_that_is_not_a_regular_file_is_refused_and_left_as_it_was(
    make: object, kind: str, test: object, log: Path, tmp_path: Path
) -> None:
    target = tmp_path / "out.jsonl"
    assert callable(make)
    assert callable(test)
    make(target)
    result = invoke(str(log), "-o", str(target))
    assert result.exit_code == 2
    assert error_lines(result) == [f"evalscore import inspect: {target}: {kind}; evalscore writes only regular files"]
    assert test(os.lstat(target).st_mode)
    assert temp_files(tmp_path) == []


@pytest.mark.parametrize("name", ["nonexist/", "existing.jsonl/"])
def test_an_output_name_with_a_trailing_slash_names_a_directory_and_nothing_is_written(
    name: str, log: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    existing = tmp_path / "existing.jsonl"
    existing.write_text("kept\n")
    result = invoke(str(log), "-o", name)
    assert result.exit_code == 2
    assert error_lines(result) == [
        f"evalscore import inspect: {name}: names a directory (it ends with a slash); "
        "evalscore writes only regular files"
    ]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["existing.jsonl", "logs"]
    assert existing.read_text() == "kept\n"


def test_a_socket_target_is_refused(log: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "out.sock"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(target.name)  # relative: a socket's path is limited to about 100 bytes
        result = invoke(str(log), "-o", str(target))
    assert result.exit_code == 2
    assert "is a socket" in result.stderr
    assert stat.S_ISSOCK(os.lstat(target).st_mode)


# -- targets that are inputs --------------------------------------------------------------------------


def test_an_output_naming_the_input_log_is_refused_and_the_log_is_unchanged(log: Path) -> None:
    before = log.read_bytes()
    result = invoke(str(log), "-o", str(log))
    assert result.exit_code == 2
    assert error_lines(result) == [
        f"evalscore import inspect: {log}: is the input {log}; writing it would destroy the input"
    ]
    assert log.read_bytes() == before


@pytest.mark.parametrize("link", ["hard", "symbolic"])
def test_a_link_to_an_input_log_is_the_input(link: str, log: Path, tmp_path: Path) -> None:
    before = log.read_bytes()
    target = tmp_path / "out.jsonl"
    (os.link if link == "hard" else os.symlink)(log, target)
    result = invoke(str(log), "-o", str(target))
    assert result.exit_code == 2
    assert f"is the input {log}" in result.stderr
    assert log.read_bytes() == before


def test_an_output_naming_the_suite_is_refused(log: Path, tmp_path: Path) -> None:
    suite = Path(__file__).resolve().parents[2] / "fixtures" / "valid" / "eval-suite" / "inspect-refund-desk.yaml"
    copy = tmp_path / "suite.yaml"
    shutil.copyfile(suite, copy)
    result = invoke(str(log), "--suite", str(copy), "-o", str(copy))
    assert result.exit_code == 2
    assert f"is the input {copy}" in result.stderr
    assert copy.read_bytes() == suite.read_bytes()


# -- symbolic links are written through ---------------------------------------------------------------


def test_a_symbolic_link_is_written_through_and_stays_a_link(log: Path, tmp_path: Path) -> None:
    real = tmp_path / "real" / "runs.jsonl"
    real.parent.mkdir()
    real.write_text("old\n")
    link = tmp_path / "out.jsonl"
    link.symlink_to(real)
    result = invoke(str(log), "-o", str(link))
    assert result.exit_code == 0, result.output
    assert link.is_symlink()
    assert os.readlink(link) == str(real)
    assert real.read_bytes().count(b"\n") == 1
    assert real.read_text() != "old\n"
    assert temp_files(tmp_path) == temp_files(real.parent) == []


def test_a_dangling_symbolic_link_is_written_through_to_the_file_it_names(log: Path, tmp_path: Path) -> None:
    real = tmp_path / "real" / "runs.jsonl"
    real.parent.mkdir()
    link = tmp_path / "out.jsonl"
    link.symlink_to(real)
    assert invoke(str(log), "-o", str(link)).exit_code == 0
    assert link.is_symlink()
    assert real.is_file()


def test_a_symbolic_link_to_a_device_is_refused_naming_both(log: Path, tmp_path: Path) -> None:
    device = tmp_path / "null"
    make_device(device)
    link = tmp_path / "out.jsonl"
    link.symlink_to(device)
    result = invoke(str(log), "-o", str(link))
    assert result.exit_code == 2
    assert error_lines(result) == [
        f"evalscore import inspect: {link} (a symbolic link to {device}): is a character device; "
        "evalscore writes only regular files"
    ]
    assert stat.S_ISCHR(os.lstat(device).st_mode)


def test_a_replaced_file_keeps_its_permissions(log: Path, tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl"
    target.write_text("old\n")
    target.chmod(0o600)
    assert invoke(str(log), "-o", str(target)).exit_code == 0
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


# -- temporary files: removed on SIGTERM, harmless after SIGKILL --------------------------------------


def test_sigterm_while_importing_exits_143_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    fifo = tmp_path / "blocked.json"
    os.mkfifo(fifo)  # nobody writes it: opening it blocks, after the temporary file exists
    out = tmp_path / "out.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-m", "evalscore", "import", "inspect", str(fifo), "-o", str(out)],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while not temp_files(tmp_path):
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the temporary file never appeared"
            time.sleep(0.05)
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 143
    assert stderr.decode().splitlines() == [f"evalscore import inspect: terminated (SIGTERM); {out} was not written"]
    assert temp_files(tmp_path) == []
    assert not out.exists()


def test_a_stale_temporary_file_left_by_sigkill_trips_neither_import_nor_validate(log: Path, tmp_path: Path) -> None:
    stale = tmp_path / ".out.jsonl.k1ll3d00.tmp"
    stale.write_bytes(b'{"half a run": ')
    out = tmp_path / "out.jsonl"
    result = invoke(str(log), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert stale.read_bytes() == b'{"half a run": '  # another run's file is not ours to remove
    shutil.rmtree(tmp_path / "logs")
    validated = CliRunner().invoke(main, ["validate", str(tmp_path)])
    assert validated.exit_code == 0, validated.output
    assert "k1ll3d00" not in validated.output


def test_a_refused_target_is_named_escaped(log: Path, tmp_path: Path) -> None:
    target = tmp_path / "out\x1b[2J\n.jsonl"
    os.mkfifo(target)
    result = invoke(str(log), "-o", str(target))
    assert result.exit_code == 2
    assert error_lines(result) == [
        f"evalscore import inspect: {tmp_path}/out\\x1b[2J\\n.jsonl: is a named pipe (FIFO); "
        "evalscore writes only regular files"
    ]


def test_a_suite_that_never_ends_is_refused_after_a_bounded_read(log: Path, tmp_path: Path) -> None:
    result = invoke(str(log), "--suite", "/dev/zero", "-o", str(tmp_path / "out.jsonl"))
    assert result.exit_code == 2
    assert error_lines(result) == [
        "evalscore import inspect: /dev/zero: the suite is larger than 16,777,216 bytes; "
        "a suite is a small authored file"
    ]
    assert temp_files(tmp_path) == []
