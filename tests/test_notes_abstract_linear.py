"""Method names read off a long pasted abstract: linear in the paragraph, same names as before.

The names an abstract introduces were once found by reading the whole text before each
cue again (to see whether a name was used earlier): a 140 KB paragraph with math took
25 s. The reading is now done once per paragraph; the old way is kept below as the
reference the new one must agree with (it is the slow path, so only on small inputs).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import citekit.notes.abstracts as abstracts
from citekit.notes import extract_text
from citekit.notes.abstracts import (
    _ACTIVE_CUE_RE,
    _BOLD_RE,
    _PAREN_RE,
    _PASSIVE_CUE_RE,
    _TEXTTT_RE,
    _WINDOW_WORDS,
    _hint_from_phrase,
    _plain,
    is_coinage,
    method_hints,
)
from citekit.notes.memo import clear_all

REPO = Path(__file__).resolve().parents[1]



# ---- the reference: the algorithm as it was (quadratic), unchanged ------------------------------

def reference_hints(text: str) -> list[str]:
    found: list[tuple[int, str]] = []
    for m in _BOLD_RE.finditer(text):
        hint = _hint_from_phrase(m.group("x") or m.group("y"))
        if hint:
            found.append((m.start(), hint))
    for m in _TEXTTT_RE.finditer(text):
        if is_coinage(_plain(m.group("x"))):
            found.append((m.start(), _plain(m.group("x"))))
    for cue in _ACTIVE_CUE_RE.finditer(text):
        hint = _ref_first_coinage_after(text, cue.end(), max_words=_WINDOW_WORDS)
        if hint:
            found.append(hint)
    for cue in _PASSIVE_CUE_RE.finditer(text):
        end = _ref_sentence_end(text, cue.end())
        for p in _PAREN_RE.finditer(text, cue.end(), end):
            name = _plain(p.group("x"))
            if is_coinage(name.replace(" ", "")):
                found.append((p.start(), name))
                break
    hints: list[str] = []
    for pos, hint in sorted(found):
        if hint not in hints and not _ref_used_before(text, hint, pos):
            hints.append(hint)
    return hints


def _ref_sentence_end(text: str, start: int) -> int:
    m = re.search(r"[.!?](?:\s|$)", text[start:])
    return start + m.end() if m else len(text)


def _ref_first_coinage_after(text: str, start: int, *, max_words: int) -> tuple[int, str] | None:
    end = _ref_sentence_end(text, start)
    for i, m in enumerate(re.finditer(r"\S+", text[start:end])):
        if i >= max_words:
            break
        word = m.group(0)
        pos = start + m.start()
        if word.startswith("(") or word.startswith("**"):
            paren = _PAREN_RE.match(text, pos) if word.startswith("(") else None
            if paren:
                name = _plain(paren.group("x"))
                if is_coinage(name.replace(" ", "")) and not _ref_used_before(text, name, pos):
                    return pos, name
                continue
        name = _plain(re.sub(r"[(),;:]+$", "", word.strip("*")))
        if is_coinage(name) and not _ref_used_before(text, name, pos):
            return pos, name
    return None


def _ref_used_before(text: str, hint: str, pos: int) -> bool:
    earlier = text[:pos]
    pattern = re.compile(r"(?<![\w-])" + re.escape(hint) + r"(?![\w-])")
    if pattern.search(earlier):
        return True
    return ("$" in earlier or "\\" in earlier) and pattern.search(_plain(earlier)) is not None


# ---- the pieces of realistic abstracts -------------------------------------------------------

WORDS = ["the", "method", "converges", "under", "noise", "we", "show", "that", "our", "bound", "holds",
         "for", "nonconvex", "losses", "and", "scales", "with", "depth", "Experiments", "on", "ImageNet"]
NAMES = ["LiMuon", "ZoVH", "GRPO", "λ-GRPO", "$\\lambda$-GRPO", "SPS$_{safe}$", "SPS_safe", "NCRS", "(NCRS)",
         "S-Adam", "SW-DRSO", "(SW-DRSO)", "**BaLoRA**", "**Neural QAOA$^2$**", "Neural QAOA^2", "QAOA^2",
         "\\texttt{MetaDistill}", "MetaDistill", "\\emph{UniDrag}", "UniDrag", "(LiMuon)", "FedCDWA,", "RDNGD;"]
MATH = ["$O(\\epsilon^{-3})$", "$\\mathcal{L}_0$", "$x^{\\top} A x$", "$\\ell_\\infty$", "$O(1/\\sqrt{T})$",
        "$\\alpha$", "\\alpha", "$\\lambda = 0.1$", "$$\\sum_i x_i$$", "\\textbf{bold text}", "{braced words}",
        "\\hat x", "\\cite{foo}", "\\foo{bar}", "a--b", "``quoted''", "50%", "~", "\\%", "\\$5"]
CUES = ["We propose", "we introduce", "named", "called", "dubbed", "is proposed", "are introduced",
        "This paper presents", "we develop", "obtaining"]
SEPS = [" ", " ", " ", "\n", ". ", ", ", "; ", ": ", " (", ") ", "  "]

pieces = st.lists(
    st.one_of(st.sampled_from(WORDS), st.sampled_from(NAMES), st.sampled_from(MATH), st.sampled_from(CUES)),
    min_size=1, max_size=40,
)
seps = st.lists(st.sampled_from(SEPS), min_size=40, max_size=40)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(pieces, seps)
def test_same_names_as_the_reference_on_realistic_abstracts(words: list[str], between: list[str]) -> None:
    text = "".join(w + s for w, s in zip(words, between))
    assert method_hints(text) == reference_hints(text)


LATEXISH = st.text(alphabet="aZ $\\{}_^-*().,:'`\n", max_size=12)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.one_of(st.sampled_from(NAMES), st.sampled_from(CUES), st.sampled_from(MATH), LATEXISH),
                min_size=1, max_size=25), seps)
def test_same_names_as_the_reference_with_stray_latex(words: list[str], between: list[str]) -> None:
    text = "".join(w + s for w, s in zip(words, between))
    assert method_hints(text) == reference_hints(text)


def _paragraphs() -> list[str]:
    files = [p for base in (REPO / "notes", REPO / "tests" / "data" / "notes") if base.exists()
             for p in sorted(base.rglob("*")) if p.suffix in (".md", ".txt", ".org")]
    texts: list[str] = []
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        texts.extend(p for p in text.split("\n\n") if p.strip())
        texts.extend(" ".join(p.split("\n")) for p in text.split("\n\n") if "\n" in p)  # hard-wrapped, joined
    return texts


def test_same_names_as_the_reference_on_the_bundled_and_test_notes() -> None:
    texts = _paragraphs()
    assert len(texts) > 200
    assert [method_hints(t) for t in texts] == [reference_hints(t) for t in texts]


# ---- linear: the text before each cue is not read again -------------------------------------

SENTENCE = ("We propose LiMuon{i}, a method with $O(\\epsilon^{{-3}})$ complexity; the step is named "
            "ZoVH{i} and uses $\\lambda$-GRPO with $\\mathcal{{L}}_{{{i}}}$ loss. Experiments show gains. ")


def _math_abstract(sentences: int) -> str:
    return "".join(SENTENCE.format(i=i) for i in range(sentences))


def _characters_read(monkeypatch: pytest.MonkeyPatch, text: str) -> tuple[int, list[str]]:
    """Characters handed to the LaTeX reading while extracting ``text``, and the hints found."""
    read = [0]
    real = abstracts.latex_to_text

    def counting(fragment: str, **kwargs: object) -> str:
        read[0] += len(fragment)
        return real(fragment, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(abstracts, "latex_to_text", counting)
    clear_all()
    result = extract_text(text, "abstracts.txt")
    (mention,) = result.mentions
    assert mention.kind == "abstract"
    return read[0], mention.hints


def test_a_long_abstract_with_math_is_read_a_bounded_number_of_times(monkeypatch: pytest.MonkeyPatch) -> None:
    """The LaTeX reading sees each character a few times, not once per cue (300 cues here)."""
    text = _math_abstract(100)  # ~16 KB, 300 cues
    read, hints = _characters_read(monkeypatch, text)
    assert read <= 3 * len(text), f"{read} characters read for a {len(text)}-character paragraph"
    assert hints[:4] == ["LiMuon0", "ZoVH0", "LiMuon1", "ZoVH1"] and len(hints) == 200


def test_reading_grows_linearly_with_the_paragraph(monkeypatch: pytest.MonkeyPatch) -> None:
    small, _ = _characters_read(monkeypatch, _math_abstract(50))
    large, _ = _characters_read(monkeypatch, _math_abstract(400))
    assert large <= 8 * small * 1.25, (small, large)


def test_the_long_math_abstract_gives_the_reference_names() -> None:
    text = _math_abstract(30)
    assert method_hints(text) == reference_hints(text)
