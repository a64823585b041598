"""A paragraph never opens by saying its heading again, and defines its acronyms in its own sentences.

Made-up records, read through ``citekit.api`` and the CLI. Three papers on bead weaving share the phrase (it
names their paragraph) but no action and no kind of artefact: "Three papers address bead weaving" is the opener
readers strike as vacuous, so the paragraph opens with its first paper. With no opener to spell out an acronym
in, the first sentence that uses it does: "bead loom weaving (BLW)" where the reader meets "BLW" first.
"""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from citekit.api.related import related_work
from citekit.cli import main
from tests.helpers_paragraphs import HAPTIC, KNIT, library, opener, paragraphs

BEADS = [
    ("bead1", "Counting Errors in BLW Patterns",
     "Hobbyists copy BLW patterns by hand. We count the errors hobbyists make when they read BLW patterns "
     "from paper, and find that one row in twelve has a misplaced bead."),
    ("bead2", "A History of Bead Weaving Tools",
     "Bead weaving has used looms for centuries. We trace bead weaving tools from museum collections and find "
     "that bead loom weaving (BLW) looms changed little before 1900."),
    ("bead3", "Teaching Bead Weaving in Schools",
     "We taught bead weaving to forty pupils in four schools. Pupils who drew their bead weaving patterns on "
     "squared paper first finished more of them."),
]


def test_no_paragraph_opens_with_the_phrase_its_papers_share(tmp_path: Path) -> None:
    out = related_work(library(tmp_path, "craft", BEADS + HAPTIC + KNIT), tags=("craft",), fmt="markdown").text
    para = next(p for p in paragraphs(out) if "bead2" in p[2])
    assert sorted(set(para[2])) == ["bead1", "bead2", "bead3"], out
    assert opener(para[1]) == "", out
    for _, body, _, _ in paragraphs(out):
        assert not re.match(r"(?:Both|Two|Three|Four|Five|Six)\b[^.@]* (?:address|examine) ", body), out


def test_an_acronym_is_spelled_out_where_the_paragraph_first_uses_it(tmp_path: Path) -> None:
    out = related_work(library(tmp_path, "craft", BEADS + HAPTIC + KNIT), tags=("craft",), fmt="markdown").text
    body = next(p for p in paragraphs(out) if "bead2" in p[2])[1]
    first = re.search(r"(?<![\w\-])BLW(?![\w\-])", body)
    assert first, out
    assert body[:first.end() + 1].endswith("bead loom weaving (BLW)"), out
    assert body.count("(BLW)") == 1, out


def test_the_cli_draft_has_no_hollow_opener(tmp_path: Path) -> None:
    root = library(tmp_path, "craft", BEADS + HAPTIC + KNIT)
    res = CliRunner().invoke(main, ["-C", str(root), "related-work", "--tag", "craft", "--format", "markdown"])
    assert res.exit_code == 0, res.output
    assert " address bead weaving" not in res.stdout and "address" not in res.stdout.split("\n", 1)[1], res.stdout


def test_an_acronym_that_ends_a_name_is_spelled_out_after_it() -> None:
    """"Ideogramic UML" is a name: its long form follows it rather than splitting it, and the check takes that as
    written out (the initials of the words in parentheses spell it), but not a parenthesis that does not."""
    from citekit.api.related import check_snippet
    from citekit.output.related_terms import define_first

    said = define_first(["@web1 present a tool, Loomwright UML.", "@web2 draw UML diagrams."],
                        {"UML": "unified modeling language"})
    assert said == ["@web1 present a tool, Loomwright UML (unified modeling language).", "@web2 draw UML diagrams."]
    assert not [d for d in check_snippet(said[0], "markdown") if d.category == "acronym"]
    assert [d for d in check_snippet("@web1 present a tool, Loomwright UML (a modeller).", "markdown")
            if d.category == "acronym"]


def test_citations_links_and_urls_are_never_rewritten() -> None:
    """A key, a ``--links`` Markdown link or a URL that spells the acronym is left as it is; the prose after it
    defines it."""
    from citekit.output.related_terms import define_first

    forms = {"BLW": "bead loom weaving"}
    said = define_first(["[BLW at Home](https://beads.example/BLW) and \\citet{BLW2020} compare BLW looms."], forms)
    assert said == ["[BLW at Home](https://beads.example/BLW) and \\citet{BLW2020} compare bead loom weaving (BLW) "
                    "looms."], said
