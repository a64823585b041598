"""Command-line interface: thin wrappers over :mod:`citekit.api` and the stage modules.

Each module beside this one registers its commands on :data:`main`; :data:`app.COMMANDS`
names the module of every command, which is imported only when that command runs.
"""

from .app import main

__all__ = ["main"]
