"""Merging versions never mixes one version's venue into another; retitled later articles are related, not versions."""

from __future__ import annotations

import pytest

from citekit.library.dedup import analyse
from citekit.library.merge import VERSION_FIELDS, merge_entries
from citekit.core.model import Entry, Ids
from citekit.matching.works import compare, prepare

PAIRS = [
    (Entry(key="goodfellow2014gan", entry_type="inproceedings", fields={
        "author": "Goodfellow, Ian and Pouget-Abadie, Jean and Mirza, Mehdi", "title": "Generative Adversarial Nets",
        "booktitle": "NeurIPS", "year": "2014", "pages": "2672--2680"}),
     Entry(key="goodfellow2020gan", entry_type="article", fields={
         "author": "Goodfellow, Ian and Pouget-Abadie, Jean and Mirza, Mehdi", "title": "Generative Adversarial Networks",
         "journal": "Communications of the ACM", "year": "2020", "volume": "63", "number": "11", "pages": "139--144"})),
    (Entry(key="krizhevsky2012imagenet", entry_type="inproceedings", fields={
        "author": "Krizhevsky, Alex and Sutskever, Ilya and Hinton, Geoffrey E.",
        "title": "ImageNet Classification with Deep Convolutional Neural Networks",
        "booktitle": "Advances in Neural Information Processing Systems", "year": "2012", "series": "NIPS'12",
        "publisher": "Curran Associates"}),
     Entry(key="krizhevsky2017imagenet", entry_type="article", fields={
         "author": "Krizhevsky, Alex and Sutskever, Ilya and Hinton, Geoffrey E.",
         "title": "ImageNet Classification with Deep Convolutional Neural Networks",
         "journal": "Communications of the ACM", "year": "2017", "volume": "60", "number": "6", "month": "may",
         "doi": "10.1145/3065386"})),
    (Entry(key="silver2016go", entry_type="article", fields={
        "author": "Silver, David and Huang, Aja and Maddison, Chris J.",
        "title": "Mastering the game of Go with deep neural networks and tree search",
        "journal": "Nature", "year": "2016", "volume": "529", "pages": "484--489"}),
     Entry(key="silver2018go", entry_type="article", fields={
         "author": "Silver, David and Huang, Aja and Maddison, Chris J.",
         "title": "Mastering the game of Go with deep neural networks and tree search",
         "journal": "Science", "year": "2018", "number": "6419", "publisher": "AAAS"})),
]


@pytest.mark.parametrize("a,b", PAIRS, ids=lambda e: e.key)
@pytest.mark.parametrize("keep", [0, 1])
def test_merged_versions_keep_only_the_survivors_venue_fields(a, b, keep):
    pair = [a, b]
    survivor = pair[keep]
    result = merge_entries(pair, key=survivor.key)
    merged = result.entry
    base = next(e for e in pair if e.fields.get("journal", e.fields.get("booktitle")) ==
                merged.fields.get("journal", merged.fields.get("booktitle")))
    other = next(e for e in pair if e is not base)
    venue = {k: v for k, v in merged.fields.items() if k in VERSION_FIELDS}
    assert venue == {k: v for k, v in base.fields.items() if k in VERSION_FIELDS}
    assert merged.entry_type == base.entry_type
    assert not ({"booktitle", "journal"} <= set(merged.fields))
    # nothing of the other version is lost: its record keeps every field the survivor lacks
    record = next(v for v in merged.versions if v.get("id") == other.key) if other.key != survivor.key else None
    if record is not None:
        for name, value in other.fields.items():
            assert merged.fields.get(name) == value or record["fields"].get(name) == value


def test_duplicates_of_one_publication_still_fill_gaps():
    a = Entry(key="x1", entry_type="article", fields={"author": "Doe, Jane", "title": "A Study of Widgets",
                                                       "journal": "Widget Review", "year": "2019"})
    b = Entry(key="x2", entry_type="article", fields={"author": "Doe, Jane", "title": "A Study of Widgets",
                                                       "journal": "Widget Review", "year": "2019", "pages": "1--9",
                                                       "volume": "4"})
    merged = merge_entries([a, b], key="x1").entry
    assert merged.fields["pages"] == "1--9" and merged.fields["volume"] == "4"


def test_later_article_under_another_title_is_related_not_a_version():
    conf, journal = PAIRS[0]
    verdict = compare(*prepare([conf, journal]))
    assert verdict is not None and verdict.kind == "related"
    found = analyse([conf, journal])
    assert not found.clusters and not found.versions
    assert [c.keys for c in found.related] == [["goodfellow2014gan", "goodfellow2020gan"]]


@pytest.mark.parametrize("a,b", PAIRS[1:], ids=lambda e: e.key)
def test_same_title_years_apart_stays_versions(a, b):
    verdict = compare(*prepare([a, b]))
    assert verdict is not None and verdict.kind == "versions"


def test_a_shared_identifier_links_a_retitled_article():
    conf, journal = PAIRS[0]
    both = [Entry(key=e.key, entry_type=e.entry_type, fields=dict(e.fields), ids=Ids(arxiv="1406.2661"))
            for e in (conf, journal)]
    verdict = compare(*prepare(both))
    assert verdict is not None and verdict.kind != "related"


def test_real_retitled_later_paper_from_the_corpora_is_related():
    """aima4e.bib: Hales's 2005 proof and the 2017 formal proof (Flyspeck) are two papers."""
    from pathlib import Path

    from citekit.bibtex.reader import read_bib_file

    path = Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / "aima4e" / "aima4e.bib"
    if not path.exists():
        pytest.skip("the shared corpora beside the repository are not here")
    entries = [e for e in read_bib_file(path).entries if e.key in ("Hales:2005", "Hales+al:2017")]
    assert len(entries) == 2
    verdict = compare(*prepare(entries))
    assert verdict is not None and verdict.kind == "related"
    found = analyse(entries)
    assert not found.versions and not found.clusters and len(found.related) == 1
