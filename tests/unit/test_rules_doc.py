"""docs/RULES.md lists exactly the rules of the registry, in order, and every syntax code."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

from evalscore.coherence.registry import RULES
from evalscore.finding_codes import CONTRACT_CODES, SYNTAX_CODES
from evalscore.scoring.refusal import RefusalCode
from evalscore.scoring.violations import VIOLATION_CODES

RULES_DOC = Path(__file__).resolve().parents[2] / "docs" / "RULES.md"
ROW = re.compile(r"^\|\s*(ES\d{3})\s*\|\s*([^|]+?)\s*\|\s*(error|warning)\s*\|\s*[^|]*\S[^|]*\|\s*$")


def _rows() -> list[tuple[str, str, str]]:
    return [match.groups() for line in RULES_DOC.read_text().splitlines() if (match := ROW.match(line))]  # type: ignore[misc]


def test_the_rules_doc_lists_exactly_the_registry_rules_in_order() -> None:
    documented = [row for row in _rows() if row[0] not in SYNTAX_CODES and row[0] not in CONTRACT_CODES]
    assert documented == [(rule.code, rule.name, rule.severity) for rule in RULES]
    assert len(documented) == len(RULES) > 0


def test_the_rules_doc_lists_every_syntax_code_with_its_name() -> None:
    documented = {code: name for code, name, _ in _rows() if code in SYNTAX_CODES}
    assert documented == SYNTAX_CODES


def test_the_rules_doc_lists_every_other_contract_code_with_its_name() -> None:
    documented = {code: name for code, name, _ in _rows() if code in CONTRACT_CODES}
    assert documented == CONTRACT_CODES


def test_no_code_is_documented_twice() -> None:
    codes = [code for code, _, _ in _rows()]
    assert len(codes) == len(set(codes)) > len(RULES)


def test_the_rules_doc_lists_exactly_the_refusal_codes() -> None:
    refusal_row = re.compile(r"^\|\s*`([a-z-]+)`\s*\|")
    documented = [m.group(1) for line in RULES_DOC.read_text().splitlines() if (m := refusal_row.match(line))]
    codes = list(get_args(RefusalCode))
    assert sorted(documented) == sorted(codes)
    assert len(codes) == 10


def test_the_rules_doc_lists_every_violation_code_under_its_rate() -> None:
    violation_row = re.compile(r"^\|\s*([a-z_]+)\s*\|\s*`([a-z-]+)`\s*\|\s*\S")
    documented = [m.groups() for line in RULES_DOC.read_text().splitlines() if (m := violation_row.match(line))]
    assert documented == [(rate, code) for code, (rate, _) in VIOLATION_CODES.items()]
    assert len(documented) == 22
