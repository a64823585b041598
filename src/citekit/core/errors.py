"""The one base of every error a user can fix: :class:`CitekitError`.

It lives in ``core`` so that every layer (the config reader, the library, the related-work
writer, the API) can subclass it without importing upwards. Each error carries the exit
code the command line ends with and, where there is one, the sentence that says what to
do next; the command line maps an error to its exit code from the error itself, never from
a list of module names.
"""

from __future__ import annotations


class CitekitError(Exception):
    """A failure the user can fix.

    ``exit_code``: 1 done with findings, 2 bad usage or input (nothing was written).
    ``next_step``: what to do about it, when the message does not already say so; the
    subclasses give a default one. ``str(error)`` is the message (with ``next_step`` appended
    when one was passed explicitly), exactly what the command line prints after ``citekit:``.
    """

    #: the exit code of the command this error ends
    exit_code: int = 1
    #: the default "what to do next" sentence of this kind of error
    NEXT_STEP: str = ""

    def __init__(self, message: str = "", exit_code: int | None = None, *, next_step: str | None = None) -> None:
        super().__init__(message if not next_step else f"{message} {next_step}")
        if exit_code is not None:
            self.exit_code = exit_code
        self._next_step = next_step

    @property
    def next_step(self) -> str:
        """What the user can do about it."""
        return self._next_step or self.NEXT_STEP


class UsageError(CitekitError):
    """Bad usage or missing input: exit code 2, nothing written."""

    exit_code = 2


__all__ = ["CitekitError", "UsageError"]
