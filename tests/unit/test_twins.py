"""Each fast path names the rules it mirrors: a registered rule or violation code with neither a
counterpart in its fast twin nor a stated reason fails here (CONTRIBUTING.md, "A new rule")."""

from __future__ import annotations

import inspect

from evalscore.coherence import walk_quick
from evalscore.coherence.registry import RULES
from evalscore.scoring.from_dicts import run as dict_run
from evalscore.scoring.violations import MANDATED, VIOLATION_CODES


def test_every_coherence_rule_has_its_quick_check_or_a_reason() -> None:
    mirrored, not_mirrored = walk_quick.MIRRORED, walk_quick.NOT_MIRRORED
    assert set(mirrored) | set(not_mirrored) == {rule.code for rule in RULES}
    assert not set(mirrored) & set(not_mirrored)
    assert len(mirrored) == 19
    assert all(callable(getattr(walk_quick, name, None)) for name in mirrored.values())
    assert all(reason.strip() for reason in not_mirrored.values())


def test_every_violation_code_has_its_dict_scorer_counterpart_or_a_reason() -> None:
    mirrored, not_mirrored = dict_run.MIRRORED_VIOLATIONS, dict_run.NOT_MIRRORED_VIOLATIONS
    assert set(mirrored) | set(not_mirrored) == set(VIOLATION_CODES)
    assert not set(mirrored) & set(not_mirrored)
    assert len(mirrored) == 16
    for code, method in mirrored.items():
        source = inspect.getsource(getattr(dict_run.RunScoring, method))
        if VIOLATION_CODES[code][0] == MANDATED:  # made by violations.approval_miss, shared by both paths
            assert "approval_miss(" in source, code
        else:
            assert f'"{code}"' in source, code
    assert all(code.startswith("recorded-") for code in not_mirrored)
