"""Commands: dedup (see docs/)."""
