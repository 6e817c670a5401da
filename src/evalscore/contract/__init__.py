"""The published contract: JSON Schemas generated from the models.

Each name is imported on first use: importing the package loads no model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from evalscore.lazy_names import imported_on_first_use

if TYPE_CHECKING:
    from evalscore.contract.builder import ARTIFACT_KINDS, SCHEMA_FILES, build_schemas, render_schema

_PUBLIC: Final[dict[str, str]] = {
    "ARTIFACT_KINDS": "evalscore.contract.builder",
    "SCHEMA_FILES": "evalscore.contract.builder",
    "build_schemas": "evalscore.contract.builder",
    "render_schema": "evalscore.contract.builder",
}

__all__ = ["ARTIFACT_KINDS", "SCHEMA_FILES", "build_schemas", "render_schema"]

__getattr__, __dir__ = imported_on_first_use(globals(), _PUBLIC)
