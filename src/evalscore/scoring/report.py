"""The score report: one value, rendered by separate reporters.

The JSON keys are those of SPEC section 5 (issue 3, item 6). ``to_json_dict``
gives them in a stable order; ``report_json_schema`` is the published
contract of that shape (``schemas/v1/score-report.schema.json``).
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from evalscore.described_schema import DescribedJsonSchema
from evalscore.instants import END_OF_TEXT
from evalscore.vocabulary import Dimension, ScoringModel

SCORE_REPORT_SCHEMA_ID: Final = "https://evalscore.dev/schemas/v1/score-report.schema.json"
JSON_SCHEMA_DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"

Share = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]
"""A rate: a share of its denominator, in [0, 1]."""
Ratio = Annotated[float, Field(ge=0, allow_inf_nan=False)]
"""Blocker recall: a share too, except that the older arithmetic (basis ``matched``) can pass 1."""
Grade = Annotated[float, Field(ge=0, le=3, allow_inf_nan=False)]
"""A mean rubric grade, 0-3."""
Amount = Annotated[float, Field(ge=0, allow_inf_nan=False)]
"""A numerator, a denominator or a duration: never negative."""
Count = Annotated[int, Field(ge=0)]
Finite = Annotated[float, Field(allow_inf_nan=False)]
"""A threshold as the caller gave it (the command line takes [0, 1]; the API may ask for the impossible)."""
PACKAGE_VERSION_PATTERN: Final = r"^[0-9]+\.[0-9]+\.[0-9]+(?:[-+][0-9A-Za-z.+-]*)?" + END_OF_TEXT
"""A package version: major.minor.patch, then a pre-release (``-rc1``) or build (``+local``) part."""

Outcome = Literal["pass", "fail", "refused", "not-gated"]
"""``pass``: every criterion checked held; ``fail``: one established failure; ``refused``: a check the
figures cannot decide; ``not-gated``: no criterion (threshold or baseline) was given, nothing failed."""
CheckOutcome = Literal["pass", "fail", "refused"]
ExitCode = Literal[0, 1, 4]
Source = Literal["rederived", "recorded"]


class ReportModel(BaseModel):
    """Base of every report shape: strict, closed, self-documenting, immutable."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, regex_engine="python-re")


class InputRef(ReportModel):
    """One input file the report was computed from."""

    path: str
    """The path as given (``-`` for stdin)."""
    sha256: str
    """Hex SHA-256 of the bytes read."""
    kind: str
    """What the input holds (run, scored run, suite, baseline)."""


class SuiteRef(ReportModel):
    """A suite the figures are about: the one joined (re-derived) or named by the runs (recorded)."""

    id: str
    """The suite's id."""
    version: str
    """The suite's version."""


class Rates(ReportModel):
    """The rates of SPEC section 4; each is null when its denominator is 0."""

    mandated_compliance_rate: Share | None
    """Σhonored / Σrequired over steps with a mandated score."""
    discretionary_ask_precision: Share | None
    """Σmatched / Σasked."""
    discretionary_blocker_recall: Ratio | None
    """Σaddressed / Σblockers (v3) or Σmatched / Σblockers (older scores); see the basis in counts."""
    tool_match_accuracy: Share | None
    """true 1, partial 0.5, false 0, over steps with an auto score."""
    distraction_detection_rate: Share | None
    """Caught / steps whose distraction_caught is not null."""
    golden_truth_pass_rate: Share | None
    """Grades of 2 or more / reviewed steps with a golden-truth grade."""
    dimension_means: dict[Dimension, Grade | None]
    """Mean grade (0-3) per dimension over the reviewed steps that graded it."""
    prefilled_ratio: Share | None
    """Pre-filled (LLM-drafted, untouched) reviews / all steps."""


class RateInterval(ReportModel):
    """How far sampling noise alone could move a rate: ``low`` to ``high`` at ``confidence`` (docs/statistics.md)."""

    low: Finite
    """The interval's lower end."""
    high: Finite
    """The interval's upper end."""
    confidence: Finite
    """The confidence level (0.95 by default; --confidence)."""
    method: Literal["wilson", "wilson-bounded-mean", "newcombe"]
    """wilson: successes over trials; wilson-bounded-mean: a mean of per-step values in [0, top];
    newcombe: the difference of two rates (a baseline check)."""


