"""evalscore: validate and score recorded AI-agent runs from external deployments."""

__version__ = "0.1.0"
