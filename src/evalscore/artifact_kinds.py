"""The artifact kinds of the published contract, by name: no model is imported to name them."""

from __future__ import annotations

from typing import Final, Literal

ArtifactKind = Literal["eval-suite", "run", "scored-run", "step-score"]
ARTIFACT_KINDS: Final[tuple[ArtifactKind, ...]] = ("eval-suite", "run", "scored-run", "step-score")
SCHEMA_FILES: Final[dict[ArtifactKind, str]] = {kind: f"{kind}.schema.json" for kind in ARTIFACT_KINDS}
REPORT_SCHEMA_FILE: Final = "score-report.schema.json"
VALIDATION_REPORT_SCHEMA_FILE: Final = "validation-report.schema.json"
LEDGER_RECORD_SCHEMA_FILE: Final = "ledger-record.schema.json"
