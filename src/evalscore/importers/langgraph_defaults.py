"""The LangGraph importer's defaults, importable without its extra (msgpack, psycopg): the command
shows them in its help, and must start and name the extra when the extra is not installed."""

from __future__ import annotations

from typing import Final

DEFAULT_MAX_VALUE_BYTES: Final = 64 * 1024 * 1024
"""The largest stored value (a checkpoint, a write, a checkpoint's metadata) read into memory."""
