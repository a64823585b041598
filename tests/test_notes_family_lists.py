"""Papers named by their authors' family names before the title, as people type them in
agendas, e-mails, notes-app pages and copied reports: ``VAE-ish = Dinh & Bengio, Title
(ICLR 2017)``, ``Arjovsky, Chintala & Bottou, Title (ICML 2017)``, ``Ho, Jain, Abbeel —
*Title* (NeurIPS 2020)``, ``(Gulrajani, Ahmed & Arjovsky, …)``. The family names are
people, one each (never paired as ``Family, Given``), and the title is the words between
the names and the venue and year.

Each notes file is written in the style the line shape was met in; the lines are made up.
"""

from __future__ import annotations

from pathlib import Path


from tests.helpers_extract import extract_mentions

ORG = """\
* Projects
** TODO generative baselines
   SCHEDULED: <2026-03-02 Mon>
   :LOGBOOK:
   CLOCK: [2026-03-01 Sun 10:00]--[2026-03-01 Sun 11:00] =>  1:00
   :END:
   - flows = Dinh, Sohl-Dickstein & Bengio, Density Estimation Using Real NVP (ICLR 2017)
   - WGAN: Arjovsky, Chintala & Bottou, Wasserstein Generative Adversarial Networks (ICML 2017)
** READING diffusion
   Ho, Jain, Abbeel, Salimans -- "Denoising Diffusion Probabilistic Models", NeurIPS 2020
"""

EMAIL = """\
Subject: Fwd: generative models week

> Begin forwarded message:
>
> Week 2:
>   - Karras, Laine & Aila, Progressive Growing of GANs for Improved Quality, Stability,
>     and Variation (ICLR 2018)
>   - Gulrajani, Ahmed, Arjovsky, Dumoulin -- thanks, will read the clipping fix
"""

NOTION = """\
# Generative models reading group

- DDPM: Ho, Jain, Abbeel — *Denoising Diffusion Probabilistic Models* (NeurIPS 2020). the noise schedule ablation is the part to read
"""

REPORT = """\
Improved Training of Wasserstein GANs
Notes:
Gradient penalty. Contrast with weight clipping — "Spectral Normalization for Generative Adversarial Networks" (Miyato, Kataoka & Yoshida, ICLR 2018), not yet in the library.
"""


def _titled(mentions: list[dict]) -> dict[int, tuple[str, list[str], int | None]]:
    return {m["location"]["line"]: (m["title"], m["authors"], m["year"]) for m in mentions if m["title"]}


def test_an_org_agenda_names_papers_by_a_short_name_and_family_names(tmp_path: Path) -> None:
    found = _titled(extract_mentions(tmp_path, "agenda.org", ORG))
    assert found[7] == ("Density Estimation Using Real NVP", ["Dinh", "Sohl-Dickstein", "Bengio"], 2017)
    assert found[8] == ("Wasserstein Generative Adversarial Networks", ["Arjovsky", "Chintala", "Bottou"], 2017)
    # four family names joined by commas alone: four people, not two "Family, Given" pairs
    assert found[10][1] == ["Ho", "Jain", "Abbeel", "Salimans"]


def test_a_forwarded_list_item_has_its_title_between_the_names_and_the_venue(tmp_path: Path) -> None:
    found = _titled(extract_mentions(tmp_path, "Fwd_generative.eml", EMAIL))
    # (the item is hard-wrapped: its second line is part of the title)
    assert found[6] == ("Progressive Growing of GANs for Improved Quality, Stability, and Variation",
                        ["Karras", "Laine", "Aila"], 2018)
    # names, a dash, then a sentence with no venue or year: nothing made up from it
    assert 8 not in found


def test_a_notion_page_names_a_paper_by_family_names_a_dash_and_an_emphasised_title(tmp_path: Path) -> None:
    found = _titled(extract_mentions(tmp_path, "Generative models 0123456789abcdef0123456789abcdef.md", NOTION))
    assert found[3] == ("Denoising Diffusion Probabilistic Models", ["Ho", "Jain", "Abbeel"], 2020)


def test_a_zotero_report_note_names_a_family_name_list_ending_in_an_ampersand(tmp_path: Path) -> None:
    mentions = extract_mentions(tmp_path, "zotero_report_gans.txt", REPORT)
    cited = [m for m in mentions if m["title"] == "Spectral Normalization for Generative Adversarial Networks"]
    assert cited and cited[0]["authors"] == ["Miyato", "Kataoka", "Yoshida"]


TABLE = """\
# tracker

| Paper | Who | Where |
|---|---|---|
| Chinchilla ("Training Compute-Optimal Large Language Models") | Hoffmann et al. (DeepMind) | NeurIPS 2022 |
| Mixture-of-Depths: Dynamically Allocating Compute in Transformer-Based Language Models | Raposo, Ritter, … , Santoro | arXiv 2024 |
"""

ROAM = """\
- [[Emergent Abilities of Large Language Models]]
    - Author:: Jason Wei et al. (Google)
    - Year:: 2022
"""


def test_a_table_who_column_drops_an_affiliation_and_marks_left_out_names(tmp_path: Path) -> None:
    mentions = {m["location"]["line"]: m for m in extract_mentions(tmp_path, "tracker.md", TABLE)}
    assert (mentions[5]["authors"], mentions[5]["authors_incomplete"]) == (["Hoffmann"], True)
    # names left out in the middle: the names written, and the list said to be incomplete
    assert (mentions[6]["authors"], mentions[6]["authors_incomplete"]) == (["Raposo", "Ritter", "Santoro"], True)


