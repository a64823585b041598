"""Commands: paper (see docs/)."""
