"""What the commands share: numbers that must be finite and in range, stdin named once, colour and
width only on a terminal, a progress counter only on a terminal's stderr."""

from __future__ import annotations

import os
import sys

import click
import pytest
from _terminals import NotATerminal, Terminal

from evalscore.cli import common
from evalscore.cli.common import NON_NEGATIVE, RATE, read_stdin_once, report_style, stream_is_terminal
from evalscore.reporters.registry import ReportStyle
from evalscore.validation.internal_error import TRACEBACK_VARIABLES

PARAM = click.Option(["--min-tool-match"])
CTX = click.Context(click.Command("score"))


def refusal(value: object, kind: common.FiniteFloatRange = RATE) -> click.BadParameter:
    with pytest.raises(click.BadParameter) as raised:
        kind.convert(value, PARAM, CTX)
    return raised.value


# --- numbers ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "number"), [("0", 0.0), ("0.25", 0.25), ("1", 1.0), (0.5, 0.5), ("1e-3", 0.001)])
def test_a_rate_is_a_number_from_0_to_1(value: object, number: float) -> None:
    assert RATE.convert(value, PARAM, CTX) == number


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("nan", "'nan' is not a finite number"),
        ("-inf", "'-inf' is not a finite number"),
        (float("inf"), "inf is not a finite number"),
        ("1.5", "1.5 is not in the range 0.0<=x<=1.0."),
        ("-0.01", "-0.01 is not in the range 0.0<=x<=1.0."),
        ("half", "'half' is not a valid float."),
    ],
)
def test_a_rate_that_is_not_finite_out_of_range_or_no_number_is_refused_naming_the_option(
    value: object, message: str
) -> None:
    error = refusal(value)
    assert error.message == message
    assert error.param is PARAM
    assert error.ctx is CTX


def test_a_non_negative_number_has_no_upper_bound_but_must_be_finite() -> None:
    assert NON_NEGATIVE.convert("1e300", PARAM, CTX) == 1e300
    assert refusal("inf", NON_NEGATIVE).message == "'inf' is not a finite number"
    assert refusal("-1", NON_NEGATIVE).message == "-1.0 is not in the range x>=0.0."


def test_traceback_is_requested_only_when_the_flag_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in TRACEBACK_VARIABLES:
        monkeypatch.setenv(name, "")  # unset again afterwards, whatever the test sets
    common._request_tracebacks(CTX, PARAM, False)
    assert not any(os.environ.get(name) for name in TRACEBACK_VARIABLES)
    common._request_tracebacks(CTX, PARAM, True)
    assert os.environ.get(TRACEBACK_VARIABLES[0]) == "1"


# --- stdin ------------------------------------------------------------------------------------


@pytest.mark.parametrize("groups", [(), (("a.json", "b.json"),), (("-",),), (("a.json", "-"), ("b.yaml",))])
def test_stdin_named_at_most_once_is_fine(groups: tuple[tuple[str, ...], ...]) -> None:
    read_stdin_once(*groups)


@pytest.mark.parametrize("groups", [(("-", "-"),), (("-",), ("-",)), (("a.json", "-"), ("-", "b.yaml"))])
def test_stdin_named_twice_in_any_of_the_groups_is_a_usage_error(groups: tuple[tuple[str, ...], ...]) -> None:
    with pytest.raises(click.UsageError) as raised:
        read_stdin_once(*groups)
    assert raised.value.message == "'-' (stdin) is named more than once; stdin can be read only once"


# --- terminals --------------------------------------------------------------------------------


def test_a_stream_is_a_terminal_only_when_it_says_so() -> None:
    assert stream_is_terminal(Terminal()) is True
    assert stream_is_terminal(NotATerminal()) is False
    assert stream_is_terminal(object()) is False  # type: ignore[arg-type]  # a stream replaced by anything


def test_text_on_a_terminal_has_colour_and_the_terminals_width(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdout", Terminal())
    monkeypatch.setenv("COLUMNS", "77")
    assert report_style("text") == ReportStyle(color=True, width=77)
    assert report_style("json") == ReportStyle()


def test_a_terminal_whose_width_is_unknown_is_taken_as_100_wide(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_size(fd: int = 1) -> os.terminal_size:
        raise OSError("not a terminal")

    monkeypatch.setattr(sys, "stdout", Terminal())
    monkeypatch.setattr(os, "get_terminal_size", no_size)  # what shutil asks when COLUMNS is unset
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)
    assert report_style("text") == ReportStyle(color=True, width=100)


def test_text_elsewhere_than_a_terminal_is_plain_at_the_fixed_width(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdout", NotATerminal())
    monkeypatch.setenv("COLUMNS", "77")
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    assert report_style("text") == ReportStyle(color=False, width=77)  # piped, the width follows COLUMNS
    monkeypatch.delenv("COLUMNS")
    assert report_style("text") == ReportStyle(color=False, width=100)


@pytest.mark.parametrize(("columns", "width"), [("19", 100), ("20", 20), ("10000", 10_000), ("10001", 100), ("", 100)])
def test_columns_is_a_width_from_20_to_10000_else_the_default(
    monkeypatch: pytest.MonkeyPatch, columns: str, width: int
) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    assert common.report_width(NotATerminal()) == width


def test_without_columns_a_terminal_is_as_wide_as_it_says(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setattr(os, "get_terminal_size", lambda fd=1: os.terminal_size((123, 40)))
    assert common.report_width(Terminal()) == 123
    assert common.report_width(NotATerminal()) == 100
    monkeypatch.setattr(sys, "stdout", Terminal())
    assert report_style("text", "never").width == 123  # the width of standard output, not of another stream


@pytest.mark.parametrize(("quiet", "verbose", "verbosity"), [(True, False, -1), (False, False, 0), (False, True, 1)])
def test_verbosity_is_minus_one_for_quiet_one_for_verbose(quiet: bool, verbose: bool, verbosity: int) -> None:
    assert common.verbosity_of(quiet, verbose) == verbosity
    assert report_style("json", verbosity=verbosity).verbosity == verbosity


def test_quiet_and_verbose_together_is_a_usage_error_naming_both() -> None:
    with pytest.raises(click.UsageError) as raised:
        common.verbosity_of(True, True)
    assert raised.value.message == "-q/--quiet and -v/--verbose cannot be given together"


def test_the_verbosity_options_are_two_flags_with_their_help() -> None:
    command = common.verbosity_options(click.Command("c", callback=lambda **_: None))
    shown = {option.name: (option.opts, option.is_flag, option.help) for option in command.params}
    assert shown == {
        "quiet": (["-q", "--quiet"], True, "Print only the outcome line(s)."),
        "verbose": (["-v", "--verbose"], True, "Also print a line for everything checked."),
    }
    assert [option.name for option in command.params] == ["verbose", "quiet"]


@pytest.mark.parametrize(("text", "accepted"), [("0", False), ("1", True), (str(2**40), True), (str(2**40 + 1), False)])
def test_a_byte_count_is_from_1_byte_to_1_tib(text: str, accepted: bool) -> None:
    count = common.ByteCount()
    if accepted:
        assert count.convert(text, None, None) == int(text)
    else:
        with pytest.raises(click.BadParameter) as raised:
            count.convert(text, None, None)
        assert raised.value.message.endswith("is not in the range 1 byte to 1 TiB.")
