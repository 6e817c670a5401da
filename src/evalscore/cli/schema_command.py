"""``evalscore schema KIND``: print a published schema."""

from __future__ import annotations

import click

from evalscore.cli.common import KIND_CHOICE, write_out
from evalscore.contract.builder import ArtifactKind, build_schema, render_schema


@click.command("schema")
@click.argument("kind", type=KIND_CHOICE)
def schema_command(kind: ArtifactKind) -> None:
    """Print the published JSON Schema of one artifact kind."""
    write_out(render_schema(build_schema(kind)).decode())
