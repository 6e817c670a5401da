"""``--format json`` for score: the report value, with the keys its published schema names."""

from __future__ import annotations

from evalscore.json_output import dumps_text
from evalscore.scoring.report import ScoreReport


def render_score_json(report: ScoreReport) -> str:
    return dumps_text(report.to_json_dict())