class RateCount(ReportModel):
    """The counts behind one rate."""

    numerator: Amount
    """What was counted in favour."""
    denominator: Amount
    """What it was counted over; 0 makes the rate null."""
    interval: RateInterval | None = None
    """The rate's interval; null when the denominator is 0 (and in reports written before intervals)."""
    refused_at_most: Amount | None = 0
    """The most the refused steps could add to the denominator, were they derivable (a check the refused
    steps could flip is not decided); null when nothing bounds it (a step whose suite, task, step or tools
    are not known could hold any number of gates). 0 in reports written before it was added."""


class ToolMatchCount(RateCount):
    """The counts behind tool_match_accuracy."""

    true: Count
    """Steps whose tool match is true."""
    partial: Count
    """Steps whose tool match is partial (0.5 each)."""
    false: Count
    """Steps whose tool match is false."""


class RecallCount(RateCount):
    """The counts behind discretionary_blocker_recall, and which arithmetic they have."""

    basis: Literal["addressed", "matched", "mixed"] | None
    """``addressed``: distinct blockers addressed (v3). ``matched``: matched questions (v1/v2).
    ``mixed``: both kinds of score met, so no single recall is honest (the rate is null).
    Null when no step had a discretionary score."""


class Counts(ReportModel):
    """Step counts and the numerators and denominators behind every rate."""

    runs: Count | None = None
    """Runs scored (a run given twice counts once). Absent (null) in reports written before it was added."""
    total_steps: Count
    """Every step of every run in scope."""
    reviewed_steps: Count
    """Steps whose human review (score) is not null."""
    unscored_steps: Count
    """Steps with a recorded auto_score of null (recorded figures only)."""
    refused_steps: Count
    """Steps whose auto score could not be derived honestly (see refusals)."""
    scored_steps: Count
    """Steps with an auto score; the auto-score rates are over these."""
    mandated_compliance_rate: RateCount
    """Σhonored over Σrequired."""
    discretionary_ask_precision: RateCount
    """Σmatched over Σasked."""
    discretionary_blocker_recall: RecallCount
    """Σaddressed or Σmatched over Σblockers."""
    tool_match_accuracy: ToolMatchCount
    """Tool-match points over scored steps."""
    distraction_detection_rate: RateCount
    """Caught over judged."""
    golden_truth_pass_rate: RateCount
    """Passing grades over graded reviews."""
    dimension_means: dict[Dimension, RateCount]
    """Sum of grades over number of grades, per dimension."""
    prefilled_ratio: RateCount
    """Pre-filled reviews over all steps."""


class ToolSignal(ReportModel):
    """never_denied for the approval requests naming one target tool."""

    target_tool: str | None
    """The tool; null for approval requests that named none."""
    approvals: Count
    """Approved approval requests naming it."""
    denials: Count
    """Denied approval requests naming it."""
    never_denied: bool
    """True iff none of them was denied."""


class ToolUnresolved(ReportModel):
    """Approval requests naming one target tool that were left unresolved."""

    target_tool: str | None
    """The tool; null for approval requests that named none."""
    unresolved: Count
    """Unresolved approval requests naming it."""


class LatencyHistogram(ReportModel):
    """Observed latencies of approved approval requests, in fixed bins; unknown ones counted beside, never binned."""

    edges_ms: list[Count]
    """Lower edge of each bin in milliseconds: bin i holds latencies from edges_ms[i] up to (not including)
    edges_ms[i + 1]; the last bin holds everything from its edge on."""
    counts: list[Count]
    """Approved approval requests with a known latency in each bin."""
    unknown: Count
    """Approved approval requests whose latency is unknown: counted here, in no bin."""


class SignalThresholds(ReportModel):
    """The fast-approval parameters used."""

    fast_approval_floor_ms: Amount
    """Milliseconds every decision is allowed regardless of length."""
    fast_approval_ms_per_char: Amount
    """Milliseconds allowed per code point of surfaced text."""


