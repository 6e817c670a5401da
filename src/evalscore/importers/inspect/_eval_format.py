"""Read ``.eval`` logs: a zip with ``header.json`` and one ``samples/*.json`` member per sample.

Members are usually zstd-compressed; see ``_zip_members``. A log still being
written (or abandoned) has no ``header.json`` yet: its ``_journal/start.json``
carries the eval spec and plan, without results or stats.

The archive is read as Inspect reads it, and nothing Inspect would not write is
taken on trust. Inspect repeats a sample member's name on purpose (a re-run
supersedes the earlier record) and reads the last entry: so does this reader,
and ``superseded_members`` says which names were superseded, how many times.
Inspect never leaves two ``header.json`` (or ``_journal/start.json``) entries,
so two make the log unreadable: which header is the log's would be a guess.
A member under ``samples/`` whose name climbs out of it or names no ``.json``
file (a path segment that is empty, ``.`` or ``..``; a backslash; a NUL) makes
it unreadable too (a nested name is fine: Inspect names members after ids). Every
member is read as strict JSON (``evalscore.inputs.strict_json``): a repeated
key or nesting deeper than ``MAX_DEPTH`` is refused. (strict_json reads a number
beyond a double as infinity; the importer refuses one where it would be written,
see ``importers.shared.value_checks``.)
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any, Final

from evalscore.finding_codes import NOT_JSON, NOT_UTF8
from evalscore.importers.inspect._errors import UnreadableLogError
from evalscore.importers.inspect._log_reader import LogFormat
from evalscore.importers.inspect._zip_members import MemberError, latest_members, read_member, superseded_entries
from evalscore.inputs import strict_json
from evalscore.inputs.documents import DEFAULT_MAX_DOCUMENT_BYTES
from evalscore.inputs.syntax_error import DocumentSyntaxError

HEADER_MEMBER: Final = "header.json"
START_MEMBER: Final = "_journal/start.json"
SAMPLES_PREFIX: Final = "samples/"
HEADER_MEMBERS: Final = (HEADER_MEMBER, START_MEMBER)
_SAMPLE_NAME: Final = re.compile(r"samples/(?:[^/\\\x00]+/)*[^/\\\x00]*[^/\\\x00.][^/\\\x00]*\.json")
"""``samples/`` then path segments, the last naming a ``.json`` file. Inspect names a sample's member
after its id (``samples/{id}_epoch_{n}.json``), so an id holding ``/`` or ``..`` gives nested names."""
_NOT_A_SEGMENT: Final = frozenset({"", ".", ".."})
_NOT_JSON_CODES: Final = frozenset({NOT_JSON, NOT_UTF8})


class EvalLogReader:
    """An open ``.eval`` log."""

    log_format: LogFormat = "eval"
    superseded_members: Mapping[str, int]

    def __init__(self, path: Path, max_member_bytes: int = DEFAULT_MAX_DOCUMENT_BYTES) -> None:
        self._source = str(path)
        self._max_member_bytes = max_member_bytes
        try:
            self._raw: IO[bytes] = path.open("rb")
        except OSError as error:
            raise UnreadableLogError(self._source, f"cannot open: {error.strerror or error}") from error
        try:
            self._archive = zipfile.ZipFile(self._raw)
            self._members = latest_members(self._archive)
            self.superseded_members = sample_superseded_entries(self._archive, self._source)
        except (zipfile.BadZipFile, OSError, ValueError) as error:
            self._raw.close()
            raise UnreadableLogError(self._source, f"not a readable .eval (zip) log: {error}") from error
        except UnreadableLogError:
            self._raw.close()
            raise

    def header(self) -> dict[str, Any]:
        for name in HEADER_MEMBERS:
            if name in self._members:
                return self._object(name)
        raise UnreadableLogError(self._source, f"the archive has neither {HEADER_MEMBER} nor {START_MEMBER}")

    def samples(self) -> Iterator[dict[str, Any]]:
        for name in list(self._members):
            if name.startswith(SAMPLES_PREFIX):
                yield self._object(name)

    def close(self) -> None:
        self._archive.close()
        self._raw.close()

    def _object(self, name: str) -> dict[str, Any]:
        try:
            data = read_member(self._archive, self._raw, self._members[name], self._max_member_bytes)
        except (MemberError, zipfile.BadZipFile, OSError, EOFError) as error:
            raise UnreadableLogError(self._source, f"{name}: {error}") from error
        try:
            value = strict_json.loads(data)
        except DocumentSyntaxError as error:
            raise UnreadableLogError(self._source, f"{name}: {syntax_reason(error)}") from error
        if not isinstance(value, dict):
            raise UnreadableLogError(self._source, f"{name}: expected a JSON object, found {type(value).__name__}")
        return value


def syntax_reason(error: DocumentSyntaxError) -> str:
    """The reason strict JSON refused a document: a repeated key or too deep says so itself, the rest is not JSON."""
    return f"not valid JSON: {error}" if error.code in _NOT_JSON_CODES else str(error)


def sample_superseded_entries(archive: zipfile.ZipFile, source: str) -> Mapping[str, int]:
    """The sample members whose name a later entry supersedes; refuses names and repeats Inspect never writes."""
    for info in archive.infolist():
        refuse_unsafe_member_name(info, source)
    repeated = superseded_entries(archive)
    for name in HEADER_MEMBERS:
        if name in repeated:
            raise UnreadableLogError(
                source,
                f"{name}: the archive holds {repeated[name] + 1} entries of that name; "
                "which one is the log's header is ambiguous",
            )
    return {name: count for name, count in repeated.items() if name.startswith(SAMPLES_PREFIX)}


def refuse_unsafe_member_name(info: zipfile.ZipInfo, source: str) -> None:
    """A NUL anywhere (``zipfile`` cuts the name there), or a ``samples/`` member whose name climbs out of it."""
    name = info.orig_filename
    if "\x00" in name:
        raise UnreadableLogError(source, f"member {name!r}: its name holds a NUL byte")
    if name.startswith(SAMPLES_PREFIX) and (
        not _SAMPLE_NAME.fullmatch(name) or _NOT_A_SEGMENT & set(name[len(SAMPLES_PREFIX) :].split("/"))
    ):
        raise UnreadableLogError(
            source,
            f"member {name!r}: not a sample member name (samples/<name>.json, where no path segment "
            "is empty, . or .., and no backslash or NUL)",
        )
