"""The library on disk: ``refs/library.bib`` plus the ``refs/library.yaml`` sidecar.

One job per module: :mod:`.library` (the entries, with no cache: :class:`PlainLibrary`),
:mod:`.files` (reading the pair, recovery, atomic writes), :mod:`.parse` (both files'
bytes as a library), :mod:`.header` (the checksum line), :mod:`.reconcile` (hand-edit
detection), :mod:`.kept` (text between entries), :mod:`.render` (an entry's texts),
:mod:`.sidecar` (the sidecar format), :mod:`.kinds` (the names of derived values kept in
the cache) and :mod:`.cache` (the speed machinery behind it all).

``Library`` is what commands load: the :class:`.cache.CachedLibrary`, which holds the
same entries and writes the same bytes as :class:`PlainLibrary`, from the parsed-library
cache when both files are unchanged.
"""

from citekit.library.errors import LibraryError
from citekit.library.store.cache import CachedLibrary, fingerprint_now
from citekit.library.store.files import atomic_write
from citekit.library.store.header import BIB_HEADER, CHECKSUM_MARK, UNPARSED_MARK
from citekit.library.store.library import PlainLibrary
from citekit.library.store.reconcile import DERIVED_FIELDS, HASH_MARK, TYPE_MARK
from citekit.library.store.render import written_entry
from citekit.library.store.sidecar.format import SIDECAR_END, SIDECAR_HEAD, SIDECAR_MARK, SIDECAR_VERSION

#: the library as commands load it (see the module's docstring)
Library = CachedLibrary

__all__ = [
    "BIB_HEADER", "CHECKSUM_MARK", "DERIVED_FIELDS", "HASH_MARK", "SIDECAR_END", "SIDECAR_HEAD", "SIDECAR_MARK",
    "SIDECAR_VERSION", "TYPE_MARK", "UNPARSED_MARK", "CachedLibrary", "Library", "LibraryError", "PlainLibrary",
    "atomic_write", "fingerprint_now", "written_entry",
]
