"""Colour for plain-text reports: SGR codes around a span, or the span alone.

The validate report is lines of text with a few coloured words; building it with rich cost more
than validating (seconds for 10,000 listed verdicts), and rich's markup also turned ``:name:``
in a path or message into an emoji. ``NO_COLOR`` (https://no-color.org) turns colour off.
"""

from __future__ import annotations

import os
from typing import Final, Literal

Colour = Literal["green", "red", "bold red", "yellow"]
_SGR: Final[dict[Colour, str]] = {"green": "32", "red": "31", "bold red": "1;31", "yellow": "33"}


def colour_wanted(color: bool) -> bool:
    """Colour as asked, unless ``NO_COLOR`` is set to anything but the empty string."""
    return color and not os.environ.get("NO_COLOR")


def painted(text: str, colour: Colour, color: bool) -> str:
    return f"\x1b[{_SGR[colour]}m{text}\x1b[0m" if color else text
