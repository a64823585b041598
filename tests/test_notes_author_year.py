"""Papers named in chat, tweets, e-mails and annotations by author and year only
(``Kingma & Ba 2014 (Adam)``, ``(Hsieh et al., 2024)``, ``Kwon et al SOSP '23``): each is a
mention with its authors and year and no title (kind ``cited``), never a title made up from
the words around it, never folded into another paper; it waits as pending with its
authors and year, offline and online alike.

Each notes file is written in the style the citations were met in (a Slack log copied as
text, copied tweets, Zotero annotation notes, a forwarded e-mail).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from citekit import api
from citekit.cli import main

from .helpers_project import make_project
from tests.helpers_extract import extract_mentions

SLACK = """\
Jana Novak  9:02 AM
optimisation reading list (for first-years, roughly in order):
- Kingma & Ba 2014 (Adam)
- Sharpness-Aware Minimization (Foret et al.)
Dan Okafor  9:30 AM
also Shampoo (Gupta, Koren & Singer) since Muon is kind of a descendant of it
Priya Raman  9:41 AM
fyi we're moving the eval server to vLLM; background is Kwon et al SOSP '23
room 3.21 is booked for the ICML 2024 recap, Spring 2024 reading group, Q&A 2024 after
"""


def _cited(mentions: list[dict]) -> list[tuple[int, list[str], bool, int | None]]:
    return [(m["location"]["line"], m["authors"], m["authors_incomplete"], m["year"])
            for m in mentions if m["kind"] == "cited"]


def test_author_year_citations_in_a_slack_log_are_mentions_without_a_title(tmp_path: Path) -> None:
    mentions = extract_mentions(tmp_path, "slack_reading-group.txt", SLACK)
    assert _cited(mentions) == [
        (3, ["Kingma", "Ba"], False, 2014),
        (6, ["Gupta", "Koren", "Singer"], False, None),
        (8, ["Kwon"], True, 2023),
    ]
    assert all(m["title"] is None for m in mentions if m["kind"] == "cited")
    # a paper's short name before its citation in brackets is its title (people, not an affiliation)
    assert [(m["title"], m["authors"], m["authors_incomplete"]) for m in mentions if m["location"]["line"] == 4] == [
        ("Sharpness-Aware Minimization", ["Foret"], True)]
    # a conference, a season, "Q&A": no names, no citation
    assert not [m for m in mentions if m["location"]["line"] == 9]


def test_tweets_citing_several_papers_on_one_line_give_one_mention_each(tmp_path: Path) -> None:
    mentions = extract_mentions(tmp_path, "saved_tweets.txt", (
        "Rich Data Takes\n@richdatatakes\n\n"
        "every \"new\" prompting paper is CoT (Wei et al. 2022) + self-consistency (Wang et al.) "
        "+ ToT (Yao et al. 2023) in a trench coat\n"))
    assert _cited(mentions) == [(4, ["Wei"], True, 2022), (4, ["Wang"], True, None), (4, ["Yao"], True, 2023)]


def test_a_citation_beside_a_quoted_title_is_not_a_second_paper(tmp_path: Path) -> None:
    mentions = extract_mentions(tmp_path, "zotero-annotations.md", (
        "# Annotations\n\n"
        "“the standard RLHF pipeline” i.e. InstructGPT (Ouyang et al. 2022, “Training language models to follow "
        "instructions with human feedback”) as in the [Rafailov et al., 2023, p. 3](zotero://select/library/items/FJ3T8N2V)\n"))
    titled = [m for m in mentions if m["title"]]
    assert [m["title"] for m in titled] == ["Training language models to follow instructions with human feedback"]
    assert _cited(mentions) == [(3, ["Rafailov"], True, 2023)]  # the annotated paper itself, once


def test_a_reference_line_with_its_authors_gives_no_extra_citation(tmp_path: Path) -> None:
    mentions = extract_mentions(tmp_path, "reading.md", (
        "- Scaling Laws for Neural Language Models — Kaplan et al., 2020\n"
        "- Robbins & Monro 1951, \"A Stochastic Approximation Method\"\n"))
    assert [m["kind"] for m in mentions] == ["titled", "titled"]
    assert mentions[1]["title"] == "A Stochastic Approximation Method"
    assert mentions[1]["authors"] == ["Robbins", "Monro"] and mentions[1]["year"] == 1951


def test_the_same_citation_on_every_annotation_is_one_pending_work_offline(tmp_path: Path) -> None:
    root = make_project(tmp_path, notes=False)
    (root / "notes").mkdir()
    (root / "notes" / "lora-annotations.md").write_text(
        "# Annotations\n\n"
        "“We hypothesize that the change in weights during model adaptation also has a low intrinsic rank.” ([Hu et al., 2021, p. 2](zotero://select/library/items/7QK3ZP9D))\n\n"
        "“Adapter layers introduce inference latency.” ([Hu et al., 2021, p. 3](zotero://select/library/items/7QK3ZP9D))\n\n"
        "- Kingma & Ba 2014 (Adam)\n", encoding="utf-8")
    report = api.sync(root, offline=True)
    cited = [p for p in report.pending if p["kind"] == "cited"]
    assert sorted((p["text"], len(p["where"])) for p in cited) == [("Hu et al. 2021", 2), ("Kingma & Ba 2014", 1)]
    assert report.created == [] and api.load_library(root).entries == {}
    waiting = api.pending(root)
    assert {(w["why"], w["hint"]) for w in waiting} == {("authors and year only", "Hu et al. 2021"),
                                                         ("authors and year only", "Kingma & Ba 2014")}
    shown = CliRunner().invoke(main, ["-C", str(root), "sync", "--offline"])
    assert "authors and year only  Kingma & Ba 2014" in shown.output, shown.output  # the words `list` uses


@pytest.fixture()
def online(tmp_path, monkeypatch, fake_services):
    monkeypatch.setenv("CITEKIT_RATE_LIMITS", "off")
    monkeypatch.setenv("CITEKIT_MAILTO", "researcher@example.org")
    monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "cache"))
    root = make_project(tmp_path, notes=False)
    (root / "notes").mkdir()
    return root


def test_online_a_citation_with_no_title_stays_pending_and_joins_no_paper(online: Path) -> None:
    (online / "notes" / "Fwd_reading_list.txt").write_text(
        "From: Marcus <marcus@example.org>\nSubject: Fwd: reading list\n\n"
        ">   - Jacot, Gabriel & Hongler 2018 -- the NTK paper\n"
        ">   - grokking (Power et al. 2022)\n", encoding="utf-8")
    report = api.sync(online)
    assert report.created == []
    assert sorted(p["text"] for p in report.pending) == ["Jacot, Gabriel & Hongler 2018", "Power et al. 2022"]
    assert all(p["kind"] == "cited" and p["title"] is None for p in report.pending)


def test_names_in_citation_syntax_then_a_title_in_a_forwarded_reading_list(tmp_path: Path) -> None:
    mentions = extract_mentions(tmp_path, "Fwd_reading_list.txt", (
        "---------- Forwarded message ---------\n"
        "From: Marcus <marcus@example.org>\n\n"
        ">   - Loshchilov & Hutter, Decoupled Weight Decay Regularization\n"
        ">   - Bartlett & Mendelson 2002, Rademacher and Gaussian complexities: risk bounds and structural results\n"
        ">   - Smith & Jones, thanks for the help with the reading list yesterday\n"))
    got = [(m["location"]["line"], m["title"], m["authors"], m["year"]) for m in mentions]
    assert got == [
        (4, "Decoupled Weight Decay Regularization", ["Loshchilov", "Hutter"], None),
        (5, "Rademacher and Gaussian complexities: risk bounds and structural results", ["Bartlett", "Mendelson"], 2002),
    ]


def test_chinese_notes_write_et_al_as_deng(tmp_path: Path) -> None:
    mentions = extract_mentions(tmp_path, "组会阅读清单.md", (
        "## 第三周\n"
        "- 顺便提一下「Latent Diffusion」那篇（Rombach 等, CVPR 2022），但这周不展开\n"))
    assert _cited(mentions) == [(2, ["Rombach"], True, 2022)]
    assert mentions[0]["venue"] == "CVPR"


def test_an_org_agenda_heading_cites_its_paper(tmp_path: Path) -> None:
    mentions = extract_mentions(tmp_path, "research.org", (
        "* Reading\n"
        "** TODO GAN baseline (Goodfellow et al. 2014) -- Okafor insists\n"
        "   SCHEDULED: <2025-03-04 Tue>\n"))
    assert _cited(mentions) == [(2, ["Goodfellow"], True, 2014)]


def test_a_quoted_title_in_a_tweet_taken_whole_is_the_title_not_the_tweet(tmp_path: Path) -> None:
    mentions = extract_mentions(tmp_path, "saved_tweets.txt", (
        "chemistry nobel to the AlphaFold folks 🧬 the paper everyone's citing today: Jumper et al. 2021, "
        "\"Highly accurate protein structure prediction with AlphaFold\", Nature. https://doi.org/10.1038/s41586-021-03819-2\n\n"
        "Über Horváth’s “Gradient” Methods — Samuel Horváth\n"))
    assert [m["title"] for m in mentions] == ["Highly accurate protein structure prediction with AlphaFold",
                                              "Über Horváth’s “Gradient” Methods"]


def test_a_reference_list_copied_out_of_a_pdf_reads_wrapped_arxiv_lines_and_split_accents(tmp_path: Path) -> None:
    mentions = extract_mentions(tmp_path, "refs_dump_from_pdfs.txt", (
        "References\n\n"
        "Ian Goodfellow, Yoshua Bengio, and Aaron Courville. Deep Learning. MIT Press, 2016.\n"
        "Stanisław Jastrz˛ebski, Zachary Kenton, Devansh Arpit, Nicolas Ballas, Asja Fischer, Yoshua\n"
        "   Bengio, and Amos Storkey. Three factors inﬂuencing minima in SGD. arXiv preprint\n"
        "   arXiv:1711.04623, 2017.\n"
        "Diederik P Kingma and Jimmy Ba. Adam: A method for stochastic optimization. In International\n"
        "   Conference on Learning Representations, 2015.\n"))
    got = {m["location"]["line"]: (m["title"], len(m["authors"]), m["ids"].get("arxiv")) for m in mentions}
    assert got[4] == ("Three factors influencing minima in SGD", 7, "1711.04623")
    assert got[7] == ("Adam: A method for stochastic optimization", 2, None)


def test_a_title_quoted_in_a_chat_message_is_a_mention_but_a_book_chapter_is_not(tmp_path: Path) -> None:
    mentions = extract_mentions(tmp_path, "slack_reading-group.txt", (
        "Tomasz Wiśniewski  9:10 AM\n"
        "can we add \"Symbolic Discovery of Optimization Algorithms\" to that list? feels like required reading\n"
        "Jana Novak  9:12 AM\n"
        "- re-read ch. 8 \"Optimization for Training Deep Models\" before writing sec 2\n"
        "- the Simons Institute \"Foundations of Deep Learning\" program videos\n"
        "- someone said \"this is going to be a long week\" lol\n"))
    assert [(m["location"]["line"], m["title"], m["authors"]) for m in mentions] == [
        (2, "Symbolic Discovery of Optimization Algorithms", [])]


def test_a_zotero_annotation_is_not_a_title_its_citation_names_the_item(tmp_path: Path) -> None:
    mentions = extract_mentions(tmp_path, "zotero-annotations.md", (
        "# Annotations\n(2/14/2024, 3:22:07 PM)\n\n"
        "“a low intrinsic rank” ([Hu et al., 2021, p. 2](zotero://select/library/items/7QK3ZP9D)) "
        "([pdf](zotero://open-pdf/library/items/X4B2MN8R?page=2&annotation=2UPVJ5TA)) core claim\n\n"
        "“adapter layers” ([Hu et al., 2021, p. 3](zotero://select/library/items/7QK3ZP9D)) → the adapters they mean are "
        "Houlsby et al. 2019, “Parameter-Efficient Transfer Learning for NLP”\n"))
    assert [(m["location"]["line"], m["kind"], m["title"], m["authors"]) for m in mentions] == [
        (4, "cited", None, ["Hu"]),
        (6, "titled", "Parameter-Efficient Transfer Learning for NLP", ["Houlsby"]),
        (6, "cited", None, ["Hu"]),
    ]


SLACK_SHORT = """\
Mira Chen  4:02 PM
sounds good

