"""``python -m evalscore``."""

from evalscore.cli.main import main

main()
