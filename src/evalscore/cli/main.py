"""The ``evalscore`` command group."""

from __future__ import annotations

import sys
import traceback
from collections.abc import Sequence
from typing import Any, Final

import click

from evalscore.cli.common import traceback_option
from evalscore.collector import imported_once
from evalscore.exit_codes import EXIT_INTERNAL_ERROR, EXIT_INTERRUPTED
from evalscore.printable import printable
from evalscore.validation.internal_error import tracebacks_requested
from evalscore.version import __version__

COMMANDS: Final[dict[str, tuple[str, str]]] = {
    "import": ("evalscore.cli.import_command", "import_group"),
    "ledger": ("evalscore.cli.ledger_command", "ledger_group"),
    "report": ("evalscore.cli.report_command", "report_command"),
    "schema": ("evalscore.cli.schema_command", "schema_command"),
    "score": ("evalscore.cli.score_command", "score_command"),
    "validate": ("evalscore.cli.validate_command", "validate_command"),
}
"""Each subcommand's module and name: a command's module is imported only when that command runs
(or help lists them all), so ``validate`` starts without the scoring and import machinery."""


class _Commands(click.Group):
    """Every way out of a command is one line on stderr with a documented exit code.

    A usage error shows its message with the text the user typed escaped (a path
    may hold terminal escape sequences); a bug escaping a command is one line and
    exit 70, with the traceback only under ``--traceback``.
    """

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        try:
            outcome = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.ClickException as error:
            error.message = printable(error.message)  # type: ignore[misc]  # click's stubs say Final; it is a plain attribute
            error.show()
            sys.exit(error.exit_code)
        except click.Abort:
            sys.stderr.write("evalscore: aborted\n")
            sys.exit(1)
        if isinstance(outcome, int):  # --help, --version: click's own exits
            sys.exit(outcome)
        return outcome

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module_name, attribute = COMMANDS[cmd_name]
        command: click.Command = getattr(imported_once(module_name), attribute)
        return command

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit):
            raise
        except KeyboardInterrupt:
            sys.stderr.write("evalscore: interrupted\n")
            sys.exit(EXIT_INTERRUPTED)
        except Exception as error:
            if tracebacks_requested():
                traceback.print_exception(error, file=sys.stderr)
            summary = printable(f"{type(error).__name__}: {error}".splitlines()[0])[:300]
            sys.stderr.write(
                f"evalscore: internal error ({summary}); this is a bug, please report it "
                "(--traceback shows the traceback)\n"
            )
            sys.exit(EXIT_INTERNAL_ERROR)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="evalscore")
@traceback_option
@click.pass_context
def main(ctx: click.Context) -> None:
    """Validate and score recorded AI-agent runs from external deployments.

    score takes its defaults (suites, scoring model, thresholds) from
    [tool.evalscore] in the nearest pyproject.toml; options given here win.
    Exit 70 on an internal error (a bug in evalscore): one line on stderr, the
    other inputs still checked; --traceback shows the traceback.
    """
    if ctx.invoked_subcommand == "score":
        from evalscore.cli.config import score_defaults  # noqa: PLC0415 - read for score only

        ctx.default_map = {"score": score_defaults()}
