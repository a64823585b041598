"""Core commands: extract, sync, list, show, export."""
