"""Scoring from the checked run's dict, without building its model: ``score`` with suites on its hot path.

A second reader of the contract's meaning beside ``scoring.engine``, which stays the reference: for
every run it takes (``route``), its ``Partial`` equals the one ``engine.score_run`` gives from the
run's model (``tests/properties/test_dict_scorer_agrees.py``). One module per job: the suites
compiled once (``compiled``), the models' defaults (``defaults``), gates (``gates``), the comparison
with the record (``recorded``), signals (``oversight``), step facts (``tally``), the pass (``run``).
"""

from evalscore.scoring.from_dicts.compiled import CompiledIndex, compile_suites
from evalscore.scoring.from_dicts.route import scores_from_dict
from evalscore.scoring.from_dicts.run import RunScoring, run_step_count

__all__ = ["CompiledIndex", "RunScoring", "compile_suites", "run_step_count", "scores_from_dict"]
