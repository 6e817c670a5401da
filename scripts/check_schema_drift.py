#!/usr/bin/env python3
"""The drift gate: committed schemas == schemas generated from the models, and
every committed artifact meets its expected verdict under both layers.

Usage: python scripts/check_schema_drift.py [--write]
Exit 0 when everything agrees, 1 on any drift or fixture problem.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from evalscore.contract.drift import REGENERATE_COMMAND, find_drift, uncommitted, write_schemas
from evalscore.contract.fixture_check import artifact_files, check_artifact_file

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_DIR = ROOT / "schemas" / "v1"
ARTIFACT_FOLDERS = ("fixtures", "goldens", "examples")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--write", action="store_true", help="regenerate the schema files, then check")
    args = parser.parse_args(argv)
    if args.write:
        for name in write_schemas(SCHEMA_DIR):
            print(f"wrote schemas/v1/{name}")
    failed = False
    for drift in find_drift(SCHEMA_DIR) + uncommitted(SCHEMA_DIR):
        failed = True
        print(f"DRIFT schemas/v1/{drift.file}: {drift.problem}")
        if drift.diff:
            print(drift.diff)
    if failed:
        print(
            f"\nThe committed contract differs from the models. Regenerate with:\n  {REGENERATE_COMMAND}\nthen commit."
        )
        return 1
    checked = 0
    for path in artifact_files(ROOT, ARTIFACT_FOLDERS):
        checked += 1
        for problem in check_artifact_file(path, ROOT, SCHEMA_DIR):
            failed = True
            print(f"FIXTURE {problem}")
    if checked == 0:
        print("FIXTURE no committed artifact was found to check")
        return 1
    print(
        f"schemas in step with the models; {checked} artifact file(s) meet their expected verdicts"
        if not failed
        else ""
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
