"""String hygiene for untrusted text: sanitize, protect_title, to_ascii, author_field."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citekit.core.model import Person
from citekit.core.names import parse_name
from citekit.bibtex.values import (
    ARGUMENT_COMMANDS,
    GLYPH_COMMANDS,
    MATH_COMMANDS,
    author_field,
    protect_title,
    protected_words,
    safe_url,
    sanitize,
    to_ascii,
)

DANGEROUS = (
    "input include write immediate openout openin read catcode def edef gdef xdef let csname endcsname "
    "newcommand renewcommand providecommand usepackage documentclass url href special expandafter "
    "begin end verb loop uppercase lowercase jobname makeatletter"
).split()


def bibtex_braces_ok(value: str) -> bool:
    """BibTeX's own rule: count every brace, escaped or not."""
    depth = 0
    for ch in value:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def tex_braces_ok(value: str) -> bool:
    """TeX's rule: escaped braces are characters, the others must pair."""
    depth = 0
    for m in re.finditer(r"\\.|[{}]", value):
        if m.group() == "{":
            depth += 1
        elif m.group() == "}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def control_words(value: str) -> list[str]:
    return re.findall(r"\\([A-Za-z]+)", value)


def assert_inert(out: str) -> None:
    assert bibtex_braces_ok(out), out
    assert tex_braces_ok(out), out
    assert "^^" not in out, out
    assert "\\\\" not in out, out
    assert not re.search(r"(?<!\\)[%#&]", out), out  # comments and alignment tabs always escaped
    allowed = GLYPH_COMMANDS | ARGUMENT_COMMANDS | MATH_COMMANDS
    words = control_words(out)
    assert all(w in allowed for w in words), [w for w in words if w not in allowed]
    assert not any(w in DANGEROUS for w in words), out
    assert re.sub(r"\\.", "", out).count("$") % 2 == 0, out  # every math shift is closed


# --- protect_title: the documented examples ---------------------------------

@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("LiMuon: Light and Fast Muon Optimizer for Large Models",
         "{LiMuon}: Light and Fast {Muon} Optimizer for Large Models"),
        ("Lions and Muons: Optimization via Stochastic Frank–Wolfe",
         "Lions and {Muons}: Optimization via Stochastic {Frank--Wolfe}"),
        ("OLion: Approaching the Hadamard Ideal by Intersecting Spectral and $\\ell_\\infty$ Implicit Biases",
         "{OLion}: Approaching the {Hadamard} Ideal by Intersecting Spectral and $\\ell_\\infty$ Implicit Biases"),
        ("Step-Size Stability in Stochastic Optimization: A Theoretical Perspective",
         "Step-Size Stability in Stochastic Optimization: A Theoretical Perspective"),
    ],
)
def test_protect_title_documented_examples(title: str, expected: str) -> None:
    assert protect_title(title) == expected


def test_math_with_capitals_is_braced_because_bibtex_lowercases_math() -> None:
    out = protect_title(
        "On the Interaction of Batch Noise, Adaptivity, and Compression, under $(L_0,L_1)$-Smoothness: An SDE Approach"
    )
    assert out == (
        "On the Interaction of Batch Noise, Adaptivity, and Compression, under "
        "{$(L_0,L_1)$}-Smoothness: An {SDE} Approach"
    )


@pytest.mark.parametrize(
    ("word", "protected"),
    [
        ("SGD", True), ("LLM", True), ("INT4", True), ("MXFP4", True), ("ECO", True), ("DiLoCo", True),
        ("LoRA", True), ("GradientStabilizer", True), ("AdaGC", True), ("L-SR1", True), ("Float8@2bits", True),
        ("ReLU", True), ("Nesterov", True), ("Riemannian", True), ("Newton--Schulz", True), ("Shampoo", True),
        ("Transformers", True), ("Gaussian", True),
        ("Optimizer", False), ("Step-Size", False), ("Large", False), ("A", False), ("2026", False),
    ],
)
def test_protect_title_word_rules(word: str, protected: bool) -> None:
    out = protect_title(f"Study of {word} here")
    assert (f"{{{word}}}" in out) is protected, out


