"""The one exception the readers of JSON and YAML raise: what is wrong with the bytes, and where."""

from __future__ import annotations


class DocumentSyntaxError(ValueError):
    """Bytes that are not a document evalscore reads: a code (docs/RULES.md), the reason, and where.

    ``line`` and ``column`` are 1-based (columns count bytes for JSON, characters for YAML) and
    None when the problem has no single place; ``pointer`` is the RFC 6901 JSON Pointer of the
    value concerned when it is known ("" for the whole document).
    """

    def __init__(
        self, code: str, reason: str, line: int | None = None, column: int | None = None, pointer: str = ""
    ) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.line = line
        self.column = column
        self.pointer = pointer

    def __str__(self) -> str:
        if self.line is None:
            return self.reason
        return (
            f"{self.reason} (line {self.line} column {self.column})"
            if self.column is not None
            else (f"{self.reason} (line {self.line})")
        )
