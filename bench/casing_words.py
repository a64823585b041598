"""Fit ``citekit/data/lowercase_words.txt``: words that real bibliographies write in lower case.

Why: some exporters brace every capitalized title word (``{{Designs}} on {{Thingiverse}}``),
so braces no longer tell a name from a title-case word. Prose made from such a title lowers
a braced word only when it is an ordinary word, and "ordinary" is learned here from text
others wrote: a word counts when the titles and abstracts of the shared corpora write it in
lower case (outside sentence starts) at least ``MIN_COUNT`` times, and so does the running
text of the reference-finder documents and the tagged references (AnyStyle's ``.ttx`` and
``.xml`` files). Names ("Thingiverse", "Zotero") are never written so and keep their capital.

Held out: the Better BibTeX fixtures (``zotero-bbt-export``), whose HCI library is the one
related work is judged on, never feed the list.

Run: .venv/bin/python bench/casing_words.py  (needs ../shared/corpora; deterministic)
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

from corpus_bibs import CORPORA, HELD_OUT, REPO, bib_files

OUT = REPO / "src" / "citekit" / "data" / "lowercase_words.txt"
MIN_COUNT = 1
WORD = re.compile(r"[A-Za-z][a-z'-]*|[.!?:;]")


def count(root: Path) -> tuple[Counter[str], int]:
    from citekit.core.text import latex_to_text

    seen: Counter[str] = Counter()
    files = 0
    for _source, entries in bib_files(root):
        files += 1
        for e in entries:
            for field in ("title", "abstract"):
                text = e.fields.get(field)
                if not text or len(text) > 20_000:
                    continue
                tokens = WORD.findall(latex_to_text(text))
                for i, t in enumerate(tokens[1:], 1):
                    if t.islower() and len(t) > 1 and tokens[i - 1] not in ".!?:;":
                        seen[t.strip("'-")] += 1
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in (".ttx", ".xml")):
        if HELD_OUT in path.relative_to(root).parts:
            continue
        files += 1
        text = re.sub(r"<[^>]*>", " ", path.read_text(encoding="utf-8", errors="replace"))
        for line in text.splitlines():
            tokens = WORD.findall(line.split("|", 1)[-1] if path.suffix == ".ttx" else line)
            for i, t in enumerate(tokens[1:], 1):
                if t.islower() and len(t) > 1 and tokens[i - 1] not in ".!?:;":
                    seen[t.strip("'-")] += 1
    return seen, files


def main() -> None:
    if not CORPORA.is_dir():
        sys.exit(f"{CORPORA} is not here: the list is fitted from the shared corpora")
    seen, files = count(CORPORA)
    words = sorted(w for w, n in seen.items() if n >= MIN_COUNT and w)
    head = ["# Words real bibliographies write in lower case (titles and abstracts of the shared corpora,",
            f"# and AnyStyle's documents and references, {files} files, the Better BibTeX fixtures held out; seen at least {MIN_COUNT} times in lower case).",
            "# Fitted by bench/casing_words.py; used to read titles whose exporter braced every capitalized word."]
    OUT.write_text("\n".join(head + words) + "\n", encoding="utf-8")
    print(f"{len(words)} words from {files} files -> {OUT.relative_to(REPO)}")


if __name__ == "__main__":
    main()
