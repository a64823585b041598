"""The shortcuts extraction takes for speed give exactly what the full path gives.

Org headings are scanned with orgparse's own heading rules instead of ``orgparse.loads``
when no body parser can raise; line rules answer repeated texts from a cache. Each is
checked against the full path on varied documents, including big ones read in pieces.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from citekit.notes import extract_text
from citekit.notes.formats import orgheadings
from citekit.notes.memo import clear_all

_ORG_LINES = st.sampled_from([
    "* Reading", "** TODO Masked Autoencoders Are Scalable Vision Learners", "** DONE A Simple Framework",
    "*** [#A] Priority Paper — Ana Lima, Bo Chen", "** WAIT Deep Nets :vision:ml:", "** Tagged   :a_b:@home:  ",
    "**  Two spaces before", "*bold* is not a heading", "*", "** ", "**\tTab heading", "* TODO", "* DONE",
    "#+TODO: WAIT NEXT | DROPPED", "#+SEQ_TODO: READ(r) | READDONE(d)", "#+TYP_TODO: Ana Bo", "#+FILETAGS: :reading:ml:",
    "#+TITLE: Notes", "  :PROPERTIES:", "  :AUTHORS:  Kaiming He, Xinlei Chen", "  :URL: https://arxiv.org/abs/2111.06377",
    "  :ARXIV:    2111.06377", "  :END:", "   - Authors: Ana Lima, Bo Chen", "   https://arxiv.org/abs/1706.02216",
    "Plain paragraph line.", "", "   ", "** NEXT Adam: A Method for Stochastic Optimization :opt:",
    "** READ [[https://arxiv.org/abs/1412.6980][Adam]]", "* Title with colon at the end:", "* Heading :not tags here: x",
    "#+begin_quote", "#+end_quote", "** Émile Über Deep Learning", "** 論文 深層学習", "* [#B]", "* TODO [#C] Both :t:",
])
_ORG_TEXT = st.lists(_ORG_LINES, max_size=40).map("\n".join)


def _headings_by_orgparse(text: str):
    import orgparse.node

    return orgheadings._by_orgparse(text, orgparse.node.OrgEnv(filename="<string>"))


def _headings_scanned(text: str):
    import orgparse.node

    return orgheadings.scan_headings(text, orgparse.node.OrgEnv(filename="<string>"))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(_ORG_TEXT)
def test_scanned_org_headings_are_orgparse_s(text: str) -> None:
    assert orgheadings.body_parsers_inert(text)
    assert _headings_scanned(text) == _headings_by_orgparse(text)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(st.one_of(_ORG_LINES, st.text(max_size=20)), max_size=30).map("\n".join))
def test_scanned_org_headings_match_on_arbitrary_lines(text: str) -> None:
    if orgheadings.body_parsers_inert(text):
        assert _headings_scanned(text) == _headings_by_orgparse(text)


@pytest.mark.parametrize("bad", ["<2026-13-45 Mon>", "  :PROPERTIES:\n  :Effort: abc\n  :END:", "CLOCK: [2026-02-30 Mon 10:00]"])
def test_a_malformed_date_or_effort_still_reads_the_file_as_a_plain_outline(bad: str) -> None:
    text = f"* Papers\n** Attention Is All You Need\n  - Authors: Ashish Vaswani, Noam Shazeer\n{bad}\n"
    assert not orgheadings.body_parsers_inert(text)
    result = extract_text(text, "x.org")
    assert any("org structure could not be read" in p.message for p in result.problems)
    assert [m.title for m in result.mentions] == ["Attention Is All You Need"]


def _as_json(result) -> list:
    return [m.to_json() for m in result.mentions] + [repr(p) for p in result.problems]


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
@pytest.mark.parametrize("copies", [1, 80])
def test_big_org_file_in_pieces_reads_as_through_orgparse(copies: int, monkeypatch: pytest.MonkeyPatch) -> None:
    unit = (
        "#+TODO: TODO WAIT | DONE\n#+FILETAGS: :reading:\n* CVPR 2025 follow-ups\n"
        "** WAIT Masked Autoencoders Are Scalable Vision Learners :vision:\n   :PROPERTIES:\n"
        "   :AUTHORS:  Kaiming He, Xinlei Chen, Saining Xie\n   :ARXIV:    2111.06377\n   :END:\n"
        "   Reconstruct 75% masked patches; simple and strong.\n"
        "** Inductive Representation Learning on Large Graphs\n   Authors: William L. Hamilton, Rex Ying\n"
        "   https://arxiv.org/abs/1706.02216\n* Admin\n** TODO Email Jure about the visit\n\n"
    )
    text = unit * copies  # 80 copies: over the piece size, read in pieces sharing TODO keywords
    fast = _as_json(extract_text(text, "x.org"))
    monkeypatch.setattr(orgheadings, "body_parsers_inert", lambda _text: False)
    assert fast == _as_json(extract_text(text, "x.org"))
    assert len(fast) >= 2 * copies


_MD_LINES = st.sampled_from([
    "- **Adam: A Method for Stochastic Optimization** — Diederik P. Kingma, Jimmy Ba",
    "- Attention Is All You Need (Vaswani et al., NeurIPS 2017)", "  - Summary: Transformers without recurrence.",
    "- Lunch with the optimizer group", "# ICML 2026", "Lima, A., & Chen, B. (2026). Adaptive methods at scale. ICML.",
    "- https://arxiv.org/abs/2401.00001", "  - Authors: Ana Lima, Bo Chen", "- Fabian Schaipp (Flatiron)", "",
])


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(_MD_LINES, max_size=25).map("\n".join))
def test_remembered_line_answers_equal_fresh_ones(text: str) -> None:
    """Extract twice (the second run answered from the caches), with the first run's lists
    changed in between: the caches hand out copies, so nothing leaks into the next run."""
    clear_all()
    fresh = extract_text(text, "x.md")
    first = _as_json(fresh)
    for m in fresh.mentions:
        m.authors.append("Someone Else")
        m.hashtags.append("leaked")
        m.urls.append("https://example.org/leaked")
    assert _as_json(extract_text(text, "x.md")) == first


_SIGNAL_PIECES = st.sampled_from([
    "Adam", " ", "  ", "\t", " by ", "By ", "BY", "by", " et al", "et al.", "Et Al", "ET AL", " - ", "-", " -- ", "—", "–",
    "(", "（", ";", "\"", "“", "”", "„", "«", "1999", "2026", "20", "19", "120233", "’26", "'99", "'9", "x", "İ", "ſ", "K",
    "Kingma, D. P.", "(2015).", "Title. A; B. ICML 2026.", "\u00a0", "\u2003", "ß", "by\u00a0",
    "&", " and ", "AND", "Hutter", "等", ",",
])


#: the shipped reference rules' cues as one pattern (what the gate was before it was derived
#: from the rules' rows)
_SHAPE_SIGNAL_RE = re.compile(r"[—–\"“”„«(（;]|\s-{1,2}\s|\sby\s|\bet al|(?-i:\s(?:&|and)\s+[A-Z][\w'’\-]+[.)\s]*(?:,?\s*\(?(?:19|20)\d{2}\)?[.\s]*)?$)|(?<!\d)(?:19|20)\d{2}(?!\d)|['’]\d{2}\b|"
                              r"(?-i:^(?![a-z])[^\W\d_][\w'’.\-]*(?:[ ,]+[^\W\d_][\w'’.\-]*){0,8}?[ ,]*(?:&| and |et al|等))|"
                              # the Nature/Science names (``Kingma, D. P.``) and the slash-parted names (``Title, A / B``)
                              r"(?-i:^(?:\[\d{1,4}\]\s*|\(?\d{1,4}[.)]\s+)?(?:[a-z]+ ){0,2}[A-Z][\w'’\-]+(?: [A-Z][\w'’\-]+)?, [A-Z]\.)|"
                              r"(?-i:[A-Za-z]\s*/\s*[A-Z])", re.I)


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
@given(st.lists(_SIGNAL_PIECES, max_size=12).map("".join) | st.text(max_size=40))
@settings(max_examples=400, deadline=None, derandomize=True)
def test_reference_gate_agrees_with_the_full_pattern(text: str) -> None:
    """The gate derived from the rules' rows, with cheap substring tests in front of each
    cue, never turns away a line the one-pattern search accepts, and accepts nothing it
    turns away."""
    from citekit.notes import refline

    assert refline.has_shape_signal(text) == bool(_SHAPE_SIGNAL_RE.search(text))


_REFERENCE_PIECES = st.sampled_from([
    "Attention Is All You Need", "Deep Residual Learning", " — ", " - ", " -- ", " by ", ", ", ". ", "; ", " and ", " & ",
    "Ashish Vaswani", "Noam Shazeer", "Vaswani, A.", "Kingma, D. P.", "Ba, J.", "He K", "Zhang X", "et al.", "(2017)",
    "(ICML 2026)", "(A. Lima & B. Chen, NeurIPS'25)", "ICML 2026", "NeurIPS'25", "2015", "In ICLR.", "“", "”", "\"",
    "**", "[[", "]]", "(", ")", "Lunch", "Guy Wolf (Mila, UdeM)", "1. ", "[7] ",
])


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
@given(st.lists(_REFERENCE_PIECES, min_size=1, max_size=9).map("".join))
@settings(max_examples=500, deadline=None, derandomize=True)
def test_reference_shapes_behind_their_gates_read_as_before(text: str) -> None:
    """Each reference shape is tried only when the text has the character it cannot match
    without; reading with the shapes' patterns applied to every text gives the same answer."""
    from citekit.notes import refline

    for needle, regex in ((";", r"^(?P<title>[^;]+?[^\s.][?!]?)\.\s+(?P<authors>(?:[^;]+;\s*)+[^;]+?)\.\s+(?P<rest>[^;]*)$"),
                          ("by", r"\s+by\s+")):
        if re.search(regex, text):
            assert needle in text
    if re.match(r"^(?P<title>.+?)\s*[(（](?P<inner>[^()（）]+)[)）]\.?$", text):
        assert ")" in text or "）" in text
    if len(refline._DASH_SPLIT_RE.split(text)) > 1:
        assert "-" in text or "—" in text or "–" in text
    if refline._VENUE_TAIL_RE.search(text):
        assert text.rstrip()[-1:].isdigit()
    if refline._QUOTED_TITLE_RE.search(text):
        assert refline._ANY_QUOTE_RE.search(text)
    for tail in (refline._DASHED_TAIL, refline._COMMA_TAIL):
        if tail.search(text):  # (the venue tails are looked for only where a year or an apostrophe is)
            assert "19" in text or "20" in text or "'" in text or "’" in text


