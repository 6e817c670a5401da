"""Check a finished mutmut run: every surviving mutant must be a reviewed equivalent one.

Runs nothing itself. Reads the per-file results mutmut 3 writes next to the mutated copies
(``mutants/<source path>.meta``, JSON with ``exit_code_by_key``), compares the survivors with
``mutation/equivalent-mutants.toml`` and prints the counts. Exit status: 0 when every survivor
is listed, 1 when one is not (or when there are no results at all).

    python scripts/check_mutants.py [--mutants DIR] [--equivalents FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from collections import Counter
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parents[1]
# mutmut 3.8's reading of a mutant's test-run exit code (mutmut.stats.status_by_exit_code).
STATUS_BY_EXIT_CODE: Final[dict[int | None, str]] = {
    1: "killed",
    3: "killed",
    0: "survived",
    5: "no tests",
    33: "no tests",
    2: "interrupted",
    None: "not checked",
    34: "skipped",
    35: "suspicious",
    36: "timeout",
    24: "timeout",
    -24: "timeout",
    152: "timeout",
    255: "timeout",
    37: "caught by type check",
    -11: "segfault",
    -9: "segfault",
}
# Statuses that mean a test noticed the mutant.
CAUGHT: Final = frozenset({"killed", "timeout", "caught by type check", "segfault"})


def read_statuses(mutants_dir: Path) -> dict[str, str]:
    """Every mutant name with its status, from all ``.meta`` files under ``mutants_dir``."""
    statuses: dict[str, str] = {}
    for meta in sorted(mutants_dir.rglob("*.py.meta")):
        exit_codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        for name, code in exit_codes.items():
            statuses[name] = STATUS_BY_EXIT_CODE.get(code, "suspicious")
    return statuses


def read_equivalents(path: Path) -> dict[str, str]:
    """Listed mutant names with their one-line reasons; a listing without a reason is an error."""
    if not path.exists():
        return {}
    listed = tomllib.loads(path.read_text(encoding="utf-8")).get("equivalent", {})
    blank = sorted(name for name, reason in listed.items() if not str(reason).strip())
    if blank:
        raise SystemExit(f"{path}: listed without a reason: {', '.join(blank)}")
    return {str(name): str(reason) for name, reason in listed.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--mutants", type=Path, default=ROOT / "mutants", help="mutmut's output directory")
    parser.add_argument(
        "--equivalents", type=Path, default=ROOT / "mutation" / "equivalent-mutants.toml", help="reviewed list"
    )
    args = parser.parse_args(argv)

    statuses = read_statuses(args.mutants)
    if not statuses:
        print(f"no mutmut results under {args.mutants}; run `mutmut run` first", file=sys.stderr)
        return 1
    equivalents = read_equivalents(args.equivalents)

    survivors = sorted(name for name, status in statuses.items() if status not in CAUGHT)
    unexplained = [name for name in survivors if name not in equivalents]
    listed_survivors = [name for name in survivors if name in equivalents]
    stale = sorted(name for name in equivalents if name not in statuses)
    killed_by_now = sorted(name for name in equivalents if statuses.get(name) in CAUGHT)

    counts = Counter(statuses.values())
    caught = sum(counts[status] for status in CAUGHT)
    print(
        f"mutants: {len(statuses)}  killed: {caught}  survived: {len(survivors)}  "
        f"listed as equivalent: {len(listed_survivors)}  not explained: {len(unexplained)}"
    )
    other = {status: n for status, n in sorted(counts.items()) if status not in CAUGHT | {"survived"}}
    if other:
        print("  of the survivors, not plainly 'survived': " + ", ".join(f"{s}: {n}" for s, n in other.items()))
    for name in stale:
        print(f"warning: listed as equivalent but mutmut no longer produces it: {name}")
    for name in killed_by_now:
        print(f"warning: listed as equivalent but a test kills it (remove it from the list): {name}")
    for name in unexplained:
        print(f"SURVIVED (not listed as equivalent): {name} [{statuses[name]}]  see: mutmut show {name}")
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
