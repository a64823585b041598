"""Commands: tags (see docs/)."""