Also Adafactor (Shazeer & Stern) since it is what T5 used
Reading Group Topics
"""


def test_a_short_chat_message_citing_by_names_is_no_section_label(tmp_path: Path) -> None:
    mentions = extract_mentions(tmp_path, "slack_optimizers.txt", SLACK_SHORT)
    assert _cited(mentions) == [(4, ["Shazeer", "Stern"], False, None)]


def test_a_list_closed_by_and_is_not_carried_into_the_et_al_after_it(tmp_path: Path) -> None:
    text = "% related work\nInitialisation matters too: Saxe and McClelland, Mishkin et al., and others since.\n"
    mentions = extract_mentions(tmp_path, "draft.tex", text)
    assert all(m["authors"][:1] != ["Saxe"] or "Mishkin" not in m["authors"] for m in mentions)
    assert [(m["authors"], m["authors_incomplete"]) for m in mentions if "Mishkin" in m["authors"]] == [(["Mishkin"], True)]


def test_family_names_joined_by_commas_alone_in_brackets_are_a_citation(tmp_path: Path) -> None:
    # three or more family names and nothing else in brackets (a venue and year may follow,
    # inside or after them) cite a paper; people present, or method names, do not
    text = ("* Quals reading\n"
            "** TODO SAC (Haarnoja, Zhou, Abbeel, Levine — ICML 2018)\n"
            "** TODO decision transformer (Chen, Lu, Rajeswaran, Grover, Mordatch) NeurIPS 21\n"
            "** sampling: DDIM (Song, Meng, Ermon) for the deterministic fast sampler\n"
            "** background on state spaces (Gu, Goel, Ré, ICLR 22) if time\n"
            "** the retrieval one (Gao, Ma, Lin, Callan 2022) is optional\n"
            "** meeting: presenters (Priya, Marcus, Lena) bring slides\n"
            "** compare optimisers (Adam, Lion, Muon, Shampoo, Transformer) on the toy task\n")
    mentions = extract_mentions(tmp_path, "agenda.org", text)
    assert _cited(mentions) == [
        (2, ["Haarnoja", "Zhou", "Abbeel", "Levine"], False, 2018),
        (3, ["Chen", "Lu", "Rajeswaran", "Grover", "Mordatch"], False, 2021),
        (4, ["Song", "Meng", "Ermon"], False, None),
        (5, ["Gu", "Goel", "Ré"], False, 2022),
        (6, ["Gao", "Ma", "Lin", "Callan"], False, 2022),
    ]
    assert [m["venue"] for m in mentions if m["kind"] == "cited"][:2] == ["ICML", "NeurIPS"]


def test_a_citation_in_brackets_right_after_a_quoted_title_is_that_papers(tmp_path: Path) -> None:
    text = ('Dana Okafor  10:04 AM\n'
            'background if ppl never saw SSMs: "Efficiently Modeling Long Sequences with Structured State Spaces" '
            '(Gu, Goel, Ré, ICLR 22), and Mamba (Gu & Dao) after it\n')
    mentions = extract_mentions(tmp_path, "slack_reading.txt", text)
    s4 = [m for m in mentions if m["title"] == "Efficiently Modeling Long Sequences with Structured State Spaces"]
    assert [(m["authors"], m["year"]) for m in s4] == [(["Gu", "Goel", "Ré"], 2022)]
    # the bracket is the title's citation, no paper of its own; the next bracket is one
    assert _cited(mentions) == [(2, ["Gu", "Dao"], False, None)]


def test_a_quoted_title_beside_the_family_name_song_is_a_paper(tmp_path: Path) -> None:
    # "Song" capitalised is a family name, not a song: the line is no list of songs or books
    text = ("3/ then Song et al's SDE paper — \"Score-Based Generative Modeling through Stochastic Differential "
            "Equations\" — which puts score matching and DDPM in one frame\n")
    mentions = extract_mentions(tmp_path, "saved_tweets.txt", text)
    assert "Score-Based Generative Modeling through Stochastic Differential Equations" in [m["title"] for m in mentions]



def test_a_title_in_curly_single_quotes_after_its_citation(tmp_path: Path) -> None:
    text = ("# Wk 8\n\n"
            "- multi-query attention came up → Shazeer 2019, ‘One Write-Head is All You Need’\n"
            "- we don’t think ‘just add more heads’ works, and it’s not a paper\n")
    mentions = extract_mentions(tmp_path, "wk8.md", text)
    titled = [(m["location"]["line"], m["title"], m["authors"], m["year"]) for m in mentions if m["title"]]
    assert titled == [(3, "One Write-Head is All You Need", ["Shazeer"], 2019)]


def test_a_name_and_year_then_a_dash_and_a_title_cite_that_paper(tmp_path: Path) -> None:
    text = ("* Quals\n"
            "** TODO Kowalski 2021 — a survey of sparse routing methods in practice\n"
            "** Vienna 2024 — notes from the conference days and the posters\n"
            "** Okafor 2022 — great read\n")
    mentions = extract_mentions(tmp_path, "agenda.org", text)
    assert [(m["location"]["line"], m["title"], m["authors"], m["year"]) for m in mentions] == [
        (2, "a survey of sparse routing methods in practice", ["Kowalski"], 2021)]


def test_names_then_a_quoted_title_alone_in_brackets_cite_it(tmp_path: Path) -> None:
    text = ("Mira K.\n@mira\n\n"
            "5/ guidance comes from Okafor & Keller (\"sparse routers beat dense ones\"), which everyone uses now\n"
            "6/ thanks to Priya & Jun (\"ok\") for the slides\n")
    mentions = extract_mentions(tmp_path, "saved_tweets.txt", text)
    assert [(m["title"], m["authors"]) for m in mentions] == [("sparse routers beat dense ones", ["Okafor", "Keller"])]


def test_three_joined_names_then_a_short_name_in_brackets_are_a_citation(tmp_path: Path) -> None:
    text = ("Dana Okafor  10:04 AM\n"
            "for the adam session can we also skim Okafor, Keller & Moreau (adagrad)? the story starts there\n"
            "Jun Obi  10:06 AM\n"
            "thanks to Priya, Marcus & Lena (organisers) for the room\n"
            "and Keller & Moreau (adagrad) too\n")
    mentions = extract_mentions(tmp_path, "slack_opt.txt", text)
    assert _cited(mentions) == [(2, ["Okafor", "Keller", "Moreau"], False, None)]


@pytest.mark.parametrize("line,authors", [
    ("    - GateKeep, Okafor et al. ICLR 2021 (oral) — sparse gating everywhere", ["Okafor"]),
    ("    - SparseMoE, Lindqvist et al. 2022 — the routing one", ["Lindqvist"]),
    # family names with a prefix before an inner capital stay names
    ("    - LeCun, Bengio & Hinton 2015 — the review", ["LeCun", "Bengio", "Hinton"]),
    ("    - McAllester & DeVries 2019 — bounds", ["McAllester", "DeVries"]),
])
def test_a_short_name_in_camel_case_before_a_citation_is_no_author(tmp_path: Path, line: str, authors: list[str]) -> None:
    mentions = extract_mentions(tmp_path, "notes.md", "- reading\n" + line + "\n")
    assert [m["authors"] for m in mentions if m["authors"]] == [authors]


def test_et_al_after_a_sentence_word_joined_by_and() -> None:
    # the names the citation syntax matched began at a word of the sentence ("paper and
    # Okafor", "GateNet and Okafor"): the citation is the names after the "and"
    from citekit.notes.authoryear import find_citations

    for text in ("I'd pair the routing paper and Okafor et al. 2021 on balance.",
                 "compare GateNet and Okafor et al. 2021 on balance"):
        cites = find_citations(text)
        assert [(c.authors, c.incomplete, c.year) for c in cites] == [(("Okafor",), True, 2021)]


def test_one_name_and_a_year_after_an_apostrophe() -> None:
    # ``Mensah '17``: a family name and its year cut to two digits; a season, a venue or a
    # place before such a year is none
    from citekit.notes.authoryear import find_citations

    cites = find_citations("the first take is Mensah '17 (grid worlds), then Okafor ’21, Gated Noise for Sparse Routers.")
    assert [(c.authors, c.year, c.title) for c in cites] == [(("Mensah",), 2017, None),
                                                             (("Okafor",), 2021, "Gated Noise for Sparse Routers")]
    for text in ("back in Summer '19 we met", "at ICLR '24 there were posters", "a trip to New York '19"):
        assert find_citations(text) == [], text


def test_a_title_after_names_and_a_dash_inside_the_citations_bracket() -> None:
    # ``GNR (Mensah, Ek & Park — gated noise for sparse routers), which …``: the bracket that
    # holds the citation closes its title, as a sentence's end does
    from citekit.notes.authoryear import find_citations

    cites = find_citations("basically GNR (Mensah, Ek & Park — gated noise for sparse mixture routers), which builds on more")
    assert [(c.authors, c.title) for c in cites] == [(("Mensah", "Ek", "Park"), "gated noise for sparse mixture routers")]


def test_a_citation_cut_by_a_hard_wrap_is_read_whole(tmp_path) -> None:
    # an e-mail wraps at 72 columns, through a citation's bracket: the paragraph is read
    # whole, not line by line
    from tests.helpers_extract import extract_mentions

    text = ("Pair the forest paper with the package vignette so they actually run\n"
            "something. And add the gating paper (Mensah, Ek,\n"
            "Park & Boateng, PNAS 2019) -- the framing is what everybody uses now.\n")
    got = [(m["authors"], m["year"]) for m in extract_mentions(tmp_path, "reply.eml.txt", text)]
    assert got == [(["Mensah", "Ek", "Park", "Boateng"], 2019)]


def test_a_wrapped_paragraphs_citations_keep_their_lines_offsets() -> None:
    # read in the whole paragraph, each citation's offsets are its own line's, as a line read
    # alone gives them: what the line says after it ("— an essay, not a paper") is read there
    from citekit.notes.extract import _citations_by_line
    from citekit.notes.outline import Node

    first, second = "Lena Park said the tuned baseline still wins", "and reread (Mensah, 2019 — an essay, not a paper) today"
    node = Node("plain", 1, f"{first} {second}", merged=[2], widths=(len(first), len(second)))
    (line, cite), = _citations_by_line(node)
    assert (line, cite.authors, second[cite.start:cite.start + 6]) == (2, ("Mensah",), "Mensah")


def test_a_remark_after_a_citation_cut_by_a_hard_wrap_still_says_it_is_no_paper(tmp_path) -> None:
    # the wrap cuts the bracket, so the citation ends on the next line, where the remark
    # follows it: what it cites is no paper, read whole or not
    text = ("> For the retreat read the routing survey and then Notes on Compute (Marlow,\n"
            "> 2017), an essay and not a paper, and one of the benchmark write-ups too.\n")
    assert extract_mentions(tmp_path, "fwd.eml.txt", text) == []


def test_a_remark_on_the_line_after_a_whole_citation_is_not_read_as_its(tmp_path) -> None:
    # the citation ends before the wrap: the next line's "not a paper" speaks of what it
    # follows there, as when each line is read on its own
    text = ("Two for the retreat: the gating study (Mensah & Ek, 2019) and\n"
            "the keynote slides from Ghent, which are not a paper.\n")
    got = [(m["authors"], m["year"]) for m in extract_mentions(tmp_path, "fwd.eml.txt", text)]
    assert got == [(["Mensah", "Ek"], 2019)]



def test_a_quoted_sentence_that_cites_several_papers_is_no_title(tmp_path) -> None:
    # a forwarded reply's wrapped sentence names papers by their authors and years: each is
    # a citation, never one "title" running up to the last bracket with its names as authors
    text = ("Begin forwarded message:\n"
            "\n"
            "> From: Ines Barros <ines@example.org>\n"
            "> Subject: routing papers\n"
            "> Date: 3 March 2025\n"
            ">\n"
            "> Three I keep rereading: the gating one (Mensah, Okoro, Lindahl, Varga, Rossi,\n"
            "> 2021) and routing as described by Okafor, Lindqvist & Haldane\n"
            "> (ICML 2020). Also Bandwise (Barros and Keller, 2019).\n"
            ">\n"
            "> Cheers, Ines\n")
    got = [(m["kind"], m["title"], m["authors"], m["year"]) for m in extract_mentions(tmp_path, "fwd.eml.txt", text)]
    assert got == [("cited", None, ["Mensah", "Okoro", "Lindahl", "Varga", "Rossi"], 2021),
                   ("cited", None, ["Okafor", "Lindqvist", "Haldane"], 2020),
                   ("cited", None, ["Barros", "Keller"], 2019)]



def test_a_citation_followed_by_what_the_writer_calls_a_book_is_no_paper(tmp_path) -> None:
    # the names cite a work the next words call a book (the wrap cuts its name): no paper,
    # and the wrapped paragraph that cites it and a paper is no reference string either;
    # the paper cited beside it is read
    text = ("From: Ilse Keane <ilse@example.org>\n"
            "Subject: routing\n"
            "\n"
            ">> The Example U routing lectures + the Haldane et al. Sparse\n"
            ">> Models book, ch. 4 (Gating for Sparse Layers) are good background,\n"
            ">> and for the paper itself Okafor et al. (2021) is the one.\n")
    got = [(m["location"]["line"], m["authors"], m["year"]) for m in extract_mentions(tmp_path, "fwd.eml.txt", text)]
    assert got == [(6, ["Okafor"], 2021)]  # (the citation's own line, not the paragraph read as one reference)


def test_names_before_what_the_line_calls_a_book_cite_no_paper(tmp_path) -> None:
    text = "we read the Haldane et al. Sparse Models book over the summer, then Okafor et al. (2021)\n"
    got = [(m["authors"], m["year"]) for m in extract_mentions(tmp_path, "notes.txt", text)]
    assert got == [(["Okafor"], 2021)]


def test_a_citation_followed_by_talks_as_a_verb_is_still_a_paper(tmp_path) -> None:
    # "talks" and "lectures" are verbs too: they name a talk only after a name of it
    text = ("as Okafor et al. 2021 talks about in section 3\n"
            "\n"
            "and the Brandt & Keller 2020 Sparse Routing lectures are no paper\n")
    got = [(m["authors"], m["year"]) for m in extract_mentions(tmp_path, "notes.txt", text)]
    assert got == [(["Okafor"], 2021)]


def test_title_in_the_brackets_before_et_al_is_no_author(tmp_path: Path) -> None:
    """``(Quillon: … with Scalable Training Strategies, Hu et al.)``: the word before the comma
    ends the title the brackets hold, a word titles write after another capitalised one; the
    citation is Hu et al.'s alone. A list of family names stays whole (``(Young, Long et al.)``
    opens the brackets: no title before it)."""
    text = (
        "Also WSD isn't new, the Quillon report already had it (Quillon: Unveiling the Potential of Small "
        "Routers with Scalable Training Strategies, Hu et al.), and you can see it in SGDR.\n\n"
        "Warmup is older (Young, Long et al. 2019) than people think.\n"
    )
    authors = [m["authors"] for m in extract_mentions(tmp_path, "mail.txt", text) if m["authors"]]
    assert ["Hu"] in authors and ["Young", "Long"] in authors
    assert not any("Strategies" in a for a in authors)


def test_a_comment_between_list_items_cites_its_own_paper(tmp_path: Path) -> None:
    """A forwarder's comment written between the items of a reading list (``[AK] and read
    Zoph et al. 2022 before Thursday``) names no paper on its own line, but the paper it
    cites is read; the item above keeps its own title."""
    text = (
        "4) Routing, in the order I'd read them:\n"
        "   - GShard (Lepikhin et al. 2021)\n"
        "   - \"The Era of Tiny Routers\" if you want something spicy\n"
        "   [AK] the Switch paper (Fedus et al. 2022) is about sparsity, not\n"
        "   serving -- please don't mix them up in the planning doc again.\n"
        "   [AK] and read Zoph et al. 2022 before Thursday, it matters.\n"
    )
    got = [(m["location"]["line"], m["title"], m["authors"]) for m in extract_mentions(tmp_path, "fwd.txt", text)]
    assert (3, "The Era of Tiny Routers", []) in got
    assert (6, None, ["Zoph"]) in got


def test_a_sentence_case_title_after_the_year_in_the_citations_brackets(tmp_path: Path) -> None:
    """``(Osei et al. 2021, Learning transferable routers from natural language supervision)``:
    the rest of the citation's brackets after its year is its title, in sentence case too;
    a remark there (``see Table 3 for the numbers``, ``which we follow here``) is none."""
    text = (
        "contrastive setup is QLIP-style (Osei et al. 2021, Learning transferable routers from natural language supervision) but at scale.\n\n"
        "same setup (Moro et al. 2020, See Table 3 for the small model numbers) as before.\n\n"
        "same setup (Lind et al. 2019, Which we follow here for the large runs) as before.\n"
    )
    got = [(m["title"], m["authors"]) for m in extract_mentions(tmp_path, "notes.md", text)]
    assert got == [("Learning transferable routers from natural language supervision", ["Osei"]),
                   (None, ["Moro"]), (None, ["Lind"])]
