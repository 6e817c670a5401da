"""The HTML report's charts, drawn by matplotlib and kept as inline SVG.

matplotlib is an optional dependency (``evalscore[html]``), imported when a chart is first drawn.
Text from a log (a tool's name) is drawn as text: made printable and with mathtext off, so a ``$``
in a name is a dollar sign, not a formula. The SVG is deterministic for the same report (no date,
fixed ids), starts at its ``<svg>`` element, and refers to nothing outside itself.
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from evalscore.reporters._formats import plain

if TYPE_CHECKING:
    from matplotlib.figure import Figure

# ruff: noqa: PLC0415 - matplotlib is imported when a chart is drawn: it is an optional extra

APPROVED: Final = "#2e7d32"
DENIED: Final = "#c62828"
UNRESOLVED: Final = "#9e9e9e"
RATE: Final = "#1565c0"
THRESHOLD: Final = "#ef6c00"
LABEL_LIMIT: Final = 40
"""Characters of a tool's name drawn on an axis; longer names are cut in the middle."""


class PlottingUnavailableError(Exception):
    """matplotlib is not installed: the HTML report needs the ``html`` extra."""


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError as error:
        raise PlottingUnavailableError(
            "the HTML report draws its charts with matplotlib, which is not installed: pip install 'evalscore[html]'"
        ) from error
    matplotlib.use("svg", force=True)
    matplotlib.rcParams.update(
        {
            "svg.fonttype": "none",  # text stays text: searchable, selectable, readable in the DOM
            "svg.hashsalt": "evalscore",  # the same ids for the same chart
            "text.parse_math": False,  # a $ in a tool's name is a dollar sign
            "font.size": 10,
            "axes.spines.top": False,
            "axes.spines.right": False,
        }
    )
    from matplotlib import pyplot

    return pyplot


def _svg(figure: Figure) -> str:
    pyplot = _pyplot()
    buffer = io.StringIO()
    figure.savefig(
        buffer,
        format="svg",
        bbox_inches="tight",
        metadata={"Date": None, "Creator": None, "Format": None, "Type": None},
    )
    pyplot.close(figure)
    text = buffer.getvalue()
    return text[text.index("<svg") :]


@dataclass(frozen=True, slots=True)
class RateBar:
    label: str
    value: float | None
    numerator: float
    denominator: float
    interval: Any = None
    """The rate's interval (``low``, ``high``), drawn as an error bar; None when it has none."""


def rates_chart(rates: Sequence[RateBar]) -> str:
    """A horizontal bar per rate on [0, 1]; a rate with no data gets no bar and says so (never a bar of 0)."""
    pyplot = _pyplot()
    figure, axes = pyplot.subplots(figsize=(7.5, 0.45 * len(rates) + 0.8))
    positions = list(range(len(rates)))
    axes.barh(
        positions,
        [rate.value or 0 for rate in rates],
        color=[RATE if rate.value is not None else "none" for rate in rates],
    )
    for position, rate in zip(positions, rates, strict=True):
        shown = (
            "unknown (no data)"
            if rate.value is None
            else f"{rate.value:.3f} ({rate.numerator:g} / {rate.denominator:g})"
        )
        anchor = 0.01 if rate.value is None else min(rate.value, 0.98) + 0.01
        axes.text(anchor, position, shown, va="center", color="#555555" if rate.value is None else "#111111")
    axes.set_yticks(positions, [rate.label for rate in rates])
    axes.invert_yaxis()
    axes.set_xlim(0, 1.35)
    axes.set_xticks([0, 0.25, 0.5, 0.75, 1])
    axes.set_xlabel("rate (numerator / denominator)")
    return _svg(figure)


def _interval_label(interval: Any) -> str:
    if interval is None:
        return ""
    return f", {interval.confidence * 100:g}% {interval.low:.3f}\u2013{interval.high:.3f}"


@dataclass(frozen=True, slots=True)
class ToolCounts:
    tool: str | None
    approvals: int
    denials: int
    unresolved: int


def tools_chart(tools: Sequence[ToolCounts]) -> str:
    """Approvals, denials and unresolved approval requests per target tool, stacked."""
    pyplot = _pyplot()
    figure, axes = pyplot.subplots(figsize=(7.5, 0.4 * len(tools) + 1.0))
    positions = list(range(len(tools)))
    approvals = [tool.approvals for tool in tools]
    denials = [tool.denials for tool in tools]
    axes.barh(positions, approvals, color=APPROVED, label="approved")
    axes.barh(positions, denials, left=approvals, color=DENIED, label="denied")
    axes.barh(
        positions,
        [tool.unresolved for tool in tools],
        left=[a + d for a, d in zip(approvals, denials, strict=True)],
        color=UNRESOLVED,
        label="unresolved",
    )
    axes.set_yticks(positions, [_tool_label(tool.tool) for tool in tools])
    axes.invert_yaxis()
    axes.set_xlabel("approval requests")
    axes.xaxis.get_major_locator().set_params(integer=True)
    axes.legend(loc="lower right", frameon=False)
    return _svg(figure)


def _tool_label(tool: str | None) -> str:
    return "(no target tool)" if tool is None else plain(tool, LABEL_LIMIT)


def _duration(milliseconds: int) -> str:
    for unit, size in (("d", 86_400_000), ("h", 3_600_000), ("min", 60_000), ("s", 1_000)):
        if milliseconds >= size and milliseconds % size == 0:
            return f"{milliseconds // size} {unit}"
    return f"{milliseconds} ms"


def bin_labels(edges_ms: Sequence[int]) -> list[str]:
    """``0-250 ms``, ..., ``1 d or more``: one label per bin."""
    labels = [f"{_duration(low)}-{_duration(high)}" for low, high in itertools.pairwise(edges_ms)]
    return [*labels, f"{_duration(edges_ms[-1])} or more"]


def floor_position(edges_ms: Sequence[int], floor_ms: float) -> float:
    """Where ``floor_ms`` falls on an axis with one unit per bin: a bin's lower edge at its index,
    linear within a bin (the last bin, open above, holds everything past its edge at its centre)."""
    for index, (low, high) in enumerate(itertools.pairwise(edges_ms)):
        if low <= floor_ms < high:
            return index - 0.5 + (floor_ms - low) / (high - low)
    return len(edges_ms) - 1.0


def latency_chart(
    edges_ms: Sequence[int], counts: Sequence[int], unknown: int, floor_ms: float, per_char: float
) -> str:
    """Observed latencies of approved approval requests per bin, the fast-approval floor drawn as a line;
    the approvals whose latency is unknown are said beside the bars and drawn nowhere."""
    pyplot = _pyplot()
    figure, axes = pyplot.subplots(figsize=(8.5, 3.4))
    positions = list(range(len(counts)))
    axes.bar(positions, counts, color=RATE)
    position = floor_position(edges_ms, floor_ms)
    axes.axvline(position, color=THRESHOLD, linestyle="--")
    axes.text(
        position,
        1.02,
        f"fast-approval floor {floor_ms:g} ms (+ {per_char:g} ms per character shown)",
        transform=axes.get_xaxis_transform(),
        color=THRESHOLD,
        ha="center",
    )
    axes.set_xticks(positions, bin_labels(edges_ms), rotation=45, ha="right")
    axes.set_ylabel("approved requests")
    axes.yaxis.get_major_locator().set_params(integer=True)
    axes.text(
        1.0,
        0.95,
        f"latency unknown: {unknown} (not plotted)",
        transform=axes.transAxes,
        ha="right",
        va="top",
        color="#555555",
    )
    return _svg(figure)