def test_first_word_keeps_its_capital_without_braces_but_acronyms_are_still_braced() -> None:
    assert protect_title("Muon Is Scalable") == "Muon Is Scalable"
    assert protect_title("SGD Is Enough") == "{SGD} Is Enough"
    assert protect_title("Beyond Muon") == "Beyond {Muon}"


def test_hyphenated_words_protect_only_the_listed_part() -> None:
    assert protect_title("Towards Lipschitz-continuous Nets") == "Towards {Lipschitz}-continuous Nets"
    assert protect_title("Analysing Muon-Style Updates") == "Analysing {Muon}-Style Updates"


def test_extra_terms_from_notes_hints_are_protected() -> None:
    assert protect_title("Scaling Pion to Large Models", ["Pion"]) == "Scaling {Pion} to Large Models"
    assert protect_title("Scaling Pion to Large Models") == "Scaling Pion to Large Models"


def test_listed_eponym_pairs_match_with_a_plain_hyphen() -> None:
    assert protect_title("Optimization via Stochastic Frank-Wolfe") == "Optimization via Stochastic {Frank-Wolfe}"


def test_unicode_math_symbols_become_math_that_pdflatex_can_typeset() -> None:
    assert protect_title("ℓ∞-Smoothness of α-Nets") == r"$\ell\infty$-Smoothness of $\alpha$-Nets"
    assert protect_title("Bounds with η ≤ 1/L₀ and Σ") == r"Bounds with $\eta$ $\leq$ 1/{L}$_0$ and {$\Sigma$}"
    assert protect_title("Horváth’s naïve Étude") == "Horváth’s naïve Étude"  # letters stay Unicode


def test_possessives_plurals_and_dashes() -> None:
    assert protect_title("On Newton's Method") == "On {Newton's} Method"
    assert protect_title("Adam—Revisited – Again") == "Adam---Revisited -- Again"


def test_existing_protection_is_not_doubled() -> None:
    assert protect_title("{LiMuon}: Light {Muon}") == "{LiMuon}: Light {Muon}"
    assert protect_title("A {{SGD}} Study") == "A {{SGD}} Study"


def test_shouting_titles_are_not_frozen_in_capitals() -> None:
    assert protect_title("A STUDY OF LEARNING RATES") == "A STUDY OF LEARNING RATES"


def test_words_with_latex_accents_are_read_as_one_word() -> None:
    assert protect_title(r"Beyond the Schr\"odinger Bridge of Hadamard-Walsh") == (
        r"Beyond the Schr\"odinger Bridge of {Hadamard}-Walsh"
    )
    assert protect_title(r"Beyond {\L}ojasiewicz") == r"Beyond {{\L}ojasiewicz}"


def test_protected_word_list_is_a_principled_list() -> None:
    words = protected_words()
    assert {"Muon", "Adam", "Lion", "Shampoo", "Hadamard", "Frank--Wolfe", "Newton--Schulz", "Lipschitz"} <= words
    # Acronyms and mixed case are detected by rule, so the list holds only capitalised words.
    assert all(w[0].isupper() for w in words), [w for w in words if not w[0].isupper()]


# --- sanitize --------------------------------------------------------------

def test_sanitize_escapes_specials_outside_math_and_keeps_math() -> None:
    assert sanitize("100% & #1 _x_ ~ ^") == r"100\% \& \#1 \_x\_ \textasciitilde{} \textasciicircum{}"
    assert sanitize(r"rate $O(1/\sqrt{T})$ for $\ell_\infty$") == r"rate $O(1/\sqrt{T})$ for $\ell_\infty$"
    assert sanitize("costs $5 and $") == r"costs $5 and $"  # one balanced pair: kept as math
    assert sanitize("costs $5") == r"costs \$5"