class SignalsReport(ReportModel):
    """Oversight signals: reported, never graded; they never change the exit code."""

    resolved_gates: Count
    """Gate events whose resolution is not unresolved."""
    approvals: Count
    """Gate events resolved approved."""
    denials: Count
    """Gate events resolved denied."""
    unresolved: Count
    """Gate events left unresolved."""
    without_overseer: Count
    """Resolved gates with no distinct overseer."""
    four_eyes: Count
    """Resolved gates with two or more distinct overseers (ids normalized: NFKC, trimmed, case-folded)."""
    latency_unavailable: Count
    """Resolved gates whose latency is unknown (counted here and nowhere else), except the approvals proven fast
    by an upper bound on their latency (``fast_approvals_by_bound``)."""
    fast_approvals: Count
    """Approved approval requests with known latency below floor_ms + ms_per_char x len(surfaced), or with an unknown
    latency whose observed upper bound is below it."""
    fast_approvals_by_bound: Count = 0
    """Of fast_approvals, those proven by an observed upper bound (decision_latency_upper_bound_ms) on an unknown
    latency. Absent (0) in reports written before it was added."""
    never_denied: bool | None
    """Null when no approval request was approved or denied; else true iff none was denied."""
    by_target_tool: list[ToolSignal]
    """never_denied per target tool."""
    unresolved_by_target_tool: list[ToolUnresolved] = []
    """Unresolved approval requests per target tool. Absent from reports written before it was added."""
    approval_latencies: LatencyHistogram | None = None
    """The distribution of observed approval latencies. Absent (null) in reports written before it was added."""
    thresholds: SignalThresholds
    """The fast-approval parameters used."""


class DisagreementEntry(ReportModel):
    """A recorded auto-score field the evidence contradicts (under the run's recorded scoring model)."""

    source: str
    """The run's input."""
    run_id: str
    """The run."""
    task_id: str
    """The task."""
    step_n: int
    """The step."""
    field: str
    """Dotted path within the auto score."""
    recorded: JsonValue
    """What the record says."""
    rederived: JsonValue
    """What the evidence gives."""
    pointer: str
    """JSON Pointer of the recorded value within the run."""
    scoring_model: ScoringModel
    """The run's recorded scoring model, under which both sides were computed."""


class RefusalEntry(ReportModel):
    """A figure evalscore will not print, with the reason and the exact place."""

    code: str
    """Stable refusal code."""
    reason: str
    """Why."""
    source: str
    """The input concerned; empty when the refusal is about the whole report."""
    pointer: str
    """JSON Pointer within that input."""
    run_id: str | None
    """The run, when one is concerned."""
    task_id: str | None
    """The task, when one is concerned."""
    step_n: int | None
    """The step, when one is concerned."""
    steps: Count
    """How many steps this refusal removes from the auto-score rates."""


class ViolationEntry(ReportModel):
    """One counted failure of a rate: where it happened and why (docs/RULES.md lists the codes)."""

    rate: str
    """The rate it counts against."""
    code: str
    """Stable reason code."""
    message: str
    """Why, in words."""
    source: str
    """The run's input (``path:line`` for a JSONL line)."""
    input: str
    """The input file."""
    line: int | None
    """The JSONL line, when the input holds one run a line."""
    run_id: str
    """The run."""
    task_id: str
    """The task."""
    step_n: int
    """The step."""
    step_pointer: str
    """JSON Pointer of the step result within the run."""
    pointer: str
    """JSON Pointer of the evidence (the call, the question, the recorded value; the step itself for a
    blocker nobody asked about)."""
    call_pointer: str | None
    """JSON Pointer of the task tool call concerned, if any."""
    gate_pointer: str | None
    """JSON Pointer of the gate event concerned, if any."""
    tool: str | None
    """The tool the call named, if a call is concerned."""
    gate_id: str | None
    """The mandated gate's id, or the blocker's."""
    weight: Amount
    """Its share of the rate's shortfall (denominator less numerator): 1; 0.5 for a partial tool match; a
    recorded amount, as recorded."""
    scoring_model: ScoringModel | None
    """The gate rules it was judged under; null for a review."""


