"""Readers of inputs: paths, directories, JSON, JSONL, YAML, gzip and stdin."""

from evalscore.inputs.documents import Document, InputRecord, read_documents
from evalscore.inputs.errors import InputError

__all__ = ["Document", "InputError", "InputRecord", "read_documents"]