_LINE_PIECES = st.sampled_from([
    "Lunch", "lunch", "LUNCH", "w/", "W/ Jane", "Coffee chat", "meet-up", "Meetup", "Invited Talk", "invited  talk", "Booth",
    "Day 3", "day2", "3日目", "7/6 Mon", "HND->GMP", "hnd → gmp", "HND - > GMP", "->", "→", "ランチ", "セッション",
    "Adam", "Scaling", " ", "  ", "\t", "(MIT)", "ſocial", "İnvited talk", "Ｋeynote", "Keynote", "K", "é", "日本語",
    "arXiv:2401.00001", "ARXIV 2401.00001v2", "arxiv:cs.LG/0701001", "arXİv:2401.00002", "2401.00003", "1706.03762v5",
    "doi:10.1145/3133956.3134012", "DOI: 10.48550/arXiv.2401.00004", "10.1000/xyz", "https://arxiv.org/abs/2401.00005",
    "(https://doi.org/10.1000/abc)", "[pdf](https://x.org/2401.00006.pdf)", ".", "/", "12345", "2026",
])
_LINES = st.lists(_LINE_PIECES, max_size=10).map("".join) | st.text(max_size=30)


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
@given(_LINES)
@settings(max_examples=500, deadline=None, derandomize=True)
def test_line_rule_shortcuts_answer_as_the_full_patterns(text: str) -> None:
    """The event/day rule, the share of Latin letters and the identifiers written in a line
    give what their full patterns give, for ASCII lines (where the shortcuts apply) and
    others, including letters that match ASCII ones only when case is ignored."""
    from citekit.notes import shapes, textids

    full_event = bool(shapes._EVENT_RE.search(text) or shapes._DAY_RE.search(text.strip()))
    assert shapes.looks_like_event.__wrapped__(text) == full_event
    letters = sum(map(str.isalpha, text))
    share = len(shapes._LATIN_LETTER_RE.findall(text)) / letters if letters else 0.0
    assert shapes.latin_share(text) == share
    assert textids.find_text_ids.__wrapped__(text) == _text_ids_without_shortcuts(text)


