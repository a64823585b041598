"""Commands: export (see docs/)."""
