"""Per-paper sentences that claim no more than the record (issue 25, sentences round: unsupported and leaked case).

Blind readers struck four shapes on held-out HCI topics; each is tested here on made-up records, never the judged
ones: a title braced by the exporter after its first word ("Rolling {{Ball Physics}}") read as a name, so that its
gerund became the authors' verb and its capitals leaked into prose; a praise word dropped with the "yet" that tied
it to the next adjective left behind ("a yet small sensor"); and a finding whose comparative compares with nothing
the sentence says ("find that cheaper sensors are available"), which the plain sentence of the title replaces; and
a slogan's gerund before a colon ("Taming Hobbyists ...: Linking ...") said as the authors' act although the
abstract never uses the verb; and "study X research based on Y", the title's "Research" after "study".
All go through ``citekit.api.related.related_work``.
"""

from __future__ import annotations

import re

import pytest

from citekit.api.related import related_work
from citekit.core.model import Entry
from citekit.library.store import Library


def paper(key: str, title: str, abstract: str | None = None) -> Entry:
    return Entry(key=key, entry_type="inproceedings", abstract=abstract, tags_auto=["support"],
                 fields={"title": title, "author": "Doe, Jane and Roe, Rick", "year": "2014"})


ENTRIES = [
    paper("doe2014taming", "Taming Hobbyists in the Drone Racing Scene: Linking Skill Loss and Ease of Use",
          "In this paper a case study of a home-built racing drone called Swiftwing serves as an entry point to a "
          "debate about skill loss. This debate has centred on factory work, while hobby builders chose their tools "
          "freely ..."),
    paper("doe2014making", "Making Sense of Wearable Sensors: Five Questions for Designers",
          "Wearable sensors change how people and computers talk to each other. Drawing on studies of conversation, "
          "we pose five questions that designers and researchers of wearable sensing systems should answer before "
          "they build one."),
    paper("doe2014rolling", "Rolling {{Ball Physics}}",
          "A marble falls from the shelf. You reach for it, and it bounces away under the sofa before you can "
          "catch it. The sound tells you where it went, long before ..."),
    paper("doe2014braced", "Indirect {{Selection Through Proxy Handles}}"),
    paper("doe2014turk", "Crowdsourcing with {{Mechanical Turk}}"),
    paper("doe2014research", "Knock Detection Research Based on Door Vibration Sensors"),
    paper("doe2014yet", "Palm Pressure: Sensing Grip Force on Tablets",
          "We present a novel yet small sensor that measures how firmly a user grips a tablet with the palm."),
    paper("doe2014cheaper", "An Overview and Comparison of Grip Sensors for Handheld Devices",
          "Handheld devices can sense how they are held. In this article, we discuss and test several well known "
          "grip sensors from robotics and prosthetics on phones in order to see if an alternative to capacitive "
          "sensing exists. We found that, assuming a number of prerequisites, cheaper sensors are available, that "
          "are comparatively simple and small."),
]


@pytest.fixture(scope="module")
def markdown(tmp_path_factory: pytest.TempPathFactory) -> str:
    root = tmp_path_factory.mktemp("support")
    (root / "citekit.yaml").write_text("# sentence support test project\n")
    lib = Library.load(root / "refs")
    for e in ENTRIES:
        lib.add(e)
    lib.save()
    return related_work(root, tags=("support",), fmt="markdown").text


def sentence(text: str, key: str) -> str:
    """The clause about ``key``: from its citation to the next citation or the end of the sentence."""
    m = re.search(r"@" + key + r"\b.*?(?=;\s@|\.(?:\s|$))", text)
    assert m, f"no sentence about {key} in:\n{text}"
    return m.group(0)


def test_braced_tail_of_a_title_is_no_name_and_its_gerund_no_verb(markdown: str) -> None:
    s = sentence(markdown, "doe2014rolling")
    assert not re.search(r"\broll\b", s), s  # the paper rolls nothing: the -ing word qualifies the noun compound
    assert "Ball" not in s and "Physics" not in s, s
    assert "rolling ball physics" in s, s


def test_braced_tail_of_a_title_keeps_no_title_case(markdown: str) -> None:
    s = sentence(markdown, "doe2014braced")
    assert not re.search(r"\b(?:Selection|Through|Proxy|Handles)\b", s), s


def test_a_braced_name_after_the_first_word_keeps_its_capitals(markdown: str) -> None:
    assert "Mechanical Turk" in sentence(markdown, "doe2014turk")


def test_praise_goes_with_the_conjunction_that_tied_it(markdown: str) -> None:
    s = sentence(markdown, "doe2014yet")
    assert not re.search(r"\b(?:a|an)\s+(?:yet|but)\b", s), s
    assert "novel" not in s, s


def test_a_comparison_with_nothing_gives_way_to_the_title(markdown: str) -> None:
    s = sentence(markdown, "doe2014cheaper")
    assert "cheaper sensors are available" not in s, s
    assert "grip sensors" in s, s


def test_a_slogan_gerund_the_abstract_never_uses_is_no_act_of_the_authors(markdown: str) -> None:
    s = sentence(markdown, "doe2014taming")
    assert not re.search(r"\btames?\b", s), s  # the paper tames no one: the title's gerund is a figure of speech
    assert "taming hobbyists in the drone racing scene" in s, s


def test_an_idiom_with_a_light_verb_keeps_its_verb(markdown: str) -> None:
    s = sentence(markdown, "doe2014making")
    assert "studies making" not in s and "study making" not in s, s


def test_study_says_research_once(markdown: str) -> None:
    s = sentence(markdown, "doe2014research")
    assert not re.search(r"\bresearch\b", s), s
    assert "knock detection based on door vibration sensors" in s, s
