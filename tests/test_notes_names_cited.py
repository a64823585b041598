"""Papers named in chat, e-mail and notes prose by a short name with a citation, and prose
paragraphs that only look like abstracts (long, several sentences, "we")."""

from __future__ import annotations

from pathlib import Path

from tests.helpers_extract import mentions_by_line


def test_note_to_self_citing_a_paper_is_no_abstract(tmp_path: Path) -> None:
    """A long note in the first person that cites a paper by author and year is the user's
    prose: it is not taken as a pasted abstract (a mention with nothing in it), and the
    paper it cites is read."""
    text = (
        "## Reading notes\n\n"
        "Note to self: the Gopher-style report (Okonkwo et al. 2021) deliberately overtrains its small "
        "models because inference is what they pay for, not training. And the tokenizer paper (below) is "
        "the answer to \"what if we don't have enough text for the bigger model\". Also check the blog "
        "post on the ratio of tokens to parameters, which I'll summarise next week for the group meeting.\n"
    )
    by_line = mentions_by_line(tmp_path, text)
    kinds = [m["kind"] for ms in by_line.values() for m in ms]
    assert "abstract" not in kinds
    assert [m["authors"] for m in by_line[3]] == [["Okonkwo"]]


def test_chat_paragraph_in_the_first_person_is_no_abstract(tmp_path: Path) -> None:
    """A chat message run on into one paragraph ("I'll put on the talk", "can we agree")
    is not a paper's abstract, however many sentences it has."""
    text = (
        "optional: rotary embeddings (Sandoval et al), and the long-context tricks. Room 2.14, 3pm. "
        "If there's time I'll put on the talk about scaling at test time, it's 40 min. Can we also just "
        "agree that accuracy at one sample is the number we report? Half the posts report majority voting "
        "and call it accuracy. Quick update before the session: our experiments on the small model went well.\n"
    )
    by_line = mentions_by_line(tmp_path, text, name="notes.txt")
    assert all(m["kind"] != "abstract" for ms in by_line.values() for m in ms)


def test_prose_line_in_an_email_is_no_reference_string(tmp_path: Path) -> None:
    """A line of a forwarded e-mail that reads on from a reference-like line, with no author
    and no year to read, is prose: no empty mention keeps it as a reference string, and the
    paper it names with its authors (``Atlas-XL (Brannigan et al.)``) is read."""
    text = (
        "> Quantization\n"
        ">  - SparseQ\n"
        ">\n"
        "> Priya -- anything from your list I dropped? I left out the\n"
        "> sharding paper and Atlas-XL (Brannigan et al.) because nobody will be\n"
        "> training anything big.\n"
    )
    mentions = [m for ms in mentions_by_line(tmp_path, text, name="fwd.txt").values() for m in ms]
    assert all(m["title"] or m["authors"] or m["urls"] for m in mentions)
    assert [m["authors"] for m in mentions if m["location"]["line"] == 5] == [["Brannigan"]]


def test_coined_name_dash_author_list_with_venue_year(tmp_path: Path) -> None:
    """``SparseQ -- Mirelle, Quist, Oyelaran, Brandt, ICLR 2023``: a paper's coined name, then
    its authors closed by a venue and year. The name stays the name the notes give (as with
    ``SparseQ (Mirelle, …, ICLR 2023)``), the authors and year are what a lookup confirms it by."""
    text = "Quantization\n- SparseQ -- Mirelle, Quist, Oyelaran, Brandt, ICLR 2023\n- Dinner -- Smith, Jones, Paris 2023\n"
    by_line = mentions_by_line(tmp_path, text)
    [m] = by_line[2]
    assert (m["title"], m["authors"], m["venue"], m["year"]) == ("SparseQ", ["Mirelle", "Quist", "Oyelaran", "Brandt"], "ICLR", 2023)
    assert 3 not in by_line  # (a plain word before the dash: no paper's name)


def test_serial_and_before_an_et_al_citation_joins_the_sentence(tmp_path: Path) -> None:
    """``…, Lanternfish: Small Models Can Teach Themselves to Plan Routes, and Okafor et al.
    2023 …``: the comma and "and" join items of the sentence; the citation is Okafor's alone
    (the title's last word is no co-author)."""
    text = ("Papers worth pulling from it: Quillon (Marsh et al. 2022), Lanternfish: Small Models Can "
            "Teach Themselves to Plan Routes, and Okafor et al. 2023 Town Simulation (the village one).\n")
    authors = [m["authors"] for ms in mentions_by_line(tmp_path, text).values() for m in ms]
    assert ["Okafor"] in authors
    assert all("Routes" not in a for a in authors)



