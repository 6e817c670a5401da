"""What every importer shares: its failures, the checks a mapped Run passes before it is written, the
suite hook. The command-line side (atomic output, progress, exit codes) is ``evalscore.cli.importing``."""
