"""``evalscore schema KIND``: print a published schema."""

from __future__ import annotations

import click

from evalscore.cli.common import write_out
from evalscore.contract.builder import ARTIFACT_KINDS, build_report_schema, build_schema, render_schema

REPORT_KIND = "score-report"


@click.command("schema")
@click.argument("kind", type=click.Choice([*ARTIFACT_KINDS, REPORT_KIND]))
def schema_command(kind: str) -> None:
    """Print a published JSON Schema: an artifact kind, or score-report (score --format json)."""
    schema = build_report_schema() if kind == REPORT_KIND else build_schema(kind)  # type: ignore[arg-type]
    write_out(render_schema(schema).decode())
