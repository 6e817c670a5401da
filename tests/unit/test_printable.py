"""Text from a log or a path reaches a terminal with every control character shown, none obeyed."""

from __future__ import annotations

import orjson
import pytest

from evalscore.printable import json_safe_text, printable, printable_path, shortened


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x1b[2J", "\\x1b[2J"),
        ("\x1b]8;;http://evil\x07link\x1b]8;;\x07", "\\x1b]8;;http://evil\\x07link\\x1b]8;;\\x07"),
        ("a.json\nVALID: 9 artifact(s)", "a.json\\nVALID: 9 artifact(s)"),
        ("tab\there\r", "tab\\there\\r"),
        ("\x9b31m", "\\x9b31m"),
        ("\x7f", "\\x7f"),
        ("abc\u202edcba", "abc\\u202edcba"),
        ("\u2028", "\\u2028"),
        ("plain text, accents: \u00e9\u00e8, CJK: \u4e2d", "plain text, accents: \u00e9\u00e8, CJK: \u4e2d"),
    ],
)
def test_controls_escapes_and_bidi_overrides_are_shown_as_escapes(raw: str, shown: str) -> None:
    assert printable(raw) == shown


def test_no_character_below_space_survives() -> None:
    every = "".join(chr(code) for code in range(0x20)) + "\x7f" + "".join(chr(c) for c in range(0x80, 0xA0))
    safe = printable(every)
    assert all(ord(char) >= 0x20 and not 0x7F <= ord(char) <= 0x9F for char in safe)
    assert len(safe) > len(every)


def test_a_long_id_is_cut_in_the_middle_and_says_how_much() -> None:
    text = "start-" + "x" * 10_000 + "-end"
    short = shortened(text, 80)
    assert len(short) <= 80
    assert short.startswith("start-")
    assert short.endswith("-end")
    assert "chars)" in short
    assert shortened("short id", 80) == "short id"


def test_a_file_name_that_is_not_utf8_is_shown_with_its_bytes() -> None:
    name = b"log-\xff\n.json".decode("utf-8", "surrogateescape")
    assert printable_path(name) == "log-\\xff\\n.json"
    orjson.dumps(printable_path(name))  # carries no lone surrogate


def test_json_keeps_its_value_and_shows_no_raw_c1_or_bidi_character() -> None:
    value = {"target_tool": "refund\x9b2J\u202e\x7f", "line": "a\nb"}
    text = json_safe_text(orjson.dumps(value, option=orjson.OPT_INDENT_2).decode())
    assert orjson.loads(text) == value
    assert not any(0x7F <= ord(char) <= 0x9F or char == "\u202e" for char in text)
