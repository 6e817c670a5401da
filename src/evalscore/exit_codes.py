"""Every exit status evalscore gives, in one table: the commands' code and help, README's table and its
test all read it.

Eight values. A command uses those of them its help names (``COMMANDS``); what a value means is the
same everywhere: 0 nothing is wrong, 1 something checked is wrong, 2 the command could not do its
job (a usage error, a path that cannot be read or written, a cluster that cannot be reached), 3 an
input cannot be taken (invalid, or a log that cannot be mapped), 4 a figure cannot be derived
honestly, 70 a bug in evalscore, 130 and 143 stopped by a signal.
"""

from __future__ import annotations

import signal
from dataclasses import dataclass
from typing import Final

EXIT_OK: Final = 0
EXIT_FAILED: Final = 1
EXIT_USAGE: Final = 2
EXIT_INVALID_INPUT: Final = 3
EXIT_REFUSED: Final = 4
EXIT_INTERNAL_ERROR: Final = 70
EXIT_INTERRUPTED: Final = 128 + signal.SIGINT
EXIT_TERMINATED: Final = 128 + signal.SIGTERM


@dataclass(frozen=True, slots=True)
class ExitCode:
    code: int
    name: str
    meaning: str


EXIT_CODES: Final = (
    ExitCode(
        EXIT_OK, "ok", "pass or not gated (score), every artifact valid (validate), done (import, ledger, report)"
    ),
    ExitCode(EXIT_FAILED, "failed", "fail (score), an artifact invalid (validate), a finding (ledger verify)"),
    ExitCode(
        EXIT_USAGE, "usage", "a usage error, a path that cannot be read or written, a cluster that cannot be reached"
    ),
    ExitCode(EXIT_INVALID_INPUT, "invalid input", "an input is invalid (score), a log that cannot be mapped (import)"),
    ExitCode(EXIT_REFUSED, "refused", "not derivable honestly, or nothing was scored (score)"),
    ExitCode(
        EXIT_INTERNAL_ERROR, "internal error", "a bug in evalscore: one line on stderr, the other inputs still checked"
    ),
    ExitCode(EXIT_INTERRUPTED, "interrupted", "stopped by Ctrl-C (SIGINT)"),
    ExitCode(EXIT_TERMINATED, "terminated", "stopped by SIGTERM; nothing half-written is left"),
)
COMMANDS: Final[dict[str, tuple[int, ...]]] = {
    "validate": (EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERNAL_ERROR),
    "score": (EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INVALID_INPUT, EXIT_REFUSED, EXIT_INTERNAL_ERROR),
    "import inspect": (EXIT_OK, EXIT_USAGE, EXIT_INVALID_INPUT, EXIT_INTERNAL_ERROR, EXIT_TERMINATED),
    "import pydantic-ai": (EXIT_OK, EXIT_USAGE, EXIT_INVALID_INPUT, EXIT_INTERNAL_ERROR, EXIT_TERMINATED),
    "import langgraph": (EXIT_OK, EXIT_USAGE, EXIT_INVALID_INPUT, EXIT_INTERNAL_ERROR, EXIT_TERMINATED),
    "ledger verify": (EXIT_OK, EXIT_FAILED, EXIT_USAGE),
    "report": (EXIT_OK, EXIT_USAGE),
}
"""The codes each command's help names (a test holds the help to it). Any command exits 70 on a bug
and 130 when interrupted, named or not."""
