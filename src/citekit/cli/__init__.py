"""Command-line interface: thin wrappers over :mod:`citekit.api` and the stage modules.

Each module below registers its commands on :data:`main`; importing them here is what
makes them appear.
"""

from .app import main

# Command modules, one per command family.
from . import commands, dedup, doctor, export, paper, related, tags  # noqa: F401,E402

__all__ = ["main"]