_VENUE_PIECES = st.sampled_from([
    "ICML", "icml", "NeurIPS", "Neurips", "ICLR", "COLT", "ACL", " ", "2026", "1999", "2100", "26", "'26", "’25", "' 24",
    "ICML2026", "ICML'26", "ICML ’ 25", "(", ")", "**", "_", "~~", "==", "`", "[[", "](", "\"", "“", "„", "«", "Title",
    "٢٠٢٦", "२०२६", "Ｉ", "x", "-", "ſ", "[ ] ", "[x] ", "[-]", "TODO ", "DONE  ", "LATER ", "todo ",
])


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
@given(st.lists(_VENUE_PIECES, max_size=8).map("".join) | st.text(max_size=20))
@settings(max_examples=400, deadline=None, derandomize=True)
def test_venue_and_markup_shortcuts_answer_as_the_full_patterns(text: str) -> None:
    """A venue named in text is looked for only where a year could follow it; a title is
    cleaned of markup only when it holds some; a task marker is removed by one anchored
    match: all as the full patterns say."""
    from citekit.core import venues
    from citekit.notes import extract

    m = venues._HEADING_RE.search(text)
    if m is None:
        assert venues.from_text(text) == (None, None)
    else:
        assert venues.from_text(text)[0] == venues.canonical(m.group("venue"))
    assert extract._has_markup(text) == bool(extract._HAS_MARKUP_RE.search(text))
    assert extract._without_task_marker(text) == extract._TASK_MARKER_RE.sub("", text)


def _text_ids_without_shortcuts(text: str) -> list:
    """:func:`citekit.notes.textids.find_text_ids` with every pattern run on every text."""
    from citekit.notes import textids

    blank = textids._outside_urls(text)
    found, taken = [], []
    for m in textids._DOI_RE.finditer(blank):
        doi = textids.normalize_doi(m.group("id"))
        if doi and all(m.end() <= s or m.start() >= e for s, e in taken):
            arxiv = doi.startswith("10.48550/arxiv.")
            found.append(textids.TextId("arxiv" if arxiv else "doi", doi.split("arxiv.", 1)[1] if arxiv else doi, m.start(), m.end()))
            taken.append((m.start(), m.end()))
    for regex in (textids._ARXIV_LABELLED_RE, textids._ARXIV_BARE_RE):
        for m in regex.finditer(blank):
            if all(m.end() <= s or m.start() >= e for s, e in taken):
                found.append(textids.TextId("arxiv", m.group("id"), m.start(), m.end()))
                taken.append((m.start(), m.end()))
    return sorted(found, key=lambda t: t.start)


