"""Read ``.eval`` logs: a zip with ``header.json`` and one ``samples/*.json`` member per sample.

Members are usually zstd-compressed; see ``_zip_members``. A log still being
written (or abandoned) has no ``header.json`` yet: its ``_journal/start.json``
carries the eval spec and plan, without results or stats.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, Final

import orjson

from evalscore.importers.inspect._errors import UnreadableLogError
from evalscore.importers.inspect._log_reader import LogFormat
from evalscore.importers.inspect._zip_members import MemberError, latest_members, read_member

HEADER_MEMBER: Final = "header.json"
START_MEMBER: Final = "_journal/start.json"
SAMPLES_PREFIX: Final = "samples/"


class EvalLogReader:
    """An open ``.eval`` log."""

    log_format: LogFormat = "eval"

    def __init__(self, path: Path) -> None:
        self._source = str(path)
        try:
            self._raw: IO[bytes] = path.open("rb")
        except OSError as error:
            raise UnreadableLogError(self._source, f"cannot open: {error.strerror or error}") from error
        try:
            self._archive = zipfile.ZipFile(self._raw)
            self._members = latest_members(self._archive)
        except (zipfile.BadZipFile, OSError, ValueError) as error:
            self._raw.close()
            raise UnreadableLogError(self._source, f"not a readable .eval (zip) log: {error}") from error

    def header(self) -> dict[str, Any]:
        for name in (HEADER_MEMBER, START_MEMBER):
            if name in self._members:
                return self._object(name)
        raise UnreadableLogError(self._source, f"the archive has neither {HEADER_MEMBER} nor {START_MEMBER}")

    def samples(self) -> Iterator[dict[str, Any]]:
        for name in list(self._members):
            if name.startswith(SAMPLES_PREFIX) and name.endswith(".json"):
                yield self._object(name)

    def close(self) -> None:
        self._archive.close()
        self._raw.close()

    def _object(self, name: str) -> dict[str, Any]:
        try:
            data = read_member(self._archive, self._raw, self._members[name])
        except (MemberError, zipfile.BadZipFile, OSError, EOFError) as error:
            raise UnreadableLogError(self._source, f"{name}: {error}") from error
        try:
            value = orjson.loads(data)
        except orjson.JSONDecodeError as error:
            raise UnreadableLogError(self._source, f"{name}: not valid JSON: {error}") from error
        if not isinstance(value, dict):
            raise UnreadableLogError(self._source, f"{name}: expected a JSON object, found {type(value).__name__}")
        return value
