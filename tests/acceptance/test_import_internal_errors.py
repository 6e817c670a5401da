"""A bug met on one log is one line and exit 70; the other logs are still tried and nothing is written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from evalscore.cli.main import main
from evalscore.importers.inspect import importer as inspect_importer


def test_an_internal_error_on_one_log_exits_70_and_the_other_logs_are_still_tried(
    tmp_path: Path, inspect_logs: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    logs = sorted(inspect_logs.values())[:2]
    assert len(logs) == 2
    real = inspect_importer.import_inspect_log
    tried: list[str] = []

    def import_inspect_log(path: str, **options: Any) -> Any:
        tried.append(str(path))
        if str(path) == str(logs[0]):
            raise KeyError("a bug planted by the test")
        return real(path, **options)

    monkeypatch.setattr(inspect_importer, "import_inspect_log", import_inspect_log)
    monkeypatch.setenv("EVALSCORE_TRACEBACK", "")
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(main, ["import", "inspect", *map(str, logs), "-o", str(out)])
    assert result.exit_code == 70
    assert tried == [str(log) for log in logs]
    assert "internal error (KeyError" in result.stderr
    assert "Traceback" not in result.stderr
    assert not out.exists()
    loud = CliRunner().invoke(main, ["import", "inspect", "--traceback", *map(str, logs), "-o", str(out)])
    assert loud.exit_code == 70
    assert "Traceback" in loud.stderr
