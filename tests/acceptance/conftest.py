"""Real Inspect logs for the import command's tests (shared with tests/unit/importers through one session dir)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

FACTORY = Path(__file__).resolve().parents[1] / "unit" / "importers" / "inspect_log_factory.py"
INSPECT_MISSING = "inspect_ai is not installed (a dev dependency): cannot produce real Inspect logs"


def _factory() -> ModuleType:
    """The unit tests' log factory: the module already imported by them, else loaded from its file."""
    loaded = sys.modules.get("inspect_log_factory")
    if loaded is not None:
        return loaded
    spec = importlib.util.spec_from_file_location("inspect_log_factory", FACTORY)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve their module through sys.modules
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def inspect_logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    pytest.importorskip("inspect_ai", reason=INSPECT_MISSING)
    logs: dict[str, Path] = _factory().session_logs(tmp_path_factory.getbasetemp() / "inspect-logs")
    return logs
