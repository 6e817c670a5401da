"""Colour for plain-text reports: SGR codes around a span, or the span alone.

The validate report is lines of text with a few coloured words; building it with rich cost more
than validating (seconds for 10,000 listed verdicts), and rich's markup also turned ``:name:``
in a path or message into an emoji. Whether to colour is decided once, by ``cli.common.colour_wanted``
(``--color``, ``NO_COLOR``, ``FORCE_COLOR``, a terminal).
"""

from __future__ import annotations

from typing import Final, Literal

Colour = Literal["green", "red", "bold red", "yellow"]
_SGR: Final[dict[Colour, str]] = {"green": "32", "red": "31", "bold red": "1;31", "yellow": "33"}


def painted(text: str, colour: Colour, color: bool) -> str:
    return f"\x1b[{_SGR[colour]}m{text}\x1b[0m" if color else text
