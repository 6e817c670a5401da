"""``--format json`` for score: the report value, with the keys its published schema names."""

from __future__ import annotations

import orjson

from evalscore.scoring.report import ScoreReport


def render_score_json(report: ScoreReport) -> str:
    return orjson.dumps(report.to_json_dict(), option=orjson.OPT_INDENT_2).decode() + "\n"
