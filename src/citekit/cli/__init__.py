"""Command-line interface: each command parses options, makes one :mod:`citekit.api` call and prints.

Each module beside this one registers its commands on :data:`main`; :data:`app.COMMANDS`
names the module of every command, which is imported only when that command runs.
"""

from citekit.cli.app import main

__all__ = ["main"]
