"""The sidecar's format version, its marks and the YAML codec it is read and written with."""

from __future__ import annotations

from typing import Any

#: 2: per-entry blocks, ``bib_checksum`` pairing it with library.bib, an end line, and
#: ``issued_keys`` holding only keys no entry, alias or detached record implies.
#: 3: each record's parts as JSON lines (:mod:`.json`), unknown ids, empty tag
#: lists and empty mentions left out. Files of versions 1 and 2 are read as they are.
SIDECAR_VERSION = 3
#: the line that says a sidecar was written whole (format 2 on): it must end with SIDECAR_END
MARKED = "# citekit-sidecar: "
SIDECAR_MARK = f"{MARKED}{SIDECAR_VERSION}"
SIDECAR_HEAD = (
    "# citekit sidecar: what BibTeX cannot hold (status, ids, tags, summaries, provenance).\n"
    "# Safe to edit 'summary' and 'tags: added/removed' by hand; keep the rest as citekit wrote it.\n"
    f"{SIDECAR_MARK}\n"
)
SIDECAR_END = "# end of citekit sidecar\n"
# The safe loader and dumper, in C when libyaml is present: a 7,000-entry sidecar loads in
# 2.4 s instead of 20 s. Both build only plain data (no arbitrary objects), exactly like
# yaml.safe_load/safe_dump, and the C dumper writes the same bytes as the Python one.
# PyYAML loads only when refs/ is parsed or written: a command reading a fresh
# parsed-library cache needs none of it.


def yaml_codec() -> tuple[Any, Any, Any]:
    """(yaml, safe loader, safe dumper), imported on first use."""
    import yaml

    return yaml, getattr(yaml, "CSafeLoader", yaml.SafeLoader), getattr(yaml, "CSafeDumper", yaml.SafeDumper)
