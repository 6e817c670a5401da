"""Open an Inspect log in whichever format it is, told by its first bytes rather than its name."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from evalscore.importers.inspect._errors import UnreadableLogError
from evalscore.importers.inspect._eval_format import EvalLogReader
from evalscore.importers.inspect._json_format import JsonLogReader
from evalscore.importers.inspect._log_reader import InspectLogReader
from evalscore.inputs.documents import DEFAULT_MAX_DOCUMENT_BYTES

ZIP_MAGIC: Final = (b"PK\x03\x04", b"PK\x05\x06")


def open_inspect_log(path: Path, max_member_bytes: int = DEFAULT_MAX_DOCUMENT_BYTES) -> InspectLogReader:
    """The log's reader; a ``.eval`` member of more than ``max_member_bytes`` uncompressed is refused."""
    try:
        with path.open("rb") as probe:
            start = probe.read(4)
    except IsADirectoryError as error:
        raise UnreadableLogError(str(path), "is a directory, not a log file") from error
    except OSError as error:
        raise UnreadableLogError(str(path), f"cannot open: {error.strerror or error}") from error
    if not start:
        raise UnreadableLogError(str(path), "the file is empty")
    if start in ZIP_MAGIC:
        return EvalLogReader(path, max_member_bytes)
    if start.lstrip()[:1] in (b"{", b"") or start.startswith(b"\xef\xbb\xbf"):
        return JsonLogReader(path)
    raise UnreadableLogError(str(path), "neither a .eval (zip) nor a .json Inspect log")
