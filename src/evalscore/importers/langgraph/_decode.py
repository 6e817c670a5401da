"""LangGraph's stored values decoded as data: nothing a blob names is imported, constructed or called.

A checkpointer stores each value as a type tag and bytes (``JsonPlusSerializer.dumps_typed``). Under
``msgpack`` an object is an extension whose payload names a module, a class and its arguments;
langgraph's own decoder imports that module and calls the class, which lets a planted blob run code.
Here an object stays a ``Named`` record (module, name, arguments), and the mapping reads only the
few it knows (``Named.is_``). Sizes are bounded by the caller; nesting of objects inside objects by
``MAX_OBJECT_DEPTH`` (msgpack bounds the nesting of arrays and maps itself).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

import msgpack

OBJECT_EXTENSIONS: Final = frozenset({0, 1, 2, 3, 4, 5})
"""Constructor with one argument, positional arguments, keyword arguments, a class method with one
argument, a pydantic v1 model, a pydantic v2 model: each a tuple (module, name, arguments[, method])."""
DELTA_SNAPSHOT: Final = 7
"""langgraph's wrapper of a delta channel's snapshot: a value, no code."""
MAX_OBJECT_DEPTH: Final = 64


class StoredValueError(ValueError):
    """A stored value that is not one langgraph writes, or that cannot be read as data."""


@dataclass(frozen=True, slots=True)
class Named:
    """An object a stored value describes, never built: its class's module and name, and its arguments."""

    module: str
    name: str
    arguments: Any
    """The single argument, the list of positional ones, or the map of keyword ones (a model's fields)."""

    def is_(self, module: str, name: str) -> bool:
        return self.module == module and self.name == name

    @property
    def qualified(self) -> str:
        return f"{self.module}.{self.name}"


@dataclass(frozen=True, slots=True)
class DeltaSnapshot:
    value: Any


def decode_stored(type_tag: str | None, data: bytes | None) -> Any:
    """The value ``dumps_typed`` wrote as (``type_tag``, ``data``), as data; raises ``StoredValueError``."""
    if type_tag == "null":
        return None
    if type_tag == "msgpack":
        if data is None:
            raise StoredValueError("a msgpack value with no bytes")
        return _unpack(bytes(data), 0)
    if type_tag in ("bytes", "bytearray"):
        return bytes(data or b"")
    if type_tag == "pickle":
        raise StoredValueError("the value is a Python pickle, which is never loaded: it can run any code")
    raise StoredValueError(f"the value's type {type_tag!r} is not one this importer reads (msgpack, null, bytes)")


def _unpack(data: bytes, depth: int) -> Any:
    if depth > MAX_OBJECT_DEPTH:
        raise StoredValueError(f"objects are nested more than {MAX_OBJECT_DEPTH} deep")

    def extension(code: int, payload: bytes) -> Any:
        return _extension(code, payload, depth + 1)

    try:
        # strings are UTF-8 text (msgpack's default); keys need not be strings (langgraph writes OPT_NON_STR_KEYS)
        return msgpack.unpackb(data, strict_map_key=False, ext_hook=extension)
    except StoredValueError:
        raise
    except (ValueError, TypeError, msgpack.UnpackException, RecursionError) as error:
        # msgpack raises ExtraData, FormatError, StackError (nesting), UnicodeDecodeError, or TypeError for
        # a map key that cannot be one (an array)
        raise StoredValueError(f"not a msgpack value langgraph writes ({type(error).__name__}: {error})") from None


def _extension(code: int, payload: bytes, depth: int) -> Any:
    if code == DELTA_SNAPSHOT:
        return DeltaSnapshot(_unpack(payload, depth))
    if code not in OBJECT_EXTENSIONS:
        raise StoredValueError(f"msgpack extension {code} is not an object langgraph writes as data")
    parts = _unpack(payload, depth)
    if not (isinstance(parts, list) and len(parts) >= 3 and isinstance(parts[0], str) and isinstance(parts[1], str)):
        raise StoredValueError(f"msgpack extension {code} does not name a module and a class")
    return Named(parts[0], parts[1], parts[2])
