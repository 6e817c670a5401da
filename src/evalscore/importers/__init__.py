"""Importers: turn other tools' logs into evalscore artifacts without inventing what they did not record."""

from evalscore.importers.inspect import (
    DEFAULT_HUMAN_APPROVERS,
    InspectImportError,
    UnmappableLogError,
    UnreadableLogError,
    import_inspect_log,
    import_inspect_logs,
)

__all__ = [
    "DEFAULT_HUMAN_APPROVERS",
    "InspectImportError",
    "UnmappableLogError",
    "UnreadableLogError",
    "import_inspect_log",
    "import_inspect_logs",
]
