"""The speed machinery behind the library, not inside it.

The parsed-library cache (:mod:`.parsed_cache`, its blobs and memo files), and
:class:`CachedLibrary`, which reads and stores it and gives the same entries and bytes as
:class:`..library.PlainLibrary`."""

from citekit.library.store.cache.library import CachedLibrary, fingerprint_now

__all__ = ["CachedLibrary", "fingerprint_now"]
