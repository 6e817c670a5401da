"""The Inspect importer's failures: the shared ones under the names this package has always exported."""

from __future__ import annotations

from evalscore.importers.shared.errors import ImportFailedError, UnmappableSourceError, UnreadableSourceError

InspectImportError = ImportFailedError
UnreadableLogError = UnreadableSourceError
UnmappableLogError = UnmappableSourceError


class SampleMappingError(ValueError):
    """One sample cannot be mapped honestly; the caller adds the log's path and becomes ``UnmappableLogError``."""