def test_sanitize_neutralises_dangerous_commands() -> None:
    out = sanitize(r"\input{/etc/passwd} \write18{rm -rf /} \def\x{y} \csname foo\endcsname")
    assert out == (
        r"\textbackslash{}input{/etc/passwd} \textbackslash{}write18{rm -rf /} "
        r"\textbackslash{}def\textbackslash{}x{y} \textbackslash{}csname foo\textbackslash{}endcsname"
    )


def test_sanitize_demaths_math_that_hides_commands() -> None:
    assert sanitize(r"$\input x$") == r"\$\textbackslash{}input x\$"
    assert sanitize("$^^5cinput$") == r"\$\textasciicircum{}\textasciicircum{}5cinput\$"
    assert sanitize("$50%$") == r"$50\%$"


def test_sanitize_keeps_harmless_text_commands_and_accents() -> None:
    kept = r"Horv\'{a}th Richt\'arik \"o {\ss} \emph{Adam} \textbf{x} \texttt{y} \& \c{c} {\L}"
    assert sanitize(kept) == kept
    assert sanitize(r"Stra\ss e and \ss is") == r"Stra\ss{} e and \ss{} is"
    assert sanitize(r"\v s") == r"\v{s}"


def test_sanitize_never_lets_unbalanced_braces_through() -> None:
    assert sanitize("{unbalanced") == r"\textbraceleft{}unbalanced"
    assert sanitize("}} x {") == r"\textbraceright{}\textbraceright{} x \textbraceleft{}"
    assert sanitize(r"\{ a") == r"\textbraceleft{} a"  # BibTeX counts escaped braces too
    assert sanitize(r"\textit{open") == r"\textbackslash{}textit\textbraceleft{}open"


def test_sanitize_argument_commands_need_an_argument() -> None:
    assert sanitize(r"x \emph") == r"x \textbackslash{}emph"
    assert sanitize("x \\'") == r"x \textbackslash{}'"
    assert sanitize("end\\") == r"end\textbackslash{}"


def test_sanitize_collapses_whitespace_and_drops_control_characters() -> None:
    assert sanitize("a\n\n b\t\x00c\x1b") == "a b c"


ALPHABET = [
    "a", "Z", " ", "\\", "{", "}", "$", "%", "#", "&", "_", "~", "^", "'", '"', "`", "=", ".", ",", "-", "–", "—",
    "@", "é", "1", "\n", "\\input", "\\write18", "\\def", "\\catcode", "\\csname", "\\textit", "\\emph", "\\'", "\\v",
    "\\ss", "$\\ell$", "^^5c", "\\\\", "\\{", "\\}", "Muon", "SGD", "LoRA", "Frank–Wolfe", "\\textbackslash{}",
    "$(L_0,L_1)$", "{\\\"o}", "\\url", "\\mathbb{R}", "\\i", "\\c", "\\textasciicircum",
]
untrusted = st.one_of(st.lists(st.sampled_from(ALPHABET), max_size=25).map("".join), st.text(max_size=40))


@settings(max_examples=400, deadline=None)
@given(untrusted)
def test_sanitize_output_is_inert_and_idempotent(value: str) -> None:
    out = sanitize(value)
    assert_inert(out)
    assert sanitize(out) == out


@settings(max_examples=400, deadline=None)
@given(untrusted, st.lists(st.sampled_from(["Pion", "muon", "X-Net", "Frank–Wolfe", "{", "\\def"]), max_size=3))
def test_protect_title_output_is_inert_and_idempotent(value: str, extra: list[str]) -> None:
    out = protect_title(value, extra)
    assert_inert(out)
    assert protect_title(out, extra) == out
    assert sanitize(out) == out


# --- to_ascii --------------------------------------------------------------

def test_to_ascii_encodes_letters_and_keeps_math() -> None:
    assert to_ascii("Horváth and Richtárik") == r"Horv{\'a}th and Richt{\'a}rik"
    assert to_ascii(r"$\ell_\infty$ – Łukasz") == r"$\ell_\infty$ {\textendash} {\L}ukasz"
    assert to_ascii("plain") == "plain"
    assert to_ascii("$x ≤ ¡$") == r"$x {\leq} \mbox{{\textexclamdown}}$"