def test_a_roam_author_attribute_drops_the_affiliation_after_et_al(tmp_path: Path) -> None:
    mentions = [m for m in extract_mentions(tmp_path, "Roam-Export-1700000000000.md", ROAM) if m["title"]]
    assert mentions and (mentions[0]["authors"], mentions[0]["authors_incomplete"]) == (["Jason Wei"], True)


TWEETS = """\
Sam Ortiz
@samortiz_ml
·
Mar 3
🧵 sparse models weekend reading

1. Expert Choice — Zhou, Lei & Dai, routing by experts instead of tokens
2. Team Dinner — Lisbon, Porto & Braga, great trip
"""


def test_a_tweet_names_a_short_title_then_family_names_and_a_remark(tmp_path: Path) -> None:
    found = _titled(extract_mentions(tmp_path, "saved_tweets_mar.txt", TWEETS))
    assert found[7] == ("Expert Choice", ["Zhou", "Lei", "Dai"], None)
    assert 8 not in found  # a meal with places, not a paper


NOTION_QUOTES = """\
# Decoding speed-ups

- KV cache: Kim’s “Fast Decoding with Shared Heads for Long Inputs” and Lee et al. “Grouped Queries Trained from Multi-Head Checkpoints” (ACL ’24) → smaller cache
"""


def test_a_title_word_such_as_checkpoints_does_not_hide_the_other_quoted_title(tmp_path: Path) -> None:
    titles = {m["title"] for m in extract_mentions(tmp_path, "Decoding speed-ups 00112233445566778899aabbccddeeff.md", NOTION_QUOTES)}
    assert {"Fast Decoding with Shared Heads for Long Inputs", "Grouped Queries Trained from Multi-Head Checkpoints"} <= titles


EMAIL_QUESTION = """\
Subject: Fwd: seminar picks

> Begin forwarded message:
>
>   - the calibration one -- "Do Deep Generative Models Know What They
>     Don't Know?" -- short, and the students enjoy
>     arguing about the likelihood plots
"""

TWEET_EPISODE = """\
The Loss Curve Pod
@losscurvepod
·
Mar 9
New episode 🎧 we sat down with two students to argue about benchmarks. Ep. 9: "Scaling Laws, Considered Harmful?" — no paper, just vibes.
"""


def test_a_quoted_title_that_asks_a_question_in_a_wrapped_forwarded_item(tmp_path: Path) -> None:
    titles = {m["location"]["line"]: m["title"] for m in extract_mentions(tmp_path, "Fwd_seminar.eml", EMAIL_QUESTION)}
    assert titles.get(5) == "Do Deep Generative Models Know What They Don't Know?"


def test_a_podcast_episode_title_that_asks_a_question_is_no_paper(tmp_path: Path) -> None:
    assert extract_mentions(tmp_path, "saved_tweets_mar.txt", TWEET_EPISODE) == []


ORG_QUOTED = """\
* Projects
*** TODO reproduce BYOL numbers
    SCHEDULED: <2026-03-08 Sun>
    Grill, Strub, Altché, Tallec. "Bootstrap Your Own Latent: A New Approach to Self-Supervised Learning". arXiv:2006.07733
"""


def test_family_names_joined_by_commas_before_a_quoted_title_are_its_authors(tmp_path: Path) -> None:
    mentions = [m for m in extract_mentions(tmp_path, "projects.org", ORG_QUOTED) if m["location"]["line"] == 4]
    assert [m["authors"] for m in mentions] == [["Grill", "Strub", "Altché", "Tallec"]]


def test_family_names_then_a_title_in_title_case_with_no_venue(tmp_path: Path) -> None:
    """``Osei, Lindqvist, Abara, Moro. Don't Decay the Router Rate, Increase the Batch Size.
    1711.99999`` in a forwarded reading list: family names joined by commas, a full stop or a
    dash, then the title in title case (an identifier after it), with no venue or year; a list
    of people before a remark in sentence case is no reference."""
    text = (
        "> week 9 - schedules\n"
        ">   * Osei, Lindqvist, Abara, Moro. Don't Decay the Router Rate, Increase the Batch Size. 1711.99999\n"
        ">   * Osei, Lindqvist, Abara, Moro -- Gated Routers Scale With the Batch Size\n"
        ">   * Osei, Lindqvist, Abara. Thanks all for coming to the reading group today\n"
    )
    got = [(m["title"], m["authors"]) for m in extract_mentions(tmp_path, "fwd.txt", text)]
    assert got == [("Don't Decay the Router Rate, Increase the Batch Size", ["Osei", "Lindqvist", "Abara", "Moro"]),
                   ("Gated Routers Scale With the Batch Size", ["Osei", "Lindqvist", "Abara", "Moro"])]


def test_a_two_letter_family_name_keeps_a_comma_list_a_citation(tmp_path: Path) -> None:
    # (the fitted word list holds nearly every pair of letters; "Ek" and "Wu" are names here)
    text = ("- a tidy survey of curricula (Okonjo, Ek, Park, 2022) for the intro\n"
            "- the pruning baseline (Wu, Ng, Baptiste, ICML 2021)\n")
    got = {m["location"]["line"]: m for m in extract_mentions(tmp_path, "notes.md", text)}
    assert [a.split(",")[0] for a in got[1]["authors"]] == ["Okonjo", "Ek", "Park"] and got[1]["year"] == 2022
    assert [a.split(",")[0] for a in got[2]["authors"]] == ["Wu", "Ng", "Baptiste"]
