"""The two ways a source fails to import, each one clear line for the CLI, whatever the importer."""

from __future__ import annotations

from typing import ClassVar

from evalscore.inputs.errors import InputError


class ImportFailedError(InputError):
    """A source (a log, a history, a store) that could not be imported; ``exit_code`` is what the CLI returns."""

    exit_code: ClassVar[int] = 2


class UnreadableSourceError(ImportFailedError):
    """The file is not one the importer can read (missing, corrupt, not of its kind)."""

    exit_code: ClassVar[int] = 2


class UnmappableSourceError(ImportFailedError):
    """The source was read, but it cannot be mapped to a valid Run without inventing data."""

    exit_code: ClassVar[int] = 3