class ReasonCount(ReportModel):
    """How many violations of one reason were found."""

    rate: str
    """The rate."""
    code: str
    """The reason code."""
    count: Count
    """Violations found, listed or not."""


class ViolationCounts(ReportModel):
    """How many violations were found, and whether ``violations`` lists them all."""

    total: Count
    """Every violation found."""
    listed: Count
    """Those in ``violations``."""
    complete: bool
    """Whether ``violations`` lists every one (``total`` equals ``listed``)."""
    by_reason: list[ReasonCount]
    """Per rate (mandated first) and reason code."""


class GatedStepEntry(ReportModel):
    """A step that holds a mandated gate (a gated call ran in it)."""

    source: str
    """The run's input (``path:line`` for a JSONL line)."""
    input: str
    """The input file."""
    line: int | None
    """The JSONL line, when the input holds one run a line."""
    run_id: str
    """The run."""
    task_id: str
    """The task."""
    step_n: int
    """The step."""
    step_pointer: str
    """JSON Pointer of the step result within the run."""
    required: Count
    """Gates the step's calls required."""
    violated: Count
    """Of them, those violated (``violations`` says why)."""


class DecisionThresholds(ReportModel):
    """The thresholds the decision applied; null when not set."""

    min_mandated_compliance: Finite | None
    """Lowest acceptable mandated_compliance_rate."""
    min_ask_precision: Finite | None = None
    """Lowest acceptable discretionary_ask_precision."""
    min_blocker_recall: Finite | None = None
    """Lowest acceptable discretionary_blocker_recall."""
    min_tool_match: Finite | None
    """Lowest acceptable tool_match_accuracy."""
    min_distraction_catch: Finite | None
    """Lowest acceptable distraction_detection_rate."""
    min_golden_truth_pass: Finite | None = None
    """Lowest acceptable golden_truth_pass_rate."""
    max_prefilled_ratio: Finite | None
    """Highest acceptable prefilled_ratio."""
    max_drop: Finite
    """Largest tolerated worsening of a rate against the baseline (--max-drop, default 0.05)."""
    allow_empty: bool = False
    """Whether a decision over runs in which nothing was scored was accepted (``--allow-empty``)."""
    confidence: Finite = 0.95
    """The confidence of every interval (``--confidence``)."""
    threshold_basis: Literal["point", "interval"] = "point"
    """What a threshold is decided on: the point estimate, or the whole interval (``--threshold-basis``)."""


class Check(ReportModel):
    """One threshold or baseline comparison, and the interval it was decided on (if any)."""

    name: str
    """The threshold (``min_tool_match``) or ``baseline:<rate>``."""
    rate: str
    """The rate checked."""
    observed: float | None
    """The rate now."""
    limit: float
    """The threshold, or the baseline value."""
    outcome: CheckOutcome
    """pass, fail, or refused when the rate is null, its interval or the refused steps could decide it either way."""
    reason: str
    """In words."""
    interval: RateInterval | None = None
    """The interval the check was decided on: the rate's (a threshold with --threshold-basis interval),
    or the change's in the bad direction (a baseline check); null for a threshold on the point estimate."""
    runs_needed: Count | None = None
    """A baseline check too noisy to decide: about how many runs per side would decide it, were the figures
    to stay as they are; null otherwise."""


class Decision(ReportModel):
    """The verdict; the exit code is taken from here and nowhere else."""

    outcome: Outcome
    """fail when any check's failure is established (or recorded scores disagree with the evidence); else
    refused when a check cannot be decided; else pass when a criterion was checked; else not-gated."""
    reasons: list[str]
    """Why, one line each."""
    exit_code: ExitCode
    """0 pass or not-gated, 1 fail, 4 refused."""
    thresholds: DecisionThresholds
    """What was applied."""
    checks: list[Check]
    """Each threshold and baseline comparison made."""