_MD_BLOCK_LINES = st.sampled_from([
    "Title line", "===", "---", "  ---", "> quoted title", "> ---", "- item", "  - nested", "1. first", "2. second",
    "| title | authors |", "|---|---|", "| Adam | Kingma |", "a | b", "--|--", "Term", ": definition", "~ definition",
    "  : indented definition", "", "    code", "```", "# Heading", "Setext two", "-", "* * *", "[^1]: footnote",
    "[ref]: https://arxiv.org/abs/2401.00001", "<div>", "</div>", "Attention Is All You Need — Ashish Vaswani, Noam Shazeer",
    "  authors:: Ana Lima", "> [!note] Callout", "\t- tab item", "=== not underline", "- - -",
    "~~~", "~~~python", "<!-- a comment -->", "<img src=x>", "a < b", "[^note]: Kingma and Ba", "#hashtag line",
    "#", "    ", ">     quoted code", "-     item code", "\tcode after a tab", "---", "title: Notes", "...",
    "[x]:", "see [^1] here", "a ``` inline", "> > nested quote", "- > quote in item",
    "___", "_ _ _", "- --", "**", "*-*", "1. ***", "> ___", "- * * *", "--- trailing", "***bold***", "a --- b", "---\t",
    "__init__", "  - - - -", "-- -", "*\t*\t*", "- - x",
])


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
@given(st.lists(_MD_BLOCK_LINES, max_size=30).map("\n".join))
@settings(max_examples=400, deadline=None, derandomize=True)
def test_markdown_parser_without_unusable_rules_gives_the_same_tokens(text: str) -> None:
    """Leaving out the rules that have no line they could start from in a text (setext
    headings, tables, definition lists, fences, quotes, HTML, thematic breaks, references,
    footnotes, ATX headings, indented code, front matter, the newline normalisation), and the rules'
    debug logging, changes no token."""
    from citekit.notes.formats import markdown

    def tokens(parser):
        return [(t.type, t.tag, t.map, t.content, t.level, t.markup, t.info, t.meta, t.attrs) for t in parser.parse(text)]

    assert tokens(markdown._parser_for(text)) == tokens(markdown._parser())
    assert tokens(markdown._parser(markdown._unused_rules(text), False)) == tokens(markdown._parser())


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
def test_a_list_with_dashes_but_no_thematic_break_is_parsed_without_that_rule() -> None:
    """Bullets, dashes in titles and a spaced dash are no line a thematic break could be, so
    its rule (tried at every line) is left out; one ``- - -`` line brings it back."""
    from citekit.notes.formats import markdown

    notes = "- Attention Is All You Need — Vaswani\n  - x-y -- z\n* Adam - Kingma\n"
    assert "hr" in markdown._unused_rules(notes)
    assert "hr" not in markdown._unused_rules(notes + "- - -\n")
    assert "hr" not in markdown._unused_rules(notes + "  > ***")


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
def test_markdown_rule_logging_is_left_to_the_library_and_honoured_when_on(caplog) -> None:
    """The parser copies of markdown-it's rules drop their debug calls only while no
    handler wants them: the library's own loggers and functions are unchanged, and
    turning its debug logging on brings the messages back."""
    import logging

    from markdown_it.rules_block import list as md_list
    from citekit.notes.formats import markdown

    text = "- Adam — Diederik Kingma, Jimmy Ba\n  - Summary: a method.\n"
    assert not markdown._rule_logging_on()
    markdown._parser_for(text).parse(text)
    assert isinstance(md_list.LOGGER, logging.Logger)
    assert not [r for r in caplog.records if r.name.startswith("markdown_it")]
    with caplog.at_level(logging.DEBUG, logger="markdown_it"):
        assert markdown._rule_logging_on()
        markdown._parser_for(text).parse(text)
    assert any(r.name == "markdown_it.rules_block.list" for r in caplog.records)


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
@given(st.lists(st.sampled_from(["www", "m", "arxiv", "org", "youtube", "com", "x", "co", "github", "io", "", "sub-d", "medium"]), max_size=5).map(".".join))
@settings(max_examples=300, deadline=None, derandomize=True)
def test_site_lookup_by_dot_suffix_matches_each_site_tested_in_turn(host: str) -> None:
    from citekit.notes import urls

    for sites in (urls._PAPER_HOSTS, urls._VIDEO_HOSTS, urls._SOCIAL_HOSTS, urls._BLOG_HOSTS, frozenset({"x.com", "co", "io"})):
        assert urls._on_site(host, sites) == any(host == h or host.endswith("." + h) for h in sites)


@given(st.tuples(
    st.sampled_from(["http://", "https://", "HTTP://", "https:/", "ftp://", " https://", "https:", ""]),
    st.text(alphabet="ab.:/?#;@[]%é\t\n-_=&x0", max_size=30),
))
@settings(max_examples=500, deadline=None, derandomize=True)
def test_url_host_and_path_are_cut_where_urlsplit_cuts_them(parts: tuple[str, str]) -> None:
    """The anchored cut of an http(s) URL agrees with urlsplit on every URL, and a URL
    urlsplit rejects is still rejected."""
    from urllib.parse import urlsplit

    from citekit.core.ids import netloc_and_path

    url = "".join(parts)
    try:
        split = urlsplit(url)
    except ValueError:
        with pytest.raises(ValueError):
            netloc_and_path(url)
        return
    assert netloc_and_path(url) == (split.netloc, split.path)


