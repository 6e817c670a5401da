#!/usr/bin/env python3
"""The drift gate: committed schemas == schemas generated from the models, and
every committed artifact meets its expected verdict under both layers.

The schemas live twice: ``schemas/v1/`` is the published contract, and
``src/evalscore/schemas/v1/`` the copy the package ships and ``validate`` reads (so that it
never imports the models). Both are written by ``--write`` and both must equal the models' output.

Usage: python scripts/check_schema_drift.py [--write] [--schema-dir DIR] [--packaged-dir DIR]
Exit 0 when everything agrees, 1 on any drift or fixture problem. Any file in a schema
directory that the models do not generate is drift, whatever its name.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from evalscore.contract.drift import REGENERATE_COMMAND, find_drift, uncommitted, write_schemas
from evalscore.contract.fixture_check import artifact_files, check_artifact_file
from evalscore.published import PACKAGED_SCHEMA_DIR

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_DIR = ROOT / "schemas" / "v1"
ARTIFACT_FOLDERS = ("fixtures", "goldens", "examples")


def shown(directory: Path) -> str:
    """The directory as messages name it: relative to the repository when inside it."""
    resolved = directory.resolve()
    return resolved.relative_to(ROOT).as_posix() if resolved.is_relative_to(ROOT) else str(directory)


def in_step(directory: Path, *, write: bool) -> bool:
    """Whether ``directory`` holds exactly the generated schemas, committed (after writing them, with ``write``);
    each difference is printed."""
    label = shown(directory)
    if write:
        for name in write_schemas(directory):
            print(f"wrote {label}/{name}")
    problems = find_drift(directory) + uncommitted(directory)
    for drift in problems:
        print(f"DRIFT {label}/{drift.file}: {drift.problem}")
        if drift.diff:
            print(drift.diff)
    return not problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--write", action="store_true", help="regenerate the schema files, then check")
    parser.add_argument("--schema-dir", type=Path, default=SCHEMA_DIR, help="the committed schemas (schemas/v1)")
    parser.add_argument(
        "--packaged-dir",
        type=Path,
        default=Path(PACKAGED_SCHEMA_DIR),
        help="the copy the package ships (src/evalscore/schemas/v1)",
    )
    args = parser.parse_args(argv)
    schema_dir: Path = args.schema_dir
    failed = False
    for directory in (schema_dir, args.packaged_dir):
        failed |= not in_step(directory, write=args.write)
    if failed:
        print(
            f"\nThe committed contract differs from the models. Regenerate with:\n  {REGENERATE_COMMAND}\nthen commit."
        )
        return 1
    checked = 0
    for path in artifact_files(ROOT, ARTIFACT_FOLDERS):
        checked += 1
        for problem in check_artifact_file(path, ROOT, schema_dir):
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