def test_chat_message_with_a_link_and_a_citation_is_no_reference() -> None:
    """``also for … next week: I'd read TesselFormer (rotary tricks), the GQB paper <link>,
    and Marsh et al. 2020 on …``: a message, not a reference whose title is its first clause
    (it speaks as someone, in lower case); the link and the citation are read apart."""
    from citekit.notes.refline import parse_reference

    text = ("also for anyone doing the data side next week: I'd read TesselFormer (rotary tricks), the GQB paper "
            "https://arxiv.org/abs/2305.99999, and Marsh et al. 2020 on pre-LN vs post-LN. that's like 80% of the "
            "arch changes in the last few years")
    ref = parse_reference(text)
    assert ref is None or not ref.title.startswith("also")


def test_same_first_author_other_year_is_another_paper(tmp_path: Path) -> None:
    """``no pooling (cf. Lindqvist et al. 2014, JMLR). Compare Gated Relays (Lindqvist, Moreau,
    Abara 2015)``: the same first author with another year cites her other paper, not the
    titled one again."""
    text = ("identity shortcuts everywhere, no pooling (cf. Lindqvist et al. 2014, JMLR). Compare Gated Relays "
            "(Lindqvist, Moreau, Abara 2015) — gated shortcuts.\n")
    mentions = [m for ms in mentions_by_line(tmp_path, text, name="notes.txt").values() for m in ms]
    assert (["Lindqvist"], 2014) in [(m["authors"], m["year"]) for m in mentions]


def test_sentence_verb_before_an_inline_title_is_not_the_title(tmp_path: Path) -> None:
    """``… no pooling. Compare Gated Relay Networks (Lindqvist, Moreau, Abara 2015) — …``: the
    sentence opens with its verb, capitalised; the title is what follows it."""
    text = "identity shortcuts everywhere, no pooling. Compare Gated Relay Networks (Lindqvist, Moreau, Abara 2015) — gated shortcuts.\n"
    titles = [m["title"] for ms in mentions_by_line(tmp_path, text, name="notes.txt").values() for m in ms]
    assert "Gated Relay Networks" in titles


def test_whole_title_listed_in_a_sentence(tmp_path: Path) -> None:
    """``…, Lanternfish: Small Models Can Teach Themselves to Plan Routes, and …``: an item of a
    list in prose that is a paper's whole title (its name, a colon, the rest in title case) is
    read, whether or not the sentence also gives an identifier; a label and a line of its
    own (``Update: The Training Runs …``) is no title."""
    text = (
        "Notes:\n"
        "planning breakdown. Worth pulling: Quillon (Marsh et al. 2022), CoT (Ade et al. 2022, arXiv 2201.99999), "
        "Lanternfish: Small Models Can Teach Themselves to Plan Routes, and Okafor et al. 2023.\n"
        "\n"
        "we read Quillon (Marsh et al. 2022), Brightwater: Sparse Experts Can Route Their Own Tokens Well, and more.\n"
        "\n"
        "ok, Update: The Training Runs Finished Early On Tuesday Night, and we moved on.\n"
    )
    titles = [m["title"] for ms in mentions_by_line(tmp_path, text, name="notes.txt").values() for m in ms]
    assert "Lanternfish: Small Models Can Teach Themselves to Plan Routes" in titles
    assert "Brightwater: Sparse Experts Can Route Their Own Tokens Well" in titles
    assert not any(t and t.startswith("Update") for t in titles)


def test_a_title_in_brackets_after_the_word_paper_is_that_papers_title(tmp_path: Path) -> None:
    # "X paper (Title)": the writer names the paper, then gives its title; a bracket of
    # names after "paper" is its authors, and a bracket that cites with a year or a quoted
    # title is read as a citation, not as a bare title
    text = ("GateNet paper (A Router for the Long Tail of the 2020s) argues the gap is the recipe\n"
            "\n"
            "the ViT+Gate paper (Okafor, Brandt, Keller) is worth a look too\n")
    got = mentions_by_line(tmp_path, text, "notes.txt")
    assert [m["title"] for m in got[1]] == ["A Router for the Long Tail of the 2020s"]
    assert all(m["title"] != "Okafor, Brandt, Keller" for m in got.get(3, []))


