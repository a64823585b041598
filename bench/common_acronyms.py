"""Fit ``citekit/data/common_acronyms.txt``: acronyms authors use without writing them out.

Why: ``related-work --check`` flags an acronym the draft never writes out ("SAM", "LMO"), except one a reader
knows. Which ones a reader knows is learned here from text others wrote, not from a list someone thought of: an
acronym counts when the abstracts of the shared corpora use it bare, never defined in that abstract
("... ported to the JVM"), in at least ``MIN_ABSTRACTS`` abstracts from at least ``MIN_SOURCES`` corpora (so one
group's jargon is not everyone's), and bare more often than defined (authors who mostly write "large language
models (LLMs)" do not expect the reader to know it). The check adds these to its short hand list of what a reader
of an optimization or HCI paper knows (:data:`citekit.output.standalone.WELL_KNOWN`), which the corpora (software
engineering, physics, bibliographies of tools) barely write.

Held out: the Better BibTeX fixtures (``zotero-bbt-export``), whose HCI library is the one related work is judged
on, never feed the list (as for ``bench/casing_words.py``).

Run: .venv/bin/python bench/common_acronyms.py  (needs ../shared/corpora; deterministic)
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from pathlib import Path

from corpus_bibs import CORPORA, REPO, bib_files

OUT = REPO / "src" / "citekit" / "data" / "common_acronyms.txt"
MIN_ABSTRACTS = 3
MIN_SOURCES = 2
_TOKEN = re.compile(r"(?<![\w\-\\{])([A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*)(?![\w])")
_DEFINED = re.compile(r"\(([A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*?)s?\)")


def count(root: Path) -> tuple[dict[str, set[str]], dict[str, set[str]], dict[str, set[str]], int]:
    """Per acronym (its singular): the abstracts that use it bare, those that define it, and the corpora of the
    bare uses; and how many distinct abstracts were read."""
    from citekit.core.text import latex_to_text
    from citekit.output.standalone import definitions, is_acronym

    bare: dict[str, set[str]] = defaultdict(set)
    defined: dict[str, set[str]] = defaultdict(set)
    sources: dict[str, set[str]] = defaultdict(set)
    seen: set[str] = set()
    for source, entries in bib_files(root):
        for e in entries:
            raw = e.fields.get("abstract")
            if not raw or len(raw) > 20_000:
                continue
            text = latex_to_text(raw)
            key = " ".join(text.split())[:200].lower()  # (one abstract filed in several corpora counts once)
            if key in seen:
                continue
            seen.add(key)
            here = set(_DEFINED.findall(text)) | set(definitions(text))
            for token in set(_TOKEN.findall(text)):
                if not is_acronym(token):
                    continue
                base = token[:-1] if token.endswith("s") and len(token) > 2 else token
                if base in here or token in here:
                    defined[base].add(key)
                else:
                    bare[base].add(key)
                    sources[base].add(source)
    return bare, defined, sources, len(seen)


def main() -> None:
    if not CORPORA.is_dir():
        sys.exit(f"{CORPORA} is not here: the list is fitted from the shared corpora")
    sys.path.insert(0, str(REPO / "src"))
    bare, defined, sources, n = count(CORPORA)
    common = sorted(a for a in bare if len(bare[a]) >= MIN_ABSTRACTS and len(sources[a]) >= MIN_SOURCES
                    and len(bare[a]) > len(defined[a]))
    head = ["# Acronyms authors use without writing them out: bare (not defined in the same abstract) in at least "
            f"{MIN_ABSTRACTS} abstracts",
            f"# of at least {MIN_SOURCES} of the shared corpora, and bare more often than defined ({n} distinct "
            "abstracts, the Better BibTeX fixtures held out).",
            "# Fitted by bench/common_acronyms.py; read by related-work --check as acronyms a reader knows."]
    OUT.write_text("\n".join(head + common) + "\n", encoding="utf-8")
    print(f"{len(common)} acronyms from {n} abstracts -> {OUT.relative_to(REPO)}")
    for a in common:
        print(f"  {a}: bare in {len(bare[a])}, defined in {len(defined[a])}, corpora {sorted(sources[a])}")
    # (the hand list, read against the same counts: what the corpora's authors mostly write out)
    from citekit.output.standalone import _READER_KNOWS

    spelled = sorted(a for a in _READER_KNOWS if len(defined.get(a, ())) > len(bare.get(a, ())))
    print("hand-listed acronyms the corpora's authors define more often than they use bare: "
          + ", ".join(f"{a} ({len(bare.get(a, ()))} bare / {len(defined[a])} defined)" for a in spelled))


if __name__ == "__main__":
    main()