@given(st.lists(st.sampled_from(["a", "Title", " ", "  ", "\t", "\n", "\xa0", "\u3000", "\u2028", "\x85", "\x1f", "\u200b", "é", "—", "\u202f", ""]), max_size=12).map("".join) | st.text(max_size=30))
@settings(max_examples=500, deadline=None, derandomize=True)
def test_spaces_are_squashed_as_split_and_join_squash_them(text: str) -> None:
    """A text returned as it is (already one plain space between words) is exactly what
    splitting it into words and joining them gives, whatever whitespace it holds."""
    from citekit.core.text import squash_spaces

    assert squash_spaces(text) == " ".join(text.split())


#: OpenReview links in the order a URL has its parts, each part drawn from real and odd
#: spellings: most are forum links the shortcut itself answers, the rest its edge cases
_OPENREVIEW_LINKS = st.tuples(
    st.sampled_from(["https://", "http://", "HTTPS://", " https://", "https:/", ""]),
    st.sampled_from(["openreview.net", "www.openreview.net", "api.openreview.net", "openreview.net:443",
                     "user@openreview.net", "[::1]", "example.org/openreview.net"]),
    st.sampled_from(["/forum", "/pdf", "/attachment", "/forum/", "/forum;p", "/group", "/FORUM", ""]),
    st.sampled_from(["?id=", "?id=", "?noteId=1&id=", "?ID=", "?", ""]),
    st.text(alphabet="abcDEF0123_-", min_size=4, max_size=22) | st.text(alphabet="ab01_-%+é ;=\t", max_size=12),
    st.sampled_from(["", "", "&noteId=x", "#discussion", "&id=secondID1", ";x", "/"]),
).map("".join)


@given(_OPENREVIEW_LINKS | st.lists(st.sampled_from([
    "https://", "http://", "openreview.net", "www.", "api.", "/forum", "/pdf", "/attachment", "/", "?", "id=", "&", "#",
    "abcDEF1234", "ab", "x_y-z0123", "%41", "+", ";", "noteId=1", "[", "é", " ", "\t", "=", "forum",
]), max_size=10).map("".join))
@settings(max_examples=500, deadline=None, derandomize=True)
def test_openreview_forum_shortcut_reads_what_the_full_parse_reads(value: str) -> None:
    """The common ``/forum?id=ID`` shape answers as urlparse and parse_qs do."""
    from urllib.parse import parse_qs, urlparse

    from citekit.core.ids import OPENREVIEW_ID_RE, normalize_openreview

    value = value.strip()
    if "openreview.net" not in value:
        return
    try:
        parsed = urlparse(value)
    except ValueError:
        with pytest.raises(ValueError):
            normalize_openreview(value)
        return
    expected = None
    if parsed.path.rstrip("/") in ("/forum", "/pdf", "/attachment"):
        ids = parse_qs(parsed.query).get("id")
        if ids and OPENREVIEW_ID_RE.match(ids[0]):
            expected = ids[0]
    assert normalize_openreview(value) == expected


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
@given(st.lists(st.sampled_from(["Title", " ", "\t", "\n", "\xa0", "\u3000", ".", "。", "．", "！", "!", "?", "et al.", "x", ""]), max_size=8).map("".join) | st.text(max_size=20))
@settings(max_examples=400, deadline=None, derandomize=True)
def test_sentence_end_is_read_at_the_end_as_the_pattern_reads_it(text: str) -> None:
    from citekit.notes import shapes

    assert shapes.ends_a_sentence(text) == bool(shapes._SENTENCE_END_RE.search(text))


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
@given(st.lists(st.sampled_from(["We", "we", "WE", "This paper", "this work", "THIS ARTICLE", "our method", "Our analysis",
                                 "in this paper", "In This Work", "experiments", "Experiment", "theoretical", "weight", "ours",
                                 "thesis", " ", ".", ",", "-", "x", "ſ", "K", "é"]), max_size=10).map(" ".join) | st.text(max_size=30))
@settings(max_examples=400, deadline=None, derandomize=True)
def test_research_cue_of_an_ascii_text_is_found_in_lower_case_as_with_case_folding(text: str) -> None:
    from citekit.notes import abstracts

    if text.isascii():
        assert bool(abstracts._RESEARCH_CUE_LOWER_RE.search(text.lower())) == bool(abstracts._RESEARCH_CUE_RE.search(text))


