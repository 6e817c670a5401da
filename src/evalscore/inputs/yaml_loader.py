"""YAML suites read as JSON data: the YAML 1.2 core schema, and nothing two readers could read apart.

PyYAML implements YAML 1.1, where ``yes`` is true, ``017`` is octal and
``2024-01-01`` is a date. Suites are authored for a JSON data model (the anchor
reads them as YAML 1.2), so only PyYAML's reader, scanner and parser are used:
the values are built here from its events, by the YAML 1.2 core schema
(``true``/``false``, ``null``/``~``/empty, decimal, ``0o`` and ``0x`` integers,
floats), and everything else is a string.

A suite comes from a party who may gain from a better score, so the reader
refuses, with a located ``DocumentSyntaxError``, what readers disagree on or
what would cost without bound:

- a mapping that repeats a key (``ES011``): readers keep the first value, the
  last, or refuse;
- a value inside more than ``MAX_DEPTH`` sequences and mappings (``ES012``),
  through aliases too, counted while the events arrive, so nothing recurses;
- more than ``MAX_EXPANDED_NODES`` nodes once aliases are expanded (``ES006``,
  the alias bomb);
- any tag outside JSON's data model (``!!binary``, ``!!set``, ``!!timestamp``,
  ``!!merge``, ``!custom``, ``!!python/...``), a value that does not fit its
  tag, ``.inf``/``.nan`` and floats beyond a double, an integer longer than the
  JSON reader takes, and a ``\\ud800`` escape (``ES003``): none has a JSON value;
- a ``%YAML`` directive other than 1.2, a second document, a second byte order
  mark (``ES003``): each asks for another reading;
- bytes that are not UTF-8 (``ES004``) and characters YAML forbids (``ES003``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

import yaml
from yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    DocumentStartEvent,
    Event,
    MappingStartEvent,
    NodeEvent,
    ScalarEvent,
    SequenceStartEvent,
    StreamEndEvent,
)

from evalscore.finding_codes import NOT_YAML, REPEATED_KEY, TOO_DEEP, TOO_LARGE
from evalscore.findings import pointer_of
from evalscore.inputs.strict_json import MAX_DEPTH, located_utf8_error
from evalscore.inputs.syntax_error import DocumentSyntaxError

MAX_EXPANDED_NODES: Final = 1_000_000
"""The most nodes a suite may have once every alias is replaced by what it names (keys count)."""

MAX_INT_DIGITS: Final = 4300
"""The longest integer the JSON reader (jiter) and Python's ``str()`` take, in decimal digits."""


_CORE: Final = "tag:yaml.org,2002:"
STR: Final = _CORE + "str"
INT: Final = _CORE + "int"
FLOAT: Final = _CORE + "float"
BOOL: Final = _CORE + "bool"
NULL: Final = _CORE + "null"
SEQ: Final = _CORE + "seq"
MAP: Final = _CORE + "map"
_NON_SPECIFIC: Final = "!"
"""The tag ``!``: by YAML 1.2, a string, sequence or mapping by the node's kind (PyYAML resolves it as plain)."""
_SCALAR_TAGS: Final = frozenset({STR, INT, FLOAT, BOOL, NULL})
_JSON_TAGS: Final = _SCALAR_TAGS | {SEQ, MAP}

_NULLS: Final = frozenset({"null", "Null", "NULL", "~", ""})
_BOOLS: Final = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_DECIMAL: Final = re.compile(r"[-+]?[0-9]+")
_OCTAL: Final = re.compile(r"0o[0-7]+")
_HEX: Final = re.compile(r"0x[0-9a-fA-F]+")
_FLOAT: Final = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")
_NOT_FINITE: Final = re.compile(r"[-+]?(?:\.inf|\.Inf|\.INF)|\.nan|\.NaN|\.NAN")
_INT_BOUND: Final = 10**MAX_INT_DIGITS

