"""The reference parser's training data: strings labelled by construction, and the re-typed records."""

from __future__ import annotations

import random

import pytest

from citekit.notes.refparse.train.corpus import Record
from citekit.notes.refparse.train.render import labelled
from citekit.notes.refparse.train.retype import foreign_title, pools, retyped, with_other_types


def _spans(text: str, rec: Record) -> list[tuple[str, str]]:
    got = labelled(text, rec)
    assert got is not None
    _, tokens, labels = got
    out: list[tuple[str, list[str]]] = []
    for tok, lab in zip(tokens, labels):
        if out and out[-1][0] == lab:
            out[-1][1].append(tok)
        else:
            out.append((lab, [tok]))
    return [(lab, " ".join(words)) for lab, words in out]


@pytest.fixture
def title_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """The aligner's rules of the retyped recipe (the trainer turns them on with ``--retyped-share``)."""
    from citekit.notes.refparse.train import align

    monkeypatch.setattr(align, "TITLE_FIRST", True)


def _record(**kw: object) -> Record:
    base: dict = dict(key="k", entry_type="article", title="Neural nets for parsing",
                      authors=[{"family": "Smith", "given": "John"}, {"family": "Adams", "given": "Ann"}], year=2001)
    base.update(kw)
    return Record(**base)


def test_a_word_the_title_and_its_book_share_stays_in_the_title(title_first: None):
    rec = _record(entry_type="incollection", container="Handbook of Parsing", publisher="Sage", place="London")
    spans = _spans("Smith, J., and A. Adams. 2001. “Neural Nets for Parsing”. In Handbook of Parsing. "
                   "London: Sage.", rec)
    assert ("title", "“Neural Nets for Parsing”.") in spans
    assert ("container", "In Handbook of Parsing.") in spans
    assert ("other", "London: Sage.") in spans


def test_a_title_opening_with_a_after_an_initial_keeps_it(title_first: None):
    rec = _record(title="A hand gesture interface")
    spans = _spans("Smith J, Adams A. A hand gesture interface. 2001.", rec)
    assert spans[0] == ("author", "Smith J, Adams A.")
    assert spans[1] == ("title", "A hand gesture interface.")


def test_retyped_records_are_books_chapters_reports_theses_with_publisher_and_place():
    corpus = [_record(key=f"r{i}", title=f"Paper number {i} on parsing", publisher=p, place=pl, url="https://x.org/a")
              for i, (p, pl) in enumerate([("Sage", "London"), ("MIT Press", "Cambridge, MA"),
                                           ("World Health Organization", "Geneva"),
                                           ("Stanford University", "Stanford, CA")] * 10)]
    corpus.append(_record(key="b", entry_type="book", title="Handbook of Parsing"))
    again = with_other_types(corpus, seed=3, share=1.0)
    assert len(again) == len(corpus)
    kinds = {r.entry_type for r in again}
    assert {"book", "incollection", "techreport", "phdthesis"} <= kinds
    for r in again:
        assert r.key.endswith("-retyped") and r.title
        assert r.entry_type != "book" or (r.publisher and not r.container)
        assert r.entry_type != "incollection" or (r.container == "Handbook of Parsing" and r.pages)


def test_a_retyped_book_prints_its_place_and_publisher_outside_the_title(title_first: None):
    pytest.importorskip("citeproc", reason="renders CSL styles: needs the model extras, pip install -e '.[model]'")
    from citekit.notes.refparse.train.render import render_csl

    rec = _record(title="Risk society: towards a new modernity", publisher="Sage", place="London")
    p = pools([rec, _record(key="c", entry_type="book", title="Handbook of Parsing", publisher="Sage", place="London")])
    rng = random.Random(0)
    book = next(r for r in (retyped(rec, p, rng) for _ in range(50)) if r.entry_type == "book")
    [(text, _)] = render_csl([book], "harvard-cite-them-right")
    spans = _spans(text, book)
    assert ("title", "Risk society: towards a new modernity.") in spans
    assert spans[-1][0] == "other" and "Sage" in spans[-1][1]


def test_titles_in_other_languages_are_told_from_english_ones():
    assert foreign_title("Über die Vollständigkeit des Logikkalküls und der Prädikate")
    assert foreign_title("Essai philosophique sur les probabilités")
    assert not foreign_title("The theory of games and economic behavior")
