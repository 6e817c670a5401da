"""Which runs were met before: a run met again would weigh twice, so it is refused instead."""

from __future__ import annotations

import hashlib
from typing import Final

from evalscore.scoring import aggregate as agg
from evalscore.scoring.engine import Partial, SourcedRun
from evalscore.scoring.join import step_count
from evalscore.scoring.refusal import RUN_REPEATED, Refusal

RUN_ID_DIGEST_BYTES: Final = 16
"""128 bits: two different ids share a digest with odds far below one in 10^20 for a billion runs,
and a chosen collision of BLAKE2b is out of reach."""


def run_id_digest(run_id: str) -> bytes:
    """A fixed-size key for a run id; a lone surrogate (a JSON ``\\ud800`` escape) is hashed as it is."""
    return hashlib.blake2b(run_id.encode(errors="surrogatepass"), digest_size=RUN_ID_DIGEST_BYTES).digest()


class RepeatedRuns:
    """The run ids scored so far: a run met again would weigh twice, so it is refused instead.

    The same log given twice, a JSONL line repeated twenty times, a symlink to a log
    in a walked directory: each would otherwise move every rate towards that run.
    """

    def __init__(self) -> None:
        self._first_source: dict[bytes, str] = {}
        """Where each run id was first met, keyed by a digest of the id: an id is a string of any
        length from the log, and keeping every one whole would let a log of long ids fill memory."""

    def refusal(self, sourced: SourcedRun) -> Partial | None:
        """None for a run id not met before (now remembered); else a refusal of the whole run."""
        return self.refusal_of(sourced.run.run_id, sourced.source, step_count(sourced.run))

    def refusal_of(self, run_id: str, source: str, steps: int) -> Partial | None:
        """``refusal`` of a run known by its id, source and step count (a run scored in another process)."""
        key = run_id_digest(run_id)
        first = self._first_source.get(key)
        if first is None:
            self._first_source[key] = source
            return None
        refusal = Refusal(
            code=RUN_REPEATED,
            reason=f"run {run_id!r} was already read from {first}; a run counted twice would weigh twice",
            pointer="/run_id",
            source=source,
            run_id=run_id,
            steps=steps,
        )
        return Partial(aggregate=agg.from_refused(refusal.steps), refusals=(refusal,))