_ADDRESS_PIECES = st.sampled_from([
    "arxiv.org/abs/1802.09568", "www.arxiv.org/pdf/2101.0001", "https://arxiv.org/abs/1", "http://", "x", "_", "foo@",
    "dx.doi.org/10.1/abc", "doi.org/10.5/x", "proceedings.mlr.press/v70/a", "mlr.press/v7", "huggingface.co/papers/2106.09685",
    "openreview.net/forum?id=abc", " ", "\n", "/", ".", ":", "%", "-", "sub.", "ARXIV.ORG/ABS/1", "alphaxiv.org/abs/2",
    "(", ")", "「", "https://www.", "papers.nips.cc/paper/1", "nips.cc/", "openaccess.thecvf.com/content/x",
    "semanticscholar.org/paper/ab12", "paperswithcode.com/paper/x-1", "aclanthology.org/P19-1", "dl.acm.org/doi/10.1/x",
    "HF.CO/PAPERS/2106.1", "neurips.cc/", "proceedings.neurips.cc/paper/2", "İ", ".org/", ".co/",
])


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
@given(st.lists(_ADDRESS_PIECES, max_size=10).map("".join) | st.text(max_size=40))
@settings(max_examples=500, deadline=None, derandomize=True)
def test_addresses_are_completed_as_the_pattern_over_the_whole_text_would(text: str) -> None:
    """The pattern is tried only where a paper site's name occurs; over the whole text it
    completes the same addresses."""
    from citekit.notes import urls

    whole = text
    if any(n in text.lower() for n in urls._BARE_NEEDLES):
        whole = urls._BARE_URL_RE.sub(lambda m: "https://" + m.group(0), text)
    assert urls.add_missing_schemes(text) == whole


_WRAP_PIECES = st.sampled_from([
    "http:", "https://", "HTTPS://", "www.", "wandb.", "com/", "docs/", "x", " ", "  ", "\t", "\n", "\u3000", "\x1c", "/",
    "-", "_", "~", "#", "?", "=", "&", ":", ".", "org", "Title", "é",
])


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
@given(st.lists(st.lists(_WRAP_PIECES, max_size=6).map("".join) | st.text(max_size=12), min_size=1, max_size=4))
@example(["see https://github.com/\n", "docs/"]).via("a link cut before the text's one final line break")
@example(["at https://www.wandb.", "com/x"]).via("a host cut on its dot")
@settings(max_examples=500, deadline=None, derandomize=True)
def test_a_cut_link_is_found_in_the_last_word_as_the_patterns_find_it_in_the_whole_text(parts: list[str]) -> None:
    """A hard-wrapped paragraph is joined as when the cut-link patterns searched all of it."""
    from citekit.notes import outline

    text, widths = parts[0], [len(parts[0])]
    for part in parts[1:]:
        cut = outline._CUT_URL_RE.search(text) or (outline._CUT_HOST_RE.search(text) and outline._HOST_REST_RE.match(part))
        if part[:1] and not part[:1].isspace() and cut:
            widths[-1] -= 1
            text += part
        else:
            text += " " + part
        widths.append(len(part))
    assert outline.join_wrapped(parts) == (text, tuple(widths))


_START_PIECES = st.sampled_from([
    "[12]", "(3)", "12.", "1)", " ", "\t", "2101.12345", "1706.03762v5", "10.1145/", "10.", "x", ".", "1", "/", "\n", "٣",
    "[", "]", "Title",
])


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
@given(st.lists(_START_PIECES, max_size=8).map("".join) | st.text(max_size=20))
@settings(max_examples=500, deadline=None, derandomize=True)
def test_a_reference_number_or_identifier_is_found_as_the_one_pattern_finds_it(text: str) -> None:
    from citekit.notes import outline

    full = re.compile(r"^\s*(?:\[\d{1,4}\]|\(\d{1,4}\)|\d{1,4}[.)]\s)|\d{4}\.\d{4,5}|\b10\.\d{4,9}/")
    assert (outline._numbered_or_id(text) is None) == (full.search(text) is None)


_FINDER_PIECES = st.sampled_from([
    "2019", "(2020)", "2021a.", " ", "\n", "vol. 3", "Vol", "ıssue", "iſſue", "no. 4", "12(3):", "pp. 1-10", "3–5", "—",
    "\"", "''", "``", "“", "»", "et al.", "等", "A.", "Zhang, H.", "Name:", "：", "arXiv:2101.12345", "10.1145/x", "http://",
    "github.com", "#tag", "> ", "- ", "[1] ", "In Proc", "](", "....", "x", "é", "中文", "\u3000", "\x1c", "]", ")", ".", ",",
])


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
@given(st.lists(_FINDER_PIECES, max_size=12).map("".join) | st.text(max_size=40))
@example("Title “Quoted” (2019) iſſue 3, pp. 1–5").via("quotes, volume words and ranges outside ASCII")
@example("Smith J. 2019. Title ends 12–15\n").via("a reference ending before one final line break")
@settings(max_examples=500, deadline=None, derandomize=True)
def test_finder_line_shortcuts_answer_as_the_full_patterns(text: str) -> None:
    """The finder's cheap tests never skip a pattern that matches the line, its character
    counts are the ``str`` methods', and a reference ending is found in the last word as in
    the whole line."""
    from citekit.notes.finder import features

    low, digit, asc = text.lower(), any(map(str.isdigit, text)), text.isascii()
    year = features._YEAR.search(text) if digit else None
    for regex, _name, cheap in features._CHECKS:
        if cheap is not None and regex.search(text):
            assert cheap(text, low, digit, asc, year)
    letters, upper, digits, punct = features._char_counts(text)
    assert (letters, upper, digits) == (sum(map(str.isalpha, text)), sum(map(str.isupper, text)), sum(map(str.isdigit, text)))
    assert punct == len(text) - sum(map(str.isalnum, text)) - sum(map(str.isspace, text))
    assert bool(features._ENDS_REFERENCE.search(features._last_word(text))) == bool(features._ENDS_REFERENCE.search(text))


