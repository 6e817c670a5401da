"""Where a command's output file goes: written whole or not at all, and never over what it must not replace.

A target named on the command line is hostile input like any other. Written the
naive way (a temporary file renamed onto the name), ``-o /dev/null`` run as
root turns the device into a regular file, ``-o log.eval`` overwrites the log
being read, and a FIFO, socket or directory at the name is replaced. So:

- ``-`` is standard output. The bytes are spooled first and copied only on
  ``commit``: a command that fails leaves standard output untouched.
- A symbolic link is written **through**: the real target (``os.path.realpath``)
  is checked and replaced, the link itself stays a link. A dangling link is
  written through to the file it names when that file's directory exists.
- A name that ends with a slash, ``.`` or ``..`` names a directory and is refused, as is one whose
  directory part the system cannot find as written (``missing/../out``): ``realpath`` would make
  a file name of either.
- The real target must be absent or a regular file, and not the same file
  (device and inode, following links) as any input: anything else is refused
  with one line, before anything is written, and checked again just before the
  rename.
- The temporary file sits beside the real target (``.NAME.XXXXXXXX.tmp``, a
  suffix no evalscore reader takes as input) and is removed on failure, on
  ``discard`` and, inside ``sigterm_raises``, on SIGTERM.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType, TracebackType
from typing import IO, Final

STDOUT: Final = "-"
"""The output name that means standard output."""
"""The conventional exit status of a process ended by SIGTERM (143)."""
SPOOL_IN_MEMORY: Final = 16 * 1024 * 1024
"""Output for standard output is kept in memory up to this size, then spooled to an unnamed temporary file."""
_KINDS: Final = (
    (stat.S_ISDIR, "is a directory"),
    (stat.S_ISFIFO, "is a named pipe (FIFO)"),
    (stat.S_ISSOCK, "is a socket"),
    (stat.S_ISCHR, "is a character device"),
    (stat.S_ISBLK, "is a block device"),
    (stat.S_ISLNK, "is a symbolic link that does not resolve (a loop)"),
)


_DIRECTORY_ENDINGS: Final = frozenset({"", os.curdir, os.pardir})
"""What a name ends with after its last slash when it names a directory whatever is there."""


class OutputRefusedError(Exception):
    """An output target evalscore will not write; ``target`` and ``reason`` make its one line."""

    def __init__(self, target: str, reason: str) -> None:
        super().__init__(f"{target}: {reason}")
        self.target = target
        self.reason = reason


class Terminated(BaseException):
    """SIGTERM arrived inside ``sigterm_raises``; a BaseException so that no ``except Exception`` swallows it."""


@dataclass(frozen=True, slots=True)
class OutputTarget:
    """A checked output: ``name`` as the user gave it, ``path`` the real file to replace (None for stdout)."""

    name: str
    path: Path | None


def check_output(name: str, inputs: Iterable[str]) -> OutputTarget:
    """Where ``name`` writes; raises ``OutputRefusedError`` when writing there would destroy something."""
    if name == STDOUT:
        _refuse_stdout_onto_an_input(inputs)
        return OutputTarget(name, None)
    refuse_a_name_of_no_file(name)
    real = Path(os.path.realpath(name))
    _refuse_unsafe_target(name, real, inputs)
    return OutputTarget(name, real)


def refuse_a_name_of_no_file(name: str) -> None:
    """Refuse what ``realpath`` would make a file name of, though the system would open no file by it.

    ``realpath`` drops a trailing slash and takes ``..`` as text where a directory is missing or is a
    file, so ``out/``, ``out.jsonl/.`` and ``missing/../out.jsonl`` would each become a file written
    beside them. A name whose last part is empty (a trailing slash), ``.`` or ``..`` names a directory;
    the part before the last must name a directory the system finds as it is written.
    """
    if not name:
        raise OutputRefusedError(name, "is empty: it names no file")
    ending = os.path.basename(name)
    if ending in _DIRECTORY_ENDINGS:
        shown = "a slash" if not ending else repr(ending)
        raise OutputRefusedError(name, f"names a directory (it ends with {shown}); evalscore writes only regular files")
    directory = os.path.dirname(name) or os.curdir
    try:
        status = os.stat(directory)
    except OSError as error:
        raise OutputRefusedError(name, f"cannot write: {directory}: {error.strerror or error}") from error
    if not stat.S_ISDIR(status.st_mode):
        raise OutputRefusedError(name, f"cannot write: {directory} is not a directory")


def _refuse_unsafe_target(name: str, real: Path, inputs: Iterable[str]) -> None:
    shown = name if os.path.abspath(name) == str(real) else f"{name} (a symbolic link to {real})"
    try:
        status = os.lstat(real)
    except FileNotFoundError:
        return
    except OSError as error:
        raise OutputRefusedError(shown, f"cannot write: {error.strerror or error}") from error
    kind = non_regular_kind(status.st_mode)
    if kind is not None:
        raise OutputRefusedError(shown, f"{kind}; evalscore writes only regular files")
    same = same_file_as(status, inputs)
    if same is not None:
        raise OutputRefusedError(shown, f"is the input {same}; writing it would destroy the input")
    if not os.access(real, os.W_OK):  # a rename would replace it all the same, as cp would not
        raise OutputRefusedError(shown, "cannot write: the file is not writable")


def _refuse_stdout_onto_an_input(inputs: Iterable[str]) -> None:
    """``-o - > log.json`` after the shell opened it for appending: standard output is then an input."""
    try:
        status = os.fstat(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real descriptor (a test runner's capture, a closed stream)
        return
    if not stat.S_ISREG(status.st_mode):
        return
    same = same_file_as(status, inputs)
    if same is not None:
        raise OutputRefusedError(STDOUT, f"standard output is the input {same}; writing it would destroy the input")


def non_regular_kind(mode: int) -> str | None:
    """What a file that is not a regular file is ("is a directory"...); None for a regular file."""
    for test, kind in _KINDS:
        if test(mode):
            return kind
    return None if stat.S_ISREG(mode) else "is not a regular file"


def same_file_as(status: os.stat_result, inputs: Iterable[str]) -> str | None:
    """The first input that is the file ``status`` describes (same device and inode, links followed)."""
    for path in inputs:
        try:
            other = os.stat(path)
        except OSError:  # a missing input is reported by the command that reads it
            continue
        if (other.st_dev, other.st_ino) == (status.st_dev, status.st_ino):
            return path
    return None


class AtomicOutput:
    """Bytes for one checked target, written whole on ``commit`` or not at all.

    ``inputs`` are checked again just before the rename: the target may have
    been replaced (by a device, a FIFO, a link to an input) since ``check_output``.
    """

    def __init__(self, target: OutputTarget, inputs: Iterable[str] = ()) -> None:
        self._target = target
        self._inputs = tuple(inputs)
        self._temp: Path | None = None
        self._file: IO[bytes]
        if target.path is None:
            self._file = tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY)  # noqa: SIM115 - closed by commit/discard
        else:
            self._file = self._temp_beside(target.path)
        self._done = False

    def _temp_beside(self, real: Path) -> IO[bytes]:
        handle, name = tempfile.mkstemp(prefix=f".{real.name}.", suffix=".tmp", dir=real.parent)
        self._temp = Path(name)
        os.fchmod(handle, _mode_for(real))
        return os.fdopen(handle, "wb")

    def __enter__(self) -> AtomicOutput:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        if not self._done:
            self.discard()

    def write(self, data: bytes) -> None:
        self._file.write(data)

    def commit(self) -> None:
        """Put the bytes in place: rename onto the real target, or copy to standard output."""
        if self._target.path is None:
            self._copy_to_stdout()
        else:
            self._rename_into_place(self._target.path)
        self._done = True

    def discard(self) -> None:
        """Drop the bytes: the temporary file is removed, the target and standard output stay untouched."""
        self._file.close()
        if self._temp is not None:
            with contextlib.suppress(FileNotFoundError):
                self._temp.unlink()
        self._done = True

    def _copy_to_stdout(self) -> None:
        self._file.seek(0)
        stdout = sys.stdout.buffer
        shutil.copyfileobj(self._file, stdout)
        stdout.flush()
        self._file.close()

    def _rename_into_place(self, real: Path) -> None:
        assert self._temp is not None
        self._file.flush()
        os.fsync(self._file.fileno())
        self._file.close()
        _refuse_unsafe_target(self._target.name, real, self._inputs)
        os.replace(self._temp, real)


def _mode_for(real: Path) -> int:
    """The permissions of the file being replaced, else those of an ordinary new file (not mkstemp's 0600)."""
    try:
        return stat.S_IMODE(os.stat(real).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


@contextlib.contextmanager
def sigterm_raises() -> Iterator[None]:
    """Turn SIGTERM into ``Terminated`` while the block runs, so that cleanup (``AtomicOutput``) happens.

    The previous handler is restored afterwards. Outside the main thread,
    where Python cannot install handlers, the block runs unchanged.
    """
    try:
        previous = signal.signal(signal.SIGTERM, _raise_terminated)
    except ValueError:
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated
