"""The pipeline's entry points (``running/pipeline.py``) as ``validate`` calls them: what they read
and what they record of each input."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

from evalscore.inputs.documents import InputRecord
from evalscore.running.pipeline import check_paths_in_stretches, checked_documents
from evalscore.validation.checker import CheckedArtifact

RUN = (Path(__file__).resolve().parents[2] / "fixtures" / "valid" / "run" / "full-v3.json").read_bytes()


def test_stretches_read_the_standard_input_they_are_given_and_hash_it_unless_told_not_to() -> None:
    records: list[InputRecord] = []
    checked = list(check_paths_in_stretches(["-"], stdin=io.BytesIO(RUN), on_input=records.append, jobs=1))
    assert len(checked) == 1
    assert isinstance(checked[0], CheckedArtifact)
    assert (checked[0].kind, checked[0].valid) == ("run", True)
    assert [(record.path, record.sha256) for record in records] == [("-", hashlib.sha256(RUN).hexdigest())]


def test_stretches_told_not_to_hash_record_no_digest() -> None:
    records: list[InputRecord] = []
    list(check_paths_in_stretches(["-"], stdin=io.BytesIO(RUN), on_input=records.append, jobs=1, digests=False))
    assert [(record.path, record.sha256) for record in records] == [("-", None)]


def test_documents_read_as_suites_are_checked_as_suites_whatever_they_look_like(tmp_path: Path) -> None:
    path = tmp_path / "looks-like-a-run.json"
    path.write_bytes(RUN)
    ((checked, value),) = list(checked_documents([str(path)], "eval-suite"))
    assert (checked.kind, checked.valid) == ("eval-suite", False)
    assert all(finding.layer == "contract" for finding in checked.findings)
    assert value == json.loads(RUN)
