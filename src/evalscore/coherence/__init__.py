"""Cross-field rules that JSON Schema cannot express (the coherence layer)."""

from evalscore.coherence.registry import RULES, Rule
from evalscore.coherence.walk import coherence_findings

__all__ = ["RULES", "Rule", "coherence_findings"]
