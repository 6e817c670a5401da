"""The command line: thin click commands over functions that return exit codes."""
