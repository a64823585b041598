"""Merging one work's entries: best version's fields, gaps filled, hand edits and keys kept."""

from __future__ import annotations

from citekit.library.merge import merge_entries
from citekit.matching.works import choose_survivor
from citekit.core.model import Entry, Ids, Location


def preprint() -> Entry:
    return Entry(
        key="kingma2014adam", entry_type="article",
        fields={"title": "Adam: A Method for Stochastic Optimization", "author": "Kingma, Diederik P. and Ba, Jimmy",
                "year": "2014", "journal": "arXiv preprint arXiv:1412.6980", "note": "my favourite optimizer"},
        ids=Ids(arxiv="1412.6980"), hand=["note"], tags_added=["adam"], mentions=[Location("notes/a.md", 3)],
        summary="Adaptive moments.", aliases=["adam"],
        generated={"title": "Adam: A Method for Stochastic Optimization"},
    )


def published() -> Entry:
    return Entry(
        key="kingma2015adam", entry_type="inproceedings",
        fields={"title": "Adam: {A} Method for Stochastic Optimization", "author": "Kingma, Diederik P. and Ba, Jimmy",
                "year": "2015", "booktitle": "3rd International Conference on Learning Representations", "note": "Poster"},
        ids=Ids(dblp="journals/corr/KingmaB14"), tags_auto=["optimizer"], mentions=[Location("notes/b.md", 9)],
        status="resolved",
    )


def test_best_version_survives_and_gives_its_fields() -> None:
    result = merge_entries([preprint(), published()])
    e = result.entry
    assert e.key == "kingma2015adam" and e.entry_type == "inproceedings"
    assert e.fields["booktitle"].startswith("3rd International") and e.fields["year"] == "2015"
    assert "journal" not in e.fields  # the preprint's "arXiv preprint" venue does not leak in
    assert result.absorbed == ["kingma2014adam"]
    assert result.key_map() == {"kingma2014adam": "kingma2015adam"}


def test_gaps_are_filled_from_the_same_kind_of_version() -> None:
    a, b = published(), published()
    b.key = "other"
    b.fields["pages"] = "1--15"
    b.fields["abstract"] = "We introduce Adam."
    e = merge_entries([a, b]).entry
    assert e.fields["pages"] == "1--15" and e.fields["abstract"] == "We introduce Adam."
    pre = preprint()
    pre.fields["eprint"] = "1412.6980"
    e = merge_entries([published(), pre]).entry
    assert e.fields["eprint"] == "1412.6980" and e.fields["year"] == "2015"


def test_hand_edit_of_an_absorbed_version_is_recorded_not_applied() -> None:
    result = merge_entries([preprint(), published()])
    e = result.entry
    assert e.fields["note"] == "Poster"  # the preprint's note describes the preprint, not the paper
    assert "note" not in e.hand
    record = next(v for v in e.versions if v["id"] == "kingma2014adam")
    assert record["fields"]["note"] == "my favourite optimizer" and record["hand"] == ["note"]


def test_hand_edit_of_the_surviving_entry_always_wins() -> None:
    pre = preprint()
    e = merge_entries([pre, published()], key="kingma2014adam").entry
    assert e.fields["note"] == "my favourite optimizer" and "note" in e.hand
    assert e.fields["year"] == "2015"  # not edited by hand: the published version's year


def test_absorbed_hand_fields_only_fill_gaps() -> None:
    pre = preprint()
    pre.fields["abstract"] = "We introduce Adam."
    pre.fields["title"] = "Adam, my title"
    pre.hand = ["note", "abstract", "title"]
    e = merge_entries([published(), pre]).entry
    assert e.fields["abstract"] == "We introduce Adam." and "abstract" in e.hand
    assert e.fields["title"] == "Adam: {A} Method for Stochastic Optimization"


def test_hand_written_arxiv_entry_does_not_change_the_published_survivor() -> None:
    paper = Entry(key="huang2026limuon", entry_type="inproceedings", status="resolved",
                  fields={"title": "{LiMuon}: Light and Fast {Muon} Optimizer for Large Models",
                          "author": "Huang, Feihu and Luo, Yuning and Chen, Songcan", "year": "2026",
                          "booktitle": "Forty-third International Conference on Machine Learning"})
    fields = {"title": "{LiMuon}: Light and Fast {Muon} Optimizer for Large Models",
              "author": "Huang, Feihu and Luo, Yuning and Chen, Songcan", "year": "2025", "eprint": "2509.14562",
              "archiveprefix": "arXiv", "note": "arXiv preprint"}
    manual = Entry(key="huang2025limuonarxiv", entry_type="misc", fields=fields, hand=sorted(fields), origin="manual")
    result = merge_entries([paper, manual])
    e = result.entry
    assert e.key == "huang2026limuon"
    assert e.fields["year"] == "2026" and "note" not in e.fields
    assert e.fields["eprint"] == "2509.14562" and e.fields["archiveprefix"] == "arXiv"
    assert "year" not in e.hand and "note" not in e.hand
    record = next(v for v in e.versions if v["id"] == "huang2025limuonarxiv")
    assert record["fields"]["note"] == "arXiv preprint" and record["fields"]["year"] == "2025"


def test_every_old_key_stays_valid_as_an_alias() -> None:
    e = merge_entries([preprint(), published()]).entry
    assert set(e.aliases) == {"kingma2014adam", "adam"}
    assert e.key not in e.aliases


def test_sidecar_data_is_united() -> None:
    e = merge_entries([preprint(), published()]).entry
    assert e.ids.arxiv == "1412.6980" and e.ids.dblp == "journals/corr/KingmaB14"
    assert e.tags == ["adam", "optimizer"]
    assert [str(m) for m in e.mentions] == ["notes/b.md:9", "notes/a.md:3"]
    assert e.summary == "Adaptive moments." and e.status == "resolved"
    assert any(v["id"] == "kingma2014adam" and v["stage"] == "preprint" for v in e.versions)
    assert "merged kingma2014adam" in e.reason


def test_tie_goes_to_the_first_issued_key() -> None:
    a, b = published(), published()
    b.key = "adam2015"
    assert choose_survivor([a, b]).key == "kingma2015adam"
    assert choose_survivor([b, a]).key == "adam2015"


def test_forced_key_keeps_library_key_but_takes_best_fields() -> None:
    result = merge_entries([preprint(), published()], key="kingma2014adam")
    assert result.entry.key == "kingma2014adam"
    assert result.entry.fields["booktitle"].startswith("3rd International")
    assert result.entry.aliases == ["adam", "kingma2015adam"]
