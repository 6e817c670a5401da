"""Read ``.json`` logs: one JSON object whose ``samples`` array holds every sample.

The log is read as strict JSON wherever it is: a repeated key at any depth
(a second top-level ``samples`` or ``eval``, a repeated key in a sample or the
header), a value inside more than ``MAX_DEPTH`` arrays and objects, or a number
that is not finite makes it unreadable, naming the JSON Pointer.

With ``ijson`` installed the file is streamed over its plain events
(``_strict_stream``). ``header`` walks the whole file: it builds every
top-level value but ``samples`` and ``reductions`` and checks, without
building them, those two (so a repeated key after ``samples`` is caught before
any sample is mapped). ``samples`` walks it again and yields the samples one at
a time, checking everything again (the file may have changed in between).
Memory stays at about one sample. Without ``ijson`` the whole file is parsed at
once with ``strict_json`` (memory about four times the file size); prefer the
``.eval`` format for large logs then.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import IO, Any, Final

from evalscore.importers.inspect._errors import UnreadableLogError
from evalscore.importers.inspect._eval_format import syntax_reason
from evalscore.importers.inspect._log_reader import LogFormat
from evalscore.importers.inspect._strict_stream import (
    Event,
    StreamSyntaxError,
    array_items,
    build,
    top_level_members,
)
from evalscore.importers.inspect._value_checks import first_non_finite, may_hold_non_finite
from evalscore.inputs import strict_json
from evalscore.inputs.syntax_error import DocumentSyntaxError

try:  # streaming is optional: see the module docstring
    import ijson  # type: ignore[import-untyped, unused-ignore]
except ImportError:  # pragma: no cover - exercised by forcing the fallback in the tests
    ijson = None

SAMPLES_KEY: Final = "samples"
STREAMED_KEYS: Final = frozenset({SAMPLES_KEY, "reductions"})
"""Top-level keys not kept in the header: the samples are streamed, reductions are not used."""
_BUFFER: Final = 1 << 16


def streaming_available() -> bool:
    """True when ``ijson`` is installed and ``.json`` logs are streamed."""
    return ijson is not None


class JsonLogReader:
    """An open ``.json`` log."""

    log_format: LogFormat = "json"
    superseded_members: Mapping[str, int] = MappingProxyType({})
    """A JSON log has no members."""

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
        header: dict[str, Any] = {}
        with self._named_errors():
            for key, first, events in self._members():
                if key == SAMPLES_KEY:
                    _check_samples(events, first)
                elif key in STREAMED_KEYS:
                    build(events, first, (key,), keep=False)
                else:
                    header[key] = build(events, first, (key,))
        return header

    def samples(self) -> Iterator[dict[str, Any]]:
        with self._named_errors():
            if not self._stream:
                yield from _objects(_sample_list(self._load().get(SAMPLES_KEY)), self._source)
                return
            for key, first, events in self._members():
                if key == SAMPLES_KEY and first[0] != "null":
                    yield from _objects(array_items(events, first, (key,)), self._source)
                else:
                    build(events, first, (key,), keep=False)

    def close(self) -> None:
        self._raw.close()
        self._whole = None

    def _members(self) -> Iterator[tuple[str, Event, Iterator[Event]]]:
        """Each top-level key, the first event of its value and the events to read the value from."""
        self._raw.seek(0)
        events: Iterator[Event] = iter(ijson.basic_parse(self._raw, use_float=True, buf_size=_BUFFER))
        for key, first in top_level_members(events):
            yield key, first, events

    @contextlib.contextmanager
    def _named_errors(self) -> Iterator[None]:
        """What the strict reader or ijson refuses, as one line naming the log."""
        try:
            yield
        except StreamSyntaxError as error:
            raise UnreadableLogError(self._source, str(error)) from error
        except Exception as error:
            if ijson is None or not isinstance(error, ijson.JSONError):
                raise
            raise UnreadableLogError(self._source, f"not valid JSON: {_first_line(error)}") from error

    def _load(self) -> dict[str, Any]:
        if self._whole is None:
            self._raw.seek(0)
            data = self._raw.read()
            try:
                value = strict_json.loads(data)
            except DocumentSyntaxError as error:
                raise UnreadableLogError(self._source, syntax_reason(error)) from error
            if not isinstance(value, dict):
                raise UnreadableLogError(self._source, f"expected a JSON object, found {type(value).__name__}")
            pointer = first_non_finite(value) if may_hold_non_finite(data) else None
            if pointer is not None:
                raise UnreadableLogError(self._source, f"the number at {pointer} is beyond the range of a double")
            self._whole = value
        return self._whole


def _sample_list(samples: object) -> list[Any]:
    """The ``samples`` value of a whole log: absent or null is none, anything but an array is refused."""
    if samples is None:
        return []
    if not isinstance(samples, list):
        raise StreamSyntaxError(f"/{SAMPLES_KEY} is not an array")
    return samples


def _check_samples(events: Iterator[Event], first: Event) -> None:
    """Check every sample without building it (null stands for no samples)."""
    if first[0] != "null":
        for _ in array_items(events, first, (SAMPLES_KEY,), keep=False):
            pass


def _objects(items: Iterator[Any] | list[Any], source: str) -> Iterator[dict[str, Any]]:
    for item in items:
        if not isinstance(item, dict):
            raise UnreadableLogError(source, f"a sample is a {type(item).__name__}, not a JSON object")
        yield item


def _first_line(error: Exception) -> str:
    """ijson's message without the excerpt of the log it quotes on the following lines (raw bytes of the log)."""
    message = error.args[0] if error.args else ""
    text = message.decode("utf-8", "replace") if isinstance(message, bytes) else str(message)
    lines = text.strip().splitlines()
    return lines[0] if lines else type(error).__name__