_GATED_PIECES = st.sampled_from([
    "Contriever", "Latent diffusion / Stable Diffusion", " ", "  ", "(", ")", "（", "）", "—", "–", "-", "=", ":", "：",
    "Unsupervised Dense Information Retrieval", "S4 = Efficiently Modeling Long Sequences", "read first: ",
    "paper", "Papers", "PAPER", "not", "non-", "no ", "isn't a ", "isn’t an actual ", "不是论文", "논문이 아니", "論文ではない", "other than papers", "[Computer software]", "[Data set]",
    "[code]", "[ code]", "[computer program]", "[Dataset and data set]", "https://github.com/a/b", "software available from", "ſoftware", "GitHub repository", "github", "Python package version", "R",
    "computer program", "pro\u212Aram", "data set", "dataset", "NAACL 2018", "ICML ’25", "2026", "٢٠٢٦", "26", ",", ";",
    "Egor Shulgin (KAUST)", "\n", "\t", "\u3000", "x", "é", "VAE", " = ", "WGAN: ", " -- ", " — ", "Kingma & Welling",
])
_GATED_TEXTS = st.lists(_GATED_PIECES, max_size=10).map("".join) | st.text(max_size=30)


def _same_match(a: re.Match | None, b: re.Match | None) -> bool:
    return (a is None and b is None) or (a is not None and b is not None and a.span() == b.span() and a.groupdict() == b.groupdict())


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
@given(_GATED_TEXTS)
@example("Egor Shulgin (KAUST)\n").via("a bracket before one final line break")
@example("Software available from ſ").via("a letter that matches s only when case is ignored")
@settings(max_examples=500, deadline=None, derandomize=True)
def test_short_name_release_and_section_shortcuts_answer_as_the_full_patterns(text: str) -> None:
    """A short name before its title, a reference's release field, a heading that says its
    items are no papers and a venue after the names are looked for only where their
    patterns could match: each answers as the full pattern."""
    from citekit.notes import extract, labels, shapes

    t = text.strip()
    full = (extract._NAME_THEN_TITLE_RE.match(t) or extract._NAME_DASH_TITLE_RE.match(t) or extract._NAME_IS_TITLE_RE.match(t))
    assert _same_match(extract._named_title_match(t), full)
    assert _same_match(extract._release_field(text), extract._RELEASE_FIELD_RE.search(text))
    assert extract._says_not_papers.__wrapped__(text) == bool(extract._NO_PAPERS_RE.search(text))
    assert extract._says_not_a_paper(text) == bool(extract._SAYS_NOT_A_PAPER_RE.search(text))
    assert _same_match(labels._trailing_venue(text), labels._TRAILING_VENUE_RE.search(text))
    from citekit.notes import refline

    assert _same_match(refline._short_name_lead(text), refline._SHORT_NAME_LEAD_RE.match(text))
    heading = t.lstrip("#").strip()
    if shapes._PERSON_RE.match(heading):
        assert heading.endswith((")", "）"))  # (the only texts person_heading still matches)


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
@given(st.lists(st.sampled_from(["Zhang,", "H.", " ", "\t", "\n", "\u00a0", "\u2003", "\u3000", "\x1c", "\x85", "\u200b",
                                 "\u00ad", "“Title”", "2019.", "ﬁ", "x"]), max_size=12).map("".join) | st.text(max_size=30))
@settings(max_examples=500, deadline=None, derandomize=True)
def test_reference_tokens_are_cut_as_the_token_pattern_cuts_them(text: str) -> None:
    """The reference parser reads the texts of its tokens by ``str.split``: the same cuts as
    the ``\\S+`` tokens of :func:`~citekit.notes.refparse.tokens.tokenize`, whatever the spaces."""
    from citekit.notes.refparse import tokens

    assert tokens.token_texts(text) == [t.text for t in tokens.tokenize(text)]


_WHOLE_TEXT_PIECES = st.sampled_from([
    "arxiv.org", "arXiv.orgarXiv.org", "github.comgithub.com", "a.b.c.d.e.f", "x" * 63 + ".org", "y" * 64 + ".org", "-", ".",
    " ", "\t", "\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "é", "Title words",
    "2026-01-02", "1-2", "3-45-6", "٣-٤-٥", "a-1-2", "-1-2", ":Effort:", ":EFFORT:", "State \"DONE\"", "State\t\"", "State",
    "- item", "https://arxiv.org/abs/2401.00001",
])


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
@given(st.lists(_WHOLE_TEXT_PIECES, max_size=12).map("".join) | st.text(max_size=30))
@example("a-12-3-4").via("a date-like run that overlaps an earlier candidate")
@settings(max_examples=500, deadline=None, derandomize=True)
def test_whole_text_checks_answer_as_their_full_patterns(text: str) -> None:
    """The checks run once on a whole file (a chat copy's link previews, an org file's odd
    line breaks and the body parsers' triggers) give what their full patterns give."""
    from citekit.notes import chatcopy
    from citekit.notes.formats import org, orgheadings

    assert chatcopy.has_link_previews(text) == bool(chatcopy._DOUBLED_SITE_RE.search(text))
    assert org._has_odd_break(text) == bool(org._ODD_BREAK_RE.search(text))
    assert orgheadings.body_parsers_inert(text) == (orgheadings._BODY_PARSER_TRIGGER_RE.search(text) is None)