_BOM: Final = b"\xef\xbb\xbf"
_BREAK: Final = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
"""What PyYAML counts as a line break in its marks."""
_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_ESCAPE: Final = re.compile(r"\\(?:u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|.)", re.DOTALL)
"""An escape in a double-quoted scalar, with the digits of a ``\\u`` or ``\\U`` one."""
_YAML_1_1_BREAK: Final = re.compile("[\x85\u2028\u2029]")
"""Characters a YAML 1.1 reader (PyYAML, libyaml) takes for line breaks and YAML 1.2 does not."""
_TOO_DEEP_REASON: Final = f"nested deeper than {MAX_DEPTH} sequences and mappings, evalscore's limit"


class _Mark(Protocol):
    """Where PyYAML is: 0-based line and column (in characters)."""

    line: int
    column: int


class YamlTooLargeError(DocumentSyntaxError):
    """``ES006``: the YAML expands (through aliases) to more than ``MAX_EXPANDED_NODES`` nodes."""


class _RefusedError(Exception):
    """A node that has no JSON value; the builder adds where it is (``index``: a character of it, else its start)."""

    def __init__(self, reason: str, code: str = NOT_YAML, index: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code
        self.index = index


class _FlowTooDeepError(Exception):
    """The scanner met a flow collection inside more than ``MAX_DEPTH`` others, at ``index``."""

    def __init__(self, index: int) -> None:
        super().__init__(index)
        self.index = index


class _NoCharacterError(Exception):
    """The scanner met a ``\\U`` escape beyond U+10FFFF, whose backslash is at ``index``."""

    def __init__(self, index: int) -> None:
        super().__init__(index)
        self.index = index


def load_yaml(data: bytes) -> Any:
    """One YAML document as JSON-like data; raises only ``DocumentSyntaxError``.

    Codes: ``ES003`` not YAML or not JSON data, ``ES004`` not UTF-8, ``ES006``
    larger than ``MAX_EXPANDED_NODES`` through aliases (``YamlTooLargeError``),
    ``ES011`` a mapping repeats a key, ``ES012`` nested deeper than ``MAX_DEPTH``.
    ``line`` and ``column`` are 1-based, count characters after the byte order
    mark (bytes for ``ES004``) and are always given. ``pointer`` is
    the JSON Pointer of the value concerned: the mapping for ``ES011`` and any
    problem with a key, the value itself otherwise; for what PyYAML's scanner
    and parser refuse (bad syntax, ``\\U`` escapes past U+10FFFF) it is the
    innermost collection read so far, which contains the place or precedes it
    ("" at the top, and for ``ES004`` and forbidden characters).
    """
    text = _text_of(data)
    try:
        events = _Events(text)
    except yaml.YAMLError as error:  # the reader checks every character first
        raise _yaml_error(error, text, "") from None
    builder = _Builder(events)
    try:
        return _single_document(events, builder)
    except yaml.YAMLError as error:
        raise _yaml_error(error, text, builder.open_pointer()) from None
    except _FlowTooDeepError as deep:
        raise _too_deep_in_flow(text, deep.index) from None
    except _NoCharacterError as escape:
        raise _no_character(text, escape.index, builder.open_pointer()) from None
    finally:
        events.dispose()


def _text_of(data: bytes) -> str:
    """The bytes as text, after one byte order mark; ``ES004`` at the first byte that is not UTF-8."""
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    try:
        text = data.decode()
    except UnicodeDecodeError as error:
        raise located_utf8_error(data, error) from None
    if text.startswith("\ufeff"):
        raise DocumentSyntaxError(NOT_YAML, "a second byte order mark starts the text", 1, 1)
    raw_break = _YAML_1_1_BREAK.search(text)
    if raw_break is not None:
        line, column = _place(text, raw_break.start())
        raise DocumentSyntaxError(
            NOT_YAML,
            f"a raw U+{ord(raw_break.group()):04X} is a line break to a YAML 1.1 reader and a plain character to "
            "YAML 1.2, readers disagree; write it as an escape (\\N, \\L, \\P) in a double-quoted string",
            line,
            column,
        )
    return text


def _too_deep_in_flow(text: str, index: int) -> DocumentSyntaxError:
    """``ES012`` at the flow collection that starts at ``index``, with its pointer.

    The scanner finds it before the events of what precedes it have been built (it looks ahead up to
    1024 characters on a line), so the text before it is built again: that costs what the valid prefix
    costs, and an earlier problem found there is the one to report.
    """
    events = _Events(text[:index])
    builder = _Builder(events)
    try:
        _single_document(events, builder)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark
        if mark is None or mark.index < index:
            return _yaml_error(error, text, builder.open_pointer())
    finally:
        events.dispose()
    line, column = _place(text, index)
    return DocumentSyntaxError(TOO_DEEP, _TOO_DEEP_REASON, line, column, builder.next_pointer())


def _single_document(events: _Events, builder: _Builder) -> Any:
    events.next_event()  # the stream starts
    if events.check_event(StreamEndEvent):
        return None
    _check_version(events.next_event())
    value = builder.document()
    events.next_event()  # the document ends
    if not events.check_event(StreamEndEvent):
        mark = events.next_event().start_mark
        raise DocumentSyntaxError(
            NOT_YAML, "a second document starts here (a suite is one YAML document)", *_line_column(mark)
        )
    return value


def _check_version(start: Event) -> None:
    """Only YAML 1.2 (or no ``%YAML`` directive): a reader that honours ``%YAML 1.1`` reads ``yes`` as true."""
    version = start.version if isinstance(start, DocumentStartEvent) else None
    if version is not None and version != (1, 2):
        raise DocumentSyntaxError(
            NOT_YAML,
            f"the directive %YAML {version[0]}.{version[1]} asks for other rules than YAML 1.2 (suites are YAML 1.2)",
            *_line_column(start.start_mark),
        )


class _Events(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser):
    """PyYAML's reader, scanner and parser (which keep their own stacks, no recursion): events, not values."""

    def __init__(self, text: str) -> None:
        yaml.reader.Reader.__init__(self, text)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        self.text = text
        self.surrogate_escapes: dict[int, int] = {}
        """Where a double-quoted scalar that ends at a key's index has its first surrogate escape."""

    def next_event(self) -> Event:
        event: Event = self.get_event()  # type: ignore[no-untyped-call]  # the stub leaves it untyped
        return event

    def fetch_flow_collection_start(self, TokenClass: type[yaml.tokens.Token]) -> None:  # noqa: N803 (PyYAML's name)
        """``[`` or ``{``: refused at once inside more than ``MAX_DEPTH`` flow collections.

        The builder refuses any value deeper than that too, but only once it has the events, and the
        scanner looks ahead up to 1024 characters on a line with a cost that grows with the flow depth.
        """
        if self.flow_level > MAX_DEPTH:
            raise _FlowTooDeepError(self.index)
        super().fetch_flow_collection_start(TokenClass)

    def scan_flow_scalar(self, style: str) -> yaml.tokens.ScalarToken:
        """A quoted scalar; where a surrogate escape is noted for the builder, which refuses it."""
        try:
            token = super().scan_flow_scalar(style)
        except ValueError:  # chr() of the \U escape the scanner has just read (two characters back)
            raise _NoCharacterError(self.index - 2) from None
        if _SURROGATE.search(token.value):
            escape = _surrogate_escape(self.text, token.start_mark.index, token.end_mark.index)
            self.surrogate_escapes[token.end_mark.index] = token.start_mark.index if escape is None else escape
        return token


def _no_character(text: str, index: int, pointer: str) -> DocumentSyntaxError:
    """``ES003`` at the ``\\U`` escape at ``index`` that names no character, in the collection at ``pointer``."""
    line, column = _place(text, index)
    escape = text[index : index + 10]
    return DocumentSyntaxError(
        NOT_YAML, f"the escape {escape} names no character (beyond U+10FFFF)", line, column, pointer
    )


def _surrogate_escape(text: str, start: int, end: int) -> int | None:
    """Where, in the double-quoted scalar ``text[start:end]``, the first escape of a surrogate starts."""
    for escape in _ESCAPE.finditer(text, start, end):
        digits = escape.group(1) or escape.group(2)
        if digits is not None and 0xD800 <= int(digits, 16) <= 0xDFFF:
            return escape.start()
    return None


@dataclass(slots=True)
class _Frame:
    """A sequence or mapping whose events are still arriving."""

    container: list[Any] | dict[str, Any]
    anchor: str | None
    expects_key: bool
    key: str = ""
    size: int = 1
    height: int = 0


@dataclass(frozen=True, slots=True)
class _Built:
    """A finished value, with its node count and its depth (both with aliases expanded)."""

    value: Any
    size: int
    height: int


class _Builder:
    """Events to values with an explicit stack (one frame per open collection), checking as they arrive."""

    def __init__(self, events: _Events) -> None:
        self.events = events
        self.stack: list[_Frame] = []
        self.anchors: dict[str, _Built | None] = {}
        """What each anchor names; None while its collection is still open (an alias there is a cycle)."""
        self.expanded = 0

    def open_pointer(self) -> str:
        """The pointer of the innermost open collection ("" at the top)."""
        return _pointer(self.stack[:-1])

    def next_pointer(self) -> str:
        """The pointer of the value the events that follow would build ("" at the top)."""
        if self.stack and self.stack[-1].expects_key:
            return self.open_pointer()
        return _pointer(self.stack)

    def document(self) -> Any:
        while True:
            event = self.events.next_event()
            if isinstance(event, CollectionEndEvent):
                built: _Built | None = self._close(self.stack.pop())
            elif self.stack and self.stack[-1].expects_key:
                self._key(event)
                continue
            else:
                built = self._node(event)
            if built is None:
                continue
            if not self.stack:
                return built.value
            _put(self.stack[-1], built)

    def _node(self, event: Event) -> _Built | None:
        """A value (None when it opens a collection)."""
        try:
            if isinstance(event, AliasEvent):
                target = self._target(event)
                self._check_depth(len(self.stack) + target.height)
                self._count(target.size)
                return target
            self._check_depth(len(self.stack))
            if isinstance(event, ScalarEvent):
                built = _Built(self._scalar(event), 1, 0)
                self._define(event, built)
                self._count(1)
                return built
            if isinstance(event, SequenceStartEvent | MappingStartEvent):
                _check_collection_tag(event)
                self._define(event, None)
                self._count(1)
                is_sequence = isinstance(event, SequenceStartEvent)
                self.stack.append(_Frame([] if is_sequence else {}, event.anchor, expects_key=not is_sequence))
                return None
            raise _RefusedError(f"unexpected {type(event).__name__} where a value belongs")
        except _RefusedError as refusal:
            raise self._error(refusal, event, _pointer(self.stack)) from None

    def _key(self, event: Event) -> None:
        """The next key of the innermost mapping: a string it has not had yet."""
        frame = self.stack[-1]
        mapping = frame.container
        try:
            key = self._key_of(event)
            if key in mapping:
                where = f"the mapping at {_pointer(self.stack[:-1])}" if len(self.stack) > 1 else "the top mapping"
                raise _RefusedError(
                    f"{where} repeats the key {key!r} (readers disagree on which of its values counts)", REPEATED_KEY
                )
            self._count(1)
        except _RefusedError as refusal:
            raise self._error(refusal, event, _pointer(self.stack[:-1])) from None
        frame.key = key
        frame.expects_key = False
        frame.size += 1

    def _key_of(self, event: Event) -> str:
        if isinstance(event, AliasEvent):
            value = self._target(event).value
            if not isinstance(value, str):
                raise _RefusedError(f"mapping key *{event.anchor} is not a string (it names a {_kind(value)})")
            return value
        if isinstance(event, ScalarEvent):
            value = self._scalar(event)
            self._define(event, _Built(value, 1, 0))
            if not isinstance(value, str):
                raise _RefusedError(f"mapping key {event.value!r} is not a string (quote it)")
            return value
        kind = "sequence" if isinstance(event, SequenceStartEvent) else "mapping"
        raise _RefusedError(f"a mapping key is a {kind}, not a string (JSON keys are strings)")

    def _scalar(self, event: ScalarEvent) -> Any:
        """The scalar's value; a double-quoted one may not hold a surrogate (``"\\ud800"``)."""
        escape = self.events.surrogate_escapes.get(event.end_mark.index) if event.end_mark else None
        if escape is not None:
            text = self.events.text
            shown = text[escape : escape + (10 if text[escape + 1] == "U" else 6)]  # \uXXXX or \UXXXXXXXX
            raise _RefusedError(
                f"the escape {shown} is a surrogate, not a character: no JSON text can hold it"
                " (write a character beyond U+FFFF as one \\U escape of 8 digits)",
                index=escape,
            )
        return _scalar_value(event)

    def _close(self, frame: _Frame) -> _Built:
        built = _Built(frame.container, frame.size, frame.height)
        if frame.anchor is not None:
            self.anchors[frame.anchor] = built
        return built

    def _define(self, event: NodeEvent, built: _Built | None) -> None:
        """Record the node's anchor (None: a collection just opened)."""
        name = event.anchor
        if name is None:
            return
        if name in self.anchors:
            raise _RefusedError(f"the anchor &{name} is defined twice (readers disagree on which one an alias names)")
        self.anchors[name] = built

    def _target(self, event: AliasEvent) -> _Built:
        name = event.anchor or ""
        if name not in self.anchors:
            raise _RefusedError(f"the alias *{name} names no anchor defined before it")
        target = self.anchors[name]
        if target is None:
            raise _RefusedError(
                f"the alias *{name} is inside the node it names: the value would nest without end", TOO_DEEP
            )
        return target

    def _check_depth(self, depth: int) -> None:
        """A value may sit inside at most ``MAX_DEPTH`` sequences and mappings (as in JSON)."""
        if depth > MAX_DEPTH:
            raise _RefusedError(_TOO_DEEP_REASON, TOO_DEEP)

    def _count(self, nodes: int) -> None:
        self.expanded += nodes
        if self.expanded > MAX_EXPANDED_NODES:
            raise _RefusedError(
                f"the YAML expands to more than {MAX_EXPANDED_NODES:,} nodes (an alias counts every node it repeats)",
                TOO_LARGE,
            )

    def _error(self, refusal: _RefusedError, event: Event, pointer: str) -> DocumentSyntaxError:
        if refusal.index is None:
            line, column = _line_column(event.start_mark)
        else:
            line, column = _place(self.events.text, refusal.index)
        kind = YamlTooLargeError if refusal.code == TOO_LARGE else DocumentSyntaxError
        return kind(refusal.code, refusal.reason, line, column, pointer)


def _put(parent: _Frame, built: _Built) -> None:
    """Put a finished value in the collection that holds it."""
    if isinstance(parent.container, list):
        parent.container.append(built.value)
    else:
        parent.container[parent.key] = built.value
        parent.expects_key = True
    parent.size += built.size
    parent.height = max(parent.height, built.height + 1)


def _pointer(frames: Sequence[_Frame]) -> str:
    """The JSON Pointer of the value the last of ``frames`` is building."""
    return pointer_of(
        tuple(len(frame.container) if isinstance(frame.container, list) else frame.key for frame in frames)
    )


def _kind(value: Any) -> str:
    return "sequence" if isinstance(value, list) else "mapping" if isinstance(value, dict) else type(value).__name__


def _check_collection_tag(event: SequenceStartEvent | MappingStartEvent) -> None:
    kind, expected = ("sequence", SEQ) if isinstance(event, SequenceStartEvent) else ("mapping", MAP)
    tag = event.tag
    if tag is None or tag in (_NON_SPECIFIC, expected):
        return
    if tag in _JSON_TAGS:
        raise _RefusedError(f"the tag {_shown(tag)} does not fit a {kind}")
    raise _forbidden_tag(tag)


def _scalar_value(event: ScalarEvent) -> Any:
    """The JSON value of a scalar: its explicit tag, or the core schema for a plain one, else a string."""
    tag = event.tag
    if tag is None:
        tag = _implicit_tag(event.value) if event.implicit[0] else STR
    elif tag == _NON_SPECIFIC:
        tag = STR
    if tag in (SEQ, MAP):
        raise _RefusedError(f"the tag {_shown(tag)} does not fit a scalar")
    if tag not in _SCALAR_TAGS:
        raise _forbidden_tag(tag)
    return _construct(tag, event.value)


def _forbidden_tag(tag: str) -> _RefusedError:
    return _RefusedError(
        f"the tag {_shown(tag)} is not allowed: a suite is JSON data"
        " (only !!str, !!int, !!float, !!bool, !!null, !!seq and !!map)"
    )


def _shown(tag: str) -> str:
    return "!!" + tag[len(_CORE) :] if tag.startswith(_CORE) else tag


def _implicit_tag(text: str) -> str:
    """The YAML 1.2 core schema's tag for a plain scalar."""
    if text in _NULLS:
        return NULL
    if text in _BOOLS:
        return BOOL
    if _DECIMAL.fullmatch(text) or _OCTAL.fullmatch(text) or _HEX.fullmatch(text):
        return INT
    if _FLOAT.fullmatch(text) or _NOT_FINITE.fullmatch(text):
        return FLOAT
    return STR


def _construct(tag: str, text: str) -> Any:
    if tag == STR:
        return text
    if tag == NULL:
        if text not in _NULLS:
            raise _RefusedError(f"{text!r} is not a null (the tag !!null takes null, Null, NULL, ~ or nothing)")
        return None
    if tag == BOOL:
        if text not in _BOOLS:
            raise _RefusedError(
                f"{text!r} is not a boolean (the tag !!bool takes true, True, TRUE, false, False, FALSE)"
            )
        return _BOOLS[text]
    if tag == INT:
        return _core_int(text)
    return _core_float(text)


def _core_int(text: str) -> int:
    """A core-schema integer: decimal (``017`` is 17), ``0o`` octal or ``0x`` hexadecimal; no ``_`` or ``:``."""
    if _DECIMAL.fullmatch(text):
        sign, digits, base = text[0] == "-", text.lstrip("+-"), 10
    elif _OCTAL.fullmatch(text):
        sign, digits, base = False, text[2:], 8
    elif _HEX.fullmatch(text):
        sign, digits, base = False, text[2:], 16
    else:
        raise _RefusedError(f"{text!r} is not an integer (decimal, 0o octal or 0x hexadecimal)")
    digits = digits.lstrip("0") or "0"
    magnitude = int(digits, base) if len(digits) <= MAX_INT_DIGITS else _INT_BOUND
    if magnitude >= _INT_BOUND:
        raise _RefusedError(f"an integer of more than {MAX_INT_DIGITS} digits (the JSON reader's limit)")
    return -magnitude if sign else magnitude


def _core_float(text: str) -> float:
    """A core-schema float that JSON can hold: finite."""
    if _NOT_FINITE.fullmatch(text):
        raise _RefusedError(
            f"{text!r} is a YAML float with no JSON value (a suite is JSON data: write a finite number)"
        )
    if not _FLOAT.fullmatch(text):
        raise _RefusedError(f"{text!r} is not a float")
    value = float(text)
    if not math.isfinite(value):
        raise _RefusedError(f"{text!r} is beyond the largest float: it has no JSON value (a suite is JSON data)")
    return value


def _yaml_error(error: yaml.YAMLError, text: str, pointer: str) -> DocumentSyntaxError:
    """``ES003`` where PyYAML stopped: a problem mark, or the reader's position in characters."""
    if isinstance(error, yaml.reader.ReaderError):
        at_line, at_column = _place(text, error.position)
        shown = f"U+{error.character:04X}" if isinstance(error.character, int) else repr(error.character)
        return DocumentSyntaxError(
            NOT_YAML, f"the character {shown} is not allowed in YAML (a control character)", at_line, at_column, pointer
        )
    if isinstance(error, yaml.MarkedYAMLError):
        mark = error.problem_mark or error.context_mark
        reason = error.problem or error.context or "not valid YAML"
        if error.problem and error.context and error.context_mark is not None:
            where = error.context_mark
            reason += f", {error.context} that starts at line {where.line + 1} column {where.column + 1}"
        line, column = _line_column(mark)
        return DocumentSyntaxError(NOT_YAML, reason, line, column, pointer)
    return DocumentSyntaxError(NOT_YAML, str(error).splitlines()[0] if str(error) else "not valid YAML")


def _line_column(mark: _Mark | None) -> tuple[int | None, int | None]:
    return (mark.line + 1, mark.column + 1) if mark is not None else (None, None)


def _place(text: str, index: int) -> tuple[int, int]:
    """1-based line and column (characters) of ``text[index]``, counting line breaks as PyYAML's marks do."""
    line, start = 1, 0
    for found in _BREAK.finditer(text, 0, index):
        line, start = line + 1, found.end()
    return line, index - start + 1
