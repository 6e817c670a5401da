"""Partial scores: what scoring part of a corpus gives, and their sum in input order.

Work splits per run into ``Partial`` values that merge (``merge_partials``, ``PartialSum``), so runs
are scored in several processes and added up in the parent. Nothing here needs the models: a forked
worker that scores checked dicts sends partials without importing pydantic.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, TypeVar

from evalscore import listing
from evalscore.listing import Listing
from evalscore.pickled_as_fields import pickled_as_fields
from evalscore.scoring import aggregate as agg
from evalscore.scoring.compare import Disagreement, disagreement_text
from evalscore.scoring.refusal import Refusal, refusal_text, refused_counts
from evalscore.scoring.signals import Signals, SignalSum, empty_signals
from evalscore.scoring.violations import GatedStep, Violation, ViolationListing, gated_step_text
from evalscore.vocabulary import ScoringModel

_T = TypeVar("_T")

MAX_LISTED: Final = 10_000
"""The most ``--max-listed`` may ask a report to list of each kind."""
LISTED_PER_KIND: Final = MAX_LISTED
"""Refusals, disagreements, violations of each rate, and steps holding a mandated gate, a partial keeps
to list: past these they are counted, not kept, so memory does not grow with the input (a log where
every step is refused has as many refusals as steps). A report lists fewer (``--max-listed``)."""
DEFAULT_LISTED: Final = 1_000
"""Violations, refusals, disagreements and steps holding a mandated gate a report lists at most of each
by default (``--max-listed``, at most ``LISTED_PER_KIND``); the rest are counted."""
LISTED_TEXT: Final = listing.LISTED_TEXT
"""Characters of text the listed refusals (and, apart, the listed disagreements) may hold: fewer are
listed when they would hold more (an id or a quoted value is as long as the log makes it)."""
SOURCES_PER_MODEL: Final = 10
"""Sources named per recorded scoring model (the mixed-model refusal); the other runs are counted."""

RefusalTally = tuple[tuple[str, int, int], ...]
"""``(code, refusals, steps they cover)`` per refusal code, sorted by code."""
ViolationTally = tuple[tuple[str, int], ...]
"""``(code, violations)`` per violation code, sorted by code."""


@pickled_as_fields
@dataclass(frozen=True, slots=True)
class ModelRuns:
    """The runs recorded under one scoring model: how many, and the first ``SOURCES_PER_MODEL`` sources."""

    model: ScoringModel
    runs: int
    sources: tuple[str, ...]
    """In input order."""


@pickled_as_fields
@dataclass(frozen=True, slots=True)
class Partial:
    """What scoring part of a corpus gives; ``merge_partials`` combines parts in input order.

    Findings are listed up to ``LISTED_PER_KIND`` per kind, the first in input order; the others
    are counted (``unlisted_*``) so that the decision still sees every one.
    """

    aggregate: agg.Aggregate = field(default_factory=agg.empty)
    signals: Signals = field(default_factory=empty_signals)
    disagreements: tuple[Disagreement, ...] = ()
    unlisted_disagreements: int = 0
    """Disagreements found past the listed ones."""
    refusals: tuple[Refusal, ...] = ()
    unlisted_refusals: RefusalTally = ()
    """Refusals made past the listed ones, per code."""
    recorded_models: tuple[ModelRuns, ...] = ()
    """The runs per recorded scoring model, sorted by model."""
    suites: frozenset[tuple[str, str]] = frozenset()
    """``(suite_id, suite_version)`` every run names."""
    violations: tuple[Violation, ...] = ()
    """Per rate, the first violations in input order (``violations.ViolationListing``)."""
    unlisted_violations: ViolationTally = ()
    """Violations found past the listed ones, per code."""
    gated_steps: tuple[GatedStep, ...] = ()
    """The first steps holding a mandated gate, in input order."""
    unlisted_gated_steps: int = 0
    """Steps holding a mandated gate past the listed ones."""


EMPTY_PARTIAL: Final = Partial()
"""The identity of ``merge_partials``."""


def merge_partials(left: Partial, right: Partial) -> Partial:
    """``left`` then ``right``: exactly what one pass over both gives (the first listed items of a
    concatenation are the first of ``left``, then as many of ``right`` as fit)."""
    total = PartialSum(left)
    total.add(right)
    return total.total()


def listed_per_kind(listed: int | None) -> int:
    """How many of each kind a sum keeps: what the report will list (a worker keeping more would only send
    what the parent drops), never past ``LISTED_PER_KIND``."""
    return LISTED_PER_KIND if listed is None else min(listed, LISTED_PER_KIND)


def fill(kept: list[_T], items: Sequence[_T], bound: int) -> Sequence[_T]:
    """Append to ``kept`` the first of ``items`` that fit under ``bound``; return the others."""
    room = max(bound - len(kept), 0)
    kept.extend(items[:room])
    return items[room:]


class PartialSum:
    """Partials added up in place, in input order: adding a part costs the size of the part, never
    of the sum so far, so a corpus of n runs (or a run of n steps) is summed in O(n). What it keeps
    is bounded: ``LISTED_PER_KIND`` refusals and disagreements, ``SOURCES_PER_MODEL`` sources per
    recorded model, counts for the rest, a tally per refusal code, tool and suite."""

    __slots__ = (
        "_aggregate",
        "_disagreement_listing",
        "_disagreements",
        "_gated",
        "_model_runs",
        "_model_sources",
        "_refusal_listing",
        "_refusals",
        "_signals",
        "_suites",
        "_unlisted_disagreements",
        "_unlisted_refusals",
        "_violations",
    )

    def __init__(self, first: Partial = EMPTY_PARTIAL, listed: int | None = None) -> None:
        """A sum holding ``first``, keeping ``listed`` items of each kind to list (``LISTED_PER_KIND`` if None)."""
        kept = listed_per_kind(listed)
        self._aggregate = agg.AggregateSum()
        self._signals = SignalSum()
        self._disagreements: list[Disagreement] = []
        self._disagreement_listing = Listing(kept, LISTED_TEXT)
        self._unlisted_disagreements = 0
        self._refusals: list[Refusal] = []
        self._refusal_listing = Listing(kept, LISTED_TEXT)
        self._unlisted_refusals: dict[str, list[int]] = {}
        self._model_runs: dict[ScoringModel, int] = {}
        self._model_sources: dict[ScoringModel, list[str]] = {}
        self._suites: set[tuple[str, str]] = set()
        self._violations = ViolationListing(kept, LISTED_TEXT)
        self._gated = GatedListing(kept)
        self.add(first)

    def add(self, part: Partial) -> None:
        self._aggregate.add(part.aggregate)
        self._signals.add(part.signals)
        self.add_disagreements(part.disagreements)
        if part.unlisted_disagreements:  # what the part left unlisted came after what it listed
            self._disagreement_listing.close()
            self._unlisted_disagreements += part.unlisted_disagreements
        for refusal in part.refusals:
            self._list_refusal(refusal)
        for code, refusals, steps in part.unlisted_refusals:
            self._refusal_listing.close()
            self._count_unlisted(code, refusals, steps)
        for runs in part.recorded_models:
            self._add_model_runs(runs.model, runs.runs, runs.sources)
        self._suites.update(part.suites)
        self.add_violations(part.violations)
        for code, count in part.unlisted_violations:
            self._violations.add_unlisted(code, count)
        self._gated.add_part(part.gated_steps, part.unlisted_gated_steps)

    # What one run adds, straight into the sum: the hot path builds no ``Partial`` per step.

    def add_step_counts(self, counts: Mapping[str, object]) -> None:
        """One step's facts (``aggregate.auto_counts``, ``aggregate.review_counts``)."""
        self._aggregate.add_counts(counts)

    def add_signals(self, signals: Signals) -> None:
        self._signals.add(signals)

    def add_disagreements(self, items: Sequence[Disagreement]) -> None:
        for item in items:
            if self._disagreement_listing.take(disagreement_text(item)):
                self._disagreements.append(item)
            else:
                self._unlisted_disagreements += 1

    def add_refusal(self, refusal: Refusal) -> None:
        """A refusal, and the ``refusal.steps`` steps it removes from the auto-score rates."""
        self._aggregate.add_counts(refused_counts(refusal))
        self._list_refusal(refusal)

    def add_violations(self, items: Sequence[Violation]) -> None:
        for item in items:
            self._violations.add(item)

    def add_gated_step(self, step: GatedStep) -> None:
        self._gated.add(step)

    def _list_refusal(self, refusal: Refusal) -> None:
        if self._refusal_listing.take(refusal_text(refusal)):
            self._refusals.append(refusal)
        else:
            self._count_unlisted(refusal.code, 1, refusal.steps)

    def add_run(self, model: ScoringModel, source: str, suite: tuple[str, str]) -> None:
        """A run recorded under ``model``, read from ``source``, naming ``suite``."""
        self._add_model_runs(model, 1, (source,))
        self._suites.add(suite)

    def _add_model_runs(self, model: ScoringModel, runs: int, sources: Sequence[str]) -> None:
        self._model_runs[model] = self._model_runs.get(model, 0) + runs
        fill(self._model_sources.setdefault(model, []), sources, SOURCES_PER_MODEL)

    def _count_unlisted(self, code: str, refusals: int, steps: int) -> None:
        tally = self._unlisted_refusals.setdefault(code, [0, 0])
        tally[0] += refusals
        tally[1] += steps

    def total(self) -> Partial:
        return Partial(
            aggregate=self._aggregate.total(),
            signals=self._signals.total(),
            disagreements=tuple(self._disagreements),
            unlisted_disagreements=self._unlisted_disagreements,
            refusals=tuple(self._refusals),
            unlisted_refusals=tuple(
                (code, refusals, steps) for code, (refusals, steps) in sorted(self._unlisted_refusals.items())
            ),
            recorded_models=tuple(
                ModelRuns(model, self._model_runs[model], tuple(self._model_sources[model]))
                for model in sorted(self._model_runs)
            ),
            suites=frozenset(self._suites),
            violations=self._violations.items(),
            unlisted_violations=self._violations.unlisted_tally(),
            gated_steps=tuple(self._gated.items),
            unlisted_gated_steps=self._gated.unlisted,
        )


class GatedListing:
    """The first steps holding a mandated gate, in input order, and a count of the others."""

    __slots__ = ("_listing", "items", "unlisted")

    def __init__(self, listed: int | None = None) -> None:
        self._listing = Listing(listed_per_kind(listed), LISTED_TEXT)
        self.items: list[GatedStep] = []
        self.unlisted = 0

    def has_room(self) -> bool:
        """Whether a step may still be listed (else it is only counted: build nothing)."""
        return not self._listing.full()

    def add(self, step: GatedStep) -> None:
        if self.has_room() and self._listing.take(gated_step_text(step)):  # a full one needs no text measured
            self.items.append(step)
        else:
            self.unlisted += 1

    def add_part(self, steps: Sequence[GatedStep], unlisted: int) -> None:
        for position, step in enumerate(steps):
            if not self.has_room():  # the rest of the part is only counted
                self.unlisted += len(steps) - position
                break
            self.add(step)
        if unlisted:
            self._listing.close()
            self.unlisted += unlisted


def sum_partials(parts: Iterable[Partial]) -> Partial:
    """``merge_partials`` over ``parts`` in order, in linear time."""
    total = PartialSum()
    for part in parts:
        total.add(part)
    return total.total()
