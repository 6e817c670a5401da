"""``evalscore schema KIND``: print a published schema."""

from __future__ import annotations

import click

from evalscore.cli.common import write_out
from evalscore.contract.builder import (
    ARTIFACT_KINDS,
    build_report_schema,
    build_schema,
    build_validation_report_schema,
    render_schema,
)

REPORT_SCHEMAS = {"score-report": build_report_schema, "validation-report": build_validation_report_schema}


@click.command("schema")
@click.argument("kind", type=click.Choice([*ARTIFACT_KINDS, *REPORT_SCHEMAS]))
def schema_command(kind: str) -> None:
    """Print a published JSON Schema: an artifact kind, or the JSON report of score or validate."""
    schema = REPORT_SCHEMAS[kind]() if kind in REPORT_SCHEMAS else build_schema(kind)  # type: ignore[arg-type]
    write_out(render_schema(schema).decode())
