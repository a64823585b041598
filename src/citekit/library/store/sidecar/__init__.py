"""The sidecar format, ``refs/library.yaml``.

What BibTeX cannot hold (status, identifiers, tags, summaries, mentions, versions,
provenance) and a copy of what citekit last wrote for every field. :mod:`.format` has its marks, :mod:`.records` turns an entry into its record and
back, :mod:`.document` reads and writes the whole file; :mod:`.json`, :mod:`.yaml`,
:mod:`.read` and :mod:`.schema` are the fast writers, the block-wise reader and the check
of what a parsed file may hold."""