def test_the_names_after_a_dash_after_a_quoted_title_are_its_authors(tmp_path: Path) -> None:
    # a post quotes the title, then its authors after a dash, then remarks in lower case
    text = '2/ "Are Sparse Routers a Mirage for Long Documents?" — Okafor, Brandt & Keller. well deserved award. use a continuous metric\n'
    got = mentions_by_line(tmp_path, text, "posts.txt")
    assert [(m["title"], m["authors"]) for m in got[1]] == [
        ("Are Sparse Routers a Mirage for Long Documents?", ["Okafor", "Brandt", "Keller"])]


def test_whole_title_alone_on_a_list_item(tmp_path: Path) -> None:
    """``- Lanternfish: Small Models Can Teach Themselves to Plan Routes`` alone on a list
    item: the same shape that names a paper inside a sentence (a coined name, a colon, five
    words or more in title case) names it on a line of its own, a remark after a dash aside; a
    label word before the colon, a remark in sentence case, a blog post and a name before its
    authors are no titles."""
    text = (
        "Reading for next week:\n"
        "   - Lanternfish: Small Models Can Teach Themselves to Plan Routes\n"
        "   - Update: The Training Runs Finished Early On Tuesday Night\n"
        "   - Brightwater: we should try this on the small cluster first\n"
        "   - Quillon: How We Made Our Tokenizer Fast Again (Blog Post)\n"
        "   - Marlowe: Sparse Experts Route Their Own Tokens Well -- won the best paper award\n"
        "   - Brightwater: Osei, Lindqvist, Marsh, Abara\n"
    )
    titles = [m["title"] for ms in mentions_by_line(tmp_path, text, name="notes.txt").values() for m in ms]
    assert titles == ["Lanternfish: Small Models Can Teach Themselves to Plan Routes",
                      "Marlowe: Sparse Experts Route Their Own Tokens Well"]


def test_a_link_in_another_citations_brackets_is_that_citations_paper(tmp_path: Path) -> None:
    """``MQR is Lindqvist's "Title" (2019); GQR (Moro et al. 2023, https://arxiv.org/abs/…)``:
    the link is written inside the brackets of Moro's citation, so it is that paper's, not
    the quoted title's, also when an e-mail's wrap puts it on the next line."""
    text = (
        "Hi all,\n\n"
        "6) KV heads: MQR is from Lindqvist's \"Fast Sparse Decoding: One Gate Is All You Need\" (2019); GQR (Moro et al. 2023,\n"
        "   https://arxiv.org/abs/2305.99999) is what the big models actually use.\n\n"
        "7) KV heads: MQR is from Lindqvist's \"Fast Sparse Decoding: One Gate Is All You Need\" (2019); "
        "GQR (Moro et al. 2023, https://arxiv.org/abs/2305.99999) is what the big models use.\n"
    )
    got = [(m["title"], m["authors"], m["ids"]["arxiv"]) for ms in mentions_by_line(tmp_path, text, name="notes.txt").values() for m in ms]
    assert got == [("Fast Sparse Decoding: One Gate Is All You Need", ["Lindqvist"], None), (None, ["Moro"], "2305.99999")] * 2


def test_an_identifier_alone_in_brackets_after_another_name_is_that_names_paper(tmp_path: Path) -> None:
    """``"Title" (Moro et al., 2023) — cite both. Quillon (arXiv 2401.99999) drops …``: the
    identifier sits alone in brackets right after Quillon, so it is Quillon's paper, not the
    quoted title's."""
    text = (
        "Notes:\n"
        "same trick as the concurrent \"Gated Sparse Routing for Cheap Mixture Experts\" (Moro et al., 2023) — cite both. "
        "Quillon (arXiv 2401.99999) drops the router, adds extra heads instead.\n"
    )
    got = [(m["title"], m["ids"]["arxiv"]) for ms in mentions_by_line(tmp_path, text, name="notes.txt").values() for m in ms]
    assert got == [("Gated Sparse Routing for Cheap Mixture Experts", None), (None, "2401.99999")]


def test_a_quoted_named_title_beside_its_citation_keeps_the_citations_authors(tmp_path: Path) -> None:
    """``- Quillon v2 exists too (Moro et al., NAACL 2022 — "Quillon2: Effective …")``: a
    named title quoted in a citation's brackets is read with that citation, not as a
    title alone on its line."""
    text = ("- Quillon v2 exists too (Moro et al., NAACL 2022 — \"Quillon2: Effective and Efficient "
            "Routing via Lightweight Late Gating\"), add a row??\n")
    got = [(m["title"], m["authors"]) for ms in mentions_by_line(tmp_path, text, name="notes.md").values() for m in ms]
    assert (None, ["Moro"]) in got or ("Quillon2: Effective and Efficient Routing via Lightweight Late Gating", ["Moro"]) in got


