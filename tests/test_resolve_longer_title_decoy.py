"""A record whose title is longer than the notes' one and starts with it, by the same first
author and someone else (``Analysis of Programs for Parallel Processing: A Second Look``), is
another paper, not the notes' paper renamed: it is refused, and the search goes on to the
record under the notes' own title. A version really retitled at publication keeps its whole
author list, and is still taken. Through resolution, against the loopback fakes, with dblp
and Crossref answers in the recorded shapes (``tests/fixtures/api/dblp``, ``…/crossref``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citekit.matching.candidates import same_author_list
from citekit.notes.extract import extract_text

from .fakeservices import FakeServices
from .fakeservices.resolving import resolve_each
from .fakeservices.shapes import json_shape_differences

REPO = Path(__file__).resolve().parents[1]
API = REPO / "tests" / "fixtures" / "api"
#: [1] is AnyStyle's gold.xml (written by others): a one-author paper of 1966
NOTES = ("References\n\n"
         "[1] A. J. Bernstein. Analysis of programs for parallel processing. IEEE Transactions on Electronic "
         "Computers, pages 757-763, October 1966.\n"
         "[2] H. Kim and T. Novak. Sparse mixtures of adapters for continual learning. Preprint, 2025.\n")
BERNSTEIN, KIM = 3, 4  # (their lines)
DECOY = ("dblp", "journals/tc/BernsteinL66")


def _dblp_hits(name: str) -> list[dict]:
    return [hit["info"] for hit in json.loads((API / "dblp" / name).read_text(encoding="utf-8"))["result"]["hits"]["hit"]]


def _crossref_items(name: str) -> list[dict]:
    items = json.loads((API / "crossref" / name).read_text(encoding="utf-8"))["message"]["items"]
    return [{k: v for k, v in item.items() if k != "score"} for item in items]


@pytest.fixture()
def fake():
    with FakeServices() as services:
        for info in _dblp_hits("search_longer_title_decoy.json") + _dblp_hits("search_retitled_version.json"):
            services.world.dblp[info["key"]] = info
        yield services


def _resolve(fake: FakeServices, mentions):
    return {w.mentions[0].location.line: w for w in resolve_each(fake, mentions)}


def _mentions():
    mentions = extract_text(NOTES, "refs.txt").mentions
    assert [(m.location.line, m.title, m.authors, m.authors_incomplete) for m in mentions] == [
        (BERNSTEIN, "Analysis of programs for parallel processing", ["A. J. Bernstein"], False),
        (KIM, "Sparse mixtures of adapters for continual learning", ["H. Kim", "T. Novak"], False)]
    return mentions


def test_the_fixtures_have_the_shapes_of_the_recorded_answers() -> None:
    dblp = json.loads((API / "dblp" / "search_icml.json").read_text(encoding="utf-8"))
    for name in ("search_longer_title_decoy.json", "search_retitled_version.json"):
        answer = json.loads((API / "dblp" / name).read_text(encoding="utf-8"))
        assert json_shape_differences(answer, [dblp], records=frozenset({"result.hits.hit[].info"})) == [], name
    crossref = json.loads((API / "crossref" / "search_reference_lstm.json").read_text(encoding="utf-8"))
    for name in ("search_parallel_processing.json", "search_sparse_adapters.json"):
        answer = json.loads((API / "crossref" / name).read_text(encoding="utf-8"))
        assert json_shape_differences(answer, [crossref], records=frozenset({"message.items[]"})) == [], name


def test_the_longer_title_by_the_first_author_and_another_is_refused_for_the_paper_itself(fake) -> None:
    for item in _crossref_items("search_parallel_processing.json"):
        fake.world.crossref_items.append({"item": item, "bias": 0.0})
    work = _resolve(fake, _mentions()[:1])[BERNSTEIN]
    # dblp (asked before Crossref) answers "…: A Second Look" by A. J. Bernstein and Karin
    # Lindqvist, the same journal and year: not the one-author paper the notes cite
    assert work.status == "resolved", work.reason
    assert work.chosen.source == "crossref" and work.chosen.ids.doi == "10.1109/pgec.1966.264565"
    assert work.chosen.title == "Analysis of Programs for Parallel Processing"
    assert DECOY not in {(c.source, c.id) for c in work.versions + work.runners_up}
    assert fake.requests("dblp") >= 1  # (it was asked, and its answer refused)


def test_the_longer_title_alone_leaves_the_paper_pending_and_says_why(fake) -> None:
    work = _resolve(fake, _mentions()[:1])[BERNSTEIN]
    assert work.status != "resolved" and work.chosen is None, work.reason
    assert "title only partly agrees and its authors are not the notes' list" in work.reason
    assert "Analysis of Programs for Parallel Processing: A Second Look" in work.reason


def test_a_version_retitled_at_publication_with_the_same_authors_is_still_taken(fake) -> None:
    work = _resolve(fake, _mentions()[1:])[KIM]
    # dblp answers two longer titles that start with the notes' one: the published version by
    # the same two authors (retitled), and "…: A Second Look" by Hana Kim and Priya Raman
    assert work.status == "resolved", work.reason
    assert work.chosen.id == "journals/tmlr/KimN25"
    assert work.chosen.title == "Sparse Mixtures of Adapters for Continual Learning: Forgetting Less with Fewer Parameters"
    assert work.reason.startswith("renamed: title partly agrees, the same authors")
    assert ("dblp", "journals/tmlr/KimR25") not in {(c.source, c.id) for c in work.versions}


def test_a_retitled_record_does_not_stop_the_search_for_the_record_under_the_notes_title(fake) -> None:
    for item in _crossref_items("search_sparse_adapters.json"):
        fake.world.crossref_items.append({"item": item, "bias": 0.0})
    work = _resolve(fake, _mentions()[1:])[KIM]
    # dblp (asked first) has the longer title by the same two authors; Crossref, asked after it,
    # has the notes' own title by them: that one is the paper (the longer one may be their
    # other paper of the year, as 1994a and 1994b are)
    assert work.status == "resolved", work.reason
    assert work.chosen.source == "crossref" and work.chosen.ids.doi == "10.5555/cola.2025.0417"
    assert work.reason.startswith("title and authors agree")
    assert fake.requests("crossref") >= 1


@pytest.mark.parametrize("written, found, matched, incomplete, same", [
    (1, 1, 1, False, True),    # one author, the same one
    (1, 2, 1, False, False),   # the first author and someone else: another paper
    (2, 2, 2, False, True),
    (2, 3, 2, False, False),   # two named, a third on the record: not the notes' list
    (2, 2, 1, False, False),
    (8, 9, 8, False, True),    # eight agree, one author added at publication
    (3, 2, 2, False, False),   # one of three missing, only two agree
    (4, 3, 3, False, True),    # three agree, one of four missing
    (8, 10, 8, False, False),  # two more
    (1, 3, 1, True, False),    # "Kim et al.": one name alone confirms no list
    (2, 5, 2, True, True),     # "Kim, Novak et al.": both on the record
    (3, 5, 2, True, False),    # one of the named authors missing
])
def test_the_same_author_list(written, found, matched, incomplete, same) -> None:
    assert same_author_list(written, found, matched, incomplete) is same
