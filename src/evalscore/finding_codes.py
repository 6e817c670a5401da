"""Every finding code that is not a coherence rule, in one table: the readers' syntax codes and the
contract layer's own. The coherence rules (``ES1xx``, ``ES2xx``) are the registry's
(``coherence/registry.py``); docs/RULES.md lists both, and its test reads both."""

from __future__ import annotations

from typing import Final

UNREADABLE: Final = "ES001"
NOT_JSON: Final = "ES002"
NOT_YAML: Final = "ES003"
NOT_UTF8: Final = "ES004"
KIND_UNKNOWN: Final = "ES005"
TOO_LARGE: Final = "ES006"
NOT_GZIP: Final = "ES007"
NO_ARTIFACT: Final = "ES008"
MODEL_DIVERGENCE: Final = "ES009"
WRONG_KIND: Final = "ES010"
REPEATED_KEY: Final = "ES011"
TOO_DEEP: Final = "ES012"
INTERNAL_ERROR: Final = "ES099"

SYNTAX_CODES: Final[dict[str, str]] = {
    UNREADABLE: "input-unreadable",
    NOT_JSON: "not-valid-json",
    NOT_YAML: "not-valid-yaml",
    NOT_UTF8: "not-utf-8",
    NOT_GZIP: "not-valid-gzip",
    TOO_LARGE: "document-too-large",
    NO_ARTIFACT: "no-artifact-in-input",
    REPEATED_KEY: "repeated-key",
    TOO_DEEP: "nested-too-deep",
    INTERNAL_ERROR: "internal-error",
}
"""What reading an input can find before any artifact is checked."""
CONTRACT_CODES: Final[dict[str, str]] = {
    KIND_UNKNOWN: "kind-unknown",
    MODEL_DIVERGENCE: "model-schema-divergence",
    WRONG_KIND: "wrong-artifact-kind",
}
"""Contract-layer codes other than ``schema.<keyword>``."""
