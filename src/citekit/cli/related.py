"""Commands: related (see docs/)."""
