"""Related work never prints a garbled sentence made from a record: each test is a fault a reader struck, said of
new, made-up records read through ``related_work`` as a user's library would be.

- a title that opens with an -ing word qualifying a noun compound ("Drifting Ice Theory") is not read as the
  authors' verb ("drift Ice Theory") unless the abstract uses the verb;
- an abstract sentence whose end was cut ("We extend the main.") is never quoted;
- a workshop's call ("This workshop invites researchers ...") is not called a study;
- shortening keeps "in the context of other X" (dropping it changes the claim) and "compared with X";
- two papers whose sentences share only their verb are not joined as one claim.
"""

from __future__ import annotations

import re

from citekit.core.model import Entry
from citekit.output.compress import compress
from citekit.output.related_work import related_work


def _draft(papers: list[tuple[str, str, str]], tag: str = "ice") -> str:
    entries = [Entry(key=key, entry_type="inproceedings", abstract=abstract, tags_auto=[tag],
                     fields={"title": title, "author": "Doe, Jane and Roe, Rick", "year": "2019"})
               for key, title, abstract in papers]
    return related_work(entries, fmt="markdown", tags=[tag])


def _sentence(draft: str, key: str) -> str:
    for line in draft.splitlines():
        for s in re.split(r"(?<=[.!?])\s+(?=@)", line):
            if f"@{key}" in s:
                return s
    raise AssertionError(f"{key} not cited in {draft}")


FILLER = [("quill2018", "Quill: Writing on Frozen Lakes", "We present Quill, a stylus that writes on lake ice."),
          ("skate2017", "Skating Speed on Thin Ice", "We measure how fast people skate on ice of each thickness.")]


def test_ing_word_qualifying_a_noun_compound_is_no_verb() -> None:
    draft = _draft([("floe2015", "Drifting Ice Theory",
                     "A floe breaks off the shelf in spring. Sailors hear it crack long before they see it.")] + FILLER)
    said = _sentence(draft, "floe2015")
    assert not re.search(r"floe2015 drifts? ", said), said
    assert "drifting ice theory" in said.lower(), said


def test_ing_word_is_a_verb_when_the_abstract_uses_it() -> None:
    draft = _draft([("floe2015", "Drifting Ice Floes",
                     "Ice floes are hard to track by radar. We drift ice floes with buoys to follow the currents.")]
                   + FILLER)
    assert "drift ice floes" in _sentence(draft, "floe2015").lower()


def test_cut_abstract_sentence_is_never_quoted() -> None:
    draft = _draft([("sheet2011", "Models of Sea Ice Sheets",
                     "The article is devoted to models of sea ice sheets. We review and further extend the main.")]
                   + FILLER)
    said = _sentence(draft, "sheet2011")
    assert not re.search(r"\bthe main\.$", said), said


def test_workshop_call_is_not_a_study() -> None:
    draft = _draft([("meet2012", "Frozen Futures: From Ice Sensors to Melting Interfaces",
                     "Cold places are changing fast. This workshop invites designers and researchers to debate how "
                     "interfaces could work on ice, exploring two themes.")] + FILLER)
    said = _sentence(draft, "meet2012")
    assert "workshop" in said and not re.search(r"meet2012 stud(?:y|ies)\b", said), said


def test_in_the_context_of_other_things_is_kept() -> None:
    draft = _draft([("craft2014", "Carving Circuits",
                     "This article examines the practice of ice carving in the context of other winter sports. "
                     "We interview twelve carvers.")] + FILLER)
    assert "in the context of other winter sports" in _sentence(draft, "craft2014")


def test_compared_with_is_kept_when_shortening() -> None:
    verb, clause = compress("that sleds with steel runners glide 20% farther, compared with wooden runners",
                            "show", finding=True)
    assert "compared with wooden runners" in clause, clause


def test_sentences_sharing_only_their_verb_are_not_joined() -> None:
    draft = _draft([("aa2010", "Frozen Pond Acoustics",
                     "Ponds freeze in winter and the ice sings when it cracks at night, a sound skaters know well."),
                    ("bb2011", "Edge Detection in Pond Images",
                     "Cameras on poles watch ponds all winter long, taking one image every hour of the day."),
                    ("cc2012", "Hail Counting", "We count hail stones on roofs with microphones.")])
    assert not re.search(r"aa2010[^.]*;\s*@bb2011|bb2011[^.]*;\s*@aa2010", draft), draft


def test_markdown_todos_stay_out_of_the_paragraphs() -> None:
    # a reader of the Markdown source had to cut each "<!-- TODO(citekit) -->" out of the prose: they are listed
    # after the draft, each with its paragraph's heading; LaTeX keeps its "%" line under the paragraph
    from citekit.output.related_work import Mine

    papers = [("aa2010", "Sled Runners on Lake Ice", "We measure how steel sled runners glide on lake ice."),
              ("bb2011", "Sled Runners on Snow", "We measure how wooden sled runners glide on packed snow."),
              ("cc2012", "Hail Counting", "We count hail stones on roofs with microphones.")]
    entries = [Entry(key=key, entry_type="inproceedings", abstract=abstract, tags_auto=["ice"],
                     fields={"title": title, "author": "Doe, Jane", "year": "2019"}) for key, title, abstract in papers]
    mine = Mine(title="Sled Runners", abstract="We measure how sled runners glide on ice and snow.", name="mine.md")
    out = related_work(entries, fmt="markdown", tags=["ice"], mine=mine)
    blocks = [b for b in re.split(r"\n\s*\n", out) if "TODO(citekit)" in b]
    assert blocks, out
    assert all(all(l.startswith("<!--") for l in b.strip().splitlines()) for b in blocks), out
    headings = re.findall(r"^### (.*)$", out, flags=re.M)
    todos = [l for l in out.splitlines() if "TODO(citekit): contrast with" in l]
    assert all(any(l.startswith(f"<!-- {h} \u2014 ") for h in headings) for l in todos), todos
    latex = related_work(entries, fmt="latex", tags=["ice"], mine=mine)
    assert all(l.startswith("% TODO(citekit)") for l in latex.splitlines() if "TODO(citekit)" in l), latex