_MAIL_PIECES = st.sampled_from([
    "From:", "From: ", "from: ", "Subject:\t", "To: ", "To:", "Sent: ", "Date: ", "DATE: ", "wrote:", "wrote:  ", " wrote :",
    "---", "--- Forwarded message", "----Forwarded message", "-- Forwarded message", "Forwarded message", "> ", ">>", "\n",
    "\r\n", " ", "\t", "x", "Title words (2024)", "\u2028", "\x85",
])


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
@given(st.lists(_MAIL_PIECES, max_size=12).map("".join) | st.text(max_size=30))
@settings(max_examples=500, deadline=None, derandomize=True)
def test_mail_header_check_answers_as_its_full_pattern(text: str) -> None:
    """Whether a whole notes text holds an e-mail's header or reply line is asked of the
    pattern only when a word it needs occurs: the answer is the pattern's."""
    from citekit.notes import extract

    assert extract._mail_header(text) == (extract._MAIL_HEADER_RE.search(text) is not None)


def _authors_line_by_patterns(text: str) -> list[str] | None:
    """:func:`~citekit.notes.shapes.authors_line` as its patterns alone read a line (every
    pattern searched, no substring test first)."""
    from citekit.notes import shapes

    text = text.strip()
    if shapes.URL_RE.search(text) or "(" in text:
        return None
    if shapes._AUTHOR_SEPS.search(text):
        parts = [p for p in shapes._AUTHOR_SEPS.split(text) if p]
    else:
        parts = [p for p in shapes._NAME_LIST_SPLIT_RE.split(text) if p]
        if len(parts) < 3:
            return None
        if not all(all(w[:1].isupper() or w in ("van", "von", "de", "der", "den", "di", "da", "du", "la", "le") for w in p.split()) for p in parts):
            return None
    if len(parts) < 2 or not all(shapes.is_name(p) for p in parts):
        return None
    return parts


_AUTHOR_LINE_PIECES = st.sampled_from([
    "Ana Lima", "Bo Chen", "van der Berg", "Émile Zola", ",", ", ", " , ", ";", "; and ", " and ", "and", " AND ", "&", " ⋅ ",
    "·", "・", " ", "\t", "\u3000", "(", ")", "https://x.org/a", "HTTP://X.ORG", "://", "ana", "Title words", "2024",
])


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
@given(st.lists(_AUTHOR_LINE_PIECES, max_size=10).map("".join) | st.text(max_size=30))
@example("Ana Lima and Bo Chen and Cy Dee").via("names joined by 'and' alone")
@example("Ana Lima; Bo Chen; Cy Dee").via("names between semicolons")
@example("Ana Lima ・ Bo Chen").via("two names around a middle dot")
@settings(max_examples=500, deadline=None, derandomize=True)
def test_author_list_lines_are_read_as_their_patterns_read_them(text: str) -> None:
    """An unlabelled author list is looked for behind substring tests (a separator, a bracket,
    ``://``): the names it gives, or none, are those its patterns give."""
    from citekit.notes import shapes

    assert shapes.authors_line.__wrapped__(text) == _authors_line_by_patterns(text)


_QUOTE_AND_LINK_PIECES = st.sampled_from([
    "'", "‘", "’", "\"", "“", "Deep Residual Learning", "Attention Is All", " ", "a", "](zotero://select/library/items/7QK3ZP9D)",
    "](zotero://select/groups/12/items/AB12)", "zotero://", "](ZOTERO://select/library/items/X)", "[", "(", ")", "]",
])


# unit: a speed shortcut must answer as the full rule it stands in for; the API's output cannot show which one ran
@given(st.lists(_QUOTE_AND_LINK_PIECES, max_size=12).map("".join) | st.text(max_size=30))
@example("dropped: 'Deep Residual Learning'. ok").via("a title in straight single quotes")
@example("see ‘Deep Residual Learning’ now").via("a title in curly single quotes")
@example("“x” ([Lima et al., 2022, p. 1](zotero://select/library/items/7QK3ZP9D))").via("a Zotero citation link")
@settings(max_examples=500, deadline=None, derandomize=True)
def test_single_quotes_and_zotero_links_are_looked_for_only_where_they_can_be(text: str) -> None:
    """A single-quoted title is looked for only in a text with a single quote, a Zotero
    item's link only in one with ``zotero://``: whatever the pattern finds, the text holds
    that character or word, and the quoted part read is the pattern's."""
    from citekit.notes import extract

    if extract._SINGLE_QUOTED_RE.search(text):
        assert "'" in text or "‘" in text
    if extract._ZOTERO_ITEM_RE.search(text):
        assert "zotero://" in text
    if extract._OPENING_QUOTE_RE.search(text) is None:
        spans = [m for m in extract._SINGLE_QUOTED_RE.finditer(text) if extract.title_case(m.group("q"))]
        if len(spans) != 1:
            assert extract._quoted_part(text) == text
