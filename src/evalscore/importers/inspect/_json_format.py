"""Read ``.json`` logs: one JSON object whose ``samples`` array holds every sample.

With ``ijson`` installed the file is streamed: one pass collects the header
(every top-level key but ``samples`` and ``reductions``), a second yields the
samples one at a time, so memory stays at about one sample. Without ``ijson``
the whole file is parsed at once with ``orjson`` (memory about four times the
file size); prefer the ``.eval`` format for large logs then.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, Final

import orjson

from evalscore.importers.inspect._errors import UnreadableLogError
from evalscore.importers.inspect._log_reader import LogFormat

try:  # streaming is optional: see the module docstring
    import ijson  # type: ignore[import-untyped, unused-ignore]
except ImportError:  # pragma: no cover - exercised by forcing the fallback in the tests
    ijson = None

STREAMED_KEYS: Final = frozenset({"samples", "reductions"})
"""Top-level keys not kept in the header: the samples are streamed, reductions are not used."""
HEADER_NEEDS: Final = frozenset({"version", "status", "eval", "plan", "stats"})
"""Once these are read, the header pass stops at ``samples`` instead of parsing past them."""


def streaming_available() -> bool:
    """True when ``ijson`` is installed and ``.json`` logs are streamed."""
    return ijson is not None


class JsonLogReader:
    """An open ``.json`` log."""

    log_format: LogFormat = "json"

    def __init__(self, path: Path, *, stream: bool | None = None) -> None:
        self._source = str(path)
        self._path = path
        self._stream = streaming_available() if stream is None else stream
        self._whole: dict[str, Any] | None = None
        try:
            self._raw: IO[bytes] = path.open("rb")
        except OSError as error:
            raise UnreadableLogError(self._source, f"cannot open: {error.strerror or error}") from error

    def header(self) -> dict[str, Any]:
        if not self._stream:
            return {key: value for key, value in self._load().items() if key not in STREAMED_KEYS}
        self._raw.seek(0)
        try:
            return _streamed_header(self._raw)
        except ijson.JSONError as error:
            raise UnreadableLogError(self._source, f"not valid JSON: {error}") from error

    def samples(self) -> Iterator[dict[str, Any]]:
        if not self._stream:
            yield from _objects(self._load().get("samples") or [], self._source)
            return
        self._raw.seek(0)
        try:
            yield from _objects(ijson.items(self._raw, "samples.item", use_float=True), self._source)
        except ijson.JSONError as error:
            raise UnreadableLogError(self._source, f"not valid JSON inside samples: {error}") from error

    def close(self) -> None:
        self._raw.close()
        self._whole = None

    def _load(self) -> dict[str, Any]:
        if self._whole is None:
            self._raw.seek(0)
            try:
                value = orjson.loads(self._raw.read())
            except orjson.JSONDecodeError as error:
                raise UnreadableLogError(self._source, f"not valid JSON: {error}") from error
            if not isinstance(value, dict):
                raise UnreadableLogError(self._source, f"expected a JSON object, found {type(value).__name__}")
            self._whole = value
        return self._whole


def _objects(items: Any, source: str) -> Iterator[dict[str, Any]]:
    for item in items:
        if not isinstance(item, dict):
            raise UnreadableLogError(source, f"a sample is a {type(item).__name__}, not a JSON object")
        yield item


def _streamed_header(raw: IO[bytes]) -> dict[str, Any]:
    """Build every top-level value except the streamed ones, without building those."""
    header: dict[str, Any] = {}
    events = ijson.parse(raw, use_float=True)
    _, event, _ = next(events)
    if event != "start_map":
        raise ijson.JSONError("expected a JSON object at the top level")
    key: str | None = None
    builder: Any = None
    for prefix, event, value in events:
        if builder is not None:
            builder.event(event, value)
            if prefix == key and event in ("end_map", "end_array"):
                header[prefix] = builder.value
                builder = None
        elif prefix == "" and event == "map_key":
            key = value
            if key == "samples" and header.keys() >= HEADER_NEEDS:
                break  # Inspect writes samples after the header: do not parse them twice
        elif prefix == "" and event == "end_map":
            break
        elif key is not None and prefix == key and key not in STREAMED_KEYS:
            if event in ("start_map", "start_array"):
                builder = ijson.ObjectBuilder()
                builder.event(event, value)
            else:
                header[prefix] = value
    return header
