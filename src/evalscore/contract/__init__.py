"""The published contract: JSON Schemas generated from the models."""

from evalscore.contract.builder import ARTIFACT_KINDS, SCHEMA_FILES, build_schemas, render_schema

__all__ = ["ARTIFACT_KINDS", "SCHEMA_FILES", "build_schemas", "render_schema"]
