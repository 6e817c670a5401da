"""Read ``.json`` logs: one JSON object whose ``samples`` array holds every sample.

The log is read as strict JSON wherever it is: a repeated key at any depth
(a second top-level ``samples`` or ``eval``, a repeated key in a sample or the
header) or a value inside more than ``MAX_DEPTH`` arrays and objects makes it
unreadable, naming the JSON Pointer. Streamed, a number beyond a double is
refused by the parser (yajl) too. yajl misreads a surrogate escape that is not
half of a pair (``\ud800`` reads as ``?``), so the raw bytes are searched for
one before they are parsed (``_raw_text``), and bytes that are not UTF-8 inside
a string, which yajl hands to Python's strict decoder, are refused naming their
byte offset.

With ``ijson`` installed the file is streamed over its plain events
(``_strict_stream``), in one pass: ``samples`` yields the samples one at a time
and builds the header (every top-level value but ``samples`` and
``reductions``, which is only checked) from the values around them. A repeated
key or any other refusal after the last sample surfaces when the iteration
ends, so a caller trusts neither the samples nor the header before it has read
``samples`` to the end (``import_inspect_log`` maps them, then asks for the
header, then builds the Run). ``header`` called first walks the whole file
itself, checking the samples without building them. Memory stays at about one
sample. A refusal is located (its JSON Pointer) by another walk, made only then.

Without ``ijson`` the whole file is parsed at once with ``strict_json`` (memory
about four times the file size); prefer the ``.eval`` format for large logs then.
strict_json reads a number beyond a double as infinity: the importer refuses it
where it would be written (``importers.shared.value_checks``), as for ``.eval`` logs.
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
from evalscore.importers.inspect._raw_text import invalid_utf8_reason, mapped, surrogate_escape_problem
from evalscore.importers.inspect._strict_stream import (
    Event,
    Refused,
    StreamSyntaxError,
    array_starts,
    build_value,
    check_value,
    locate_refusal,
    top_level_members,
)
from evalscore.inputs import strict_json
from evalscore.inputs.syntax_error import DocumentSyntaxError

try:  # streaming is optional: see the module docstring
    import ijson  # type: ignore[import-untyped, unused-ignore]
except ImportError:  # pragma: no cover - exercised by forcing the fallback in the tests
    ijson = None

SAMPLES_KEY: Final = "samples"
STREAMED_KEYS: Final = frozenset({SAMPLES_KEY, "reductions"})
"""Top-level keys not kept in the header: the samples are streamed, reductions are not used."""
SAMPLE_DEPTH: Final = 2
"""A sample sits inside the log object and its ``samples`` array."""
_BUFFER: Final = 1 << 16
_NOT_UTF8_MESSAGE: Final = "invalid bytes in UTF8 string"
"""How yajl says a string holds bytes that are not UTF-8, without saying where."""


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
        self._header: dict[str, Any] | None = None
        self._escapes_checked = False
        try:
            self._raw: IO[bytes] = path.open("rb")
        except OSError as error:
            raise UnreadableLogError(self._source, f"cannot open: {error.strerror or error}") from error

    def header(self) -> dict[str, Any]:
        """The log without its samples; after ``samples`` was read to the end, known without another pass."""
        if not self._stream:
            return {key: value for key, value in self._load().items() if key not in STREAMED_KEYS}
        if self._header is None:
            for _ in self._walk(build_samples=False):
                pass
        assert self._header is not None
        return self._header

    def samples(self) -> Iterator[dict[str, Any]]:
        """Each sample, built one at a time; the log is unreadable if anything after the last one is."""
        if not self._stream:
            with self._named_refusals():
                yield from _objects(_sample_list(self._load().get(SAMPLES_KEY)), self._source)
            return
        yield from _objects(self._walk(build_samples=True), self._source)

    def _walk(self, *, build_samples: bool) -> Iterator[Any]:
        """One pass over the whole log: the samples yielded (or only checked), the header kept once it is all read."""
        header: dict[str, Any] = {}
        self._refuse_lone_surrogate_escapes()
        with self._named_refusals():
            for key, first, events in self._members():
                if key == SAMPLES_KEY:
                    for item in _sample_starts(events, first):
                        if build_samples:
                            yield build_value(events, item, SAMPLE_DEPTH)
                        else:
                            check_value(events, item, SAMPLE_DEPTH)
                elif key in STREAMED_KEYS:
                    check_value(events, first, 1)
                else:
                    header[key] = build_value(events, first, 1)
        self._header = header

    def close(self) -> None:
        self._raw.close()
        self._whole = None

    def _members(self) -> Iterator[tuple[str, Event, Iterator[Event]]]:
        """Each top-level key, the first event of its value and the events to read the value from."""
        self._raw.seek(0)
        events: Iterator[Event] = iter(ijson.basic_parse(self._raw, use_float=True, buf_size=_BUFFER))
        for key, first in top_level_members(events):
            yield key, first, events

    def _refuse_lone_surrogate_escapes(self) -> None:
        """Before yajl reads the log: a surrogate escape that is not half of a pair makes it unreadable."""
        if self._escapes_checked:
            return
        with mapped(self._raw) as data:
            problem = surrogate_escape_problem(data)
        if problem is not None:
            raise UnreadableLogError(self._source, problem)
        self._escapes_checked = True

    def _invalid_utf8(self) -> str:
        with mapped(self._raw) as data:
            return invalid_utf8_reason(data)

    @contextlib.contextmanager
    def _named_refusals(self) -> Iterator[None]:
        """What the strict reader or ijson refuses, as one line naming the log and, walking it again, where."""
        try:
            yield
        except Refused:
            raise UnreadableLogError(self._source, self._locate()) from None
        except StreamSyntaxError as error:
            raise UnreadableLogError(self._source, str(error)) from error
        except UnicodeDecodeError as error:  # raw bytes that are not UTF-8 inside a string, which yajl passes on
            raise UnreadableLogError(self._source, self._invalid_utf8()) from error
        except Exception as error:
            if ijson is None or not isinstance(error, ijson.JSONError):
                raise
            raise UnreadableLogError(self._source, self._json_error_reason(error)) from error

    def _json_error_reason(self, error: Exception) -> str:
        """ijson's message; for bytes that are not UTF-8, which it does not locate, where they are."""
        first = _first_line(error)
        return self._invalid_utf8() if _NOT_UTF8_MESSAGE in first else f"not valid JSON: {first}"

    def _locate(self) -> str:
        """Why and where the log was refused: a second walk that tracks every position."""
        try:
            for key, first, events in self._members():
                if key == SAMPLES_KEY:
                    for index, item in enumerate(_sample_starts(events, first)):
                        locate_refusal(events, item, (key, index))
                else:
                    locate_refusal(events, first, (key,))
        except StreamSyntaxError as error:
            return str(error)
        except UnicodeDecodeError:
            return self._invalid_utf8()
        except Exception as error:
            if not isinstance(error, ijson.JSONError):
                raise
            return self._json_error_reason(error)
        return "the log changed while it was read"

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
            self._whole = value
        return self._whole


def _sample_list(samples: object) -> list[Any]:
    """The ``samples`` value of a whole log: absent or null is none, anything but an array is refused."""
    if samples is None:
        return []
    if not isinstance(samples, list):
        raise StreamSyntaxError(f"/{SAMPLES_KEY} is not an array")
    return samples


def _sample_starts(events: Iterator[Event], first: Event) -> Iterator[Event]:
    """The first event of each sample; ``samples: null`` stands for none."""
    return iter(()) if first[0] == "null" else array_starts(events, first, (SAMPLES_KEY,))


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
