"""Check that a change left the commands' output byte for byte as it was at another revision.

Usage: python scripts/same_reports.py [REV]        (REV defaults to HEAD)

A move of code (issue 33) must change no report. This script checks out REV into a temporary
worktree, runs one fixed set of commands over the repository's own examples, fixtures and goldens
with each tree's ``src`` first on the import path (the same interpreter and installed packages for
both), and compares every command's exit status, standard output, standard error and written files.
It prints each difference and exits 1 when there is one, 0 when every output is the same, and
prints how many commands it compared.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
EXAMPLE_LOG = "examples/partner-log.jsonl"
EXAMPLE_SUITE = "examples/partner-suite.yaml"
SCORE_FORMATS = ("text", "json", "markdown", "junit", "github", "sarif")
VALIDATE_FORMATS = ("text", "json", "markdown", "junit", "github", "sarif")
SCHEMA_KINDS = ("eval-suite", "run", "scored-run", "step-score", "score-report", "validation-report")


@dataclass(frozen=True)
class Invocation:
    """Command lines run in turn in a scratch folder of their own; `writes` are the files they leave there."""

    name: str
    arguments: tuple[str, ...]
    writes: tuple[str, ...] = ()
    after: tuple[tuple[str, ...], ...] = ()


def invocations() -> Iterator[Invocation]:
    """The commands compared: every format of validate and score, the HTML page, a baseline, the goldens."""
    for kind in SCHEMA_KINDS:
        yield Invocation(f"schema {kind}", ("schema", kind))
    for form in VALIDATE_FORMATS:
        yield Invocation(
            f"validate fixtures {form}", ("validate", "{repo}/fixtures", "--format", form, "--color", "never")
        )
        yield Invocation(f"validate example {form}", ("validate", f"{{repo}}/{EXAMPLE_LOG}", "--format", form))
    example = (f"{{repo}}/{EXAMPLE_LOG}", "--suite", f"{{repo}}/{EXAMPLE_SUITE}", "--color", "never")
    for form in SCORE_FORMATS:
        yield Invocation(f"score example {form}", ("score", *example, "--format", form, "-v"))
        yield Invocation(
            f"score example gated {form}",
            ("score", *example, "--format", form, "--min-mandated-compliance", "1", "--min-tool-match", "0.9"),
        )
    yield Invocation("score recorded", ("score", f"{{repo}}/{EXAMPLE_LOG}", "--format", "json", "--color", "never"))
    yield Invocation(
        "score json and html",
        ("score", *example, "--format", "json", "-o", "report.json", "--html", "report.html"),
        writes=("report.json", "report.html"),
    )
    yield Invocation(
        "score against a baseline, then report",
        ("score", *example, "--format", "json", "-o", "baseline.json"),
        writes=("baseline.json", "page.html", "page.md", "again.json"),
        after=(
            (
                "score",
                *example,
                "--baseline",
                "baseline.json",
                "--max-drop",
                "0",
                "--format",
                "json",
                "-o",
                "again.json",
            ),
            ("report", "baseline.json", "-o", "page.html"),
            ("report", "again.json", "--format", "markdown", "-o", "page.md"),
        ),
    )
    for golden in sorted(path.name for path in (REPO / "goldens").iterdir() if path.is_dir()):
        for model in ("v1", "v2", "v3"):
            yield Invocation(
                f"score golden {golden} {model}",
                (
                    "score",
                    f"{{repo}}/goldens/{golden}/run.json",
                    "--suite",
                    f"{{repo}}/goldens/{golden}/suite.yaml",
                    "--scoring-model",
                    model,
                    "--format",
                    "json",
                ),
            )


def outputs(tree: Path, invocation: Invocation, scratch: Path) -> dict[str, bytes]:
    """What one command gives with `tree`'s code: its status, streams and written files."""
    scratch.mkdir(parents=True)
    environment = {**os.environ, "PYTHONPATH": str(tree / "src"), "NO_COLOR": "1", "COLUMNS": "100"}
    found: dict[str, bytes] = {}
    for step, command in enumerate((invocation.arguments, *invocation.after)):
        arguments = [argument.replace("{repo}", str(REPO)) for argument in command]
        done = subprocess.run(
            [sys.executable, "-m", "evalscore", *arguments],
            cwd=scratch,
            env=environment,
            capture_output=True,
            check=False,
        )
        found |= {f"step {step} exit status": str(done.returncode).encode(), f"step {step} stdout": done.stdout}
        found[f"step {step} stderr"] = done.stderr
    for name in invocation.writes:
        written = scratch / name
        found[name] = written.read_bytes() if written.exists() else b"(not written)"
    return found


def differences(revision: str, work: Path) -> tuple[Counter[str], list[str]]:
    """Run every invocation on `revision` and on the working tree; name each output that differs."""
    reference = work / "reference"
    subprocess.run(["git", "-C", str(REPO), "worktree", "add", "-q", "--detach", str(reference), revision], check=True)
    try:
        found: list[str] = []
        statuses: Counter[str] = Counter()
        for number, invocation in enumerate(invocations()):
            before = outputs(reference, invocation, work / f"before-{number}")
            after = outputs(REPO, invocation, work / f"after-{number}")
            statuses.update(value.decode() for part, value in after.items() if part.endswith("exit status"))
            found += [f"{invocation.name}: {part} differs" for part in before if before[part] != after.get(part)]
        return statuses, found
    finally:
        subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(reference)], check=True)


def main() -> int:
    revision = sys.argv[1] if len(sys.argv) > 1 else "HEAD"
    with tempfile.TemporaryDirectory(prefix="same-reports-") as work:
        statuses, found = differences(revision, Path(work))
    for line in found:
        print(line)
    by_status = ", ".join(f"{count} exit {status}" for status, count in sorted(statuses.items()))
    print(f"{statuses.total()} commands compared with {revision} ({by_status}): {len(found)} difference(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
