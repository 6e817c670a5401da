"""The two ways an Inspect log fails to import, each one clear line for the CLI."""

from __future__ import annotations

from typing import ClassVar

from evalscore.inputs.errors import InputError


class InspectImportError(InputError):
    """An Inspect log that could not be imported; ``exit_code`` is what the CLI returns."""

    exit_code: ClassVar[int] = 2


class UnreadableLogError(InspectImportError):
    """The file is not an Inspect log evalscore can read (missing, corrupt, unknown compression)."""

    exit_code: ClassVar[int] = 2


class UnmappableLogError(InspectImportError):
    """The log was read, but it cannot be mapped to a valid Run without inventing data."""

    exit_code: ClassVar[int] = 3


class SampleMappingError(ValueError):
    """One sample cannot be mapped honestly; the caller adds the log's path and becomes ``UnmappableLogError``."""
