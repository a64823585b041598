"""The error every library module raises when refs/ cannot be read or written safely."""


class LibraryError(Exception):
    """The library cannot be read or written safely; the message says what to do."""
