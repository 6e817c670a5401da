"""A mapped Run document, checked as evalscore's own readers would check it, then scored against a suite.

Every importer ends here: a document that cannot be written as a JSON line evalscore reads back, or
that is not a valid Run under the contract and its cross-field rules, is refused with the first
reason (and how many more), never written.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from evalscore.importers.shared.errors import UnmappableSourceError
from evalscore.importers.shared.suite_hook import apply_suite
from evalscore.importers.shared.value_checks import first_unwritable
from evalscore.inputs.strict_json import MAX_DEPTH
from evalscore.models import EvalSuite, Run


def checked_run(document: dict[str, Any], source: str, suite: EvalSuite | None) -> Run:
    """The validated Run of ``document``, its auto scores re-derived against ``suite`` when one is given."""
    unwritable = first_unwritable(document, MAX_DEPTH)
    if unwritable is not None:
        raise UnmappableSourceError(source, f"the mapped run cannot be written: {unwritable}")
    try:
        run = Run.model_validate(document)
    except ValidationError as error:
        raise UnmappableSourceError(source, f"the mapped run is not a valid Run: {first_error(error)}") from error
    return apply_suite(run, suite, source)


def first_error(error: ValidationError) -> str:
    first = error.errors()[0]
    where = "/".join(str(part) for part in first["loc"])
    more = error.error_count() - 1
    return f"{where}: {first['msg']}" + (f" (and {more} more)" if more else "")
