"""The error every library module raises when refs/ cannot be read or written safely."""

from citekit.core.errors import CitekitError


class LibraryError(CitekitError):
    """The library cannot be read or written safely; the message says what to do."""

    exit_code = 2
    NEXT_STEP = "Run `citekit doctor` to see what is wrong with refs/ and how to repair it."


class WriteFailed(LibraryError):
    """The operating system refused a write (disk full, read-only, permissions).

    ``os_error`` is kept so the command line explains the fault the one way it explains
    every such error; the message adds what the transaction guarantees about refs/.
    """

    def __init__(self, message: str, os_error: OSError, *, committed: bool = False) -> None:
        super().__init__(message)
        self.os_error = os_error
        #: True when the new state was committed but not yet switched in (the next command finishes it)
        self.committed = committed
