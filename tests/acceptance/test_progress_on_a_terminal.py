"""The progress line as a user sees it: a real process with its stderr on a pseudo-terminal."""

from __future__ import annotations

import contextlib
import os
import pty
import select
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[2]
RUN_LINES = (ROOT / "examples" / "partner-log.jsonl").read_bytes().splitlines()


def _feed_and_hold_open(stream: IO[bytes], data: bytes, release: threading.Event) -> None:
    """Write ``data``, then keep the pipe open until ``release``: the reader cannot reach its end before."""
    with contextlib.suppress(BrokenPipeError):  # the process ended (interrupted) before reading all of it
        stream.write(data)
        stream.flush()
        release.wait(120)
    with contextlib.suppress(BrokenPipeError):  # closing flushes what a dead reader did not take
        stream.close()


def _run_with_stderr_on_a_terminal(
    *args: str, interrupt_on: bytes | None = None, stdin_held_open: bytes | None = None
) -> tuple[int, bytes, bytes]:
    """Exit code, stdout (a pipe) and what reached the terminal on stderr; with ``interrupt_on``,
    the process is sent SIGINT (Ctrl-C) once that text has reached the terminal. With
    ``stdin_held_open``, those bytes are its standard input, which stays open until it has ended."""
    controller, terminal = pty.openpty()
    # Ctrl-C as at a terminal: a test run started in the background (as CI's may be) has SIGINT ignored,
    # which a child inherits, and Python then never raises KeyboardInterrupt. A handler set here is
    # reset to the default in the child when it starts.
    ignored = signal.signal(signal.SIGINT, signal.default_int_handler)
    process = subprocess.Popen(
        [sys.executable, "-m", "evalscore", *args],
        stdin=subprocess.PIPE if stdin_held_open is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=terminal,
        env={**os.environ, "NO_COLOR": "1", "COLUMNS": "100"},
    )
    signal.signal(signal.SIGINT, ignored)
    os.close(terminal)
    release = threading.Event()
    if stdin_held_open is not None:
        assert process.stdin is not None
        feeder = threading.Thread(target=_feed_and_hold_open, args=(process.stdin, stdin_held_open, release))
        feeder.start()
    shown = bytearray()
    while True:
        ready, _, _ = select.select([controller], [], [], 60)
        if not ready:
            process.kill()
            process.wait()
            release.set()
            assert process.stdout is not None
            process.stdout.close()  # a leaked pipe would be reported as unraisable in a later test
            raise AssertionError("no output from the process for 60 s")
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # the process closed the terminal's last copy
            break
        if not chunk:
            break
        shown += chunk
        if interrupt_on is not None and interrupt_on in shown:
            process.send_signal(signal.SIGINT)
            interrupt_on = None
    os.close(controller)
    assert process.stdout is not None
    with process.stdout:
        out = process.stdout.read()
    code = process.wait()
    release.set()
    if stdin_held_open is not None:
        feeder.join()
    return code, out, bytes(shown)


def test_validating_a_long_jsonl_shows_the_count_on_the_terminal_and_leaves_the_report_alone(tmp_path: Path) -> None:
    log = tmp_path / "runs.jsonl"
    log.write_bytes(b"\n".join(RUN_LINES * 1500) + b"\n")  # 3,000 runs: past the 1,000 the line waits for
    code, out, shown = _run_with_stderr_on_a_terminal("validate", str(log))
    assert code == 0
    assert out == b"VALID: 3000 artifact(s) in 1 input(s): 3000 valid, 0 invalid, 0 warning(s)\n"
    assert b"artifacts checked" in shown
    assert b"3,000 artifacts checked" in shown  # the last count is drawn before the line goes
    assert shown.endswith(b"\x1b[2K")


def test_a_short_command_shows_nothing_on_the_terminal(tmp_path: Path) -> None:
    log = tmp_path / "runs.jsonl"
    log.write_bytes(b"\n".join(RUN_LINES) + b"\n")
    code, out, shown = _run_with_stderr_on_a_terminal("validate", str(log))
    assert code == 0
    assert out.startswith(b"VALID: 2 artifact(s)")
    assert shown == b""


def test_an_interrupted_command_removes_the_line_and_gives_the_cursor_back() -> None:
    # The runs come on a standard input held open until the process ends, so it cannot finish before
    # the interrupt however slowly the progress line is first drawn on a busy machine.
    code, out, shown = _run_with_stderr_on_a_terminal(
        "validate",
        "-j",
        "1",
        "-",
        interrupt_on=b"artifacts checked",
        stdin_held_open=b"\n".join(RUN_LINES * 1500) + b"\n",
    )
    assert code == 130
    assert out == b""
    assert b"evalscore: interrupted" in shown
    assert shown.rindex(b"\x1b[?25h") > shown.rindex(b"artifacts checked")  # the cursor rich hid is shown again
    assert shown.rindex(b"\x1b[2K") > shown.rindex(b"artifacts checked")  # and the count line erased