def test_title_before_a_citation_of_one_name_and_et_al(tmp_path: Path) -> None:
    """``… leaned on Sparse Routers Scale Step by Step (Lindqvist et al.) last year``: a
    title in title case right before brackets holding one name and ``et al.`` alone is that
    citation's title, with no year as with one; a person's name before a bracketed name is
    no title."""
    text = (
        "3/7 No RM anywhere. Funny given how hard everyone leaned on Sparse Routers Scale Step by Step "
        "(Lindqvist et al.) last year\n\n"
        "Talked to Bob Smith (Moro et al.) at the poster.\n"
    )
    got = [(m["title"], m["authors"]) for ms in mentions_by_line(tmp_path, text, name="notes.txt").values() for m in ms]
    assert ("Sparse Routers Scale Step by Step", ["Lindqvist"]) in got
    assert not any(t == "Bob Smith" for t, _a in got)


def test_a_list_of_names_with_brackets_gives_the_last_citation_to_its_own_name(tmp_path: Path) -> None:
    """``… cousins: QRWK ("Reinventing Routers for the Sparse Era"), Hyrax (Poli et al.).``: a
    list whose items carry their own brackets is no title with the last item's authors; the
    quoted title stands alone and Poli et al. is Hyrax's citation."""
    text = "- linear cousins: QRWK (\"Reinventing Routers for the Sparse Era\"), Hyrax (Poli et al.).\n"
    got = [(m["title"], m["authors"]) for ms in mentions_by_line(tmp_path, text, name="notes.md").values() for m in ms]
    assert ("Reinventing Routers for the Sparse Era", []) in got and (None, ["Poli"]) in got


def test_a_remark_after_a_citation_that_cites_another_paper_is_read(tmp_path: Path) -> None:
    """``GLU is from GateNet (Moro et al., 2021) — gate each unit. The other option was SwiGLU
    ("Title", Lind et al. ICLR 2022) but …``: what follows the dash cites another paper, so it
    is prose citing several, not a remark to cut; the quoted title is read with its citation."""
    text = ("Background: GLU is from GateNet (Moro et al., 2021) — gate each unit by a learned sigmoid. The other "
            "option was SwiGLU (\"Gated Linear Units Improve Sparse Mixture Routing\", Lind et al. ICLR 2022) but "
            "nobody uses it anymore.\n")
    got = [(m["title"], m["authors"]) for ms in mentions_by_line(tmp_path, text, name="notes.md").values() for m in ms]
    assert ("Gated Linear Units Improve Sparse Mixture Routing", ["Lind"]) in got


def test_a_quoted_title_in_sentence_case_with_its_venue_in_brackets(tmp_path: Path) -> None:
    """``QGrad = "on the convergence of gated routers and beyond" (ICLR'18)``: quoted words
    with a known venue and its year alone in brackets after them are a paper's title, in any
    case; a quoted phrase with no venue beside it stays a phrase."""
    text = (
        "QGrad = \"on the convergence of gated routers and beyond\" (ICLR'18), the one w/ the counterexample\n\n"
        "we call this \"the convergence of gated routers and beyond\" in the draft, for now\n"
    )
    got = [(m["title"], m["year"]) for ms in mentions_by_line(tmp_path, text, name="notes.md").values() for m in ms]
    assert got == [("on the convergence of gated routers and beyond", 2018)]


def test_a_citation_beside_a_link_is_no_title(tmp_path: Path) -> None:
    """``| GR | Osei et al. 2023, 2309.99999 |`` in a table's paper column, ``Moro et al. 2022 —
    arxiv.org/abs/2212.99999`` on a line, ``JMLR 2020, arXiv 1910.99999``: the words beside the
    link are its citation or its venue; the link is the paper, with those authors, and no
    title is made of them."""
    text = (
        "| Method | Paper | Notes |\n| --- | --- | --- |\n"
        "| GR | Osei et al. 2023, 2309.99999 | per-band ramp |\n\n"
        "Moro et al. 2022 — arxiv.org/abs/2212.99999\n\n"
        "JMLR 2020, arXiv 1910.99999\n"
    )
    got = [(m["title"], m["authors"], m["ids"]["arxiv"]) for ms in mentions_by_line(tmp_path, text, name="notes.md").values() for m in ms]
    assert got == [(None, ["Osei"], "2309.99999"), (None, ["Moro"], "2212.99999"), (None, [], "1910.99999")]
