"""The package version (``evalscore --version``; ``pyproject.toml`` holds the same): a leaf every layer may import."""

from __future__ import annotations

from typing import Final

__version__: Final = "0.2.0"
