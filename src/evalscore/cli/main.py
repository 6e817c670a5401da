"""The ``evalscore`` command group."""

from __future__ import annotations

import click

from evalscore import __version__
from evalscore.cli.schema_command import schema_command
from evalscore.cli.validate_command import validate_command


@click.group()
@click.version_option(__version__, prog_name="evalscore")
def main() -> None:
    """Validate and score recorded AI-agent runs from external deployments."""


main.add_command(validate_command)
main.add_command(schema_command)
