"""Command-line interface: thin wrappers over :mod:`citekit.api`.

Each module below registers its commands on :data:`main`; importing them here is what
makes them appear.
"""

from .app import main

# Command modules (one per command family). Keep this list sorted.
from . import commands  # noqa: F401,E402

__all__ = ["main"]