@settings(max_examples=200, deadline=None)
@given(untrusted)
def test_to_ascii_of_sanitized_text_is_ascii_and_stays_inert(value: str) -> None:
    out = to_ascii(sanitize(value))
    assert out.isascii()
    assert bibtex_braces_ok(out)


# --- author_field ----------------------------------------------------------

def test_author_field_family_first_with_hard_names() -> None:
    people = [
        Person(raw="Enea Monzio Compagnoni", given="Enea", family="Monzio Compagnoni"),
        parse_name("Boris van Breugel"),
        parse_name("Zhangyang “Atlas” Wang"),
        parse_name("Hee-Sung Kim"),
        parse_name("Samuel Horváth"),
        parse_name("Khrushchev Mikhail"),
    ]
    assert author_field(people) == (
        "Monzio Compagnoni, Enea and van Breugel, Boris and Wang, Zhangyang and Kim, Hee-Sung "
        "and Horváth, Samuel and Khrushchev, Mikhail"
    )


def test_author_field_braces_what_bibtex_would_split() -> None:
    assert author_field([Person(raw="Research and Development Team", family="Research and Development Team")]) == (
        "{Research and Development Team}"
    )
    assert author_field([Person(raw="x", given="Ann", family="Smith, Jr")]) == "{Smith, Jr}, Ann"
    assert author_field([Person(raw="OpenAI", family="OpenAI")]) == "OpenAI"
    assert author_field([Person(raw="DeepMind Team", given="DeepMind Team")]) == "{DeepMind Team}"


def test_author_field_sanitizes_names() -> None:
    out = author_field([Person(raw="x", given="Bob", family=r"Tables\input{x} 100%")])
    assert out == r"Tables\textbackslash{}input{x} 100\%, Bob"


# --- safe_url --------------------------------------------------------------

@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://openreview.net/forum?id=AbC_d-1&noteId=x%20y#top", "https://openreview.net/forum?id=AbC_d-1&noteId=x%20y#top"),
        ("https://x.org/a b{c}\\d", "https://x.org/a%20b%7Bc%7D%5Cd"),
        ("https://x.org/100%", "https://x.org/100%25"),
        ("https://ja.wikipedia.org/wiki/最適化", "https://ja.wikipedia.org/wiki/%E6%9C%80%E9%81%A9%E5%8C%96"),
    ],
)
def test_safe_url(url: str, expected: str) -> None:
    assert safe_url(url) == expected
    assert safe_url(expected) == expected


# ---- to_ascii encodes only the words that need it ------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_PIECES = st.sampled_from(list("ab c\t\nZ{}") + ["é", "ß", "\u0301", "\u0308", " \u0301", "\u00a0", "ℓ", "—",
                                                 "“", "日本", "😀", "ﬁ", "Å"])


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(_PIECES, min_size=1, max_size=30).map("".join))
def test_to_ascii_word_by_word_equals_the_encoder_on_the_whole_text(text):
    import unicodedata

    from citekit.bibtex import values as latex

    text = unicodedata.normalize("NFC", text)
    assert latex._text_to_ascii(text) == latex._text_encoder().unicode_to_latex(text)


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
def test_to_ascii_of_a_long_mostly_ascii_value_hands_the_encoder_only_its_non_ascii_words(monkeypatch):
    """pylatexenc reads about 25 KB a second: a megabyte value took most of a minute."""
    from citekit.bibtex import values as latex

    seen: list[str] = []
    real = latex._text_encoder()

    class Counting:
        def unicode_to_latex(self, text: str) -> str:
            seen.append(text)
            return real.unicode_to_latex(text)

    monkeypatch.setattr(latex, "_text_encoder", lambda: Counting())
    value = "word " * 200_000 + "Horváth"
    assert latex.to_ascii(value) == "word " * 200_000 + "Horv{\\'a}th"
    assert sum(map(len, seen)) <= len("Horváth")
