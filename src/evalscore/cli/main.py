"""The ``evalscore`` command group."""

from __future__ import annotations

import os
import sys
from typing import Any, Final

import click

from evalscore import __version__
from evalscore.cli.import_command import import_group
from evalscore.cli.schema_command import schema_command
from evalscore.cli.score_command import score_command
from evalscore.cli.validate_command import validate_command

EXIT_INTERNAL_ERROR: Final = 70


class _Commands(click.Group):
    """Turns a bug escaping a command into one line on stderr, never a traceback.

    Set EVALSCORE_DEBUG=1 to see the traceback.
    """

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit):
            raise
        except KeyboardInterrupt:
            sys.stderr.write("evalscore: interrupted\n")
            sys.exit(130)
        except Exception as error:
            if os.environ.get("EVALSCORE_DEBUG"):
                raise
            sys.stderr.write(
                f"evalscore: internal error ({type(error).__name__}: {error}); "
                "this is a bug, please report it (EVALSCORE_DEBUG=1 shows the traceback)\n"
            )
            sys.exit(EXIT_INTERNAL_ERROR)


@click.group(cls=_Commands)
@click.version_option(__version__, prog_name="evalscore")
def main() -> None:
    """Validate and score recorded AI-agent runs from external deployments."""


main.add_command(validate_command)
main.add_command(schema_command)
main.add_command(score_command)
main.add_command(import_group)
