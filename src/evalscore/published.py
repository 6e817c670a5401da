"""The published schemas as the package ships them (``evalscore/schemas/v1/``).

They are byte-for-byte the files under ``schemas/v1/`` of the repository: the drift script writes
both from the models and fails when either differs. Reading them instead of generating them keeps
the reference models (and pydantic) out of a process that only validates.
"""

from __future__ import annotations

import os
from functools import cache
from typing import Any, Final

import orjson

PACKAGED_SCHEMA_DIR: Final = os.path.join(os.path.dirname(__file__), "schemas", "v1")


@cache
def published_schema(file_name: str) -> dict[str, Any]:
    """The schema published as ``file_name`` (``run.schema.json``, ...), parsed.

    Read through the package's loader (as ``pkgutil.get_data`` does, without importing
    ``importlib.resources``, which costs more than the read), so a zipped install works too.
    """
    loader: Any = __spec__.loader
    schema: dict[str, Any] = orjson.loads(loader.get_data(os.path.join(PACKAGED_SCHEMA_DIR, file_name)))
    return schema
