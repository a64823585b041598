"""Building a library's worth of objects without the cyclic garbage collector."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

#: commands running in this process (see :func:`one_command`)
_commands = 0


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while a library's worth of objects is built.

    Reading a 7,000-entry file makes some 150,000 small objects, none of them in a cycle;
    each collection the growing heap triggers walks all of them again, which doubled the
    time of reading such a file (and made each load slower than the one before). Nested
    uses leave the collector to the outermost one.

    The objects made meanwhile are all still in the youngest generation when the collector
    comes back, so its next collections walk every one of them once more (0.2-0.3 s after
    an import of that file). Within :func:`one_command` they are frozen instead: kept out
    of collections until the command ends.
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            if _commands:
                gc.freeze()
            gc.enable()


@contextmanager
def one_command() -> Iterator[None]:
    """One command-line command: what :func:`collector_paused` freezes is handed back to
    the collector when it ends (a process that ends with the command never pays for it;
    one that runs many, such as a test run, still gets its cyclic garbage collected)."""
    global _commands
    _commands += 1
    try:
        yield
    finally:
        _commands -= 1
        if not _commands:
            gc.unfreeze()
