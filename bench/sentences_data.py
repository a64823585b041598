"""The abstracts the contribution ranker is fitted and measured on, and how they are labelled.

Source: the Papers3 -> Zotero library of HCI papers that Better BibTeX exports in its test
fixtures (``../shared/corpora/zotero-bbt-export/Cache does not seem to fill #1296.bibtex``,
1,304 entries with an ``abstract``), written by people who never saw citekit.

More libraries with abstracts (``MORE``: Michael Ernst's group's bibliography, a JabRef
physics library, a Mendeley export) add training abstracts from other fields; the same
held-out rule applies to them.

Split: an entry is HELD OUT when the first byte of sha1(key) is below 64 (a quarter of
the library, fixed by the key alone). Held-out abstracts are never used to fit or tune.

Labels (reproducible, no hand work): a paper's title is its authors' one-line statement of
the contribution, so the sentence of the abstract that shares the most significant title
words (stop words dropped, words compared on their first five letters) is labelled the
contribution sentence; an abstract is used only when that sentence shares at least two
such words and strictly more than any other sentence. The ranker has no title feature,
so it learns which cues go with the contribution sentence, not the labelling rule.

Hand judgements on held-out abstracts (which sentence a co-author would quote as the
paper's contribution) are in ``tests/data/sentences/judged.yaml``.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CORPORA = REPO.parent / "shared" / "corpora"
HCI = CORPORA / "zotero-bbt-export" / "Cache does not seem to fill #1296.bibtex"
#: more real libraries with abstracts, for fitting only (other fields: software engineering, physics)
MORE = [*sorted((CORPORA / "plume-bib").glob("*.bib")),
        CORPORA / "bibtex-tidy-fixtures" / "better-bibtex"
        / "Maintain_the_JabRef_group_and_subgroup_structure_when_importing_a_BibTeX_db_97.bib",
        CORPORA / "bibtex-tidy-fixtures" / "better-bibtex" / "web_page_and_other_mendeley_idiocy.bib"]
sys.path.insert(0, str(REPO / "src"))


def held_out(key: str) -> bool:
    """Whether an entry belongs to the held-out quarter (never fitted or tuned on)."""
    return hashlib.sha1(key.encode("utf-8")).digest()[0] < 64


def load_hci(files: list[Path] | None = None) -> list[tuple[str, str, str]]:
    """``(key, title, abstract)`` of every entry with an English abstract of 3+ sentences (default: the HCI library)."""
    from citekit.bibtex.reader import read_bib_file
    from citekit.core.text import latex_to_text
    from citekit.output.sentences import is_english, split_sentences

    if not HCI.exists():
        raise SystemExit(f"{HCI} is missing: these figures need the shared corpora beside the checkout.")
    out, seen = [], set()
    entries = [e for f in (files or [HCI]) for e in read_bib_file(f).entries]
    for e in entries:
        if e.key in seen:
            continue
        seen.add(e.key)
        abstract = (e.fields.get("abstract") or "").strip()
        title = latex_to_text(e.title or "")
        if not abstract or not title or not is_english(abstract):
            continue
        if len(split_sentences(abstract)) >= 3:
            out.append((e.key, title, abstract))
    return out


def _stems(text: str) -> set[str]:
    from citekit.core.text import title_tokens

    return {w[:5] for w in title_tokens(text) if len(w) > 2}


def distant_label(title: str, sentences: list[str]) -> int | None:
    """Index of the sentence that restates the title, or None when no sentence clearly does."""
    wanted = _stems(title)
    overlaps = [len(wanted & _stems(s)) for s in sentences]
    best = max(range(len(sentences)), key=lambda i: overlaps[i])
    ranked = sorted(overlaps, reverse=True)
    if ranked[0] < 2 or (len(ranked) > 1 and ranked[1] == ranked[0]):
        return None
    return best
