"""``citekit import`` from Zotero: Better BibTeX JSON and CSL-JSON files, the local API and the
web API (a loopback fake in the recorded shapes), keys kept, and re-imports kept in step."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from citekit.library.store import Library
from tests.fakeservices.zotero import LOCAL_OFF, SHAPES, USER_ID, FakeZotero
from tests.helpers_cli import bare_project as project, digest, run

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import zotero_bbt_bench as bbt  # noqa: E402


def _lib(root: Path) -> Library:
    return Library.load(root / "refs")


def _paper(**data):
    base = {"itemType": "journalArticle", "title": "Sharpness-Aware Minimization for Efficiently Improving Generalization",
            "creators": [{"creatorType": "author", "firstName": "Pierre", "lastName": "Foret"},
                         {"creatorType": "author", "firstName": "Ariel", "lastName": "Kleiner"}],
            "publicationTitle": "Journal of Things", "date": "2021-05", "DOI": "10.1000/sam.2021",
            "tags": [{"tag": "Optimization"}], "collections": []}
    base.update(data)
    return base


# ---- the measure: Better BibTeX's own export tests ---------------------------------------

@pytest.mark.skipif(not bbt.CORPUS.is_dir(), reason="the shared zotero-bbt-export corpus is not here")
def test_every_bbt_fixture_gives_bbt_keys_and_fields():
    """Every JSON fixture with BBT's .bibtex: the same key for every item, >= 95 % of the
    compared fields the same after normalisation (dev and held-out fixtures together)."""
    scores = bbt.run()
    total = bbt.Score()
    for part in scores.values():
        total.add(part)
    assert total.items > 200
    assert total.keys_same == total.items, [m for m in total.misses if "not in BBT" in m]
    assert total.fields_same / total.fields >= 0.95, total.misses


# ---- files -------------------------------------------------------------------------------

def test_bbt_json_file_keys_tags_collections_and_skipped_children(tmp_path):
    root = project(tmp_path)
    shape = json.loads((SHAPES / "bbt_item_citationKey_and_extra.json").read_text())["export"]
    shape["items"].append({"itemType": "book", "itemID": 2, "key": "ABCD2345", "title": "Pinned in Extra",
                           "extra": "Citation Key: pinned2019\nOCLC: 1234", "date": "2019",
                           "creators": [{"creatorType": "author", "name": "World Health Organization"}],
                           "notes": [{"note": "n"}], "attachments": [{"path": "a.pdf"}]})
    shape["items"].append({"itemType": "book", "itemID": 3, "title": "No Key Anywhere", "date": "2001",
                           "creators": [{"creatorType": "author", "firstName": "Ada", "lastName": "Lovelace"}]})
    shape["collections"] = {"C1": {"key": "C1", "name": "Thesis", "collections": ["C2"], "items": []},
                            "C2": {"key": "C2", "name": "Chapter 2", "collections": [], "items": [2]}}
    src = tmp_path / "My Library.json"
    src.write_text(json.dumps(shape), encoding="utf-8")
    result = run(root, "import", str(src), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)["sources"][0]
    assert data["zotero"]["key_sources"]["shaw_rfc4880_2007"] == "citationKey"
    assert data["zotero"]["key_sources"]["pinned2019"] == "extra"
    made = [k for k, s in data["zotero"]["key_sources"].items() if s == "citekit"]
    assert len(made) == 1 and made[0].startswith("lovelace")
    assert data["zotero"]["skipped"] == {"attachment": 1, "note": 1}
    lib = _lib(root)
    who = lib.entries["pinned2019"]
    assert who.fields["author"] == "{World Health Organization}"
    assert "zotero/thesis/chapter-2" in who.tags
    assert who.fields["annotation"] == "OCLC: 1234"
    assert lib.entries["shaw_rfc4880_2007"].entry_type == "misc"


def test_csl_json_file(tmp_path):
    root = project(tmp_path)
    csl = json.loads((SHAPES / "bbt_better_csl_json_export.json").read_text())["export"]
    src = tmp_path / "refs.json"
    src.write_text(json.dumps(csl), encoding="utf-8")
    result = run(root, "import", str(src))
    assert result.exit_code == 0, result.output
    entry = _lib(root).entries["Schwabedissen19xxAnfangeNeolithikums"]
    assert entry.entry_type == "book" and entry.fields["editor"] == "Schwabedissen, H."


def test_name_suffixes_are_bibtex_jr_parts_in_both_json_shapes(tmp_path):
    """A suffix after a comma in Zotero's first name ("Jr.", citeproc's ",! III") and CSL's
    ``suffix`` become BibTeX's ``von Last, Jr, First`` (as Better BibTeX writes them), never a
    braced first name that BibTeX prints as "Quentin, Jr. Abernathy"."""
    root = project(tmp_path)
    items = [_paper(title="On Suffixed Names", DOI="10.1000/suffix.1", citationKey="suffixed2020",
                    creators=[{"creatorType": "author", "firstName": "Quentin R., Jr.", "lastName": "Abernathy"},
                              {"creatorType": "author", "firstName": "Odile,! III", "lastName": "Marchetti"},
                              {"creatorType": "author", "firstName": "Bastien, fils", "lastName": "de Valmont"}])]
    (tmp_path / "zotero.json").write_text(json.dumps({"config": {}, "items": items}), encoding="utf-8")
    assert run(root, "import", str(tmp_path / "zotero.json")).exit_code == 0
    assert _lib(root).entries["suffixed2020"].fields["author"] == (
        "Abernathy, Jr., Quentin R. and Marchetti, III, Odile and de Valmont, fils, Bastien")
    csl = [{"id": "cslsuffix2019", "type": "article-journal", "title": "Suffixes in CSL", "issued": {"date-parts": [[2019]]},
            "author": [{"family": "Whitcombe", "given": "Harold", "suffix": "Sr."}, {"family": "Ng", "given": "Lia"}]}]
    (tmp_path / "csl.json").write_text(json.dumps(csl), encoding="utf-8")
    assert run(root, "import", str(tmp_path / "csl.json")).exit_code == 0
    assert _lib(root).entries["cslsuffix2019"].fields["author"] == "Whitcombe, Sr., Harold and Ng, Lia"


def test_a_bibtex_name_with_a_jr_part_reads_back_as_written():
    from citekit.bibtex.values import person_field
    from citekit.core.names import parse_name

    person = parse_name("van Dusen, Jr., Wilhelmina", family_first=True)
    assert (person.von, person.family, person.jr, person.given) == ("van", "Dusen", "Jr.", "Wilhelmina")
    assert person_field(person) == "van Dusen, Jr., Wilhelmina" and person.display() == "Wilhelmina van Dusen, Jr."


def test_keys_from_a_bbt_export(tmp_path):
    root = project(tmp_path)
    shape = json.loads((SHAPES / "bbt_betterbibtex_json_export.json").read_text())["export"]
    src = tmp_path / "lib.json"
    src.write_text(json.dumps(shape), encoding="utf-8")
    bib = tmp_path / "lib.bib"
    bib.write_text("@book{Schwabedissen19xxAnfangeNeolithikums,\n  title = {Die {Anfänge} des Neolithikums vom "
                   "Orient bis Nordeuropa. Fundamenta A 3 und B 3},\n  editor = {Schwabedissen, H.},\n}\n",
                   encoding="utf-8")
    result = run(root, "import", str(src), "--keys-from", str(bib))
    assert result.exit_code == 0, result.output
    assert "keys from the Better BibTeX export (--keys-from): 1" in result.output
    assert list(_lib(root).entries) == ["Schwabedissen19xxAnfangeNeolithikums"]


def test_not_zotero_json_says_what_to_export(tmp_path):
    root = project(tmp_path)
    src = tmp_path / "x.json"
    src.write_text('{"hello": 1}', encoding="utf-8")
    before = digest(root)
    result = run(root, "import", str(src))
    assert result.exit_code == 2
    assert "Better BibTeX JSON" in result.output
    assert digest(root) == before


# ---- the local API -----------------------------------------------------------------------

def test_local_api_off_says_how_to_enable_it(tmp_path, monkeypatch):
    root = project(tmp_path)
    with FakeZotero(enabled=False) as z:
        monkeypatch.setenv("CITEKIT_ZOTERO_URL", z.local_url)
        result = run(root, "import", "--zotero")
    assert result.exit_code == 2
    assert LOCAL_OFF in result.output
    assert "Allow other applications on this computer to communicate with Zotero" in result.output


def test_local_api_not_running(tmp_path, monkeypatch):
    root = project(tmp_path)
    with FakeZotero() as z:
        url = z.local_url
    monkeypatch.setenv("CITEKIT_ZOTERO_URL", url)
    monkeypatch.setenv("CITEKIT_RETRIES", "0")
    result = run(root, "import", "--zotero")
    assert result.exit_code == 2
    assert "start Zotero" in result.output


def test_local_api_paged_then_kept_in_step(tmp_path, monkeypatch):
    """A first import reads every page; the next asks only since the last version, takes
    Zotero's changes, keeps the user's hand edit and tag, and reports deleted items."""
    root = project(tmp_path)
    with FakeZotero(page_limit=2) as z:
        monkeypatch.setenv("CITEKIT_ZOTERO_URL", z.local_url)
        thesis = z.add_collection("Thesis")
        keys = [z.add_item(_paper(title=f"Paper number {i} on sharpness", DOI=f"10.1000/p{i}",
                                  citationKey=f"paper{i}", collections=[thesis])) for i in range(5)]
        z.add_item({"itemType": "attachment", "title": "PDF", "parentItem": keys[0]})
        z.add_item({"itemType": "note", "note": "<p>hi</p>", "parentItem": keys[0]})
        result = run(root, "import", "--zotero")
        assert result.exit_code == 0, result.output
        assert "read 5 items; skipped 1 attachment, 1 note" in result.output
        assert "keys from Zotero's citationKey field: 5" in result.output
        pages = [r for r in z.requests if r.startswith("GET /api/users/0/items")]
        assert len(pages) == 4  # 7 items, 2 a page
        lib = _lib(root)
        assert sorted(lib.entries) == [f"paper{i}" for i in range(5)]
        assert "zotero/thesis" in lib.entries["paper0"].tags and "optimization" in lib.entries["paper0"].tags
        assert lib.entries["paper0"].import_record["file"] == "zotero:local"

        # the user edits paper1's title in library.bib and tags paper2 in citekit
        bib = root / "refs" / "library.bib"
        bib.write_text(bib.read_text().replace("Paper Number 1 on Sharpness", "My Own Title")
                       .replace("Paper number 1 on sharpness", "My Own Title"), encoding="utf-8")
        assert run(root, "tag", "paper2", "+mine").exit_code == 0
        version = z.version
        z.update_item(keys[1], title="Paper number 1, corrected", pages="1-9")
        z.update_item(keys[2], tags=[{"tag": "Optimization"}, {"tag": "Flat minima"}])
        z.update_item(keys[3], citationKey="paper3new")
        z.delete_item(keys[4])
        z.add_item(_paper(title="A new paper in Zotero", DOI="10.1000/new", citationKey="newpaper"))
        z.requests.clear()
        result = run(root, "import", "--zotero", "--json")
        assert result.exit_code == 1, result.output  # paper1's title changed on both sides
        assert any(f"since={version}" in r for r in z.requests if "/items" in r)
        assert any(r.startswith("GET /api/users/0/deleted") for r in z.requests)
        data = json.loads(result.output)["sources"][0]
    lib = _lib(root)
    assert "My Own Title" in lib.entries["paper1"].fields["title"]  # the hand edit stands
    assert lib.entries["paper1"].fields["pages"] == "1--9"  # Zotero's new field came in
    assert [c["field"] for c in data["conflicts"]] == ["title"]
    assert {"flat-minima", "mine", "optimization"} <= set(lib.entries["paper2"].tags)
    assert "paper3new" in lib.entries["paper3"].aliases  # keys never change; Zotero's new one leads here
    assert data["zotero"]["zotero_renamed"] == {"paper3": "paper3new"}
    assert [g["key"] for g in data["removed_from_file"]] == ["paper4"] and "paper4" in lib.entries
    assert "newpaper" in data["added"]
    assert data["zotero"]["read"] == 4


# ---- the web API -------------------------------------------------------------------------

def test_web_api_needs_a_key_and_reads_with_it(tmp_path, monkeypatch):
    root = project(tmp_path)
    with FakeZotero() as z:
        z.add_item(_paper(citationKey=""))
        monkeypatch.setenv("CITEKIT_ZOTERO_WEB_URL", z.root)
        monkeypatch.delenv("ZOTERO_API_KEY", raising=False)
        result = run(root, "import", "--zotero-library", f"users/{USER_ID}")
        assert result.exit_code == 2 and "ZOTERO_API_KEY" in result.output
        monkeypatch.setenv("ZOTERO_API_KEY", "wrong")
        result = run(root, "import", "--zotero-library", f"users/{USER_ID}")
        assert result.exit_code == 2 and "refused" in result.output
        monkeypatch.setenv("ZOTERO_API_KEY", z.api_key)
        result = run(root, "import", "--zotero-library", f"users/{USER_ID}")
        assert result.exit_code == 0, result.output
        assert "made by citekit" in result.output
        result = run(root, "import", "--zotero-library", "people/12")
        assert result.exit_code == 2 and "users/ID" in result.output
    entry = next(iter(_lib(root).entries.values()))
    assert entry.fields["journal"] == "Journal of Things" and entry.fields["doi"] == "10.1000/sam.2021"
    assert entry.import_record["file"] == f"zotero:users/{USER_ID}"


def test_recorded_web_items_map(tmp_path):
    """The recorded pyzotero listing: a whole name in lastName, a date in words."""
    from citekit.library.zotero_items import to_record

    rows = json.loads((SHAPES / "zotero_items_list_pyzotero.json").read_text())["response"]
    record = to_record(rows[1])
    assert record is not None and record.item_key == "PQKBRC33" and record.version == 1
    assert record.entry.fields["author"] == "{R. Creighton Buck}"
    assert record.entry.fields["year"] == "1980" and record.entry.fields["month"] == "may"
    assert record.entry.fields["journal"] == "The American Mathematical Monthly"


def test_trashed_item_reported_and_dry_run_writes_nothing(tmp_path, monkeypatch):
    root = project(tmp_path)
    with FakeZotero() as z:
        monkeypatch.setenv("CITEKIT_ZOTERO_URL", z.local_url)
        keep = z.add_item(_paper(citationKey="kept2021"))
        trash = z.add_item(_paper(title="Soon in the trash", DOI="10.1000/trash", citationKey="trash2021"))
        before = digest(root / "refs")
        result = run(root, "import", "--zotero", "--dry-run")
        assert result.exit_code == 0 and "would import 2 new entries" in result.output, result.output
        assert digest(root / "refs") == before  # a dry run writes nothing
        assert run(root, "import", "--zotero").exit_code == 0
        z.update_item(trash, deleted=1)
        result = run(root, "import", "--zotero", "--json")
        assert result.exit_code == 0, result.output
        data = json.loads(result.output)["sources"][0]
    assert [g["key"] for g in data["removed_from_file"]] == ["trash2021"]
    assert {"kept2021", "trash2021"} <= set(_lib(root).entries) and keep
