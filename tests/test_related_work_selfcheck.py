"""related-work does not write what its own ``--check`` flags, where the record offers a sentence it passes.

Made-up records read through ``citekit.api``, as a user's library would be, and the draft read by the same
check ``related-work --check`` runs (with the cited records). A new user found the bundled notes' draft
flagged by its own check: a title's opening gerund made the authors' verb ("delve into Muon and beyond"), a
subtitle tacked on after a comma ("..., with deep analysis and extensions").
"""

from __future__ import annotations

import re
from pathlib import Path

from citekit.api.related import check_snippet, related_work
from citekit.core.model import Entry
from citekit.library.store import Library

TITLES = [
    ("lee2026mitigating", "Mitigating Staleness in Asynchronous Pipeline Parallelism via Basis Rotation"),
    ("kim2026delving", "Delving into Sparse Attention and Beyond: Deep Analysis and Extensions"),
    ("park2026unveiling", "Unveiling the Potential of Pruning with Sparse Masks: Strategies for Error Reduction"),
    ("cho2026exploring", "Exploring Learning Rate Warmup for Sparse Attention"),
]


def _draft(tmp_path: Path, fmt: str = "latex"):
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "citekit.yaml").write_text("")
    lib = Library.load(tmp_path / "refs")
    for key, title in TITLES:
        lib.add(Entry(key=key, entry_type="inproceedings", tags_auto=["sparse"],
                      fields={"title": title, "author": "Doe, Ann and Roe, Bo", "year": "2026"}))
    lib.save()
    return related_work(tmp_path, tags=("sparse",), fmt=fmt)


def _sentence(text: str, key: str) -> str:
    m = re.search(r"(?:\\citet\{" + key + r"\}|@" + key + r")[^.]*\.", text)
    assert m, text
    return m.group(0)


def test_a_title_known_paper_gets_no_sentence_its_check_flags(tmp_path: Path) -> None:
    """A gerund whose object is the paper's topic ("Mitigating staleness", "Delving into X") is said with
    "address", and the subtitle is set in parentheses rather than tacked on after a comma: the check passes what
    the draft writes for these papers."""
    for fmt in ("latex", "markdown"):
        snippet = _draft(tmp_path / fmt, fmt)
        found = check_snippet(snippet.text, fmt, snippet.titles, snippet.abstracts, snippet.records)
        about = [d for d in found if d.category in ("wrong-verb", "pasted-title")]
        assert about == [], (about, snippet.text)
        assert "address staleness in asynchronous pipeline parallelism via basis rotation." in \
            _sentence(snippet.text, "lee2026mitigating"), snippet.text
        assert _sentence(snippet.text, "kim2026delving").endswith(
            " address sparse attention and beyond (deep analysis and extensions)."), \
            snippet.text
        prose = re.sub(r"\\citet\{[^}]*\}|@\w+", "", snippet.text.split("\n", 1)[1])
        assert not re.search(r"\b(?:delve|unveil|mitigate)", prose), prose


def test_the_fallback_says_only_the_titles_words(tmp_path: Path) -> None:
    """Nothing is added that the record does not say: the plainer sentence is the title's words and "address"."""
    text = _draft(tmp_path).text
    for key, title in TITLES:
        said = re.sub(r"^\\citet\{[^}]*\}\s*", "", _sentence(text, key)).rstrip(".")
        words = set(re.findall(r"[a-z]+", said.lower())) - {"address", "addresses", "explore", "explores", "for"}
        assert words <= set(re.findall(r"[a-z]+", title.lower())), (key, said)


def test_a_sentence_the_check_passes_is_kept_as_it_was(tmp_path: Path) -> None:
    """"Exploring X" is a research verb the authors do: the title's sentence stands, nothing falls back."""
    text = _draft(tmp_path).text
    assert _sentence(text, "cho2026exploring").endswith(" explore learning rate warmup for sparse attention."), text


def test_a_plain_draft_carries_no_lint_comment(tmp_path: Path) -> None:
    """The check's terms ('no-topic-sentence: ...') stay in the check's output; the draft's only comments are its
    header and what it left out."""
    text = _draft(tmp_path, "markdown").text
    comments = [line for line in text.splitlines() if line.startswith("<!--")]
    assert len(comments) == 1 and "citekit related-work" in comments[0], comments
