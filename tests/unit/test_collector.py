"""The collector pause: off inside, restored after as it was, and where score uses it."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from evalscore.cli import score_report
from evalscore.cli.main import main
from evalscore.collector import collector_paused

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


@pytest.mark.usefixtures("collector_on")
def test_the_collector_is_off_inside_and_on_again_after() -> None:
    with collector_paused():
        assert gc.isenabled() is False
    assert gc.isenabled() is True


@pytest.mark.usefixtures("collector_on")
def test_the_collector_is_on_again_after_an_error() -> None:
    with pytest.raises(KeyError), collector_paused():
        raise KeyError("boom")
    assert gc.isenabled() is True


@pytest.mark.usefixtures("collector_on")
def test_a_collector_that_was_off_stays_off() -> None:
    gc.disable()
    with collector_paused():
        pass
    assert gc.isenabled() is False
    gc.enable()


@pytest.mark.usefixtures("collector_on")
def test_score_builds_and_renders_its_report_with_the_collector_paused(monkeypatch: pytest.MonkeyPatch) -> None:
    """The report has a row per distinct target tool: built while the collector walked it again and
    again, a report 4 times as long cost about 5 times as long to make."""
    seen: dict[str, bool] = {}
    build = score_report.build_report
    render = score_report.SCORE_REPORTERS["json"]

    def building(*args: Any, **kwargs: Any) -> Any:
        seen["building"] = gc.isenabled()
        return build(*args, **kwargs)

    def rendering(*args: Any, **kwargs: Any) -> Any:
        seen["rendering"] = gc.isenabled()
        return render(*args, **kwargs)

    monkeypatch.setattr(score_report, "build_report", building)
    monkeypatch.setitem(score_report.SCORE_REPORTERS, "json", rendering)
    log, suite = ROOT / "examples" / "partner-log.jsonl", ROOT / "examples" / "partner-suite.yaml"
    result = CliRunner().invoke(main, ["score", str(log), "--suite", str(suite), "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    assert seen == {"building": False, "rendering": False}
    assert gc.isenabled() is True
