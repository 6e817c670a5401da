"""Real Inspect logs for the importer's tests, generated once per session (skipped without inspect_ai)."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_log_factory import session_logs

INSPECT_MISSING = "inspect_ai is not installed (a dev dependency): cannot produce real Inspect logs"


@pytest.fixture(scope="session")
def inspect_logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    pytest.importorskip("inspect_ai", reason=INSPECT_MISSING)
    return session_logs(tmp_path_factory.getbasetemp() / "inspect-logs")