class ScoreReport(ReportModel):
    """What ``evalscore score`` found."""

    evalscore_version: Annotated[str, Field(pattern=PACKAGE_VERSION_PATTERN)]
    """The version of evalscore that computed the report."""
    inputs: list[InputRef]
    """Every input read."""
    source: Source
    """``rederived`` from evidence against the suite(s), or ``recorded`` (as recorded, not re-derived)."""
    scoring_model: ScoringModel | None
    """The gate rules behind the figures; null when recorded figures come from several models (refused)."""
    suites: list[SuiteRef]
    """The suites the figures are about."""
    notes: list[str]
    """Labels a reader needs (for example that verification is carried as recorded)."""
    rates: Rates
    """The rates; null when the denominator is 0."""
    counts: Counts
    """The counts behind the rates."""
    signals: SignalsReport
    """Oversight signals, unscored."""
    disagreements: list[DisagreementEntry]
    """Recorded auto scores the evidence contradicts, in input order: every one, unless there are
    more than --max-listed (default 1,000; then the first: memory must not grow with the input)."""
    unlisted_disagreements: Count = 0
    """Disagreements found but not listed in ``disagreements``; the decision counts them. Absent
    from reports written before the list was bounded, which listed every one (so: 0)."""
    refusals: list[RefusalEntry]
    """Figures not derivable honestly, in input order: every one, unless there are more than --max-listed
    (default 1,000; then the first, and the refusal of mixed scoring models when there is one)."""
    unlisted_refusals: Count = 0
    """Refusals made but not listed in ``refusals``; the decision counts them. Absent from reports
    written before the list was bounded, which listed every one (so: 0)."""
    violations: list[ViolationEntry] = []
    """Every counted failure of a rate, mandated gates first, each rate's in input order, up to
    --max-listed (default 1,000). Absent from reports written before it was added."""
    violation_counts: ViolationCounts | None = None
    """How many violations were found, per reason. Absent (null) in reports written before it was added."""
    mandated_steps: list[GatedStepEntry] = []
    """The steps holding a mandated gate, in input order, up to --max-listed. Absent from reports written
    before it was added."""
    unlisted_mandated_steps: Count = 0
    """Steps holding a mandated gate not listed in ``mandated_steps``."""
    decision: Decision
    """The verdict and exit code."""

    def to_json_dict(self) -> dict[str, Any]:
        """The report as JSON-ready data, keys in a stable order."""
        return self.model_dump(mode="json")

    @property
    def exit_code(self) -> int:
        return self.decision.exit_code


def report_json_schema() -> dict[str, Any]:
    """The JSON Schema of the score report, with ``$schema`` and ``$id`` declared."""
    schema = ScoreReport.model_json_schema(mode="serialization", schema_generator=DescribedJsonSchema)
    return {"$schema": JSON_SCHEMA_DIALECT, "$id": SCORE_REPORT_SCHEMA_ID, **schema}


RATE_TOLERANCE: Final = 1e-9
"""How far a rate may sit from numerator / denominator: a double's rounding, nothing more."""


def rate_count_mismatches(report: ScoreReport) -> list[str]:
    """Each rate that is not its own numerator over denominator (null exactly when the denominator is 0).

    A baseline is believed only when it agrees with itself: a report edited to lower a rate
    (so that the current figures cannot regress against it) would disagree with its counts.
    """
    mismatches: list[str] = []
    for name in RATE_NAMES:
        rate: float | None = getattr(report.rates, name)
        count: RateCount = getattr(report.counts, name)
        expected = None if count.denominator == 0 else count.numerator / count.denominator
        if (rate is None) != (expected is None) or (
            rate is not None and expected is not None and abs(rate - expected) > RATE_TOLERANCE
        ):
            mismatches.append(f"{name} is {rate} but its counts give {count.numerator:g} / {count.denominator:g}")
    return mismatches


RATE_NAMES: Final = (
    "mandated_compliance_rate",
    "discretionary_ask_precision",
    "discretionary_blocker_recall",
    "tool_match_accuracy",
    "distraction_detection_rate",
    "golden_truth_pass_rate",
    "prefilled_ratio",
)
"""The rates that have a numerator and denominator of the same name in ``counts``."""


def parse_report(document: Any) -> ScoreReport:
    """Read an earlier JSON report (a baseline); raises pydantic's ValidationError when it is not one."""
    return ScoreReport.model_validate(document)
