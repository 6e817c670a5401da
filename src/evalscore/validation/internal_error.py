"""A bug met while checking one input: one finding naming it, the other inputs still checked.

evalscore's own defects must never read as a verdict on the log, and never stop
the rest of the run: the input is reported with ``ES099`` and the command exits
with ``EXIT_INTERNAL_ERROR``. ``--traceback`` (or ``EVALSCORE_TRACEBACK=1``)
prints the Python traceback on stderr for a bug report.
"""

from __future__ import annotations

import os
import sys
import traceback
from typing import Final

from evalscore.finding_codes import INTERNAL_ERROR
from evalscore.findings import Finding

"""EX_SOFTWARE in sysexits.h: an internal software error."""
TRACEBACK_VARIABLES: Final = ("EVALSCORE_TRACEBACK", "EVALSCORE_DEBUG")


def tracebacks_requested() -> bool:
    """True under ``--traceback``; an environment variable so that forked workers see it too."""
    return any(os.environ.get(name) for name in TRACEBACK_VARIABLES)


def request_tracebacks() -> None:
    os.environ[TRACEBACK_VARIABLES[0]] = "1"


def internal_error_finding(error: BaseException, source: str, line: int | None) -> Finding:
    """The finding for a bug met on one input; with ``--traceback`` the traceback goes to stderr."""
    if tracebacks_requested():
        traceback.print_exception(error, file=sys.stderr)
    summary = f"{type(error).__name__}: {error}".splitlines()[0][:300] if str(error) else type(error).__name__
    return Finding(
        layer="syntax",
        code=INTERNAL_ERROR,
        severity="error",
        pointer="",
        message=(
            f"internal error while checking this input ({summary}); this is a bug in evalscore, not a verdict on "
            "the input: please report it (--traceback shows where)"
        ),
        source=source,
        line=line,
    )
