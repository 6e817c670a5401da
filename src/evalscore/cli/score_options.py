"""What ``evalscore score`` was asked: its options, gathered once from the command line."""

from __future__ import annotations

from dataclasses import dataclass

from evalscore.cli.common import ColorChoice
from evalscore.running.cluster import ClusterSpec
from evalscore.running.parallel import worker_count
from evalscore.scoring.corpus import CorpusRequest
from evalscore.scoring.partials import DEFAULT_LISTED
from evalscore.scoring.signals import SignalParams
from evalscore.scoring.thresholds import Thresholds
from evalscore.vocabulary import ScoringModel


@dataclass(frozen=True, slots=True)
class ScoreOptions:
    runs: tuple[str, ...]
    suites: tuple[str, ...]
    scoring_model: ScoringModel | None
    thresholds: Thresholds
    baseline: str | None
    signal_params: SignalParams
    output_format: str
    max_document_bytes: int
    jobs: int | None = None
    """Processes checking and scoring a long JSONL file; None: every usable core."""
    output: str | None = None
    """``--output``: the file the report in ``output_format`` is written to (the text report then goes to stdout)."""
    html: str | None = None
    """``--html``: the file the HTML page of the report is written to as well."""
    ledger: str | None = None
    """``--ledger``: the decision ledger a record of the decision is appended to."""
    dask: ClusterSpec | None = None
    """``--dask``: the cluster the runs are checked and scored on; None: this machine."""
    color: ColorChoice = "auto"
    verbosity: int = 0
    """-1 ``-q``, 0, 1 ``-v``."""
    listed: int = DEFAULT_LISTED
    """``--max-listed``: how many violations, refusals, disagreements and gated steps the report lists, each."""

    def corpus_request(self) -> CorpusRequest:
        """What to read and how to score it (``scoring.corpus``)."""
        return CorpusRequest(
            runs=self.runs,
            suites=self.suites,
            scoring_model=self.scoring_model,
            signal_params=self.signal_params,
            max_document_bytes=self.max_document_bytes,
            listed=self.listed,
            workers=worker_count(self.jobs),
        )
